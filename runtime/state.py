"""Game state as plain data: cards, players, the task agenda, the stack, the log and the RNG.

Everything here serializes to JSON and back exactly; snapshot/restore is a copy of that data.
Derived indexes (listeners, statics) live outside the data and are rebuilt on demand.

Card records and the RNG are copied on write: a snapshot shares them with its original until either state
writes one, so every write to a card goes through `State.own` (and every draw through `State.own_rng`),
which copies the record first if a snapshot shares it. A record read from `cards` is for reading.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class CardState:
    """One card in a game. `moves` counts zone changes, so a card that came back is a new object."""

    id: int
    name: str
    owner: int
    controller: int
    zone: str
    face_down: bool = False
    damage: int = 0
    moves: int = 0
    statuses: list[list] = field(default_factory=list)  # instances [name, value, expiry, origin] (elements.py)
    mods: list[list] = field(default_factory=list)  # [stat, delta, expiry]
    granted: dict[str, list | None] = field(default_factory=dict)  # keyword -> expiry
    flags: dict[str, list | None] = field(default_factory=dict)  # flag -> expiry
    level: int = 1  # kept in the hand and on the field; 1 anywhere else
    entered: int = 0  # the turn it last entered the field
    turns: int = 0  # the turns it took, where turns go to cards (runtime/actors.py)
    attached: list[int] = field(default_factory=list)  # the cards attached to it, in order (an action table)
    holder: int = -1  # the card it is attached to (-1: none)
    line: int = 0  # where the ruleset has lines: its line on its team's side, 0 the front
    square: int = 0  # where the lines have squares (runtime/grid.py): its square in the line, 0 the left
    slot: int = -1  # an inherited card: the slot of its holder it was designated for (-1: none, SU-5.1)
    since: int = 0  # State.stamp when it came into its zone: which came first, and the age of its statics
    stamps: dict[str, int] = field(default_factory=dict)  # flag -> State.stamp when an effect put it


@dataclass
class PlayerState:
    index: int
    resources: dict[str, int]
    zones: dict[str, list[int]]
    turns_taken: int = 0
    deck_list: list[str] = field(default_factory=list)  # the registered deck, for rebuilding a short deck
    rebuilds: int = 0
    jokers: list[str] = field(default_factory=list)  # the registered jokers (dealt, or kept in a zone)
    joker_turn: int = 0  # the last turn a joker was used from a zone other than the hand
    dealing: int = 0  # the turn jokers due to this player began to be dealt ('deal jokers')


@dataclass
class Ctx:
    """The context of one ability instance: source, controller, event, choices and payments."""

    source: int
    controller: int
    ability: list  # [owner kind ('card'|'keyword'|'status'|'ruleset'), name, index]
    params: list = field(default_factory=list)
    event: dict = field(default_factory=dict)
    targets: list = field(default_factory=list)  # per slot: list of [card id or -1-player, moves]
    answers: list = field(default_factory=list)  # 'you may' answers by index: True/False/None
    item: int = -1
    player: int = -1  # the player a lose rule is checked for ('their')
    window: list = field(default_factory=list)  # response window before it resolves: [next player, passes]
    used: bool | None = None  # priority levels: set once its turn came (used at will: whether it was used)
    # While it resolves, step by step (docs/language.md 2.2.1): the next step, and what its sentences
    # keep for the sentences after them.
    step: int = 0
    paid: bool = False  # the last cost sentence was paid ('if you do')
    happened: bool = False  # the sentence before an 'if that happened' acted on something
    runs: bool = True  # a sentence cut by a choice: whether its guard held when it began
    chosen: list = field(default_factory=list)  # per choice slot: the ids chosen while resolving
    rolled: int = 0  # the total of the last dice this ability rolled ('the roll')
    far: list = field(default_factory=list)  # [card, shortfall]: targets only the anti-stalemate rule reaches
    stamp: int = 0  # State.stamp when it was used (put on the stack): the later effect wins
    ended: bool = False  # a searcher who found nothing ended the effect: its later steps do not run (SU-10.6)

    def yes(self, index: int) -> bool:
        """Return whether the controller answered yes to 'you may' number `index`."""
        return index < len(self.answers) and self.answers[index] is True


def copy_of(ctx: Ctx) -> dict:
    """Return the fields of a context as an independent copy (for Ctx(**...))."""
    return _copied(ctx.__dict__)


# Not state data: copied apart, shared, rebuilt on demand, or not at all.
_NOT_COPIED = frozenset(("rng", "game", "index_cache", "base_cache", "watch", "version", "checked", "granted", "spare",
                         "owned", "rng_owned"))


def _copied(obj: Any) -> Any:
    """Return a copy of plain state data: records, dicts, lists and tuples copied, scalars shared.

    No memo as deepcopy keeps: state data is a tree (it round-trips through JSON), so nothing in it is
    reached twice, and skipping the memo makes a snapshot several times faster.
    """
    kind = type(obj)
    if kind is list:  # most values are scalars: those are shared without a call
        return [v if type(v) in _SCALARS else _copied(v) for v in obj]
    if kind is dict:
        return {k: v if type(v) in _SCALARS else _copied(v) for k, v in obj.items()}
    if kind in _RECORDS:
        return kind(**{k: v if type(v) in _SCALARS else _copied(v) for k, v in obj.__dict__.items()})
    if kind is tuple:
        return tuple(_copied(v) for v in obj)
    return obj  # int, str, bool, float, None


def _card_copy(c: CardState) -> CardState:
    """Return a copy of a card record: its scalars shared, its containers copied (an empty one made anew,
    a filled one copied as plain data), without calling the record's constructor."""
    data = c.__dict__.copy()
    for name in _CARD_CONTAINERS:
        v = data[name]
        data[name] = _copied(v) if v else type(v)()
    new = object.__new__(CardState)
    new.__dict__ = data
    return new


def _player_copy(p: PlayerState) -> PlayerState:
    """Return a copy of a player record: resources (str -> int) and lists of names or ids copied flat."""
    data = p.__dict__.copy()
    data["resources"] = dict(p.resources)
    data["zones"] = {z: list(ids) for z, ids in p.zones.items()}
    data["deck_list"] = list(p.deck_list)
    data["jokers"] = list(p.jokers)
    new = object.__new__(PlayerState)
    new.__dict__ = data
    return new


# The fields of a card record that hold containers (every other field is a scalar).
_CARD_CONTAINERS = ("statuses", "mods", "granted", "flags", "attached", "stamps")
# The state's fields a snapshot copies as plain data (records, lists, dicts, or None); the players, cards and
# log are copied knowing their structure, and every other field holds a scalar, shared.
_NESTED = ("tasks", "stack", "resolving", "pending", "battle", "decision", "result", "pause", "rolls", "out", "order",
           "together")


def _to_plain(obj: Any) -> Any:
    """Return obj as JSON-ready data: records as dicts of their fields, tuples as lists, scalars as they are."""
    kind = type(obj)
    if kind in _SCALARS:
        return obj
    if kind is list:
        return [_to_plain(v) for v in obj]
    if kind is dict:
        return {k: _to_plain(v) for k, v in obj.items()}
    if kind is CardState:
        return _plain_card(obj)
    return _to_plain_any(obj)


def _plain_card(c: CardState) -> dict:
    """Return a card record as a dict of its fields: its many empty containers made anew, not walked."""
    data = c.__dict__.copy()
    for name in _CARD_CONTAINERS:
        v = data[name]
        data[name] = _to_plain(v) if v else ({} if type(v) is dict else [])
    return data


_SCALARS = frozenset((int, str, bool, float, type(None)))


def _to_plain_any(obj: Any) -> Any:
    """Return obj as JSON-ready data, whatever subclass of a record, dict, list or tuple it is."""
    if isinstance(obj, (CardState, PlayerState, Ctx)):
        return {k: _to_plain(v) for k, v in obj.__dict__.items()}
    if isinstance(obj, dict):
        return {k: _to_plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_to_plain(v) for v in obj]
    return obj


_RECORDS = (CardState, PlayerState, Ctx)


class UnscriptedRoll(Exception):
    """A scenario's game rolled a die its `rolls:` line did not script (or scripted no such face)."""


@dataclass
class State:
    """Mutable state of one game. `game` is the immutable Game it belongs to (not serialized)."""

    seed: int
    rng: random.Random
    players: list[PlayerState]
    cards: list[CardState]
    turn: int = 0
    active: int = 0
    first: int = 0
    phase: str = ""
    step: str = ""
    tasks: list[list] = field(default_factory=list)
    stack: list[Ctx] = field(default_factory=list)
    resolving: list[Ctx] = field(default_factory=list)  # abilities between two steps, innermost last
    pending: list[Ctx] = field(default_factory=list)
    battle: dict = field(default_factory=dict)
    decision: dict | None = None
    result: list[int] | None = None
    log: list[str] = field(default_factory=list)
    counter: int = 0
    actions_taken: int = 0
    pause: list | None = None  # scenarios: ['after_turn', N] or ['before_phase', name, N]
    rolls: list[int] | None = None  # scenarios: the die faces still scripted (None: the RNG rolls)
    out: list[int] = field(default_factory=list)  # players who left the game (elimination), in order
    order: list[int] = field(default_factory=list)  # where turns go to cards: the actors, in initiative order
    actor: int = -1  # the card whose turn it is (-1: turns go to seats)
    stamp: int = 0  # the clock of zone changes, abilities used and restrictions put: the later effect wins
    together: list[dict] = field(default_factory=list)  # simultaneous groups resolving (runtime/simultaneous.py)
    cycle: int = 0  # passes through the order so far: the round, where turns go to cards
    game: Any = field(default=None, repr=False, compare=False)
    index_cache: Any = field(default=None, repr=False, compare=False)
    # What the index is built on (runtime/query.Base): kept across steps while no zone, status or grant changes,
    # where the index itself is dropped whenever the board moved and some static grants by a condition.
    base_cache: Any = field(default=None, repr=False, compare=False)
    # The change detector (runtime/unchanged.py): `version` counts writes the log does not tell of; `checked`
    # is the key of the board the checks last ran on. Derived, like the index: never serialized; a snapshot keeps them.
    version: int = field(default=0, repr=False, compare=False)
    checked: Any = field(default=None, repr=False, compare=False)
    granted: Any = field(default=None, repr=False, compare=False)  # the key of the board the grants were read on
    spare: Any = field(default=None, repr=False, compare=False)  # a ruleset context free for reuse (runtime/ending.py)
    # An observer of abilities (tools that count them, e.g. `cardc try`): called (state, what, ctx, why) when
    # an ability goes on the stack ('fired'), starts resolving ('resolved') or is removed unresolved
    # ('fizzled'; also a played or performed card's effect given up before the stack, for want of a target
    # or of its cost). Not game state: never serialized, and a snapshot (a trial on a copy) has none.
    watch: Any = field(default=None, repr=False, compare=False)
    # Copy on write (`own`, `own_rng`): which card records, and whether the RNG, are this state's alone; a
    # snapshot shares the others with its original. Derived: never serialized.
    owned: bytearray = field(default_factory=bytearray, init=False, repr=False, compare=False)
    rng_owned: bool = field(default=True, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.owned = bytearray(b"\x01") * len(self.cards)  # a state made from its own data shares nothing

    def to_dict(self) -> dict:
        """Return the state as plain JSON-ready data (the RNG state included)."""
        data = {k: _to_plain(v) for k, v in self.__dict__.items() if k not in _NOT_COPIED}
        version, internal, gauss = self.rng.getstate()
        data["rng"] = [version, list(internal), gauss]
        return data

    def to_json(self) -> str:
        """Return the state serialized as canonical JSON."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict, game: Any) -> State:
        """Return the state that `to_dict` described, attached to `game`."""
        return cls._from_own(_copied(data), game)

    @classmethod
    def _from_own(cls, data: dict, game: Any) -> State:
        """Return the state that plain data no one else holds describes (its lists become the state's)."""
        rng = random.Random.__new__(random.Random)  # its state is set below: no seeding from the OS
        version, internal, gauss = data.pop("rng")
        rng.setstate((version, tuple(internal), gauss))
        data["players"] = [PlayerState(**p) for p in data["players"]]
        data["cards"] = [CardState(**c) for c in data["cards"]]
        data["stack"] = [Ctx(**c) for c in data["stack"]]
        data["resolving"] = [Ctx(**c) for c in data["resolving"]]
        data["pending"] = [Ctx(**c) for c in data["pending"]]
        return cls(rng=rng, game=game, **data)

    @classmethod
    def from_json(cls, text: str, game: Any) -> State:
        """Return the state serialized by `to_json`."""
        return cls._from_own(json.loads(text), game)  # freshly parsed: nothing to copy

    def snapshot(self) -> State:
        """Return an independent copy equal to this state: card records and the RNG shared until either state
        writes them (`own`, `own_rng`), the players, log and other containers copied as the plain data they are."""
        self.owned, self.rng_owned = bytearray(len(self.cards)), False  # what this state shares from now on
        data = self.__dict__.copy()  # the scalars, the game and the RNG, shared
        data["players"] = [_player_copy(p) for p in self.players]
        data["cards"] = list(self.cards)
        data["log"] = list(self.log)
        for name in _NESTED:
            data[name] = _copied(data[name])
        # The derived data describes the copy as well: it keeps the index (unless one is being read, which a
        # static's reading may not leave half done), its base and the checked key, until it changes itself.
        idle = self.index_cache is not None and not (self.index_cache.busy or self.index_cache.counting)
        data.update(index_cache=self.index_cache if idle else None, watch=None, spare=None,
                    owned=bytearray(len(self.cards)))
        copy = object.__new__(State)  # every field is set above: no __init__ to run
        copy.__dict__ = data
        return copy

    def own(self, cid: int) -> CardState:
        """Return card `cid`'s record to write to: this state's own, copied first if a snapshot shares it."""
        if self.owned[cid]:
            return self.cards[cid]
        card = self.cards[cid] = _card_copy(self.cards[cid])
        self.owned[cid] = 1
        return card

    def own_rng(self) -> random.Random:
        """Return the RNG to draw from: this state's own, copied first if a snapshot shares it."""
        if not self.rng_owned:
            rng = random.Random.__new__(random.Random)  # unseeded: seeding from the OS costs more than the copy
            rng.setstate(self.rng.getstate())
            self.rng, self.rng_owned = rng, True
        return self.rng

    def add(self, card: CardState) -> None:
        """Append a new card record, this state's own."""
        self.cards.append(card)
        self.owned.append(1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    def notify(self, what: str, ctx: Ctx, why: str = "") -> None:
        """Tell the observer, if any, what happened to an ability (see `watch`)."""
        if self.watch is not None:
            self.watch(self, what, ctx, why)

    def touch(self, base: bool = True) -> None:
        """Forget derived indexes after a change to zones, statuses or grants; base=False: a change outside the
        zones where abilities work (Game.index_zones), which leaves the index's base as it is."""
        self.index_cache = None
        if base:
            self.base_cache = None
        self.version += 1

    def changed(self) -> None:
        """Note a change to the board that the log does not tell of (runtime/unchanged.py)."""
        self.version += 1

    def ask(self, task: list, player: int, kind: str, options: list[int], **extra: Any) -> None:
        """Put a task back on the agenda and ask a player to choose among options."""
        self.tasks.append(task)
        self.decision = {"player": player, "kind": kind, "options": options, **extra}

    def die(self, sides: int) -> int:
        """Return one die's face: the next scripted face in a scenario, else a roll of the state's RNG."""
        if self.rolls is None:
            return self.own_rng().randint(1, sides)
        if not self.rolls:
            raise UnscriptedRoll(f"a roll of a die of {sides} faces that the scenario did not script (rolls:)")
        face = self.rolls.pop(0)
        if not 1 <= face <= sides:
            raise UnscriptedRoll(f"the scripted roll {face} is no face of a die of {sides} faces")
        return face

    def tick(self) -> int:
        """Return the next time of the clock that tells which of two effects is the later."""
        self.stamp += 1
        return self.stamp

    def next_id(self) -> int:
        """Return a fresh number for stack items and timestamps."""
        self.counter += 1
        return self.counter

    def say(self, line: str) -> None:
        """Append a line to the game log, prefixed with the turn and phase."""
        where = f"{self.phase}.{self.step}" if self.step else self.phase
        prefix = f"T{self.turn} {where}" if where else f"T{self.turn}"
        self.log.append(f"{prefix}: {line}" if self.turn else f"setup: {line}")


# The engine's task handlers by task name (engine.TASKS joins each module's): each runs one task of the agenda.
Tasks = dict[str, Callable[[State, list], None]]
