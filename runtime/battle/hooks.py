"""States acting inside the battle procedure: the hook of a state runs where its step happens.

For one holder and one step only the first state (in file order) holding a hook for it triggers;
a state 'consumed on trigger' then loses one stack (§5: one Stun per action, one Guard per hit,
Soul before Life).
"""

from __future__ import annotations

from typing import Any

from runtime.battle.state import Battle, Ctx, Fighter


def fire(s: Battle, f: Fighter, step: str, ctx: Ctx, ignoring: tuple[str, ...] = ()) -> bool:
    """Run the first state of f with a hook for step; return whether one triggered."""
    for name, st in s.defs.holding(step):
        if f.states.get(name, 0) > 0 and st.klass not in ignoring:
            if st.consumed == "on trigger":
                f.states[name] -= 1
            s.say(f"  {s.label(f)}'s {name} triggers")
            if s.watch is not None:
                s.watch(s, "state", f, None, name)
            ctx.holder = f
            st.hooks[step](st, s, ctx)
            return True
    return False


def reflect(s: Battle, ctx: Ctx, target: Any, ignoring: tuple[str, ...]) -> Any:
    """Return who an attack lands on: each Reflect sends it back to whoever sent it (R-MG-28)."""
    sender, current = ctx.actor, target
    while isinstance(current, Fighter) and s.defs.has_hook(current, "attacked"):
        hook = Ctx(actor=ctx.actor, sender=sender)
        if not fire(s, current, "attacked", hook, ignoring) or hook.redirect_to is None:
            break
        sender, current = current, hook.redirect_to
        s.say(f"  the attack turns to {s.label(current)}")
    return current


def guard(s: Battle, f: Fighter, amount: int, ignoring: tuple[str, ...]) -> int:
    """Return the damage of an attack on f after a protection state (Guard) has had its say."""
    if not s.defs.has_hook(f, "attack_damage"):
        return amount
    hook = Ctx(damage=amount)
    fire(s, f, "attack_damage", hook, ignoring)
    return hook.damage


def check_death(s: Battle, f: Fighter, before: int) -> None:
    """Let a revival state act when f has just died (never inside turn 0, §6, §15.2 fact 9)."""
    if before > 0 >= f.values["hp"] and not s.turn_zero:
        fire(s, f, "dead", Ctx(holder=f))


def death_judgment(s: Battle) -> None:
    """The death judgment right after turn 0: every swordsman at HP 0 or less dies now."""
    for f in s.fighters():
        if f.hp <= 0:
            fire(s, f, "dead", Ctx(holder=f))


def states_phase(s: Battle) -> None:
    """Run every state's states-phase hook, state by state in file order, holders front to back."""
    for name, st in s.defs.holding("states_phase"):
        for f in s.fighters():
            if f.states.get(name, 0) > 0:
                st.hooks["states_phase"](st, s, Ctx(holder=f))
