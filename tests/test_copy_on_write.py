"""Copy on write (runtime/state.py): a snapshot shares the card records and the RNG with its original until
either state writes them (State.own, State.own_rng). A write to every kind of field of one state leaves the
other as it was; in seeded games of every ruleset no shared record (or RNG) is ever written; and the games are
the same when every write copies its record anew, so no code keeps a record across another's write."""

from dataclasses import asdict, fields, is_dataclass

import pytest

from benchmarks.determinism import digests, game_logs, render
from benchmarks.run import mid_game
from runtime import effects as fx
from runtime import engine
from runtime import state as state_module
from runtime.state import CardState, Ctx, State

DERIVED = ("rng", "game", "index_cache", "base_cache", "watch", "version", "checked", "granted", "owned",
           "rng_owned")


def _other(value):
    """Return a value of the same kind as a scalar, different from it (None: a list)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    return value + "'" if isinstance(value, str) else ["written"]


def _write(obj) -> None:
    """Change a record, list or dict in place: every field of a record; an element, and the first container or
    record inside, of a list or dict."""
    if is_dataclass(obj):
        for f in fields(obj):
            value = getattr(obj, f.name)
            _write(value) if isinstance(value, (list, dict)) or is_dataclass(value) else setattr(obj, f.name, _other(value))
        return
    inner = next((x for x in (obj.values() if isinstance(obj, dict) else obj)
                  if isinstance(x, (list, dict)) or is_dataclass(x)), None)
    obj.append("written") if isinstance(obj, list) else obj.update(written="written")
    if inner is not None:
        _write(inner)


def _write_everything(s: State) -> None:
    """Write every field of a state through its write paths: each card's record, player, container and scalar,
    and a draw of its RNG."""
    for cid in range(len(s.cards)):
        _write(s.own(cid))
    for player in s.players:
        _write(player)
    for name, value in s.__dict__.items():
        if name in DERIVED or name in ("cards", "players"):
            continue
        _write(value) if isinstance(value, (list, dict)) else setattr(s, name, _other(value))
    s.own_rng().random()


def _filled() -> State:
    """Return a mid-game state whose every container holds something, nested containers and records too."""
    s = mid_game()
    c = s.own(0)
    c.statuses.append(["Poison", 2, ["turns", 3], 5])
    c.mods.append(["bp", 1000, ["eot", 12]])
    c.granted["pierce"], c.flags["acted"], c.stamps["acted"] = ["own", 2], ["eot", 12], 7
    c.attached.append(1)
    s.stack.append(Ctx(0, 0, ["card", c.name, 0], targets=[[[3, 1]]], event={"card": 3}))
    s.resolving.append(Ctx(1, 1, ["card", s.cards[1].name, 0], chosen=[[4]]))
    s.pending.append(Ctx(2, 0, ["card", s.cards[2].name, 0], answers=[True]))
    s.battle["known"] = [[3, {"bp": [5000]}]]
    s.result, s.pause, s.rolls = [0, 0], ["after_turn", 20], [3, 4]
    s.out.append(1)
    s.order += [5, 6]
    s.together.append({"start": {"cards": {"0": [1, 0, []]}}, "ends": []})
    return s


def _paths(s: State) -> dict[str, object]:
    """Return a state's plain data by field: a card's or player's per field, the RNG's state."""
    data = s.to_dict()
    out = {f"cards[{i}].{k}": v for i, card in enumerate(data.pop("cards")) for k, v in card.items()}
    out |= {f"players[{i}].{k}": v for i, player in enumerate(data.pop("players")) for k, v in player.items()}
    return out | data


def _leaks(write_original: bool) -> list[str]:
    """Write every field of a state or of its snapshot; return the fields of the other that changed (and check
    that every field of the written one did)."""
    original = _filled()
    copy = original.snapshot()
    written, other = (original, copy) if write_original else (copy, original)
    before, kept = _paths(written), _paths(other)
    _write_everything(written)
    after = _paths(written)
    assert [k for k in before if before[k] == after[k]] == []  # the writer reached every field
    now = _paths(other)
    return [k for k in kept if now[k] != kept[k]]


def test_writes_to_the_original_after_a_snapshot_leave_the_snapshot_as_it_was():
    assert _leaks(write_original=True) == []


def test_writes_to_a_snapshot_leave_its_original_as_it_was():
    assert _leaks(write_original=False) == []


def test_the_independence_check_finds_a_shared_field(monkeypatch):
    real = state_module._card_copy

    def sharing(card: CardState) -> CardState:
        copy = real(card)
        copy.statuses = list(card.statuses)  # planted: a shallow copy, the instances themselves shared
        return copy

    monkeypatch.setattr(state_module, "_card_copy", sharing)
    assert _leaks(write_original=True) == ["cards[0].statuses"]
    assert _leaks(write_original=False) == ["cards[0].statuses"]


def _shared_then_written(monkeypatch, games: int) -> list[str]:
    """Play seeded games of every ruleset, taking a snapshot after every decision (besides the engine's own);
    return the records (and RNGs) some snapshot shared that were written afterwards."""
    shared: dict[int, tuple[object, object]] = {}
    kept = []
    snapshot, apply_action = State.snapshot, engine.apply_action

    def sharing(s: State) -> State:
        copy = snapshot(s)
        for c in s.cards:
            shared.setdefault(id(c), (c, asdict(c)))
        shared.setdefault(id(s.rng), (s.rng, s.rng.getstate()))
        return copy

    def apply_and_keep(s: State, action) -> None:
        apply_action(s, action)
        kept.append(s.snapshot())

    monkeypatch.setattr(State, "snapshot", sharing)
    monkeypatch.setattr(engine, "apply_action", apply_and_keep)
    written = []
    for ruleset, options in (("simple_duel", {}), ("code_of_joker", {"version": "v1"}),
                             ("code_of_joker", {"version": "v2"}), ("war_vortex_night", {}), ("successor", {})):
        for _ in game_logs(ruleset, games, options):
            now = {k: asdict(x) if isinstance(x, CardState) else x.getstate() for k, (x, _) in shared.items()}
            written += [f"{ruleset} {x!r}" for k, (x, was) in shared.items() if now[k] != was]
            shared.clear()
            kept.clear()
    return written


def test_no_record_a_snapshot_shares_is_written_in_seeded_games(monkeypatch):
    assert _shared_then_written(monkeypatch, 4) == []


def test_the_game_check_finds_a_write_to_a_shared_record(monkeypatch):
    apply_action = engine.apply_action

    def writing_in_place(s: State, action) -> None:
        apply_action(s, action)
        s.cards[0].since += 1  # planted: a write that bypasses State.own

    monkeypatch.setattr(engine, "apply_action", writing_in_place)
    assert _shared_then_written(monkeypatch, 1)


def _always_copying(s: State, cid: int) -> CardState:
    """Return card `cid`'s record to write to, copied anew at every call."""
    card = s.cards[cid] = state_module._card_copy(s.cards[cid])
    s.owned[cid] = 1
    return card


def test_games_are_the_same_when_every_write_copies_its_record(monkeypatch):
    expected = render(digests(8))
    monkeypatch.setattr(State, "own", _always_copying)
    assert render(digests(8)) == expected


def test_the_copying_check_finds_a_record_kept_across_a_write(monkeypatch):
    move = fx.move

    def keeping(s: State, cid: int, zone: str, **where) -> None:
        card = s.own(cid)
        move(s, cid, zone, **where)  # writes the card through State.own
        s.say(f"moves {card.moves}")  # planted: reads the record it kept from before the write

    monkeypatch.setattr(fx, "move", keeping)
    expected = render(digests(1))
    monkeypatch.setattr(State, "own", _always_copying)
    assert render(digests(1)) != expected


@pytest.mark.parametrize("draws", [0, 3])
def test_a_shared_rng_draws_the_same_numbers_in_both_states(draws):
    s = mid_game()
    for _ in range(draws):
        s.own_rng().random()
    copy = s.snapshot()
    assert copy.rng is s.rng and not (s.rng_owned or copy.rng_owned)
    assert [copy.own_rng().random() for _ in range(5)] == [s.own_rng().random() for _ in range(5)]
    assert copy.rng is not s.rng
