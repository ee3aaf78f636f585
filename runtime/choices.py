"""Choices made while an ability resolves: 'choose', 'search', 'discard ... of their choice', and the
effects on what was chosen ('reveal it', 'put it into your hand', 'shuffle your deck').

A choice ends a step of the resolution (runtime/resolve.py runs one step per task): `choose` puts a
'choose' task per chooser on the agenda, which asks and records the answers in `ctx.chosen[slot]`;
the next step reads them. Each slot's filter is the ability's `choice_filters[slot]`; in it, 'their' means
the player the choice is about. Nothing here is a closure, so a state waiting for a choice serializes.
"""

from __future__ import annotations

from dataclasses import replace

from runtime import effects as fx
from runtime import query as q
from runtime.defs import Ability, Filter
from runtime.state import Ctx, State, Tasks
from runtime.triggers import emit


def choose(s: State, ctx: Ctx, slot: int, about: list[int], count: int, up_to: bool = False,
           by: str = "their", search: bool = False) -> None:
    """Queue a choice of `count` objects for each player it is about (~players): each chooses for
    themselves (by 'their'), or the ability's controller chooses for each (by 'you'); a choice 'from
    each of' several places asks once per place (docs/language.md 2.8.10)."""
    while len(ctx.chosen) <= slot:
        ctx.chosen.append([])
    ctx.chosen[slot] = []
    f = s.game.ability(ctx.ability).choice_filters[slot]
    places = list(range(len(f.places))) if f.each_place else [-1]
    for x in reversed(about):
        chooser = ~x if by == "their" else ctx.controller
        if _goes_ahead(s, ctx, slot, [chooser, ~x, count, up_to, search], places):
            s.tasks += [["choose", ctx.item, slot, chooser, ~x, count, up_to, k, search] for k in reversed(places)]


def _goes_ahead(s: State, ctx: Ctx, slot: int, ask: list, places: list[int]) -> bool:
    """Return whether a chooser's choice is asked: not one that cannot meet its count under 'a choice that
    cannot meet its count chooses nothing.' (SU-8.1), nor a search that finds nothing under 'a search that
    finds nothing may end the effect.', whose searcher decides instead (SU-10.6)."""
    chooser, about, count, up_to, search = ask
    rs = s.game.ruleset
    if not (rs.whole_choice and not up_to) and not (search and rs.search_may_end):
        return True
    found = [options(s, ctx, slot, about, k) for k in places]
    short = rs.whole_choice and not up_to and any(found) and (
        any(len(f) < count for f in found) or len({x for f in found for x in f}) < count * len(places))
    if short:
        s.say(f"P{chooser + 1} cannot choose {count}{' from each place' * (len(places) > 1)}, and chooses "
              f"nothing ({q.shown(s, ctx.source)})")
    if search and rs.search_may_end and (short or not any(found)):
        s.tasks.append(["not found", ctx.item, chooser])
        return False
    return not short


def chosen(s: State, ctx: Ctx, slot: int) -> list[int]:
    """Return what was chosen in a slot and has not moved since (a card that moved is a new object)."""
    if slot >= len(ctx.chosen):
        return []
    return [x for x, moves in ctx.chosen[slot] if q.is_player(x) or s.cards[x].moves == moves]


def options(s: State, ctx: Ctx, slot: int, about: int, place: int = -1) -> list[int]:
    """Return what the filter of a choice slot means now, 'their' meaning the player it is about (a choice
    over places: in that place, or in any of them for place -1)."""
    ab = s.game.ability(ctx.ability)
    seen = Ctx(ctx.source, ctx.controller, ctx.ability, ctx.params, ctx.event, player=about)
    taken = {x for x, _ in ctx.chosen[slot]}
    f = ab.choice_filters[slot]
    if not f.places:
        return [x for x in q.select(s, ab, seen, f) if x not in taken]
    picked = f.places if place < 0 else f.places[place:place + 1]
    found = [x for p in picked for x in _in_place(s, ab, seen, f, p)]
    return [x for k, x in enumerate(found) if x not in taken and x not in found[:k]]


def _in_place(s: State, ab: Ability, ctx: Ctx, f: Filter, place: tuple[str, str, str]) -> list[int]:
    """Return the cards of one place ('the top of your deck': its first card) that the filter means."""
    end, zone, whose = place
    means = q.select(s, ab, ctx, replace(f, zone=zone, zone_of=whose, places=(), each_place=False))
    at = 0 if end == "top" else -1
    return [x for x in means if not end or s.players[s.cards[x].controller].zones[zone][at] == x]


def choose_task(s: State, task: list) -> None:
    """Ask the chooser for the next object (an 'up to' choice may stop), or take what is forced; cards
    the chooser cannot see are offered face down, by position (SU-8.2), except to a searcher."""
    _, item, slot, chooser, about, left, up_to, place, search = task
    ctx = resolving(s, item)
    found = options(s, ctx, slot, about, place) if left > 0 else []
    if left > 0 and not found and not up_to:
        s.say(f"P{chooser + 1} has nothing to choose ({q.shown(s, ctx.source)})")
    if not found:
        return
    if len(found) <= left and not up_to:
        for x in found:
            _record(s, ctx, slot, chooser, x, "must choose", search)
        return
    offered = [["choose", x] if search or q.sees(s, chooser, x) else ["face down", i] for i, x in enumerate(found)]
    blind = {"choices": offered} if any(a[0] == "face down" for a in offered) else {}
    s.ask(task, chooser, "choose", found, item=item, slot=slot, can_stop=up_to, **blind)


def not_found_task(s: State, task: list) -> None:
    """Ask a searcher who found nothing whether to go on or to end the effect (SU-10.6)."""
    ctx = resolving(s, task[1])
    s.say(f"P{task[2] + 1} finds nothing ({q.shown(s, ctx.source)})")
    s.ask(task, task[2], "not found", [], item=task[1], choices=[["go on", 0], ["end the effect", 0]])


def answer_not_found(s: State, player: int, end: bool) -> None:
    """Record a searcher's answer: going on, or ending the effect (the rest of its choices and steps)."""
    ctx = resolving(s, s.tasks.pop()[1])
    if not end:
        s.say(f"P{player + 1} goes on ({q.shown(s, ctx.source)})")
        return
    s.say(f"P{player + 1} declares that the search found nothing and ends the effect ({q.shown(s, ctx.source)})")
    ctx.ended = True
    while s.tasks and s.tasks[-1][0] in ("choose", "not found") and s.tasks[-1][1] == ctx.item:
        s.tasks.pop()


def answer(s: State, player: int, x: int | None) -> None:
    """Record a chooser's answer (None: an 'up to' choice stops here); the task asks again if more is due."""
    task = s.tasks[-1]
    ctx = resolving(s, task[1])
    if x is None:
        s.tasks.pop()
        s.say(f"P{player + 1} chooses nothing more ({q.shown(s, ctx.source)})")
        return
    task[5] -= 1
    _record(s, ctx, task[2], player, x, "chooses", task[8])


def _record(s: State, ctx: Ctx, slot: int, chooser: int, x: int, how: str, search: bool) -> None:
    ctx.chosen[slot].append([x, -1 if q.is_player(x) else s.cards[x].moves])
    s.say(f"P{chooser + 1} {how} {_named(s, x, chooser, search)} ({q.shown(s, ctx.source)})")


def _named(s: State, x: int, chooser: int, search: bool) -> str:
    """Return how the public log names a chosen object: a card in a hidden zone stays unnamed, and one
    the chooser could not see was taken face down from its player's zone."""
    if q.is_player(x) or s.cards[x].zone not in hidden_zones(s):
        return q.shown(s, x)
    if search or q.sees(s, chooser, x):
        return f"a card#{x} from their {s.cards[x].zone}"
    return f"a face-down card#{x} from P{s.cards[x].controller + 1}'s {s.cards[x].zone}"


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
        s.own_rng().shuffle(s.players[~x].zones[zone])
        s.say(f"P{~x + 1} shuffles their {zone}")


def discard_chosen(s: State, ctx: Ctx, slot: int) -> None:
    """Discard the cards chosen in a slot that are still in a hand."""
    for cid in chosen(s, ctx, slot):
        if not q.is_player(cid) and s.cards[cid].zone == "hand":
            s.say(f"P{s.cards[cid].controller + 1} discards {q.describe(s, cid)}")
            fx.move(s, cid, "graveyard")


TASKS: Tasks = {"choose": choose_task, "not found": not_found_task}
