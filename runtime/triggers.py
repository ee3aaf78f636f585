"""Events, pending triggers, their ordering policy, and the stack of abilities being resolved.

`emit` costs what the event matches: listeners are indexed by event name. Pending triggers are
ordered by the ruleset's declared policy and put on the stack; the engine resolves the top item
first, so triggers raised while resolving interrupt the rest (they resolve before it goes on).
"""

from __future__ import annotations

from runtime import query as q
from runtime import simultaneous
from runtime.defs import Ability
from runtime.state import Ctx, State


def emit(s: State, event: str, card: int = -1, player: int = -1, amount: int = 0,
         source: int = -1, phase: str = "") -> None:
    """Announce an event; every listening ability whose scope and condition match becomes pending."""
    listeners = q.index(s).listeners.get(event)
    if not listeners:
        return
    data = {"name": event, "card": card, "player": player, "amount": amount, "source": source,
            "phase": phase}
    # With priority levels a condition is checked when the ability's turn comes (§13), not now.
    later = ("priority", ()) in s.game.ruleset.trigger_order
    for ability, base in listeners:
        if ability.kind == "triggered" and ability.scope.kind == "this" and card != base.source:
            continue  # another card's event ('when this ...'): known out of scope before a context is made
        if q.has_flag(s, base.source, "silenced"):
            continue  # Silence: the card's abilities do not activate (its statics still apply)
        ctx = Ctx(base.source, s.cards[base.source].controller, list(base.ability), list(base.params),
                  dict(data))
        if _in_scope(s, ability, ctx) and (later or ability.condition(s, ctx)):
            ctx.event["moves"] = s.cards[base.source].moves  # to tell if the source leaves before its turn
            s.pending.append(ctx)


def _in_scope(s: State, ability: Ability, ctx: Ctx) -> bool:
    """Return whether an event is one this ability listens to (its typed scope)."""
    ev = ctx.event
    if ability.kind == "timed" and ability.scope.who == "itself" and s.actor >= 0:
        return s.actor == q.user(s, ctx.source) and (ability.phase == "" or ability.phase == ev["phase"])
    if ability.kind == "timed":
        whose = q.players_of(s, ctx, "you" if ability.scope.who == "itself" else ability.scope.who)
        return ev["player"] in whose and (ability.phase == "" or ability.phase == ev["phase"])
    scope = ability.scope
    if scope.kind == "this":
        return ev["card"] == ctx.source
    if scope.kind == "holder":  # 'when its holder takes damage': the card this one is attached to
        return ev["card"] >= 0 and ev["card"] == s.cards[ctx.source].holder
    if scope.kind == "player":
        return ev["player"] >= 0 and ev["player"] in q.players_of(s, ctx, scope.who)
    if scope.filter is None:
        return False
    if scope.filter.kind == "player":
        return ev["player"] >= 0 and q.matches(s, ability, ctx, scope.filter, ~ev["player"])
    return ev["card"] >= 0 and q.matches(s, ability, ctx, scope.filter, ev["card"])


def order_key(s: State, keys: tuple, cid: int, controller: int, ability: list | None = None) -> tuple:
    """Return the sort key of a card (of one of its abilities, where the policy orders by source) under an
    ordering policy (lower goes first)."""
    out: list[int] = []
    for key, names in keys:
        if key == "stat":
            out.append(-q.stat(s, cid, names[0]) if cid >= 0 else 0)
        elif key == "kind":
            on_field = cid >= 0 and s.cards[cid].zone == q.ACTIVE_ZONE
            kind = q.kind(s, cid) if cid >= 0 else ""
            out.append(names.index(kind) if on_field and kind in names else len(names))
        elif key == "turn_player":
            out.append(0 if controller == s.active else 1)
        elif key == "position":
            out.append(q.position(s, cid) if cid >= 0 else 0)
        elif key == "initiative":
            actor = q.user(s, cid)
            out.append(s.order.index(actor) if actor in s.order else -1)
        elif key == "source":
            out += _by_source(s, cid, ability or ["card", "", 0])
    return tuple(out)


def _by_source(s: State, cid: int, ability: list) -> list[int]:
    """Return the place of an ability among its card's (War Vortex Night §8.5): its printed abilities in
    order, its attached cards' by face, its named statuses', its normal ones' (by influence, highest first),
    then its basic modification's."""
    if cid < 0:
        return [0, 0]
    c, (owner, name, index) = s.cards[cid], ability
    if c.holder >= 0:
        return [1, s.cards[c.holder].attached.index(cid)]
    if owner == "status":
        sdef = s.game.statuses[name]
        return [2 if sdef.stacking == "never" else 3, -sdef.influence]
    if owner == "keyword" and not any(k == name for k, _ in s.game.cards[c.name].keywords):
        return [4, 0]  # granted: the basic modification
    return [0, index if owner == "card" else 1000 + index]


def stack_pending(s: State) -> bool:
    """Order the pending triggers by the ruleset's policy and put them on the stack, in order;
    return whether any went on the stack (with priority levels, overclock abilities wait)."""
    policy = s.game.ruleset.trigger_order
    by_priority = ("priority", ()) in policy
    if by_priority:
        pending, s.pending = priority_order(s, s.pending)
    else:
        pending = sorted(s.pending, key=lambda c: order_key(s, policy, c.source, c.controller, c.ability))
        s.pending = []
    for ctx in pending:
        ctx.item, ctx.stamp = s.next_id(), s.tick()
        s.stack.append(ctx)
        s.notify("fired", ctx)
        if not by_priority:  # with priority levels an ability is announced when its turn comes
            announce(s, ctx)
    # The task agenda is last-in first-out: push so that targets are chosen in order, then the
    # first trigger resolves first. With priority levels each ability chooses its targets only
    # when its turn comes.
    if by_priority:
        at_will = [c.item for c in pending if _level(s, c) == 3]
        if at_will:  # level 3 runs last: the players alternate, each using one card or passing
            s.tasks.append(["at_will", 0, 0, at_will])
        for ctx in reversed([c for c in pending if c.item not in at_will]):
            s.tasks += [["resolve", ctx.item], ["targets", ctx.item]]
        return bool(pending)
    runs = _ties(s, policy, pending) if s.game.ruleset.together else [[ctx] for ctx in pending]
    s.tasks += reversed([t for run in runs for t in simultaneous.tasks(run)])
    for ctx in reversed(pending):
        s.tasks.append(["targets", ctx.item])
    return bool(pending)


def _ties(s: State, policy: tuple, pending: list[Ctx]) -> list[list[Ctx]]:
    """Return the pending abilities in runs that no key of the policy tells apart (in order)."""
    runs: list[list[Ctx]] = []
    last = None
    for ctx in pending:
        key = order_key(s, policy, ctx.source, ctx.controller, ctx.ability)
        if runs and key == last:
            runs[-1].append(ctx)
        else:
            runs.append([ctx])
        last = key
    return runs


def announce(s: State, ctx: Ctx) -> None:
    """Log that an ability triggers (a face-down card's ability without naming where it is written)."""
    where = "" if s.cards[ctx.source].face_down else f" ({s.game.ability(ctx.ability).where})"
    s.say(f"{q.shown(s, ctx.source)} triggers{where}")


def priority_order(s: State, pending: list[Ctx]) -> tuple[list[Ctx], list[Ctx]]:
    """Return (the batch to stack now, what waits): level by level, the players alternating, the
    turn player first; overclock abilities wait until nothing else is on the stack."""
    waiting = [c for c in pending if (c.event.get("name") == "overclocked" and (s.stack or s.resolving))
               or _after_block(s, c)]
    ready = [(_level(s, c), c) for c in pending if c not in waiting]  # each level read once, not once a level
    n = len(s.players)
    out: list[Ctx] = []
    for level in (1, 2, 3, 4):
        sides = [sorted((c for at, c in ready if at == level and c.controller == (s.active + k) % n),
                        key=lambda c: _within(s, c)) for k in range(n)]
        for i in range(max(map(len, sides))):
            out += [side[i] for side in sides if i < len(side)]
    return out, waiting


def _after_block(s: State, ctx: Ctx) -> bool:
    """Set cards that fire on their own answer an attack only once the block is chosen (§10 step 2)."""
    return (ctx.event.get("name") == "attacks" and s.battle.get("declared") is False
            and _level(s, ctx) == 2)


def _level(s: State, ctx: Ctx) -> int:
    """Return an ability's priority level: 1 the field, 2 set cards, 3 set cards used at will, 4 overclock."""
    if ctx.event.get("name") == "overclocked":
        return 4
    rs = s.game.ruleset
    if s.cards[ctx.source].zone != rs.set_zone:
        return 1
    return 3 if "used at will" in rs.kind_traits.get(q.kind(s, ctx.source), ()) else 2


def _within(s: State, ctx: Ctx) -> tuple[int, int]:
    """Order within a side: the event's own card first (the attacker, the blocker, the card entering),
    then left to right (on the field, the order cards were placed)."""
    return (0 if ctx.event.get("card") == ctx.source else 1, q.position(s, ctx.source))


def find_item(s: State, item: int) -> Ctx | None:
    """Return the stack item with this id (waiting or resolving), or None if it has left the stack."""
    for ctx in s.stack:
        if ctx.item == item:
            return ctx
    for ctx in s.resolving:
        if ctx.item == item:
            return ctx
    return None
