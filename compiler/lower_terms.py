"""Lowering of terms: expressions, conditions, objects and filters -> Python code strings.

Part of stage 3 (see compiler/lower.py). Names from card text reach code only through `repr`.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass, field

from compiler import nodes as n
from compiler.rules_text import render
from compiler.symbols import Symbols, singular
from runtime import vocabulary as v


def class_name(text: str, taken: set[str]) -> str:
    """Return a safe, unique CamelCase identifier made only of the letters and digits of text."""
    words = re.findall(r"[A-Za-z0-9]+", text)
    base = "".join(w[:1].upper() + w[1:] for w in words) or "Card"
    if base[0].isdigit() or keyword.iskeyword(base) or base.startswith("_"):
        base = "Card" + base
    name, k = base, 2
    while name in taken:
        name, k = f"{base}{k}", k + 1
    taken.add(name)
    return name


def field_(name: str, code: str) -> dict:
    return {"name": name, "code": code}


@dataclass
class Env:
    """What the lowering of one ability knows: its owner, parameters, targets, 'you may's, helpers."""

    symbols: Symbols
    where: str
    owner: str
    params: dict[str, int] = field(default_factory=dict)
    event_about: str = ""
    targets: list[str] = field(default_factory=list)
    mays: list[str] = field(default_factory=list)
    functions: list[dict] = field(default_factory=list)
    constants: list[dict] = field(default_factory=list)
    candidate: bool = False
    after_cost: bool = False
    last_target: int = -1
    choices: list[str] = field(default_factory=list)  # per choice slot: its filter constant
    it_chosen: bool = False  # 'it' means the last choice, not the last target
    lazy_step: int = -1  # a Pattern B sentence's targets are chosen when this step is reached
    first_costs: str = ""  # the costs of the first 'as a cost,' sentence (an activated ability's price)

    def constant(self, code: str) -> str:
        """Return the name of a class constant holding code, reusing an equal one."""
        for c in self.constants:
            if c["code"] == code:
                return c["name"]
        name = f"_F{len(self.constants)}"
        self.constants.append(field_(name, code))
        return name

    def function(self, prefix: str, args: str, lines: list[str]) -> str:
        name = f"_{prefix}{len(self.functions)}"
        self.functions.append({"name": name, "args": args, "lines": lines})
        return name


# ---------------------------------------------------------------- expressions


def expr(e: n.Expr, env: Env) -> str:
    """Return Python code computing an integer expression."""
    match e:
        case n.Number(value=value):
            return repr(value)
        case n.Param(name=name):
            if name.value in env.params:
                return f"ctx.params[{env.params[name.value]}]"
            return f"fx.stat(s, [c], {name.value!r})"
        case n.StatOf(stat=stat, ref=ref):
            return f"fx.stat(s, {obj(ref, env)}, {stat.value!r})"
        case n.StatOwn(possessive=pos, stat=stat):
            return f"fx.stat(s, {possessive_obj(pos)}, {stat.value!r})"
        case n.Count(filter=f):
            return f"fx.count(s, self, ctx, self.{filter_const(f, env)})"
        case n.Stacks(status=st, ref=ref):
            return f"fx.stacks(s, {obj(ref, env)}, {st.value!r})"
        case n.EventAmount():
            return 'ctx.event.get("amount", 0)'
        case n.TurnNumber():
            return "s.turn"
        case n.RoundNumber():
            return "fx.round_number(s)"
        case n.ByRound(values=values):
            return f"fx.by_round(s, {values!r})"
        case n.OwnTurnNumber(possessive=pos):
            who = v.POSSESSIVES[pos]
            return f"fx.turns_taken(s, fx.players(s, ctx, {who!r}))"
        case n.BinOp(op=op, left=left, right=right):
            return f"({expr(left, env)} {op} {expr(right, env)})"
        case n.Div(left=left, right=right, rounding=rounding):
            return f"fx.div({expr(left, env)}, {expr(right, env)}, {rounding!r})"
        case n.Neg(operand=operand):
            return f"(-{expr(operand, env)})"
        case n.Call(fn=fn, args=args):
            return f"{fn}({', '.join(expr(a, env) for a in args)})"
        case n.Half(operand=operand, rounding=rounding):
            return f"fx.div({expr(operand, env)}, 2, {rounding!r})"
        case n.Power(left=left, right=right):
            return f"fx.power({expr(left, env)}, {expr(right, env)})"
        case n.HitDamage():
            return "ctx.damage"
        case n.Dice(count=count, sides=sides):
            return f"fx.roll(s, ctx, {count}, {sides})"
        case n.TheRoll():
            return "ctx.rolled"
    raise TypeError(f"not an expression: {e!r}")


def possessive_obj(pos: str) -> str:
    who = v.POSSESSIVES[pos]
    return "fx.this(s, ctx)" if who in ("controller", "owner") else f"fx.players(s, ctx, {who!r})"


def cond(c: n.Cond, env: Env) -> str:
    """Return Python code testing a condition."""
    match c:
        case n.Compare(left=left, op=op, right=right):
            return f"({expr(left, env)} {op} {expr(right, env)})"
        case n.AtBound(left=left, right=right, bound=bound):
            return f"({expr(left, env)} {'>=' if bound == 'more' else '<='} {expr(right, env)})"
        case n.StatBound(stat=stat, value=value, bound=bound):
            return f"(fx.stat(s, [c], {stat.value!r}) {'>=' if bound == 'more' else '<='} {value})"
        case n.Has(ref=ref, name=name):
            return f"fx.has(s, {obj(ref, env)}, {name.value!r})"
        case n.HasSelf(name=name):
            return f"fx.has(s, [c], {name.value!r})"
        case n.Lacks(name=name):
            return f"(not fx.has(s, [c], {name.value!r}))"
        case n.HasAbilities(present=present):
            return f"({'' if present else 'not '}fx.has_abilities(s, [c]))"
        case n.Controls(player=player, quantity=quantity, filter=f):
            control = v.PLAYER_WORDS[player.word] if isinstance(player, n.PlayerRef) else "you"  # validated
            counted = f"fx.count(s, self, ctx, self.{filter_const(f, env, control, other=quantity == 'another')})"
            return f"({counted} == 0)" if quantity == "no" else f"({counted} > 0)"
        case n.SeatIs(player=player, seat=seat):
            return f"fx.is_seat(s, {obj(player, env)}, {seat!r})"
        case n.WonBattle(ref=ref):
            return f"fx.won_battle(s, {obj(ref, env)})"
        case n.InFrontOf(ref=ref):
            return f"fx.in_front_of(s, [c], {obj(ref, env)})"
        case n.EnteredThisTurn(ref=ref):
            return f"fx.entered_this_turn(s, {obj(ref, env)})"
        case n.InState(ref=ref, state=state):
            return f"fx.in_state(s, {obj(ref, env)}, {state!r})"
        case n.OptionIs(option=option, value=value):
            return f"fx.option_is(s, {option.value!r}, {value.value!r})"
        case n.IsType(ref=ref, kind=kind):
            return f"fx.is_type(s, {obj(ref, env)}, {kind.value!r})"
        case n.HasClass(ref=ref, klass=klass):
            return f"fx.has_class(s, {obj(ref, env)}, {klass.value!r})"
        case n.AllOf(left=left, right=right):
            return f"({cond(left, env)} and {cond(right, env)})"
        case n.AnyOf(left=left, right=right):
            return f"({cond(left, env)} or {cond(right, env)})"
        case n.Negation(cond=inner):
            return f"(not {cond(inner, env)})"
    raise TypeError(f"not a condition: {c!r}")


# ---------------------------------------------------------------- objects and filters


def filter_code(f: n.Filter, env: Env, control: str | None = None, any_zone: bool = False,
                other: bool = False) -> str:
    """Return the code of a runtime Filter for a filter phrase, with a predicate for its 'with's.

    any_zone: a trigger's subject, which matches its card wherever the event finds it (a spell
    being played is in staging; a destroyed creature is on its way to the graveyard).
    """
    kind = singular(f.kind.value, env.symbols.kinds)
    args = [repr(kind)]
    ctl = control or (v.CONTROL_WORDS[f.control] if f.control else None)
    if ctl is None and f.possessive is not None:
        ctl = v.POSSESSIVES[f.possessive]  # 'your units' (validated: 'your' or 'the opponent's')
    args.append(repr(ctl))
    if f.zone is not None:
        args += [f"zone={f.zone.zone.value!r}", f"zone_of={v.POSSESSIVES[f.zone.possessive]!r}"]
    elif any_zone:
        args.append("zone=''")
    withs = tuple(w for w in f.withs if not isinstance(w, n.WithAttribute))
    if withs:
        inner = Env(env.symbols, env.where, env.owner, env.params, env.event_about, candidate=True,
                    functions=env.functions, constants=env.constants, last_target=env.last_target)
        test = " and ".join(cond(w, inner) for w in withs)
        args.append("pred=" + env.function("p", "self, s, ctx, c", [f"return {test}"]))
    if f.other or other:
        args.append("other=True")
    attrs = attribute_pairs(f, env.symbols)
    if attrs:
        args.append(f"attrs={attrs!r}")
    if f.places is not None:
        args.append(f"places={place_triples(f.places)!r}" + (", each_place=True" if f.places.each else ""))
    return f"Filter({', '.join(args)})"


def place_triples(places: n.Places) -> tuple[tuple[str, str, str], ...]:
    """Return the runtime's (end, zone, whose) of each place of a choice ('the top of your deck')."""
    return tuple((p.end, p.zone.value, v.POSSESSIVES[p.possessive]) for p in places.items)


def attribute_pairs(f: n.Filter, symbols) -> tuple[tuple[str, str], ...]:
    """Return the (attribute, value) pairs a filter asks for: values before the kind, then 'with's."""
    pairs = [(symbols.attribute_of(a.value)[0], a.value) for a in f.attrs]  # validated: exactly one
    pairs += [(w.attribute.value, w.value.value) for w in f.withs if isinstance(w, n.WithAttribute)]
    return tuple(pairs)


def filter_const(f: n.Filter, env: Env, control: str | None = None, any_zone: bool = False,
                 other: bool = False) -> str:
    """Return the name of a class constant holding a filter's runtime Filter; other: leave out the
    ability's card even if the filter does not say 'other' ('another', 'you control another')."""
    return env.constant(filter_code(f, env, control, any_zone, other))


def obj(o: n.Object, env: Env) -> str:
    """Return code computing the list of objects (card ids, ~players) an object phrase means."""
    match o:
        case n.This():
            return "fx.this(s, ctx)"
        case n.Holder():
            return "fx.holder(s, ctx)"
        case n.It() if env.it_chosen:
            return f"choices.chosen(s, ctx, {len(env.choices) - 1})"
        case n.Chosen():
            return f"choices.chosen(s, ctx, {len(env.choices) - 1})"
        case n.It():
            if env.last_target >= 0:
                return f"fx.target(s, ctx, {env.last_target})"
            return "fx.event_player(s, ctx)" if env.event_about == "player" else "fx.event_card(s, ctx)"
        case n.EventObject(noun=noun):
            return "fx.event_player(s, ctx)" if noun.value == "player" else "fx.event_card(s, ctx)"
        case n.Attacker():
            return "fx.attacker(s, ctx)"
        case n.Blocker():
            return "fx.blocker(s, ctx)"
        case n.Winner():
            return "fx.winner(s, ctx)"
        case n.Target(count=count, up_to=up_to, filter=f, another=another):
            return _target(env, f"TargetSpec({count}, {up_to}, {filter_const(f, env, other=another)}"
                                f"{_when(env)}{', distinct=True' if another else ''})")
        case n.TargetPlayer():
            return _target(env, f"TargetSpec(1, False, {env.constant(repr_filter_player())}{_when(env)})")
        case n.Each(filter=f):
            return f"fx.each(s, self, ctx, self.{filter_const(f, env)})"
        case n.Extreme(side=side, filter=f):
            return f"fx.extreme(s, self, ctx, self.{filter_const(f, env)}, {side[:-4]!r})"
        case n.RandomOne(filter=f):
            return f"fx.random_one(s, self, ctx, self.{filter_const(f, env)})"
        case n.PlayerRef(word=word):
            return f"fx.players(s, ctx, {v.PLAYER_WORDS[word]!r})"
        case n.BattleRef(word=word):
            return f"fx.ref(s, ctx, {word!r})"
        case n.FirstSword(of=of, unused=unused):
            return f"fx.first_sword(s, ctx, {obj(of, env)}, {unused})"
        case n.SwordsOf(of=of):
            return f"fx.swords_of(s, ctx, {obj(of, env)})"
    raise TypeError(f"not an object: {o!r}")


def repr_filter_player() -> str:
    return "Filter('player', None)"


def _when(env: Env) -> str:
    """Return the TargetSpec arguments saying when a target is chosen: before resolution (none), after
    a cost, or when a Pattern B sentence's step is reached."""
    if env.lazy_step >= 0:
        return f", at_resolution=True, step={env.lazy_step}"
    return ", at_resolution=True" if env.after_cost else ""


def _target(env: Env, spec: str) -> str:
    env.targets.append(spec)
    env.it_chosen = False
    env.last_target = len(env.targets) - 1
    return f"fx.target(s, ctx, {env.last_target})"


def applies(o: n.Object, env: Env) -> str:
    """Return code testing whether card `c` is one of the objects a static effect names."""
    match o:
        case n.This():
            return "c == ctx.source"
        case n.Holder():
            return "c == s.cards[ctx.source].holder"
        case n.Each(filter=f):
            return f"fx.matches(s, self, ctx, self.{filter_const(f, env)}, c)"
    raise TypeError(f"static effects apply to 'this', 'its holder' or to a filter, not {o!r}")


def rules_field(item: n.Card | n.KeywordDef | n.StatusDef | n.EnchantmentDef) -> list[dict]:
    """Return the `rules` field of an item's class: its rules text (none when it has no abilities)."""
    rules = render(item)
    return [field_("rules", repr(rules))] if rules else []
