"""Response windows, on the Quick Duel test ruleset (Simple Duel plus quick cards that respond).

The ruleset lives in tests/rulesets/quick_duel/; each test session builds it into a temporary
project and loads it from there.
"""

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
from tests.test_scenario_failures import declared
from tools.scenario import discover, read_scenario, run_scenario

HERE = ROOT / "tests" / "rulesets" / "quick_duel"
SCENARIOS = discover(ROOT, [HERE / "scenarios"])


@pytest.fixture(scope="module")
def quick_duel(tmp_path_factory):
    root = tmp_path_factory.mktemp("quick_duel")
    shutil.copytree(HERE / "cards", root / "cards")
    build(root)
    with compiled_game(root, "quick_duel") as game:
        yield game


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_quick_duel_scenario(quick_duel, path: Path):
    outcome = run_scenario(read_scenario(path), quick_duel)
    assert outcome.passed, "\n".join(outcome.failures)


FAILURES = sorted((HERE / "failures").glob("*.scenario"))


@pytest.mark.parametrize("path", FAILURES, ids=[p.stem for p in FAILURES])
def test_quick_duel_scenario_fails_with_its_messages(quick_duel, path: Path):
    # as tests/scenario_failures/ (whose rulesets are those of generated/): '# fails:' lines, in order
    fails = declared(path, "# fails: ")
    assert fails and run_scenario(read_scenario(path), quick_duel).failures == fails


def test_quick_cards_are_never_staged_and_random_games_keep_the_invariants(quick_duel):
    known = frozenset(n for n, c in quick_duel.cards.items() if not c.token)
    deck = load_deck(HERE / "cards" / "quick_duel" / "decks" / "mixed.deck", DeckRules(known, 30))
    responses = 0
    for seed in range(30):
        s = quick_duel.new_game([deck, deck], seed)
        agents = [RandomAgent(seed), RandomAgent(seed + 100)]
        while not engine.is_terminal(s):
            acts = engine.legal_actions(s)
            if s.decision["kind"] == "stage":
                assert all(quick_duel.cards[s.cards[x].name].kind != "quick" for k, x in acts if k == "stage")
            action = agents[s.decision["player"]].choose(s, acts)
            responses += action[0] == "respond"
            engine.apply_action(s, action)
            assert violations(s) == []
    assert responses > 10  # the windows were really offered and used
