"""A card file that is only reformatted breaks no scenario and no replay: the log names where an ability is
written as '(cards.card:23)', and scenario expectations and transcripts compare it by the file's name alone
('(cards.card)'), unless asked for the lines (`cardc scenario --exact-lines`, `Scenario.exact_lines`), which
then report the moved lines. Replay files hold choices, not lines; their recorded log matches by name."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from compiler.build import build
from tests.conftest import ROOT, compiled_game
from tools.fuzz_targets import load_pool
from tools.replay import load_replay, replay_run
from tools.scenario import discover, read_scenario, run_scenario
from tools.scenario_expect import WHERE

QUICK = ROOT / "tests" / "rulesets" / "quick_duel"
SCENARIOS = discover(ROOT, [QUICK / "scenarios"])
MOVED = 3  # blank lines put at the top of a card file


def _reformat(card_file: Path) -> None:
    """Insert blank lines at the top of a card file: the same cards, every line moved down."""
    card_file.write_text("\n" * MOVED + card_file.read_text(encoding="utf-8"), encoding="utf-8")


@pytest.fixture(scope="module")
def moved_quick_duel(tmp_path_factory):
    root = tmp_path_factory.mktemp("reformatted")
    shutil.copytree(QUICK / "cards", root / "cards")
    _reformat(root / "cards" / "quick_duel" / "cards.card")
    build(root)
    with compiled_game(root, "quick_duel") as game:
        yield game


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_the_scenarios_of_a_reformatted_folder_still_pass(moved_quick_duel, path: Path) -> None:
    outcome = run_scenario(read_scenario(path), moved_quick_duel)
    assert outcome.passed, "\n".join(outcome.failures)


def test_with_exact_lines_they_report_the_moved_lines(moved_quick_duel) -> None:
    sc = read_scenario(QUICK / "scenarios" / "respond_and_fizzle.scenario")
    sc.exact_lines = True
    assert run_scenario(sc, moved_quick_duel).failures == [
        "respond_and_fizzle.scenario:37: transcript differs at line 6: expected 'T3 main.activation: Veil "
        "Flicker#12 resolves (cards.card:23)', got 'T3 main.activation: Veil Flicker#12 resolves (cards.card:26)'"]


def test_a_log_expectation_with_a_line_number_matches_by_name_unless_exact(moved_quick_duel) -> None:
    sc = read_scenario(QUICK / "scenarios" / "respond_and_fizzle.scenario")
    text = sc.source.replace("expect:\n", "expect:\n    log: T3 main.activation: Veil Flicker resolves (cards.card:23)\n")
    path = QUICK / "scenarios" / "respond_and_fizzle.scenario"
    from tools.scenario import known_rulesets, scenario_from_text

    for exact, failures in ((False, []), (True, [
            "respond_and_fizzle.scenario:20: log lacks the line 'T3 main.activation: Veil Flicker resolves "
            "(cards.card:23)'; the closest line is 'T3 main.activation: Veil Flicker resolves (cards.card:26)'"])):
        again = scenario_from_text(text, str(path), known_rulesets(path))
        again.exact_lines, again.sections["transcript"] = exact, []
        assert run_scenario(again, moved_quick_duel).failures == failures


def test_a_replay_of_a_reformatted_folder_follows_its_choices_and_its_log_by_name(tmp_path: Path) -> None:
    file = ROOT / "tests" / "replays" / "simple_duel-6-actions.replay.json"
    shutil.copytree(ROOT / "cards" / "simple_duel", tmp_path / "cards" / "simple_duel")
    shutil.copytree(ROOT / "generated", tmp_path / "generated", ignore=shutil.ignore_patterns("__pycache__"))
    _reformat(tmp_path / "cards" / "simple_duel" / "keywords.card")
    recorded = json.loads(file.read_text(encoding="utf-8"))["log"]
    pool = load_pool(tmp_path, "simple_duel")
    try:
        run, diverged = replay_run(pool, load_replay(tmp_path, file))
    finally:
        pool.close()
    assert diverged == "" and run.log[:len(recorded)] != recorded  # the lines did move
    assert [WHERE.sub(r"(\1)", x) for x in run.log[:len(recorded)]] == [WHERE.sub(r"(\1)", x) for x in recorded]
