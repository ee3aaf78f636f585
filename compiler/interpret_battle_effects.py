"""Battle effects for the reference interpreter: what an effect on swordsmen, on sword lists or a
state's reaction calls in runtime/battle/effects.py, with its arguments in lowering's order.

Part of compiler/interpret.py (whose `effect_call` hands battle effects here, as lower.py hands them
to lower_battle.py); compiler/interpret_battle.py builds the battle definitions. This module imports
only the terms, so that neither of those two needs the other's import to load.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from compiler import nodes as n
from compiler.interpret_terms import Env, Run, Walk, objects, value


def battle_call(e: n.Effect, env: Env, rt: Walk) -> tuple[str, list]:
    """Return the battle primitive an effect calls and its arguments, in lower_battle.battle_effect's order
    (effects on swordsmen here; on swords and a state's reactions below)."""
    match e:
        case n.Hit(target=t, amount=a, pool=pool, ignoring=classes):
            targets = objects(t, env, rt)
            amount = _amount(a, env, rt)
            return "hit", [targets, amount, pool.value if pool else "hp", tuple(c.value for c in classes)]
        case n.Recover(target=t, amount=a, value=name):
            objs = objects(t, env, rt)
            return "recover", [objs, value(a, env, rt), name.value]
        case n.SetValue(value=name, target=t, amount=a):
            objs = objects(t, env, rt)
            return "set_value", [objs, value(a, env, rt), name.value]
        case n.ResetStat(stat=stat, target=t):
            return "reset_stat", [objects(t, env, rt), stat.value]
        case n.RaiseTurn(amount=a):
            return "raise_turn", [value(a, env, rt)]
        case n.RemoveClass(klass=klass, target=t):
            return "remove_class", [objects(t, env, rt), klass.value]
    return _sword_call(e, env, rt)


def _sword_call(e: n.Effect, env: Env, rt: Walk) -> tuple[str, list]:
    """Return (primitive, arguments) of an effect on sword lists, or of a state's reaction."""
    match e:
        case n.SetUsed(target=t, used=used):
            return "set_used", [objects(t, env, rt), used]
        case n.ReverseSwords(holder=h):
            return "reverse_swords", [objects(h, env, rt)]
        case n.MoveSword(sword=sw, holder=h):
            swords = objects(sw, env, rt)
            return "move_sword", [swords, objects(h, env, rt)]
        case n.AddSword(name=name, source=src, holder=h):
            source = objects(src, env, rt) if src is not None else None
            return "add_sword", [name, source, objects(h, env, rt)]
        case n.ChangeSword(target=t, into=into):
            swords = objects(t, env, rt)
            return "change_sword", [swords, objects(into, env, rt)]
        case n.Build(name=name):
            return "build", [name]
    return _reaction_call(e, env, rt)


def _reaction_call(e: n.Effect, env: Env, rt: Walk) -> tuple[str, list]:
    """Return (primitive, arguments) of a state's reaction inside a battle step."""
    match e:
        case n.SkipAction():
            return "skip_action", []
        case n.BuildFails():
            return "build_fails", []
        case n.Redirect(to=to):
            return "redirect", [objects(to, env, rt)]
        case n.SetDamage(amount=a):
            return "set_damage", [value(a, env, rt)]
    raise TypeError(f"not a battle effect: {e!r}")


def _amount(a: n.Expr, env: Env, rt: Walk) -> Callable[[Any, Any], int]:
    """Return amount(s, ctx) of a hit, computed as it lands (the `self._amountN` method lowering writes)."""
    start, owner = env.fork(), rt.ab if rt is not None else None
    value(a, env, None)  # lowering numbers the amount where it writes the hit
    return lambda s, ctx: value(a, start.fork(), Run(owner, s, ctx))
