"""The test rulesets of the mechanisms War Vortex Night is built on (docs/plans/war-vortex-night.md), each
tried on its own in real games: Skirmish (hit points, direct reduction, 0 damage, dice, elimination) and
Melee (turns in initiative order), in tests/rulesets/. Each test session builds them into a temporary
project; their scenarios pass, their failure cases fail with their messages, random games of two and
three players keep every invariant, and the reference interpreter plays the same games and scenarios."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from compiler.build import build
from compiler.sheets import DeckRules, load_deck
from compiler.team_files import load_team
from runtime import engine
from runtime.agents import RandomAgent
from runtime.engine import Game
from runtime.invariants import violations
from tests.conftest import ROOT, compiled_game
from tests.test_differential import assert_same_game, interpreted
from tests.test_scenario_failures import declared
from tools.scenario import discover, read_scenario, run_scenario

RULESETS = ("skirmish", "melee")
FOLDER = ROOT / "tests" / "rulesets"
SCENARIOS = [(name, p) for name in RULESETS for p in discover(ROOT, [FOLDER / name / "scenarios"])]
FAILURES = [(name, p) for name in RULESETS for p in sorted((FOLDER / name / "failures").glob("*.scenario"))]


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("mechanisms")
    (root / "cards").mkdir()
    for name in RULESETS:
        shutil.copytree(FOLDER / name / "cards" / name, root / "cards" / name)
    build(root)
    return root


@pytest.fixture(scope="module")
def games(project) -> Iterator[dict[str, Game]]:
    with compiled_game(project, RULESETS[0]) as first, compiled_game(project, RULESETS[1]) as second:
        yield {RULESETS[0]: first, RULESETS[1]: second}


def _deck(game: Game, name: str) -> list[str]:
    known = frozenset(n for n, c in game.cards.items() if not c.token)
    return load_deck(FOLDER / name / "cards" / name / "decks" / "mixed.deck", DeckRules(known, game.ruleset.deck_size))


def _decks(game: Game, name: str, players: int, seed: int) -> list[list]:
    """Return the decks of a game: a ruleset's team files in turn where it has them, else its mixed deck."""
    teams = sorted((FOLDER / name / "cards" / name / "teams").glob("*.team"))
    if not teams:
        return [_deck(game, name)] * players
    return [load_team(teams[(seed + k) % len(teams)], game) for k in range(players)]


@pytest.mark.parametrize(("name", "path"), SCENARIOS, ids=[f"{n}/{p.stem}" for n, p in SCENARIOS])
def test_scenario(games, name: str, path: Path):
    outcome = run_scenario(read_scenario(path), games[name])
    assert outcome.passed, "\n".join(outcome.failures)


@pytest.mark.parametrize(("name", "path"), FAILURES, ids=[f"{n}/{p.stem}" for n, p in FAILURES])
def test_scenario_fails_with_its_messages(games, name: str, path: Path):
    fails = declared(path, "# fails: ")
    assert fails and run_scenario(read_scenario(path), games[name]).failures == fails


def test_every_ruleset_has_scenarios_and_a_failure_case():
    assert {n for n, _ in SCENARIOS} == {n for n, _ in FAILURES} == set(RULESETS)


@pytest.mark.parametrize("name", RULESETS)
def test_random_games_keep_the_invariants(games, name: str):
    game = games[name]
    rolled = left = 0
    for seed in range(30):
        s = game.new_game(_decks(game, name, 2 + seed % 2, seed), seed)  # games of two and of three players
        agents = [RandomAgent(seed * 3 + k) for k in range(len(s.players))]
        while not engine.is_terminal(s):
            engine.apply_action(s, agents[s.decision["player"]].choose(s, engine.legal_actions(s)))
            assert violations(s) == []
        rolled += any(" rolls 1D" in line for line in s.log)
        left += bool(s.out) and s.result is not None and s.result.count(1) == 1
    assert rolled > 5 and left > 3  # dice were really rolled; three-player games went on after a loss


@pytest.mark.parametrize("name", RULESETS)
def test_the_reference_interpreter_plays_the_same_games_and_scenarios(project, games, name: str):
    game, interp = games[name], interpreted(project, project / "cards" / name)
    for seed in range(20):
        assert_same_game(game, interp, _decks(game, name, 2 + seed % 2, seed), seed)
    for ruleset, path in SCENARIOS:
        if ruleset == name:
            compiled, read = (run_scenario(read_scenario(path), g) for g in (game, interp))
            assert compiled.state is not None and read.state is not None and compiled.state.log == read.state.log


def test_the_status_invariant_catches_a_merging_status_kept_twice_and_a_value_of_0(games):
    game = games["melee"]
    s = game.new_game(_decks(game, "melee", 2, 0), 0)
    cid = s.players[0].zones["field"][0]
    s.own(cid).statuses += [["Might", 1, None, -1], ["Frostbite", 1, None, -1], ["Might", 2, None, -1]]
    assert violations(s) == [f"card #{cid} keeps 2 instances of Might, which merge: {s.cards[cid].statuses}"]
    s.own(cid).statuses[:] = [["Hymn", 0, None, -1], ["Frostbite", 1, None, -1], ["Frostbite", 1, None, -1]]
    assert violations(s) == [f"card #{cid} holds a status with no stacks: {s.cards[cid].statuses}"]


def test_the_zone_limit_invariant_counts_a_shared_zone_over_every_player(games):
    game = games["melee"]
    s = game.new_game(_decks(game, "melee", 2, 0), 0)
    for player, name in ((0, "Misty Vale"), (1, "Ash Plains")):
        game.add_card(s, name, player, "landscape")
    assert violations(s) == ["the shared landscape holds 2 cards, more than 1"]


def test_random_games_put_merge_remove_and_generate_state_changes(games):
    game, seen = games["melee"], set()
    marks = {"merged": " +2", "removed": " loses ", "arose again": " again (",
             "named": " now)", "refused": "does not receive", "unable to act": "can't act this turn"}
    for seed in range(30):
        s = game.new_game(_decks(game, "melee", 2 + seed % 2, seed), seed)
        agents = [RandomAgent(seed * 3 + k) for k in range(len(s.players))]
        while not engine.is_terminal(s):
            engine.apply_action(s, agents[s.decision["player"]].choose(s, engine.legal_actions(s)))
        seen |= {what for what, mark in marks.items() if any(mark in line for line in s.log)}
    assert seen == set(marks)


def test_a_turn_player_who_leaves_ends_their_turn_there(games):
    game = games["skirmish"]
    s = game.new_game(_decks(game, "skirmish", 3, 5), 5)
    while s.decision is None or s.decision["player"] != s.active:
        engine.apply_action(s, engine.legal_actions(s)[0])
    leaving, turn = s.active, s.turn
    s.players[leaving].resources["life"] = 0  # as if an effect had brought it there
    s.changed()  # a write the log does not record must say so, or the checks skip an unchanged-looking board
    s.decision = None
    engine.run(s)
    assert s.out == [leaving] and s.result is None
    assert s.turn == turn + 1 and s.active != leaving and s.decision["player"] != leaving
    assert violations(s) == []
