"""Stage 2, the Checker's methods for terms: expressions, conditions, objects and filters."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, get_args

from compiler import nodes as n
from compiler.check_common import _children, _names_player
from compiler.diagnostics import did_you_mean, quoted_list
from compiler.symbols import Scope, Symbols, singular
from runtime import vocabulary as v

# The words that mean a card or player of the battle under way (and which of them each part of a
# ruleset's 'battle { ... }' can mean: compiler/check_rulesets.py BATTLE_PARTS).
BATTLE_WORDS = {"the attacker": "attacker", "the blocker": "blocker", "the winner": "winner",
                "won the battle": "winner", "the defending player": "defender",
                "the defending player controls": "defender"}
FILTER_POSSESSIVES = ("your", "the opponent's")  # 'your units' is 'units you control'
# How many levels an expression, condition or object may nest, a level being one node of the AST
# ('+', 'not', 'or', 'min', 'of' ...). Lowering writes one bracket per level, up to 3 more for the
# innermost term and a few around the whole; CPython refuses the 201st nested bracket of a module
# (docs/decisions.md, Issue 16: generated code that loads).
MAX_NESTING = 100
_TERMS = get_args(n.Expr) + get_args(n.Cond) + get_args(n.Object) + (n.Filter, n.ZoneRef)


@dataclass
class TermChecks:
    """Checker methods for the terms of an effect or a condition."""

    sym: Symbols

    if TYPE_CHECKING:  # provided by compiler.check.Checker and its other parts
        def error(self, code: str, message: str, node: n.Node) -> None: ...
        def known(self, name: n.Name, what: str, table: Any) -> bool: ...
        def battle_term(self, t: n.Node, scope: Scope) -> None: ...
        def option_value(self, option: n.Name, value: n.Name) -> None: ...
        def values(self) -> tuple[str, ...]: ...

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
            case n.Holder() if self.sym.ruleset is not None and not any(
                    isinstance(r, n.ZoneDecl) and "attached" in r.flags for r in self.sym.ruleset.rules):
                self.error("E103", "'its holder' is the card this one is attached to, and the ruleset declares no "
                                   "zone for attached cards ('zone NAME attached')", t)
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
            case n.InFrontOf() if not self.sym.squares and self.sym.ruleset is not None:
                self.error("E103", "'in front of' needs a field of squares ('lines ...' and 'each line has N "
                                   "squares.')", t)
            case n.Each(article="the", filter=f) if not any(isinstance(w, n.InFrontOf) for w in f.withs):
                self.error("E105", f"'the {f.kind.value}' names one card: say which ('the {f.kind.value} in "
                                   f"front of this'), or say 'each {f.kind.value}'", t)
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
            case n.Dice():
                self.dice(t, scope)
            case n.TheRoll() if scope.rolls == 0:
                self.error("E110", "'the roll' refers to nothing here: no dice were rolled before it in this "
                                   "ability", t)
        for child in _children(t):
            self.term(child, scope)

    def dice(self, d: n.Dice, scope: Scope) -> None:
        """Check dice where they are rolled: a count and faces within bounds, an ability that resolves."""
        if scope.static or scope.candidate:
            where = "a static ability" if scope.static else "a filter"
            self.error("E106", f"dice are rolled when an ability resolves, not in {where}", d)
        elif self.sym.battle:
            self.error("E106", "automatic battles have no chance: dice belong to card games", d)
        elif not 1 <= d.count <= v.MAX_DICE or not 2 <= d.sides <= v.MAX_FACES:
            self.error("E105", f"'{v.dice_text(d.count, d.sides)}': roll 1 to {v.MAX_DICE} dice of "
                               f"2 to {v.MAX_FACES} faces", d)
        scope.rolls += 1

    def nesting(self, f: n.File) -> None:
        """Report each outermost expression, condition or object of a file nested past MAX_NESTING."""
        for term, depth in _outermost_terms(f):
            if depth > MAX_NESTING:
                self.error("E004", f"expression nested too deeply: {depth} levels, the most is "
                                   f"{MAX_NESTING}; each operator, 'and', 'or' and 'not' adds a level, also "
                                   "in a chain like 'a + b + c'", term)

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
        if f.places is not None:
            self.places(f.places, scope)
        inner = replace(scope, candidate="player" if kind == "player" else "card")
        for w in f.withs:
            self.cond(w, inner)

    def places(self, places: n.Places, scope: Scope) -> None:
        """Check the places of a choice ('from each of (...)', 'in total from (...)'): only 'choose' takes
        from them; each zone exists, and only an ordered zone has a top and a bottom."""
        if not scope.their:
            self.error("E106", f"'{'from each of' if places.each else 'in total from'} (...)' says where a "
                               "'choose' takes from; here say 'in <zone>'", places)
        for p in places.items:
            self.possessive(p.possessive, p, scope)
            if self.known(p.zone, "zone", self.sym.zones) and p.end and p.zone.value not in self.sym.ordered_zones:
                self.error("E105", f"'the {p.end} of {p.possessive} {p.zone.value}': only an ordered zone has a "
                                   f"top and a bottom; say '{p.possessive} {p.zone.value}'", p)

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


def _outermost_terms(root: n.Node) -> list[tuple[n.Node, int]]:
    """Return each term of a tree that no other term holds, with its depth."""
    found, stack = [], [root]
    while stack:  # iterative: a term may be deeper than Python's recursion limit lets a walk go
        node = stack.pop()
        if isinstance(node, _TERMS):
            found.append((node, _depth(node)))
        else:
            stack += _children(node)
    return found


def _depth(term: n.Node) -> int:
    """Return how many levels deep a term is: 1 for a number or a name, 1 more per node around it."""
    deepest, stack = 0, [(term, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack += [(child, depth + 1) for child in _children(node)]
    return deepest
