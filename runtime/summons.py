"""Summoning on a grid as a procedure (Successor §5, §6, §13): the drive action and an ability's summon.

A summon goes into a square of its player's side: an empty one, or, where `a K may be summoned onto another.`,
one holding a card of its kind (an inherit-summon, SU-5.3). It is a task (["summon", card, square, chosen,
done, slots, kept, kept_done], runtime/inherit.py asks its decisions) that then stands the card in its square
*being summoned*, flagged `summoning` (it does not hold the square yet: runtime/grid.occupant), while a window
passes where summons can be interrupted (runtime/windows.py). Then ["summoned", ...] completes it: a card gone
meanwhile is not summoned (R-SU-23); a replaced card gone meanwhile leaves a normal summon, inheriting nothing
of it (SU-5.6); a card brought to 0 stamina meanwhile is summoned, and the checks destroy it after (SU-6.5).

An ability's summon (`summon it`, and a token on a grid whose kind may be summoned onto another: SU-13.4)
asks its player for the square first (["summon_square", card or token name, player]) and never takes cards
from the hand (SU-5.5).
"""

from __future__ import annotations

from runtime import effects as fx
from runtime import grid, inherit
from runtime import query as q
from runtime.state import State, Tasks
from runtime.turns import enter_field, entered


def squares(s: State, player: int, kind: str) -> list[int]:
    """Return the squares a card of a kind may be summoned into: empty ones, and those holding a card of its kind
    where it may be summoned onto another (SU-5.3)."""
    empty = grid.empty_squares(s, player)
    if kind not in s.game.ruleset.summon_onto:
        return empty
    size = len(s.game.ruleset.lines) * s.game.ruleset.squares
    taken = [k for k in range(size) if (o := grid.occupant(s, player, k)) is not None and q.kind(s, o) == kind]
    return sorted(empty + taken)


def begin(s: State, cid: int, at: int, by_ability: bool = False) -> None:
    """Start the summon of a card into a square: what it inherits is asked next (by an ability: nothing from
    the hand, SU-5.5)."""
    s.tasks.append(["summon", cid, at, [], by_ability, [], [], False])


def summon_task(s: State, task: list) -> None:
    """Ask a summon's next decision; once all are answered, stand the card in its square being summoned."""
    if inherit.ask_next(s, task):
        return
    _, cid, at, chosen, _, slots, kept, _ = task
    old = inherit.replaced(s, s.cards[cid].controller, at)
    if s.cards[cid].zone != q.ACTIVE_ZONE:
        fx.move(s, cid, q.ACTIVE_ZONE, at=at)
    s.own(cid).flags["summoning"] = None
    if "summons" in s.game.ruleset.interruptible:
        s.say(f"{q.describe(s, cid)} is being summoned")
    s.tasks.append(["summoned", cid, at, old, chosen, kept, slots])
    fx.interrupt(s, cid, "summons")


def summoned_task(s: State, task: list) -> None:
    """Complete a summon once its window has closed (the hand's cards still added: OPEN §16.10)."""
    _, cid, at, old, chosen, kept, slots = task
    s.own(cid).flags.pop("summoning", None)
    if s.cards[cid].zone != q.ACTIVE_ZONE or "destroyed" in s.cards[cid].flags:
        s.say(f"{q.describe(s, cid)} is gone before its summon is complete")
        return
    if old is not None and (s.cards[old].zone != q.ACTIVE_ZONE or "destroyed" in s.cards[old].flags):
        s.say(f"{q.describe(s, old)} is gone: {q.describe(s, cid)} is summoned normally, inheriting nothing of it")
        old, kept = None, []
    if old is not None:
        inherit.replace(s, cid, old, kept)
    hand = s.players[s.cards[cid].controller].zones["hand"]
    for m, slot in slots:
        if m in kept or (m in chosen and m in hand):
            inherit.attach(s, cid, m, slot)
    entered(s, cid, s.game.ruleset.kind_traits.get(q.kind(s, cid), ()))


def summon_square_task(s: State, task: list) -> None:
    """Ask the player of an ability's summon (a card, or a token by name) for its square; off a grid, it enters
    the field at once if there is room."""
    _, what, player = task
    kind = s.game.cards[what].kind if isinstance(what, str) else q.kind(s, what)
    if not grid.on_grid(s):
        if q.has_room(s, player, q.ACTIVE_ZONE) and not isinstance(what, str):
            enter_field(s, what, s.game.ruleset.kind_traits.get(kind, ()))
        return
    options = squares(s, player, kind)
    if not options:
        s.say(f"P{player + 1} has no square for {what if isinstance(what, str) else q.describe(s, what)}")
        return
    s.ask(["act_square", "summon", what], player, "square", options)


def by_ability(s: State, player: int, what: int | str, code: int) -> None:
    """Begin an ability's summon into the square chosen; a token is created there, being summoned."""
    if isinstance(what, str):
        cid = s.game.add_card(s, what, player, q.ACTIVE_ZONE, at=code)
        s.own(cid).flags["summoning"] = None
        s.say(f"P{player + 1} creates {q.describe(s, cid)} in {grid.name(s, code)}")
    else:
        cid = what
        s.say(f"P{player + 1} summons {q.describe(s, cid)} into {grid.name(s, code)}")
    begin(s, cid, code, by_ability=True)


TASKS: Tasks = {"summon": summon_task, "summoned": summoned_task, "summon_square": summon_square_task}
