"""Walking terms for the reference interpreter: expressions, conditions, objects and filters.

Part of compiler/interpret.py, as compiler/lower_terms.py is part of compiler/lower.py: each
function here evaluates what the lower_terms function of the same construct writes as code. A walk
calls the primitives its generated code would (`fx = primitives(rt)`): those of runtime/effects.py,
or of runtime/battle/effects.py when it runs inside an automatic battle.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from compiler import nodes as n
from compiler.interpret_reading import kind_of
from compiler.symbols import Symbols  # the names the checker collected (check is shared)
from runtime import choices
from runtime import effects as fx
from runtime import query as q
from runtime import vocabulary as v
from runtime.battle import effects as battle_fx
from runtime.battle.state import Battle
from runtime.defs import Filter, MaySpec, TargetSpec

ARITHMETIC: dict[str, Callable[[int, int], int]] = {"+": operator.add, "-": operator.sub, "*": operator.mul}
COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge, "<=": operator.le, "==": operator.eq, "!=": operator.ne, ">": operator.gt,
    "<": operator.lt}
FUNCTIONS: dict[str, Callable[..., int]] = {"min": min, "max": max}
PLAYER_FILTER = Filter("player", None)  # lower_terms.repr_filter_player

# ---------------------------------------------------------------- walking state


@dataclass
class Env:
    """What lowering's Env knows at one point of an ability: parameters, event, numbering so far."""

    symbols: Symbols
    params: dict[str, int] = field(default_factory=dict)
    event_about: str = ""
    targets: list[TargetSpec] = field(default_factory=list)
    mays: list[MaySpec] = field(default_factory=list)
    after_cost: bool = False
    last_target: int = -1
    filters: dict = field(default_factory=dict)  # built Filters by (node id, control, any_zone)
    choices: list[Filter] = field(default_factory=list)  # per choice slot while resolving (lower: env.choices)
    it_chosen: bool = False  # 'it' means the last choice
    lazy_step: int = -1  # a Pattern B sentence's targets are chosen when this step is reached

    def fork(self) -> Env:
        """Return a copy to walk on from here; the filter cache stays shared."""
        return Env(self.symbols, self.params, self.event_about, list(self.targets), list(self.mays),
                   self.after_cost, self.last_target, self.filters, list(self.choices), self.it_chosen,
                   self.lazy_step)

    def inner(self) -> Env:
        """Return the Env of a filter's 'with' clauses: fresh numbering, 'it' as outside (as filter_code)."""
        return Env(self.symbols, self.params, self.event_about, filters=self.filters, last_target=self.last_target)

    def add_target(self, spec: TargetSpec) -> int:
        """Number a new target slot; it becomes what 'it' means."""
        self.targets.append(spec)
        self.last_target = len(self.targets) - 1
        self.it_chosen = False
        return self.last_target

    def when(self) -> dict:
        """Return when a new target is chosen (lower_terms._when): after a cost, or at a Pattern B step."""
        if self.lazy_step >= 0:
            return {"at_resolution": True, "step": self.lazy_step}
        return {"at_resolution": self.after_cost}


@dataclass
class Run:
    """The run-time values generated code sees: self (ab), s, ctx and, in predicates, candidate c."""

    ab: Any
    s: Any
    ctx: Any
    c: int | None = None

    def candidate(self) -> int:
        """Return `c`; generated code without one fails the same way."""
        if self.c is None:
            raise NameError("name 'c' is not defined")
        return self.c


Walk = Run | None  # None: a dry walk


def primitives(rt: Walk) -> Any:
    """Return the module of primitives a walk calls: the battle ones inside a battle (dry: the others)."""
    return battle_fx if rt is not None and isinstance(rt.s, Battle) else fx

# ---------------------------------------------------------------- expressions


def value(e: n.Expr, env: Env, rt: Walk) -> int:
    """Return an expression's value (0 on a dry walk), as lower_terms.expr computes it."""
    fx = primitives(rt)
    match e:
        case n.Number(value=number):
            return number
        case n.Param(name=name):
            return _param(name.value, env, rt)
        case n.StatOf(stat=stat, ref=ref):
            objs = objects(ref, env, rt)
            return fx.stat(rt.s, objs, stat.value) if rt else 0
        case n.StatOwn(possessive=pos, stat=stat):
            return fx.stat(rt.s, possessive_objects(pos, rt), stat.value) if rt else 0
        case n.Count(filter=f):
            flt = make_filter(f, env)
            return fx.count(rt.s, rt.ab, rt.ctx, flt) if rt else 0
        case n.Stacks(status=st, ref=ref):
            objs = objects(ref, env, rt)
            return fx.stacks(rt.s, objs, st.value) if rt else 0
        case n.EventAmount():
            return rt.ctx.event.get("amount", 0) if rt else 0
        case n.TurnNumber():
            return rt.s.turn if rt else 0
        case n.RoundNumber():
            return fx.round_number(rt.s) if rt else 0
        case n.ByRound(values=values):
            return fx.by_round(rt.s, values) if rt else 0
        case n.OwnTurnNumber(possessive=pos):
            return fx.turns_taken(rt.s, fx.players(rt.s, rt.ctx, v.POSSESSIVES[pos])) if rt else 0
        case n.HitDamage():
            return rt.ctx.damage if rt else 0
        case n.Dice(count=count, sides=sides):
            return fx.roll(rt.s, rt.ctx, count, sides) if rt else 0
        case n.TheRoll():
            return rt.ctx.rolled if rt else 0
    return _arithmetic(e, env, rt)


def _arithmetic(e: n.Expr, env: Env, rt: Walk) -> int:
    """Return the value of an operator expression; operands are walked left to right."""
    fx = primitives(rt)
    match e:
        case n.BinOp(op=op, left=left, right=right):
            a = value(left, env, rt)
            return ARITHMETIC[op](a, value(right, env, rt))
        case n.Div(left=left, right=right, rounding=rounding):
            a = value(left, env, rt)
            return fx.div(a, value(right, env, rt), rounding)
        case n.Neg(operand=operand):
            return -value(operand, env, rt)
        case n.Call(fn=fn, args=args):
            return FUNCTIONS[fn](*[value(a, env, rt) for a in args])
        case n.Half(operand=operand, rounding=rounding):
            return fx.div(value(operand, env, rt), 2, rounding)
        case n.Power(left=left, right=right):
            a = value(left, env, rt)
            return fx.power(a, value(right, env, rt)) if rt else 0
    raise TypeError(f"not an expression: {e!r}")


def _param(name: str, env: Env, rt: Walk) -> int:
    """Return a keyword parameter, or else the candidate's stat of that name."""
    if rt is None:
        return 0
    if name in env.params:
        return rt.ctx.params[env.params[name]]
    return primitives(rt).stat(rt.s, [rt.candidate()], name)


def possessive_objects(pos: str, rt: Run) -> list[int]:
    """Return what 'your', 'its', ... name (lower_terms.possessive_obj)."""
    who, fx = v.POSSESSIVES[pos], primitives(rt)
    return fx.this(rt.s, rt.ctx) if who in ("controller", "owner") else fx.players(rt.s, rt.ctx, who)


# ---------------------------------------------------------------- conditions


def test(c: n.Cond, env: Env, rt: Walk) -> bool:
    """Return whether a condition holds (False on a dry walk), as lower_terms.cond tests it."""
    fx = primitives(rt)
    match c:
        case n.Compare(left=left, op=op, right=right):
            a = value(left, env, rt)
            return COMPARISONS[op](a, value(right, env, rt))
        case n.AtBound(left=left, right=right, bound=bound):
            a = value(left, env, rt)
            return COMPARISONS[">=" if bound == "more" else "<="](a, value(right, env, rt))
        case n.StatBound(stat=stat, value=number, bound=bound):
            have = fx.stat(rt.s, [rt.candidate()], stat.value) if rt else 0
            return COMPARISONS[">=" if bound == "more" else "<="](have, number)
        case n.Has(ref=ref, name=name):
            objs = objects(ref, env, rt)
            return fx.has(rt.s, objs, name.value) if rt else False
        case n.HasSelf(name=name):
            return fx.has(rt.s, [rt.candidate()], name.value) if rt else False
        case n.Lacks(name=name):
            return (not fx.has(rt.s, [rt.candidate()], name.value)) if rt else False
        case n.HasAbilities(present=present):
            return fx.has_abilities(rt.s, [rt.candidate()]) == present if rt else False
        case n.Controls(player=player, quantity=quantity, filter=f):
            return _controls(player, quantity, f, env, rt)
        case n.SeatIs(player=player, seat=seat):
            objs = objects(player, env, rt)
            return fx.is_seat(rt.s, objs, seat) if rt else False
        case n.WonBattle(ref=ref):
            objs = objects(ref, env, rt)
            return fx.won_battle(rt.s, objs) if rt else False
        case n.InFrontOf(ref=ref):
            objs = objects(ref, env, rt)
            return fx.in_front_of(rt.s, [rt.candidate()], objs) if rt else False
        case n.EnteredThisTurn(ref=ref):
            objs = objects(ref, env, rt)
            return fx.entered_this_turn(rt.s, objs) if rt else False
        case n.InState(ref=ref, state=state):
            objs = objects(ref, env, rt)
            return fx.in_state(rt.s, objs, state) if rt else False
        case n.OptionIs(option=option, value=wanted):
            return fx.option_is(rt.s, option.value, wanted.value) if rt else False
        case n.IsType(ref=ref, kind=kind):
            objs = objects(ref, env, rt)
            return fx.is_type(rt.s, objs, kind.value) if rt else False
        case n.HasClass(ref=ref, klass=klass):
            objs = objects(ref, env, rt)
            return fx.has_class(rt.s, objs, klass.value) if rt else False
    return _logic(c, env, rt)


def _logic(c: n.Cond, env: Env, rt: Walk) -> bool:
    """Return the value of and/or/not; a side that Python would not evaluate is walked dry."""
    match c:
        case n.AllOf(left=left, right=right):
            first = test(left, env, rt)
            return test(right, env, rt if first else None) and first
        case n.AnyOf(left=left, right=right):
            first = test(left, env, rt)
            return test(right, env, None if first else rt) or first
        case n.Negation(cond=inner):
            return not test(inner, env, rt)
    raise TypeError(f"not a condition: {c!r}")


def _controls(player: n.Object, quantity: str, f: n.Filter, env: Env, rt: Walk) -> bool:
    """Return whether a player controls no / some cards a filter means."""
    control = v.PLAYER_WORDS[player.word] if isinstance(player, n.PlayerRef) else "you"  # validated
    flt = make_filter(f, env, control, other=quantity == "another")
    if rt is None:
        return False
    counted = primitives(rt).count(rt.s, rt.ab, rt.ctx, flt)
    return counted == 0 if quantity == "no" else counted > 0


# ---------------------------------------------------------------- objects and filters


def objects(o: n.Object, env: Env, rt: Walk) -> list[int]:
    """Return the objects (card ids, ~players) an object phrase means ([] on a dry walk)."""
    fx = primitives(rt)
    match o:
        case n.Target(count=count, up_to=up_to, filter=f, another=another):
            spec = TargetSpec(count, up_to, make_filter(f, env, other=another), distinct=another, **env.when())
            slot = env.add_target(spec)
            return fx.target(rt.s, rt.ctx, slot) if rt else []
        case n.TargetPlayer():
            slot = env.add_target(TargetSpec(1, False, PLAYER_FILTER, **env.when()))
            return fx.target(rt.s, rt.ctx, slot) if rt else []
        case n.Each(filter=f):
            flt = make_filter(f, env)
            return fx.each(rt.s, rt.ab, rt.ctx, flt) if rt else []
        case n.Extreme(side=side, filter=f):
            flt = make_filter(f, env)
            return fx.extreme(rt.s, rt.ab, rt.ctx, flt, side[:-4]) if rt else []
        case n.RandomOne(filter=f):
            flt = make_filter(f, env)
            return fx.random_one(rt.s, rt.ab, rt.ctx, flt) if rt else []
        case n.FirstSword(of=of, unused=unused):
            objs = objects(of, env, rt)
            return fx.first_sword(rt.s, rt.ctx, objs, unused) if rt else []
        case n.SwordsOf(of=of):
            objs = objects(of, env, rt)
            return fx.swords_of(rt.s, rt.ctx, objs) if rt else []
    return [] if rt is None else _reference(o, env, rt)


def _reference(o: n.Object, env: Env, rt: Run) -> list[int]:
    """Return what a reference names: this, it, that ..., the attacker or blocker, a player word."""
    s, ctx, fx = rt.s, rt.ctx, primitives(rt)
    match o:
        case n.This():
            return fx.this(s, ctx)
        case n.Holder():
            return fx.holder(s, ctx)
        case n.It() | n.Chosen() if env.it_chosen or isinstance(o, n.Chosen):
            return choices.chosen(s, ctx, len(env.choices) - 1)
        case n.It():
            if env.last_target >= 0:
                return fx.target(s, ctx, env.last_target)
            return fx.event_player(s, ctx) if env.event_about == "player" else fx.event_card(s, ctx)
        case n.EventObject(noun=noun):
            return fx.event_player(s, ctx) if noun.value == "player" else fx.event_card(s, ctx)
        case n.Attacker():
            return fx.attacker(s, ctx)
        case n.Blocker():
            return fx.blocker(s, ctx)
        case n.Winner():
            return fx.winner(s, ctx)
        case n.PlayerRef(word=word):
            return fx.players(s, ctx, v.PLAYER_WORDS[word])
        case n.BattleRef(word=word):
            return fx.ref(s, ctx, word)
    raise TypeError(f"not an object: {o!r}")


def make_filter(f: n.Filter, env: Env, control: str | None = None, any_zone: bool = False,
                other: bool = False) -> Filter:
    """Return the runtime Filter of a filter phrase (lower_terms.filter_code), built once per Env;
    other: leave out the ability's card ('another unit', 'another target')."""
    key = (id(f), control, any_zone, other)
    if key not in env.filters:
        env.filters[key] = _build_filter(f, env, control, any_zone, other)
    return env.filters[key]


def _build_filter(f: n.Filter, env: Env, control: str | None, any_zone: bool, other: bool) -> Filter:
    """Build a Filter: kind, control, zone, 'other', and a predicate walking the 'with' clauses.

    Attribute values are tested by the predicate, on the card's printed attributes (lowering writes
    them as the Filter's data instead): two readings of 'red unit' that must agree.
    """
    kind = kind_of(f.kind.value, env.symbols.kinds)
    ctl = control or (v.CONTROL_WORDS[f.control] if f.control else None)
    if ctl is None and f.possessive is not None:
        ctl = {"your": "you", "the opponent's": "opponent"}[f.possessive]  # validated
    extra: dict[str, Any] = {"other": f.other or other}
    if f.zone is not None:
        extra |= {"zone": f.zone.zone.value, "zone_of": v.POSSESSIVES[f.zone.possessive]}
    elif any_zone:
        extra["zone"] = ""
    if f.withs or f.attrs:
        extra["pred"] = _predicate(f.withs, env.inner(), tuple(a.value for a in f.attrs))
    if f.places is not None:
        extra |= {"places": tuple((p.end, p.zone.value, v.POSSESSIVES[p.possessive]) for p in f.places.items),
                  "each_place": f.places.each}
    return Filter(kind, ctl, **extra)


def _predicate(withs: tuple[n.Cond, ...], start: Env,
               values: tuple[str, ...] = ()) -> Callable[[Any, Any, Any, int], bool]:
    """Return pred(ab, s, ctx, c): the card prints every attribute value given, and every 'with' clause
    holds, tested left to right like `and`."""

    def pred(ab: Any, s: Any, ctx: Any, c: int) -> bool:
        card = s.game.cards[s.cards[c].name]
        printed = {val for attr in card.attributes for val in q.attribute_values(s, c, attr)}
        if any(val not in printed for val in values):
            return False
        env, rt = start.fork(), Run(ab, s, ctx, c)
        result = True
        for w in withs:
            if isinstance(w, n.WithAttribute):  # 'with colour blue': the printed attribute
                result = result and w.value.value in q.attribute_values(s, c, w.attribute.value)
                continue
            result = test(w, env, rt if result else None) and result
        return result

    return pred


def applies(o: n.Object, env: Env, rt: Walk) -> bool:
    """Return whether candidate c is one of the objects a static effect names (lower_terms.applies)."""
    match o:
        case n.This():
            return rt.candidate() == rt.ctx.source if rt else False
        case n.Holder():
            return rt.candidate() == rt.s.cards[rt.ctx.source].holder if rt else False
        case n.Each(filter=f):
            flt = make_filter(f, env)
            return primitives(rt).matches(rt.s, rt.ab, rt.ctx, flt, rt.candidate()) if rt else False
    raise TypeError(f"static effects apply to 'this' or to a filter, not {o!r}")
