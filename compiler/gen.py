"""Hypothesis strategies for cards that VALIDATE against a ruleset, and for the games around them.

Public entry points (reused by tests/test_fuzzing.py and `cardc fuzz`, see tools/fuzzing.py):

- `valid_cards(symbols, names=None, exclude=())`: one well-formed card AST (compiler/nodes.py)
  that `compiler.check.validate` accepts with no diagnostic, in the vocabulary of `symbols`
  (`compiler.symbols.collect(files)` of a ruleset folder). Print it with `compiler.fmt.format_file`.
- `card_file(symbols, ...)`: a whole card file of such cards with distinct names.
- `decks(pool_names, size, ...)`: a deck (a list of card names) from a pool.
- `choices(...)`: a list of ints, each an index into `runtime.engine.legal_actions` at one
  decision (taken modulo the number of actions; a decision past the end of the list takes 0).

How a card is made, rule by rule (the rules are compiler/check.py's):
- its kind is one of the ruleset's kinds; a kind that 'resolves' (a spell) gets exactly one
  'effect:' and nothing else; other kinds get triggered, timed ('at the start of') and static
  abilities;
- every stat, resource, zone, phase, keyword, status and token name is one the ruleset defines;
  keywords are used with as many arguments as they have parameters; 'give', 'remove' and 'has'
  name only keywords without parameters (or statuses);
- a trigger's subject agrees with its event: card events ('is summoned', 'attacks', ...) are
  said of 'this' or of 'a <card filter>', player events ('draws a card', 'loses life', ...) of a
  player word or 'a player'; 'takes damage' of either;
- effects get objects of the right type: card-only effects (destroy, give, put, remove, return,
  move, gets, can't, has) get card objects; draw, gain, lose, discard and create get players;
  deal damage gets either;
- 'it' is used only where it means something (after a target of the same ability, or in a
  triggered ability, where it is the event's card or player) and only where that is a card when
  a card is needed; 'that <noun>' only in triggered abilities; 'the amount' only when the event
  has an amount; a bare name (a stat of the candidate) only inside a filter's 'with';
- static abilities only say 'gets', "can't", 'has' (keywords without parameters) and 'damage to
  ... is reduced by', of 'this' or of '<filter>', without durations, 'you may' or costs;
- 'you may' sentences are all costs or all effects; 'as a cost,' sentences are all costs;
  'if you do' / 'if you don't' follow one of those.

Beyond validity, two restrictions keep games finite (the runtime has no guard against a trigger
that feeds itself, see docs/fuzzing.md): a triggered ability whose subject is not 'this' never
gains a resource or creates tokens, and token amounts stay small.

`exclude` removes constructs by tag (see TAGS); by default `KNOWN_BUGS`, the tags of constructs that
currently break the formatter or the runtime, so tests keep passing until they are fixed (pass
`exclude=()` to generate them too).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from hypothesis import strategies as st

from compiler import nodes as n
from compiler.symbols import Symbols
from runtime import vocabulary as v

L = n.NOWHERE
MAX_DEPTH = 2  # nesting of expressions and conditions

# Tags of constructs that `exclude=` can leave out.
TAGS = ("each player filter",)
# Constructs that validate but break today (docs/fuzzing.md, "Known bugs"); left out by default.
# None at the moment: the bugs fuzzing found are fixed and kept as regression tests
# (tests/test_compiler_regressions.py).
KNOWN_BUGS: frozenset[str] = frozenset()

# Player events and the two ways of saying each: (said of 'you', said of anyone else).
_PLAYER_PHRASES = {
    "drew": ("draw a card", "draws a card"),
    "lost_life": ("lose life", "loses life"),
    "gained_life": ("gain life", "gains life"),
    "damaged": ("take damage", "takes damage"),
}
_CARD_PHRASES = sorted(p for p, spec in v.EVENT_PHRASES.items() if spec.about == "card")
_CARD_POSSESSIVES = ("your", "its", "the opponent's", "its owner's")  # 'their' is for lose rules
_COMPARE = (">=", "<=", "==", "!=", ">", "<")
_CHOOSERS = ("you", "the opponent", "each player")  # who chooses while resolving
_BATTLE_WORDS: dict[str, n.Object] = {"attacker": n.Attacker(L), "blocker": n.Blocker(L)}
# Card events after which 'the blocker' means nothing yet (compiler/check.py: the block comes later)
_BEFORE_BLOCK = ("attacks", "is not blocked")
_COSTS = ("Destroy", "Lose", "Pay", "Remove", "ReturnToHand", "Discard")
_WORDS = re.compile(r"[A-Za-z][A-Za-z0-9]{0,9}")
_RESERVED = {"a", "all", "an", "and", "any", "at", "card", "cost", "damage", "deal", "each", "effect",
             "if", "in", "it", "kind", "keyword", "no", "not", "number", "of", "on", "or", "player",
             "static", "stats", "status", "target", "text", "the", "this", "to", "token", "turn", "up",
             "when", "with", "you", "your"}


@dataclass(frozen=True)
class Where:
    """What a phrase may refer to at the place it is generated (compiler/check.py's Scope)."""

    about: str = ""  # the triggering event is about a 'card' or a 'player' ('' : no event)
    amount: bool = False  # the event has an amount ('the amount')
    it: str = ""  # what 'it' means here: 'card', 'player' or '' (nothing: not allowed)
    candidate: str = ""  # inside a filter's 'with': the candidate is a 'card' or a 'player'
    static: bool = False
    loop_safe: bool = False  # no gains and no tokens (triggers on other cards' events)
    battle: tuple[str, ...] = ("attacker", "blocker")  # battle words that mean something here


class _Gen:
    """Draws the parts of a card one decision at a time (everything goes through `draw`)."""

    def __init__(self, sym: Symbols, draw: Callable[[st.SearchStrategy], Any], exclude: frozenset[str]):
        if sym.ruleset is None:
            raise ValueError("valid cards need a ruleset: collect the symbols of a folder with one")
        self.sym, self.draw, self.exclude = sym, draw, exclude
        traits = {r.kind.value: r.traits for r in sym.ruleset.rules if isinstance(r, n.KindRule)}
        self.kinds = tuple(sym.kinds)
        self.resolving = {k for k in self.kinds if "resolves" in traits.get(k, ())}
        self.card_stats = tuple(sym.stats) + v.CARD_NUMBERS
        self.names = tuple(sorted(sym.keywords)) + tuple(sorted(sym.statuses))
        self.plain_names = tuple(sorted(k for k, kw in sym.keywords.items() if not kw.params))
        self.plain_names += tuple(sorted(sym.statuses))
        self.plain_keywords = tuple(sorted(k for k, kw in sym.keywords.items() if not kw.params))
        # attribute values that belong to one attribute only ('red unit' needs no 'with colour')
        self.attr_values = tuple(sorted(val for attr, values in sym.attributes.items() for val in values
                                        if len(sym.attribute_of(val)) == 1))
        tokens = [name for name, c in sym.cards.items() if c.token]
        self.tokens = tuple(sorted(tokens)) or tuple(sorted(sym.cards))

    # ------------------------------------------------------------ helpers

    def pick(self, options: Sequence[Any]) -> Any:
        return self.draw(st.sampled_from(list(options)))

    def maybe(self, percent: int) -> bool:
        """Return True with about this chance (shrinks to False)."""
        return self.draw(st.integers(0, 99)) >= 100 - percent

    def some(self, low: int, high: int) -> int:
        return self.draw(st.integers(low, high))

    def name(self, value: str) -> n.Name:
        return n.Name(L, value)

    def player_word(self, w: Where) -> str:
        """Return a player word; 'its controller' and 'its owner' only where a card event set the ability off."""
        words = [p for p in sorted(v.PLAYER_WORDS) if (w.about == "card" or p not in v.EVENT_CARD_PLAYERS)
                 and (w.battle or p != "the defending player")]
        return self.pick(words)

    # ------------------------------------------------------------ expressions

    def card_ref(self, w: Where) -> n.Object | None:
        """Return a single-card reference usable in '<stat> of ...', or None if there is none."""
        options: list[n.Object] = [n.This(L)] + [_BATTLE_WORDS[b] for b in w.battle]
        if w.it == "card":
            options.append(n.It(L))
        if w.about == "card":
            options.append(n.EventObject(L, self.name(self.pick(("card",) + self.kinds))))
        return self.pick(options)

    def expr(self, w: Where, depth: int = MAX_DEPTH) -> n.Expr:
        leaves = ["number", "number", "turn", "own_turn", "stat_of", "stat_own", "count", "stacks"]
        if w.amount:
            leaves.append("amount")
        if w.candidate:
            leaves += ["param", "param"]
        branches = ["binop", "div", "neg", "call", "half"] if depth > 0 else []
        what = self.pick(leaves + branches)
        sub = depth - 1
        match what:
            case "number":
                return n.Number(L, self.some(0, 9) if self.maybe(90) else self.some(10, 99))
            case "turn":
                return n.TurnNumber(L)
            case "own_turn":
                # a card takes no turns: 'its turn number' is refused (E105)
                return n.OwnTurnNumber(L, self.pick(("your", "the opponent's")))
            case "stat_of":
                if self.maybe(30):
                    return n.StatOf(L, self.name(self.pick(self.sym.resources)),
                                    n.PlayerRef(L, self.player_word(w)))
                ref = self.card_ref(w)
                assert ref is not None
                return n.StatOf(L, self.name(self.pick(self.card_stats)), ref)
            case "stat_own":
                pos = self.pick(_CARD_POSSESSIVES)
                of_card = v.POSSESSIVES[pos] in ("controller", "owner")
                return n.StatOwn(L, pos, self.name(self.pick(self.card_stats if of_card else self.sym.resources)))
            case "count":
                return n.Count(L, self.filter(w, withs=False))
            case "stacks":
                ref = self.card_ref(w)
                assert ref is not None
                return n.Stacks(L, self.name(self.pick(sorted(self.sym.statuses))), ref)
            case "amount":
                return n.EventAmount(L)
            case "param":
                table = self.card_stats if w.candidate == "card" else self.sym.resources
                return n.Param(L, self.name(self.pick(table)))
            case "binop":
                return n.BinOp(L, self.pick("+-*"), self.expr(w, sub), self.expr(w, sub))
            case "div":
                return n.Div(L, self.expr(w, sub), self.expr(w, sub), self.pick(("down", "up")))
            case "neg":
                return n.Neg(L, self.expr(w, sub))
            case "call":
                return n.Call(L, self.pick(("min", "max")), (self.expr(w, sub), self.expr(w, sub)))
        return n.Half(L, self.expr(w, sub), self.pick(("down", "up")))

    # ------------------------------------------------------------ conditions

    def cond(self, w: Where, depth: int = MAX_DEPTH) -> n.Cond:
        atoms = ["compare", "compare", "at_bound", "has", "controls"]
        branches = ["all", "any", "not"] if depth > 0 else []
        what = self.pick(atoms + branches)
        sub = depth - 1
        match what:
            case "compare":
                return n.Compare(L, self.expr(w, 1), self.pick(_COMPARE), self.expr(w, 1))
            case "at_bound":
                return n.AtBound(L, self.expr(w, 1), self.expr(w, 1), self.pick(("more", "less")))
            case "has":
                return n.Has(L, self.card_object(w, targets=False), self.name(self.pick(self.names)))
            case "controls":
                return n.Controls(L, n.PlayerRef(L, self.player_word(w)),
                                  self.pick(("a", "an", "no", "another")), self.filter(w, withs=False))
            case "all":
                return n.AllOf(L, self.cond(w, sub), self.cond(w, sub))
            case "any":
                return n.AnyOf(L, self.cond(w, sub), self.cond(w, sub))
        return n.Negation(L, self.cond(w, sub))

    def with_cond(self, w: Where) -> n.Cond:
        what = self.pick(("compare", "bound", "has", "lacks") + (("attribute",) if self.attr_values and
                                                                  w.candidate == "card" else ()))
        table = self.card_stats if w.candidate == "card" else self.sym.resources
        match what:
            case "attribute":
                value = self.pick(self.attr_values)
                return n.WithAttribute(L, self.name(self.sym.attribute_of(value)[0]), self.name(value))
            case "compare":
                return n.Compare(L, self.expr(w, 1), self.pick(_COMPARE), self.expr(w, 1))
            case "bound":
                return n.StatBound(L, self.name(self.pick(table)), self.some(0, 9), self.pick(("more", "less")))
            case "has":
                return n.HasSelf(L, self.name(self.pick(self.names)))
        return n.Lacks(L, self.name(self.pick(self.names)))

    # ------------------------------------------------------------ filters and objects

    def places(self) -> n.Places:
        """Return the places of a choice: one to three, each the top or the bottom of an ordered zone or a zone."""
        items = []
        for _ in range(self.some(1, 3)):
            zone = self.pick(self.sym.zones)
            end = self.pick(("top", "bottom", "")) if zone in self.sym.ordered_zones else ""
            items.append(n.ChoicePlace(L, end, self.pick(("your", "the opponent's", "their")), self.name(zone)))
        return n.Places(L, self.maybe(50), tuple(items))

    def filter(self, w: Where, withs: bool = True, players: bool = False, plural: bool = False) -> n.Filter:
        """Return a card filter ('creatures you control in your hand with power 2 or more'), or,
        with players=True, a player filter ('player an opponent controls with life < 5')."""
        if players:
            kind = "players" if plural else self.pick(("player", "players"))
        else:
            kind = self.pick(("card",) + self.kinds)
            kind = kind + "s" if self.maybe(30) else kind
        controls = [c for c in sorted(v.CONTROL_WORDS) if w.battle or "defending" not in c]
        control = self.pick(controls) if self.maybe(40) else None
        zone = None
        if not players and self.maybe(20):
            zone = n.ZoneRef(L, self.pick(_CARD_POSSESSIVES), self.name(self.pick(self.sym.zones)))
        conds: tuple[n.Cond, ...] = ()
        if withs:
            inner = replace(w, candidate="player" if players else "card")
            conds = tuple(self.with_cond(inner) for _ in range(self.some(0, 2)))
        if players:
            return n.Filter(L, self.name(kind), control, zone, conds)
        # 'your other red creatures': plain filters ('number of', 'controls') take only 'other'
        other = self.maybe(15)
        possessive = "your" if withs and control is None and self.maybe(10) else None
        attrs = tuple(self.name(self.pick(self.attr_values)) for _ in range(self.some(0, 1))
                      if withs and self.attr_values and self.maybe(30))
        return n.Filter(L, self.name(kind), control, zone, conds, possessive, other, attrs)

    def card_object(self, w: Where, targets: bool) -> n.Object:
        """Return a phrase naming cards. A target is counted in `self.state` by the caller."""
        options = ["this", "each", "each", "extreme", "random", *w.battle]
        if w.it == "card":
            options.append("it")
        if w.about == "card":
            options.append("that")
        if targets:
            options += ["target", "target"]
        match self.pick(options):
            case "this":
                return n.This(L)
            case "attacker":
                return n.Attacker(L)
            case "blocker":
                return n.Blocker(L)
            case "it":
                return n.It(L)
            case "that":
                return n.EventObject(L, self.name(self.pick(("card",) + self.kinds)))
            case "extreme":
                return n.Extreme(L, self.pick(("leftmost", "rightmost")), self.filter(w))
            case "random":
                return n.RandomOne(L, self.filter(w))
            case "target":
                count, up_to = self.some(1, 3), self.maybe(30)
                another = count == 1 and not up_to and self.maybe(15)  # 'another target ...'
                return n.Target(L, count, up_to, self.filter(w), another)
        return n.Each(L, self.filter(w))

    def player_object(self, w: Where, targets: bool) -> n.Object:
        """Return a player as the grammar's `player`: a player word, 'target player', 'that player'."""
        options = ["word", "word", "word"]
        if targets:
            options.append("target")
        if w.about:
            options.append("that")
        match self.pick(options):
            case "target":
                return n.TargetPlayer(L)
            case "that":
                return n.EventObject(L, self.name("player"))
        return n.PlayerRef(L, self.player_word(w))

    def damage_object(self, w: Where, targets: bool) -> n.Object:
        """Return what damage can be dealt to: cards or players."""
        what = self.pick(("card", "card", "player", "players"))
        if what == "card":
            return self.card_object(w, targets)
        if what == "player":
            return self.player_object(w, targets)
        if self.maybe(30):
            return n.RandomOne(L, self.filter(w, players=True))
        return n.Each(L, self.filter(w, players=True, plural="each player filter" in self.exclude))

    # ------------------------------------------------------------ effects

    def effect(self, state: _Body, cost: bool | None) -> n.Effect:
        """Return one effect; cost=True: a cost effect, False: a non-cost effect, None: either."""
        w = state.where
        costs = list(_COSTS)
        others = ["DealDamage", "DealDamage", "Draw", "Give", "PutStatus", "RemoveDamage", "MoveToEnd",
                  "Modify", "Modify", "Restrict", "Choose", "DiscardChoice", "Reveal", "Shuffle"]
        others += ["Grant"] if self.plain_keywords else []
        if not w.loop_safe:
            others += ["Gain", "Gain", "CreateToken"]
        if cost is False:  # a 'you may' of effects: a discard there would be a cost (E106 when chosen)
            others = [k for k in others if k != "DiscardChoice"]
        kinds = costs if cost else others if cost is False else costs + others
        what = self.pick(kinds)
        t = state.targets_allowed
        match what:
            case "DealDamage":
                target = state.saw(self.damage_object(w, t))
                return n.DealDamage(L, self.expr(state.where), target)
            case "Destroy":
                return n.Destroy(L, state.saw(self.card_object(w, t)))
            case "Draw":
                player = state.saw(self.player_object(w, t)) if self.maybe(60) else None
                return n.Draw(L, player, self.expr(state.where, 1))
            case "Gain":
                player = state.saw(self.player_object(w, t)) if self.maybe(60) else None
                return n.Gain(L, player, self.expr(state.where), self.name(self.pick(self.sym.resources)))
            case "Lose":
                player = state.saw(self.player_object(w, t)) if self.maybe(60) else None
                amount = self.expr(state.where) if self.maybe(80) else None
                return n.Lose(L, player, amount, self.name(self.pick(self.sym.resources)))
            case "Pay":
                return n.Pay(L, self.expr(w, 1), self.name(self.pick(self.sym.resources)))
            case "Give":
                target = _without_attributes(state.saw(self.card_object(w, t)))
                return n.Give(L, target, self.name(self.pick(self.plain_names)), self.duration())
            case "PutStatus":
                target = state.saw(self.card_object(w, t))
                return n.PutStatus(L, self.expr(state.where, 1), self.name(self.pick(sorted(self.sym.statuses))),
                                   target, self.duration())
            case "Remove":
                target = state.saw(self.card_object(w, t))
                amount = self.expr(state.where, 1) if self.maybe(50) else None
                return n.Remove(L, amount, self.name(self.pick(self.plain_names)), target)
            case "RemoveDamage":
                return n.RemoveDamage(L, state.saw(self.card_object(w, t)))
            case "ReturnToHand":
                return n.ReturnToHand(L, state.saw(self.card_object(w, t)))
            case "MoveToEnd":
                return n.MoveToEnd(L, state.saw(self.card_object(w, t)), self.pick(("left", "right")))
            case "CreateToken":
                player = state.saw(self.player_object(w, t)) if self.maybe(40) else None
                return n.CreateToken(L, player, n.Number(L, self.some(0, 3)), self.pick(self.tokens))
            case "Discard":
                player = state.saw(self.player_object(w, t)) if self.maybe(60) else None
                return n.Discard(L, player, self.expr(state.where, 1))
            case "DiscardChoice":  # a choice while resolving; 'it' is not the discarded cards (E110: they moved)
                player = n.PlayerRef(L, self.pick(_CHOOSERS)) if self.maybe(60) else None
                return n.Discard(L, player, self.expr(state.where, 1), self.pick(("their", "your")))
            case "Choose":
                player = n.PlayerRef(L, self.pick(_CHOOSERS)) if self.maybe(40) else None
                f = self.filter(w, withs=self.maybe(50))
                if self.maybe(15):  # over several places: 'from each of (...)', 'in total from (...)'
                    f = replace(f, zone=None, places=self.places())
                return state.chose(n.Choose(L, player, self.some(1, 2), self.maybe(30), f))
            case "Reveal":
                return n.Reveal(L, state.saw(self.card_object(w, t)))
            case "Shuffle":
                return n.Shuffle(L, self.pick(("your", "the opponent's")), self.name(self.pick(self.sym.zones)))
            case "Modify":
                target = state.saw(self.card_object(w, t))
                return n.Modify(L, target, self.pick("+-"), self.expr(state.where),
                                self.name(self.pick(self.sym.stats)), self.duration())
            case "Restrict":
                return n.Restrict(L, state.saw(self.card_object(w, t)), self.pick(sorted(v.RESTRICTIONS)),
                                  self.duration())
        return n.Grant(L, state.saw(self.card_object(w, t)), self.name(self.pick(self.plain_keywords)))

    def static_effect(self, w: Where) -> n.Effect:
        target: n.Object = n.This(L) if self.maybe(50) else n.Each(L, self.filter(w))
        what = self.pick(("Modify", "Restrict", "Grant", "ReduceDamage") if self.plain_keywords else
                         ("Modify", "Restrict", "ReduceDamage"))
        match what:
            case "Modify":
                return n.Modify(L, target, self.pick("+-"), self.expr(w), self.name(self.pick(self.sym.stats)), None)
            case "Restrict":
                return n.Restrict(L, target, self.pick(sorted(v.RESTRICTIONS)), None)
            case "Grant":
                return n.Grant(L, target, self.name(self.pick(self.plain_keywords)))
        return n.ReduceDamage(L, target, self.expr(w, 1))

    def duration(self) -> n.Duration | None:
        return n.Duration(L, self.pick(v.DURATIONS)) if self.maybe(40) else None

    # ------------------------------------------------------------ bodies and abilities

    def body(self, w: Where, static: bool = False) -> tuple[n.Sentence, ...]:
        state = _Body(w, targets_allowed=not static)
        out: list[n.Sentence] = []
        after_cost = False
        for _ in range(self.some(1, 3)):
            modes = ["do", "do"] if static else ["do", "do", "may", "must_pay"]
            if after_cost:
                modes += ["if_you_do", "if_you_dont"]
            mode = self.pick(modes)
            count = self.some(1, 2)
            if static:
                condition = self.cond(state.where) if self.maybe(30) else None
                effects = tuple(self.static_effect(state.where) for _ in range(count))
                out.append(n.Sentence(L, "do", condition, effects))
                continue
            condition = self.cond(state.where) if mode == "do" and self.maybe(30) else None
            if mode == "may":
                cost: bool | None = self.maybe(50)
            elif mode == "must_pay":
                cost = True
            else:
                cost = None
            effects = tuple(self.effect(state, cost) for _ in range(count))
            after_cost = after_cost or mode in ("may", "must_pay")
            out.append(n.Sentence(L, mode, condition, effects))
        return tuple(out)

    def triggered(self) -> n.Triggered:
        about = self.pick(("card", "card", "player"))
        if about == "card":
            phrase = self.pick(_CARD_PHRASES)
            if self.maybe(50):
                subject = n.Subject(L, "this", "this", None)
            else:
                subject = n.Subject(L, "filter", self.pick(("a", "an", "any", "another")), self.filter(Where()))
        else:
            event = self.pick(sorted(_PLAYER_PHRASES))
            if self.maybe(85):
                word = self.pick(sorted(v.SUBJECT_PLAYERS))
                subject = n.Subject(L, "player", word, None)
                phrase = _PLAYER_PHRASES[event][0 if word == "you" else 1]
            else:
                subject = n.Subject(L, "filter", self.pick(("a", "any")), self.filter(Where(), players=True))
                phrase = _PLAYER_PHRASES[event][1]
        amount = v.EVENT_PHRASES[phrase].has_amount
        battle = ("attacker",) if phrase in _BEFORE_BLOCK else ("attacker", "blocker")
        w = Where(about=about, amount=amount, it=about, loop_safe=subject.kind != "this", battle=battle)
        condition = self.cond(w) if self.maybe(30) else None
        return n.Triggered(L, subject, phrase, condition, self.body(w))

    def timed(self) -> n.Timed:
        phase = self.name(self.pick(self.sym.phases)) if self.sym.phases and self.maybe(50) else None
        w = Where(battle=())  # an 'at the start of ...' ability runs outside any battle
        condition = self.cond(w) if self.maybe(30) else None
        return n.Timed(L, self.pick(sorted(v.WHOSE)), phase, condition, self.body(w))

    def card(self, name: str) -> n.Card:
        kind = self.pick(self.kinds)
        parts: list[n.CardPart] = [n.KindDecl(L, self.name(kind))]
        if self.maybe(85):
            resources = self.draw(st.lists(st.sampled_from(self.sym.resources), min_size=1, max_size=2, unique=True))
            parts.append(n.CostDecl(L, tuple(n.CostItem(L, self.some(0, 7), self.name(r)) for r in resources)))
        if self.sym.stats and self.maybe(85):
            stats = self.draw(st.lists(st.sampled_from(self.sym.stats), min_size=1, unique=True))
            parts.append(n.StatsDecl(L, tuple(n.StatItem(L, self.name(s), self.some(-2, 9)) for s in stats)))
        if self.maybe(15):
            attrs = self.draw(st.lists(st.tuples(_words, _words), min_size=1, max_size=2))
            parts.append(n.AttrsDecl(L, tuple(n.AttrItem(L, self.name(a), self.name(b)) for a, b in attrs)))
        if self.sym.keywords and self.maybe(30):
            used = self.draw(st.lists(st.sampled_from(sorted(self.sym.keywords)), min_size=1, max_size=2,
                                      unique=True))
            items = tuple(n.KeywordUse(L, self.name(k), tuple(self.some(0, 4) for _ in self.sym.keywords[k].params))
                          for k in used)
            parts.append(n.KeywordsDecl(L, items))
        if self.maybe(40):
            parts.append(n.TextDecl(L, self.draw(st.text(max_size=30))))
        abilities: list[n.Ability]
        if kind in self.resolving:
            abilities = [n.SpellEffect(L, self.body(Where()))]
        else:
            abilities = []
            for _ in range(self.some(0, 3)):
                what = self.pick(("triggered", "triggered", "timed", "static"))
                if what == "triggered":
                    abilities.append(self.triggered())
                elif what == "timed":
                    abilities.append(self.timed())
                else:
                    abilities.append(n.Static(L, self.body(Where(static=True), static=True)))
        return n.Card(L, name, tuple(parts), tuple(abilities))


@dataclass
class _Body:
    """What one ability body has named so far: the targets that 'it' may then refer to."""

    where: Where
    targets_allowed: bool = True

    def chose(self, e: n.Effect) -> n.Effect:
        """Note a choice while resolving: 'it' then means what was chosen, cards."""
        self.where = replace(self.where, it="card")
        return e

    def saw(self, o: n.Object) -> n.Object:
        """Note an object of an effect: after a target, 'it' means that target."""
        if isinstance(o, n.Target):
            self.where = replace(self.where, it="card")
        elif isinstance(o, n.TargetPlayer):
            self.where = replace(self.where, it="player")
        return o


_words = st.from_regex(_WORDS, fullmatch=True).filter(lambda w: w.lower() not in _RESERVED)


def card_names(taken: Iterable[str] = ()) -> st.SearchStrategy[str]:
    """Names for new cards: 'Fuzz <Word>', never one of `taken`."""
    used = set(taken)
    return _words.map(lambda w: f"Fuzz {w[:1].upper()}{w[1:]}").filter(lambda x: x not in used)


def valid_cards(symbols: Symbols, names: st.SearchStrategy[str] | None = None,
                exclude: Iterable[str] = KNOWN_BUGS) -> st.SearchStrategy[n.Card]:
    """Return a strategy of card ASTs that validate against `symbols` with no diagnostic."""
    unknown = set(exclude) - set(TAGS)
    if unknown:
        raise ValueError(f"unknown construct tags {sorted(unknown)}; known: {TAGS}")
    names = names if names is not None else card_names(symbols.cards)
    skip = frozenset(exclude)

    @st.composite
    def cards(draw) -> n.Card:
        return _Gen(symbols, draw, skip).card(draw(names))

    return cards()


def card_file(symbols: Symbols, min_cards: int = 1, max_cards: int = 3, path: str = "fuzz_generated.card",
              exclude: Iterable[str] = KNOWN_BUGS) -> st.SearchStrategy[n.File]:
    """Return a strategy of card files holding 1..max_cards valid cards with distinct new names."""
    skip = frozenset(exclude)

    @st.composite
    def files(draw) -> n.File:
        names = draw(st.lists(card_names(symbols.cards), min_size=min_cards, max_size=max_cards, unique=True))
        return n.File(L, path, tuple(_Gen(symbols, draw, skip).card(name) for name in names))

    return files()


def deckable(symbols: Symbols) -> list[str]:
    """Return the names of the cards a deck may hold (tokens excluded), sorted."""
    return sorted(name for name, c in symbols.cards.items() if not c.token)


def decks(pool_names: Sequence[str], size: int, max_copies: int = 0,
          include: Sequence[str] = ()) -> st.SearchStrategy[list[str]]:
    """Return a strategy of decks of exactly `size` cards from `pool_names`, at most `max_copies`
    of each (0: no limit). With `include`, 1 to size/2 of the cards are drawn from it."""
    pool = sorted(set(pool_names))
    focus = sorted(set(include))
    if not pool and not focus:
        raise ValueError("an empty pool makes no deck")

    @st.composite
    def build(draw) -> list[str]:
        chosen: list[str] = []
        if focus:
            chosen += draw(st.lists(st.sampled_from(focus), min_size=1, max_size=max(1, size // 2)))
        source = pool or focus
        while len(chosen) < size:
            name = draw(st.sampled_from(source))
            if max_copies and chosen.count(name) >= max_copies:
                spare = [x for x in source if chosen.count(x) < max_copies]
                if not spare:
                    break  # the pool is too small for a legal deck; the game refuses it
                name = spare[draw(st.integers(0, len(spare) - 1))]
            chosen.append(name)
        return chosen[:size]

    return build()


def choices(max_size: int = 400) -> st.SearchStrategy[list[int]]:
    """Return a strategy of decision lists: entry i picks legal_actions(s)[i % len(actions)] at the
    i-th decision of a game; decisions past the end of the list take action 0."""
    return st.lists(st.integers(0, 255), max_size=max_size)


def pick(choices_: Sequence[int], i: int, count: int) -> int:
    """Return the index of the action a choice list takes at decision i among `count` actions."""
    return choices_[i] % count if i < len(choices_) else 0


def _without_attributes(o: n.Object) -> n.Object:
    """Return an object whose filter tests no attribute: the filter of 'give' takes none (its keyword
    name follows the filter; grammar/cards.lark, give_filter)."""
    f = getattr(o, "filter", None)
    if not isinstance(f, n.Filter):
        return o
    withs = tuple(c for c in f.withs if not isinstance(c, n.WithAttribute))
    return replace(o, filter=replace(f, attrs=(), withs=withs))  # type: ignore[arg-type]
