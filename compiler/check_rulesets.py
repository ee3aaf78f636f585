"""Stage 2, the Checker's methods for rulesets: required lines, rules, settings and actions."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from compiler import nodes as n
from compiler.check_common import NO_BATTLE
from compiler.diagnostics import did_you_mean, quoted_list
from compiler.symbols import Scope, Symbols, singular
from runtime import vocabulary as v

REQUIRED_ZONES = ("deck", "hand", "field", "graveyard")
REPEATABLE_SETTINGS = ("ban", "option", "resource", "kind count", "stands behind", "summon onto")  # each line adds one more
SETTING_WORDS = {"automatic": "battles are automatic", "launch turn": "swords launch at turn",
                 "judge first": "judges count ... first", "whole choice": "a choice that cannot meet its count chooses nothing",
                 "search may end": "a search that finds nothing may end the effect"}  # a setting's key as the designer wrote it
# Which battle words (compiler/check_terms.py BATTLE_WORDS) each part of a ruleset's 'battle { ... }'
# can mean (runtime/turns.py: 'blocked' runs before the winner is known).
BATTLE_PARTS = {"blocked": ("attacker", "blocker", "defender"), "unblocked": ("attacker", "defender")}


def _value(x: object) -> object:
    """Return a setting value as written: a name's text, a number as it is."""
    return x.value if isinstance(x, n.Name) else x


@dataclass
class RulesetChecks:
    """Checker methods for a ruleset and its rules."""

    sym: Symbols

    if TYPE_CHECKING:  # provided by compiler.check.Checker and its other parts
        def error(self, code: str, message: str, node: n.Node) -> None: ...
        def known(self, name: n.Name, what: str, table: Any) -> bool: ...
        def battle_rule(self, rule: n.Rule, scope: Scope) -> bool: ...
        def battle_ruleset(self, rs: n.Ruleset) -> None: ...
        def body(self, sentences: tuple[n.Sentence, ...], scope: Scope) -> None: ...
        def cond(self, c: n.Cond, scope: Scope) -> None: ...
        def filter(self, f: n.Filter, scope: Scope) -> None: ...
        def kind_name(self, k: n.Name) -> None: ...
        def order(self, keys: tuple[n.OrderKey, ...]) -> None: ...

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
                for needs in ("works while attached", "inherited"):
                    if needs in traits and self.sym.ruleset is not None and not any(
                            isinstance(r, n.ZoneDecl) and "attached" in r.flags for r in self.sym.ruleset.rules):
                        self.error("E103", f"kind '{kind.value}' '{needs}', and the ruleset declares no "
                                           "zone for attached cards ('zone NAME attached')", rule)
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
                self.battle_steps(rule)
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

    def zone(self, z: n.ZoneDecl) -> None:
        """Check a zone's limit: 'max 0' is refused, as a zone no card may enter or a slip for 'no limit'."""
        if z.limit == 0:
            self.error("E105", f"zone '{z.name.value}' holds at most 0 cards; a limit is 1 or more "
                               "(leave out 'max' for no limit)", z)
        if "not counting tokens" in z.flags and z.limit is None:
            self.error("E105", f"zone '{z.name.value}' has no limit for tokens not to count toward; "
                               "write 'max N, not counting tokens'", z)

    def actor_kind(self, rule: n.Setting) -> None:
        """Check the kind that takes turns or starts on the field, and the initiative dice."""
        name = rule.values[0]
        assert isinstance(name, n.Name)
        if singular(name.value, self.sym.kinds) not in self.sym.kinds:
            self.known(name, "card kind", self.sym.kinds)
        if rule.key == "actor turns":
            count, sides = (int(str(x)) for x in rule.values[1:])
            if not 1 <= count <= v.MAX_DICE or not 2 <= sides <= v.MAX_FACES:
                self.error("E105", f"initiative: roll 1 to {v.MAX_DICE} dice of 2 to {v.MAX_FACES} faces", rule)

    def battle_steps(self, battle: n.Battle) -> None:
        """Check a battle's steps: each once, the block before the damage, 'leave' only where destroyed cards stay,
        and quiet steps among them."""
        words = [x.value for x in battle.steps]
        if battle.steps and ("block" not in words or "damage" not in words or words.index("block") > words.index("damage")):
            self.error("E105", f"a battle's steps have 'block' and then 'damage'; found {', '.join(words)}",
                       battle.steps[0])
        for k, x in enumerate(battle.steps):
            if x.value in words[:k]:
                self.error("E104", f"the battle's steps name '{x.value}' twice", x)
        if "leave" in words and not self._has("destroyed stay"):
            self.error("E103", "the step 'leave' needs 'a destroyed card stays where it is until all processing has "
                               "finished.'", battle.steps[words.index("leave")])
        for x in battle.quiet:
            if x.value not in (words or v.BATTLE_STEPS[:4]):
                self.error("E105", f"no responses during '{x.value}', which is not one of the battle's steps", x)

    def _has(self, key: str) -> bool:
        """Return whether the ruleset has a setting line of this key."""
        rs = self.sym.ruleset
        return rs is not None and any(isinstance(r, n.Setting) and r.key == key for r in rs.rules)

    def flash_time(self, rule: n.Setting, names: list[n.Name]) -> None:
        """Check 'once a K succeeds, only Ks can respond ...': one kind, twice, whose cards respond."""
        kind, again = names[0].value, singular(names[1].value, self.sym.kinds)
        if not self.known(names[0], "card kind", self.sym.kinds):
            return
        if again != kind:
            self.error("E105", f"flash time names one kind twice ('once a {kind} succeeds, only {kind} can "
                               f"respond'); found '{kind}' and '{names[1].value}'", names[1])
        rs = self.sym.ruleset
        traits = [t for r in (rs.rules if rs else ()) if isinstance(r, n.KindRule) and r.kind.value == kind
                  for t in r.traits]
        if "responds" not in traits:
            self.error("E106", f"'{kind}' cards never respond, so flash time would have nothing to offer; "
                               f"add 'responds' to 'kind {kind}: ...'", names[0])

    def kind_count(self, rule: n.Setting, kind: n.Name) -> None:
        """Check a kind that decks hold a number of: a kind that starts on the field, counted apart."""
        if not self.known(kind, "card kind", self.sym.kinds):
            return
        starting = [singular(str(_value(r.values[0])), self.sym.kinds) for r in self.sym.ruleset.rules
                    if isinstance(r, n.Setting) and r.key == "start on field"] if self.sym.ruleset else []
        if kind.value not in starting:
            self.error("E103", f"'decks hold exactly {rule.values[0]} {kind.value}.' counts a kind apart from the "
                               f"deck, so every {kind.value} must start on the field "
                               f"('every {kind.value} starts on the field.')", rule)

    def setting(self, rule: n.ZoneDecl | n.Setting) -> None:
        """Check the names a setting line refers to and the order of its numbers."""
        if isinstance(rule, n.ZoneDecl):
            self.zone(rule)
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
        elif rule.key == "table rules":
            self.known(names[0], "stat", self.sym.stats)
        elif rule.key == "squares" and not self.sym.lines:
            self.error("E103", "'each line has N squares.' needs a 'lines' line", rule)
        elif rule.key == "squares" and not 1 <= int(str(rule.values[0])) <= v.MAX_SQUARES:
            self.error("E105", f"a line has 1 to {v.MAX_SQUARES} squares, found {rule.values[0]}", rule)
        elif rule.key == "summon onto" and not self.sym.squares:
            self.error("E103", "'a ... may be summoned onto another.' needs a field of squares ('each line has N "
                               "squares.')", rule)
        elif rule.key == "summon onto":
            self.known(names[0], "card kind", self.sym.kinds)
        elif rule.key == "incapacitated":
            self.known(names[0], "stat", self.sym.stats)
            if rule.values[1] != 0:
                self.error("E105", f"a card is incapacitated at {names[0].value} 0 or less; found {rule.values[1]}",
                           rule)
        elif rule.key == "shared power":
            self.known(names[0], "stat", self.sym.stats)
        elif rule.key == "breakthrough":
            self.known(names[0], "keyword", self.sym.keywords)
            for stat in names[1:]:
                self.known(stat, "stat", self.sym.stats)
        elif rule.key in ("activated respond", "flash time") and not self._has("interruptible"):
            said = "activated abilities can respond" if rule.key == "activated respond" else "once a ... succeeds"
            self.error("E103", f"'{said} ...' needs a line saying what can be interrupted ('summons, moves and "
                               "destructions can be interrupted.')", rule)
        elif rule.key == "flash time":
            self.flash_time(rule, names)
        elif rule.key == "block rests" and names:
            self.known(names[0], "keyword", self.sym.keywords)
        elif rule.key == "slot match":
            self.known(names[0], "attribute", self.sym.attributes)
        elif rule.key == "stands behind":
            self.actor_kind(rule)
        elif rule.key in ("collapse", "stalemate", "default range") and not self.sym.lines:
            said = {"collapse": "an empty line is filled at once", "stalemate": "out of range, damage still reaches",
                    "default range": "a card with no range has range"}[rule.key]
            self.error("E103", f"'{said} ...' needs a 'lines' line", rule)
        elif rule.key in ("actor turns", "start on field"):
            self.actor_kind(rule)
        elif rule.key == "kind count":
            self.kind_count(rule, names[0])
        elif rule.key == "tokens leave" and "removed" not in self.sym.zones:
            self.error("E103", "'tokens that leave the field leave the game.' needs a 'removed' zone for what "
                               "has left the game", rule)
        elif rule.key == "players" and not 1 <= int(str(rule.values[0])) <= int(str(rule.values[-1])):
            self.error("E105", f"'players {' to '.join(map(str, rule.values))}': at least 1 player, and the "
                               "most no fewer than the least", rule)
        elif rule.key == "levels" and rule.values[0] != 1:
            self.error("E105", f"levels start at 1, found {rule.values[0]}", rule)
        elif rule.key == "resource":
            bounds = {str(k): int(str(x)) for k, x in zip(rule.values[2::2], rule.values[3::2], strict=True)}
            low, high, start = bounds.get("min"), bounds.get("max"), int(str(rule.values[1]))
            if (low is not None and low > start) or (high is not None and high < start):
                self.error("E105", f"resource '{names[0].value}' starts at {start}, outside its bounds", rule)
