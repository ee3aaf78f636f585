"""Stage 3, automatic battles: swords, swordsmen, enchantments and state hooks -> class contexts.

Called by compiler/lower.py for rulesets that say 'battles are automatic'. The generated code calls
runtime/battle/effects.py under the name `fx`, with the same signatures as the card-game primitives
where an effect exists in both (deal damage, put, remove, destroy, gets).
"""

from __future__ import annotations

from collections.abc import Callable

from compiler import nodes as n
from compiler.lower_terms import Env, cond, expr, field_, obj, rules_field
from compiler.symbols import Symbols
from runtime import vocabulary as v

SELF_ARGS = "self, s, ctx"
Body = Callable[[tuple[n.Sentence, ...], Env], list[str]]
# §8: inside one hit, the hit's own sentences come first, then tight ('furthermore'), then loose ('and then').
PER_TARGET = {"do": 0, "tight": 1, "loose": 2}


def battle_effect(e: n.Effect, env: Env) -> str:
    """Return the one line of code carrying out a battle-only effect."""
    match e:
        case n.Hit(target=t, amount=a, pool=pool, ignoring=classes):
            targets = obj(t, env)
            amount = env.function("amount", SELF_ARGS, [f"return {expr(a, env)}"])
            ignored = tuple(c.value for c in classes)
            return f"fx.hit(s, ctx, {targets}, self.{amount}, {pool.value if pool else 'hp'!r}, {ignored!r})"
        case n.Recover(target=t, amount=a, value=name):
            return f"fx.recover(s, ctx, {obj(t, env)}, {expr(a, env)}, {name.value!r})"
        case n.SetValue(value=name, target=t, amount=a):
            return f"fx.set_value(s, ctx, {obj(t, env)}, {expr(a, env)}, {name.value!r})"
        case n.ResetStat(stat=stat, target=t):
            return f"fx.reset_stat(s, ctx, {obj(t, env)}, {stat.value!r})"
        case n.RaiseTurn(amount=a):
            return f"fx.raise_turn(s, ctx, {expr(a, env)})"
        case n.SetUsed(target=t, used=used):
            return f"fx.set_used(s, ctx, {obj(t, env)}, {used})"
        case n.ReverseSwords(holder=h):
            return f"fx.reverse_swords(s, ctx, {obj(h, env)})"
        case n.MoveSword(sword=sw, holder=h):
            return f"fx.move_sword(s, ctx, {obj(sw, env)}, {obj(h, env)})"
        case n.AddSword(name=name, source=src, holder=h):
            source = obj(src, env) if src is not None else "None"
            return f"fx.add_sword(s, ctx, {name!r}, {source}, {obj(h, env)})"
        case n.ChangeSword(target=t, into=into):
            return f"fx.change_sword(s, ctx, {obj(t, env)}, {obj(into, env)})"
        case n.Build(name=name):
            return f"fx.build(s, ctx, {name!r})"
        case n.SkipAction():
            return "fx.skip_action(s, ctx)"
        case n.BuildFails():
            return "fx.build_fails(s, ctx)"
        case n.Redirect(to=to):
            return f"fx.redirect(s, ctx, {obj(to, env)})"
        case n.SetDamage(amount=a):
            return f"fx.set_damage(s, ctx, {expr(a, env)})"
        case n.RemoveClass(klass=klass, target=t):
            return f"fx.remove_class(s, ctx, {obj(t, env)}, {klass.value!r})"
    raise TypeError(f"not a battle effect: {e!r}")


def _parts(card: n.Card, kind: type) -> list:
    return [p for p in card.parts if isinstance(p, kind)]


def sword_class(card: n.Card, kind: str, sym: Symbols, where: str, name: str, body: Body) -> dict:
    """Return the context of a sword's or a swordsman's class: data, then the effect as two methods,
    'each_target' (per target and per repeat: the hit, then tight, then loose sentences) and
    'afterwards' (the independent sentences, once)."""
    fields = [field_("name", repr(card.name)), field_("where", repr(f"{where}:{card.loc.line}")),
              field_("kind", repr(kind))]
    stats = {i.stat.value: i.value for d in _parts(card, n.StatsDecl) for i in d.items}
    kws = tuple((k.name.value, k.args) for d in _parts(card, n.KeywordsDecl) for k in d.items)
    names = tuple(x for d in _parts(card, n.NamesDecl) for x in d.names)
    swords = tuple(x for d in _parts(card, n.SwordsDecl) for x in d.names)
    texts = _parts(card, n.TextDecl)
    fields += [field_(k, repr(val)) for k, val in (("stats", stats), ("keywords", kws), ("names", names),
                                                   ("swords", swords)) if val]
    if texts:
        fields.append(field_("text", repr(texts[0].text)))
    fields += rules_field(card)
    if _parts(card, n.TokenDecl):
        fields.append(field_("token", "True"))
    if _parts(card, n.SubtargetDecl):
        fields.append(field_("subtarget", "True"))
    env = Env(sym, where, "card")
    functions: list[dict] = []
    for effect in (a for a in card.abilities if isinstance(a, n.SpellEffect)):
        if effect.repeat != 1:
            fields.append(field_("repeat", repr(effect.repeat)))
        per_target = tuple(sorted((s for s in effect.body if s.mode in PER_TARGET), key=lambda s: PER_TARGET[s.mode]))
        after = tuple(s for s in effect.body if s.mode not in PER_TARGET)
        functions.append({"name": "each_target", "args": SELF_ARGS, "lines": body(per_target, env)})
        if after:
            functions.append({"name": "afterwards", "args": SELF_ARGS, "lines": body(after, env)})
    return {"name": name, "base": "CardDef", "fields": fields, "inner": [],
            "functions": env.functions + functions, "late_fields": env.constants}


def enchantment_class(e: n.EnchantmentDef, sym: Symbols, where: str, name: str, body: Body) -> dict:
    """Return the context of an enchantment's class: launch and cost data, checks and riders as methods."""
    params = {p.value: i for i, p in enumerate(e.params)}
    env = Env(sym, where, "enchantment", params)
    fields = [field_("name", repr(e.name.value)), field_("where", repr(f"{where}:{e.loc.line}")),
              field_("params", repr(tuple(params))), field_("stacking", repr(e.stacking))]
    if e.text is not None:
        fields.append(field_("text", repr(e.text)))
    fields += rules_field(e)
    fields += [field_(k, repr(val)) for k, val in (("shift", e.shift), ("vanishes", e.vanishes),
                                                   ("whole", e.whole)) if val]
    functions: list[dict] = []
    if e.launch is not None:
        functions.append({"name": "launch_turn", "args": SELF_ARGS, "lines": [f"return {expr(e.launch, env)}"]})
    if e.executable is not None:
        functions.append({"name": "executable", "args": SELF_ARGS, "lines": [f"return {cond(e.executable, env)}"]})
    if e.mp_cost is not None:
        fields.append(field_("cost_value", repr(e.mp_cost[1].value)))
        functions.append({"name": "cost", "args": SELF_ARGS, "lines": [f"return {expr(e.mp_cost[0], env)}"]})
    riders: list[str] = []  # every rider in one method, in file order
    for rider in e.riders:
        lines = body(rider.body, env)
        if rider.condition is not None:
            lines = [f"if {cond(rider.condition, env)}:"] + ["    " + line for line in lines]
        riders += lines
    if riders:
        functions.append({"name": "after_hit", "args": SELF_ARGS, "lines": riders})
    return {"name": name, "base": "EnchantmentDef", "fields": fields, "inner": [],
            "functions": env.functions + functions, "late_fields": env.constants}


def hooks_of(st: n.StatusDef, env: Env, body: Body) -> tuple[list[dict], str]:
    """Return a state's hook methods and the code of its `hooks` table (battle step -> method)."""
    steps: dict[str, list[str]] = {}  # a state's hooks for one step run in one method, in file order
    for hook in st.hooks:
        steps.setdefault(v.HOOKS[hook.event], []).extend(body(hook.body, env))
    functions = [{"name": f"on_{step}", "args": SELF_ARGS, "lines": lines} for step, lines in steps.items()]
    entries = [f"{step!r}: on_{step}" for step in steps]
    return env.functions + functions, ("{" + ", ".join(entries) + "}") if entries else ""
