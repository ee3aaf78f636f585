"""Stage 1, the Transformer's callbacks for ruleset lines: settings, zones, kinds, turn, battle, orders."""

from __future__ import annotations

from compiler import nodes as n
from compiler.ast_common import _int, _loc, _name, _setting, _split, _string


class RulesetParts:
    """The callbacks of a ruleset's lines."""

    def ruleset(self, meta, c):
        return n.Ruleset(_loc(meta), _name(c[0]), tuple(c[1:]))

    def title(self, meta, c):
        return _setting(meta, "title", [_string(c[0])])

    def players(self, meta, c):
        return _setting(meta, "players", [_int(x) for x in c])

    def first_player(self, meta, c):
        return _setting(meta, "first player", [c[0]])

    def deck_rule(self, meta, c):
        return _setting(meta, "deck", [_int(x) for x in c])

    def opening_hand(self, meta, c):
        return _setting(meta, "opening hand", [_int(x) for x in c])

    def kinds(self, meta, c):
        return _setting(meta, "kinds", [_name(t) for t in c])

    def stats(self, meta, c):
        return _setting(meta, "stats", [_name(t) for t in c])

    def resource(self, meta, c):
        bounds = [x for bound in c[2:] for x in bound]
        return _setting(meta, "resource", [_name(c[0]), _int(c[1]), *bounds])

    def bound(self, meta, c):
        return (str(c[0]), _int(c[1]))

    def option(self, meta, c):
        return _setting(meta, "option", [_name(t) for t in c])

    def variant(self, meta, c):
        return n.Variant(_loc(meta), _name(c[0]), _name(c[1]), c[2])

    def levels(self, meta, c):
        return _setting(meta, "levels", [_int(x) for x in c])

    def level_heal(self, meta, c):
        return _setting(meta, "level heal", [c[0]])

    def damage_lowers(self, meta, c):
        return _setting(meta, "damage lowers", [_name(c[0])])

    def actor_turns(self, meta, c):
        count, _, sides = str(c[1]).partition("D")
        return _setting(meta, "actor turns", [_name(c[0]), _int(count), _int(sides) if sides else 6])

    def stalemate(self, meta, c):
        return _setting(meta, "stalemate", [])

    def unmet_face_down(self, meta, c):
        return _setting(meta, "unmet face down", [])

    def no_tokens(self, meta, c):
        return _setting(meta, "no tokens", [])

    def slot_match(self, meta, c):
        return _setting(meta, "slot match", [_name(c[0])])

    def shed_attached(self, meta, c):
        return _setting(meta, "shed attached", [])

    def summon_onto(self, meta, c):
        return _setting(meta, "summon onto", [_name(c[0])])

    def incapacitated(self, meta, c):
        return _setting(meta, "incapacitated", [_name(c[0]), _int(c[1])])

    def block_rests(self, meta, c):
        return _setting(meta, "block rests", [_name(x) for x in c])

    def interruptible(self, meta, c):
        return _setting(meta, "interruptible", [str(x.children[0]) for x in c])

    def activated_respond(self, meta, c):
        return _setting(meta, "activated respond", [])

    def flash_time(self, meta, c):
        return _setting(meta, "flash time", [_name(c[0]), _name(c[1])])

    def destroyed_stay(self, meta, c):
        return _setting(meta, "destroyed stay", [])

    def whole_choice(self, meta, c):
        return _setting(meta, "whole choice", [])

    def search_may_end(self, meta, c):
        return _setting(meta, "search may end", [])

    def squares(self, meta, c):
        return _setting(meta, "squares", [_int(c[0])])

    def stands_behind(self, meta, c):
        return _setting(meta, "stands behind", [_name(c[0])])

    def stat_floor(self, meta, c):
        return _setting(meta, "stat floor", [_int(c[0])])

    def tokens_leave(self, meta, c):
        return _setting(meta, "tokens leave", [])

    def kind_count(self, meta, c):
        return _setting(meta, "kind count", [_int(c[0]), _name(c[1])])

    def table_rules(self, meta, c):
        return _setting(meta, "table rules", [_int(c[0]), _name(c[1]), _int(c[2])])

    def collapse(self, meta, c):
        return _setting(meta, "collapse", [])

    def default_range(self, meta, c):
        return _setting(meta, "default range", [_int(c[0])])

    def ties_together(self, meta, c):
        return _setting(meta, "together", [])

    def lines(self, meta, c):
        return _setting(meta, "lines", [_name(x) for x in c])

    def start_on_field(self, meta, c):
        return _setting(meta, "start on field", [_name(c[0])])

    def elimination(self, meta, c):
        return _setting(meta, "elimination", [])

    def damage_threshold(self, meta, c):
        return _setting(meta, "damage threshold", [_int(c[0])])

    def short_deck(self, meta, c):
        return _setting(meta, "short deck", [_name(t) for t in c])

    def all_lose(self, meta, c):
        return _setting(meta, "all lose", [c[0]])

    def round_limit(self, meta, c):
        return _setting(meta, "round limit", [_int(c[0]), _name(c[1]), c[2]])

    def zone_decl(self, meta, c):
        limits = [x for x in c[1:] if isinstance(x, int)]
        flags = tuple(x for x in c[1:] if not isinstance(x, int))  # 'not counting tokens' last
        return n.ZoneDecl(_loc(meta), _name(c[0]), flags, limits[-1] if limits else None)

    def zone_max(self, meta, c):
        return _int(c[0])

    def uncounted_tokens(self, meta, c):
        return "not counting tokens"

    def kind_rule(self, meta, c):
        return n.KindRule(_loc(meta), _name(c[0]), tuple(c[1:]))

    def turn(self, meta, c):
        phases, rest = _split(c, n.Phase)
        return n.Turn(_loc(meta), tuple(phases), rest[0] if rest else ())

    def phase(self, meta, c):
        steps, rest = _split(c[1:], n.Step)
        return n.Phase(_loc(meta), _name(c[0]), tuple(steps), rest[0] if rest else ())

    def step(self, meta, c):
        return n.Step(_loc(meta), _name(c[0]), c[1] if len(c) > 1 else ())

    def turn_end(self, meta, c):
        return c[0]

    def battle(self, meta, c):
        steps = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "steps"), ())
        quiet = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "quiet"), ())
        c = [x for x in c if not (isinstance(x, tuple) and x[0] in ("steps", "quiet"))]
        won = next((x for x in c[3:] if x[0] == "won"), ("won", None, ()))
        end = next((x[1] for x in c[3:] if x[0] == "end"), ())
        return n.Battle(_loc(meta), c[0], c[1], c[2], won[1], won[2], end, steps, quiet)

    def battle_steps(self, meta, c):
        return ("steps", tuple(_name(x.children[0]) for x in c))

    def quiet_steps(self, meta, c):
        return ("quiet", tuple(_name(x.children[0]) for x in c))

    def chosen_blocker(self, meta, c):
        return n.ChosenBlocker(_loc(meta), c[-1], len(c) > 1)

    def many(self, meta, c):
        return "many"

    def shared_power(self, meta, c):
        return _setting(meta, "shared power", [_name(c[0]), _int(c[1])])

    def breakthrough(self, meta, c):
        return _setting(meta, "breakthrough", [_name(x) for x in c])

    def battle_won(self, meta, c):
        return ("won", _name(c[0]), c[1] if len(c) > 1 else ())

    def battle_end(self, meta, c):
        return ("end", c[0])

    def trigger_order(self, meta, c):
        return n.TriggerOrder(_loc(meta), tuple(c))

    def order(self, meta, c):
        return tuple(c)

    def by_stat_descending(self, meta, c):
        return n.OrderKey(_loc(meta), "stat", (_name(c[0]),))

    def by_kind(self, meta, c):
        return n.OrderKey(_loc(meta), "kind", tuple(_name(t) for t in c))

    def turn_player_first(self, meta, c):
        return n.OrderKey(_loc(meta), "turn_player", ())

    def left_to_right(self, meta, c):
        return n.OrderKey(_loc(meta), "position", ())

    def priority_levels(self, meta, c):
        return n.OrderKey(_loc(meta), "priority", ())

    def initiative_order(self, meta, c):
        return n.OrderKey(_loc(meta), "initiative", ())

    def by_source(self, meta, c):
        return n.OrderKey(_loc(meta), "source", ())

    def checks(self, meta, c):
        return n.Checks(_loc(meta), c[-1], len(c) > 1)

    def after_processing(self, meta, c):
        return "after all processing"

    def lose_rule(self, meta, c):
        return n.LoseRule(_loc(meta), c[0], len(c) > 1)

    def at_once(self, meta, c):
        return True
