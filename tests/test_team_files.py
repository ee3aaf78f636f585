"""Team files (compiler/team_files.py, docs/teams.md): every problem word for word (tests/errors/teams.txt),
against the Melee test ruleset read by the reference interpreter (no build needed); the sample teams read
back to the entries a game sets up; and a game refuses a ruleset without teams."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.diagnostics import CompileError
from compiler.team_files import load_team, read_team
from runtime.defs import Entry
from tests.test_differential import interpreted
from tests.test_parties import Case, cases_of, problems_of

ROOT = Path(__file__).resolve().parent.parent
CASES_FILE = ROOT / "tests" / "errors" / "teams.txt"
MELEE = ROOT / "tests" / "rulesets" / "melee" / "cards" / "melee"
GAME = interpreted(ROOT, MELEE)
PATH = "teams/case.team"


def render_case(case: Case) -> str:
    """Return every problem of the case's team rendered, joined by newlines ('' for a legal team)."""
    return problems_of(lambda: read_team(case.text, PATH, GAME), case.text)


CASES = cases_of(CASES_FILE, render_case)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_team_errors_word_for_word(case):
    assert render_case(case) == case.expect


def test_every_table_rule_has_a_case():
    said = "\n".join(c.expect for c in CASES)
    for words in ("a table holds exactly 3", "out of order", "the faces go up in cost", "more than its ap",
                  "more than 2 times", "requires element", "fills its lines from the front", "has no character",
                  "not a character", "did you mean"):
        assert words in said, words


def test_the_sample_teams_read_to_entries():
    teams = {p.stem: load_team(p, GAME) for p in sorted((MELEE / "teams").glob("*.team"))}
    assert teams["ember"] == [Entry("Ash Duelist", ("Second Wind", "Quick Jab", "Finishing Blow"), 0),
                              Entry("Reed Archer", ("Quick Jab", "Shove", "Long Shot"), 1)]
    s = GAME.new_game([teams["ember"], teams["gale"], teams["pair"]], 1, rolls=[6, 5, 4, 3, 2, 1])
    archer = next(c for c in s.cards if c.name == "Reed Archer" and c.owner == 0)
    assert archer.line == 1 and [s.cards[a].name for a in archer.attached] == ["Quick Jab", "Shove", "Long Shot"]


def test_a_ruleset_without_teams_refuses_a_team_file():
    duel = interpreted(ROOT, ROOT / "cards" / "simple_duel")
    with pytest.raises(CompileError) as info:
        read_team("character Glasshorn Ram, front\n", PATH, duel)
    assert [d.code for d in info.value.diagnostics] == ["E209"]


def test_cardc_play_takes_team_files(tmp_path: Path):
    import shutil
    import subprocess
    import sys

    shutil.copytree(MELEE, tmp_path / "cards" / "melee")
    teams = [str(p) for p in sorted((MELEE / "teams").glob("*.team"))][:3]  # a game of 3 players at most
    run = [sys.executable, "-m", "tools", "--root", str(tmp_path)]
    assert subprocess.run([*run, "build"], cwd=ROOT, capture_output=True, timeout=300).returncode == 0
    done = subprocess.run([*run, "play", "melee", *teams, "--seed", "3"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    log = done.stdout.splitlines()
    assert any(line.startswith("setup: initiative order: ") for line in log)
    assert any(" performs " in line for line in log) and log[-1].endswith("is the last player standing and wins")
    bad = tmp_path / "bad.team"
    bad.write_text("character Ash Duelist, front\n    1: Quick Jab\n", encoding="utf-8")
    refused = subprocess.run([*run, "play", "melee", str(bad), teams[0]], cwd=ROOT, capture_output=True,
                             text=True, timeout=300)
    assert refused.returncode == 1 and f"{bad}:1:1: E211 'Ash Duelist' has 1 face;" in refused.stderr
