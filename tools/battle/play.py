"""`cardc play RULESET A.sw B.sw` for automatic battles, and the party files both it and `cardc tournament` read."""

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


PARTIES = (("parties", "party", ".sw"),)  # where a battle ruleset keeps the parties a name means (tools.play.Samples)


def sample_parties(root: Path, ruleset: str) -> list[Path]:
    """Return the sample party files of a battle ruleset (cards/<ruleset>/parties/*.sw), sorted."""
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
