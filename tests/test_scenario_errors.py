"""Scenario and battle-scenario files go through the grammar (grammar/sheets.lark, compiler/check_scenarios.py,
compiler/check_battle_scenarios.py): every problem located, word for word (tests/errors/scenarios.txt), and
nothing hostile gets further than an error.

A case whose name starts with 'battle_' is a battle scenario, read against the Marguerite rules; the others
are card-game scenarios, read (as scenarios/case.scenario) and then run, so the problems the game finds
(unknown zones, cards, players ...) are in the cases too. CARDC_UPDATE_ERRORS=1 rewrites the expected texts.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from compiler.check_scenarios import MAX_NUMBER, MAX_SEED
from compiler.parser import parse_scenario
from compiler.sheet_lines import card_blocks
from runtime.battle.rules import Rules, load_rules
from runtime.engine import Game
from runtime.load import load_game
from tests.test_parties import Case, cases_of
from tools.battle.scenario import parse_scenario as parse_battle
from tools.battle.scenario import run_scenario as run_battle
from tools.scenario import ScenarioError, known_rulesets, run_scenario, scenario_from_text
from tools.scenario_runs import run_paths

ROOT = Path(__file__).resolve().parent.parent
CASES_FILE = ROOT / "tests" / "errors" / "scenarios.txt"
PATH, BATTLE_PATH = "scenarios/case.scenario", "battles/case.battle"
RULESETS = known_rulesets(ROOT / "tests" / "scenarios")


@cache
def _game(ruleset: str) -> Game:
    return load_game(ruleset)


@cache
def _rules() -> Rules:
    return load_rules("marguerite")


def render_case(case: Case) -> str:
    """Return every problem of the case's file rendered, joined by newlines ('' for a file that runs)."""
    try:
        if case.name.startswith("battle_"):
            run_battle(_rules(), parse_battle(case.text, BATTLE_PATH, _rules()))
        else:
            sc = scenario_from_text(case.text, PATH, RULESETS)
            run_scenario(sc, _game(sc.ruleset))
    except ScenarioError as err:
        return err.render()
    return ""


CASES = cases_of(CASES_FILE, render_case)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_error_messages_word_for_word(case):
    assert render_case(case) == case.expect


SCENARIO = """scenario T-1: a small game in progress
ruleset simple_duel
seed {seed}
stop: before phase end of turn 3

setup:
    turn 3, P1 active, phase main
    P1 deck: 5 Skyreef Leviathan
    P2 deck: 5 Skyreef Leviathan
    P1 {amount}

expect:
    P1 {amount}
"""


@pytest.mark.parametrize("seed, amount", [(0, "life 0"), (MAX_SEED, f"mana {MAX_NUMBER}"), (1, f"life -{MAX_NUMBER}")])
def test_numbers_at_their_bounds_are_read(seed, amount):
    sc = scenario_from_text(SCENARIO.format(seed=seed, amount=amount), PATH, RULESETS)
    assert sc.seed == seed
    assert run_scenario(sc, _game("simple_duel")).passed


@pytest.mark.parametrize("seed, amount, message", [
    (MAX_SEED + 1, "life 1", f"a seed must be at most {MAX_SEED}, found {MAX_SEED + 1}"),
    (1, f"mana {MAX_NUMBER + 1}", f"an amount must be at most {MAX_NUMBER}, found {MAX_NUMBER + 1}"),
    (1, f"life -{MAX_NUMBER + 1}", f"an amount must be at least -{MAX_NUMBER}, found -{MAX_NUMBER + 1}"),
])
def test_numbers_past_their_bounds_are_located_errors(seed, amount, message):
    with pytest.raises(ScenarioError) as info:
        scenario_from_text(SCENARIO.format(seed=seed, amount=amount), PATH, RULESETS)
    assert [d.message for d in info.value.diagnostics] == [message] * (1 if seed > 1 else 2)


def test_every_line_of_every_scenario_file_is_in_its_ast():
    """No line of the project's scenario files is dropped or merged: each non-comment line is a node (the card
    text of a 'cards:' section goes to the card parser: each of its definitions is a node)."""
    for path in sorted((ROOT / "tests").rglob("*.scenario")):
        text = path.read_text(encoding="utf-8")
        ast, errors = parse_scenario(text, str(path))
        placed = {node.loc.line for node in _nodes(ast)}
        rest = card_blocks(text)[0]
        written = {i for i, line in enumerate(rest.split("\n"), 1) if line.strip() and not line.lstrip().startswith("#")}
        assert (errors, written - placed) == ([], set()) or path.parent.name == "errors", path


def _nodes(node):
    """Yield every node of an AST with a location of its own, the node first."""
    yield node
    for value in node.__dict__.values():
        for child in value if isinstance(value, tuple) else (value,):
            if hasattr(child, "loc"):
                yield from _nodes(child)


def test_update_rewrites_every_transcript_byte_for_byte(tmp_path):
    """`cardc scenario --update` reads each file through the grammar and writes back the very same bytes."""
    sources = [p for p in sorted((ROOT / "tests" / "scenarios").rglob("*.scenario"))
               if "\ntranscript:\n" in p.read_text(encoding="utf-8")]
    for i, source in enumerate(sources):
        shutil.copy(source, tmp_path / f"{i}-{source.name}")
    assert len(sources) >= 30
    assert run_paths(ROOT, [tmp_path], update=True) == 0
    assert [(tmp_path / f"{i}-{s.name}").read_bytes() == s.read_bytes() for i, s in enumerate(sources)] == \
        [True] * len(sources)


def test_a_byte_order_mark_and_windows_line_ends_are_read():
    text = "\ufeff" + SCENARIO.format(seed=1, amount="life 5").replace("\n", "\r\n")
    assert run_scenario(scenario_from_text(text, PATH, RULESETS), _game("simple_duel")).passed


def test_cardc_scenario_reports_a_hostile_file_located_and_without_a_traceback(tmp_path):
    path = tmp_path / "hostile.scenario"
    path.write_text("scenario H: hostile\nruleset simple_duel\nseed 1e8\n\nsetup:\n    turn " + "9" * 4301
                    + ", P9 active, phase main\n    P1 life ³\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "tools", "scenario", str(path)], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 1 and "Traceback" not in result.stdout + result.stderr
    heads = [line for line in result.stdout.splitlines() if line.startswith("ERROR ")]
    assert heads == [f"ERROR {path}:3:6: E207 expected a seed in the digits 0-9, found '1e8'",
                     f"ERROR {path}:6:10: E207 a turn must be at most {MAX_NUMBER}, found a number of 4301 digits",
                     f"ERROR {path}:7:13: E207 expected an amount in the digits 0-9, '-' first if it is negative, "
                     "found '³'"]
    assert result.stdout.splitlines()[-1] == "0 passed, 1 failed"
