"""Seeded random games of Simple Duel: they end, keep the invariants, and replay byte for byte."""

from __future__ import annotations

import json
import os

import pytest

from runtime import engine
from runtime.agents import GreedyAgent, RandomAgent, describe_action
from runtime.invariants import violations
from runtime.state import State

GAMES = int(os.environ.get("CARDC_GAMES", "200"))


def _play(game, decks, seed: int, check_every: int = 1):
    """Play a random game; return (final state, choices made), checking invariants as it goes."""
    a, b = decks[seed % len(decks)], decks[(seed // len(decks) + 1) % len(decks)]
    s = game.new_game([a, b], seed)
    agents = [RandomAgent(seed * 2), RandomAgent(seed * 2 + 1)]
    choices = []
    while not engine.is_terminal(s):
        assert s.actions_taken < 20_000, "game did not end"
        action = agents[s.decision["player"]].choose(s, engine.legal_actions(s))
        choices.append(action)
        engine.apply_action(s, action)
        if len(choices) % check_every == 0:
            assert violations(s) == []
    return s, choices, (a, b)


@pytest.mark.parametrize("batch", range(4))
def test_random_games_end_keep_invariants_and_replay(simple_duel, simple_duel_decks, batch):
    for seed in range(batch, GAMES, 4):
        s, choices, decks = _play(simple_duel, simple_duel_decks, seed)
        assert violations(s) == []
        assert engine.legal_actions(s) == []
        with pytest.raises(ValueError):
            engine.apply_action(s, ("done", 0))
        replay = simple_duel.new_game(list(decks), seed)
        for action in choices:
            engine.apply_action(replay, action)
        assert "\n".join(replay.log) == "\n".join(s.log)
        assert replay.to_json() == s.to_json()


def test_snapshot_and_serialization_round_trip_mid_game(simple_duel, simple_duel_decks):
    for seed in range(20):
        s = simple_duel.new_game([simple_duel_decks[0], simple_duel_decks[-1]], seed)
        agent = RandomAgent(seed)
        for _ in range(60):
            if engine.is_terminal(s):
                break
            snap = s.snapshot()
            restored = State.from_json(s.to_json(), simple_duel)
            assert snap == s and restored == s
            assert json.loads(restored.to_json()) == json.loads(s.to_json())
            action = agent.choose(s, engine.legal_actions(s))
            engine.apply_action(s, action)
            engine.apply_action(restored, action)
            engine.apply_action(snap, action)
            assert restored.to_json() == s.to_json() == snap.to_json()


def test_snapshot_is_independent(simple_duel, simple_duel_decks):
    s = simple_duel.new_game([simple_duel_decks[0], simple_duel_decks[0]], 5)
    snap = s.snapshot()
    engine.apply_action(s, engine.legal_actions(s)[0])
    assert snap != s
    assert snap.actions_taken == 0


def test_same_seed_same_log_different_seed_different_log(simple_duel, simple_duel_decks):
    logs = [_play(simple_duel, simple_duel_decks, seed)[0].log for seed in (7, 7, 8)]
    assert logs[0] == logs[1]
    assert logs[0] != logs[2]


def _ended_as_logged(s: State) -> bool:
    """Return whether a finished game's last log line says the result it holds."""
    winners = ", ".join(f"P{p + 1}" for p, r in enumerate(engine.returns(s)) if r == 1)
    return s.log[-1].endswith(f"{winners} wins") if winners else "draw" in s.log[-1] or "nobody wins" in s.log[-1]


def test_greedy_agent_plays_full_games_and_beats_a_random_one(simple_duel, simple_duel_decks):
    wins = {"greedy": 0, "random": 0}
    for seed in range(10):
        for kind, first in (("greedy", GreedyAgent()), ("random", RandomAgent(seed + 100))):
            s = simple_duel.new_game([simple_duel_decks[0], simple_duel_decks[1 % len(simple_duel_decks)]], seed)
            agents = [first, RandomAgent(seed)]
            while not engine.is_terminal(s):
                acts = engine.legal_actions(s)
                a = agents[s.decision["player"]].choose(s, acts)
                assert describe_action(s, a)
                engine.apply_action(s, a)
            assert _ended_as_logged(s), (seed, kind, s.result, s.log[-1])
            wins[kind] += engine.returns(s)[0] == 1
    assert wins["greedy"] > wins["random"], wins  # the same seat, decks and opponent: greedy play wins more often


def test_any_setting_can_be_an_options_variant():
    # 'option V X: <setting>' replaces whichever setting it names, read where the engine reads it
    from runtime.defs import RulesetDef

    class Variable(RulesetDef):
        name = "variable"
        deck_size = 40
        resources = {"life": 20, "mana": 0}
        resource_bounds = {"mana": (0, 10)}
        options = {"mode": "short"}
        option_values = {"mode": ("short", "long")}
        variants = (("mode", "long", "deck_size", 60), ("mode", "long", "resource", ("life", 30, 0, None)))

    short = engine.Game(Variable(), {}, {}, {})
    long = short.with_options({"mode": "long"})
    assert (short.ruleset.deck_size, long.ruleset.deck_size) == (40, 60)
    assert long.ruleset.resources == {"life": 30, "mana": 0} and short.ruleset.resources == {"life": 20, "mana": 0}
    assert long.ruleset.resource_bounds == {"mana": (0, 10), "life": (0, None)}
    assert long.check_deck([]) == ["the deck has 0 cards; it must have exactly 60"]
    assert Variable.deck_size == 40 and long.declared is short.declared
