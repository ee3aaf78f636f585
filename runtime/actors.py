"""Turns that go to cards instead of seats: a ruleset's `turns go to KINDs in initiative order` (War Vortex
Night's characters). At the start each actor on the field rolls; higher acts first, and actors that tie
roll again among themselves until the order is settled. The order holds for the game: each turn goes to
the next actor in it that is still on the field, and one pass through the order is a cycle (the round).
An actor that enters the field later joins the end of the order.
"""

from __future__ import annotations

from runtime import query as q
from runtime import resolve
from runtime.defs import meets_requirement
from runtime.state import Ctx, State
from runtime.vocabulary import dice_text


def roll_initiative(s: State) -> None:
    """Settle the order of every actor on the field, seats from the first player on, and log it."""
    kind = s.game.ruleset.actor_turns[0]
    n = len(s.players)
    actors = [cid for k in range(n) for cid in s.players[(s.first + k) % n].zones["field"] if q.kind(s, cid) == kind]
    s.order = _ranked(s, actors)
    s.say("initiative order: " + ", ".join(q.describe(s, cid) for cid in s.order))


def _ranked(s: State, actors: list[int]) -> list[int]:
    """Return actors from the highest initiative roll down; a group that ties rolls again among itself."""
    _kind, count, sides = s.game.ruleset.actor_turns
    rolls = {}
    for cid in actors:
        faces = [s.die(sides) for _ in range(count)]
        rolls[cid] = sum(faces)
        s.say(f"{q.describe(s, cid)} rolls {dice_text(count, sides)} for initiative: {rolls[cid]}")
    order: list[int] = []
    for value in sorted(set(rolls.values()), reverse=True):
        tied = [cid for cid in actors if rolls[cid] == value]
        if len(tied) > 1:
            s.say(f"{' and '.join(q.describe(s, cid) for cid in tied)} tie at {value} and roll again")
        order += _ranked(s, tied) if len(tied) > 1 else tied
    return order


def next_actor(s: State) -> int | None:
    """Return the actor whose turn comes next (counting a new cycle when the order starts again), or None
    when no actor is on the field; actors that entered the field since join the end of the order first."""
    kind = s.game.ruleset.actor_turns[0]
    s.order += [cid for p in s.players for cid in p.zones["field"] if q.kind(s, cid) == kind and cid not in s.order]
    start = s.order.index(s.actor) + 1 if s.actor in s.order else 0
    for step in range(len(s.order)):
        at = (start + step) % len(s.order)
        if s.cards[s.order[at]].zone == q.ACTIVE_ZONE and s.cards[s.order[at]].controller not in s.out:
            if s.cycle == 0 or at < start:
                s.cycle += 1
            return s.order[at]
    return None


def turn_unmet_face_down(s: State) -> None:
    """State check: each face-up card attached to a card on the field whose requirement its holder no longer
    meets turns face down at once, and stays so (R-WVN-45: the lost 'counts as earth')."""
    for p in s.players:
        for holder in p.zones[q.ACTIVE_ZONE]:
            for cid in s.cards[holder].attached:
                card = s.game.cards[s.cards[cid].name]
                if s.cards[cid].face_down or card.requires is None:
                    continue
                have = q.attribute_values(s, holder, card.requires[0])
                if not meets_requirement(card, s.game.cards[s.cards[holder].name], have):
                    s.own(cid).face_down = True
                    s.touch()
                    attr, mode, values = card.requires
                    need = f" {'or' if mode == 'any' else 'and'} ".join(values)
                    s.say(f"{q.describe(s, cid)} turns face down: {q.describe(s, holder)} no longer meets its "
                          f"requirement ({attr} {need})")


def perform_rolled(s: State, ctx: Ctx, count: int, sides: int) -> None:
    """Procedure: the card whose turn it is rolls, and the card attached to it at the face rolled (its
    action table: the first attached card is face 1) resolves as if played, no cost paid; a face with
    no card, or a face-down card, does nothing this turn (a card with no table rolls nothing)."""
    actor = s.actor
    if actor < 0 or s.cards[actor].zone != q.ACTIVE_ZONE:
        return
    if q.has_flag(s, actor, "cant_act"):  # 'this can't act': its turn passes without its action
        s.say(f"{q.describe(s, actor)} can't act this turn")
        return
    table = s.cards[actor].attached
    if not table:  # a card without a table has no action die to roll
        s.say(f"{q.describe(s, actor)} has no cards to perform")
        return
    face = sum(s.die(sides) for _ in range(count))
    s.say(f"{q.describe(s, actor)} rolls {dice_text(count, sides)}: {face}")
    card = table[face - 1] if 1 <= face <= len(table) else None
    if card is None or s.cards[card].face_down:
        s.say(f"{q.describe(s, actor)} does nothing this turn")
        return
    cdef = s.game.cards[s.cards[card].name]
    effect = next((i for i, a in enumerate(cdef.abilities) if a.kind == "effect"), None)
    s.say(f"{q.describe(s, actor)} performs {q.describe(s, card)}")
    if effect is None:
        return
    done = Ctx(card, s.cards[card].controller, ["card", cdef.name, effect])
    if not resolve.has_targets(s, cdef.abilities[effect], done):
        s.say(f"{q.describe(s, card)} has no legal target")
        s.notify("fizzled", done, "it had no legal target")
        return
    done.item, done.stamp = s.next_id(), s.tick()
    s.stack.append(done)
    s.notify("fired", done)
    s.tasks += [["resolve", done.item], ["targets", done.item]]
