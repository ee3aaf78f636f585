"""The reference interpreter's own readings of the AST: ruleset lines into the runtime's ruleset
settings, trigger phrases into events, kind words into kinds, and what a sentence acts on.

Lowering has its own readings of the same things (compiler/settings.py, compiler/symbols.py,
compiler/lower.py). The interpreter does not share them, so that a bug in one of them makes the
compiled game and the interpreted one part (docs/fuzzing.md, "What the differential oracle can and
cannot catch"). Only the AST and the vocabulary data of runtime/vocabulary.py are shared.

Public entry points: `read_settings(rs) -> dict` (RulesetDef attribute -> value), `event_of`,
`kind_of`, `acted_on`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from compiler import nodes as n
from runtime import vocabulary as v

Values = list  # a setting line's values, names read as their text
Reader = Callable[[Values], dict[str, Any]]

# 'if every player loses at once, ...' and 'on a tie, ...': the outcome phrase, as RulesetDef says it
OUTCOME_WORDS = {"the game is a draw": "draw", "they all lose": "lose", "the first player wins": "first",
                 "the second player wins": "second"}

# ---------------------------------------------------------------- kinds, events, acted-on objects


def kind_of(word: str, kinds: tuple[str, ...]) -> str:
    """Return the kind a filter's noun names: a kind, or its plural ('creatures', 'swordsmen'); else the word."""
    for kind in (*kinds, *v.GENERIC_KINDS):
        if word == kind or word in _plurals(kind):
            return kind
    return word


def _plurals(kind: str) -> tuple[str, ...]:
    """Return the plurals a kind word is written with: '-s' always, and '-men' for '-man'."""
    return (kind + "s", kind[:-3] + "men") if kind.endswith("man") else (kind + "s",)


def event_of(a: n.Triggered, kinds: tuple[str, ...]) -> v.EventSpec:
    """Return the event a triggered ability listens to. 'takes damage' said of a player (the subject
    is a player word, or a filter of players) is the player-damage event; every other phrase is its
    vocabulary entry."""
    subject = a.subject
    about_players = subject.kind == "player" or (
        subject.filter is not None and kind_of(subject.filter.kind.value, kinds) == "player")
    if about_players and a.event == v.PLAYER_TAKES_DAMAGE:
        return v.PLAYER_DAMAGED
    return v.EVENT_PHRASES[a.event]


def acted_on(e: n.Effect) -> n.Object | None:
    """Return the object an effect acts on, for the 'if that happened' after it: its target, else its player."""
    for part in ("target", "player"):
        found = getattr(e, part, None)  # effects name what they act on with one of these two fields
        if found is not None:
            return found
    return None


# ---------------------------------------------------------------- ruleset lines


def read_settings(rs: n.Ruleset) -> dict[str, Any]:
    """Return the ruleset's data settings, one RulesetDef attribute each (the ones every ruleset has
    included), read from its lines in file order."""
    out: dict[str, Any] = {"resources": {}, "resource_bounds": {}, "options": {}, "option_values": {},
                           "variants": (), "lose_at_once": False, "zones": {}, "zone_limits": {},
                           "kind_traits": {}}
    for rule in rs.rules:
        if isinstance(rule, n.Setting):
            _merge(out, _read_line(rule))
        elif isinstance(rule, n.Variant):
            out["variants"] += ((rule.option.value, rule.value.value, *_variant_of(rule.rule)),)
        elif isinstance(rule, n.LoseRule):
            out["lose_at_once"] = out["lose_at_once"] or rule.at_once
        elif isinstance(rule, n.ZoneDecl):
            _read_zone(out, rule)
        elif isinstance(rule, n.KindRule):
            out["kind_traits"][rule.kind.value] = rule.traits
        elif isinstance(rule, n.Budget) and "budget" not in out:  # the first budget line counts
            out["budget"] = (rule.points, rule.buys)
    out.update(_action_zones(rs), announces_turn_start=_announces_turn_start(rs))
    if "actor_turns" in out:  # the kind the plural names ('characters': 'character')
        written, *dice = out["actor_turns"]
        kinds = tuple(map(str, out.get("kinds", ())))
        out["actor_turns"] = (kind_of(written, kinds), *dice)
    return out


def _merge(out: dict[str, Any], found: dict[str, Any]) -> None:
    """Add one line's attributes: resources, options and bans add up, anything else is replaced."""
    for key, value in found.items():
        if isinstance(value, dict):
            out.setdefault(key, {}).update(value)
        elif key in ("banned_keywords", "start_on_field", "kind_counts", "stands_behind", "summon_onto"):
            out[key] = out.get(key, ()) + value
        else:
            out[key] = value


def _read_line(rule: n.Setting) -> dict[str, Any]:
    """Return the attributes one setting line sets."""
    reader = LINE_READERS.get(rule.key)
    if reader is None:
        raise NotImplementedError(f"the reference interpreter (compiler/interpret_reading.py) does not read "
                                  f"the ruleset line {rule.key!r} yet")
    return reader([x.value if isinstance(x, n.Name) else x for x in rule.values])


def _variant_of(rule: n.Setting) -> tuple[str, Any]:
    """Return (attribute, value) of a line that replaces another under an option; a resource line
    gives ('resource', (name, start, min, max))."""
    found = _read_line(rule)
    if rule.key == "resource":
        [(name, start)] = found["resources"].items()
        low, high = found.get("resource_bounds", {}).get(name, (None, None))
        return "resource", (name, start, low, high)
    [(attribute, value)] = found.items()
    return attribute, value


def _read_zone(out: dict[str, Any], z: n.ZoneDecl) -> None:
    """Read 'zone NAME flags [max N]': its flags, and the most cards it holds per player."""
    out["zones"][z.name.value] = z.flags
    if z.limit is not None:
        out["zone_limits"][z.name.value] = z.limit


def _action_zones(rs: n.Ruleset) -> dict[str, Any]:
    """Return where the 'set into ZONE' action puts cards, and the zones 'joker from ZONE' actions use."""
    items = [i for r in rs.rules if isinstance(r, n.Actions) for i in r.items if i.zone is not None]
    sets = [i.zone.value for i in items if i.name.value == "set" and i.zone is not None]
    jokers = {i.zone.value for i in items if i.name.value == "joker" and i.zone is not None}
    return {"set_zone": sets[0] if sets else "", "joker_zones": tuple(sorted(jokers))}


def _announces_turn_start(rs: n.Ruleset) -> bool:
    """Return whether a phase of the turn (not its end) says when turn-start abilities trigger."""
    for turn in (r for r in rs.rules if isinstance(r, n.Turn)):
        for phase in turn.phases:
            bodies = (phase.body, *(step.body for step in phase.steps))
            if any(isinstance(e, n.AnnounceTurn) for b in bodies for sentence in b for e in sentence.effects):
                return True
    return False


def _bounds(pairs: Values) -> tuple[int | None, int | None]:
    """Return (min, max) of a resource line's ', min N' / ', max N' parts (each at most once)."""
    given = {pairs[i]: pairs[i + 1] for i in range(0, len(pairs) - 1, 2)}
    return given.get("min"), given.get("max")


def _resource(vals: Values) -> dict[str, Any]:
    """'resource NAME starts at N [, min A] [, max B]'."""
    name = str(vals[0])
    found: dict[str, Any] = {"resources": {name: int(vals[1])}}
    if len(vals) > 2:
        found["resource_bounds"] = {name: _bounds(vals[2:])}
    return found


def _option(vals: Values) -> dict[str, Any]:
    """'option NAME = DEFAULT [(A, B, ...)]': without a list, the default is the only value."""
    name, default, allowed = str(vals[0]), str(vals[1]), tuple(str(x) for x in vals[2:])
    return {"options": {name: default}, "option_values": {name: allowed or (default,)}}


def _two(first: str, second: str) -> Reader:
    """Return the reader of a line 'A [, B]' whose second number is 0 when left out."""
    return lambda vals: {first: vals[0], second: vals[1] if len(vals) > 1 else 0}


def _one(attribute: str) -> Reader:
    """Return the reader of a line whose one value is the attribute."""
    return lambda vals: {attribute: vals[0]}


LINE_READERS: dict[str, Reader] = {
    "title": _one("title"),
    "players": lambda vals: {"players": vals[0], "max_players": vals[-1]},  # 'players N [to M]'
    "elimination": lambda vals: {"elimination": True},
    # 'turns go to characters in initiative order: each rolls 2D, ...': (kind as written, dice, faces)
    "actor turns": lambda vals: {"actor_turns": (str(vals[0]), vals[1], vals[2])},
    "start on field": lambda vals: {"start_on_field": (str(vals[0]),)},
    "lines": lambda vals: {"lines": tuple(str(x) for x in vals)},  # a team's lines, front first
    "collapse": lambda vals: {"collapse": True},
    "together": lambda vals: {"together": True},  # simultaneous ties (runtime/simultaneous.py)
    "default range": lambda vals: {"default_range": ("to", 0, vals[0])},  # 'a card with no range has range N.'
    "stalemate": lambda vals: {"stalemate": True},
    "no tokens": lambda vals: {},
    "unmet face down": lambda vals: {"unmet_face_down": True},  # R-WVN-45
    "stat floor": _one("stat_floor"),  # 'stats never go below N.'
    "squares": _one("squares"),
    "destroyed stay": lambda vals: {"destroyed_stay": True},
    "interruptible": lambda vals: {"interruptible": tuple(str(x) for x in vals)},  # 'summons', 'moves', ...
    "activated respond": lambda vals: {"activated_respond": True},
    "flash time": lambda vals: {"flash_time": str(vals[0])},  # the kind that responds in flash time
    "whole choice": lambda vals: {"whole_choice": True},  # 'a choice that cannot meet its count chooses nothing.'
    "search may end": lambda vals: {"search_may_end": True},  # 'a search that finds nothing may end the effect.'
    "shared power": lambda vals: {"shared_power": (str(vals[0]), vals[1])},  # (stat, step)
    "breakthrough": lambda vals: {"breakthrough": tuple(str(x) for x in vals)},  # (keyword, stat, total stat)
    "incapacitated": lambda vals: {"incapacitated": str(vals[0])},
    "block rests": lambda vals: {"block_rests": str(vals[0]) if vals else ""},  # '' : every blocker
    "summon onto": lambda vals: {"summon_onto": (str(vals[0]),)},
    "slot match": lambda vals: {"slot_attribute": str(vals[0])},
    "shed attached": lambda vals: {"shed_attached": True},  # 'each line has N squares.': the field is a grid
    "stands behind": lambda vals: {"stands_behind": (str(vals[0]),)},
    "tokens leave": lambda vals: {"tokens_leave": True},
    "kind count": lambda vals: {"kind_counts": ((str(vals[1]), vals[0]),)},  # 'decks hold exactly N KIND.'
    "table rules": lambda vals: {"table_rules": (vals[0], str(vals[1]), vals[2])},  # (cards, budget stat, copies)
    "first player": _one("first_player"),
    "deck": _two("deck_size", "max_copies"),  # 'deck N cards [, at most M copies]'
    "opening hand": _two("opening_hand", "mulligans"),  # 'opening hand N [, mulligan up to M times]'
    "kinds": lambda vals: {"kinds": tuple(vals)},
    "stats": lambda vals: {"stats": tuple(vals)},
    "resource": _resource,
    "option": _option,
    # 'levels 1 to N [, overclock at M]': cards go up to level N
    "levels": lambda vals: {"max_level": vals[1], "overclock_at": vals[2] if len(vals) > 2 else 0},
    "level heal": lambda vals: {"heal_on": {"level up": "up", "any level change": "any"}[vals[0]]},
    "jokers": lambda vals: {"jokers": (vals[0], str(vals[1]), str(vals[2]))},  # (count, distinct, dealt)
    "life fill": lambda vals: {"life_fill": (vals[0], str(vals[1]), vals[2])},
    "ban": lambda vals: {"banned_keywords": (str(vals[0]),)},
    "skip missing targets": lambda vals: {"skip_missing_targets": True},
    "interrupts": lambda vals: {"interrupts": str(vals[0])},  # 'sentence': between an effect's sentences
    "short deck": lambda vals: {"short_deck": (tuple(str(x) for x in vals[:-1]), str(vals[-1]))},
    "all lose": lambda vals: {"all_lose": OUTCOME_WORDS[vals[0]]},
    "round limit": lambda vals: {"round_limit": (vals[0], str(vals[1]), OUTCOME_WORDS[vals[2]])},
    "matching attribute": _one("matching_attribute"),
    "damage lowers": _one("damage_lowers"),  # 'damage lowers STAT': damage counts against that stat
    "damage threshold": _one("damage_threshold"),  # 'damage events need at least N damage'

    # automatic battles: 'battles are automatic, from turn A to turn B.'
    "automatic": lambda vals: {"automatic": True, "last_turn": vals[1]},
    "launch turn": _one("launch_turn"),
    "type priority": lambda vals: {"type_priority": tuple(str(x) for x in vals)},
    "judge first": _one("judge_first"),
}
