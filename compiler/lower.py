"""Stage 3: validated AST -> template context. Every decision about generated code is made here.

Public entry point: `lower_file(file, symbols, source)`, returning the context that
compiler/templates/module.py.j2 renders. Card-provided text enters it only through `repr`.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Any

from compiler import nodes as n
from compiler.lower_battle import battle_effect, enchantment_class, hooks_of, sword_class
from compiler.lower_terms import (
    Env,
    applies,
    class_name,
    cond,
    expr,
    field_,
    filter_const,
    obj,
    possessive_obj,
    rules_field,
)
from compiler.rules_text import render_ability
from compiler.settings import ruleset_settings
from compiler.symbols import RecordedFile, Symbols, singular, trigger_event
from runtime import vocabulary as v

# Names generated code may import from runtime.defs; a module imports those it uses.
DEFS = ("CardDef", "EnchantmentDef", "Filter", "KeywordDef", "MaySpec", "PhaseDef", "RulesetDef", "Scope",
        "SpellEffect", "Static", "StaticEffect", "StatusDef", "TargetSpec", "Timed", "Triggered", "Activated")
MODULES = (("fx", "from runtime import effects as fx"), ("turns", "from runtime import turns"),
           ("actions", "from runtime import actions"), ("choices", "from runtime import choices"))
SELF_ARGS = "self, s, ctx"
BATTLE_FX = "from runtime.battle import effects as fx"

# ---------------------------------------------------------------- effects and sentences


def _you_or(player: n.Object | None, env: Env) -> str:
    return obj(player, env) if player is not None else "fx.players(s, ctx, 'you')"


def _duration(d: n.Duration | None) -> str:
    return repr(d.until) if d is not None else "None"


def effect(e: n.Effect, env: Env) -> str:
    """Return the one line of code carrying out an effect."""
    match e:
        case n.DealDamage(amount=a, target=t, unpreventable=pierce, dealer=dealer):
            by = f", dealer={obj(dealer, env)}" if dealer is not None else ""
            return f"fx.deal_damage(s, ctx, {obj(t, env)}, {expr(a, env)}{', pierce=True' if pierce else ''}{by})"
        case n.Draw(player=p, amount=a):
            return f"fx.draw(s, ctx, {_you_or(p, env)}, {expr(a, env)})"
        case n.Gain(player=p, amount=a, resource=r):
            return f"fx.gain(s, ctx, {_you_or(p, env)}, {expr(a, env)}, {r.value!r})"
        case n.Give(target=t, name=name, duration=d):
            return f"fx.give(s, ctx, {obj(t, env)}, {name.value!r}, {_duration(d)})"
        case n.PutStatus(amount=a, status=st, target=t, duration=d):
            return f"fx.put_status(s, ctx, {obj(t, env)}, {expr(a, env)}, {st.value!r}, {_duration(d)})"
        case n.RemoveDamage(target=t):
            return f"fx.remove_damage(s, ctx, {obj(t, env)})"
        case n.MoveToEnd(target=t, side=side):
            return f"fx.move_to_end(s, ctx, {obj(t, env)}, {side!r})"
        case n.CreateToken(player=p, amount=a, card=card):
            return f"fx.create_token(s, ctx, {_you_or(p, env)}, {expr(a, env)}, {card!r})"
        case n.Place(card=card, zone=zone):
            return f"fx.place(s, ctx, {card!r}, {zone.value!r})"
        case n.Modify(target=t, sign=sign, amount=a, stat=stat, duration=d):
            objects = obj(t, env)  # first, so that 'it' in the amount means this target
            delta = expr(a, env) if sign == "+" else f"-{expr(a, env)}"
            return f"fx.modify(s, ctx, {objects}, {delta}, {stat.value!r}, {_duration(d)})"
        case n.Restrict(target=t, restriction=r, duration=d):
            return f"fx.restrict(s, ctx, {obj(t, env)}, {v.RESTRICTIONS[r]!r}, {_duration(d)})"
        case n.Grant(target=t, name=name):
            return f"fx.give(s, ctx, {obj(t, env)}, {name.value!r}, None)"
        case n.SetResource(possessive=pos, resource=r, amount=a):
            return f"fx.set_resource(s, ctx, {possessive_obj(pos)}, {expr(a, env)}, {r.value!r})"
        case n.Summon(target=t):
            return f"fx.summon(s, ctx, {obj(t, env)})"
        case n.Delete(target=t):
            return f"fx.delete(s, ctx, {obj(t, env)})"
        case n.Ready(target=t):
            return f"fx.ready(s, ctx, {obj(t, env)})"
        case n.Exhaust(target=t):
            return f"fx.exhaust(s, ctx, {obj(t, env)})"
        case n.LevelChange(direction=d, target=t, amount=a):
            objects = obj(t, env)
            by = expr(a, env) if a is not None else "1"
            return f"fx.level_change(s, ctx, {objects}, {by if d == 'up' else f'-{by}'})"
        case n.LiftRestriction(target=t):
            return f"fx.lift_restriction(s, ctx, {obj(t, env)})"
        case n.TakeActions():
            return "actions.take_actions(s, ctx)"
        case n.AnnounceTurn():
            return "turns.announce_turn(s, ctx)"
        case n.DealJokers():
            return "actions.open_dealing(s, ctx)"
        case n.Stage():
            return "turns.stage(s, ctx)"
        case n.PerformRolled(dice=d):
            return f"turns.perform_rolled(s, ctx, {d.count}, {d.sides})"
        case n.NormalMove():
            return "turns.normal_move(s, ctx)"
        case n.MoveLines(target=t, count=count, way=way):
            return f"fx.move_lines(s, ctx, {obj(t, env)}, {count}, {way!r})"
        case n.PlayStaged(kinds=kinds, order=order):
            names = tuple(singular(k.value, env.symbols.kinds) for k in kinds)
            return f"turns.play_staged(s, ctx, {names!r}, {order_code(order)})"
        case n.AttackAll(filter=f, order=order):
            return f"turns.attack_all(s, self, ctx, self.{filter_const(f, env)}, {order_code(order)})"
        case n.Reveal(target=t):
            return f"choices.reveal(s, ctx, {obj(t, env)})"
        case n.PutInto(target=t, zone=zone):
            return f"choices.put_into(s, ctx, {obj(t, env)}, {zone.value!r})"
        case n.Shuffle(possessive=pos, zone=zone):
            return f"choices.shuffle(s, ctx, {possessive_obj(pos)}, {zone.value!r})"
        case n.ReduceDirectly(stat=stat, target=t, amount=a):
            return f"fx.reduce_directly(s, ctx, {obj(t, env)}, {expr(a, env)}, {stat.value!r})"
    if type(e) in n.BATTLE_EFFECTS:
        return battle_effect(e, env)
    primitive, args = cost_item(e, env)
    return f"fx.{primitive}(s, ctx, {', '.join(args)})"


def cost_item(e: n.Effect, env: Env) -> tuple[str, list[str]]:
    """Return (primitive, argument codes) of an effect that can also be paid as a cost."""
    match e:
        case n.Pay(amount=a, resource=r):
            return "lose", ["fx.players(s, ctx, 'you')", expr(a, env), repr(r.value)]
        case n.Lose(player=p, amount=a, resource=r):
            return "lose", [_you_or(p, env), expr(a, env) if a is not None else "None", repr(r.value)]
        case n.Discard(player=p, amount=a):
            return "discard", [_you_or(p, env), expr(a, env)]
        case n.Remove(amount=a, name=name, target=t):
            return "remove", [obj(t, env), expr(a, env) if a is not None else "None", repr(name.value)]
        case n.RemoveChanges(amount=a, target=t):
            return "remove_changes", [obj(t, env), expr(a, env) if a is not None else "None"]
        case n.Destroy(target=t):
            return "destroy", [obj(t, env)]
        case n.ReturnToHand(target=t):
            return "return_to_hand", [obj(t, env)]
    raise TypeError(f"not an effect: {e!r}")


def order_code(order: tuple[n.OrderKey, ...]) -> str:
    return repr(tuple((k.key, tuple(x.value for x in k.names)) for k in order))


def _is_cost(e: n.Effect) -> bool:
    return v.EFFECTS[type(e).__name__].cost


def acted_on(e: n.Effect) -> n.Object | None:
    """Return what an effect acts on (for 'if that happened'): its target, or its player."""
    return getattr(e, "target", None) or getattr(e, "player", None)


def _happened(sentence: n.Sentence, env: Env) -> str:
    """Return code telling whether a sentence has something to act on: its first effect's chosen
    targets, or else its objects as they are before it runs, cards only while they are in play ('you'
    when it names none)."""
    o = acted_on(sentence.effects[0])
    if isinstance(o, (n.Target, n.TargetPlayer)):
        return f"ctx.happened = bool(fx.target(s, ctx, {len(env.targets)}))"
    return f"ctx.happened = bool(fx.present(s, {obj(o, env) if o is not None else _you_or(None, env)}))"


def steps(sentences: tuple[n.Sentence, ...], env: Env) -> list[list[str]]:
    """Return the code of an ability body, one list of lines per step of its resolution: a step ends
    after a choice, before a Pattern B sentence that names a target (chosen only once it is reached),
    and, in a ruleset whose effects are interrupted between sentences, after every sentence."""
    out: list[list[str]] = [[]]
    every = env.symbols.interrupts()
    for i, sentence in enumerate(sentences):
        lazy = sentence.mode == "if_happened" and _names_target(sentence)
        if out[-1] and (lazy or (every and i > 0)):
            out.append([])
        env.lazy_step = len(out) - 1 if lazy else -1
        check = _happened(sentence, env) if i + 1 < len(sentences) and sentences[i + 1].mode == "if_happened" \
            else None
        parts = _sentence(sentence, env)
        env.lazy_step = -1
        if check is not None:
            _insert_check(parts[0], check)
        out[-1] += parts[0]
        out += parts[1:]
    return [lines for lines in out if lines] or [["pass"]]


HURTING = (n.DealDamage, n.ReduceDirectly)  # what the anti-stalemate rule lets reach past a range


def hurts(sentences: tuple[n.Sentence, ...]) -> bool:
    """Return whether a body deals damage or reduces a value directly."""
    return any(isinstance(e, HURTING) for sentence in sentences for e in sentence.effects)


def body(sentences: tuple[n.Sentence, ...], env: Env) -> list[str]:
    """Return the straight-line code of a body that runs at once (ruleset sentences, battle parts)."""
    return [line for step in steps(sentences, env) for line in step if line != "pass"] or ["pass"]


def _names_target(sentence: n.Sentence) -> bool:
    """Return whether a sentence names a target ('target unit', 'target player')."""
    def walk(node: object) -> bool:
        if isinstance(node, (n.Target, n.TargetPlayer)):
            return True
        if isinstance(node, tuple):
            return any(walk(x) for x in node)
        return isinstance(node, n.Node) and any(walk(x) for x in node.__dict__.values())
    return any(walk(e) for e in sentence.effects)


def _insert_check(lines: list[str], check: str) -> None:
    """Put a Pattern B check at the start of a sentence's code; a sentence that may not run happened
    only if it ran."""
    block = next((k for k, line in enumerate(lines) if line.startswith("if ")), None)
    if block is None:
        lines.insert(0, check)
    else:
        lines[block + 1:block + 1] = ["    " + check]
        lines.insert(0, "ctx.happened = False")


def _cost_sentence(sentence: n.Sentence, env: Env) -> list[str]:
    """Return the code paying a cost sentence, all or nothing ('you may' asks first)."""
    items = [cost_item(e, env) for e in sentence.effects]
    costs = "[" + ", ".join(f"({name!r}, {', '.join(args)})" for name, args in items) + "]"
    env.after_cost = True
    if sentence.mode == "must_pay":
        env.first_costs = env.first_costs or costs
        return [f"ctx.paid = fx.pay(s, ctx, {costs})"]
    index = len(env.mays)
    payable = env.function("pay", SELF_ARGS, [f"return fx.can_pay(s, ctx, {costs})"])
    env.mays.append(f"MaySpec({index}, {payable})")
    return [f"ctx.paid = ctx.yes({index}) and fx.pay(s, ctx, {costs})"]


def _sentence(sentence: n.Sentence, env: Env) -> list[list[str]]:
    """Return the code of one sentence, in parts: a choice ends a part (the next step carries on)."""
    effects = sentence.effects
    if sentence.mode in ("may", "must_pay") and all(_is_cost(e) for e in effects):
        return [_cost_sentence(sentence, env)]
    head: list[str] = []
    test = {"if_you_do": "ctx.paid", "if_you_dont": "not ctx.paid", "if_happened": "ctx.happened"}.get(sentence.mode)
    if sentence.mode == "may":
        index = len(env.mays)
        env.mays.append(f"MaySpec({index})")
        head, test = [f"ctx.paid = ctx.yes({index})"], "ctx.paid"
    if sentence.condition is not None:
        test = cond(sentence.condition, env)
    parts = _effect_parts(effects, env)
    env.after_cost = env.after_cost or sentence.mode == "may"  # its own targets come before the answer
    if any(parts[1:]) and test is not None and test != "ctx.paid":
        head, test = head + [f"ctx.runs = {test}"], "ctx.runs"  # kept for the parts after the choice
    guarded = [[f"if {test}:"] + ["    " + c for c in part] if part and test else part for part in parts]
    return [head + guarded[0]] + guarded[1:]


def _effect_parts(effects: tuple[n.Effect, ...], env: Env) -> list[list[str]]:
    """Return the calls of a sentence's effects, a new part after each choice (an empty last part: the
    next sentence begins a step of its own)."""
    parts: list[list[str]] = [[]]
    for e in effects:
        if not isinstance(e, (n.Choose, n.Discard)) or not n.asks(e):
            if env.symbols.stalemate and not isinstance(e, HURTING):  # only damage reaches past the range
                parts[-1] += ["if not ctx.far:", "    " + effect(e, env)]
            else:
                parts[-1].append(effect(e, env))
            continue
        parts[-1].append(_choice(e, env))
        slot = len(env.choices) - 1
        if isinstance(e, n.Discard):
            parts.append([f"choices.discard_chosen(s, ctx, {slot})"])
        elif e.revealed:
            parts.append([f"choices.reveal(s, ctx, choices.chosen(s, ctx, {slot}))"])
        else:
            parts.append([])
    return parts


def _choice(e: n.Choose | n.Discard, env: Env) -> str:
    """Return the call that queues a choice, and give its slot a filter constant."""
    slot = len(env.choices)
    if isinstance(e, n.Discard):
        players = _you_or(e.player, env)
        env.choices.append(env.constant("Filter('card', None, zone='hand', zone_of='their')"))
        by = ", by='you'" if e.chooser == "your" else ""
        env.it_chosen = True
        return f"choices.choose(s, ctx, {slot}, {players}, {expr(e.amount, env)}{by})"
    players = _you_or(e.player, env)
    env.choices.append(filter_const(e.filter, env))
    env.it_chosen = True
    up_to = ", up_to=True" if e.up_to else ""
    search = ", search=True" if e.searched else ""
    return f"choices.choose(s, ctx, {slot}, {players}, {e.count}{up_to}{search})"


# ---------------------------------------------------------------- abilities


def _where(env: Env, node: n.Node) -> str:
    return repr(f"{env.where}:{node.loc.line}")


def ability(a: n.Ability, env: Env, taken: set[str]) -> dict:
    """Return the template context of one ability class."""
    fields = [field_("where", _where(env, a))]
    late: list[dict] = []
    methods: list[dict] = []
    if isinstance(a, n.Static):
        return _static(a, env, taken, fields)
    if isinstance(a, n.Triggered):
        spec = trigger_event(a, env.symbols.kinds)
        env.event_about = spec.about
        fields.append(field_("event", repr(spec.name)))
        late.append(field_("scope", _scope(a.subject, env)))
        base, name = "Triggered", class_name("When " + spec.name.replace("_", " "), taken)
    elif isinstance(a, n.Timed) and a.at_end:
        fields.append(field_("event", repr("turn_end")))
        fields.append(field_("scope", f"Scope('timed', {v.WHOSE[a.whose]!r})"))
        base, name = "Timed", class_name("At turn end", taken)
    elif isinstance(a, n.Timed):
        fields.append(field_("event", repr("phase_start" if a.phase else "turn_start")))
        if a.phase:
            fields.append(field_("phase", repr(a.phase.value)))
        fields.append(field_("scope", f"Scope('timed', {v.WHOSE[a.whose]!r})"))
        base = "Timed"
        name = class_name("At " + (a.phase.value + " phase" if a.phase else "turn start"), taken)
    elif isinstance(a, n.Activated):
        base, name = "Activated", class_name("Activated ability", taken)
        if a.once_per_turn:
            fields.append(field_("once_per_turn", "True"))
    else:
        base, name = "SpellEffect", class_name("Effect", taken)
    if env.symbols.stalemate and hurts(a.body):
        fields.append(field_("hurts", "True"))
    condition = getattr(a, "condition", None)
    if condition is not None:
        fields.append(field_("has_condition", "True"))
        methods.append({"name": "condition", "args": SELF_ARGS,
                        "lines": [f"return {cond(condition, env)}"]})
    parts = steps(a.body, env)
    names = ["resolve"] + [f"resolve_{k + 1}" for k in range(1, len(parts))]
    methods += [{"name": name, "args": SELF_ARGS, "lines": lines} for name, lines in zip(names, parts, strict=True)]
    if isinstance(a, n.Activated) and a.body[0].mode == "must_pay" and env.first_costs:  # offered while payable
        methods.append({"name": "payable", "args": SELF_ARGS, "lines": [f"return fx.can_pay(s, ctx, {env.first_costs})"]})
    if len(parts) > 1:
        late.append(field_("steps", "(" + ", ".join(names) + ")"))
    if env.choices:
        late.append(field_("choice_filters", "(" + ", ".join(env.choices) + ",)"))
    if env.targets:
        late.append(field_("targets", "(" + ", ".join(env.targets) + ",)"))
    if env.mays:
        late.append(field_("mays", "(" + ", ".join(env.mays) + ",)"))
    return {"name": name, "base": base, "fields": fields, "functions": env.functions + methods,
            "late_fields": env.constants + late}


def _scope(subject: n.Subject, env: Env) -> str:
    if subject.kind in ("this", "holder"):
        return f"Scope({subject.kind!r})"
    if subject.kind == "player":
        return f"Scope('player', {v.SUBJECT_PLAYERS[subject.word]!r})"
    assert subject.filter is not None
    other = subject.word == "another"  # 'when another unit ...': not the card the ability is on
    return f"Scope('filter', filter={filter_const(subject.filter, env, any_zone=True, other=other)})"


def _static(a: n.Static, env: Env, taken: set[str], fields: list[dict]) -> dict:
    effects = []
    for sentence in a.body:
        # The card test first: it is cheap and mostly false, and both halves only read the board.
        guard = f" and {cond(sentence.condition, env)}" if sentence.condition else ""
        for e in sentence.effects:
            target = getattr(e, "target", None)  # validation admits only effects with a target here
            test = env.function("applies", f"{SELF_ARGS}, c", [f"return {applies(target, env)}{guard}"])  # type: ignore[arg-type]
            effects.append(_static_effect(e, env, test))
    late = env.constants + [field_("statics", "(" + ", ".join(effects) + ",)")]
    return {"name": class_name("Static ability", taken), "base": "Static", "fields": fields,
            "functions": env.functions, "late_fields": late}


def _static_effect(e: n.Effect, env: Env, test: str) -> str:
    match e:
        case n.Modify(sign=sign, amount=a, stat=stat):
            delta = expr(a, env) if sign == "+" else f"-{expr(a, env)}"
            amount = env.function("amount", SELF_ARGS, [f"return {delta}"])
            return f"StaticEffect('modify', {test}, stat={stat.value!r}, amount={amount})"
        case n.Restrict(restriction=r):
            return f"StaticEffect('flag', {test}, flag={v.RESTRICTIONS[r]!r})"
        case n.Grant(name=name):
            return f"StaticEffect('grant', {test}, keyword={name.value!r})"
        case n.ReduceDamage(amount=a, increased=increased):
            amount = env.function("amount", SELF_ARGS, [f"return {'-' if increased else ''}{expr(a, env)}"])
            return f"StaticEffect('reduce_damage', {test}, amount={amount})"
        case n.DamageDealtBy(amount=a, increased=increased):
            amount = env.function("amount", SELF_ARGS, [f"return {'' if increased else '-'}{expr(a, env)}"])
            return f"StaticEffect('deal_more', {test}, amount={amount})"
        case n.GrantStatus(value=value, name=name):
            return f"StaticEffect('grant_status', {test}, keyword={name.value!r}, value={value})"
        case n.RefuseChanges(influence=influence):
            return f"StaticEffect('refuse_changes', {test}, value={influence})"
        case n.Pierce():
            return f"StaticEffect('pierce', {test})"
        case n.RangeShift(amount=a, increased=increased):
            amount = env.function("amount", SELF_ARGS, [f"return {'' if increased else '-'}{expr(a, env)}"])
            return f"StaticEffect('range_shift', {test}, amount={amount})"
        case n.CountsAs(attribute=attribute, value=value):
            return f"StaticEffect('counts_as', {test}, stat={attribute.value!r}, keyword={value.value!r})"
        case n.DistanceAs(amount=a):
            amount = env.function("amount", SELF_ARGS, [f"return {expr(a, env)}"])
            return f"StaticEffect('distance_as', {test}, amount={amount})"
        case n.BlockedBy(filter=f):
            return f"StaticEffect('blocked_by', {test}, filter={filter_const(f, env)})"
        case n.MustBlock():
            return f"StaticEffect('flag', {test}, flag='must_block')"
        case n.DamageFloor(stat=stat):
            return f"StaticEffect('damage_floor', {test}, stat={stat.value!r})"
    raise TypeError(f"not a static effect: {e!r}")


def abilities(items: tuple[n.Ability, ...], sym: Symbols, where: str, owner: str,
              params: dict[str, int]) -> tuple[list[dict], str]:
    """Return the contexts of a list of abilities and the code of the `abilities` tuple."""
    taken: set[str] = set(DEFS)
    inner = [ability(a, Env(sym, where, owner, dict(params)), taken) for a in items]
    names = ", ".join(f"{i['name']}()" for i in inner)
    return inner, f"({names},)" if inner else "()"


# ---------------------------------------------------------------- cards, keywords, statuses


def _parts(card: n.Card, kind: type) -> list:
    return [p for p in card.parts if isinstance(p, kind)]


def attribute_values(card: n.Card) -> dict[str, tuple[str, ...]] | None:
    """Return every value of each attribute, where the card gives one attribute several ('attributes element
    moon, element shadow'), else None ('attributes' then says it all)."""
    found: dict[str, tuple[str, ...]] = {}
    for d in _parts(card, n.AttrsDecl):
        for i in d.items:
            found[i.attr.value] = found.get(i.attr.value, ()) + (i.value.value,)
    return found if any(len(v) > 1 for v in found.values()) else None


def card_class(card: n.Card, sym: Symbols, where: str, name: str) -> dict:
    """Return the template context of a card's class."""
    kind = _parts(card, n.KindDecl)[0].kind.value
    if sym.battle:
        return sword_class(card, kind, sym, where, name, body)
    costs = {i.resource.value: i.amount for d in _parts(card, n.CostDecl) for i in d.items}
    stats = {i.stat.value: i.value for d in _parts(card, n.StatsDecl) for i in d.items}
    levels = {i.stat.value: (i.value, *i.higher) for d in _parts(card, n.StatsDecl) for i in d.items if i.higher}
    attrs = {i.attr.value: i.value.value for d in _parts(card, n.AttrsDecl) for i in d.items}
    kws = tuple((k.name.value, k.args) for d in _parts(card, n.KeywordsDecl) for k in d.items)
    texts = _parts(card, n.TextDecl)
    fields = [field_("name", repr(card.name)), field_("where", repr(f"{where}:{card.loc.line}")),
              field_("kind", repr(kind))]
    fields += [field_(k, repr(val)) for k, val in (("cost", costs), ("stats", stats), ("level_stats", levels),
                                                   ("attributes", attrs), ("keywords", kws)) if val]
    if texts:
        fields.append(field_("text", repr(texts[0].text)))
    fields += rules_field(card)
    if _parts(card, n.TokenDecl):
        fields.append(field_("token", "True"))
    for sl in _parts(card, n.SlotsDecl)[:1]:
        fields.append(field_("slots", repr(tuple(x.value for x in sl.genres))))
    for r in _parts(card, n.RangeDecl)[:1]:
        fields.append(field_("range", repr((r.kind, *r.values))))
    for req in _parts(card, n.RequiresDecl)[:1]:
        fields.append(field_("requires", repr((req.attr.value, req.mode, tuple(v.value for v in req.values)))))
    if (values := attribute_values(card)) is not None:
        fields.append(field_("attribute_values", repr(values)))
    inner, names = abilities(card.abilities, sym, where, "card", {})
    for context, a in zip(inner, card.abilities, strict=True):  # each ability's own line, the card named
        context["fields"].append(field_("rules", repr(render_ability(a, card.name))))
    return {"name": name, "base": "CardDef", "fields": fields, "inner": inner,
            "functions": [], "late_fields": [field_("abilities", names)]}


def keyword_class(kw: n.KeywordDef, sym: Symbols, where: str, name: str) -> dict:
    params = {p.value: i for i, p in enumerate(kw.params)}
    fields = [field_("name", repr(kw.name.value)), field_("where", repr(f"{where}:{kw.loc.line}")),
              field_("params", repr(tuple(params)))]
    if kw.text is not None:
        fields.append(field_("text", repr(kw.text)))
    fields += rules_field(kw)
    inner, names = abilities(kw.abilities, sym, where, "keyword", params)
    return {"name": name, "base": "KeywordDef", "fields": fields,
            "inner": inner, "functions": [], "late_fields": [field_("abilities", names)]}


_SETTING_FIELDS = {"class": "klass"}  # a status setting -> the StatusDef field it sets


def setting(key: str, value: str) -> str | int:
    """Return the value of a status setting as its StatusDef field holds it ('influence 2': the number)."""
    return int(value) if key == "influence" else value


def status_class(st: n.StatusDef, sym: Symbols, where: str, name: str) -> dict:
    fields = [field_("name", repr(st.name.value)), field_("where", repr(f"{where}:{st.loc.line}"))]
    fields += [field_(_SETTING_FIELDS.get(key, key), repr(setting(key, value))) for key, value in st.settings]
    if st.param is not None:
        fields.append(field_("param", repr(st.param.value)))
    if st.text is not None:
        fields.append(field_("text", repr(st.text)))
    fields += rules_field(st)
    inner, names = abilities(st.abilities, sym, where, "status", {st.param.value: 0} if st.param else {})
    functions, hooks = hooks_of(st, Env(sym, where, "status"), body)
    late = [field_("abilities", names)] + ([field_("hooks", hooks)] if hooks else [])
    return {"name": name, "base": "StatusDef", "fields": fields,
            "inner": inner, "functions": functions, "late_fields": late}


# ---------------------------------------------------------------- rulesets


def _sentence_fn(env: Env, prefix: str, sentences: tuple[n.Sentence, ...]) -> str:
    return env.function(prefix, SELF_ARGS, body(sentences, env))


def ruleset_class(rs: n.Ruleset, sym: Symbols, where: str, name: str) -> dict:
    """Return the template context of the ruleset's class: settings as data, sentences as methods."""
    env = Env(sym, where, "ruleset")
    fields = [field_("name", repr(rs.name.value)), field_("where", repr(f"{where}:{rs.loc.line}"))]
    fields += _settings(rs)
    late: list[dict] = []
    for rule in rs.rules:
        if isinstance(rule, n.Turn):
            late += _turn(rule, env)
        elif isinstance(rule, n.Battle):
            late += _battle(rule, env)
        elif isinstance(rule, n.TriggerOrder):
            fields.append(field_("trigger_order", order_code(rule.keys)))
        elif isinstance(rule, n.Actions):
            late.append(field_("actions", _actions(rule, env)))
        elif isinstance(rule, n.ActionRight):
            env.event_about = "card"  # 'it' is the swordsman whose key is computed
            keys = [env.function("action_key", SELF_ARGS, [f"return {expr(k, env)}"]) for k in rule.keys]
            late.append(field_("action_right", _tuple(keys)))
    checks = [_sentence_fn(env, "check", (s,)) for r in rs.rules if isinstance(r, n.Checks) for s in r.body]
    loses = [env.function("lose", SELF_ARGS, [f"return {cond(r.cond, env)}"])
             for r in rs.rules if isinstance(r, n.LoseRule)]
    late += [field_("checks", _tuple(checks)), field_("lose_rules", _tuple(loses))]
    if any(isinstance(r, n.Checks) and r.deferred for r in rs.rules):
        fields.append(field_("checks_deferred", "True"))
    return {"name": name, "base": "RulesetDef", "fields": fields,
            "inner": [], "functions": env.functions, "late_fields": env.constants + late}


def _actions(rule: n.Actions, env: Env) -> str:
    items = []
    for item in rule.items:
        allow = env.function("allow", SELF_ARGS, [f"return {cond(item.cond, env)}"]) if item.cond else "None"
        kind = item.kind.value if item.kind else ""
        items.append(f"({item.name.value!r}, {item.zone.value if item.zone else ''!r}, {allow}, {kind!r})")
    return "(" + "".join(f"{x}, " for x in items) + ")"


def _tuple(names: list[str]) -> str:
    return "(" + "".join(f"{x}, " for x in names) + ")"


def _settings(rs: n.Ruleset) -> list[dict]:
    found = ruleset_settings(rs)
    return [field_(k, repr(found[k])) for k in sorted(found)]


def _turn(turn: n.Turn, env: Env) -> list[dict]:
    phases = []
    for phase in turn.phases:
        steps = [(st.name.value, st.body) for st in phase.steps] or [("", phase.body)]
        parts = []
        for step, sentences in steps:
            prefix = f"{phase.name.value}_{step}_" if step else f"{phase.name.value}_"
            fns = [_sentence_fn(env, _ident(prefix), (s,)) for s in sentences]
            parts.append(f"({step!r}, {_tuple(fns)})")
        phases.append(f"PhaseDef({phase.name.value!r}, ({', '.join(parts)},))")
    ends = [_sentence_fn(env, "turn_end_", (s,)) for s in turn.turn_end]
    return [field_("phases", "(" + ", ".join(phases) + ",)"), field_("turn_end", _tuple(ends))]


def _ident(text: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in text).lower()


def _battle(battle: n.Battle, env: Env) -> list[dict]:
    assert isinstance(battle.blocker, (n.Extreme, n.ChosenBlocker))
    blocker = filter_const(battle.blocker.filter, env)
    side = battle.blocker.side[:-4] if isinstance(battle.blocker, n.Extreme) else \
        "many" if battle.blocker.many else "chosen"
    fields = [field_("blocker", blocker), field_("blocker_side", repr(side))]
    if battle.steps:
        fields.append(field_("battle_steps", repr(tuple(x.value for x in battle.steps))))
    if battle.quiet:
        fields.append(field_("quiet_steps", repr(tuple(x.value for x in battle.quiet))))
    parts = [("blocked", battle.blocked), ("unblocked", battle.unblocked)]
    if battle.win_stat is not None:
        parts.append(("won", battle.won))
        fields.append(field_("win_stat", repr(battle.win_stat.value)))
    if battle.end:
        parts.append(("battle_end", battle.end))
    for name, sentences in parts:
        env.functions.append({"name": name, "args": SELF_ARGS, "lines": body(sentences, env) or ["pass"]})
    return fields


# ---------------------------------------------------------------- files


def _enchantment_class(e: n.EnchantmentDef, sym: Symbols, where: str, name: str) -> dict:
    return enchantment_class(e, sym, where, name, body)


LOWER_ITEM: dict[type, Any] = {n.Card: card_class, n.KeywordDef: keyword_class, n.StatusDef: status_class,
              n.Ruleset: ruleset_class, n.EnchantmentDef: _enchantment_class}


def class_names(f: n.File) -> list[tuple[n.Item, str]]:
    """Return each definition of a file with the class name it gets in generated code."""
    taken: set[str] = set(DEFS)
    labels = {n.Card: "", n.KeywordDef: " keyword", n.StatusDef: " status", n.Ruleset: " ruleset",
              n.EnchantmentDef: " enchantment"}
    out = []
    for item in f.items:
        title = item.name if isinstance(item, n.Card) else item.name.value
        out.append((item, class_name(title + labels[type(item)], taken)))
    return out


def lower_file(f: n.File, sym: Symbols, source: str) -> dict:
    """Return the template context of one card file's module."""
    where = PurePosixPath(source).name
    classes = [LOWER_ITEM[type(item)](item, sym, where, name) for item, name in class_names(f)]
    return {"source": source, "imports": imports(classes, sym.battle), "classes": classes}


def registry_context(ruleset: str, files: list[n.File | RecordedFile], symbols: str) -> dict:
    """Return the context of a ruleset's registry module: every definition, sorted by name, and the digest of
    the symbols its files were checked with."""
    tables: dict[type, list[tuple[str, str]]] = {n.Card: [], n.KeywordDef: [], n.StatusDef: [],
                                                 n.EnchantmentDef: []}
    ruleset_class_ = ""
    for f in files:
        module = PurePosixPath(f.path).stem
        for kind, key, name in _defined(f):
            if kind is n.Ruleset:
                ruleset_class_ = f"{module}.{name}"
            else:
                tables[kind].append((key, f"{module}.{name}"))

    def entries(kind: type) -> list[dict]:
        return [{"key": repr(k), "value": val} for k, val in sorted(tables[kind])]

    return {"ruleset": ruleset, "modules": sorted(PurePosixPath(f.path).stem for f in files),
            "ruleset_class": ruleset_class_, "cards": entries(n.Card), "keywords": entries(n.KeywordDef),
            "statuses": entries(n.StatusDef), "enchantments": entries(n.EnchantmentDef), "symbols": symbols}


def _defined(f: n.File | RecordedFile) -> list[tuple[type, str, str]]:
    """Return (kind of definition, name, class name) for each definition of a file."""
    if isinstance(f, RecordedFile):
        return [(n.Card, entry.name, name) for entry, _, name in f.cards]
    return [(type(item), item.name if isinstance(item, n.Card) else item.name.value, name)
            for item, name in class_names(f)]


def _code_of(cls: dict) -> list[str]:
    """Return every piece of code in a class context, inner classes included."""
    out = [cls["base"]] + [f["code"] for f in cls["fields"] + cls["late_fields"]]
    out += [line for fn in cls["functions"] for line in fn["lines"]]
    for inner in cls.get("inner", ()):
        out += _code_of(inner)
    return out


def imports(classes: list[dict], battle: bool = False) -> list[str]:
    """Return the import lines a module needs: only the runtime names its code uses (an automatic
    battle's effects come from runtime/battle/effects.py, under the same name)."""
    code = " ".join(c for cls in classes for c in _code_of(cls))
    code = re.sub(r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"", "''", code)  # names inside strings do not count
    words = set(re.findall(r"[A-Za-z_]+", code))
    lines = [line for name, line in MODULES if name in words]
    if battle:
        lines = [BATTLE_FX if line == MODULES[0][1] else line for line in lines]
    used = [name for name in DEFS if name in words]
    if used:
        lines.append(f"from runtime.defs import {', '.join(used)}")
    return lines
