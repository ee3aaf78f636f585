"""Stage 2: validation. Collects every error of a ruleset's files, located, in source order.

Public entry point: `validate(files, symbols) -> list[Diagnostic]`. Messages say what was found,
what was expected, and where; unknown names get "did you mean".
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from compiler import nodes as n
from compiler.check_battle import BattleChecks
from compiler.diagnostics import Diagnostic, did_you_mean, quoted_list
from compiler.symbols import Scope, Symbols, singular
from runtime import vocabulary as v

COSTS = sorted(k for k, e in v.EFFECTS.items() if e.cost)
RULESET_NAMES = ("card kind", "stat", "resource", "phase", "zone")
CARD_ONLY = ("Destroy", "Give", "PutStatus", "Remove", "RemoveDamage", "ReturnToHand", "MoveToEnd", "Modify",
             "Restrict", "Grant", "ReduceDamage", "Delete", "Ready", "Exhaust", "LevelChange", "LiftRestriction",
             "BlockedBy", "MustBlock", "DamageFloor")
REQUIRED_ZONES = ("deck", "hand", "field", "graveyard")
BATTLE_MODES = {"tight": "furthermore,", "loose": "and then,", "independent": "separately,"}
REPEATABLE_SETTINGS = ("ban", "option", "resource")  # each line adds one more
SETTING_WORDS = {"automatic": "battles are automatic", "launch turn": "swords launch at turn",
                 "judge first": "judges count ... first"}  # a setting's key as the designer wrote it
STATIC_ONLY = (n.ReduceDamage, n.BlockedBy, n.MustBlock, n.DamageFloor)
# The words that mean a card or player of the battle under way, and which of them each part of a
# ruleset's 'battle { ... }' can mean (runtime/turns.py: 'blocked' runs before the winner is known).
BATTLE_WORDS = {"the attacker": "attacker", "the blocker": "blocker", "the winner": "winner",
                "won the battle": "winner", "the defending player": "defender",
                "the defending player controls": "defender"}
BATTLE_PARTS = {"blocked": ("attacker", "blocker", "defender"), "unblocked": ("attacker", "defender")}
NO_BATTLE = {"timed": "an 'at the start of ...' or 'at the end of ...' ability runs outside any battle",
             "turn": "a turn's phases run outside any battle (a battle runs the ruleset's 'battle { ... }')",
             "blocked": "'blocked { ... }' runs before the battle has a winner; say it in 'won by higher ...' "
                        "or 'battle end'",
             "unblocked": "'unblocked { ... }' runs when no card blocked, so there is no blocker and no winner"}
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
FILTER_POSSESSIVES = ("your", "the opponent's")  # 'your units' is 'units you control'


@dataclass
class Checker(BattleChecks):
    sym: Symbols
    path: str = ""
    errors: list[Diagnostic] = field(default_factory=list)

    def error(self, code: str, message: str, node: n.Node) -> None:
        self.errors.append(Diagnostic(code, message, self.path, node.loc.line, node.loc.col))

    def known(self, name: n.Name, what: str, table) -> bool:
        """Report an unknown name with the closest known one; return whether it is known."""
        if name.value in table:
            return True
        if self.sym.ruleset is None and what in RULESET_NAMES:
            return False  # the missing ruleset is reported once; its names are not guessed at
        hint = did_you_mean(name.value, table)
        if not hint:
            hint = f"; known: {quoted_list(table)}" if table else f"; no {what} is defined"
        self.error("E101", f"unknown {what} '{name.value}'{hint}", name)
        return False

    # ------------------------------------------------------------ files and items

    def file(self, f: n.File) -> None:
        self.path = f.path
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
                                (n.TokenDecl, "token")):
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
        resolves = {"resolves", "used as a joker"} & set(self._traits().get(kind, ()))
        for a in card.abilities:
            if isinstance(a, n.SpellEffect) and kind and not resolves:
                self.error("E106", f"'effect:' is for cards of a kind that resolves; '{kind}' enters "
                                   "the field (use 'when this ...' or 'static:')", a)
            elif not isinstance(a, n.SpellEffect) and kind and resolves:
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
        for key, _value in st.settings:
            if key in seen:
                self.error("E104", f"status '{st.name.value}' has '{key}' twice", st)
            seen.add(key)
        self.abilities(st.abilities, Scope("status"))
        self.hooks(st)

    # ------------------------------------------------------------ abilities and sentences

    def abilities(self, items: tuple[n.Ability, ...], scope: Scope) -> None:
        for a in items:
            inner = replace(scope)
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
            elif isinstance(a, n.SpellEffect) and a.repeat != 1 and not self.sym.battle:
                self.error("E006", f"repeating an effect in a card game ('effect, {a.repeat} times:') is not "
                                   "implemented yet; see docs/language.md §2.9.23", a)
            inner.static = isinstance(a, n.Static)
            cond_ = getattr(a, "condition", None)
            if cond_ is not None:
                self.cond(cond_, inner)
            self.body(a.body, inner)

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

    # ------------------------------------------------------------ effects

    def effect(self, e: n.Effect, scope: Scope) -> None:
        spec = v.EFFECTS[type(e).__name__]
        word = _effect_word(e)
        if spec.procedure and scope.owner != "ruleset":
            self.error("E106", f"'{word}' is a turn procedure; it belongs in a ruleset's turn", e)
        if scope.static and not spec.static:
            self.error("E106", f"'{word}' cannot be a static ability; static abilities say 'gets', "
                               "\"can't\", 'has' or 'damage to ... is reduced by'", e)
            return
        if not scope.static and type(e) in STATIC_ONLY:
            self.error("E106", f"'{word}' only works as a static ability", e)
        if scope.static and getattr(e, "duration", None) is not None:
            self.error("E106", "a static ability lasts while its source is on the field; remove the duration", e)
        if scope.static and not isinstance(getattr(e, "target", None), (n.This, n.Each)):
            self.error("E105", "a static ability applies to 'this' or to cards a filter names", e)
        self.effect_names(e, scope)
        self.choice(e, scope)
        self.battle_effect(e, spec, word, scope)
        if type(e).__name__ in CARD_ONLY and _names_player(getattr(e, "target", None)):
            self.error("E105", f"'{word}' works on cards, and this names a player", e)
        elif (type(e).__name__ in CARD_ONLY and isinstance(getattr(e, "target", None), n.It)
              and scope.event_about == "player" and scope.targets == 0 and scope.chosen == 0):
            self.error("E105", f"'{word}' works on cards, and 'it' here is the player the triggering event "
                               f"'{scope.event}' is about", e)
        scope.targets += _count_targets(e)
        for child in _children(e):
            self.term(child, replace(scope, their=True) if isinstance(e, n.Choose) else scope)
        if isinstance(e, n.Choose):
            scope.chosen += 1

    def choice(self, e: n.Effect, scope: Scope) -> None:
        """Check a choice made while resolving ('choose', 'search', a discard of someone's choice) and
        the effects on what was chosen: only a card, keyword or status ability asks while it resolves."""
        asks = n.asks(e)
        if asks and scope.owner in ("ruleset", "lose_rule"):
            self.error("E106", "a ruleset sentence runs without stopping; a choice while resolving belongs "
                               "in a card, keyword or status ability", e)
        elif asks and self.sym.battle:
            self.error("E106", "nothing is chosen in an automatic battle", e)
        match e:
            case n.Choose(count=count) if count < 1:
                self.error("E105", f"choose at least 1, found {count}", e)
            case n.Choose(player=player) if player is not None and not isinstance(player, n.PlayerRef):
                self.error("E105", "who chooses: say 'you', 'the opponent', 'each player' or another player "
                                   "word", player)
            case n.PutInto(zone=zone) | n.Shuffle(zone=zone):
                self.known(zone, "zone", self.sym.zones)
        if isinstance(e, n.PutInto) and e.possessive not in ("your", "its owner's"):
            self.error("E105", f"'into {e.possessive} {e.zone.value}': a card goes into a zone of its "
                               "owner; say 'your' or 'its owner's'", e)
        if isinstance(e, n.Shuffle):
            self.possessive(e.possessive, e, scope)

    def effect_names(self, e: n.Effect, scope: Scope) -> None:
        match e:
            case n.Gain(resource=r) | n.Lose(resource=r) | n.Pay(resource=r):
                self.known(r, "resource", self.sym.resources)
            case n.SetResource(possessive=pos, resource=r):
                self.possessive(pos, e, scope)
                if v.POSSESSIVES[pos] in ("controller", "owner"):
                    self.error("E105", f"'set {pos} {r.value}': a resource belongs to a player; say 'your' "
                                       "or 'the opponent's'", e)
                self.known(r, "resource", self.sym.resources)
            case n.LevelChange() if not self.sym.max_level and self.sym.ruleset is not None:
                self.levels_error("'level up' and 'level down' change a card's level", e)
            case n.Delete() if "deleted" not in self.sym.zones and self.sym.ruleset is not None:
                self.error("E103", "'delete' moves cards to the 'deleted' zone, and ruleset "
                                   f"'{self.sym.ruleset.name.value}' declares none", e)
            case n.Modify(stat=stat) if self.sym.battle:
                self.known(stat, "number of a swordsman", self.values())
            case n.Modify(stat=stat) | n.DamageFloor(stat=stat):
                self.known(stat, "stat", self.sym.stats)
            case n.PutStatus(status=st) if self.sym.battle:
                if self.known(st, "state or enchantment", {**self.sym.statuses, **self.sym.enchantments}):
                    self.no_params(st)
            case n.PutStatus(status=st):
                self.known(st, "status", self.sym.statuses)
            case n.Give(name=name) | n.Remove(name=name):
                if self.known(name, "keyword or status", {**self.sym.keywords, **self.sym.statuses}):
                    self.no_params(name)
            case n.Grant(name=name):
                if self.known(name, "keyword", self.sym.keywords):
                    self.no_params(name)
            case n.CreateToken(card=card):
                if card not in self.sym.cards:
                    self.error("E101", f"unknown card '{card}'{did_you_mean(card, self.sym.cards)}", e)
            case n.PlayStaged(kinds=kinds, order=order):
                for k in kinds:
                    self.kind_name(k)
                self.order(order)
            case n.AttackAll(order=order):
                self.order(order)

    def no_params(self, name: n.Name) -> None:
        """Report granting a keyword that needs arguments (a grant cannot give them)."""
        kw = self.sym.keywords.get(name.value) or self.sym.enchantments.get(name.value)
        if kw is not None and kw.params:
            what = "enchantment" if isinstance(kw, n.EnchantmentDef) else "keyword"
            self.error("E107", f"{what} '{name.value}' takes {len(kw.params)} argument(s); only {what}s "
                               "without arguments can be given or granted", name)

    def kind_name(self, k: n.Name) -> None:
        if singular(k.value, self.sym.kinds) not in self.sym.kinds:
            self.known(k, "card kind", self.sym.kinds)

    def order(self, keys: tuple[n.OrderKey, ...]) -> None:
        for key in keys:
            if key.key == "stat":
                self.known(key.names[0], "stat", self.sym.stats)
            elif key.key == "kind":
                for k in key.names:
                    self.kind_name(k)

    # ------------------------------------------------------------ terms

    def term(self, t: n.Node, scope: Scope) -> None:
        """Check an expression, condition or object found inside an effect."""
        self.battle_word(t, scope)
        if isinstance(t, n.Filter):
            self.filter(t, scope)
            return
        self.battle_term(t, scope)
        match t:
            case n.This() if scope.owner in ("ruleset", "lose_rule"):
                self.error("E105", "'this' means the card an ability is on; a ruleset has none", t)
            case n.Chosen(noun=noun) if scope.chosen == 0:
                self.error("E110", f"'the chosen {noun.value}' refers to nothing here: no choice was made "
                                   "before it in this ability", t)
            case n.It() if scope.targets == 0 and scope.chosen == 0 and not scope.event_about:
                self.error("E110", "'it' refers to nothing here: no target was named before it and no "
                                   "event card triggered this ability", t)
            case n.EventObject(noun=noun):
                self.event_object(noun, scope)
            case n.EventAmount() if not scope.amount:
                self.error("E105", "'the amount' is the amount of the event that triggered this ability "
                                   "(damage taken or dealt, life lost or gained); there is none here", t)
            case n.Controls(player=player) if not isinstance(player, n.PlayerRef):
                self.error("E105", "who controls: say 'you', 'the opponent' or 'the defending player'", t)
            case n.SeatIs(player=player) if not isinstance(player, n.PlayerRef):
                self.error("E105", "whose seat: say 'you' or 'the opponent'", t)
            case n.OptionIs(option=option, value=value):
                self.option_value(option, value)
            case n.Param(name=name):
                self.param(name, scope)
            case n.StatOf(stat=stat) if self.sym.battle:
                self.known(stat, "number of a swordsman", self.values())
            case n.StatOf(stat=stat, ref=ref):
                of_player = _names_player(ref)
                table = self.sym.resources if of_player else self.sym.stats + v.CARD_NUMBERS
                self.known(stat, "resource" if of_player else "stat", table)
            case n.StatOwn(possessive=pos, stat=stat):
                self.possessive(pos, t, scope)
                of_player = v.POSSESSIVES[pos] not in ("controller", "owner")
                self.known(stat, "resource" if of_player else "stat",
                           self.sym.resources if of_player else self.sym.stats + v.CARD_NUMBERS)
            case n.Stacks(status=st):
                self.known(st, "status", self.sym.statuses)
            case n.StatBound(stat=stat) if scope.candidate == "player":
                self.known(stat, "resource", self.sym.resources)
            case n.StatBound(stat=stat):
                self.known(stat, "stat", self.sym.stats + v.CARD_NUMBERS)
            case n.HasSelf(name=name) if name.value in self.sym.attributes:
                values = self.sym.attributes[name.value]
                example = f", e.g. 'with {name.value} {values[0]}'; known: {quoted_list(values)}" if values else ""
                self.error("E105", f"'with {name.value}' needs a value{example}", name)
            case n.Has(name=name) | n.HasSelf(name=name) | n.Lacks(name=name):
                self.known(name, "keyword or status", {**self.sym.keywords, **self.sym.statuses})
            case n.OwnTurnNumber(possessive=pos) if pos in ("its", "its owner's"):
                self.error("E105", f"'{pos} turn number': a card takes no turns; say 'your turn number' "
                                   "(the turns of the player who controls it)", t)
            case n.OwnTurnNumber(possessive=pos):
                self.possessive(pos, t, scope)
            case n.PlayerRef(word=word) if word in v.EVENT_CARD_PLAYERS and scope.event_about != "card":
                self.error("E110", f"'{word}' is the {word.split()[1]} of the card the triggering event is "
                                   "about, and no card event triggered this ability", t)
            case n.Target(another=True) | n.Controls(quantity="another") if scope.owner in ("ruleset", "lose_rule"):
                what = "another target" if isinstance(t, n.Target) else "controls another"
                self.error("E105", f"'{what}' leaves out the card an ability is on; a ruleset has none", t)
            case n.WithAttribute(attribute=attribute, value=value):
                self.attribute_value(value, attribute)
        for child in _children(t):
            self.term(child, scope)

    def battle_word(self, t: n.Node, scope: Scope) -> None:
        """Report a battle word ('the attacker', 'the defending player', ...) where no battle can be under way."""
        word = _battle_word(t)
        if word is None or scope.battle_words is None or BATTLE_WORDS[word] in scope.battle_words:
            return
        self.error("E110", f"'{word}' refers to nothing here: {scope.no_battle}", t)

    def param(self, name: n.Name, scope: Scope) -> None:
        if name.value in scope.params:
            return
        if scope.candidate == "card":
            self.known(name, "stat", self.sym.stats + v.CARD_NUMBERS)
        elif scope.candidate == "player":
            self.known(name, "resource", self.sym.resources)
        else:
            known = scope.params or ()
            hint = did_you_mean(name.value, known)
            self.error("E101", f"unknown name '{name.value}'; a bare name is a keyword parameter"
                               f"{' (' + quoted_list(known) + ')' if known else ' and there are none here'}"
                               f"{hint}", name)

    def event_object(self, noun: n.Name, scope: Scope) -> None:
        words = ("card", "player") + tuple(self.sym.kinds)
        if singular(noun.value, self.sym.kinds) not in words:
            self.known(noun, "word after 'that'", words)
        elif not scope.event_about:
            self.error("E110", f"'that {noun.value}' refers to the card or player of the triggering "
                               "event, and nothing triggered this ability", noun)
        elif (noun.value != "player" and scope.event_about == "player"
              and scope.event not in v.PLAYER_EVENTS_WITH_A_CARD):
            self.error("E110", f"'that {noun.value}' refers to the card of the triggering event, and "
                               f"'{scope.event}' is about a player, with no card; say 'that player'", noun)

    def possessive(self, pos: str, node: n.Node, scope: Scope) -> None:
        if pos in ("its", "its owner's") and scope.owner in ("ruleset", "lose_rule"):
            self.error("E105", f"'{pos}' means the card an ability is on; a ruleset has none", node)
        if pos == "their" and scope.owner != "lose_rule" and not scope.their:
            self.error("E105", "'their' means the player a lose rule is checked for; here say 'your' or "
                               "'the opponent's'", node)

    def filter(self, f: n.Filter, scope: Scope) -> None:
        kind = singular(f.kind.value, self.sym.kinds)
        self.filter_words(f, scope)
        if kind not in self.sym.kinds and kind not in v.GENERIC_KINDS:
            self.known(f.kind, "card kind", tuple(self.sym.kinds) + v.GENERIC_KINDS)
        if f.zone is not None:
            self.known(f.zone.zone, "zone", self.sym.zones)
            self.possessive(f.zone.possessive, f.zone, scope)
        inner = replace(scope, candidate="player" if kind == "player" else "card")
        for w in f.withs:
            self.cond(w, inner)

    def filter_words(self, f: n.Filter, scope: Scope) -> None:
        """Check what a filter says before its kind: 'your'/'the opponent's', 'other', attribute values."""
        if f.possessive is not None and f.possessive not in FILTER_POSSESSIVES:
            self.error("E105", f"'{f.possessive} {f.kind.value}': before a card kind say 'your' or 'the "
                               f"opponent's' (or '{f.kind.value} you control')", f)
        elif f.possessive is not None and f.control is not None:
            self.error("E104", f"'{f.possessive} ... {f.control}' says twice who controls them; keep one", f)
        if singular(f.kind.value, self.sym.kinds) == "player" and (f.other or f.attrs or f.possessive):
            self.error("E105", "a player filter has no 'other', possessive or attribute values; for the "
                               "other players say 'an opponent'", f)
        elif f.other and scope.owner in ("ruleset", "lose_rule"):
            self.error("E105", "'other' leaves out the card an ability is on; a ruleset has none", f)
        for value in f.attrs:
            self.attribute_value(value)

    def attribute_value(self, value: n.Name, attribute: n.Name | None = None) -> None:
        """Check an attribute value ('red unit', 'with colour red') against the values cards print."""
        table = self.sym.attributes
        if attribute is not None:
            if self.known(attribute, "attribute", table):
                self.known(value, attribute.value, table[attribute.value])
            return
        owners = self.sym.attribute_of(value.value)
        if len(owners) > 1:
            self.error("E105", f"'{value.value}' is a value of {len(owners)} attributes ({quoted_list(owners)}); "
                               f"say which, e.g. 'with {owners[0]} {value.value}'", value)
        elif not owners:
            self.unknown_attribute_value(value)

    def unknown_attribute_value(self, value: n.Name) -> None:
        """Report a word before a card kind that no card prints as an attribute value."""
        if value.value == "another":
            self.error("E105", "'another' comes before 'target' ('another target unit'); inside a filter say "
                               "'other' ('target other unit')", value)
            return
        everything = {val: attr for attr, values in self.sym.attributes.items() for val in values}
        hint = did_you_mean(value.value, list(everything) + ["other"])
        if hint == "; did you mean 'other'?":
            self.error("E101", f"unknown word '{value.value}' before a card kind{hint}", value)
        elif hint:
            best = hint.split("'")[1]
            self.error("E101", f"unknown {everything[best]} '{value.value}'{hint}", value)
        elif everything:
            known = "; ".join(f"{a}: {quoted_list(vals)}" for a, vals in self.sym.attributes.items() if vals)
            self.error("E101", f"unknown attribute value '{value.value}' before a card kind; known values: "
                               f"{known}", value)
        else:
            self.error("E101", f"'{value.value}' before a card kind would be an attribute value, and no card "
                               "here prints attributes", value)

    def cond(self, c: n.Cond, scope: Scope) -> None:
        self.term(c, scope)

    # ------------------------------------------------------------ rulesets

    def ruleset(self, rs: n.Ruleset) -> None:
        seen: set[str] = set()
        for r in rs.rules:
            if isinstance(r, n.Setting) and r.key in seen and r.key not in REPEATABLE_SETTINGS:
                self.error("E104", f"ruleset '{rs.name.value}' has '{SETTING_WORDS.get(r.key, r.key)}' twice", r)
            seen.add(r.key if isinstance(r, n.Setting) else "")
        if self.sym.battle:
            self.battle_ruleset(rs)
            for rule in rs.rules:
                self.rule(rule)
            return
        keys = {r.key for r in rs.rules if isinstance(r, n.Setting)}
        for required in ("players", "deck", "kinds"):
            if required not in keys:
                self.error("E103", f"ruleset '{rs.name.value}' has no '{required}' line", rs)
        for zone in REQUIRED_ZONES:
            if zone not in self.sym.zones:
                self.error("E103", f"ruleset '{rs.name.value}' declares no '{zone}' zone", rs)
        responding = [r for r in rs.rules if isinstance(r, n.KindRule) and "responds" in r.traits]
        if responding and "stack" not in self.sym.zones:
            self.error("E103", f"kind '{responding[0].kind.value}' responds, so ruleset '{rs.name.value}' "
                               "needs a 'stack' zone for cards waiting to resolve", responding[0])
        for rule in rs.rules:
            self.rule(rule)

    def rule(self, rule: n.Rule) -> None:
        scope = Scope("ruleset")
        if self.battle_rule(rule, scope):
            return
        match rule:
            case n.KindRule(kind=kind, traits=traits):
                self.known(kind, "card kind", self.sym.kinds)
                if "deleted instead of graveyard" in traits and "deleted" not in self.sym.zones:
                    self.error("E103", f"kind '{kind.value}' is 'deleted instead of graveyard', and the ruleset "
                                       "declares no 'deleted' zone", rule)
                for trait in traits:
                    if trait.startswith("counts as ") and trait[10:] not in self.sym.kinds:
                        self.error("E101", f"unknown card kind '{trait[10:]}' in '{trait}'{did_you_mean(trait[10:], self.sym.kinds)}", rule)
            case n.Turn(phases=phases, turn_end=end):
                scope = replace(scope, battle_words=(), no_battle=NO_BATTLE["turn"])
                for p in phases:
                    self.body(p.body, scope)
                    for st in p.steps:
                        self.body(st.body, scope)
                self.body(end, scope)
            case n.Battle(blocker=blocker, blocked=blocked, unblocked=unblocked, win_stat=stat, won=won, end=end):
                if not isinstance(blocker, (n.Extreme, n.ChosenBlocker)):
                    self.error("E105", "the blocker is 'the leftmost ...', 'the rightmost ...' or 'any ..., "
                                       "chosen by them'", blocker)
                else:
                    self.filter(blocker.filter, scope)
                if stat is not None:
                    self.known(stat, "stat", self.sym.stats)
                for part, words in ((blocked, "blocked"), (unblocked, "unblocked"), (won, ""), (end, "")):
                    known = BATTLE_PARTS.get(words)
                    self.body(part, replace(scope, battle_words=known, no_battle=NO_BATTLE.get(words, "")))
            case n.TriggerOrder(keys=keys):
                self.order(keys)
            case n.Checks(body=body):
                self.body(body, scope)
            case n.LoseRule(cond=c):
                self.cond(c, Scope("lose_rule"))
            case n.Variant(option=option, value=value, rule=inner):
                self.option_value(option, value)
                self.setting(inner)
            case n.Actions(items=items):
                for item in items:
                    self.action(item)
            case n.ZoneDecl() | n.Setting():
                self.setting(rule)

    def action(self, item: n.ActionItem) -> None:
        if not self.known(item.name, "action", v.ACTIONS):
            return
        if (item.name.value in ("set", "joker")) != (item.zone is not None):
            said = "'set' needs 'into ZONE' and 'joker' needs 'from ZONE'" if item.zone is None else \
                "only 'set' and 'joker' name a zone"
            self.error("E105", f"action '{item.name.value}': {said}", item)
        if item.zone is not None:
            self.known(item.zone, "zone", self.sym.zones)
        if item.kind is not None:
            self.kind_name(item.kind)
        if item.cond is not None:
            self.cond(item.cond, Scope("ruleset"))

    def option_value(self, option: n.Name, value: n.Name) -> None:
        if self.known(option, "option", self.sym.options):
            self.known(value, f"value of option '{option.value}'", self.sym.options[option.value])

    def setting(self, rule: n.ZoneDecl | n.Setting) -> None:
        """Check the names a setting line refers to and the order of its numbers."""
        if isinstance(rule, n.ZoneDecl):
            return
        names = [x for x in rule.values if isinstance(x, n.Name)]
        if rule.key == "option" and len(names) > 2 and names[1].value not in [x.value for x in names[2:]]:
            self.error("E101", f"option '{names[0].value}' defaults to '{names[1].value}', which is not one of "
                               f"its values {quoted_list(x.value for x in names[2:])}", names[1])
        elif rule.key == "short deck":
            for zone in names:
                self.known(zone, "zone", self.sym.zones)
        elif rule.key in ("round limit", "life fill"):
            for name in names:
                self.known(name, "resource", self.sym.resources)
        elif rule.key == "jokers" and isinstance(rule.values[2], n.Name):
            self.known(rule.values[2], "resource", self.sym.resources)
        elif rule.key == "ban":
            self.known(names[0], "keyword", self.sym.keywords)
        elif rule.key == "damage lowers":
            self.known(names[0], "stat", self.sym.stats)
        elif rule.key == "levels" and rule.values[0] != 1:
            self.error("E105", f"levels start at 1, found {rule.values[0]}", rule)
        elif rule.key == "resource":
            bounds = {str(k): int(str(x)) for k, x in zip(rule.values[2::2], rule.values[3::2], strict=True)}
            low, high, start = bounds.get("min"), bounds.get("max"), int(str(rule.values[1]))
            if (low is not None and low > start) or (high is not None and high < start):
                self.error("E105", f"resource '{names[0].value}' starts at {start}, outside its bounds", rule)


def _children(node: n.Node) -> list[n.Node]:
    """Return the AST nodes directly inside a node, in field order."""
    out: list[n.Node] = []
    for value in node.__dict__.values():
        if isinstance(value, n.Node) and not isinstance(value, n.Name):
            out.append(value)
        elif isinstance(value, tuple):
            out += [x for x in value if isinstance(x, n.Node) and not isinstance(x, n.Name)]
    return out


def _names_player(o: n.Node | None) -> bool:
    """Return whether an object phrase means players, not cards."""
    if isinstance(o, (n.PlayerRef, n.TargetPlayer)):
        return True
    return isinstance(o, n.EventObject) and o.noun.value == "player"


def _battle_word(t: n.Node) -> str | None:
    """Return the battle word a term is ('the attacker', 'won the battle', ...), or None."""
    match t:
        case n.Attacker():
            return "the attacker"
        case n.Blocker():
            return "the blocker"
        case n.Winner():
            return "the winner"
        case n.WonBattle():
            return "won the battle"
        case n.PlayerRef(word="the defending player"):
            return "the defending player"
        case n.Filter(control="the defending player controls"):
            return "the defending player controls"
    return None


def _count_targets(node: n.Node) -> int:
    """Return how many target phrases a node holds (an effect may name its target after 'it')."""
    own = 1 if isinstance(node, (n.Target, n.TargetPlayer)) else 0
    return own + sum(_count_targets(c) for c in _children(node))


def _effect_word_of(class_name: str) -> str:
    words = {"Pay": "pay", "Lose": "lose", "Discard": "discard", "Remove": "remove", "Destroy": "destroy",
             "ReturnToHand": "return", "DealDamage": "deal damage", "Draw": "draw", "Gain": "gain",
             "Give": "give", "PutStatus": "put", "RemoveDamage": "remove damage", "MoveToEnd": "move",
             "CreateToken": "create", "Modify": "gets", "Restrict": "can't", "Grant": "has",
             "ReduceDamage": "damage to ... is reduced by", "Stage": "stage cards",
             "PlayStaged": "play staged", "AttackAll": "attacks", "SetResource": "set", "Delete": "delete",
             "Ready": "ready", "Exhaust": "exhaust", "LevelChange": "level up", "LiftRestriction":
             "remove attack restriction", "TakeActions": "take actions", "BlockedBy": "can't be blocked by",
             "MustBlock": "must block if able", "DamageFloor": "can't be damaged by less than",
             "AnnounceTurn": "announce the start of the turn", "DealJokers": "deal jokers", "Hit": "hit",
             "Recover": "recovers", "SetValue": "set the ... of", "ResetStat": "reset", "RaiseTurn": "raise the turn "
             "number", "SetUsed": "make ... used", "ReverseSwords": "reverse", "MoveSword": "move ... to the end of the "
             "sword list", "AddSword": "add", "ChangeSword": "change", "Build": "build", "SkipAction": "skip the action",
             "BuildFails": "the build fails", "Redirect": "redirect the attack", "SetDamage": "set the damage",
             "RemoveClass": "remove all ... states", "Choose": "choose", "Reveal": "reveal", "PutInto": "put ... into",
             "Shuffle": "shuffle"}
    return words[class_name]


def _effect_word(e: n.Effect) -> str:
    return _effect_word_of(type(e).__name__)


def validate(files: list[n.File], sym: Symbols) -> list[Diagnostic]:
    """Return every problem of a ruleset's files, in source order."""
    checker = Checker(sym)
    _duplicates(files, checker)
    if sym.ruleset is None and files:
        checker.errors.append(Diagnostic("E103", "this folder has no ruleset; one file must say "
                                                 "'ruleset <name> { ... }'", files[0].path, 1, 1))
    for f in files:
        checker.file(f)
    return sorted(checker.errors, key=Diagnostic.sort_key)


def _duplicates(files: list[n.File], checker: Checker) -> None:
    seen: dict[tuple[str, str], str] = {}
    rulesets: list[str] = []
    for f in files:
        checker.path = f.path
        for item in f.items:
            what, name = _item_name(item)
            if (what, name) in seen:
                checker.error("E102", f"{what} '{name}' is defined twice; first at {seen[(what, name)]}", item)
            elif what == "ruleset" and rulesets:
                checker.error("E102", f"a folder holds one ruleset; '{name}' comes after {rulesets[0]}", item)
            else:
                seen[(what, name)] = f"{f.path}:{item.loc.line}:{item.loc.col}"
                if what == "ruleset":
                    rulesets.append(f"'{name}' at {seen[(what, name)]}")


def _item_name(item: n.Item) -> tuple[str, str]:
    if isinstance(item, n.Card):
        return "card", item.name
    what = {n.KeywordDef: "keyword", n.StatusDef: "status", n.EnchantmentDef: "enchantment",
            n.Ruleset: "ruleset"}[type(item)]
    return what, item.name.value
