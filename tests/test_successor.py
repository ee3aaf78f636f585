"""Successor (cards/successor/, digest ../shared/rules/successor.md): the rulings are scenarios,
tests/scenarios/successor/ (run by tests/test_scenarios.py); here, what holds across them and the sample decks."""

from __future__ import annotations

from runtime import engine
from runtime.agents import GreedyAgent, RandomAgent
from runtime.invariants import violations
from runtime.load import load_game
from tests.conftest import ROOT
from tools.scenario import read_scenario

FOLDER = ROOT / "tests" / "scenarios" / "successor"


def _rulings() -> list[str]:
    """Return the R-SU ruling IDs of the index (the copy beside the scenarios when ../shared is absent)."""
    index = ROOT.parent / "shared" / "rules" / "rulings-index.tsv"
    if not index.exists():
        index = FOLDER / "RULINGS.tsv"
    return [line.split("\t")[0] for line in index.read_text(encoding="utf-8").splitlines() if line.startswith("R-SU-")]


def test_every_ruling_scenario_names_a_ruling_of_the_index():
    rulings = set(_rulings())
    assert len(rulings) == 62
    named = {read_scenario(p).name for p in FOLDER.glob("*.scenario")}
    ids = {name.split("-")[0] + "-SU-" + name.split("-")[2] for name in named if name.startswith("R-SU-")}
    assert ids and ids <= rulings, sorted(ids - rulings)


def test_random_and_greedy_games_of_the_sample_decks_keep_every_invariant():
    from compiler.sheets import deck_rules, load_deck

    game = load_game("successor")
    decks = [load_deck(p, deck_rules(game)) for p in sorted((ROOT / "cards" / "successor" / "decks").glob("*.deck"))]
    assert len(decks) >= 2
    for seed in range(6):
        s = game.new_game([decks[seed % len(decks)], decks[(seed + 1) % len(decks)]], seed)
        agents = [RandomAgent(seed), GreedyAgent()] if seed % 2 else [GreedyAgent(), RandomAgent(seed)]
        steps = 0
        while not engine.is_terminal(s):
            assert violations(s) == [], (seed, s.log[-5:])
            engine.apply_action(s, agents[s.decision["player"]].choose(s, engine.legal_actions(s)))
            steps += 1
            assert steps < 5000, f"seed {seed}: no end after 5000 decisions"
        assert sorted(engine.returns(s)) in ([-1, 1], [0, 0]), (seed, s.result)
