"""The ability index is kept across steps (its base until a change to a zone where abilities work, the index
itself while the grants stay the same) and shared by a snapshot: at every read in seeded games of every
ruleset, the kept index must hold what one built afresh from the board holds."""

from __future__ import annotations

import pytest

from benchmarks.determinism import RULESETS
from benchmarks.run import ROOT
from runtime import engine
from runtime import query as q
from runtime.agents import RandomAgent
from runtime.load import load_game
from runtime.state import State
from tools.play import legal_samples, read_entries

INDEX = q.index  # the real one: the tests put a checking one in its place


class StaleIndex(AssertionError):
    """A kept index differs from a fresh one."""


def _contents(idx: q.Index) -> tuple:
    """Return what an index holds: listeners by event and statics as (card, ability reference), and generated
    status instances."""
    listeners = {event: [(ctx.source, ctx.ability, ctx.params) for _, ctx in pairs]
                 for event, pairs in idx.listeners.items()}
    return listeners, [(ctx.source, ctx.ability, ctx.params) for _, ctx in idx.statics], idx.elements or {}


def _checked_index(s: State) -> q.Index:
    """Return the state's index, having checked it against one built from scratch on a copy."""
    kept = s.index_cache
    idx = INDEX(s)
    if kept is None or kept.busy or kept.counting:
        return idx
    fresh = s.snapshot()
    fresh.index_cache = fresh.base_cache = None
    if _contents(INDEX(fresh)) != _contents(idx):
        raise StaleIndex(f"turn {s.turn}: the kept index differs from a fresh one")
    return idx


def _play(ruleset: str, options: dict, games: int) -> None:
    game = load_game(ruleset).with_options(options)
    decks = read_entries(game, legal_samples(ROOT, game))
    for seed in range(games):
        s = game.new_game([decks[seed % len(decks)], decks[(seed + 1) % len(decks)]], seed)
        agents = [RandomAgent(seed * 2), RandomAgent(seed * 2 + 1)]
        while not engine.is_terminal(s):
            s.snapshot()  # the original then shares its derived data with a copy, as a trial's state does
            engine.apply_action(s, agents[s.decision["player"]].choose(s, engine.legal_actions(s)))


@pytest.mark.parametrize(("ruleset", "options"), [(r, o) for _, r, o, _ in RULESETS])
def test_a_kept_index_always_equals_a_fresh_one(ruleset, options, monkeypatch):
    monkeypatch.setattr(q, "index", _checked_index)
    _play(ruleset, options, 4)


def test_a_base_kept_past_a_move_onto_the_field_is_caught(monkeypatch):
    monkeypatch.setattr(q, "index", _checked_index)
    forget = State.touch
    monkeypatch.setattr(State, "touch", lambda self, base=True: forget(self, base=False))  # planted: bases kept
    with pytest.raises(StaleIndex):
        _play("simple_duel", {}, 2)


def test_grants_kept_past_a_change_of_the_board_are_caught(monkeypatch):
    from runtime import unchanged

    monkeypatch.setattr(q, "index", _checked_index)
    monkeypatch.setattr(unchanged, "grants_stale", lambda s, key: False)  # planted: grants never read again
    with pytest.raises(StaleIndex):
        _play("successor", {}, 10)
