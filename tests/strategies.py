"""Hypothesis strategies for the card language: well-formed ASTs (printed with cardc fmt's printer)
and token soup. Every AST drawn here is one the parser can produce.
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import strategies as st

from compiler import nodes as n
from runtime import vocabulary as v

L = n.NOWHERE
GRAMMAR = (Path(__file__).resolve().parent.parent / "grammar" / "cards.lark").read_text(encoding="utf-8")
KEYWORDS = sorted(set(re.findall(r'"([^"\s]+)"', GRAMMAR)))
_RESERVED = set(KEYWORDS)
EVENT_PHRASES = sorted(v.EVENT_PHRASES)
PLAYER_WORDS = sorted(v.PLAYER_WORDS)
POSSESSIVES = sorted(v.POSSESSIVES)
CONTROLS = sorted(v.CONTROL_WORDS)

words = st.from_regex(r"[A-Za-z][A-Za-z0-9_'-]{0,7}", fullmatch=True).filter(lambda w: w not in _RESERVED)
names = words.map(lambda w: n.Name(L, w))
ints = st.integers(0, 10**6)
texts = st.text(max_size=40)
bounds = st.sampled_from(["more", "less"])
roundings = st.sampled_from(["up", "down"])


def _player() -> st.SearchStrategy:
    return st.one_of(st.sampled_from(PLAYER_WORDS).map(lambda w: n.PlayerRef(L, w)), st.just(n.TargetPlayer(L)))


refs = st.one_of(
    st.just(n.This(L)), st.just(n.It(L)), names.map(lambda x: n.EventObject(L, x)), st.just(n.Attacker(L)),
    st.just(n.Blocker(L)), st.sampled_from(PLAYER_WORDS).map(lambda w: n.PlayerRef(L, w)))
zones = st.builds(lambda p, z: n.ZoneRef(L, p, z), st.sampled_from(POSSESSIVES), names)
plain_filters = st.builds(lambda k, c, z: n.Filter(L, k, c, z, ()), names,
                          st.none() | st.sampled_from(CONTROLS), st.none() | zones)


def expressions(depth: int = 2) -> st.SearchStrategy:
    leaves = st.one_of(
        ints.map(lambda i: n.Number(L, i)), names.map(lambda x: n.Param(L, x)),
        st.builds(lambda s, r: n.StatOf(L, s, r), names, refs),
        st.builds(lambda p, s: n.StatOwn(L, p, s), st.sampled_from(POSSESSIVES), names),
        plain_filters.map(lambda f: n.Count(L, f)),
        st.builds(lambda s, r: n.Stacks(L, s, r), names, refs),
        st.just(n.EventAmount(L)), st.just(n.TurnNumber(L)),
        st.sampled_from(POSSESSIVES).map(lambda p: n.OwnTurnNumber(L, p)))
    if depth == 0:
        return leaves
    sub = expressions(depth - 1)
    return st.one_of(
        leaves,
        st.builds(lambda o, a, b: n.BinOp(L, o, a, b), st.sampled_from("+-*"), sub, sub),
        st.builds(lambda a, b, r: n.Div(L, a, b, r), sub, sub, roundings),
        sub.map(lambda a: n.Neg(L, a)),
        st.builds(lambda f, a, b: n.Call(L, f, (a, b)), st.sampled_from(["min", "max"]), sub, sub),
        st.builds(lambda a, r: n.Half(L, a, r), sub, roundings))


exprs = expressions()
with_conds = st.one_of(
    st.builds(lambda a, o, b: n.Compare(L, a, o, b), exprs, st.sampled_from([">=", "<=", "==", "!=", ">", "<"]),
              exprs),
    st.builds(lambda s, i, b: n.StatBound(L, s, i, b), names, ints, bounds),
    names.map(lambda x: n.Lacks(L, x)), names.map(lambda x: n.HasSelf(L, x)))
filters = st.builds(lambda k, c, z, w: n.Filter(L, k, c, z, tuple(w)), names,
                    st.none() | st.sampled_from(CONTROLS), st.none() | zones, st.lists(with_conds, max_size=2))
objects = st.one_of(
    refs,
    st.builds(lambda c, u, f: n.Target(L, c, u, f), st.integers(1, 5), st.booleans(), filters),
    st.just(n.TargetPlayer(L)), filters.map(lambda f: n.Each(L, f)),
    st.builds(lambda s, f: n.Extreme(L, s, f), st.sampled_from(["leftmost", "rightmost"]), filters),
    filters.map(lambda f: n.RandomOne(L, f)))
# 'give' takes cards only: a player word before a keyword name is not in the grammar
give_objects = objects.filter(lambda o: not isinstance(o, (n.PlayerRef, n.TargetPlayer)))


def conditions(depth: int = 2) -> st.SearchStrategy:
    atoms = st.one_of(
        st.builds(lambda a, o, b: n.Compare(L, a, o, b), exprs, st.sampled_from([">=", "<=", "==", "!=", ">", "<"]),
                  exprs),
        st.builds(lambda a, b, c: n.AtBound(L, a, b, c), exprs, exprs, bounds),
        st.builds(lambda o, x: n.Has(L, o, x), objects, names),
        st.builds(lambda p, q, f: n.Controls(L, p, q, f), _player(), st.sampled_from(["a", "an", "no"]),
                  plain_filters))
    if depth == 0:
        return atoms
    sub = conditions(depth - 1)
    return st.one_of(atoms, st.builds(lambda a, b: n.AllOf(L, a, b), sub, sub),
                     st.builds(lambda a, b: n.AnyOf(L, a, b), sub, sub), sub.map(lambda a: n.Negation(L, a)))


conds = conditions()
durations = st.none() | st.sampled_from(v.DURATIONS).map(lambda d: n.Duration(L, d))
players = st.none() | _player()
amount_or_all = st.none() | exprs
order_keys = st.one_of(
    names.map(lambda x: n.OrderKey(L, "stat", (x,))),
    st.lists(names, min_size=1, max_size=3).map(lambda xs: n.OrderKey(L, "kind", tuple(xs))),
    st.sampled_from(["turn_player", "position"]).map(lambda k: n.OrderKey(L, k, ())))
orders = st.lists(order_keys, min_size=1, max_size=3).map(tuple)

effects = st.one_of(
    st.builds(lambda a, t: n.DealDamage(L, a, t), exprs, objects),
    objects.map(lambda t: n.Destroy(L, t)),
    st.builds(lambda p, a: n.Draw(L, p, a), players, exprs),
    st.builds(lambda p, a, r: n.Gain(L, p, a, r), players, exprs, names),
    st.builds(lambda p, a, r: n.Lose(L, p, a, r), players, amount_or_all, names),
    st.builds(lambda a, r: n.Pay(L, a, r), exprs, names),
    st.builds(lambda t, x, d: n.Give(L, t, x, d), give_objects, names, durations),
    st.builds(lambda a, x, t, d: n.PutStatus(L, a, x, t, d), exprs, names, objects, durations),
    st.builds(lambda a, x, t: n.Remove(L, a, x, t), amount_or_all, names, objects),
    objects.map(lambda t: n.RemoveDamage(L, t)),
    objects.map(lambda t: n.ReturnToHand(L, t)),
    st.builds(lambda t, s: n.MoveToEnd(L, t, s), objects, st.sampled_from(["left", "right"])),
    st.builds(lambda p, a, c: n.CreateToken(L, p, a, c), players, exprs, texts),
    st.builds(lambda p, a: n.Discard(L, p, a), players, exprs),
    st.builds(lambda t, s, a, x, d: n.Modify(L, t, s, a, x, d), objects, st.sampled_from("+-"), exprs, names,
              durations),
    st.builds(lambda t, r, d: n.Restrict(L, t, r, d), objects, st.sampled_from(sorted(v.RESTRICTIONS)),
              durations),
    st.builds(lambda t, x: n.Grant(L, t, x), objects, names),
    st.builds(lambda t, a: n.ReduceDamage(L, t, a), objects, exprs),
    st.just(n.Stage(L)),
    st.builds(lambda ks, o: n.PlayStaged(L, tuple(ks), o), st.lists(names, min_size=1, max_size=3), orders),
    st.builds(lambda f, o: n.AttackAll(L, f, o), filters, orders))


@st.composite
def sentences(draw) -> n.Sentence:
    mode = draw(st.sampled_from(["do", "do", "may", "must_pay", "if_you_do", "if_you_dont"]))
    condition = draw(st.none() | conds) if mode == "do" else None
    return n.Sentence(L, mode, condition, tuple(draw(st.lists(effects, min_size=1, max_size=3))))


bodies = st.lists(sentences(), min_size=1, max_size=4).map(tuple)
subjects = st.one_of(
    st.just(n.Subject(L, "this", "this", None)),
    st.sampled_from(PLAYER_WORDS).map(lambda w: n.Subject(L, "player", w, None)),
    st.builds(lambda a, f: n.Subject(L, "filter", a, f), st.sampled_from(["a", "an", "any"]), filters))
abilities = st.one_of(
    st.builds(lambda s, e, c, b: n.Triggered(L, s, e, c, b), subjects, st.sampled_from(EVENT_PHRASES),
              st.none() | conds, bodies),
    st.builds(lambda w, p, c, b: n.Timed(L, w, p, c, b), st.sampled_from(sorted(v.WHOSE)), st.none() | names,
              st.none() | conds, bodies),
    bodies.map(lambda b: n.Static(L, b)), bodies.map(lambda b: n.SpellEffect(L, b)))

card_parts = st.one_of(
    names.map(lambda k: n.KindDecl(L, k)),
    st.lists(st.builds(lambda i, r: n.CostItem(L, i, r), ints, names), min_size=1, max_size=2).map(
        lambda xs: n.CostDecl(L, tuple(xs))),
    st.lists(st.builds(lambda s, i: n.StatItem(L, s, i), names, st.integers(-99, 99)), min_size=1,
             max_size=3).map(lambda xs: n.StatsDecl(L, tuple(xs))),
    st.lists(st.builds(lambda a, b: n.AttrItem(L, a, b), names, names), min_size=1, max_size=2).map(
        lambda xs: n.AttrsDecl(L, tuple(xs))),
    st.lists(st.builds(lambda k, a: n.KeywordUse(L, k, tuple(a)), names, st.lists(ints, max_size=2)),
             min_size=1, max_size=3).map(lambda xs: n.KeywordsDecl(L, tuple(xs))),
    texts.map(lambda t: n.TextDecl(L, t)), st.just(n.TokenDecl(L)))
cards = st.builds(lambda name, parts, abil: n.Card(L, name, tuple(parts), tuple(abil)), texts,
                  st.lists(card_parts, max_size=5), st.lists(abilities, max_size=3))
keyword_defs = st.builds(lambda x, ps, t, abil: n.KeywordDef(L, x, tuple(ps), t, tuple(abil)), names,
                         st.lists(names, max_size=2), st.none() | texts, st.lists(abilities, max_size=2))
status_settings = st.lists(st.one_of(
    st.sampled_from(v.STATUS_SETTINGS["stacking"]).map(lambda x: ("stacking", x)),
    st.sampled_from(v.STATUS_SETTINGS["consumed"]).map(lambda x: ("consumed", x)),
    st.sampled_from(["permanently", "until end of turn"]).map(lambda x: ("lasts", x)),
    st.integers(1, 9).map(lambda i: ("lasts", f"{i} turns"))), max_size=3).map(tuple)
status_defs = st.builds(lambda x, s, t, abil: n.StatusDef(L, x, s, t, tuple(abil)), names, status_settings,
                        st.none() | texts, st.lists(abilities, max_size=2))
files = st.lists(st.one_of(cards, keyword_defs, status_defs), max_size=3).map(
    lambda items: n.File(L, "<generated>", tuple(items)))

token_soup = st.lists(st.one_of(st.sampled_from(KEYWORDS), words, ints.map(str), st.sampled_from(
    ['"x"', "{", "}", ":", ".", ",", "(", ")", "+", "-", "*", "/", ">=", "\n", "#c\n"])), max_size=40).map(" ".join)
