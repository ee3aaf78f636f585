"""Choices made while an ability resolves: 'choose', 'search', 'discard ... of their choice', and the
effects on what was chosen ('reveal it', 'put it into your hand', 'shuffle your deck').

A choice ends a step of the resolution (runtime/resolve.py runs one step per task): `choose` puts a
'choose' task per chooser on the agenda, which asks and records the answers in `ctx.chosen[slot]`;
the next step reads them. Each slot's filter is the ability's `choice_filters[slot]`; in it, 'their' means
the player the choice is about. Nothing here is a closure, so a state waiting for a choice serializes.
"""

from __future__ import annotations

from runtime import effects as fx
from runtime import query as q
from runtime.state import Ctx, State
from runtime.triggers import emit


def choose(s: State, ctx: Ctx, slot: int, about: list[int], count: int, up_to: bool = False,
           by: str = "their") -> None:
    """Queue a choice of `count` objects for each player it is about (~players): each chooses for
    themselves (by 'their'), or the ability's controller chooses for each (by 'you')."""
    while len(ctx.chosen) <= slot:
        ctx.chosen.append([])
    ctx.chosen[slot] = []
    for x in reversed(about):
        chooser = ~x if by == "their" else ctx.controller
        s.tasks.append(["choose", ctx.item, slot, chooser, ~x, count, up_to])


def chosen(s: State, ctx: Ctx, slot: int) -> list[int]:
    """Return what was chosen in a slot and has not moved since (a card that moved is a new object)."""
    if slot >= len(ctx.chosen):
        return []
    return [x for x, moves in ctx.chosen[slot] if q.is_player(x) or s.cards[x].moves == moves]


def options(s: State, ctx: Ctx, slot: int, about: int) -> list[int]:
    """Return what the filter of a choice slot means now, 'their' meaning the player it is about."""
    ab = s.game.ability(ctx.ability)
    seen = Ctx(ctx.source, ctx.controller, ctx.ability, ctx.params, ctx.event, player=about)
    taken = {x for x, _ in ctx.chosen[slot]}
    return [x for x in q.select(s, ab, seen, ab.choice_filters[slot]) if x not in taken]


def choose_task(s: State, task: list) -> None:
    """Ask the chooser for the next object (an 'up to' choice may stop), or take what is forced."""
    _, item, slot, chooser, about, left, up_to = task
    ctx = resolving(s, item)
    found = options(s, ctx, slot, about) if left > 0 else []
    if left > 0 and not found and not up_to:
        s.say(f"P{chooser + 1} has nothing to choose ({q.shown(s, ctx.source)})")
    if not found:
        return
    if len(found) <= left and not up_to:
        for x in found:
            _record(s, ctx, slot, chooser, x, "must choose")
        return
    s.ask(task, chooser, "choose", found, item=item, slot=slot, can_stop=up_to)


def answer(s: State, player: int, x: int | None) -> None:
    """Record a chooser's answer (None: an 'up to' choice stops here); the task asks again if more is due."""
    task = s.tasks[-1]
    ctx = resolving(s, task[1])
    if x is None:
        s.tasks.pop()
        s.say(f"P{player + 1} chooses nothing more ({q.shown(s, ctx.source)})")
        return
    task[5] -= 1
    _record(s, ctx, task[2], player, x, "chooses")


def _record(s: State, ctx: Ctx, slot: int, chooser: int, x: int, how: str) -> None:
    ctx.chosen[slot].append([x, -1 if q.is_player(x) else s.cards[x].moves])
    s.say(f"P{chooser + 1} {how} {_named(s, x)} ({q.shown(s, ctx.source)})")


def _named(s: State, x: int) -> str:
    """Return how the public log names a chosen object: a card in a hidden zone stays unnamed."""
    if not q.is_player(x) and s.cards[x].zone in hidden_zones(s):
        return f"a card#{x} from their {s.cards[x].zone}"
    return q.shown(s, x)


def hidden_zones(s: State) -> set[str]:
    return {z for z, flags in s.game.ruleset.zones.items() if "hidden" in flags}


def resolving(s: State, item: int) -> Ctx:
    """Return the ability resolving as this stack item."""
    for ctx in s.resolving:
        if ctx.item == item:
            return ctx
    raise LookupError(f"no ability resolving as item {item}")


# ---------------------------------------------------------------- effects on what was chosen


def reveal(s: State, ctx: Ctx, objs: list[int]) -> None:
    """Show cards to every player (the log names them)."""
    for x in objs:
        if not q.is_player(x):
            s.say(f"P{s.cards[x].controller + 1} reveals {q.describe(s, x)}")


def put_into(s: State, ctx: Ctx, objs: list[int], zone: str) -> None:
    """Put cards into a zone of their owner, at its right end (a card on the field leaves it)."""
    for x in objs:
        if q.is_player(x) or s.cards[x].zone == zone:
            continue
        c = s.cards[x]
        if zone != "hand" and not q.has_room(s, c.owner, zone):  # the hand's limit stops draws (2.12.9)
            shown = f"card#{x}" if c.zone in hidden_zones(s) else q.describe(s, x)
            s.say(f"{shown} stays: P{c.owner + 1}'s {zone} holds {s.game.ruleset.zone_limits[zone]} at most")
            continue
        unseen = c.zone in hidden_zones(s) and zone in hidden_zones(s)  # from a hidden zone into one
        if c.zone == q.ACTIVE_ZONE:
            emit(s, "left", card=x, player=c.controller)
        fx.move(s, x, zone)
        shown = f"card#{x}" if unseen else q.describe(s, x)
        s.say(f"{shown} is put into P{c.owner + 1}'s {zone}")


def shuffle(s: State, ctx: Ctx, players: list[int], zone: str) -> None:
    """Shuffle a zone of each player with the state's generator."""
    for x in players:
        s.rng.shuffle(s.players[~x].zones[zone])
        s.say(f"P{~x + 1} shuffles their {zone}")


def discard_chosen(s: State, ctx: Ctx, slot: int) -> None:
    """Discard the cards chosen in a slot that are still in a hand."""
    for cid in chosen(s, ctx, slot):
        if not q.is_player(cid) and s.cards[cid].zone == "hand":
            s.say(f"P{s.cards[cid].controller + 1} discards {q.describe(s, cid)}")
            fx.move(s, cid, "graveyard")


TASKS = {"choose": choose_task}
