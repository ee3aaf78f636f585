"""Stage 2, the Checker's methods for files, cards, keywords, statuses, abilities and sentences."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from compiler import nodes as n
from compiler.check_common import NO_BATTLE, _effect_word, _effect_word_of
from compiler.diagnostics import quoted_list
from compiler.symbols import Scope, Symbols, singular
from runtime import vocabulary as v

COSTS = sorted(k for k, e in v.EFFECTS.items() if e.cost)
BATTLE_MODES = {"tight": "furthermore,", "loose": "and then,", "independent": "separately,"}
# Abilities set off early in a battle resolve before a later step (the engine stacks pending
# abilities before its next task: block, then battle damage, then the winner).
_BEFORE_DAMAGE = ("attacker", "blocker", "defender")
EVENT_BATTLE_WORDS = {
    "attacks": (("attacker", "defender"), "a 'when ... attacks' ability resolves before a blocker is chosen "
                                          "and before the battle has a winner"),
    "is not blocked": (("attacker", "defender"), "a 'when ... is not blocked' ability resolves when no card "
                                                 "blocked, before battle damage, so there is no blocker and no winner"),
    **{event: (_BEFORE_DAMAGE, f"a 'when ... {event}' ability resolves before battle damage, so the battle has "
                               "no winner yet") for event in ("blocks", "is blocked", "battles")},
}


@dataclass
class CardChecks:
    """Checker methods for the items of a file, down to the sentences of an ability."""

    sym: Symbols

    if TYPE_CHECKING:  # provided by compiler.check.Checker and its other parts
        path: str
        def error(self, code: str, message: str, node: n.Node) -> None: ...
        def known(self, name: n.Name, what: str, table: Any) -> bool: ...
        def battle_card(self, card: n.Card, kind: str) -> None: ...
        def battle_only(self, what: str, node: n.Node) -> None: ...
        def cond(self, c: n.Cond, scope: Scope) -> None: ...
        def effect(self, e: n.Effect, scope: Scope) -> None: ...
        def enchantment(self, e: n.EnchantmentDef) -> None: ...
        def filter(self, f: n.Filter, scope: Scope) -> None: ...
        def hooks(self, st: n.StatusDef) -> None: ...
        def nesting(self, f: n.File) -> None: ...
        def ruleset(self, rs: n.Ruleset) -> None: ...

    # ------------------------------------------------------------ files and items

    def file(self, f: n.File) -> None:
        self.path = f.path
        self.nesting(f)
        for item in f.items:
            if isinstance(item, n.Card):
                self.card(item)
            elif isinstance(item, n.KeywordDef) and self.sym.battle:
                self.error("E106", f"keyword '{item.name.value}' would never act: in an automatic battle a sword "
                                   "holds enchantments ('enchantment NAME { ... }')", item)
            elif isinstance(item, n.KeywordDef):
                self.abilities(item.abilities, Scope("keyword", tuple(p.value for p in item.params)))
            elif isinstance(item, n.StatusDef):
                self.status(item)
            elif isinstance(item, n.EnchantmentDef):
                self.enchantment(item)
            elif isinstance(item, n.Ruleset):
                self.ruleset(item)

    def card(self, card: n.Card) -> None:
        kinds = [p for p in card.parts if isinstance(p, n.KindDecl)]
        if not kinds:
            self.error("E103", f"card '{card.name}' has no kind; expected 'kind' and one of: "
                               f"{quoted_list(self.sym.kinds)}", card)
        for part_type, word in ((n.KindDecl, "kind"), (n.CostDecl, "cost"), (n.StatsDecl, "stats"),
                                (n.TextDecl, "text"), (n.KeywordsDecl, "keywords"), (n.AttrsDecl, "attributes"),
                                (n.TokenDecl, "token"), (n.RangeDecl, "range"), (n.RequiresDecl, "requires"),
                                (n.SlotsDecl, "slots")):
            repeats = [p for p in card.parts if isinstance(p, part_type)][1:]
            for p in repeats:
                self.error("E104", f"card '{card.name}' has '{word}' twice", p)
        for part in card.parts:
            self.card_part(part)
        kind = kinds[0].kind.value if kinds else ""
        if self.sym.battle:
            self.battle_card(card, kind)
            return
        for part in card.parts:
            if isinstance(part, (n.SwordsDecl, n.SubtargetDecl)):
                self.battle_only("'swords'" if isinstance(part, n.SwordsDecl) else "a subtarget", part)
        traits = set(self._traits().get(kind, ()))
        resolves = bool({"resolves", "used as a joker"} & traits)
        for a in card.abilities:
            if isinstance(a, n.SpellEffect) and kind and not resolves:
                self.error("E106", f"'effect:' is for cards of a kind that resolves; '{kind}' enters "
                                   "the field (use 'when this ...' or 'static:')", a)
            elif not isinstance(a, n.SpellEffect) and kind and resolves and "works while attached" not in traits:
                self.error("E106", f"a {kind} never stays on the field, so its triggered and static "
                                   "abilities would never be active; put its effect in 'effect:'", a)
        self.abilities(card.abilities, Scope("card"))

    def _traits(self) -> dict[str, tuple[str, ...]]:
        rs = self.sym.ruleset
        rules = rs.rules if rs is not None else ()
        return {r.kind.value: r.traits for r in rules if isinstance(r, n.KindRule)}

    def card_part(self, part: n.CardPart) -> None:
        match part:
            case n.KindDecl(kind=kind):
                self.known(kind, "card kind", self.sym.kinds)
            case n.CostDecl(items=costs):
                for cost in costs:
                    self.known(cost.resource, "resource", self.sym.resources)
            case n.StatsDecl(items=stats):
                for item in stats:
                    self.known(item.stat, "stat", self.sym.stats)
                    if item.higher and len(item.higher) + 1 > self.sym.max_level:
                        self.levels_error(f"'{item.stat.value}' has {len(item.higher) + 1} levels", item)
            case n.KeywordsDecl(items=items):
                for k in items:
                    self.keyword_use(k)
            case n.RequiresDecl(attr=attr):
                self.known(attr, "attribute", self.sym.attributes)
            case n.SlotsDecl(genres=genres) if self.sym.ruleset is not None:
                self.slots(genres, part)
            case n.RangeDecl(kind=kind, values=values):
                if not self.sym.lines and self.sym.ruleset is not None:
                    self.error("E106", "a range is a distance between lines, and the ruleset has no 'lines' line", part)
                elif kind == "to" and values[0] > values[1]:
                    self.error("E105", f"'range {values[0]} to {values[1]}': the nearest distance comes first", part)

    def slots(self, genres: tuple[n.Name, ...], part: n.SlotsDecl) -> None:
        """Check a card's slots: the ruleset says which attribute they match; each genre is a value of it."""
        if not self.sym.slot_attribute:
            self.error("E103", "slots need the ruleset line 'inherited cards go into slots of the same NAME.'", part)
            return
        for genre in genres:
            self.known(genre, f"{self.sym.slot_attribute}", self.sym.attributes.get(self.sym.slot_attribute, ()))

    def levels_error(self, found: str, node: n.Node) -> None:
        allowed = (f"the ruleset's levels go up to {self.sym.max_level}" if self.sym.max_level
                   else "the ruleset has no 'levels' line")
        self.error("E106", f"{found}, but {allowed}", node)

    def keyword_use(self, k: n.KeywordUse) -> None:
        table: dict[str, n.KeywordDef | n.EnchantmentDef] = {**self.sym.keywords, **self.sym.enchantments}
        if not self.known(k.name, "enchantment" if self.sym.battle else "keyword", table):
            return
        want = len(table[k.name.value].params)
        if len(k.args) != want:
            what = "enchantment" if self.sym.battle else "keyword"
            self.error("E107", f"{what} '{k.name.value}' takes {want} argument{'s' * (want != 1)}, "
                               f"found {len(k.args)}", k)

    def status(self, st: n.StatusDef) -> None:
        seen: set[str] = set()
        for key, value in st.settings:
            if key in seen:
                self.error("E104", f"status '{st.name.value}' has '{key}' twice", st)
            seen.add(key)
            if key == "influence" and not 1 <= int(value) <= 3:
                self.error("E105", f"status '{st.name.value}': an influence is 1, 2 or 3, found {value}", st)
            if key == "stacking" and value in ("merges", "never") and self.sym.battle:
                self.error("E106", f"status '{st.name.value}': 'stacking {value}' is for card games; a state "
                                   "of a swordsman stacks, refreshes or stays once", st)
        self.family(st)
        self.abilities(st.abilities, Scope("status", (st.param.value,) if st.param else ()))
        self.hooks(st)

    def family(self, st: n.StatusDef) -> None:
        """Refuse a second merging status of a family: the instances of one family merge into one."""
        settings = dict(st.settings)
        if settings.get("stacking", "stacks") == "never":
            return
        family = settings.get("family", st.name.value)
        first = next(other for other in self.sym.statuses.values()
                     if dict(other.settings).get("stacking", "stacks") != "never"
                     and dict(other.settings).get("family", other.name.value) == family)
        if first is not st and first.name.value != st.name.value:  # (a second definition is E102 already)
            self.error("E104", f"status '{st.name.value}' merges in family '{family}', as status "
                               f"'{first.name.value}' does; a family has one status whose instances merge "
                               "(say 'stacking never' for a named one)", st)

    # ------------------------------------------------------------ abilities and sentences

    def abilities(self, items: tuple[n.Ability, ...], scope: Scope) -> None:
        for extra in [a for a in items if isinstance(a, n.Activated)][1:]:
            self.error("E104", "a card has one 'activate' ability; found a second", extra)
        for a in items:
            inner = replace(scope)
            if isinstance(a, n.Activated):
                self.activated(a, scope)
            if isinstance(a, n.Triggered):
                inner.event_about = self.trigger(a)
                inner.amount = v.EVENT_PHRASES[a.event].has_amount
                inner.event = a.event
                if a.event in EVENT_BATTLE_WORDS:
                    inner.battle_words, inner.no_battle = EVENT_BATTLE_WORDS[a.event]
            elif isinstance(a, n.Timed):
                if a.phase is not None:
                    self.known(a.phase, "phase", self.sym.phases)
                inner.battle_words, inner.no_battle = (), NO_BATTLE["timed"]
            elif isinstance(a, n.SpellEffect) and a.repeat > v.MAX_AT_ONCE:
                self.error("E105", f"an effect repeats at most {v.MAX_AT_ONCE:,} times, found {a.repeat:,}", a)
            elif isinstance(a, n.SpellEffect) and a.repeat != 1 and not self.sym.battle:
                self.error("E006", f"repeating an effect in a card game ('effect, {a.repeat} times:') is not "
                                   "implemented yet; see docs/language.md §2.9.23", a)
            inner.static = isinstance(a, n.Static)
            cond_ = getattr(a, "condition", None)
            if cond_ is not None:
                self.cond(cond_, inner)
            self.body(a.body, inner)

    def activated(self, a: n.Activated, scope: Scope) -> None:
        """Refuse an activated ability where no player could use it: off a card, or with no 'activate' action."""
        rs = self.sym.ruleset
        actions = [i.name.value for r in (rs.rules if rs else ()) if isinstance(r, n.Actions) for i in r.items]
        if scope.owner != "card":
            self.error("E106", f"an 'activate' ability belongs on a card, not on a {scope.owner}", a)
        elif rs is not None and "activate" not in actions:
            self.error("E106", "these rules list no 'activate' action, so no player could use this "
                               "ability; add 'activate' to the ruleset's 'actions:' line", a)

    def trigger(self, a: n.Triggered) -> str:
        """Check a trigger's subject and event; return what the event is about."""
        spec = v.EVENT_PHRASES[a.event]
        subject = a.subject
        if subject.kind == "filter" and subject.filter is not None:
            self.filter(subject.filter, Scope("card"))
            if subject.word == "another" and singular(subject.filter.kind.value, self.sym.kinds) == "player":
                self.error("E105", "'another' leaves out the card an ability is on, and a player is no card; "
                                   "for the other players say 'an opponent'", subject)
            about = "player" if singular(subject.filter.kind.value, self.sym.kinds) == "player" else "card"
        else:
            about = "player" if subject.kind == "player" else "card"
        if subject.kind == "holder" and self.sym.ruleset is not None and not any(
                isinstance(r, n.ZoneDecl) and "attached" in r.flags for r in self.sym.ruleset.rules):
            self.error("E103", "'its holder' is the card this one is attached to, and the ruleset declares no "
                               "zone for attached cards ('zone NAME attached')", subject)
        if a.event == v.PLAYER_TAKES_DAMAGE:
            return about
        if spec.about != about:
            self.error("E106", f"'{a.event}' is said of {spec.about}s, but '{subject.word}' is a {about}",
                       subject)
        return spec.about

    def body(self, sentences: tuple[n.Sentence, ...], scope: Scope) -> None:
        after_cost = previous_cost = False
        for s in sentences:
            if s.mode in BATTLE_MODES and not self.sym.battle:
                self.battle_only(f"'{BATTLE_MODES[s.mode]}'", s)
            if s.mode in v.CARD_GAME_MODES and self.sym.battle:
                self.error("E106", f"{v.CARD_GAME_MODES[s.mode]} has no meaning in an automatic battle: "
                                   "nothing there is chosen, paid or optional", s)
                continue
            if scope.owner == "ruleset" and s.mode != "do":
                self.error("E106", "a ruleset sentence is a plain rule; 'you may', costs and 'if you do' "
                                   "belong in card abilities", s)
            if scope.static and s.mode != "do":
                self.error("E106", "a static ability states facts; 'you may', costs and 'if you do' "
                                   "belong in triggered abilities", s)
            if s.mode == "may" and 0 < sum(v.EFFECTS[type(e).__name__].cost for e in s.effects) < len(s.effects):
                self.error("E106", "a 'you may' sentence is all costs or all effects; split it, e.g. "
                                   "'you may pay 1 mana. if you do, draw 1 card.'", s)
            if s.mode == "if_happened" and (s is sentences[0] or previous_cost):
                self.error("E108", "'if that happened' must follow a sentence that acts on something (after a "
                                   "cost, say 'if you do')", s)
            previous_cost = s.mode in ("may", "must_pay") and all(v.EFFECTS[type(e).__name__].cost
                                                                  for e in s.effects)
            if s.mode in ("if_you_do", "if_you_dont") and not after_cost:
                said = "if you do" if s.mode == "if_you_do" else "if you don't"
                self.error("E108", f"'{said}' must follow a 'you may ...' or 'as a cost, ...' sentence", s)
            if s.mode in ("may", "must_pay"):
                after_cost = True
            if s.mode in ("may", "must_pay"):
                for e in s.effects:
                    if isinstance(e, n.Discard) and e.chooser:
                        self.error("E106", "a discard of someone's choice cannot be paid as a cost yet (planned, "
                                           "docs/language.md 2.9.9); as a cost, say 'discard N cards at random'", e)
            if s.mode == "must_pay":
                for e in s.effects:
                    if not v.EFFECTS[type(e).__name__].cost:
                        self.error("E106", f"'{_effect_word(e)}' cannot be paid as a cost; costs are: "
                                           f"{quoted_list(_effect_word_of(c) for c in COSTS)}", e)
            if s.condition is not None:
                self.cond(s.condition, scope)
            for e in s.effects:
                self.effect(e, scope)
