"""Stage 2, the Checker's methods for effects: where each may be said, its names, its choices."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from compiler import nodes as n
from compiler.check_common import _children, _effect_word, _names_player
from compiler.diagnostics import did_you_mean
from compiler.symbols import Scope, Symbols, singular
from runtime import vocabulary as v

CARD_ONLY = ("Destroy", "Give", "PutStatus", "Remove", "RemoveDamage", "ReturnToHand", "MoveToEnd", "Modify",
             "Restrict", "Grant", "ReduceDamage", "Delete", "Summon", "Ready", "Exhaust", "LevelChange", "LiftRestriction",
             "BlockedBy", "MustBlock", "DamageFloor", "RemoveChanges", "GrantStatus", "DamageDealtBy",
             "RefuseChanges", "Pierce", "RangeShift", "DistanceAs", "CountsAs")
STATIC_ONLY = (n.ReduceDamage, n.BlockedBy, n.MustBlock, n.DamageFloor, n.GrantStatus, n.DamageDealtBy,
               n.RefuseChanges, n.Pierce, n.RangeShift, n.DistanceAs, n.CountsAs)


@dataclass
class EffectChecks:
    """Checker methods for the effects of a sentence."""

    sym: Symbols

    if TYPE_CHECKING:  # provided by compiler.check.Checker and its other parts
        def error(self, code: str, message: str, node: n.Node) -> None: ...
        def known(self, name: n.Name, what: str, table: Any) -> bool: ...
        def battle_effect(self, e: n.Effect, spec: v.EffectSpec, word: str, scope: Scope) -> None: ...
        def levels_error(self, found: str, node: n.Node) -> None: ...
        def possessive(self, pos: str, node: n.Node, scope: Scope) -> None: ...
        def term(self, t: n.Node, scope: Scope) -> None: ...
        def values(self) -> tuple[str, ...]: ...

    def effect(self, e: n.Effect, scope: Scope) -> None:
        spec = v.EFFECTS[type(e).__name__]
        word = _effect_word(e)
        if spec.procedure and scope.owner != "ruleset":
            self.error("E106", f"'{word}' is a turn procedure; it belongs in a ruleset's turn", e)
        elif isinstance(e, (n.PerformRolled, n.NormalMove)) and not self.sym.actor_turns:
            self.error("E106", f"'{word}' is the turn of a card; the ruleset's turns go to seats (say 'turns go "
                               "to KINDs in initiative order: ...')", e)
        if scope.static and not spec.static:
            self.error("E106", f"'{word}' cannot be a static ability; static abilities say 'gets', "
                               "\"can't\", 'has' or 'damage to ... is reduced by'", e)
            return
        if not scope.static and type(e) in STATIC_ONLY:
            self.error("E106", f"'{word}' only works as a static ability", e)
        if scope.static and getattr(e, "duration", None) is not None:
            self.error("E106", "a static ability lasts while its source is on the field; remove the duration", e)
        if scope.static and not isinstance(getattr(e, "target", None), (n.This, n.Each, n.Holder)):
            self.error("E105", "a static ability applies to 'this', 'its holder' or to cards a filter names", e)
        if spec.one_by_one and isinstance(amount := getattr(e, "amount", None), n.Number) \
                and amount.value > v.MAX_AT_ONCE:
            self.error("E105", f"'{word}' is done at most {v.MAX_AT_ONCE:,} times at once, found {amount.value:,}", amount)
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
            case n.Choose(searched=True, filter=n.Filter(places=n.Places() as places)):
                self.error("E106", "a search looks through the one zone it names; to take from several places "
                                   "say 'choose ...'", places)
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
            case n.CountsAs(attribute=attribute, value=value):
                if self.known(attribute, "attribute", self.sym.attributes):
                    self.known(value, attribute.value, self.sym.attributes[attribute.value])
            case n.RangeShift() | n.DistanceAs() if not self.sym.lines and self.sym.ruleset is not None:
                self.error("E106", f"'{_effect_word(e)}' changes distances between lines, and the ruleset has no "
                                   "'lines' line", e)
            case n.MoveLines() if not self.sym.lines and self.sym.ruleset is not None:
                self.error("E106", "'move ... lines' moves cards between lines, and the ruleset has no 'lines' line", e)
            case n.Recover(value=stat) | n.ReduceDirectly(stat=stat) | n.SetValue(value=stat) if not self.sym.battle:
                self.lowered_stat(stat, _effect_word(e))
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
            case n.GrantStatus(name=name, value=value):
                if self.known(name, "status", self.sym.statuses) and value <= 0 and \
                        _stacking(self.sym.statuses[name.value]) not in ("merges", "never"):
                    self.error("E105", f"status '{name.value}' counts stacks, so it is generated with 1 or more, "
                                       f"found {value}", e)
            case n.DealDamage(unpreventable=True) if self.sym.battle:
                self.error("E106", "damage 'that can't be prevented' is for card games; a hit in a battle passes "
                                   "states by 'ignoring states of class ...'", e)
            case n.DealDamage(dealer=n.Each(article="") | n.PlayerRef() | n.TargetPlayer() as dealer):
                self.error("E105", "the dealer of damage ('X deals N damage to ...') is one card, such as 'this', "
                                   "'it' or 'the blocker'", dealer)
            case n.RefuseChanges(influence=influence) if not 1 <= influence <= 3:
                self.error("E105", f"an influence is 1, 2 or 3, found {influence}", e)
            case n.CreateToken() if self.sym.no_tokens:
                self.error("E106", "this ruleset has no token rules ('cards can't create tokens.'): a card can't "
                                   "create one", e)
            case n.CreateToken(card=card):
                if card not in self.sym.cards:
                    self.error("E101", f"unknown card '{card}'{did_you_mean(card, self.sym.cards)}", e)
            case n.Place(card=card, zone=zone):
                if card not in self.sym.cards:
                    self.error("E101", f"unknown card '{card}'{did_you_mean(card, self.sym.cards)}", e)
                elif not self.sym.cards[card].token:
                    self.error("E105", f"'place' makes a new card, of no deck: card '{card}' must say 'token'", e)
                if self.known(zone, "zone", self.sym.zones) and zone.value in ("field", "hand", "deck"):
                    self.error("E105", f"'place' puts a card into a zone of its own, such as a shared one; "
                                       f"found '{zone.value}'", zone)
            case n.PlayStaged(kinds=kinds, order=order):
                for k in kinds:
                    self.kind_name(k)
                self.order(order)
            case n.AttackAll(order=order):
                self.order(order)

    def lowered_stat(self, stat: n.Name, word: str) -> None:
        """Check that a card game's 'recovers' or 'reduce ... directly' names the stat damage lowers."""
        lowered = self.sym.damage_lowers
        if self.sym.ruleset is not None and stat.value != lowered:
            what = f"the stat damage lowers, '{lowered}'" if lowered else \
                "the stat a ruleset's 'damage lowers STAT' line names, and this ruleset has none"
            self.error("E105", f"'{word}' changes {what}; found '{stat.value}'", stat)

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


def _count_targets(node: n.Node) -> int:
    """Return how many target phrases a node holds (an effect may name its target after 'it')."""
    own = 1 if isinstance(node, (n.Target, n.TargetPlayer)) else 0
    return own + sum(_count_targets(c) for c in _children(node))


def _stacking(st: n.StatusDef) -> str:
    """Return how a status stacks ('stacks' unless it says)."""
    return next((value for key, value in st.settings if key == "stacking"), "stacks")
