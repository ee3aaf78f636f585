"""Grids (Successor §9, §10): where a ruleset has `lines front, back` and `each line has 3 squares.`, each card
on a player's field stands in a square of its side, one card a square: `CardState.line` (0 the front line) and
`CardState.square` (0 the left square, as its controller sees them). A kind that `stands behind the middle
square` stands behind the last line and takes no square (Successor's ruler).

"In front of" (SU-9.1) is one square forward: from a square of a line behind the front, the square of the line
ahead; from front square c, the front square facing it on the opposing side (the front lines face each other,
so P1's left faces P2's right: square width - 1 - c); from a card behind, the middle square of the last line.
A move goes to an orthogonally next square of its own side; into an occupied square it swaps the two, and both
have moved (SU-10.3); a card that can't move neither moves nor is swapped (SU-10.5).
"""

from __future__ import annotations

from runtime import query as q
from runtime.state import State
from runtime.triggers import emit


def on_grid(s: State) -> bool:
    """Return whether the ruleset's field is a grid of squares."""
    return s.game.ruleset.squares > 0


def stands_behind(s: State, cid: int) -> bool:
    """Return whether a card is of a kind that stands behind the grid rather than in a square."""
    return q.kind(s, cid) in s.game.ruleset.stands_behind


def name(s: State, code: int) -> str:
    """Return how the log and scenarios name a square: 'front 2' (squares counted from 1, from the left)."""
    line, square = divmod(code, s.game.ruleset.squares)
    return f"{s.game.ruleset.lines[line]} {square + 1}"


def code_of(s: State, cid: int) -> int:
    """Return the square a card stands in, as one number: line * width + square."""
    c = s.cards[cid]
    return c.line * s.game.ruleset.squares + c.square


def occupant(s: State, player: int, code: int) -> int | None:
    """Return the card standing in a square of a player's side, or None for an empty square. A card being
    summoned onto another does not stand there yet; a destroyed one waiting to leave gives way to a card
    summoned normally into its square (SU-5.6)."""
    squares, behind = s.game.ruleset.squares, s.game.ruleset.stands_behind
    waiting = None  # the first destroyed card there: it stands there only if no other does
    for cid in s.players[player].zones[q.ACTIVE_ZONE]:
        c = s.cards[cid]
        if c.line * squares + c.square != code or "summoning" in c.flags or q.kind(s, cid) in behind:
            continue
        if "destroyed" not in c.flags:
            return cid
        waiting = cid if waiting is None else waiting
    return waiting


def empty_squares(s: State, player: int, arriving: int = -1) -> list[int]:
    """Return the empty squares of a player's side, front line first, left to right (a card arriving takes none
    yet)."""
    taken = {code_of(s, cid) for cid in s.players[player].zones[q.ACTIVE_ZONE]
             if cid != arriving and not stands_behind(s, cid)}
    return [k for k in range(len(s.game.ruleset.lines) * s.game.ruleset.squares) if k not in taken]


def arrive(s: State, cid: int, code: int | None) -> None:
    """Stand a card that has come onto the field in a square: the one given, else the first empty one (a kind
    that stands behind: behind the middle square)."""
    rs, c = s.game.ruleset, s.own(cid)
    if stands_behind(s, cid):
        c.line, c.square = len(rs.lines), rs.squares // 2
    else:
        free = empty_squares(s, c.controller, cid) if code is None else [code]
        c.line, c.square = divmod(free[0] if free else 0, rs.squares)
    _sort(s, c.controller)


def put(s: State, cid: int, code: int) -> None:
    """Stand a card in a square of its side (a scenario's set-up); a card already there takes its old one."""
    c = s.own(cid)
    other = occupant(s, c.controller, code)
    if other is not None and other != cid:
        taken = s.own(other)
        taken.line, taken.square = c.line, c.square
    c.line, c.square = divmod(code, s.game.ruleset.squares)
    _sort(s, c.controller)


def _sort(s: State, player: int) -> None:
    """Keep a grid field's zone list in board order, so 'left to right' reads the board: front line first."""
    s.players[player].zones[q.ACTIVE_ZONE].sort(key=lambda cid: (s.cards[cid].line, s.cards[cid].square))
    s.touch()  # the index lists abilities in zone order


def in_front(s: State, cid: int) -> int | None:
    """Return the card standing one square in front of a card on the field (SU-9.1), or None."""
    rs, c = s.game.ruleset, s.cards[cid]
    if c.zone != q.ACTIVE_ZONE:
        return None
    if stands_behind(s, cid):
        return occupant(s, c.controller, (len(rs.lines) - 1) * rs.squares + rs.squares // 2)
    if c.line > 0:
        return occupant(s, c.controller, (c.line - 1) * rs.squares + c.square)
    facing = rs.squares - 1 - c.square
    return next((o for p in q.seated(s) if p != c.controller if (o := occupant(s, p, facing)) is not None), None)


def stands_in_front_of(s: State, cid: int, objs: list[int]) -> bool:
    """Return whether a card stands in front of one of the given cards."""
    c = s.cards[cid]
    if c.zone != q.ACTIVE_ZONE or "summoning" in c.flags or stands_behind(s, cid):
        return False  # no square's occupant (in_front names only those)
    return any(not q.is_player(x) and in_front(s, x) == cid for x in objs)


# ---------------------------------------------------------------- moves


def may_move(s: State, cid: int) -> bool:
    """Return whether a card may declare a move: on the field in a square, ready (SU-10.2), not summoned this
    turn unless its summoning lock was lifted ([速攻], SU-10.1), not moved yet this turn, and able to move."""
    c = s.cards[cid]
    return (c.zone == q.ACTIVE_ZONE and not stands_behind(s, cid) and not {"acted", "restricted", "moved", "destroyed"} & set(c.flags)
            and not q.has_flag(s, cid, "cant_move") and bool(destinations(s, cid)))


def destinations(s: State, cid: int) -> list[int]:
    """Return the squares next to a card (not diagonally) it may move to: empty, or holding a card that can be
    swapped with (one that can't move cannot be, SU-10.5)."""
    rs, c = s.game.ruleset, s.cards[cid]
    out = []
    for line, square in ((c.line - 1, c.square), (c.line, c.square - 1), (c.line, c.square + 1), (c.line + 1, c.square)):
        if 0 <= line < len(rs.lines) and 0 <= square < rs.squares:
            other = occupant(s, c.controller, line * rs.squares + square)
            if other is None or not q.has_flag(s, other, "cant_move"):
                out.append(line * rs.squares + square)
    return sorted(out)


def move(s: State, cid: int, code: int) -> None:
    """Move a card to a square of its side: into an occupied one the two swap, and both have moved (SU-10.3);
    'when this moves' comes for each, the mover's first. The move is done whatever happens after it (SU-10.4)."""
    c = s.own(cid)
    other = occupant(s, c.controller, code)
    was = code_of(s, cid)
    c.line, c.square = divmod(code, s.game.ruleset.squares)
    c.flags["moved"] = ["eot", s.turn]
    moved = [cid]
    if other is not None:
        swapped = s.own(other)
        swapped.line, swapped.square = divmod(was, s.game.ruleset.squares)
        s.say(f"{q.describe(s, cid)} moves to {name(s, code)}, swapping with {q.describe(s, other)} "
              f"(to {name(s, was)})")
        moved.append(other)
    else:
        s.say(f"{q.describe(s, cid)} moves to {name(s, code)}")
    _sort(s, c.controller)
    s.touch()
    for x in moved:
        emit(s, "moved", card=x, player=s.cards[x].controller)
