"""The Skirmish test ruleset (tests/rulesets/skirmish/): the general mechanisms War Vortex Night is built
on, each tried on its own (docs/plans/war-vortex-night.md). Each test session builds it into a temporary
project; its scenarios pass, its failure cases fail with their messages, and random games keep every
invariant and play the same under the reference interpreter."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from compiler.build import build
from compiler.sheets import DeckRules, load_deck
from runtime import engine
from runtime.agents import RandomAgent
from runtime.invariants import violations
from tests.conftest import ROOT, compiled_game
from tests.test_differential import assert_same_game, interpreted
from tests.test_scenario_failures import declared
from tools.scenario import discover, read_scenario, run_scenario

HERE = ROOT / "tests" / "rulesets" / "skirmish"
SCENARIOS = discover(ROOT, [HERE / "scenarios"])
FAILURES = sorted((HERE / "failures").glob("*.scenario"))


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("skirmish")
    shutil.copytree(HERE / "cards", root / "cards")
    build(root)
    return root


@pytest.fixture(scope="module")
def skirmish(project):
    with compiled_game(project, "skirmish") as game:
        yield game


def _deck(game) -> list[str]:
    known = frozenset(n for n, c in game.cards.items() if not c.token)
    return load_deck(HERE / "cards" / "skirmish" / "decks" / "mixed.deck", DeckRules(known, 10))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_skirmish_scenario(skirmish, path: Path):
    outcome = run_scenario(read_scenario(path), skirmish)
    assert outcome.passed, "\n".join(outcome.failures)


@pytest.mark.parametrize("path", FAILURES, ids=[p.stem for p in FAILURES])
def test_skirmish_scenario_fails_with_its_messages(skirmish, path: Path):
    fails = declared(path, "# fails: ")
    assert fails and run_scenario(read_scenario(path), skirmish).failures == fails


def test_random_games_keep_the_invariants(skirmish):
    deck = _deck(skirmish)
    rolled = left = 0
    for seed in range(30):
        s = skirmish.new_game([deck] * (2 + seed % 2), seed)  # games of two and of three players
        agents = [RandomAgent(seed * 3 + k) for k in range(len(s.players))]
        while not engine.is_terminal(s):
            engine.apply_action(s, agents[s.decision["player"]].choose(s, engine.legal_actions(s)))
            assert violations(s) == []
        rolled += any(" rolls 1D: " in line for line in s.log)
        left += bool(s.out) and s.result is not None and s.result.count(1) == 1
    assert rolled > 5 and left > 3  # dice were really rolled; three-player games went on after a loss


def test_the_reference_interpreter_plays_the_same_games_and_scenarios(project, skirmish):
    interp = interpreted(project, project / "cards" / "skirmish")
    deck = _deck(skirmish)
    for seed in range(20):
        assert_same_game(skirmish, interp, [deck, deck[::-1], deck][:2 + seed % 2], seed)
    for path in SCENARIOS:
        compiled, read = (run_scenario(read_scenario(path), g) for g in (skirmish, interp))
        assert compiled.state is not None and read.state is not None and compiled.state.log == read.state.log
