"""State.snapshot copies by structure: the copy equals the state, shares no mutable object with it but the card
records neither of them owns (copied on write, tests/test_copy_on_write.py), and a game played on from the copy
goes exactly as the original does (mid-game states of every ruleset)."""

import pytest

from benchmarks.determinism import RULESETS
from benchmarks.run import mid_game
from runtime import engine
from runtime.agents import RandomAgent
from runtime.state import State

MUTABLE = (list, dict, set)
DERIVED = ("rng", "game", "index_cache", "base_cache", "watch", "version", "checked", "granted", "spare", "owned",
           "rng_owned")


def _mutables(obj, found: dict[int, object]) -> dict[int, object]:
    """Return every mutable object (container or record) reachable from obj, by id; of a state, only through
    the card records it owns (the others are shared until written)."""
    if isinstance(obj, State):
        found[id(obj.cards)] = obj.cards
        fields = {k: v for k, v in obj.__dict__.items() if k not in DERIVED}
        obj = fields | {"cards": [c for i, c in enumerate(obj.cards) if obj.owned[i]]}
    elif hasattr(obj, "__dict__"):
        found[id(obj)] = obj
        obj = obj.__dict__
    if isinstance(obj, MUTABLE):
        found[id(obj)] = obj
        for v in obj.values() if isinstance(obj, dict) else obj:
            _mutables(v, found)
    elif isinstance(obj, tuple):
        for v in obj:
            _mutables(v, found)
    return found


def _play_on(s: State, decisions: int) -> list[str]:
    agents = [RandomAgent(7), RandomAgent(8)]
    while not engine.is_terminal(s) and decisions:
        engine.apply_action(s, agents[s.decision["player"]].choose(s, engine.legal_actions(s)))
        decisions -= 1
    return s.log


@pytest.mark.parametrize(("ruleset", "options"), [(r, o) for _, r, o, _ in RULESETS])
def test_a_snapshot_equals_the_state_and_shares_nothing_mutable(ruleset, options):
    s = mid_game(ruleset, options, decisions=40)
    copy = s.snapshot()
    assert copy.to_json() == s.to_json()
    assert not set(_mutables(copy, {})) & set(_mutables(s, {}))
    shared = [i for i, (a, b) in enumerate(zip(s.cards, copy.cards, strict=True)) if a is b]
    assert shared and not any(s.owned[i] or copy.owned[i] for i in shared)
    copy.own(shared[0]).damage += 1  # a write makes the record its own
    assert copy.cards[shared[0]] is not s.cards[shared[0]]
    assert not set(_mutables(copy, {})) & set(_mutables(s, {}))


@pytest.mark.parametrize(("ruleset", "options"), [(r, o) for _, r, o, _ in RULESETS])
def test_a_game_goes_on_from_a_snapshot_as_from_the_state(ruleset, options):
    s = mid_game(ruleset, options, decisions=30)
    copy = s.snapshot()
    assert _play_on(copy, 40) == _play_on(s, 40)


def test_the_sharing_check_finds_a_shared_list():
    s = mid_game("simple_duel", {}, decisions=10)
    copy = s.snapshot()
    copy.own(0).mods = s.own(0).mods  # a planted shallow copy
    assert set(_mutables(copy, {})) & set(_mutables(s, {}))


def _reference_plain(obj):
    """The plain data of obj as the first to_dict made it: every record and container walked alike."""
    if hasattr(obj, "__dataclass_fields__"):
        return {k: _reference_plain(v) for k, v in obj.__dict__.items()}
    if isinstance(obj, dict):
        return {k: _reference_plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_reference_plain(v) for v in obj]
    return obj


@pytest.mark.parametrize(("ruleset", "options"), [(r, o) for _, r, o, _ in RULESETS])
def test_to_dict_gives_the_plain_data_of_every_field_and_shares_nothing(ruleset, options):
    s = mid_game(ruleset, options, decisions=40)
    data = s.to_dict()
    fields = {k: v for k, v in s.__dict__.items() if k not in DERIVED}
    assert {k: v for k, v in data.items() if k != "rng"} == _reference_plain(fields)
    assert not set(_mutables(data, {})) & set(_mutables(s, {}))


@pytest.mark.parametrize(("ruleset", "options"), [(r, o) for _, r, o, _ in RULESETS])
def test_a_state_read_back_equals_the_state_and_from_dict_keeps_none_of_its_data(ruleset, options):
    s = mid_game(ruleset, options, decisions=40)
    assert State.from_json(s.to_json(), s.game).to_json() == s.to_json()
    data = s.to_dict()
    again = State.from_dict(data, s.game)
    assert again.to_json() == s.to_json()
    assert not set(_mutables(again, {})) & set(_mutables(data, {}))


def test_a_snapshot_copies_every_field_that_may_hold_a_container():
    from dataclasses import fields

    from runtime.state import _NESTED, _NOT_COPIED

    shared = {f.name: f.type for f in fields(State)
              if f.name not in {*_NESTED, *_NOT_COPIED, "players", "cards", "log"}}
    assert shared and set(shared.values()) <= {"int", "str", "bool"}  # a new container field must be copied


def _abilities(idx) -> list[tuple[int, list]]:
    """Return the (card, ability reference) pairs an index holds, listeners and statics."""
    pairs = [pair for found in idx.listeners.values() for pair in found] + idx.statics
    return sorted((ctx.source, ctx.ability) for _, ctx in pairs)


def test_a_snapshot_keeps_the_index_until_either_state_changes_its_field():
    from runtime import effects as fx
    from runtime import query as q

    s = mid_game("simple_duel", {}, decisions=10)
    before = q.index(s)
    copy = s.snapshot()
    assert q.index(copy) is before  # the same board: the index is shared, not rebuilt
    hand = next(c for p in copy.players for c in p.zones["hand"]
                if any(a.kind == "triggered" for a in s.game.cards[s.cards[c].name].abilities))
    fx.move(copy, hand, q.ACTIVE_ZONE)
    fresh = State.from_json(copy.to_json(), s.game)  # no derived data: its index is built from the board
    assert hand in [card for card, _ in _abilities(q.index(copy))]
    assert _abilities(q.index(copy)) == _abilities(q.index(fresh))
    assert q.index(s) is before and hand not in [card for card, _ in _abilities(before)]
