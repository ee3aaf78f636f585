"""The primitives generated battle code calls (as `fx`): objects, numbers, conditions and effects.

Objects are lists (of swordsmen or of swords), as in runtime/effects.py; an object that no longer
exists is an empty list, so its effect does nothing (§7.3, R-MG-67). Hooks of states run inside
these primitives (runtime/battle/hooks.py): Reflect and Guard inside a hit, revival on death.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from runtime.battle import hooks
from runtime.battle.state import Battle, Ctx, Fighter, Sword
from runtime.effects import bounded

MAX_EXPONENT = 64  # '2 ^ turn number' stays a number a log line can print
# what ref's words read from a context (a table built once: ref runs for every amount of every hit)
REFS = {"target": attrgetter("target"), "actor": attrgetter("actor"), "subtarget": attrgetter("subtarget"),
        "sender": attrgetter("sender"), "this sword": attrgetter("sword")}


# ---------------------------------------------------------------- objects


def exists(s: Battle, x: Any) -> bool:
    """Return whether a swordsman is in a party, or a sword in the list of one."""
    if isinstance(x, Fighter):
        return x in s.parties[x.side]
    return any(x is w for f in s.fighters() for w in f.swords)


def ref(s: Battle, ctx: Ctx, word: str) -> list:
    """Return 'the target', 'the actor', 'the subtarget', 'the sender' or 'this sword', if it still exists."""
    found = REFS[word](ctx)
    return [found] if found is not None and (isinstance(found, Fighter) or exists(s, found)) else []


def this(s: Battle, ctx: Ctx) -> list:
    return [ctx.holder] if ctx.holder is not None else []


def event_card(s: Battle, ctx: Ctx) -> list:
    """Return [the swordsman an action-right key is computed for] ('it' in the ruleset)."""
    return [ctx.subject] if ctx.subject is not None else []


def _side(ctx: Ctx) -> int:
    who = ctx.actor or ctx.holder or ctx.subject
    return who.side if who is not None else 0


def each(s: Battle, owner: Any, ctx: Ctx, f: Any) -> list:
    """Return the swordsmen a filter names ('swordsman an opponent controls'), front to back."""
    side = _side(ctx)
    sides = {"you": (side,), "opponent": (1 - side,)}.get(f.control, (0, 1))
    return [x for i in sides for x in s.parties[i]]


def extreme(s: Battle, owner: Any, ctx: Ctx, f: Any, side: str) -> list:
    """Return the front ('leftmost') or last swordsman a filter names."""
    found = each(s, owner, ctx, f)
    return found[:1] if side == "left" else found[-1:]


def first_sword(s: Battle, ctx: Ctx, holders: list, unused: bool) -> list:
    """Return the first (unused) sword of a swordsman; super-simultaneous actions see their starting lists."""
    frozen = s.frozen_swords
    for f in holders[:1]:
        return [w for w in f.swords if not (unused and w.used) and (frozen is None or w.id in frozen)][:1]
    return []


def swords_of(s: Battle, ctx: Ctx, holders: list) -> list:
    return [w for f in holders[:1] for w in f.swords]


# ---------------------------------------------------------------- numbers and conditions


def stat(s: Battle, objs: list, name: str) -> int:
    return objs[0].values[name] if objs and isinstance(objs[0], Fighter) else 0


def stacks(s: Battle, objs: list, name: str) -> int:
    return objs[0].states.get(name, 0) if objs and isinstance(objs[0], Fighter) else 0


def div(a: int, b: int, rounding: str) -> int:
    return -((-a) // b) if rounding == "up" else a // b


def power(a: int, b: int) -> int:
    return a ** max(0, min(b, MAX_EXPONENT))


def option_is(s: Battle, option: str, value: str) -> bool:
    return s.options.get(option) == value


def is_type(s: Battle, objs: list, kind: str) -> bool:
    return bool(objs) and isinstance(objs[0], Sword) and s.defs.cards[objs[0].card].kind == kind


def has_class(s: Battle, objs: list, klass: str) -> bool:
    return any(f.states.get(name, 0) > 0 and s.defs.statuses[name].klass == klass
               for f in objs if isinstance(f, Fighter) for name in f.states)


# ---------------------------------------------------------------- swordsmen


def hit(s: Battle, ctx: Ctx, targets: list, amount: Any, pool: str, ignoring: tuple[str, ...]) -> None:
    """Carry out one attack hit on each target: Reflect, then the amount, Guard and the damage (§5, §8)."""
    for target in targets:
        # most targets hold no state at all: no Reflect or Guard to ask (each asks a hook table)
        calm = isinstance(target, Fighter) and not target.states
        current = target if calm else hooks.reflect(s, ctx, target, ignoring)
        ctx.target = current
        value = bounded(s, amount(s, ctx))
        value = value if calm else hooks.guard(s, current, value, ignoring)
        if value < 0 and s.options.get("negative_damage") == "heals":
            recover(s, ctx, [current], -value, pool)
            ctx.damage = 0
            continue
        value = max(value, 0)
        ctx.damage = value
        s.hits += 1
        _change(s, current, pool, -value, f"hit {s.label(current)} for {value}")
        riders = s.defs.riders(ctx.sword) if ctx.sword is not None else ()
        if riders:  # most swords have none
            _riders(s, ctx, riders)


def _riders(s: Battle, ctx: Ctx, riders: tuple) -> None:
    """Run what each enchantment of a sword adds after a hit, once per stack."""
    for ench, count, args in riders:
        for _ in range(count):
            said = len(s.log)
            ench.after_hit(s, ctx.with_params(args))
            if s.watch is not None and len(s.log) > said:  # a rider acted (what it did is logged)
                s.watch(s, "enchantment", ctx.actor, ctx.sword, ench.name)


def _change(s: Battle, f: Fighter, name: str, delta: int, what: str) -> None:
    before = f.values[name]
    f.values[name] = after = before + delta
    s.say(f"  {what} ({name} {before}→{after})")
    if name == "hp":
        hooks.check_death(s, f, before)


def deal_damage(s: Battle, ctx: Ctx, objs: list, amount: int) -> None:
    """Damage that is not an attack (Poison): no Reflect, no Guard."""
    amount = bounded(s, amount)
    for f in objs:
        _change(s, f, "hp", -max(amount, 0), f"{s.label(f)} takes {max(amount, 0)}")


def modify(s: Battle, ctx: Ctx, objs: list, delta: int, name: str, duration: Any) -> None:
    delta = bounded(s, delta)
    for f in objs:
        _change(s, f, name, delta, f"{s.label(f)} gets {delta:+d} {name}")


def recover(s: Battle, ctx: Ctx, objs: list, amount: int, name: str) -> None:
    """Raise a value by amount, never above its max_ value; a value already at or above it stays (§10)."""
    amount = bounded(s, amount)
    for f in objs:
        top = f.values.get("max_" + name)
        now = f.values[name]
        new = now + max(amount, 0) if top is None else max(now, min(top, now + max(amount, 0)))
        _change(s, f, name, new - now, f"{s.label(f)} recovers {new - now}")


def set_value(s: Battle, ctx: Ctx, objs: list, amount: int, name: str) -> None:
    """Assign a value; HP may end above max HP this way (§10), and f.over_max records by how much."""
    amount = bounded(s, amount)
    for f in objs:
        if name == "hp":  # before _change: a revival it sets off assigns again, and that one counts
            f.over_max = max(0, amount - f.values["max_hp"])
        _change(s, f, name, amount - f.values[name], f"{s.label(f)}'s {name} becomes {amount}")


def reset_stat(s: Battle, ctx: Ctx, objs: list, name: str) -> None:
    for f in objs:
        _change(s, f, name, f.initial[name] - f.values[name], f"{s.label(f)}'s {name} is reset")


def put_status(s: Battle, ctx: Ctx, objs: list, amount: int, name: str, duration: Any) -> None:
    """Give a state to swordsmen or an enchantment to swords, as their stacking allows."""
    amount = bounded(s, amount)
    for x in objs:
        if isinstance(x, Sword):
            _enchant(s, x, name, amount)
            continue
        once = s.defs.statuses[name].stacking == "once"
        x.states[name] = min(1, x.states.get(name, 0) + amount) if once else x.states.get(name, 0) + amount
        s.say(f"  {s.label(x)} gets {name} ({x.states[name]})")
        if x.hp <= 0 and not s.turn_zero:
            hooks.fire(s, x, "dead", Ctx(holder=x))  # a revival state given to the dead triggers at once (R-MG-42)


def _enchant(s: Battle, w: Sword, name: str, amount: int) -> None:
    ench = s.defs.enchantments[name]
    stacks, args = w.given.get(name, (0, ()))
    printed = any(k == name for k, _ in s.defs.cards[w.card].keywords)
    if ench.stacking == "once" and (stacks or printed):
        s.say(f"  {w.card} already has {name}")
        return
    w.given[name] = (1 if ench.stacking == "once" else stacks + amount, args)
    s.say(f"  {w.card} gets {name}")


def remove(s: Battle, ctx: Ctx, objs: list, amount: int | None, name: str) -> None:
    for f in objs:
        have = f.states.get(name, 0)
        f.states[name] = 0 if amount is None else max(0, have - amount)


def remove_class(s: Battle, ctx: Ctx, objs: list, klass: str) -> None:
    for f in objs:
        gone = sorted(k for k, n in f.states.items() if n and s.defs.statuses[k].klass == klass)
        for k in gone:
            f.states[k] = 0
        s.say(f"  {s.label(f)} loses {', '.join(gone) or 'nothing'}")


def raise_turn(s: Battle, ctx: Ctx, amount: int) -> None:
    s.turn += amount
    s.say(f"  the turn number becomes {s.turn}")


def build(s: Battle, ctx: Ctx, name: str) -> None:
    """Build a swordsman at the front of the actor's party, with AP equal to its SPD (§4)."""
    actor = ctx.actor
    assert actor is not None
    hook = Ctx(holder=actor, actor=actor)
    if hooks.fire(s, actor, "build", hook) and hook.build_failed:
        s.say(f"  the build of {name} fails")
        return
    card = s.defs.cards[name]
    f = make_fighter(s, name, actor.side, dict(card.stats), card.swords)
    f.values["ap"], f.built = f.values["spd"], True
    s.parties[actor.side].insert(0, f)
    s.say(f"  {s.label(f)} is built ({f.values['max_hp']}/{f.values['atk']}/{f.values['def']}/{f.values['spd']})")
    hooks.check_death(s, f, 1)


def make_fighter(s: Battle, name: str, side: int, stats: dict[str, int], swords: tuple[str, ...]) -> Fighter:
    """Return a new swordsman: HP at max, MP, AP and reserve AP at 0, every sword unused (§10, §12)."""
    values = {**stats, "hp": stats["max_hp"], "mp": 0, "ap": 0, "reserve_ap": 0}
    return Fighter(s.new_id(), name, side, values, dict(stats), swords=[Sword(s.new_id(), w) for w in swords])


# ---------------------------------------------------------------- swords


def _holder(s: Battle, w: Sword) -> Fighter | None:
    return next((f for f in s.fighters() if any(w is x for x in f.swords)), None)


def _drop(s: Battle, w: Sword) -> None:
    holder = _holder(s, w)
    if holder is not None:
        holder.swords = [x for x in holder.swords if x is not w]


def set_used(s: Battle, ctx: Ctx, swords: list, used: bool) -> None:
    for w in swords:
        w.used = used
        s.say(f"  {w.card} is {'used' if used else 'unused'}")


def destroy(s: Battle, ctx: Ctx, swords: list) -> None:
    for w in swords:
        _drop(s, w)
        s.say(f"  {w.card} is destroyed")


def reverse_swords(s: Battle, ctx: Ctx, holders: list) -> None:
    for f in holders:
        f.swords.reverse()
        s.say(f"  {s.label(f)}'s sword list is reversed")


def move_sword(s: Battle, ctx: Ctx, swords: list, holders: list) -> None:
    """Move a sword to the end of another list (option robbed_sword: as it is, or fresh)."""
    for w in swords[:1]:
        for f in holders[:1]:
            _drop(s, w)
            if s.options.get("robbed_sword") == "fresh":
                w.used, w.given = False, {}
            f.swords.append(w)
            s.say(f"  {w.card} moves to {s.label(f)}")


def add_sword(s: Battle, ctx: Ctx, name: str | None, sources: list | None, holders: list) -> None:
    """Append a fresh sword (no enchantments) or a copy of one (its given enchantments), unused (§10.7)."""
    if sources is not None and not sources:
        return
    for f in holders[:1]:
        card = sources[0].card if sources is not None else str(name)
        given = {} if sources is None else dict(sources[0].given)
        f.swords.append(Sword(s.new_id(), card, False, given))
        s.say(f"  {card} is added to {s.label(f)}")


def change_sword(s: Battle, ctx: Ctx, swords: list, into: list) -> None:
    """Make swords the same as another one, its enchantments included; used flags stay (§10.6)."""
    for source in into[:1]:
        card, given = source.card, dict(source.given)
        for w in swords:
            w.card, w.given = card, dict(given)
        s.say(f"  {len(swords)} sword(s) become {card}")


# ---------------------------------------------------------------- inside state hooks


def skip_action(s: Battle, ctx: Ctx) -> None:
    ctx.skip = True


def build_fails(s: Battle, ctx: Ctx) -> None:
    ctx.build_failed = True


def redirect(s: Battle, ctx: Ctx, objs: list) -> None:
    ctx.redirect_to = objs[0] if objs else None


def set_damage(s: Battle, ctx: Ctx, amount: int) -> None:
    ctx.damage = amount


