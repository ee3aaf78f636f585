"""Rules text: a card's abilities (and a keyword's, a status's, an enchantment's) said back in English.

Public entry points: `render(item) -> str`, one line per keyword and ability in the item's order, and
`render_ability(ability, me) -> str` for one ability. The text comes from the AST alone, never from the
card's hand-written `text`, so that the two can be compared (compiler/rules_check.py). Deterministic:
the same item gives the same text.
"""

from __future__ import annotations

from compiler import fmt
from compiler import nodes as n
from compiler.rules_terms import Words, capital, polish, spaced, times

THIS = "this card"  # how a keyword, a status or an enchantment names the card it is on
STACKING = {"once": "It does not stack.", "refresh": "A new one replaces the old one.", "stacks": ""}
CONSUMED = {"on trigger": "One is removed each time it triggers.", "never": ""}


def sentence(s: n.Sentence, words: Words) -> str:
    """Return one sentence of a body, with its lead words ('you may', 'if you do,') and its 'where' clause."""
    text = fmt.sentence(words.rewrite(s))
    return polish(text[:-1]) + words.where() + "."


def body(sentences: tuple[n.Sentence, ...], words: Words, lead: str = "") -> str:
    """Return a body: its sentences, the first after the lead ('When X attacks, ...'), each capitalised."""
    said = [sentence(s, words) for s in sentences]
    first = f"{lead}{said[0]}" if said else lead.rstrip(", ") + "."
    return " ".join(capital(x) for x in [first, *said[1:]])


def _condition(c: n.Cond | None, words: Words) -> str:
    return f"if {polish(fmt.cond(words.rewrite(c, amounts=False)))}, " if c is not None else ""


def _subject(s: n.Subject, words: Words) -> str:
    """Return who a trigger is about: the card's name, 'a creature you control', 'an opponent'."""
    if s.kind == "this":
        return words.me
    if s.kind == "holder":
        return "its holder"
    return f"{s.word} {fmt.filter_(words.rewrite(s.filter))}" if s.filter is not None else s.word


def _head(a: n.Ability | n.Hook | n.Rider, words: Words) -> str:
    """Return what comes before an ability's effects: 'When X attacks, ', 'At the start of your turn, '."""
    match a:
        case n.Triggered(subject=subject, event=event, condition=c):
            return f"When {_subject(subject, words)} {event}, {_condition(c, words)}"
        case n.Timed(whose=whose, at_end=True, condition=c):
            return f"At the end of {whose} turn, {_condition(c, words)}"
        case n.Timed(whose=whose, phase=phase, condition=c):
            what = f"{phase.value} phase" if phase is not None else "turn"
            return f"At the start of {whose} {what}, {_condition(c, words)}"
        case n.Activated(once_per_turn=once, condition=c):
            when = " only" + _condition(c, words).removesuffix(", ") if c is not None else ""
            return f"Activate{' once per turn' if once else ''}{',' if once and when else ''}{when}: "
        case n.SpellEffect(repeat=repeat) if repeat != 1:
            return f"{capital(times(repeat))}: "
        case n.Hook(event=event):
            return f"Whenever {_hook_event(event, words)}, "
        case n.Rider(condition=c):
            return f"After each hit, {_condition(c, words)}"
    return ""


def _hook_event(event: str, words: Words) -> str:
    """Return a hook's event with 'this' named: 'this card would act'."""
    return words.me + event[4:] if event.startswith("this ") else event


def render_ability(a: n.Ability | n.Hook | n.Rider, me: str = THIS, params: frozenset[str] = frozenset()) -> str:
    """Return one ability as one line of rules text; `me` is how it names its card."""
    words = Words(me, params)
    return body(a.body, words, _head(a, words))


def keyword_use(k: n.KeywordUse) -> str:
    """Return a keyword as a card prints it: 'Shellplate 1.', 'Delayed 4.'."""
    return f"{spaced(k.name.value)}{''.join(f' {x}' for x in k.args)}."


def _range(r: n.RangeDecl) -> str:
    """Return 'Range 3.', 'Range 2 to 3.' or 'Range 3 and 5.'."""
    if r.kind == "to":
        return f"Range {r.values[1]}." if r.values[0] == 0 else f"Range {r.values[0]} to {r.values[1]}."
    return f"Range {' and '.join(map(str, r.values))}."


def _card(card: n.Card) -> list[str]:
    lines = [_range(p) for p in card.parts if isinstance(p, n.RangeDecl)]
    lines += [keyword_use(k) for p in card.parts if isinstance(p, n.KeywordsDecl) for k in p.items]
    return lines + [render_ability(a, card.name) for a in card.abilities]


def _head_line(name: n.Name, params: tuple[n.Name, ...]) -> str:
    return spaced(name.value) + "".join(f" {p.value.upper()}" for p in params)


def _keyword(kw: n.KeywordDef) -> list[str]:
    params = frozenset(p.value for p in kw.params)
    return [_head_line(kw.name, kw.params)] + [render_ability(a, THIS, params) for a in kw.abilities]


def _status(st: n.StatusDef) -> list[str]:
    params = frozenset([st.param.value]) if st.param is not None else frozenset()
    lines = [_head_line(st.name, (st.param,) if st.param is not None else ())]
    lines += [x for x in (_setting(k, v) for k, v in st.settings) if x]
    return lines + [render_ability(a, THIS, params) for a in (*st.abilities, *st.hooks)]


def _setting(key: str, value: str) -> str:
    """Return a status setting in words ('' for a default that goes without saying)."""
    match key:
        case "stacking":
            return STACKING.get(value, f"Stacking: {value}.")
        case "consumed":
            return CONSUMED.get(value, f"Consumed {value}.")
        case "lasts":
            return "" if value == "permanently" else f"It lasts for {value}."
        case "class":
            return f"It is {'an' if value[:1] in 'aeiou' else 'a'} {value} state."
    return f"{capital(key)}: {polish(value)}."


def _enchantment(e: n.EnchantmentDef) -> list[str]:
    params = frozenset(p.value for p in e.params)
    words = Words(THIS, params)
    lines = [_head_line(e.name, e.params)]
    if e.launch is not None:
        lines.append(body((), words, f"Usable from turn {fmt.expr(words.rewrite(e.launch, amounts=False))}"))
    if e.shift:
        turns = "turn" if abs(e.shift) == 1 else "turns"
        lines.append(f"Each one makes its sword usable {abs(e.shift)} {turns} {'earlier' if e.shift < 0 else 'later'}.")
    lines += ["The sword vanishes when used."] if e.vanishes else []
    lines += [f"Executed only {_condition(e.executable, words).removesuffix(', ')}."] if e.executable else []
    if e.mp_cost is not None:
        lines.append(f"Each execution costs {fmt.expr(words.rewrite(e.mp_cost[0], amounts=False))} {e.mp_cost[1].value}.")
    lines += ["Its sword targets every enemy or every ally."] if e.whole else []
    lines += [x for x in [STACKING.get(e.stacking, "")] if x]
    return lines + [render_ability(r, THIS, params) for r in e.riders]


def render(item: n.Card | n.KeywordDef | n.StatusDef | n.EnchantmentDef) -> str:
    """Return an item's rules text, one line per keyword and ability ('' for a card with neither)."""
    match item:
        case n.Card():
            return "\n".join(_card(item))
        case n.KeywordDef():
            return "\n".join(_keyword(item))
        case n.StatusDef():
            return "\n".join(_status(item))
        case n.EnchantmentDef():
            return "\n".join(_enchantment(item))
    raise TypeError(f"no rules text for {type(item).__name__}")
