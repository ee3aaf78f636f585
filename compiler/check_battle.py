"""Stage 2, automatic battles: the checks that only rulesets saying 'battles are automatic' need.

Mixed into compiler/check.Checker, which calls these methods where a battle ruleset differs from a
card game: its required lines, sword and swordsman cards, enchantments, state hooks and the terms
that only mean something inside an action ('the target', 'the damage', 'the sender').
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from compiler import nodes as n
from compiler.diagnostics import did_you_mean, quoted_list
from compiler.symbols import Scope, Symbols
from runtime import vocabulary as v

SKIP = "skip"  # the type of an action that executes no sword (§7.4)
WHERE = {"status": "a state's hook", "sword": "this sword's effect", "enchantment": "an enchantment",
         "ruleset": "a ruleset line"}  # how messages name a scope's owner


def a(word: str) -> str:
    """Return a word with its indefinite article ('an attack', 'a swordsman')."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}" if word else "a card with no kind"


@dataclass
class BattleChecks:
    """Checker methods for automatic battles (see compiler/check.py for error() and known())."""

    sym: Symbols

    if TYPE_CHECKING:  # provided by compiler.check.Checker
        def error(self, code: str, message: str, node: n.Node) -> None: ...
        def known(self, name: n.Name, what: str, table: Any) -> bool: ...
        def term(self, t: n.Node, scope: Scope) -> None: ...
        def cond(self, c: n.Cond, scope: Scope) -> None: ...
        def body(self, sentences: tuple[n.Sentence, ...], scope: Scope) -> None: ...
        def abilities(self, items: tuple[n.Ability, ...], scope: Scope) -> None: ...

    def sword_kinds(self) -> tuple[str, ...]:
        """Return the kinds that count as swords."""
        rules = self.sym.ruleset.rules if self.sym.ruleset is not None else ()
        return tuple(r.kind.value for r in rules if isinstance(r, n.KindRule) and "counts as sword" in r.traits)

    def values(self) -> tuple[str, ...]:
        """Return every number a swordsman has: the ruleset's stats, then HP, MP, AP and reserve AP."""
        return tuple(self.sym.stats) + v.SWORDSMAN_VALUES

    def battle_ruleset(self, rs: n.Ruleset) -> None:
        keys = {r.key for r in rs.rules if isinstance(r, n.Setting)}
        for required in ("players", "kinds", "launch turn", "type priority"):
            if required not in keys:
                self.error("E103", f"ruleset '{rs.name.value}' has no '{required}' line", rs)
        if not any(isinstance(r, n.ActionRight) for r in rs.rules):
            self.error("E103", f"ruleset '{rs.name.value}' has no 'action right' line", rs)
        if "swordsman" not in self.sym.kinds:
            self.error("E103", f"ruleset '{rs.name.value}' declares no 'swordsman' kind", rs)
        for r in rs.rules:
            if isinstance(r, n.Setting) and r.key == "automatic" and r.values[0] != 0:
                self.error("E105", f"battles start at turn 0 (the phenomenon period before the first action "
                                   f"count); found 'from turn {r.values[0]}'", r)
            elif isinstance(r, n.Setting) and r.key == "automatic" and r.values[1] == 0:
                self.error("E105", "the last turn must be 1 or later; found 'to turn 0'", r)

    def battle_only(self, what: str, node: n.Node) -> None:
        """Report a part of the language that only automatic battles use."""
        self.error("E106", f"{what} belongs to automatic battles (a ruleset with 'battles are automatic')", node)

    def battle_rule(self, rule: n.Rule, scope: Scope) -> bool:
        """Check a battle-only ruleset line; return whether it was one."""
        match rule:
            case n.ActionRight(keys=keys):
                for key in keys:
                    self.term(key, replace(scope, event_about="card"))
            case n.Budget(buys=buys):
                for name, _count in buys:
                    if name != "sword" and name not in self.sym.stats:
                        self.error("E101", f"unknown stat '{name}' in the budget{did_you_mean(name, self.sym.stats)}",
                                   rule)
            case n.Setting(key="type priority", values=kinds):
                known = [self.known(k, "sword kind", self.sword_kinds()) for k in kinds
                         if isinstance(k, n.Name) and k.value != SKIP]
                listed = {k.value if isinstance(k, n.Name) else str(k) for k in kinds}
                missing = [k for k in (SKIP, *self.sword_kinds()) if k not in listed]
                if missing and all(known):  # a misspelt kind is reported once, as unknown
                    self.error("E103", f"'type priority' leaves out {quoted_list(missing)}; every action type "
                                       f"needs a place (skip and the sword kinds)", rule)
            case n.Setting(key="judge first", values=(status, *_)) if isinstance(status, n.Name):
                self.known(status, "status", self.sym.statuses)
            case _:
                return False
        return True

    def battle_card(self, card: n.Card, kind: str) -> None:
        swords, subtarget = self.sword_kinds(), False
        for part in card.parts:
            if isinstance(part, n.SwordsDecl):
                if kind != "swordsman":
                    self.error("E106", f"'swords' lists what a swordsman carries; '{card.name}' is {a(kind)}", part)
                for name in part.names:
                    self.sword_name(name, part)
            elif isinstance(part, n.SubtargetDecl):
                subtarget = True
                if kind not in swords:
                    self.error("E106", f"only a sword takes a subtarget; '{card.name}' is {a(kind)}, and the sword "
                                       f"kinds are {quoted_list(swords)}", part)
        effects = [a for a in card.abilities if isinstance(a, n.SpellEffect)]
        for ability in card.abilities:
            if kind in swords and not isinstance(ability, n.SpellEffect):
                self.error("E106", "a sword's text is its 'effect:'; states and enchantments hold the rest", ability)
            elif kind == "swordsman":
                self.error("E106", "a swordsman has no abilities of its own; its swords act", ability)
        for extra in effects[1:]:
            self.error("E104", f"card '{card.name}' has 'effect:' twice; a sword has one effect (join its "
                               "sentences with 'furthermore,', 'and then,' or 'separately,')", extra)
        for e in effects[:1]:
            if e.repeat < 1:
                self.error("E105", f"'effect, {e.repeat} times' repeats nothing; say 1 or more", e)
            self.abilities((e,), self.sword_scope(subtarget))

    def sword_scope(self, subtarget: bool) -> Scope:
        refs = ("target", "actor", "this sword") + (("subtarget",) if subtarget else ())
        return Scope("sword", battle_refs=refs, damage=True)

    def sword_name(self, name: str, node: n.Node) -> None:
        card = self.sym.cards.get(name)
        kinds = card.kinds if card else ()
        if card is None:
            self.error("E101", f"unknown card '{name}'{did_you_mean(name, self.sym.cards)}", node)
        elif kinds and kinds[0] not in self.sword_kinds():
            self.error("E105", f"'{name}' is {a(kinds[0])}, not a sword", node)

    def enchantment(self, e: n.EnchantmentDef) -> None:
        if not self.sym.battle:
            self.battle_only("an enchantment", e)
        if e.stacking in ("merges", "never"):
            self.error("E106", f"enchantment '{e.name.value}': 'stacking {e.stacking}' is for the statuses of card "
                               "games; an enchantment stacks, refreshes or stays once", e)
        scope = Scope("enchantment", tuple(p.value for p in e.params), battle_refs=("actor", "this sword"))
        for term in (e.launch, e.executable, e.mp_cost[0] if e.mp_cost else None):
            if term is not None:
                self.term(term, scope)
        if e.mp_cost is not None:
            self.known(e.mp_cost[1], "number of a swordsman", self.values())
        for rider in e.riders:
            inner = replace(scope, battle_refs=("target", "actor", "this sword"), damage=True)
            if rider.condition is not None:
                self.cond(rider.condition, inner)
            self.body(rider.body, inner)

    def hooks(self, st: n.StatusDef) -> None:
        if not self.sym.battle:
            for hook in st.hooks:
                self.battle_only("a 'whenever' hook", hook)
            return
        for ability in st.abilities:
            self.error("E106", "in an automatic battle a state acts through 'whenever' hooks; this ability "
                               "would never run", ability)
        for hook in st.hooks:
            refs = ("sender",) if v.HOOKS[hook.event] == "attacked" else ()
            damage = v.HOOKS[hook.event] == "attack_damage"
            self.body(hook.body, Scope("status", battle_refs=refs, damage=damage))

    def battle_effect(self, e: n.Effect, spec: v.EffectSpec, word: str, scope: Scope) -> None:
        if self.sym.battle and spec.battle == "no":
            self.error("E106", f"'{word}' has no meaning in an automatic battle", e)
        elif not self.sym.battle and spec.battle == "only" and self.sym.ruleset is not None:
            self.error("E106", f"'{word}' belongs to automatic battles (a ruleset with 'battles are "
                               "automatic')", e)
        match e:
            case n.Hit(pool=pool, ignoring=classes):
                if pool is not None:
                    self.known(pool, "number of a swordsman", self.values())
                for klass in classes:
                    self.known(klass, "state class", self.sym.state_classes())
            case n.Recover(value=name) | n.SetValue(value=name):
                self.known(name, "number of a swordsman", self.values())
            case n.ResetStat(stat=stat):
                self.known(stat, "stat", self.sym.stats)
            case n.RemoveClass(klass=klass):
                self.known(klass, "state class", self.sym.state_classes())
            case n.AddSword(name=name) if name is not None:
                self.sword_name(name, e)
            case n.Build(name=name):
                self.built_name(name, e)
            case n.Redirect() | n.SkipAction() | n.BuildFails() | n.SetDamage() if scope.owner != "status":
                self.error("E106", f"'{word}' is a state's reaction; it belongs in a 'whenever' hook", e)

    def built_name(self, name: str, node: n.Node) -> None:
        card = self.sym.cards.get(name)
        if card is None:
            self.error("E101", f"unknown card '{name}'{did_you_mean(name, self.sym.cards)}", node)
        elif "swordsman" not in card.kinds:
            self.error("E105", f"'{name}' is not a swordsman, so it cannot be built", node)

    def battle_term(self, t: n.Node, scope: Scope) -> None:
        if self.sym.battle and type(t).__name__ in v.CARD_GAME_TERMS:
            self.error("E106", f"{v.CARD_GAME_TERMS[type(t).__name__]} has no meaning in an automatic battle", t)
            return
        match t:
            case n.BattleRef(word=word) if word not in scope.battle_refs:
                known = quoted_list(f"the {r}" if r != "this sword" else r for r in scope.battle_refs)
                self.error("E105", f"'{'this sword' if word == 'this sword' else 'the ' + word}' means nothing "
                                   f"in {WHERE.get(scope.owner, 'a card game')}"
                                   f"{'; known there: ' + known if scope.battle_refs else ''}", t)
            case n.HitDamage() if not scope.damage:
                self.error("E105", "'the damage' is the damage of a hit; there is no hit here", t)
            case n.IsType(kind=kind):
                self.known(kind, "sword kind", self.sword_kinds())
            case n.HasClass(klass=klass):
                self.known(klass, "state class", self.sym.state_classes())
