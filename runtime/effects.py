"""Effect primitives: what generated card code calls, one function per effect of the vocabulary.

Every primitive takes the state, the ability context and lists of objects (card ids, or ~player),
does as much as it can ("do as many as possible" for non-cost amounts) and logs what happened.
"""

from __future__ import annotations

from typing import Any, Protocol

from runtime import elements, grid, positions, shared
from runtime import query as q
from runtime.defs import Ability, Filter
from runtime.ending import at_once, round_number
from runtime.state import Ctx, State
from runtime.triggers import emit
from runtime.vocabulary import CARD_STATES, MAX_AT_ONCE, MAX_VALUE, RESTRICTIONS, dice_text

# ---------------------------------------------------------------- objects


def this(s: State, ctx: Ctx) -> list[int]:
    return [ctx.source] if ctx.source >= 0 else []


def holder(s: State, ctx: Ctx) -> list[int]:
    """Return the card this card is attached to ('its holder'), if any."""
    held = s.cards[ctx.source].holder if ctx.source >= 0 else -1
    return [held] if held >= 0 else []


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


def winner(s: State, ctx: Ctx) -> list[int]:
    """Return the battle's winner while it is still on the field."""
    cid = s.battle.get("winner", -1)
    return [cid] if cid >= 0 and s.cards[cid].zone == q.ACTIVE_ZONE else []


def won_battle(s: State, objs: list[int]) -> bool:
    """Return whether the card named won the battle under way (even if it has left the field since)."""
    return bool(objs) and s.battle.get("winner", -1) == objs[0]


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
    return [found[s.own_rng().randrange(len(found))]] if found else []


def count(s: State, ab: Ability, ctx: Ctx, f: Filter) -> int:
    return len(q.select(s, ab, ctx, f))


def stat(s: State, objs: list[int], name: str) -> int:
    """Return a stat of the first object: a card's stat, or a player's resource."""
    if not objs:
        return 0
    x = objs[0]
    return s.players[~x].resources.get(name, 0) if x < 0 else q.stat(s, x, name)  # x < 0: a player


def stacks(s: State, objs: list[int], status: str) -> int:
    """Return the value of a status on the first card: its stacks, or its signed instances' sum."""
    if not objs or q.is_player(objs[0]):
        return 0
    return elements.total(s, objs[0], status)


def zone_count(s: State, objs: list[int], zone: str) -> int:
    return sum(len(s.players[~x].zones.get(zone, ())) for x in objs if q.is_player(x))


def div(a: int, b: int, rounding: str) -> int:
    """Return a / b rounded 'up' or 'down'; division by zero gives 0."""
    if b == 0:
        return 0
    return -(-a // b) if rounding == "up" else a // b


def has_abilities(s: State, objs: list[int]) -> bool:
    """Return whether the first card has any ability now: printed, from its keywords, or granted."""
    if not objs or q.is_player(objs[0]):
        return False
    c = s.cards[objs[0]]
    cdef = s.game.cards[c.name]
    return bool(cdef.abilities or cdef.keywords or c.granted or q.statics_on(s, c.id, "grant"))


def has(s: State, objs: list[int], name: str) -> bool:
    return any(not q.is_player(x) and q.has_name(s, x, name) for x in objs)


# ---------------------------------------------------------------- moving cards


def move(s: State, cid: int, zone: str, *, to_front: bool = False, at: int | None = None) -> None:
    """Move a card to a zone of its owner (field: its controller), right end unless to_front; onto a grid, into
    the square `at` (else the first empty one)."""
    c = s.own(cid)
    rs = s.game.ruleset
    came_from = c.zone
    if zone == "graveyard" and "deleted instead of graveyard" in s.game.traits[c.name]:
        zone = "deleted"
    if rs.tokens_leave and c.zone == q.ACTIVE_ZONE != zone and s.game.cards[c.name].token:
        zone = "removed"  # SU-13.2: by whatever way it leaves, a token leaves the game
        s.say(f"{q.describe(s, cid)} leaves the game")
    left_field = c.zone == q.ACTIVE_ZONE != zone
    if c.zone == q.ACTIVE_ZONE:
        _keep_last_known(s, cid)
    s.players[c.controller].zones[c.zone].remove(cid)
    if not (c.zone == "hand" and zone == q.ACTIVE_ZONE):
        c.level = 1  # a level lives on in the hand and onto the field, nowhere else
    if zone != q.ACTIVE_ZONE:
        c.controller = c.owner
        c.damage = 0
        if c.mods or c.granted or c.flags or c.stamps or c.statuses:  # most cards that move (draws) hold none
            c.mods.clear()
            c.granted.clear()
            c.flags.clear()
            c.stamps.clear()
            c.statuses.clear()
    dest = s.players[c.controller].zones[zone]
    dest.insert(0, cid) if to_front else dest.append(cid)
    if zone == q.ACTIVE_ZONE:
        c.entered = s.turn
    c.zone = zone
    if zone == q.ACTIVE_ZONE and grid.on_grid(s):
        grid.arrive(s, cid, at)
    if left_field and c.attached and rs.shed_attached:
        shed(s, cid)
    c.since = s.tick()
    c.moves += 1
    if zone != q.ACTIVE_ZONE:
        c.face_down = False
    s.touch(came_from in s.game.index_zones or zone in s.game.index_zones)


def shed(s: State, holder: int) -> None:
    """Send the cards attached to a card that left the field to the graveyard (Successor SU-4.4)."""
    for cid in list(s.cards[holder].attached):
        held = s.own(cid)
        held.holder, held.slot = -1, -1
        move(s, cid, "graveyard")
        s.say(f"{q.describe(s, cid)} goes to the graveyard with {q.describe(s, holder)}")
    s.own(holder).attached.clear()


def _keep_last_known(s: State, cid: int) -> None:
    """A battling card leaving the field after battle damage: keep what it was for the rest of the
    battle, where 'the attacker' and 'the blocker' are read as they were (R-COJ-094)."""
    for entry in s.battle.get("known", ()):
        if entry[0] == cid:
            entry[1] = q.known_facts(s, cid)


def destroy(s: State, ctx: Ctx, objs: list[int]) -> None:
    """Destroy cards on the field: 'is destroyed' and 'leaves the field' trigger before they go; where destroyed
    cards stay in place, they go once all processing has finished (leave_destroyed)."""
    for cid in objs:
        if q.is_player(cid) or s.cards[cid].zone != q.ACTIVE_ZONE or "destroyed" in s.cards[cid].flags:
            continue
        s.say(f"{q.describe(s, cid)} is destroyed")
        emit(s, "destroyed", card=cid, player=s.cards[cid].controller)
        emit(s, "left", card=cid, player=s.cards[cid].controller)
        if s.game.ruleset.destroyed_stay:
            s.own(cid).flags["destroyed"] = None  # SU-4.1: still in its zone at its [when destroyed]
            s.touch()
            interrupt(s, cid, "destructions")
        else:
            move(s, cid, "graveyard")


WAITING = frozenset(("window", "summoned", "moving"))  # tasks of an interruption under way (runtime/windows.py)


def interrupt(s: State, cid: int, procedure: str) -> None:
    """Open an interruption window over a card's procedure ('summons', 'moves', 'destructions') where the
    ruleset lets it be interrupted (runtime/windows.py); it opens with the opponent of the card's controller."""
    rs = s.game.ruleset
    if procedure in rs.interruptible and not (s.battle and s.battle.get("step") in rs.quiet_steps):
        s.tasks.append(["window", (s.cards[cid].controller + 1) % len(s.players), 0, "open"])


def interrupted(s: State) -> bool:
    """Return whether an interruption is under way: all processing has not finished while it is."""
    if not s.game.ruleset.interruptible:
        return False
    for task in s.tasks:  # read at every check: a loop, not a generator, over the agenda
        if task[0] in WAITING:
            return True
    return False


def leave_destroyed(s: State) -> None:
    """The leave step: the destroyed cards still on the field go to the graveyard (Successor §7.1 ★離脱)."""
    for p in s.players:
        for cid in [c for c in p.zones[q.ACTIVE_ZONE] if "destroyed" in s.cards[c].flags]:
            move(s, cid, "graveyard")
            if s.cards[cid].zone == "graveyard":
                s.say(f"{q.describe(s, cid)} leaves its square for the graveyard")


def _changes(s: State, cid: int) -> bool:
    """Return whether a card takes a change now; a destroyed card still in place says it takes none."""
    if s.cards[cid].zone != q.ACTIVE_ZONE:
        return False
    if "destroyed" in s.cards[cid].flags or q.incapacitated(s, cid):
        state = "destroyed" if "destroyed" in s.cards[cid].flags else "incapacitated"
        s.say(f"{q.describe(s, cid)} is {state}: the change has no effect")
        return False
    return True


def return_to_hand(s: State, ctx: Ctx, objs: list[int]) -> None:
    for cid in objs:
        if q.is_player(cid) or s.cards[cid].zone != q.ACTIVE_ZONE or _protected(s, ctx, cid, "unreturnable"):
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
        s.touch(c.zone in s.game.index_zones)  # the index lists abilities in zone order
        s.say(f"{q.describe(s, cid)} moves to the {side} end")


def draw(s: State, ctx: Ctx, objs: list[int], amount: int) -> None:
    """Each player draws up to `amount` cards: no more than the hand limit leaves room for, and as
    many as the deck has (a ruleset with a short-deck rule rebuilds the deck first)."""
    rs = s.game.ruleset
    limit = rs.zone_limits.get("hand")
    for x in objs:
        p = s.players[~x]
        want = amount if limit is None else min(amount, limit - len(p.zones["hand"]))
        if rs.short_deck and 0 < want and len(p.zones["deck"]) < want:
            rebuild_deck(s, ~x)
        n = 0
        for _ in range(want):
            if not p.zones["deck"]:
                break
            cid = p.zones["deck"][0]
            move(s, cid, "hand")
            n += 1
            emit(s, "drew", player=~x, card=cid)
        if n:
            s.say(f"P{~x + 1} draws {n} card{'s' if n != 1 else ''}")


def rebuild_deck(s: State, player: int) -> None:
    """Set aside the zones the short-deck rule names and build a new, shuffled deck from the deck list."""
    aside, dest = s.game.ruleset.short_deck or ((), "")
    p = s.players[player]
    for zone in aside:
        for cid in list(p.zones[zone]):
            move(s, cid, dest)
    for name in p.deck_list:
        s.game.add_card(s, name, player, "deck")
    s.own_rng().shuffle(p.zones["deck"])
    p.rebuilds += 1
    s.say(f"P{player + 1}'s deck is short: a new deck of {len(p.zones['deck'])} cards is built")


def summon(s: State, ctx: Ctx, objs: list[int]) -> None:
    """Summon cards from outside the field by an ability: each is summoned next, into a square its controller
    chooses (runtime/actions.py: SU-5.5, an inherit-summon maybe, never with cards from the hand)."""
    for cid in objs:
        if not q.is_player(cid) and s.cards[cid].zone != q.ACTIVE_ZONE:
            s.tasks.append(["summon_square", cid, s.cards[cid].owner])


def delete(s: State, ctx: Ctx, objs: list[int]) -> None:
    """Move cards to their owner's deleted zone, out of reach of effects that look at the graveyard."""
    for cid in objs:
        if q.is_player(cid) or s.cards[cid].zone == "deleted":
            continue
        s.say(f"{q.describe(s, cid)} is deleted")
        if s.cards[cid].zone == q.ACTIVE_ZONE:
            emit(s, "left", card=cid, player=s.cards[cid].controller)
        move(s, cid, "deleted")


def discard(s: State, ctx: Ctx, objs: list[int], amount: int) -> None:
    """Each player discards `amount` cards at random (as many as the hand has)."""
    for x in objs:
        hand = s.players[~x].zones["hand"]
        for _ in range(min(amount, len(hand))):
            cid = hand[s.own_rng().randrange(len(hand))]
            s.say(f"P{~x + 1} discards {q.describe(s, cid)} at random")
            move(s, cid, "graveyard")


class _Says(Protocol):
    def say(self, line: str, /) -> None: ...


def bounded(s: _Says, amount: int, high: int = MAX_VALUE) -> int:
    """Return an amount within -high..high; one past it is logged (its digits are never printed)."""
    if -high <= amount <= high:
        return amount
    s.say(f"an amount past {high:,} is taken as {high if amount > 0 else -high:,} (the engine's bound)")
    return high if amount > 0 else -high


def create_token(s: State, ctx: Ctx, objs: list[int], amount: int, name: str) -> None:
    """Each player creates `amount` tokens on its field, at most MAX_AT_ONCE."""
    amount = bounded(s, amount, MAX_AT_ONCE)
    if grid.on_grid(s) and s.game.cards[name].kind in s.game.ruleset.summon_onto:  # SU-13.4: any square of its side
        s.tasks += [["summon_square", name, ~x] for x in reversed(objs) for _ in range(amount)]
        return
    for x in objs:
        for _ in range(amount):
            if not q.has_room(s, ~x, q.ACTIVE_ZONE):
                s.say(f"P{~x + 1} has no empty square for {name}")
                break
            cid = s.game.add_card(s, name, ~x, "field")
            s.say(f"P{~x + 1} creates {q.describe(s, cid)}")
            emit(s, "summoned", card=cid, player=~x)
            emit(s, "entered", card=cid, player=~x)


def place(s: State, ctx: Ctx, name: str, zone: str) -> None:
    """Put a new card into its controller's zone of that name (a full shared zone gives up its first)."""
    shared.place(s, ctx, name, zone)


# ---------------------------------------------------------------- numbers


def roll(s: State, ctx: Ctx, count: int, sides: int) -> int:
    """Return the total of `count` dice of `sides` faces, rolled now and logged; 'the roll' keeps it."""
    faces = [s.die(sides) for _ in range(count)]
    who = q.describe(s, ctx.source) if ctx.source >= 0 else f"P{ctx.controller + 1}"
    shown = f"{' + '.join(map(str, faces))} = {sum(faces)}" if count > 1 else str(faces[0])
    s.say(f"{who} rolls {dice_text(count, sides)}: {shown}")
    ctx.rolled = sum(faces)
    return ctx.rolled


def deal_damage(s: State, ctx: Ctx, objs: list[int], amount: int, pierce: bool = False,
                dealer: list[int] | None = None) -> None:
    """Deal damage: to a card it adds up (less any reduction; an event from the ruleset's damage threshold
    on, 1 unless it says 0); to a player it lowers life. Damage that pierces passes an older "can't be
    damaged". A named dealer ('the blocker deals ...') is its source; a dealer that is gone deals none."""
    amount = bounded(s, amount)
    source, settled = ctx.source, False
    if dealer is not None:
        if not dealer or q.is_player(dealer[0]):
            return
        source = dealer[0]
    for x in objs:
        if q.is_player(x):
            dealt = max(amount + q.dealt_bonus(s, source), 0)
            if dealt:
                s.players[~x].resources["life"] = s.players[~x].resources.get("life", 0) - dealt
                s.say(f"P{~x + 1} takes {dealt} damage (life {s.players[~x].resources['life']})")
                if dealt >= s.game.ruleset.damage_threshold:
                    emit(s, "player_damaged", player=~x, amount=dealt, source=source)
                emit(s, "lost_life", player=~x, amount=dealt, source=source)
                _fill_on_life_loss(s, ctx, ~x)
                settled = True
            took = bool(dealt) and dealt >= s.game.ruleset.damage_threshold
        else:
            if s.cards[x].zone != q.ACTIVE_ZONE:
                continue
            taken = q.damage_taken(s, ctx, x, _short(ctx, x, amount) + q.dealt_bonus(s, source), pierce)
            took, dealt = taken is not None and taken >= s.game.ruleset.damage_threshold, taken or 0
            if took:
                s.own(x).damage += dealt
                s.say(f"{q.describe(s, x)} takes {dealt} damage (total {s.cards[x].damage})")
                emit(s, "damaged", card=x, player=s.cards[x].controller, amount=dealt, source=source)
        if took and source >= 0:  # the dealer: a table card's damage is its holder's (as 'damage dealt by')
            user = q.user(s, source)
            emit(s, "dealt_damage", card=user, player=s.cards[user].controller, amount=dealt)
    if settled:
        at_once(s)


def recover(s: State, ctx: Ctx, objs: list[int], amount: int, stat: str) -> None:
    """Raise the stat damage lowers by an amount: its damage goes first, and the rest is a lasting +N
    change of the stat, so it may end above its printed value."""
    amount = max(bounded(s, amount), 0)
    for x in objs:
        if q.is_player(x) or not _changes(s, x) or not amount:
            continue  # a card off the field (retired, destroyed) is not healed
        c = s.own(x)
        healed = min(c.damage, amount)
        c.damage -= healed
        if amount > healed:
            c.mods.append([stat, amount - healed, None])
        s.say(f"{q.describe(s, x)} recovers {amount} {stat} ({stat} {q.stat(s, x, stat)})")


def set_value(s: State, ctx: Ctx, objs: list[int], amount: int, stat: str) -> None:
    """Set the stat damage lowers to an amount: up as a recovery (its damage first), down as a direct
    reduction, neither of them modified."""
    amount = bounded(s, amount)
    for x in objs:
        if q.is_player(x) or s.cards[x].zone != q.ACTIVE_ZONE:
            continue
        c, change = s.own(x), amount - q.stat(s, x, stat)
        healed = min(c.damage, max(change, 0))
        c.damage -= healed
        if change < 0:
            c.damage -= change
        elif change > healed:
            c.mods.append([stat, change - healed, None])
        s.say(f"{q.describe(s, x)}'s {stat} becomes {q.stat(s, x, stat)}")


def move_lines(s: State, ctx: Ctx, objs: list[int], lines: int, way: str) -> None:
    """Move cards some lines forward or back within their team's lines (runtime/positions.py)."""
    for x in objs:
        if not q.is_player(x):
            positions.step(s, x, lines, way)


def reduce_directly(s: State, ctx: Ctx, objs: list[int], amount: int, stat: str) -> None:
    """Lower the stat damage lowers by an amount, past every reduction and protection: not damage."""
    amount = bounded(s, amount)
    for x in objs:
        if q.is_player(x) or s.cards[x].zone != q.ACTIVE_ZONE:
            continue
        lowered = max(_short(ctx, x, amount), 0)
        s.own(x).damage += lowered
        s.say(f"{q.describe(s, x)}'s {stat} is reduced directly by {lowered} ({stat} {q.stat(s, x, stat)})")


def _short(ctx: Ctx, x: int, amount: int) -> int:
    """Return an amount less the shortfall of a target only the anti-stalemate rule reaches (R-WVN-25)."""
    return amount - next((k for cid, k in ctx.far if cid == x), 0)


def remove_damage(s: State, ctx: Ctx, objs: list[int]) -> None:
    for x in objs:
        if not q.is_player(x) and s.cards[x].damage:
            s.own(x).damage = 0
            s.say(f"damage is removed from {q.describe(s, x)}")


def _floor(s: State, resource: str) -> int | None:
    """Return the least a resource can be: its declared minimum; life none; others 0."""
    low = s.game.ruleset.resource_bounds.get(resource, (None, None))[0]
    return low if low is not None else (None if resource == "life" else 0)


def gain(s: State, ctx: Ctx, objs: list[int], amount: int, resource: str) -> None:
    """Gain an amount of a resource, up to its declared maximum."""
    amount = bounded(s, amount)
    high = s.game.ruleset.resource_bounds.get(resource, (None, None))[1]
    for x in objs:
        res = s.players[~x].resources
        have = res.get(resource, 0)
        got = min(amount, high - have) if high is not None else amount
        if got <= 0:
            continue
        res[resource] = have + got
        s.say(f"P{~x + 1} gains {got} {resource} ({resource} {res[resource]})")
        if resource == "life":
            emit(s, "gained_life", player=~x, amount=got)


def lose(s: State, ctx: Ctx, objs: list[int], amount: int | None, resource: str) -> None:
    """Lose an amount of a resource (None: all of it), down to its floor (life has none)."""
    amount = None if amount is None else bounded(s, amount)
    low = _floor(s, resource)
    for x in objs:
        res = s.players[~x].resources
        have = res.get(resource, 0)
        lost = have if amount is None else amount
        lost = min(lost, have - low) if low is not None else lost
        if lost <= 0:
            continue
        res[resource] = have - lost
        s.say(f"P{~x + 1} loses {lost} {resource} ({resource} {res[resource]})")
        if resource == "life":
            emit(s, "lost_life", player=~x, amount=lost)
            _fill_on_life_loss(s, ctx, ~x)
    at_once(s)


def _fill_on_life_loss(s: State, ctx: Ctx, player: int) -> None:
    """A ruleset's 'a player who loses life gains N R' (optionally only to the opponent's effects)."""
    fill = s.game.ruleset.life_fill
    if fill is None:
        return
    amount, resource, mode = fill
    if mode == "any" or (ctx.ability[0] != "ruleset" and ctx.controller != player):
        gain(s, ctx, [~player], amount, resource)


def set_resource(s: State, ctx: Ctx, objs: list[int], amount: int, resource: str) -> None:
    """Set a resource to an amount, kept within its declared bounds."""
    amount = bounded(s, amount)
    low, high = s.game.ruleset.resource_bounds.get(resource, (None, None))
    value = max(amount, low) if low is not None else amount
    value = min(value, high) if high is not None else value
    for x in objs:
        s.players[~x].resources[resource] = value
        s.say(f"P{~x + 1} has {value} {resource}")
    at_once(s)


def ready(s: State, ctx: Ctx, objs: list[int]) -> None:
    """Give cards on the field back their action right."""
    for x in _on_field(s, objs):
        if "acted" in s.cards[x].flags:
            del s.own(x).flags["acted"]
            s.say(f"{q.describe(s, x)} is ready")


def _protected(s: State, ctx: Ctx, cid: int, flag: str) -> bool:
    """Return whether a flag protects a card from this effect of an opponent's card."""
    return ctx.ability[0] != "ruleset" and ctx.controller != s.cards[cid].controller and q.has_flag(s, cid, flag)


def exhaust(s: State, ctx: Ctx, objs: list[int]) -> None:
    """Use up the action right of cards on the field (not of those the opponent's effects cannot)."""
    for x in _on_field(s, objs):
        if "acted" not in s.cards[x].flags and not _protected(s, ctx, x, "unexhaustable"):
            s.own(x).flags["acted"] = None
            s.say(f"{q.describe(s, x)} is exhausted")


def lift_restriction(s: State, ctx: Ctx, objs: list[int]) -> None:
    for x in _on_field(s, objs):
        if "restricted" in s.cards[x].flags:
            del s.own(x).flags["restricted"]
            s.say(f"{q.describe(s, x)} loses its attack restriction")


def level_change(s: State, ctx: Ctx, objs: list[int], by: int) -> None:
    """Raise (by > 0) or lower each card's level within 1..max; heal and overclock as the ruleset says."""
    top = s.game.ruleset.max_level
    for x in objs:
        if q.is_player(x) or s.cards[x].zone not in (q.ACTIVE_ZONE, "hand"):
            continue
        c = s.own(x)
        old, c.level = c.level, max(1, min(top, c.level + by))
        if c.level == old:
            continue
        s.say(f"{q.describe(s, x)} goes to level {c.level}")
        if c.damage and (s.game.ruleset.heal_on == "any" or (s.game.ruleset.heal_on == "up" and c.level > old)):
            c.damage = 0
            s.say(f"damage is removed from {q.describe(s, x)}")
        if c.zone == q.ACTIVE_ZONE and c.level == s.game.ruleset.overclock_at > old:
            overclock(s, ctx, x)


def overclock(s: State, ctx: Ctx, cid: int) -> None:
    """A card reached the overclock level on the field: it is ready, loses attack restriction, and says so."""
    s.say(f"{q.describe(s, cid)} overclocks")
    ready(s, ctx, [cid])
    lift_restriction(s, ctx, [cid])
    emit(s, "overclocked", card=cid, player=s.cards[cid].controller)


def present(s: State, objs: list[int]) -> list[int]:
    """Return the players, and the cards still in play (their abilities work where they are)."""
    return [x for x in objs if q.is_player(x) or q.working(s, x)]


def in_front_of(s: State, objs: list[int], of: list[int]) -> bool:
    """Return whether the cards stand one square in front of one of the given cards (runtime/grid.py)."""
    return bool(objs) and all(grid.stands_in_front_of(s, x, of) for x in objs)


def entered_this_turn(s: State, objs: list[int]) -> bool:
    cards = _on_field(s, objs)
    return bool(cards) and all(s.cards[x].entered == s.turn for x in cards)


def in_state(s: State, objs: list[int], state: str) -> bool:
    """Return whether every card named is on the field and in that state ('ready', 'exhausted', ...)."""
    flag, present = CARD_STATES[state]
    cards = _on_field(s, objs)
    return bool(cards) and len(cards) == len(objs) and all((flag in s.cards[x].flags) == present for x in cards)


def _on_field(s: State, objs: list[int]) -> list[int]:
    return [x for x in objs if not q.is_player(x) and s.cards[x].zone == q.ACTIVE_ZONE]


def expiry(s: State, ctx: Ctx, duration: str | None) -> list | None:
    """Return the expiry marker of a duration: ['eot', turn], ['next', player] or None (lasting)."""
    if duration == "end of turn":
        return ["eot", s.turn]
    if duration == "your next turn":
        return ["next", ctx.controller]
    if duration is not None and duration.endswith(" of its own turns"):
        return ["own", int(duration.split()[0])]
    return None


def modify(s: State, ctx: Ctx, objs: list[int], delta: int, stat: str, duration: str | None) -> None:
    delta = bounded(s, delta)
    for x in objs:
        if q.is_player(x) or not _changes(s, x):
            continue
        s.own(x).mods.append([stat, delta, expiry(s, ctx, duration)])
        until = f" until {duration}" if duration else ""
        s.say(f"{q.describe(s, x)} gets {delta:+d} {stat}{until}")


def give(s: State, ctx: Ctx, objs: list[int], name: str, duration: str | None) -> None:
    """Give a keyword (or one stack of a status) to each card."""
    if name in s.game.statuses:
        put_status(s, ctx, objs, 1, name, duration)
        return
    for x in objs:
        if q.is_player(x) or not _changes(s, x):
            continue
        s.own(x).granted[name] = expiry(s, ctx, duration)
        s.touch()
        s.say(f"{q.describe(s, x)} gains {name}" + (f" until {duration}" if duration else ""))


def put_status(s: State, ctx: Ctx, objs: list[int], amount: int, name: str, duration: str | None) -> None:
    """Put a status on cards, as its stacking says (runtime/elements.py)."""
    amount = bounded(s, amount)
    lasts = s.game.statuses[name].lasts
    for x in objs:
        if not q.is_player(x) and _changes(s, x):
            elements.put(s, ctx, x, amount, name, expiry(s, ctx, duration) or _status_expiry(s, lasts))


def _status_expiry(s: State, lasts: str) -> list | None:
    if lasts == "until end of turn":
        return ["eot", s.turn]
    if lasts.endswith(" of its own turns"):
        return ["own", int(lasts.split()[0])]
    if lasts.endswith(" turns"):
        return ["turns", int(lasts.split()[0])]
    return None


def remove(s: State, ctx: Ctx, objs: list[int], amount: int | None, name: str) -> None:
    """Remove stacks of a status (None: all; of a signed status, whole instances) or a granted keyword."""
    amount = None if amount is None else bounded(s, amount)
    for x in objs:
        if q.is_player(x):
            continue
        c = s.cards[x]
        if name in s.game.statuses:
            elements.remove(s, x, amount, name)
        elif name in c.granted:
            del s.own(x).granted[name]
            s.say(f"{q.describe(s, x)} loses {name}")
        s.touch()


def remove_changes(s: State, ctx: Ctx, objs: list[int], amount: int | None) -> None:
    """Remove state changes (status instances, the latest first; None: all) from cards."""
    amount = None if amount is None else bounded(s, amount)
    for x in objs:
        if not q.is_player(x) and s.cards[x].zone == q.ACTIVE_ZONE:
            elements.remove_changes(s, x, amount)


# ---------------------------------------------------------------- costs


def pay_printed(s: State, player: int, cost: dict[str, int]) -> str:
    """Pay a card's cost (checked payable before); return it as the log writes it ('2 cp, 30 gauge')."""
    for r, amount in cost.items():
        s.players[player].resources[r] -= amount
    return ", ".join(f"{amount} {r}" for r, amount in cost.items()) or "nothing"


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
        elif what == "remove_changes" and any(len(q.instances(s, x)) < (cost[2] or 1) for x in objs):
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
            c = s.own(x)
            c.flags[flag] = expiry(s, ctx, duration)
            c.stamps[flag] = s.tick()
            phrase = next(k for k, f in RESTRICTIONS.items() if f == flag)
            s.say(f"{q.describe(s, x)} can't {phrase}" + (f" until {duration}" if duration else ""))


PRIMITIVES: dict[str, Any] = {
    "deal_damage": deal_damage, "destroy": destroy, "draw": draw, "gain": gain, "lose": lose,
    "give": give, "put_status": put_status, "remove": remove, "remove_changes": remove_changes, "place": place,
    "remove_damage": remove_damage,
    "return_to_hand": return_to_hand, "move_to_end": move_to_end, "create_token": create_token,
    "discard": discard, "modify": modify, "restrict": restrict, "set_resource": set_resource,
    "delete": delete, "summon": summon, "ready": ready, "exhaust": exhaust, "lift_restriction": lift_restriction,
    "level_change": level_change,
}


def matches(s: State, ab: Ability, ctx: Ctx, f: Filter, c: int) -> bool:
    return q.matches(s, ab, ctx, f, c)


def by_round(s: State, values: tuple[int, ...]) -> int:
    """Return the entry of a by-round table for the current round (its last entry after the end)."""
    return values[min(max(round_number(s), 1), len(values)) - 1]


def is_seat(s: State, objs: list[int], seat: str) -> bool:
    """Return whether every player named sits first (or second) in the turn order."""
    first = seat == "first"
    return bool(objs) and all(q.is_player(x) and (~x == s.first) == first for x in objs)


def option_is(s: State, option: str, value: str) -> bool:
    return s.game.options.get(option) == value


def turns_taken(s: State, objs: list[int]) -> int:
    return s.players[~objs[0]].turns_taken if objs and q.is_player(objs[0]) else 0
