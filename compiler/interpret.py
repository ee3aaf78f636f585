"""A reference interpreter: runs the validated AST directly against the runtime, with no Python
generated, imported or evaluated. It is the differential oracle of the compiler
(tests/test_differential.py): the same seed and choices must give the same log.

Public entry point: `interpret_ruleset(files, symbols) -> Game` (terms: compiler/interpret_terms.py;
automatic battles: compiler/interpret_battle.py and compiler/interpret_battle_effects.py). It shares no
code with lowering: its readings of ruleset lines, trigger phrases and kind words are its own
(compiler/interpret_reading.py); only the AST, validation and the runtime are shared (docs/fuzzing.md).

It builds definition objects with exactly the attributes and methods the runtime reads from
generated classes; their methods walk the AST when the runtime calls them. Every semantic choice
mirrors compiler/lower.py and compiler/lower_terms.py, including evaluation order and the numbering
of target slots and 'you may's, which lowering fixes in the order it writes code.

A walk carries two things: an `Env`, the numbering state lowering's Env has at that point, and a
`Run`, the values generated code sees (self, s, ctx, candidate c). A walk without a Run is *dry*:
it only numbers targets and 'you may's. Parts that generated code skips at run time (a branch not
taken, the right side of a short-circuit) are walked dry, so that later slots keep the numbers
lowering gave them. Each method starts from a copy of the Env its generated code was written in.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

from compiler import nodes as n
from compiler.check import validate
from compiler.diagnostics import CompileError
from compiler.interpret_battle_effects import battle_call
from compiler.interpret_reading import acted_on, event_of, kind_of, read_settings
from compiler.interpret_terms import (
    Env,
    Run,
    Walk,
    applies,
    make_filter,
    objects,
    possessive_objects,
    primitives,
    test,
    value,
)
from compiler.rules_text import render
from compiler.symbols import Symbols  # the names the checker collected (check is shared)
from runtime import actions, choices, turns
from runtime import effects as fx
from runtime import vocabulary as v
from runtime.defs import (
    CardDef,
    Filter,
    KeywordDef,
    MaySpec,
    PhaseDef,
    RulesetDef,
    Scope,
    StaticEffect,
    StatusDef,
)
from runtime.engine import Game

ABILITY_KINDS = {n.Triggered: "triggered", n.Timed: "timed", n.Static: "static", n.SpellEffect: "effect",
                 n.Activated: "activated"}

# ---------------------------------------------------------------- effects


def _you_or(player: n.Object | None, env: Env, rt: Walk) -> list[int]:
    """Return the player phrase of an effect, 'you' when none is written."""
    if player is not None:
        return objects(player, env, rt)
    return primitives(rt).players(rt.s, rt.ctx, "you") if rt else []


def _optional(e: n.Expr | None, env: Env, rt: Walk) -> int | None:
    return value(e, env, rt) if e is not None else None


def effect_call(e: n.Effect, env: Env, rt: Walk) -> tuple[str, list]:
    """Return the primitive an effect calls and its arguments, evaluated in lowering's order."""
    if type(e) in n.BATTLE_EFFECTS:  # as lower.py hands these to lower_battle.py
        return battle_call(e, env, rt)
    match e:
        case n.DealDamage(amount=a, target=t, unpreventable=pierce, dealer=dealer):
            dealt_by = [objects(dealer, env, rt)] if dealer is not None else []
            return "deal_damage", [objects(t, env, rt), value(a, env, rt)] + ([pierce] if pierce or dealt_by else []) + dealt_by
        case n.ReduceDirectly(stat=stat, target=t, amount=a):
            objs = objects(t, env, rt)
            return "reduce_directly", [objs, value(a, env, rt), stat.value]
        case n.MoveLines(target=t, count=count, way=way):
            return "move_lines", [objects(t, env, rt), count, way]
        case n.Draw(player=p, amount=a):
            return "draw", [_you_or(p, env, rt), value(a, env, rt)]
        case n.Gain(player=p, amount=a, resource=r):
            return "gain", [_you_or(p, env, rt), value(a, env, rt), r.value]
        case n.Give(target=t, name=name, duration=d):
            return "give", [objects(t, env, rt), name.value, _until(d)]
        case n.PutStatus(amount=a, status=st, target=t, duration=d):
            return "put_status", [objects(t, env, rt), value(a, env, rt), st.value, _until(d)]
        case n.RemoveDamage(target=t):
            return "remove_damage", [objects(t, env, rt)]
        case n.MoveToEnd(target=t, side=side):
            return "move_to_end", [objects(t, env, rt), side]
        case n.CreateToken(player=p, amount=a, card=card):
            return "create_token", [_you_or(p, env, rt), value(a, env, rt), card]
        case n.Place(card=card, zone=zone):
            return "place", [card, zone.value]
        case n.Modify(target=t, sign=sign, amount=a, stat=stat, duration=d):
            objs = objects(t, env, rt)  # first, so that 'it' in the amount means this target
            amount = value(a, env, rt)
            return "modify", [objs, amount if sign == "+" else -amount, stat.value, _until(d)]
        case n.Restrict(target=t, restriction=r, duration=d):
            return "restrict", [objects(t, env, rt), v.RESTRICTIONS[r], _until(d)]
        case n.Grant(target=t, name=name):
            return "give", [objects(t, env, rt), name.value, None]
        case n.SetResource(possessive=pos, resource=r, amount=a):
            players = possessive_objects(pos, rt) if rt else []
            return "set_resource", [players, value(a, env, rt), r.value]
        case n.Delete(target=t):
            return "delete", [objects(t, env, rt)]
        case n.Summon(target=t):
            return "summon", [objects(t, env, rt)]
        case n.Ready(target=t):
            return "ready", [objects(t, env, rt)]
        case n.Exhaust(target=t):
            return "exhaust", [objects(t, env, rt)]
        case n.LevelChange(direction=d, target=t, amount=a):
            objs = objects(t, env, rt)
            by = value(a, env, rt) if a is not None else 1
            return "level_change", [objs, by if d == "up" else -by]
        case n.LiftRestriction(target=t):
            return "lift_restriction", [objects(t, env, rt)]
        case n.Reveal(target=t):
            return "reveal", [objects(t, env, rt)]
        case n.PutInto(target=t, zone=zone):
            return "put_into", [objects(t, env, rt), zone.value]
        case n.Shuffle(possessive=pos, zone=zone):
            return "shuffle", [possessive_objects(pos, rt) if rt else [], zone.value]
    return cost_call(e, env, rt)


def cost_call(e: n.Effect, env: Env, rt: Walk) -> tuple[str, list]:
    """Return (primitive, arguments) of an effect that can also be paid as a cost (lower.cost_item)."""
    match e:
        case n.Pay(amount=a, resource=r):
            return "lose", [_you_or(None, env, rt), value(a, env, rt), r.value]
        case n.Lose(player=p, amount=a, resource=r):
            return "lose", [_you_or(p, env, rt), _optional(a, env, rt), r.value]
        case n.Discard(player=p, amount=a):
            return "discard", [_you_or(p, env, rt), value(a, env, rt)]
        case n.Remove(amount=a, name=name, target=t):
            objs = objects(t, env, rt)
            return "remove", [objs, _optional(a, env, rt), name.value]
        case n.RemoveChanges(amount=a, target=t):
            objs = objects(t, env, rt)
            return "remove_changes", [objs, _optional(a, env, rt)]
        case n.Destroy(target=t):
            return "destroy", [objects(t, env, rt)]
        case n.ReturnToHand(target=t):
            return "return_to_hand", [objects(t, env, rt)]
    return _procedure_call(e, env)


def _procedure_call(e: n.Effect, env: Env) -> tuple[str, list]:
    """Return (procedure, arguments) of a turn procedure of a ruleset."""
    match e:
        case n.Stage():
            return "stage", []
        case n.PerformRolled(dice=d):
            return "perform_rolled", [d.count, d.sides]
        case n.NormalMove():
            return "normal_move", []
        case n.PlayStaged(kinds=kinds, order=order):
            return "play_staged", [tuple(kind_of(k.value, env.symbols.kinds) for k in kinds), _order(order)]
        case n.AttackAll(filter=f, order=order):
            return "attack_all", [make_filter(f, env), _order(order)]
        case n.TakeActions():
            return "take_actions", []
        case n.AnnounceTurn():
            return "announce_turn", []
        case n.DealJokers():
            return "open_dealing", []
    raise TypeError(f"not an effect: {e!r}")


def _until(d: n.Duration | None) -> str | None:
    return d.until if d is not None else None


def _order(order: tuple[n.OrderKey, ...]) -> tuple:
    """Return an ordering as data (lower.order_code)."""
    return tuple((k.key, tuple(x.value for x in k.names)) for k in order)


def perform(rt: Run, name: str, args: list) -> None:
    """Call a primitive or procedure the way generated code calls it."""
    if name == "attack_all":
        turns.attack_all(rt.s, rt.ab, rt.ctx, *args)
    elif name == "take_actions":
        actions.take_actions(rt.s, rt.ctx)
    elif name == "announce_turn":
        turns.announce_turn(rt.s, rt.ctx)
    elif name == "open_dealing":
        actions.open_dealing(rt.s, rt.ctx)
    elif name in ("stage", "play_staged", "perform_rolled", "normal_move"):
        getattr(turns, name)(rt.s, rt.ctx, *args)
    elif name in ("reveal", "put_into", "shuffle"):
        getattr(choices, name)(rt.s, rt.ctx, *args)
    else:
        getattr(primitives(rt), name)(rt.s, rt.ctx, *args)


def do(e: n.Effect, env: Env, rt: Walk) -> None:
    """Carry out one effect (on a dry walk: only number what it names); under the anti-stalemate rule, with
    a target reached only by it, only damage and direct reduction happen (lower._effect_parts)."""
    if rt is not None and env.symbols.stalemate and rt.ctx.far and not isinstance(e, (n.DealDamage, n.ReduceDirectly)):
        rt = None  # skipped: walked dry, so that what it names is numbered all the same, and nothing rolls
    name, args = effect_call(e, env, rt)
    if rt is not None:
        perform(rt, name, args)


# ---------------------------------------------------------------- sentences


def _is_cost(e: n.Effect) -> bool:
    return v.EFFECTS[type(e).__name__].cost


def _costs(effects: tuple[n.Effect, ...], env: Env, rt: Walk) -> list[tuple]:
    """Return the cost list fx.pay and fx.can_pay take: (primitive, objects, *arguments) each."""
    out = []
    for e in effects:
        name, args = cost_call(e, env, rt)
        out.append((name, *args))
    return out


def _payable(effects: tuple[n.Effect, ...], start: Env) -> Callable[[Any, Any, Any], bool]:
    """Return payable(ab, s, ctx) of an optional cost, walking its costs from where they are written."""

    def payable(ab: Any, s: Any, ctx: Any) -> bool:
        return fx.can_pay(s, ctx, _costs(effects, start.fork(), Run(ab, s, ctx)))

    return payable


def body(sentences: tuple[n.Sentence, ...], env: Env, rt: Walk, step: int | None = None) -> int:
    """Carry out an ability body as lower.steps's code does, one step of it (step None: every step,
    as lower.body's straight-line code); return how many steps the body has. Parts of other steps
    are walked dry, so that slots keep lowering's numbers."""
    every = interrupted_between_sentences(env.symbols)
    at, filled = 0, False
    for i, sentence in enumerate(sentences):
        lazy = sentence.mode == "if_happened" and names_target(sentence)
        if filled and (lazy or (every and i > 0)):
            at += 1
        env.lazy_step = at if lazy else -1
        marks = i + 1 < len(sentences) and sentences[i + 1].mode == "if_happened"
        at, filled = _sentence(sentence, env, rt, step, at, marks)
        env.lazy_step = -1
    return at + 1 if filled or at == 0 else at


def _live(rt: Walk, step: int | None, at: int) -> Walk:
    return rt if step is None or at == step else None


def _sentence(sentence: n.Sentence, env: Env, rt: Walk, step: int | None, at: int, marks: bool) -> tuple[int, bool]:
    """Carry out one sentence from step `at`; return the step it ends in and whether that step has code."""
    live = _live(rt, step, at)
    if sentence.mode in ("may", "must_pay") and all(_is_cost(e) for e in sentence.effects):
        paid = _cost_sentence(sentence, env, live)
        if live is not None:
            live.ctx.paid = paid
        env.after_cost = True
        return at, True
    go, kept = _guard(sentence, env, live)
    if marks and live is not None:
        live.ctx.happened = _happened(sentence, env, live) if go else False
    if kept not in (None, "paid") and _continues(sentence.effects):
        kept = "runs"  # lowering keeps the test for the parts after the choice
        if live is not None:
            live.ctx.runs = go
    for e in sentence.effects:
        if not isinstance(e, (n.Choose, n.Discard)) or not n.asks(e):
            do(e, env, live if go else None)
            continue
        do_choice(e, env, live if go else None)
        at += 1  # the rest of the sentence is the next step (lower._effect_parts)
        live = _live(rt, step, at)
        go = live is not None and _kept(kept, live)
        if live is not None and go:
            _after_choice(e, env, live)
    if sentence.mode == "may":
        env.after_cost = True
    last = sentence.effects[-1]
    return at, not n.asks(last) or n.continues_after_choice(last)


def _guard(sentence: n.Sentence, env: Env, rt: Walk) -> tuple[bool, str | None]:
    """Return whether a sentence's first part runs, and what its later parts test ('paid', 'not
    paid', 'runs', or None when unguarded), as lower._sentence writes them."""
    kept = {"if_you_do": "paid", "if_you_dont": "not paid", "if_happened": "runs"}.get(sentence.mode)
    if sentence.mode == "may":
        index = len(env.mays)
        env.mays.append(MaySpec(index))
        if rt is not None:
            rt.ctx.paid = rt.ctx.yes(index)
        kept = "paid"
    if sentence.condition is not None:
        return bool(test(sentence.condition, env, rt)), "runs"  # a dry walk still numbers its targets
    if rt is None:
        return False, kept
    return _kept(kept, rt) if kept != "runs" else rt.ctx.happened, kept


def _kept(kept: str | None, rt: Run) -> bool:
    """Return what a later part of a split sentence tests (ctx.paid, or ctx.runs kept by its first part)."""
    if kept is None:
        return True
    return {"paid": rt.ctx.paid, "not paid": not rt.ctx.paid, "runs": rt.ctx.runs}[kept]


DISCARD_FILTER = Filter("card", None, zone="hand", zone_of="their")  # lower._choice's


def interrupted_between_sentences(symbols: Symbols) -> bool:
    """Return whether the ruleset says 'triggered abilities interrupt effects between sentences'."""
    rs = symbols.ruleset
    return rs is not None and any(isinstance(r, n.Setting) and r.key == "interrupts" for r in rs.rules)


def names_target(node: object) -> bool:
    """Return whether a sentence (or any node inside it) names a target."""
    if isinstance(node, (n.Target, n.TargetPlayer)):
        return True
    if isinstance(node, tuple):
        return any(names_target(x) for x in node)
    return isinstance(node, n.Node) and any(names_target(x) for x in node.__dict__.values())


def _continues(effects: tuple[n.Effect, ...]) -> bool:
    """Return whether code follows a choice in the same sentence (lowering then keeps ctx.runs)."""
    return any(n.asks(e) and (k + 1 < len(effects) or n.continues_after_choice(e)) for k, e in enumerate(effects))


def _after_choice(e: n.Choose | n.Discard, env: Env, rt: Run) -> None:
    """Carry out what a choice itself does once answered: a discard discards, 'reveal it' reveals."""
    slot = len(env.choices) - 1
    if isinstance(e, n.Discard):
        choices.discard_chosen(rt.s, rt.ctx, slot)
    elif e.revealed:
        choices.reveal(rt.s, rt.ctx, choices.chosen(rt.s, rt.ctx, slot))


def do_choice(e: n.Choose | n.Discard, env: Env, rt: Walk) -> None:
    """Queue a choice while resolving (lower._choice), numbering its slot."""
    slot = len(env.choices)
    if isinstance(e, n.Discard):
        env.choices.append(DISCARD_FILTER)
        players = _you_or(e.player, env, rt)
        amount = value(e.amount, env, rt)
        env.it_chosen = True
        if rt is not None:
            choices.choose(rt.s, rt.ctx, slot, players, amount, by="you" if e.chooser == "your" else "their")
        return
    players = _you_or(e.player, env, rt)
    env.choices.append(make_filter(e.filter, env))
    env.it_chosen = True
    if rt is not None:
        choices.choose(rt.s, rt.ctx, slot, players, e.count, up_to=e.up_to, search=e.searched)


def _happened(sentence: n.Sentence, env: Env, rt: Walk) -> bool:
    """Return whether a sentence that runs has something to act on (lower._happened)."""
    o, fx = acted_on(sentence.effects[0]), primitives(rt)
    if rt is None:
        return False
    if isinstance(o, (n.Target, n.TargetPlayer)):
        return bool(fx.target(rt.s, rt.ctx, len(env.targets)))
    return bool(fx.present(rt.s, objects(o, env.fork(), rt) if o is not None else fx.players(rt.s, rt.ctx, "you")))


def _cost_sentence(sentence: n.Sentence, env: Env, rt: Walk) -> bool:
    """Pay a cost sentence ('you may pay ...' asks first); return whether it was paid."""
    start = env.fork()
    if sentence.mode != "may":
        costs = _costs(sentence.effects, env, rt)
        return fx.pay(rt.s, rt.ctx, costs) if rt else False
    asked = rt if rt is not None and rt.ctx.yes(len(env.mays)) else None
    costs = _costs(sentence.effects, env, asked)  # generated code: `ctx.yes(i) and fx.pay(...)`
    env.mays.append(MaySpec(len(env.mays), _payable(sentence.effects, start)))
    return fx.pay(asked.s, asked.ctx, costs) if asked else False


# ---------------------------------------------------------------- abilities


class Ability:
    """One ability, read by the runtime like an instance of a generated ability class."""

    def __init__(self, a: n.Ability, symbols: Symbols, where: str, params: dict[str, int]):
        self.node = a
        self.where = f"{where}:{a.loc.line}"
        self.kind = ABILITY_KINDS[type(a)]
        self.event = self.phase = ""
        self.scope = Scope("this")
        self.has_condition = False
        self.hurts = symbols.stalemate and not isinstance(a, n.Static) and \
            any(isinstance(e, (n.DealDamage, n.ReduceDirectly)) for st in a.body for e in st.effects)
        self.statics: tuple[StaticEffect, ...] = ()
        self.steps: tuple = ()
        self.once_per_turn = isinstance(a, n.Activated) and a.once_per_turn
        self._price: Callable[[Any, Any, Any], bool] | None = None
        env = Env(symbols, dict(params))
        if isinstance(a, n.Static):
            self.statics = _statics(a, env)
        else:
            self._header(a, env)
            self._condition_env = env.fork()
            cond = getattr(a, "condition", None)
            if cond is not None:
                self.has_condition = True
                test(cond, env, None)
            self._body_env = env.fork()
            self._price = _payable(a.body[0].effects, env.fork()) if _priced(a) else None
            count = body(a.body, env, None)
            # as lower.ability: several steps only where the body is cut (one step: `resolve`)
            self.steps = tuple(self._step(k) for k in range(count)) if count > 1 else ()
        self.targets = tuple(env.targets)
        self.mays = tuple(env.mays)
        self.choice_filters = tuple(env.choices)

    def _header(self, a: n.Ability, env: Env) -> None:
        """Set the event, phase and scope of a triggered or timed ability (lower.ability)."""
        if isinstance(a, n.Triggered):
            spec = event_of(a, env.symbols.kinds)
            env.event_about = spec.about
            self.event = spec.name
            self.scope = _scope(a.subject, env)
        elif isinstance(a, n.Timed):
            self.event = "turn_end" if a.at_end else "phase_start" if a.phase else "turn_start"
            self.phase = a.phase.value if a.phase else ""
            self.scope = Scope("timed", v.WHOSE[a.whose])

    def condition(self, s: Any, ctx: Any) -> bool:
        """Return whether the ability's 'if' condition holds (True without one)."""
        cond = getattr(self.node, "condition", None)
        return True if cond is None else test(cond, self._condition_env.fork(), Run(self, s, ctx))

    def payable(self, s: Any, ctx: Any) -> bool:
        """Return whether an activated ability's cost can be paid now (lower.ability's `payable`)."""
        return self._price is None or self._price(self, s, ctx)

    def resolve(self, s: Any, ctx: Any) -> None:
        """Carry out the ability's effects (its first step, when it has several)."""
        if not isinstance(self.node, n.Static):
            body(self.node.body, self._body_env.fork(), Run(self, s, ctx), 0 if self.steps else None)

    def _step(self, k: int) -> Callable[[Any, Any, Any], None]:
        """Return the function the runtime calls for step k (ability, state, ctx)."""

        def run(ab: Any, s: Any, ctx: Any) -> None:
            body(self.node.body, self._body_env.fork(), Run(self, s, ctx), k)

        return run


def _priced(a: n.Ability) -> bool:
    """Return whether an ability is activated with a cost sentence first (lower.ability's `payable`)."""
    first = a.body[0]
    return isinstance(a, n.Activated) and first.mode == "must_pay" and all(_is_cost(e) for e in first.effects)


def _scope(subject: n.Subject, env: Env) -> Scope:
    """Return whose events a triggered ability listens to."""
    if subject.kind in ("this", "holder"):
        return Scope(subject.kind)
    if subject.kind == "player":
        return Scope("player", v.SUBJECT_PLAYERS[subject.word])
    assert subject.filter is not None
    return Scope("filter", filter=make_filter(subject.filter, env, any_zone=True, other=subject.word == "another"))


def _statics(a: n.Static, env: Env) -> tuple[StaticEffect, ...]:
    """Return the continuous effects of a static ability, numbered as lower._static writes them."""
    out = []
    for sentence in a.body:
        guard_env = env.fork()
        if sentence.condition is not None:
            test(sentence.condition, env, None)
        for e in sentence.effects:
            target = getattr(e, "target", None)  # validation admits only effects with a target here
            check = _applies_fn(sentence.condition, guard_env, target, env.fork())
            applies(target, env, None)  # type: ignore[arg-type]
            out.append(_static_effect(e, env, check))
    return tuple(out)


def _applies_fn(guard: n.Cond | None, guard_env: Env, target: Any, start: Env) -> Callable:
    """Return applies(ab, s, ctx, c): whether c is named, then the sentence's condition (as lower._static)."""

    def check(ab: Any, s: Any, ctx: Any, c: int) -> bool:
        rt = Run(ab, s, ctx, c)
        if not applies(target, start.fork(), rt):
            return False
        return guard is None or bool(test(guard, guard_env.fork(), rt))

    return check


def _amount_fn(e: n.Expr, start: Env, negate: bool) -> Callable[[Any, Any, Any], int]:
    """Return amount(ab, s, ctx) of a static effect."""

    def amount(ab: Any, s: Any, ctx: Any) -> int:
        x = value(e, start.fork(), Run(ab, s, ctx))
        return -x if negate else x

    return amount


def _static_effect(e: n.Effect, env: Env, check: Callable) -> StaticEffect:
    """Return one StaticEffect (lower._static_effect)."""
    match e:
        case n.Modify(sign=sign, amount=a, stat=stat):
            amount = _amount_fn(a, env.fork(), sign != "+")
            value(a, env, None)
            return StaticEffect("modify", check, stat=stat.value, amount=amount)
        case n.Restrict(restriction=r):
            return StaticEffect("flag", check, flag=v.RESTRICTIONS[r])
        case n.Grant(name=name):
            return StaticEffect("grant", check, keyword=name.value)
        case n.ReduceDamage(amount=a, increased=increased):
            amount = _amount_fn(a, env.fork(), increased)
            value(a, env, None)
            return StaticEffect("reduce_damage", check, amount=amount)
        case n.DamageDealtBy(amount=a, increased=increased):
            amount = _amount_fn(a, env.fork(), not increased)
            value(a, env, None)
            return StaticEffect("deal_more", check, amount=amount)
        case n.GrantStatus(value=number, name=name):
            return StaticEffect("grant_status", check, keyword=name.value, value=number)
        case n.RefuseChanges(influence=influence):
            return StaticEffect("refuse_changes", check, value=influence)
        case n.Pierce():
            return StaticEffect("pierce", check)
        case n.RangeShift(amount=a, increased=increased):
            amount = _amount_fn(a, env.fork(), not increased)
            value(a, env, None)
            return StaticEffect("range_shift", check, amount=amount)
        case n.CountsAs(attribute=attribute, value=counted):
            return StaticEffect("counts_as", check, stat=attribute.value, keyword=counted.value)
        case n.DistanceAs(amount=a):
            amount = _amount_fn(a, env.fork(), False)
            value(a, env, None)
            return StaticEffect("distance_as", check, amount=amount)
        case n.BlockedBy(filter=f):
            return StaticEffect("blocked_by", check, filter=make_filter(f, env))
        case n.MustBlock():
            return StaticEffect("flag", check, flag="must_block")
        case n.DamageFloor(stat=stat):
            return StaticEffect("damage_floor", check, stat=stat.value)
    raise TypeError(f"not a static effect: {e!r}")


def abilities(items: tuple[n.Ability, ...], symbols: Symbols, where: str,
              params: dict[str, int]) -> tuple[Ability, ...]:
    """Return the abilities of a card, keyword or status, each with its own Env."""
    return tuple(Ability(a, symbols, where, params) for a in items)


# ---------------------------------------------------------------- cards, keywords, statuses


class Card:
    """A card as the runtime reads a generated CardDef subclass."""

    def __init__(self, card: n.Card, symbols: Symbols, where: str):
        def parts(kind: type) -> list:
            return [p for p in card.parts if isinstance(p, kind)]

        texts = parts(n.TextDecl)
        self.name = card.name
        self.where = f"{where}:{card.loc.line}"
        self.kind = parts(n.KindDecl)[0].kind.value
        self.cost = {i.resource.value: i.amount for d in parts(n.CostDecl) for i in d.items}
        self.stats = {i.stat.value: i.value for d in parts(n.StatsDecl) for i in d.items}
        self.level_stats = {i.stat.value: (i.value, *i.higher) for d in parts(n.StatsDecl) for i in d.items
                            if i.higher}
        self.attributes = {i.attr.value: i.value.value for d in parts(n.AttrsDecl) for i in d.items}
        self.keywords = tuple((k.name.value, k.args) for d in parts(n.KeywordsDecl) for k in d.items)
        self.text = texts[0].text if texts else CardDef.text
        self.rules = render(card)
        self.token = bool(parts(n.TokenDecl))
        slots = parts(n.SlotsDecl)
        self.slots = tuple(x.value for x in slots[0].genres) if slots else CardDef.slots
        ranges = parts(n.RangeDecl)
        self.range = (ranges[0].kind, *ranges[0].values) if ranges else None
        reqs = parts(n.RequiresDecl)
        self.requires = (reqs[0].attr.value, reqs[0].mode, tuple(v.value for v in reqs[0].values)) if reqs else None
        values: dict[str, tuple[str, ...]] = {}
        for i in (i for d in parts(n.AttrsDecl) for i in d.items):
            values[i.attr.value] = values.get(i.attr.value, ()) + (i.value.value,)
        self.attribute_values = values if any(len(v) > 1 for v in values.values()) else {}
        self.abilities = abilities(card.abilities, symbols, where, {})


class Keyword:
    """A keyword as the runtime reads a generated KeywordDef subclass."""

    def __init__(self, kw: n.KeywordDef, symbols: Symbols, where: str):
        params = {p.value: i for i, p in enumerate(kw.params)}
        self.name = kw.name.value
        self.where = f"{where}:{kw.loc.line}"
        self.params = tuple(params)
        self.text = kw.text if kw.text is not None else KeywordDef.text
        self.rules = render(kw)
        self.abilities = abilities(kw.abilities, symbols, where, params)


class Status:
    """A status as the runtime reads a generated StatusDef subclass."""

    def __init__(self, st: n.StatusDef, symbols: Symbols, where: str):
        self.name = st.name.value
        self.where = f"{where}:{st.loc.line}"
        self.stacking, self.consumed, self.lasts = StatusDef.stacking, StatusDef.consumed, StatusDef.lasts
        self.klass = StatusDef.klass
        self.family, self.influence, self.attribute = StatusDef.family, StatusDef.influence, StatusDef.attribute
        for key, setting in st.settings:
            setattr(self, "klass" if key == "class" else key, int(setting) if key == "influence" else setting)
        self.param = st.param.value if st.param is not None else StatusDef.param
        self.text = st.text if st.text is not None else StatusDef.text
        self.rules = render(st)
        self.abilities = abilities(st.abilities, symbols, where, {self.param: 0} if self.param else {})


# ---------------------------------------------------------------- rulesets

RULESET_DEFAULTS = ("title", "players", "first_player", "deck_size", "max_copies", "opening_hand", "kinds",
                    "stats", "blocker", "blocker_side", "trigger_order", "mulligans", "short_deck", "all_lose",
                    "round_limit", "max_level", "overclock_at", "heal_on", "win_stat", "jokers", "life_fill",
                    "skip_missing_targets", "matching_attribute", "actions", "set_zone", "joker_zones",
                    "banned_keywords", "announces_turn_start", "automatic", "last_turn", "launch_turn",
                    "action_right", "type_priority", "judge_first", "budget", "damage_lowers", "interrupts",
                    "damage_threshold", "max_players", "elimination", "actor_turns",
                    "start_on_field", "lines", "collapse", "table_rules", "stalemate", "together", "default_range", "unmet_face_down",
                    "stat_floor", "tokens_leave", "kind_counts", "squares", "stands_behind",
                    "slot_attribute", "shed_attached", "summon_onto", "destroyed_stay", "whole_choice", "search_may_end",
                    "block_rests", "shared_power", "breakthrough", "incapacitated",
                    "checks_deferred", "interruptible", "activated_respond", "flash_time",
                    "battle_steps", "quiet_steps")


class Ruleset:
    """A ruleset as the runtime reads a generated RulesetDef subclass: settings, sentence functions."""

    def __init__(self, rs: n.Ruleset, symbols: Symbols, where: str):
        for key in RULESET_DEFAULTS:
            setattr(self, key, getattr(RulesetDef, key))
        self.name = rs.name.value
        self.where = f"{where}:{rs.loc.line}"
        self.phases: tuple[PhaseDef, ...] = ()
        self.turn_end: tuple = ()
        self._battle_parts: dict[str, tuple] = {}
        for key, setting in read_settings(rs).items():
            setattr(self, key, setting)
        env = Env(symbols)
        for rule in rs.rules:
            if isinstance(rule, n.Turn):
                self.phases, self.turn_end = _turn(rule, env)
            elif isinstance(rule, n.Battle):
                self._battle_rule(rule, env)
            elif isinstance(rule, n.TriggerOrder):
                self.trigger_order = _order(rule.keys)
            elif isinstance(rule, n.Actions):
                self.actions = tuple((i.name.value, i.zone.value if i.zone else "",
                                      _cond_fn(i.cond, env) if i.cond else None, i.kind.value if i.kind else "")
                                     for i in rule.items)
            elif isinstance(rule, n.ActionRight):
                env.event_about = "card"  # 'it' is the swordsman whose key is computed (lower.ruleset_class)
                self.action_right = tuple(_value_fn(k, env) for k in rule.keys)
        self.checks = tuple(_sentence_fn(s, env) for r in rs.rules if isinstance(r, n.Checks) for s in r.body)
        self.checks_deferred = any(isinstance(r, n.Checks) and r.deferred for r in rs.rules)
        self.lose_rules = tuple(_cond_fn(r.cond, env) for r in rs.rules if isinstance(r, n.LoseRule))

    def _battle_rule(self, battle: n.Battle, env: Env) -> None:
        """Set the blocker and the battle bodies, numbered in lowering's order (lower._battle)."""
        assert isinstance(battle.blocker, (n.Extreme, n.ChosenBlocker))
        self.blocker = make_filter(battle.blocker.filter, env)
        self.blocker_side = battle.blocker.side[:-4] if isinstance(battle.blocker, n.Extreme) else \
            "many" if battle.blocker.many else "chosen"
        if battle.steps:
            self.battle_steps = tuple(x.value for x in battle.steps)
        self.quiet_steps = tuple(x.value for x in battle.quiet)
        parts = {"blocked": battle.blocked, "unblocked": battle.unblocked}
        if battle.win_stat is not None:
            self.win_stat = battle.win_stat.value
            parts["won"] = battle.won
        if battle.end:
            parts["battle_end"] = battle.end
        self._battle_parts = {}
        for name, sentences in parts.items():
            self._battle_parts[name] = (sentences, env.fork())
            body(sentences, env, None)

    def _run_part(self, name: str, s: Any, ctx: Any) -> None:
        if name in self._battle_parts:
            sentences, start = self._battle_parts[name]
            body(sentences, start.fork(), Run(self, s, ctx))

    def blocked(self, s: Any, ctx: Any) -> None:
        """Carry out a blocked attack."""
        self._run_part("blocked", s, ctx)

    def unblocked(self, s: Any, ctx: Any) -> None:
        """Carry out an unblocked attack."""
        self._run_part("unblocked", s, ctx)

    def won(self, s: Any, ctx: Any) -> None:
        """Carry out what follows a won battle (after battle damage)."""
        self._run_part("won", s, ctx)

    def battle_end(self, s: Any, ctx: Any) -> None:
        """Carry out the end of a battle."""
        self._run_part("battle_end", s, ctx)


def _sentence_fn(sentence: n.Sentence, env: Env) -> Callable[[Any, Any, Any], None]:
    """Return fn(rs, s, ctx) carrying out one ruleset sentence, numbered on the ruleset's Env."""
    start = env.fork()
    body((sentence,), env, None)

    def run(rs: Any, s: Any, ctx: Any) -> None:
        body((sentence,), start.fork(), Run(rs, s, ctx))

    return run


def _cond_fn(cond: n.Cond, env: Env) -> Callable[[Any, Any, Any], bool]:
    """Return fn(rs, s, ctx) testing a ruleset condition (a lose rule: for the player in ctx)."""
    start = env.fork()
    test(cond, env, None)

    def lose(rs: Any, s: Any, ctx: Any) -> bool:
        return test(cond, start.fork(), Run(rs, s, ctx))

    return lose


def _value_fn(e: n.Expr, env: Env) -> Callable[[Any, Any, Any], int]:
    """Return fn(rs, s, ctx) computing a ruleset expression (a key of the action right)."""
    start = env.fork()
    value(e, env, None)
    return lambda rs, s, ctx: value(e, start.fork(), Run(rs, s, ctx))


def _turn(turn: n.Turn, env: Env) -> tuple[tuple[PhaseDef, ...], tuple]:
    """Return the phases (steps of sentence functions) and the turn-end sentence functions."""
    phases = []
    for phase in turn.phases:
        steps = [(st.name.value, st.body) for st in phase.steps] or [("", phase.body)]
        parts: Any = tuple((step, tuple(_sentence_fn(s, env) for s in sentences)) for step, sentences in steps)
        phases.append(PhaseDef(phase.name.value, parts))
    return tuple(phases), tuple(_sentence_fn(s, env) for s in turn.turn_end)


# ---------------------------------------------------------------- the entry point

ITEMS: dict[type, Any] = {n.Card: Card, n.KeywordDef: Keyword, n.StatusDef: Status}


def interpret_ruleset(files: list[n.File], symbols: Symbols) -> Game:
    """Return a Game whose definitions interpret the files' AST; raise CompileError if they are invalid."""
    ruleset, tables = interpreted_items(files, symbols, ITEMS)
    return Game(ruleset, tables[n.Card], tables[n.KeywordDef], tables[n.StatusDef])


def interpreted_items(files: list[n.File], symbols: Symbols,
                      items: dict[type, Any]) -> tuple[Any, dict[type, dict[str, Any]]]:
    """Return the interpreted ruleset and, per item type of `items`, its definitions by name (sorted);
    raise CompileError if the files are invalid."""
    problems = validate(files, symbols)
    if problems:
        raise CompileError(problems)
    tables: dict[type, dict[str, Any]] = {kind: {} for kind in items}
    ruleset: Any = None
    for f in files:
        where = PurePosixPath(f.path).name
        for item in f.items:
            if isinstance(item, n.Ruleset):
                ruleset = Ruleset(item, symbols, where)
            elif type(item) in items:
                key = item.name if isinstance(item, n.Card) else item.name.value
                tables[type(item)][key] = items[type(item)](item, symbols, where)
    return ruleset, {kind: dict(sorted(table.items())) for kind, table in tables.items()}
