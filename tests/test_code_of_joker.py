"""Code of Joker, both rule versions: seeded random and greedy games between the sample decks keep
every invariant after every action and replay byte for byte; the versions differ where the rules say.
"""

from __future__ import annotations

import pytest

from compiler.sheets import deck_rules, load_deck
from runtime import engine
from runtime.agents import GreedyAgent, RandomAgent
from runtime.invariants import violations
from runtime.load import load_game
from tests.conftest import ROOT
from tools.play import default_decks

GAMES = 150  # per version and agent kind: 300 games per version
DECKS = ROOT / "cards" / "code_of_joker" / "decks"


def _game(version: str) -> engine.Game:
    return load_game("code_of_joker").with_options({"version": version})


def _decks(game: engine.Game) -> list[list[str]]:
    """Return every sample deck these rules accept."""
    lists = [load_deck(p, deck_rules(game)) for p in sorted(DECKS.glob("*.deck"))]
    return [d for d in lists if not game.check_deck(d)]


def _play(game: engine.Game, decks: list[list[str]], seed: int, greedy: bool) -> tuple[engine.State, list]:
    """Play one game, checking the invariants after every action; return it and its actions."""
    s = game.new_game(decks, seed)
    agents = [GreedyAgent(), GreedyAgent()] if greedy else [RandomAgent(seed), RandomAgent(seed + 1)]
    taken = []
    while not engine.is_terminal(s):
        action = agents[s.decision["player"]].choose(s, engine.legal_actions(s))
        engine.apply_action(s, action)
        taken.append(action)
        problems = violations(s)
        assert not problems, f"seed {seed}: {problems}"
    assert engine.legal_actions(s) == []
    return s, taken


@pytest.mark.parametrize("version", ["v1", "v2"])
@pytest.mark.parametrize("greedy", [False, True], ids=["random", "greedy"])
def test_seeded_games_keep_the_invariants_and_replay(version, greedy):
    game = _game(version)
    decks = _decks(game)
    assert len(decks) >= 2, f"fewer than 2 sample decks are legal under {version}"
    ends = set()
    for seed in range(GAMES):
        pair = [decks[seed % len(decks)], decks[(seed + 1) % len(decks)]]
        s, taken = _play(game, pair, seed, greedy)
        again = game.new_game(pair, seed)
        for action in taken:
            engine.apply_action(again, action)
        assert again.log == s.log and again.to_json() == s.to_json(), f"seed {seed} does not replay"
        ends.add(tuple(s.result))
        for p in s.players:
            assert p.resources["cp"] <= 12 and p.resources["cp"] >= 0
    assert len(ends) > 1, f"every game ended the same way: {ends}"


def test_versions_differ_where_the_rules_say():
    v1, v2 = (_game(v).ruleset for v in ("v1", "v2"))
    assert (v1.resources["life"], v2.resources["life"]) == (7, 8)
    assert (v1.heal_on, v2.heal_on) == ("up", "any")
    assert v1.jokers is not None and v2.jokers is not None
    assert (v1.jokers[0], v2.jokers[0]) == (1, 2)
    assert v1.life_fill is not None and v2.life_fill is not None
    assert (v1.life_fill[2], v2.life_fill[2]) == ("any", "opponent")
    assert (v1.banned_keywords, v2.banned_keywords) == ((), ("Decay",))
    # the compiled ruleset is shared and never changed: each Game holds its own copy with the variants
    assert _game("v2").declared is _game("v1").declared and v1 is not v2


def test_unknown_version_is_refused():
    with pytest.raises(ValueError, match="option 'version' is one of v1, v2, not 'v3'"):
        _game("v3")


def test_default_decks_follow_the_version():
    for version in ("v1", "v2"):
        game = _game(version)
        names = default_decks(ROOT, game)
        assert len(names) == 2
        for name in names:
            deck = load_deck(DECKS / f"{name}.deck", deck_rules(game, sized=False))
            assert game.check_deck(deck) == []


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_the_greedy_agent_beats_the_random_one(version):
    """Greedy plays are real plays: over 20 seeded games against random play it wins nearly all."""
    game = _game(version)
    decks = _decks(game)
    wins = 0
    for seed in range(20):
        s = game.new_game([decks[seed % len(decks)], decks[(seed + 1) % len(decks)]], seed)
        agents = [GreedyAgent(), RandomAgent(seed)]
        while not engine.is_terminal(s):
            engine.apply_action(s, agents[s.decision["player"]].choose(s, engine.legal_actions(s)))
        wins += s.result[0] == 1
    assert wins >= 18, f"greedy won {wins} of 20"
