"""`cardc play RULESET A.sw B.sw` and `cardc tournament RULESET DIR` for automatic battles."""

from __future__ import annotations

import sys
from pathlib import Path

from compiler.build import read_source
from compiler.party_files import parse_party
from runtime.battle.parties import Budget, SwordsmanSpec
from runtime.battle.procedure import new_battle, run
from runtime.battle.rules import Rules
from runtime.battle.state import Battle
from tools.viewer import Recorder, write_page

STATS = ("max_hp", "atk", "def", "spd", "sword")


def budget_of(rules: Rules) -> Budget | None:
    """Return the creation budget the ruleset's 'swordsmen have N points' line sets, if any."""
    if rules.ruleset.budget is None:
        return None
    points, buys = rules.ruleset.budget
    per_point = dict(buys)
    return Budget(points, {k: per_point.get(k, 1) for k in STATS})


def read_party(rules: Rules, path: Path) -> list[SwordsmanSpec]:
    """Return a party file's swordsmen, checked against the swords and the budget (CompileError, located,
    with every problem if it is bad)."""
    return party_from_text(rules, read_source(path, str(path)), str(path))


def party_from_text(rules: Rules, text: str, path: str) -> list[SwordsmanSpec]:
    """Return the swordsmen of a party file's text, checked as read_party checks a file (CompileError)."""
    others = {name: f"a {card.kind}" + (" (built)" if card.token else "")
              for name, card in rules.cards.items() if card.kind not in rules.sword_kinds}
    return parse_party(text, path, rules.spellings, others, budget_of(rules))


def sample_parties(root: Path, ruleset: str) -> list[Path]:
    return sorted((root / "cards" / ruleset / "parties").glob("*.sw"))


def battle(rules: Rules, a: list[SwordsmanSpec], b: list[SwordsmanSpec], options: dict[str, str]) -> Battle:
    return run(new_battle(rules, (a, b), options))


def recorded_battle(rules: Rules, a: list[SwordsmanSpec], b: list[SwordsmanSpec], options: dict[str, str],
                    recorder: Recorder) -> Battle:
    """Play a battle like battle(), recording the set-up, each action processing and the end."""
    s = new_battle(rules, (a, b), options)
    recorder.battle(s, "set-up")
    s.watch = recorder.watch
    run(s)
    if len(s.log) > recorder.shown or not recorder.steps[-1]["end"]:  # a judge after the last action
        recorder.battle(s, s.log[-1].split(" ", 1)[-1])
    return s


def battle_command(root: Path, rules: Rules, paths: list[str], options: dict[str, str],
                   html: Path | None = None) -> int:
    """Play one battle between two party files (default: the first two sample parties); print its log,
    and with html write the viewer page of the battle there."""
    chosen = [Path(p) for p in paths] or sample_parties(root, rules.ruleset.name)[:2]
    if len(chosen) != 2:
        print("error: give two party files (*.sw)", file=sys.stderr)
        return 2
    a, b = (read_party(rules, p) for p in chosen)  # a bad file: CompileError, printed located by the CLI
    recorder = Recorder()
    result = recorded_battle(rules, a, b, options, recorder) if html else battle(rules, a, b, options)
    print("\n".join(result.log))
    if html:
        write_page(html, f"{rules.ruleset.name}: {chosen[0].stem} against {chosen[1].stem}", recorder.steps)
        print(f"viewer page written to {html} ({len(recorder.steps)} steps)", file=sys.stderr)
    return 0


def tournament_command(rules: Rules, folder: Path, options: dict[str, str]) -> int:
    """Play a round robin (every pair, both seats) of the party files in folder; print the table."""
    if not folder.is_dir():
        print(f"error: {folder} is not a folder (a tournament plays the *.sw party files of one)", file=sys.stderr)
        return 2
    paths = sorted(folder.glob("*.sw"))
    parties = {p.stem: read_party(rules, p) for p in paths}
    if len(parties) < 2:
        print(f"error: {folder} holds {len(parties)} party file(s); a tournament needs 2 or more", file=sys.stderr)
        return 2
    print("\n".join(tournament_table(rules, parties, options)))
    return 0


def tournament_table(rules: Rules, parties: dict[str, list[SwordsmanSpec]], options: dict[str, str]) -> list[str]:
    """Return the lines of a round-robin table: wins, draws, losses, points (3 a win, 1 a draw)."""
    score = {name: [0, 0, 0] for name in parties}
    for first in parties:
        for second in parties:
            if first != second:
                result = battle(rules, parties[first], parties[second], options).result
                for name, mine in ((first, "A"), (second, "B")):
                    score[name][0 if result == mine else 1 if result == "draw" else 2] += 1
    rows = sorted(score.items(), key=lambda kv: (-(3 * kv[1][0] + kv[1][1]), kv[0]))
    width = max(len(n) for n in parties)
    lines = [f"{'party':<{width}}  W  D  L  points"]
    lines += [f"{n:<{width}} {w:2} {d:2} {lo:2} {3 * w + d:7}" for n, (w, d, lo) in rows]
    return lines
