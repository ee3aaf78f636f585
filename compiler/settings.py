"""A ruleset's one-line settings as plain values: what both lowering (as Python literals) and the
reference interpreter (as attributes) give the runtime's RulesetDef.

Public entry point: `ruleset_settings(rs) -> dict` keyed by RulesetDef attribute name.
"""

from __future__ import annotations

from typing import Any

from compiler import nodes as n
from compiler.symbols import singular

OUTCOMES = {"the game is a draw": "draw", "they all lose": "lose", "the first player wins": "first",
            "the second player wins": "second"}


def _values(rule: n.Setting) -> list:
    return [x.value if isinstance(x, n.Name) else x for x in rule.values]


def _bounds(vals: list) -> tuple[int | None, int | None]:
    """Return (min, max) of a resource line's trailing 'min N' / 'max N' pairs."""
    pairs = dict(zip(vals[2::2], vals[3::2], strict=True))
    return pairs.get("min"), pairs.get("max")


def ruleset_settings(rs: n.Ruleset) -> dict[str, Any]:
    """Return the ruleset's settings, one RulesetDef attribute each, with plain (repr-able) values."""
    out: dict[str, Any] = {"resources": {}, "resource_bounds": {}, "options": {}, "option_values": {},
                           "variants": (), "lose_at_once": False}
    for rule in rs.rules:
        if isinstance(rule, n.Setting):
            _setting(out, rule.key, _values(rule))
        elif isinstance(rule, n.Variant):
            out["variants"] += ((rule.option.value, rule.value.value, *_variant(rule.rule)),)
        elif isinstance(rule, n.LoseRule) and rule.at_once:
            out["lose_at_once"] = True
    if "actor_turns" in out:  # 'turns go to characters': the kind 'character'
        kind, *dice = out["actor_turns"]
        out["actor_turns"] = (singular(kind, tuple(map(str, out.get("kinds", ())))), *dice)
    zones = [(i.name.value, i.zone.value) for r in rs.rules if isinstance(r, n.Actions) for i in r.items
             if i.zone is not None]
    out["set_zone"] = next((zone for action, zone in zones if action == "set"), "")
    out["joker_zones"] = tuple(sorted({zone for action, zone in zones if action == "joker"}))
    turns = [r for r in rs.rules if isinstance(r, n.Turn)]
    out["announces_turn_start"] = any(isinstance(e, n.AnnounceTurn) for t in turns for p in t.phases
                                      for st in (p.body, *(x.body for x in p.steps)) for sentence in st
                                      for e in sentence.effects)
    out["zones"] = {z.name.value: z.flags for z in rs.rules if isinstance(z, n.ZoneDecl)}
    out["zone_limits"] = {z.name.value: z.limit for z in rs.rules if isinstance(z, n.ZoneDecl)
                          and z.limit is not None}
    out["kind_traits"] = {k.kind.value: k.traits for k in rs.rules if isinstance(k, n.KindRule)}
    budgets = [r for r in rs.rules if isinstance(r, n.Budget)]
    if budgets:
        out["budget"] = (budgets[0].points, budgets[0].buys)
    return out


def _variant(rule: n.Setting) -> tuple[str, Any]:
    """Return (attribute, value) of a setting that replaces another under an option."""
    vals = _values(rule)
    if rule.key == "resource":
        return "resource", (str(vals[0]), int(vals[1]), *_bounds(vals))
    found: dict[str, Any] = {}
    _setting(found, rule.key, vals)  # one setting line gives one attribute
    [(attribute, value)] = found.items()
    return attribute, value


def _setting(out: dict[str, Any], key: str, vals: list) -> None:
    match key:
        case "resource":
            out["resources"][str(vals[0])] = int(vals[1])
            if len(vals) > 2:
                out["resource_bounds"][str(vals[0])] = _bounds(vals)
        case "option":
            out["options"][str(vals[0])] = str(vals[1])
            out["option_values"][str(vals[0])] = tuple(map(str, vals[2:] or vals[1:2]))
        case "deck":
            out["deck_size"], out["max_copies"] = vals[0], vals[1] if len(vals) > 1 else 0
        case "opening hand":
            out["opening_hand"], out["mulligans"] = vals[0], vals[1] if len(vals) > 1 else 0
        case "kinds" | "stats":
            out[key] = tuple(vals)
        case "levels":
            out["max_level"], out["overclock_at"] = vals[1], vals[2] if len(vals) > 2 else 0
        case "level heal":
            out["heal_on"] = "any" if vals[0] == "any level change" else "up"
        case "damage lowers":
            out["damage_lowers"] = str(vals[0])
        case "damage threshold":
            out["damage_threshold"] = vals[0]
        case "jokers":
            out["jokers"] = (vals[0], str(vals[1]), str(vals[2]))
        case "life fill":
            out["life_fill"] = (vals[0], str(vals[1]), vals[2])
        case "ban":
            out["banned_keywords"] = out.get("banned_keywords", ()) + (str(vals[0]),)
        case "skip missing targets":
            out["skip_missing_targets"] = True
        case "short deck":
            out["short_deck"] = (tuple(map(str, vals[:-1])), str(vals[-1]))
        case "all lose":
            out["all_lose"] = OUTCOMES[vals[0]]
        case "round limit":
            out["round_limit"] = (vals[0], str(vals[1]), OUTCOMES[vals[2]])
        case "automatic":
            out["automatic"], out["last_turn"] = True, vals[1]
        case "type priority":
            out["type_priority"] = tuple(map(str, vals))
        case "players":
            out["players"], out["max_players"] = vals[0], vals[-1]
        case "elimination":
            out["elimination"] = True
        case "actor turns":
            out["actor_turns"] = (str(vals[0]), vals[1], vals[2])  # the kind: made singular below
        case "lines":
            out["lines"] = tuple(map(str, vals))
        case "collapse":
            out["collapse"] = True
        case "together":
            out["together"] = True
        case "default range":
            out["default_range"] = ("to", 0, vals[0])
        case "stalemate":
            out["stalemate"] = True
        case "unmet face down":
            out["unmet_face_down"] = True
        case "slot match":
            out["slot_attribute"] = str(vals[0])
        case "shed attached":
            out["shed_attached"] = True
        case "summon onto":
            out["summon_onto"] = out.get("summon_onto", ()) + (str(vals[0]),)
        case "shared power":
            out["shared_power"] = (str(vals[0]), vals[1])
        case "breakthrough":
            out["breakthrough"] = tuple(map(str, vals))
        case "incapacitated":
            out["incapacitated"] = str(vals[0])
        case "block rests":
            out["block_rests"] = str(vals[0]) if vals else ""
        case "destroyed stay":
            out["destroyed_stay"] = True
        case "interruptible":
            out["interruptible"] = tuple(str(x) for x in vals)
        case "activated respond":
            out["activated_respond"] = True
        case "flash time":
            out["flash_time"] = str(vals[0])
        case "whole choice":
            out["whole_choice"] = True
        case "search may end":
            out["search_may_end"] = True
        case "squares":
            out["squares"] = vals[0]
        case "stands behind":
            out["stands_behind"] = out.get("stands_behind", ()) + (str(vals[0]),)
        case "stat floor":
            out["stat_floor"] = vals[0]
        case "tokens leave":
            out["tokens_leave"] = True
        case "kind count":
            out["kind_counts"] = out.get("kind_counts", ()) + ((str(vals[1]), vals[0]),)
        case "no tokens":
            pass  # a check of the cards (compiler/check_effects.py): nothing is left for the runtime
        case "table rules":
            out["table_rules"] = (vals[0], str(vals[1]), vals[2])
        case "start on field":
            out["start_on_field"] = out.get("start_on_field", ()) + (str(vals[0]),)
        case _:
            out[key.replace(" ", "_")] = vals[0]
