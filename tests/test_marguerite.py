"""Marguerite battles: random legal parties always finish, keep the invariants and replay byte for byte.

The battle count is fixed for CI (MARGUERITE_BATTLES, 500); CARDC_PROFILE=long plays 5000.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

from runtime.battle.rules import Rules, load_rules
from runtime.battle.state import Battle
from runtime.decks import DeckError
from tools.battle import fuzz
from tools.battle.fuzz import random_party, violations
from tools.battle.play import battle, budget_of, read_party, tournament_table
from tools.cli import main

ROOT = Path(__file__).resolve().parent.parent
BATTLES = 5000 if os.environ.get("CARDC_PROFILE") == "long" else 500


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules("marguerite")


def test_every_sword_is_in_the_pool(rules: Rules) -> None:
    sheet = [c for c in rules.cards.values() if not c.where.startswith("custom.card:")]
    swords = [c for c in sheet if c.kind in rules.sword_kinds]
    built = [c for c in sheet if c.kind == "swordsman"]
    assert (len(swords), len(rules.enchantments), len(rules.statuses), len(built)) == (75, 11, 13, 7)
    assert len({alias for c in swords for alias in c.names}) == 150  # a Japanese name and an ID each
    custom = sorted(c.name for c in rules.cards.values() if c.where.startswith("custom.card:"))
    assert custom == ["Hollow", "Hollow-Making Sword", "Mason", "Mason-Making Sword", "Severing Sword"]


def test_random_battles_finish_keep_invariants_and_replay(rules: Rules) -> None:
    rng = random.Random(2011)
    budget = budget_of(rules)
    assert budget is not None
    problems, results = [], {"A": 0, "B": 0, "draw": 0}
    for n in range(BATTLES):
        a, b = random_party(rules, rng, budget), random_party(rules, rng, budget)
        first = battle(rules, a, b, {})
        again = battle(rules, a, b, {})
        results[first.result] += 1
        problems += [f"battle {n}: {v}" for v in violations(first)]
        if first.log != again.log:
            problems.append(f"battle {n}: the replay differs")
    assert not problems, "\n".join(problems[:20])
    assert min(results.values()) > 0, results  # wins for either side and draws all happen


def test_options_change_battles(rules: Rules) -> None:
    rng = random.Random(7)
    budget = budget_of(rules)
    assert budget is not None
    pairs = [(random_party(rules, rng, budget), random_party(rules, rng, budget)) for _ in range(200)]
    differs = sum(battle(rules, a, b, {}).log != battle(rules, a, b, {"used_swords": "reset_when_all_used"}).log
                  for a, b in pairs)
    assert differs > 0


def test_sample_parties_are_legal_and_a_tournament_ranks_them(rules: Rules) -> None:
    folder = ROOT / "cards" / "marguerite" / "parties"
    parties = {p.stem: read_party(rules, p) for p in sorted(folder.glob("*.sw"))}
    assert len(parties) >= 4
    table = tournament_table(rules, parties, {})
    assert table[0].split() == ["party", "W", "D", "L", "points"]
    rows = [line.split() for line in table[1:]]
    assert sorted(r[0] for r in rows) == sorted(parties)
    games = 2 * (len(parties) - 1)
    assert all(int(w) + int(d) + int(lo) == games and int(p) == 3 * int(w) + int(d) for _, w, d, lo, p in rows)
    assert [int(r[4]) for r in rows] == sorted((int(r[4]) for r in rows), reverse=True)


def test_party_over_budget_is_refused(rules: Rules, tmp_path: Path) -> None:
    path = tmp_path / "greedy.sw"
    path.write_text("Greedy: 10/5/5/5/斬撃剣\n", encoding="utf-8")
    with pytest.raises(DeckError) as err:
        read_party(rules, path)
    assert "E205 'Greedy' spends 18 points; the budget is exactly 10" in str(err.value)


def test_fuzz_command_plays_random_battles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = str(ROOT / "cards" / "marguerite")
    assert main(["--root", str(ROOT), "fuzz", folder, "--games", "40", "--seed", "3",
                 "--out", str(tmp_path / "found")]) == 0
    assert "no violation in 40 battles" in capsys.readouterr().out
    assert not list(tmp_path.iterdir())


def test_fuzz_shrinks_a_violation_to_legal_party_files(rules: Rules, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    # A planted violation: any battle where some swordsman carries a sword. Shrinking must keep the
    # parties legal (the budget is exact, so a dropped sword becomes HP) and stop at one sword in all.
    monkeypatch.setattr(fuzz, "violations", lambda s: ["planted"] if _carried(s) else [])
    code = fuzz.fuzz_battles(rules, 5, 0, {}, tmp_path / "found", sys.stdout, sys.stderr)
    out = capsys.readouterr().out
    assert code == 1 and "  planted" in out
    parties = [read_party(rules, tmp_path / f"found-{side}.sw") for side in "AB"]
    assert [len(p) for p in parties] == [1, 1]
    assert sum(len(spec.swords) for p in parties for spec in p) == 1
    assert f"cardc play marguerite {tmp_path / 'found-A.sw'} {tmp_path / 'found-B.sw'}" in out


def _carried(s: Battle) -> bool:
    """Return whether any swordsman of the battle started with a sword (read from the log's first lines)."""
    return any(not line.endswith("/") for line in s.log if not line.startswith("T"))
