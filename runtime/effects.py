"""Effect primitives: what generated card code calls, one function per effect of the vocabulary.

Every primitive takes the state, the ability context and lists of objects (card ids, or ~player),
does as much as it can ("do as many as possible" for non-cost amounts) and logs what happened.
"""

from __future__ import annotations

from typing import Any

from runtime import query as q
from runtime.defs import Ability, Filter
from runtime.state import Ctx, State
from runtime.triggers import emit
from runtime.vocabulary import RESTRICTIONS

# ---------------------------------------------------------------- objects


def this(s: State, ctx: Ctx) -> list[int]:
    return [ctx.source] if ctx.source >= 0 else []


def event_card(s: State, ctx: Ctx) -> list[int]:
    card = ctx.event.get("card", -1)
    return [card] if card >= 0 else []


def event_player(s: State, ctx: Ctx) -> list[int]:
    player = ctx.event.get("player", -1)
    return [~player] if player >= 0 else []


def attacker(s: State, ctx: Ctx) -> list[int]:
    return [s.battle["attacker"]] if s.battle.get("attacker", -1) >= 0 else []


def blocker(s: State, ctx: Ctx) -> list[int]:
    return [s.battle["blocker"]] if s.battle.get("blocker", -1) >= 0 else []


def players(s: State, ctx: Ctx, who: str) -> list[int]:
    return [~p for p in q.players_of(s, ctx, who)]


def target(s: State, ctx: Ctx, slot: int) -> list[int]:
    """Return the chosen targets of a slot that were still legal when resolution began."""
    return [x for x, _ in ctx.targets[slot]] if slot < len(ctx.targets) else []


def each(s: State, ab: Ability, ctx: Ctx, f: Filter) -> list[int]:
    return q.select(s, ab, ctx, f)


def extreme(s: State, ab: Ability, ctx: Ctx, f: Filter, side: str) -> list[int]:
    found = q.select(s, ab, ctx, f)
    if not found:
        return []
    return [min(found, key=lambda c: q.position(s, c))] if side == "left" else [
        max(found, key=lambda c: q.position(s, c))]


def random_one(s: State, ab: Ability, ctx: Ctx, f: Filter) -> list[int]:
    found = q.select(s, ab, ctx, f)
    return [found[s.rng.randrange(len(found))]] if found else []


def count(s: State, ab: Ability, ctx: Ctx, f: Filter) -> int:
    return len(q.select(s, ab, ctx, f))


def stat(s: State, objs: list[int], name: str) -> int:
    """Return a stat of the first object: a card's stat, or a player's resource."""
    if not objs:
        return 0
    x = objs[0]
    if q.is_player(x):
        return s.players[~x].resources.get(name, 0)
    return q.stat(s, x, name)


def stacks(s: State, objs: list[int], status: str) -> int:
    if not objs or q.is_player(objs[0]):
        return 0
    return s.cards[objs[0]].statuses.get(status, [0])[0]


def zone_count(s: State, objs: list[int], zone: str) -> int:
    return sum(len(s.players[~x].zones.get(zone, ())) for x in objs if q.is_player(x))


def div(a: int, b: int, rounding: str) -> int:
    """Return a / b rounded 'up' or 'down'; division by zero gives 0."""
    if b == 0:
        return 0
    return -(-a // b) if rounding == "up" else a // b


def has(s: State, objs: list[int], name: str) -> bool:
    return any(not q.is_player(x) and q.has_name(s, x, name) for x in objs)


# ---------------------------------------------------------------- moving cards


def move(s: State, cid: int, zone: str, *, to_front: bool = False) -> None:
    """Move a card to a zone of its owner (field: its controller), right end unless to_front."""
    c = s.cards[cid]
    s.players[c.controller].zones[c.zone].remove(cid)
    if zone != q.ACTIVE_ZONE:
        c.controller = c.owner
        c.damage = 0
        c.mods.clear()
        c.granted.clear()
        c.flags.clear()
        c.statuses.clear()
    dest = s.players[c.controller].zones[zone]
    dest.insert(0, cid) if to_front else dest.append(cid)
    c.zone = zone
    c.moves += 1
    if zone != q.ACTIVE_ZONE:
        c.face_down = False
    s.touch()


def destroy(s: State, ctx: Ctx, objs: list[int]) -> None:
    """Destroy cards on the field: 'is destroyed' and 'leaves the field' trigger before they go."""
    for cid in objs:
        if q.is_player(cid) or s.cards[cid].zone != q.ACTIVE_ZONE:
            continue
        s.say(f"{q.describe(s, cid)} is destroyed")
        emit(s, "destroyed", card=cid, player=s.cards[cid].controller)
        emit(s, "left", card=cid, player=s.cards[cid].controller)
        move(s, cid, "graveyard")


def return_to_hand(s: State, ctx: Ctx, objs: list[int]) -> None:
    for cid in objs:
        if q.is_player(cid) or s.cards[cid].zone != q.ACTIVE_ZONE:
            continue
        s.say(f"{q.describe(s, cid)} returns to its owner's hand")
        emit(s, "left", card=cid, player=s.cards[cid].controller)
        if s.game.cards[s.cards[cid].name].token:
            move(s, cid, "graveyard")
        else:
            move(s, cid, "hand")


def move_to_end(s: State, ctx: Ctx, objs: list[int], side: str) -> None:
    for cid in objs:
        if q.is_player(cid):
            continue
        c = s.cards[cid]
        zone = s.players[c.controller].zones[c.zone]
        zone.remove(cid)
        zone.insert(0, cid) if side == "left" else zone.append(cid)
        s.say(f"{q.describe(s, cid)} moves to the {side} end")


def draw(s: State, ctx: Ctx, objs: list[int], amount: int) -> None:
    """Each player draws up to `amount` cards (as many as the deck has)."""
    for x in objs:
        p = s.players[~x]
        n = 0
        for _ in range(amount):
            if not p.zones["deck"]:
                break
            cid = p.zones["deck"][0]
            move(s, cid, "hand")
            n += 1
            emit(s, "drew", player=~x, card=cid)
        if n:
            s.say(f"P{~x + 1} draws {n} card{'s' if n != 1 else ''}")


def discard(s: State, ctx: Ctx, objs: list[int], amount: int) -> None:
    """Each player discards `amount` cards at random (as many as the hand has)."""
    for x in objs:
        hand = s.players[~x].zones["hand"]
        for _ in range(min(amount, len(hand))):
            cid = hand[s.rng.randrange(len(hand))]
            s.say(f"P{~x + 1} discards {q.describe(s, cid)} at random")
            move(s, cid, "graveyard")


def create_token(s: State, ctx: Ctx, objs: list[int], amount: int, name: str) -> None:
    for x in objs:
        for _ in range(amount):
            cid = s.game.add_card(s, name, ~x, "field")
            s.say(f"P{~x + 1} creates {q.describe(s, cid)}")
            emit(s, "summoned", card=cid, player=~x)
            emit(s, "entered", card=cid, player=~x)


# ---------------------------------------------------------------- numbers


def deal_damage(s: State, ctx: Ctx, objs: list[int], amount: int) -> None:
    """Deal damage: to a card it adds up (less any reduction); to a player it lowers life."""
    source = ctx.source
    for x in objs:
        if q.is_player(x):
            dealt = max(amount, 0)
            if dealt:
                s.players[~x].resources["life"] = s.players[~x].resources.get("life", 0) - dealt
                s.say(f"P{~x + 1} takes {dealt} damage (life {s.players[~x].resources['life']})")
                emit(s, "player_damaged", player=~x, amount=dealt, source=source)
                emit(s, "lost_life", player=~x, amount=dealt, source=source)
        else:
            if s.cards[x].zone != q.ACTIVE_ZONE:
                continue
            dealt = max(amount - q.damage_reduction(s, x), 0)
            if dealt:
                s.cards[x].damage += dealt
                s.say(f"{q.describe(s, x)} takes {dealt} damage (total {s.cards[x].damage})")
                emit(s, "damaged", card=x, player=s.cards[x].controller, amount=dealt, source=source)
        if dealt and source >= 0:
            emit(s, "dealt_damage", card=source, player=s.cards[source].controller, amount=dealt)


def remove_damage(s: State, ctx: Ctx, objs: list[int]) -> None:
    for x in objs:
        if not q.is_player(x) and s.cards[x].damage:
            s.cards[x].damage = 0
            s.say(f"damage is removed from {q.describe(s, x)}")


def gain(s: State, ctx: Ctx, objs: list[int], amount: int, resource: str) -> None:
    for x in objs:
        if amount <= 0:
            continue
        res = s.players[~x].resources
        res[resource] = res.get(resource, 0) + amount
        s.say(f"P{~x + 1} gains {amount} {resource} ({resource} {res[resource]})")
        if resource == "life":
            emit(s, "gained_life", player=~x, amount=amount)


def lose(s: State, ctx: Ctx, objs: list[int], amount: int | None, resource: str) -> None:
    """Lose an amount of a resource (None: all of it). Life may go below 0; others stop at 0."""
    for x in objs:
        res = s.players[~x].resources
        have = res.get(resource, 0)
        lost = have if amount is None else (amount if resource == "life" else min(amount, have))
        if lost <= 0:
            continue
        res[resource] = have - lost
        s.say(f"P{~x + 1} loses {lost} {resource} ({resource} {res[resource]})")
        if resource == "life":
            emit(s, "lost_life", player=~x, amount=lost)


def expiry(s: State, ctx: Ctx, duration: str | None) -> list | None:
    """Return the expiry marker of a duration: ['eot', turn], ['next', player] or None (lasting)."""
    if duration == "end of turn":
        return ["eot", s.turn]
    if duration == "your next turn":
        return ["next", ctx.controller]
    return None


def modify(s: State, ctx: Ctx, objs: list[int], delta: int, stat: str, duration: str | None) -> None:
    for x in objs:
        if q.is_player(x) or s.cards[x].zone != q.ACTIVE_ZONE:
            continue
        s.cards[x].mods.append([stat, delta, expiry(s, ctx, duration)])
        until = f" until {duration}" if duration else ""
        s.say(f"{q.describe(s, x)} gets {delta:+d} {stat}{until}")


def give(s: State, ctx: Ctx, objs: list[int], name: str, duration: str | None) -> None:
    """Give a keyword (or one stack of a status) to each card."""
    if name in s.game.statuses:
        put_status(s, ctx, objs, 1, name, duration)
        return
    for x in objs:
        if q.is_player(x) or s.cards[x].zone != q.ACTIVE_ZONE:
            continue
        s.cards[x].granted[name] = expiry(s, ctx, duration)
        s.touch()
        s.say(f"{q.describe(s, x)} gains {name}" + (f" until {duration}" if duration else ""))


def put_status(s: State, ctx: Ctx, objs: list[int], amount: int, name: str, duration: str | None) -> None:
    """Put stacks of a status on cards, following the status's stacking rule."""
    sdef = s.game.statuses[name]
    for x in objs:
        if q.is_player(x) or s.cards[x].zone != q.ACTIVE_ZONE or amount <= 0:
            continue
        held = s.cards[x].statuses.get(name)
        until = expiry(s, ctx, duration) or _status_expiry(s, sdef.lasts)
        if held is None or sdef.stacking == "refresh":
            stacks = 1 if sdef.stacking == "once" else amount
        else:
            stacks = 1 if sdef.stacking == "once" else held[0] + amount
        s.cards[x].statuses[name] = [stacks, until]
        s.touch()
        s.say(f"{q.describe(s, x)} has {stacks} {name}")


def _status_expiry(s: State, lasts: str) -> list | None:
    if lasts == "until end of turn":
        return ["eot", s.turn]
    if lasts.endswith(" turns"):
        return ["turns", int(lasts.split()[0])]
    return None


def remove(s: State, ctx: Ctx, objs: list[int], amount: int | None, name: str) -> None:
    """Remove stacks of a status (None: all) or a granted keyword from cards."""
    for x in objs:
        if q.is_player(x):
            continue
        c = s.cards[x]
        if name in c.statuses:
            left = 0 if amount is None else c.statuses[name][0] - amount
            if left > 0:
                c.statuses[name][0] = left
            else:
                del c.statuses[name]
            s.say(f"{q.describe(s, x)} has {max(left, 0)} {name}")
        elif name in c.granted:
            del c.granted[name]
            s.say(f"{q.describe(s, x)} loses {name}")
        s.touch()


# ---------------------------------------------------------------- costs


def can_pay(s: State, ctx: Ctx, costs: list[tuple]) -> bool:
    """Return whether every cost of a cost sentence can be paid in full now."""
    for cost in costs:
        what, objs = cost[0], cost[1]
        if what == "lose" and cost[2] is not None and cost[3] != "life":
            if any(s.players[~x].resources.get(cost[3], 0) < cost[2] for x in objs):
                return False
        elif what == "discard" and any(len(s.players[~x].zones["hand"]) < cost[2] for x in objs):
            return False
        elif what == "remove" and any(stacks(s, [x], cost[3]) < (cost[2] or 1) for x in objs):
            return False
        elif what in ("destroy", "return_to_hand") and (
                not objs or any(s.cards[x].zone != q.ACTIVE_ZONE for x in objs)):
            return False
    return True


def pay(s: State, ctx: Ctx, costs: list[tuple]) -> bool:
    """Pay all the costs of a cost sentence, all or nothing; return whether they were paid."""
    if not can_pay(s, ctx, costs):
        s.say(f"{q.shown(s, ctx.source)}: the cost cannot be paid")
        return False
    for what, objs, *args in costs:
        PRIMITIVES[what](s, ctx, objs, *args)
    return True


def restrict(s: State, ctx: Ctx, objs: list[int], flag: str, duration: str | None) -> None:
    for x in objs:
        if not q.is_player(x) and s.cards[x].zone == q.ACTIVE_ZONE:
            s.cards[x].flags[flag] = expiry(s, ctx, duration)
            phrase = next(k for k, f in RESTRICTIONS.items() if f == flag)
            s.say(f"{q.describe(s, x)} can't {phrase}" + (f" until {duration}" if duration else ""))


PRIMITIVES: dict[str, Any] = {
    "deal_damage": deal_damage, "destroy": destroy, "draw": draw, "gain": gain, "lose": lose,
    "give": give, "put_status": put_status, "remove": remove, "remove_damage": remove_damage,
    "return_to_hand": return_to_hand, "move_to_end": move_to_end, "create_token": create_token,
    "discard": discard, "modify": modify, "restrict": restrict,
}


def matches(s: State, ab: Ability, ctx: Ctx, f: Filter, c: int) -> bool:
    return q.matches(s, ab, ctx, f, c)


def turns_taken(s: State, objs: list[int]) -> int:
    return s.players[~objs[0]].turns_taken if objs and q.is_player(objs[0]) else 0
