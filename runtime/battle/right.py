"""Who may act (digest §7.1): a sword's launch turn and executability, usable AP, the action right.

Everything here only reads the battle: the procedure (runtime/battle/procedure.py) asks before each action
processing who holds the action right, and in step 1 which sword a holder executes.
"""

from __future__ import annotations

from typing import Any

from runtime.battle.state import Battle, Ctx, Fighter, Sword


def launch_turn(s: Battle, f: Fighter, w: Sword) -> int:
    """Return the turn a sword launches from: its launch keyword (or the default), shifted by Early/Late."""
    return _launch(s, Ctx(actor=f, sword=w), s.defs.enchants(w))


def _launch(s: Battle, ctx: Ctx, enchants: tuple) -> int:
    """Return the launch turn of ctx's sword given its enchantments (ctx takes each one's parameters)."""
    base, shift = None, 0
    for ench, count, args in enchants:
        shift += ench.shift * count
        ctx.params = args
        turn = ench.launch_turn(s, ctx)
        base = turn if base is None and turn is not None else base
    return max(0, (s.defs.ruleset.launch_turn if base is None else base) + shift)


def executable(s: Battle, f: Fighter, w: Sword) -> bool:
    """Return whether f may execute w now: unused, launched, every enchantment's condition, its costs."""
    if w.used:
        return False
    enchants = s.defs.enchants(w)
    if not enchants:  # most swords: the ruleset's launch turn, no condition, no cost
        return s.defs.first_turn <= s.turn and (w is not f.swords[-1] or not _wants_next(s, w))
    ctx = s.probe  # launch turns, conditions and costs only read it; each check sets what they read
    ctx.actor, ctx.sword = f, w
    if _launch(s, ctx, enchants) > s.turn or w is f.swords[-1] and _wants_next(s, w):
        return False
    for ench, _count, args in enchants:
        ctx.params = args
        if not ench.executable(s, ctx) or (ench.cost_value and f.values[ench.cost_value] < ench.cost(s, ctx)):
            return False
    return True


def _wants_next(s: Battle, w: Sword) -> bool:
    """Return whether the last sword of a list is not executable for want of a next sword (option)."""
    if s.options.get("no_next_sword") != "not_executable":
        return False
    card = s.defs.cards[w.card]
    return bool(card.subtarget) or "targets the next sword" in s.defs.card_traits[w.card]


def _usable_ap(s: Battle, f: Fighter) -> int:
    """Return f's AP, or its reserve AP at AP 0 if it has an executable sword or a would-act state (§7.1)."""
    values = f.values
    if values["ap"] >= 1:
        return values["ap"]
    # Without reserve AP nothing is usable whatever the swords say (and asking them is most of the cost).
    if values["reserve_ap"] < 1:
        return 0
    if s.defs.has_hook(f, "act") or any(executable(s, f, w) for w in f.swords):
        return values["reserve_ap"]
    return 0


def holders(s: Battle) -> list[Fighter]:
    """Return who holds the action right: the highest key among those with usable AP; ties all hold it."""
    ruleset = s.defs.ruleset
    keys = ruleset.action_right
    best: tuple[Any, ...] | None = None
    out: list[Fighter] = []
    ctx = s.asking  # a key only reads it; each swordsman sets its subject
    for party in s.parties:  # nothing here changes the parties: no copy of them (s.fighters()) is needed
        for f in party:
            values = f.values  # AP, else reserve AP, and only then (rarely) the swords: cheapest first
            if values["ap"] < 1 and (values["reserve_ap"] < 1 or _usable_ap(s, f) < 1):
                continue
            ctx.subject = f
            key: tuple[Any, ...] = ()
            for fn in keys:  # a loop, not a comprehension: no function built for each swordsman
                key += (fn(ruleset, s, ctx),)
            if best is None or key > best:
                best, out = key, [f]
            elif key == best:
                out.append(f)
    return out
