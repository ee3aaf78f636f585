"""The reference interpreter for automatic battles: swords, swordsmen, enchantments and state hooks.

Part of compiler/interpret.py, as compiler/lower_battle.py is part of compiler/lower.py. Public entry
point: `interpret_battle_rules(files, symbols) -> Rules`, the definitions the battle runtime
(runtime/battle/) reads, with the attributes and methods of the classes lowering writes into
generated/<ruleset>/. Their methods walk the AST with compiler/interpret.py's `body` and
compiler/interpret_terms.py's terms, which call runtime/battle/effects.py inside a battle.

Every method starts from a copy of the Env its generated code was written in, numbered in the order
lower_battle.py writes it: a sword's per-target sentences then its independent ones; an
enchantment's launch turn, condition, cost, then each rider's body before the rider's condition;
a state's hooks in file order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from compiler import nodes as n
from compiler.interpret import Status, _cond_fn, _value_fn, body, interpreted_items
from compiler.interpret_terms import Env, Run
from compiler.rules_text import render
from compiler.symbols import Symbols
from runtime import vocabulary as v
from runtime.battle.rules import Rules
from runtime.defs import CardDef, EnchantmentDef

Method = Callable[[Any, Any, Any], Any]  # fn(self, s, ctx), as a generated method is called unbound
# Language §8, read here on its own (lowering has its own copy): inside one hit, the hit's own sentences
# come first, then the tight ones ('furthermore'), then the loose ones ('and then'); the other modes
# ('separately') run once, after every target.
PER_TARGET = {"do": 0, "tight": 1, "loose": 2}

# ---------------------------------------------------------------- walked methods


@dataclass
class Script:
    """Sentences and the Env their generated method was written in."""

    sentences: tuple[n.Sentence, ...]
    start: Env

    @classmethod
    def walk(cls, sentences: tuple[n.Sentence, ...], env: Env) -> Script:
        """Return the script of sentences written at env, which then walks on past them."""
        start = env.fork()
        body(sentences, env, None)
        return cls(sentences, start)

    def run(self, ab: Any, s: Any, ctx: Any) -> None:
        """Carry out the sentences as the method of ab."""
        body(self.sentences, self.start.fork(), Run(ab, s, ctx))


def _optional(term: Any, env: Env, fn: Callable[[Any, Env], Method], default: Any) -> Method:
    """Return fn(self, s, ctx) of an optional term (a method lowering writes only for one), else default."""
    return fn(term, env) if term is not None else lambda ab, s, ctx: default


# ---------------------------------------------------------------- swords and swordsmen


class Sword:
    """A sword or swordsman card as the battle runtime reads a class of lower_battle.sword_class."""

    def __init__(self, card: n.Card, symbols: Symbols, where: str):
        def parts(kind: type) -> list:
            return [p for p in card.parts if isinstance(p, kind)]

        texts = parts(n.TextDecl)
        self.name, self.where = card.name, f"{where}:{card.loc.line}"
        self.kind = parts(n.KindDecl)[0].kind.value
        self.stats = {i.stat.value: i.value for d in parts(n.StatsDecl) for i in d.items}
        self.keywords = tuple((k.name.value, k.args) for d in parts(n.KeywordsDecl) for k in d.items)
        self.names = tuple(x for d in parts(n.NamesDecl) for x in d.names)
        self.swords = tuple(x for d in parts(n.SwordsDecl) for x in d.names)
        self.text = texts[0].text if texts else CardDef.text
        self.rules = render(card)
        self.token, self.subtarget = bool(parts(n.TokenDecl)), bool(parts(n.SubtargetDecl))
        self.repeat = CardDef.repeat
        self._each: Script | None = None
        self._after: Script | None = None
        self._effect([a for a in card.abilities if isinstance(a, n.SpellEffect)], Env(symbols))

    def _effect(self, effects: list[n.SpellEffect], env: Env) -> None:
        """Walk the effect: per-target sentences (hit, tight, loose), then the independent ones."""
        for effect in effects:
            self.repeat = effect.repeat
            per_target = sorted((s for s in effect.body if s.mode in PER_TARGET), key=_per_target_rank)
            after = tuple(s for s in effect.body if s.mode not in PER_TARGET)
            self._each = Script.walk(tuple(per_target), env)
            self._after = Script.walk(after, env) if after else None

    def each_target(self, s: Any, ctx: Any) -> None:
        """Carry out the effect on one target, once."""
        if self._each is not None:
            self._each.run(self, s, ctx)

    def afterwards(self, s: Any, ctx: Any) -> None:
        """Carry out the independent sentences, after every target."""
        if self._after is not None:
            self._after.run(self, s, ctx)


def _per_target_rank(sentence: n.Sentence) -> int:
    """Return where a sentence goes inside one hit: the hit's own, then tight, then loose (§8)."""
    return PER_TARGET[sentence.mode]


# ---------------------------------------------------------------- enchantments


class Enchantment:
    """An enchantment as the battle runtime reads a class of lower_battle.enchantment_class."""

    def __init__(self, e: n.EnchantmentDef, symbols: Symbols, where: str):
        params = {p.value: i for i, p in enumerate(e.params)}
        env = Env(symbols, dict(params))
        self.name, self.where, self.params = e.name.value, f"{where}:{e.loc.line}", tuple(params)
        self.stacking, self.shift, self.vanishes, self.whole = e.stacking, e.shift, e.vanishes, e.whole
        self.text = e.text if e.text is not None else EnchantmentDef.text
        self.rules = render(e)
        self.cost_value = e.mp_cost[1].value if e.mp_cost is not None else EnchantmentDef.cost_value
        self._launch = _optional(e.launch, env, _value_fn, None)
        self._executable = _optional(e.executable, env, _cond_fn, True)
        self._cost = _optional(e.mp_cost[0] if e.mp_cost is not None else None, env, _value_fn, 0)
        self._riders = tuple(_rider(r, env) for r in e.riders)

    def launch_turn(self, s: Any, ctx: Any) -> int | None:
        """Return the turn the sword launches from, or None when this enchantment does not say."""
        return self._launch(self, s, ctx)

    def executable(self, s: Any, ctx: Any) -> bool:
        """Return whether the enchantment lets its sword be executed now."""
        return self._executable(self, s, ctx)

    def cost(self, s: Any, ctx: Any) -> int:
        """Return how much of cost_value executing the sword takes."""
        return self._cost(self, s, ctx)

    def after_hit(self, s: Any, ctx: Any) -> None:
        """Carry out every rider ('after each hit ...') whose condition holds, in file order."""
        for rider in self._riders:
            rider(self, s, ctx)


def _rider(rider: n.Rider, env: Env) -> Method:
    """Return fn(self, s, ctx) of a rider: lowering writes its body first, then the 'if' around it."""
    script = Script.walk(rider.body, env)
    holds = _optional(rider.condition, env, _cond_fn, True)

    def run(ab: Any, s: Any, ctx: Any) -> None:
        if holds(ab, s, ctx):
            script.run(ab, s, ctx)

    return run


# ---------------------------------------------------------------- states


class State(Status):
    """A status of an automatic battle: its settings, and hooks (battle step -> fn(state, s, ctx))."""

    def __init__(self, st: n.StatusDef, symbols: Symbols, where: str):
        super().__init__(st, symbols, where)
        env = Env(symbols)  # one Env for every hook, as lower_battle.hooks_of writes them
        scripts: dict[str, list[Script]] = {}
        for hook in st.hooks:
            scripts.setdefault(v.HOOKS[hook.event], []).append(Script.walk(hook.body, env))
        self.hooks = {step: _hook(found) for step, found in scripts.items()}


def _hook(scripts: list[Script]) -> Method:
    """Return the hook of one battle step: every 'whenever' of the state for it, in file order."""

    def run(st: Any, s: Any, ctx: Any) -> None:
        for script in scripts:
            script.run(st, s, ctx)

    return run


# ---------------------------------------------------------------- the entry point

ITEMS: dict[type, Any] = {n.Card: Sword, n.StatusDef: State, n.EnchantmentDef: Enchantment}


def interpret_battle_rules(files: list[n.File], symbols: Symbols) -> Rules:
    """Return the Rules of a battle ruleset, interpreting its AST; raise CompileError if it is invalid."""
    ruleset, tables = interpreted_items(files, symbols, ITEMS)
    return Rules(ruleset, tables[n.Card], tables[n.StatusDef], tables[n.EnchantmentDef])
