"""Invariants every reachable state keeps; fuzzing and property tests check them after each action.

Each invariant is a named check in INVARIANTS; tests/test_invariants.py plants a breakage of each one
in a real game's state and expects exactly that invariant's message, so a check that cannot fail
(or one added without its planted breakage) fails a test.
"""

from __future__ import annotations

from collections.abc import Callable

from runtime import engine
from runtime import query as q
from runtime.jokers import is_joker
from runtime.state import State
from runtime.turns import PLAIN_ZONES, has_due
from runtime.vocabulary import SIGNED

Check = Callable[[State], list[str]]


def _listings(s: State) -> dict[int, list[tuple[int, str]]]:
    """Return, for each card id listed in some zone, the (player, zone) places listing it, in order."""
    places: dict[int, list[tuple[int, str]]] = {}
    for p, player in enumerate(s.players):
        for zone, cards in player.zones.items():
            for cid in cards:
                places.setdefault(cid, []).append((p, zone))
    return places


def _place(p: int, zone: str) -> str:
    """Return a place as messages name it: 'P1 hand'."""
    return f"P{p + 1} {zone}"


def one_zone(s: State) -> list[str]:
    """Return a message for each extra listing of a card already listed in a zone."""
    return [f"card #{cid} is in both {_place(*where[0])} and {_place(*other)}"
            for cid, where in _listings(s).items() if len(where) > 1 for other in where[1:]]


def zone_agrees(s: State) -> list[str]:
    """Return a message for each card listed once whose own zone or controller says otherwise."""
    out = []
    for cid, where in _listings(s).items():
        c = s.cards[cid]
        if len(where) == 1 and where[0] != (c.controller, c.zone):  # listed twice: one_zone says it
            out.append(f"card #{cid} is listed in {_place(*where[0])} but says {_place(c.controller, c.zone)}")
    return out


def in_a_zone(s: State) -> list[str]:
    """Return a message naming the cards that no zone lists."""
    listed = _listings(s)
    missing = [c.id for c in s.cards if c.id not in listed]
    return [f"cards in no zone: {missing}"] if missing else []


def damage(s: State) -> list[str]:
    """Return a message for each card with negative damage."""
    return [f"card #{c.id} has negative damage {c.damage}" for c in s.cards if c.damage < 0]


def expiring_changes(s: State) -> list[str]:
    """Return a message for each card in a deck or hand holding a change that expires (turns._changed skips them)."""
    return [f"card #{cid} in {_place(p, zone)} holds a change that expires"
            for p, player in enumerate(s.players) for zone in sorted(PLAIN_ZONES) for cid in player.zones.get(zone, ())
            if has_due(s.cards[cid], lambda marker: True)]  # any marker at all: due some day


def stacks(s: State) -> list[str]:
    """Return a message for each card keeping a status with no stacks or a value of 0 (it should be gone),
    or a merging status twice (its instances merge)."""
    out = []
    for c in s.cards:
        names = [held[0] for held in c.statuses]
        if any(value == 0 or (value < 0 and s.game.statuses[name].stacking not in SIGNED)
               for name, value, *_ in c.statuses):
            out.append(f"card #{c.id} holds a status with no stacks: {c.statuses}")
        out += [f"card #{c.id} keeps {names.count(name)} instances of {name}, which merge: {c.statuses}"
                for name in dict.fromkeys(names) if names.count(name) > 1 and s.game.statuses[name].stacking != "never"]
    return out


def resources(s: State) -> list[str]:
    """Return a message for each resource below its lower bound (0 unless declared; life may) or above its upper."""
    out = []
    for p, player in enumerate(s.players):
        for name, value in player.resources.items():
            low, high = s.game.ruleset.resource_bounds.get(name, (None, None))
            if (name != "life" and value < (low or 0)) or (high is not None and value > high):
                out.append(f"P{p + 1} has {value} {name}")
    return out


def deck_cards(s: State) -> list[str]:
    """Return a message for each player whose non-token, non-joker cards are not its registered deck
    once per build of it (a short deck builds it anew)."""
    out = []
    for p, player in enumerate(s.players):
        main = [c for c in s.cards if c.owner == p and not s.game.cards[c.name].token and not is_joker(s.game, c.name)]
        want = len(player.deck_list) * (1 + player.rebuilds)
        if player.deck_list and len(main) != want:
            out.append(f"P{p + 1} owns {len(main)} deck cards, expected {want}")
    return out


def jokers(s: State) -> list[str]:
    """Return a message for each player owning other than its registered jokers (unless jokers are dealt)."""
    if s.game.ruleset.jokers is not None and s.game.ruleset.jokers[2]:
        return []  # dealt jokers come on top of the registered ones
    out = []
    for p, player in enumerate(s.players):
        owned = sum(1 for c in s.cards if c.owner == p and is_joker(s.game, c.name) and not s.game.cards[c.name].token)
        if player.deck_list and owned != len(player.jokers):
            out.append(f"P{p + 1} owns {owned} jokers, expected {len(player.jokers)}")
    return out


def _held(s: State, player: int, zone: str) -> int:
    """Return how many cards of a player's zone count toward its limit (tokens not, where it says so)."""
    cards = s.players[player].zones.get(zone, ())
    if "not counting tokens" in s.game.ruleset.zones.get(zone, ()):
        return sum(1 for cid in cards if not s.game.cards[s.cards[cid].name].token)
    return len(cards)


def zone_limits(s: State) -> list[str]:
    """Return a message for each limited zone over its limit (the hand excepted: decisions.md)."""
    # The hand limit caps draws and dealt jokers; a card returned to the hand may pass it.
    rs = s.game.ruleset
    out = [f"P{p + 1} {zone} holds {_held(s, p, zone)} cards, more than {limit}"
           for zone, limit in rs.zone_limits.items() if zone != "hand" and "shared" not in rs.zones.get(zone, ())
           for p in range(len(s.players)) if _held(s, p, zone) > limit]
    shared = {zone: sum(len(p.zones.get(zone, ())) for p in s.players) for zone, flags in rs.zones.items()
              if "shared" in flags and zone in rs.zone_limits}
    return out + [f"the shared {zone} holds {held} cards, more than {rs.zone_limits[zone]}"
                  for zone, held in shared.items() if held > rs.zone_limits[zone]]


def over_means_closed(s: State) -> list[str]:
    """Return a message when the game is over but a decision (an action to take) is still open."""
    return ["the game is over but a decision is still open"] if s.result is not None and s.decision else []


def waiting(s: State) -> list[str]:
    """Return a message when the game is neither over, nor waiting for a decision, nor at its pause point."""
    if s.result is None and s.decision is None and not engine.paused(s):
        return ["the game is neither over nor waiting for a decision"]
    return []


def attached(s: State) -> list[str]:
    """Return a message for each attachment that its two cards do not agree on."""
    out = [f"card #{a} is attached to #{c.id} but says #{s.cards[a].holder}"
           for c in s.cards for a in c.attached if s.cards[a].holder != c.id]
    return out + [f"card #{c.id} says it is attached to #{c.holder}, which does not hold it"
                  for c in s.cards if c.holder >= 0 and c.id not in s.cards[c.holder].attached]


def left_out(s: State) -> list[str]:
    """Return a message for each player who left the game (elimination) but is asked to decide or whose
    turn it is."""
    deciding = s.decision["player"] if s.decision else None
    return [f"P{p + 1} left the game but still plays" for p in s.out
            if s.result is None and p in (deciding, s.active)]


def lines(s: State) -> list[str]:
    """Return a message for each team whose cards stand behind an empty line, or past its last line
    (R-WVN-17, R-WVN-18: lines fill from the front, and collapse at once); on a grid, for two cards in
    one square, a card outside the grid, or a field out of board order."""
    rs = s.game.ruleset
    if rs.squares:
        return [m for p in range(len(s.players)) for m in _grid_problems(s, p)]
    out = []
    for p, player in enumerate(s.players):
        used = sorted({s.cards[cid].line for cid in player.zones.get("field", ())})
        if used and (used[-1] >= len(rs.lines) or used != list(range(len(used)))):
            out.append(f"P{p + 1}'s cards stand in lines {used}, not the first {len(used)} of {len(rs.lines)}")
    return out if rs.lines else []


def _grid_problems(s: State, p: int) -> list[str]:
    """Return what is wrong with one player's side of a grid (runtime/grid.py)."""
    rs, field = s.game.ruleset, s.players[p].zones.get("field", [])
    squares = [(s.cards[c].line, s.cards[c].square) for c in field if q.kind(s, c) not in rs.stands_behind
               and not {"summoning", "destroyed"} & set(s.cards[c].flags)]  # (runtime/grid.occupant)
    out = [f"P{p + 1} has two cards in line {line} square {sq}" for line, sq in sorted(set(squares))
           if squares.count((line, sq)) > 1]
    out += [f"P{p + 1} has a card outside the grid (line {line}, square {sq})" for line, sq in squares
            if not (0 <= line < len(rs.lines) and 0 <= sq < rs.squares)]
    where = [(s.cards[c].line, s.cards[c].square) for c in field]
    return out + ([f"P{p + 1}'s field is not in board order"] if where != sorted(where) else [])


def order(s: State) -> list[str]:
    """Return a message where turns go to cards but the turn order lists a card twice, or lacks the card
    whose turn it is."""
    if not s.game.ruleset.actor_turns:
        return []
    twice = sorted({cid for cid in s.order if s.order.count(cid) > 1})
    out = [f"the turn order lists {twice} more than once"] if twice else []
    missing = s.actor >= 0 and s.actor not in s.order
    return out + ([f"card #{s.actor} has the turn but is not in the turn order"] if missing else [])


INVARIANTS: tuple[tuple[str, Check], ...] = (
    ("one zone", one_zone),
    ("zone agrees", zone_agrees),
    ("in a zone", in_a_zone),
    ("damage", damage),
    ("expiring changes", expiring_changes),
    ("stacks", stacks),
    ("resources", resources),
    ("deck cards", deck_cards),
    ("jokers", jokers),
    ("zone limits", zone_limits),
    ("over means closed", over_means_closed),
    ("waiting", waiting),
    ("left out", left_out),
    ("attached", attached),
    ("lines", lines),
    ("order", order),
)


def broken(s: State) -> list[tuple[str, str]]:
    """Return (invariant name, message) for every broken invariant of a state, in INVARIANTS order."""
    return [(name, message) for name, check in INVARIANTS for message in check(s)]


def violations(s: State) -> list[str]:
    """Return every broken invariant of a state (empty when all hold)."""
    return [message for _, message in broken(s)]
