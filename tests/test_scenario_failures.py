"""Every scenario expectation can fail, with its own message: the cases in tests/scenario_failures/ are
scenarios written deliberately wrong, each listing the failures it must produce, word for word.

A card-game case (`*.scenario`) lists them as `# fails: MESSAGE` lines, in order, or as one
`# error: MESSAGE` line when the file cannot be read or run (a ScenarioError; paths are shown as file
names). A battle case (`*.battle`, format: tools/battle/scenario.py) lists `# fails:` lines likewise.
Most cases also hold the same expectations written right, which must not fail. Adding a case needs no
Python edit.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from runtime.battle.rules import load_rules
from runtime.load import load_game
from tests.conftest import ROOT
from tools.battle.scenario import parse_scenario
from tools.battle.scenario import run_scenario as run_battle
from tools.scenario import ScenarioError, read_scenario, run_scenario

FOLDER = ROOT / "tests" / "scenario_failures"
CASES = sorted(FOLDER.rglob("*.scenario"))
BATTLES = sorted(FOLDER.rglob("*.battle"))
_GAMES: dict = {}


def declared(path: Path, tag: str) -> list[str]:
    """Return the messages a case file declares after a tag ('# fails: ')."""
    return [line[len(tag):] for line in path.read_text(encoding="utf-8").splitlines() if line.startswith(tag)]


def outcome_of(path: Path) -> list[str]:
    """Return the failures of a card-game scenario, or its ScenarioError as a one-item list."""
    try:
        sc = read_scenario(path)
        if sc.ruleset not in _GAMES:
            _GAMES[sc.ruleset] = load_game(sc.ruleset)
        return run_scenario(sc, _GAMES[sc.ruleset]).failures
    except ScenarioError as err:
        return [f"error: {str(err).replace(str(path), path.name)}"]


@pytest.mark.parametrize("path", CASES, ids=[str(p.relative_to(FOLDER)) for p in CASES])
def test_card_scenario_fails_with_its_messages(path: Path) -> None:
    fails, errors = declared(path, "# fails: "), declared(path, "# error: ")
    assert bool(fails) != bool(errors), "a case declares '# fails:' lines or one '# error:' line"
    assert outcome_of(path) == (fails or [f"error: {e}" for e in errors])


@pytest.mark.parametrize("path", BATTLES, ids=[str(p.relative_to(FOLDER)) for p in BATTLES])
def test_battle_scenario_fails_with_its_messages(path: Path) -> None:
    rules = load_rules("marguerite")
    scenario = parse_scenario(path.read_text(encoding="utf-8"), path.name, rules)
    fails = declared(path, "# fails: ")
    assert fails, "a battle case declares '# fails:' lines"
    assert run_battle(rules, scenario)[1] == fails



# The failure of each expectation kind of the card-game format, as a pattern of its message.
KINDS = {
    "P1 ZONE: A, B": r": P\d \w+ is .*; expected ", "P1 ZONE count N": r": P\d \w+ has \d+ cards?, expected \d+$",
    "P1 ZONE count NAME N": r": P\d \w+ has \d+ [A-Z][^,]*, expected \d+$",
    "P1 RESOURCE N": r": P\d \w+ is -?\d+, expected -?\d+$", "STAT N": r"#\d+ \w+ is -?\d+, expected -?\d+$",
    "printed STAT N": r"#\d+ printed \w+ is -?\d+, expected", "printed, none printed": r"#\d+ has no printed ",
    "status NAME N": r"#\d+ has \d+ \w+, expected \d+$", "face down": r"#\d+ is face (up|down), expected face",
    "exhausted / ready": r"#\d+ is not (ready|exhausted|attack restricted)$", "is NAME": r": the card there is ",
    "ZONE[i] beyond the zone": r" has no card \d+ \(it has \d+\)$", "log:": r": log lacks the line '",
    "no log:": r": log has the line '.*' \(line \d+\)$", "log contains:": r": no log line contains '",
    "no log contains:": r": log line \d+ contains '", "log in order: missing": r": log lacks the line .* ordered block",
    "log in order: out of order": r": log has '.*' only before '.*' \(line \d+ of the ordered block\)$",
    "result:": r": result is .*, expected ", "offers:": r": the decision lacks '", "does not offer:": r": the decision has '",
    "sees:": r": P\d does not see '", "does not see:": r": P\d sees '",
    "error: (accepted)": r": the set-up was accepted, expected the error '",
    "error: (another message)": r": the set-up was refused with '.*', expected '",
    "set-up refused": r": the set-up was refused: ", "transcript:": r": transcript differs at line \d+: expected '",
    "transcript: (length)": r": transcript has \d+ lines, the game logged \d+$",
    "choices: unused": r": \d+ scripted choice\(s\) were not used: ",
    "choices: not offered": r": scripted choice '.*' is not offered; the game offers: ",
    "choices: unscripted": r": unscripted choice; the game offers: ",
}


def test_every_kind_of_expectation_has_a_failing_case() -> None:
    messages = [m for p in CASES for m in declared(p, "# fails: ")]
    assert [kind for kind, pattern in KINDS.items() if not any(re.search(pattern, m) for m in messages)] == []
