"""Lines and ranges (War Vortex Night §5): where a ruleset declares `lines front, middle, back`, each card on
the field stands in one line of its controller's side, its team's, the front being line 0. Two cards of a
team are as far apart as their lines (|a - b|); between teams the way always runs through both fronts
(a + 1 + b), for any number of teams; left and right never count. A card with a range reaches a target
only at a distance its range allows, tested when the target is chosen and again when it resolves; and
an empty line is filled at once from behind.
"""

from __future__ import annotations

from runtime import query as q
from runtime.defs import Ability
from runtime.state import Ctx, State


def distance(s: State, a: int, b: int) -> int:
    """Return the distance between two cards on the field (R-WVN-10, R-WVN-11), unless a static ability of
    either treats its distance as a number ('the distance to this is treated as 3', R-WVN-25)."""
    for cid in (b, a):
        treated = q.statics_on(s, cid, "distance_as")
        if treated:
            return max(eff.amount(ab, s, ctx) for eff, ab, ctx in treated)
    ca, cb = s.cards[a], s.cards[b]
    return abs(ca.line - cb.line) if ca.controller == cb.controller else ca.line + 1 + cb.line


def reaches(reach: tuple | None, d: int) -> bool:
    """Return whether a range reaches a distance: ('to', low, high) or ('set', d1, d2, ...); None: none."""
    if reach is None:
        return False
    kind, *values = reach
    return values[0] <= d <= values[1] if kind == "to" else d in values


def shifted(reach: tuple, by: int) -> tuple | None:
    """Return a range with every number shifted (R-WVN-15: -1 makes 3 to 5 into 2 to 4): a number below 0 is
    0, a distance of a set below 0 goes, and a range left with no distance reaches nothing (None)."""
    kind, *values = reach
    if kind == "to":
        return ("to", max(values[0] + by, 0), values[1] + by) if values[1] + by >= 0 else None
    kept = tuple(v + by for v in values if v + by >= 0)
    return ("set", *kept) if kept else None


def distance_note(s: State, ctx: Ctx, target: int) -> str:
    """Return how a log line names the distance from an ability's user to its target (' (distance 2)'):
    '' where the ruleset has no lines or either is not on the field."""
    me = q.user(s, ctx.source)
    if not s.game.ruleset.lines or s.game.ruleset.squares or me < 0 or q.is_player(target):
        return ""
    if s.cards[me].zone != q.ACTIVE_ZONE or s.cards[target].zone != q.ACTIVE_ZONE:
        return ""
    return f" (distance {distance(s, me, target)})"


def in_range(s: State, ab: Ability, ctx: Ctx, target: int) -> bool:
    """Return whether an ability's card reaches a target card: always without lines, a range, or a user and
    a target both on the field (a player, a card in a graveyard: no distance); past its range, where the
    anti-stalemate rule lets it (shortfall)."""
    return shortfall(s, ab, ctx, target) is not None


def shortfall(s: State, ab: Ability, ctx: Ctx, target: int) -> int | None:
    """Return how far short of a target an ability's range falls: 0 in range, N > 0 where only the
    anti-stalemate rule reaches it (R-WVN-25 to R-WVN-29), None where nothing does."""
    if not s.game.ruleset.lines or ctx.source < 0 or q.is_player(target):
        return 0
    reach = s.game.cards[s.cards[ctx.source].name].range or s.game.ruleset.default_range
    who = q.user(s, ctx.source) if reach is not None else -1
    if who < 0 or s.cards[who].zone != q.ACTIVE_ZONE or s.cards[target].zone != q.ACTIVE_ZONE:
        return 0
    shift = sum(eff.amount(a, s, c) for eff, a, c in q.statics_on(s, who, "range_shift"))
    reach = shifted(reach, shift) if shift else reach
    d = distance(s, who, target)
    if reaches(reach, d):
        return 0
    if reach is None:
        return None
    furthest = reach[2] if reach[0] == "to" else max(reach[1:])
    if s.game.ruleset.stalemate and ab.hurts and d > furthest and _clear_between(s, who, target):
        return d - furthest
    return None


def _clear_between(s: State, a: int, b: int) -> bool:
    """Return whether no card on the field stands in a line between two cards: of a team, the lines between
    theirs; between teams, the lines in front of each (the way runs through both fronts)."""
    ca, cb = s.cards[a], s.cards[b]
    if ca.controller == cb.controller:
        between = {(ca.controller, k) for k in range(min(ca.line, cb.line) + 1, max(ca.line, cb.line))}
    else:
        between = {(ca.controller, k) for k in range(ca.line)} | {(cb.controller, k) for k in range(cb.line)}
    return not any((s.cards[cid].controller, s.cards[cid].line) in between
                   for p in s.players for cid in p.zones[q.ACTIVE_ZONE])


def step(s: State, cid: int, lines: int, way: str) -> None:
    """Move a card on the field some lines forward or back within its own team's lines (R-WVN-23, R-WVN-24:
    no card enters another team's lines); the collapse check fills what it leaves empty."""
    c, names = s.cards[cid], s.game.ruleset.lines
    if c.zone != q.ACTIVE_ZONE or not names:
        return
    to = max(0, min(len(names) - 1, c.line + (lines if way == "back" else -lines)))
    if to == c.line:
        s.say(f"{q.describe(s, cid)} cannot move {way}")
        return
    s.own(cid).line = to
    s.say(f"{q.describe(s, cid)} moves {way} to the {names[to]} line")


def offer_move(s: State, task: list) -> None:
    """Task of 'the actor may move one line forward or back': ask its controller (once, before the roll)."""
    actor = s.actor
    if actor < 0 or s.cards[actor].zone != q.ACTIVE_ZONE or q.has_flag(s, actor, "cant_act"):
        return
    last = len(s.game.ruleset.lines) - 1
    ways = [w for w, ok in (("move forward", s.cards[actor].line > 0), ("move back", s.cards[actor].line < last)) if ok]
    s.ask(task, s.cards[actor].controller, "move", [], choices=[[w, actor] for w in ways] + [["stay", actor]])


def answer_move(s: State, kind: str, actor: int) -> None:
    """Carry out the answer to the move decision."""
    s.tasks.pop()
    if kind == "stay":
        s.say(f"{q.describe(s, actor)} stays in the {s.game.ruleset.lines[s.cards[actor].line]} line")
    else:
        step(s, actor, 1, kind.split()[1])


def collapse(s: State) -> None:
    """Fill each empty line at once from behind: every card behind it moves up a line, again and again
    until no line in front of a filled one is empty (R-WVN-18, R-WVN-19)."""
    names = s.game.ruleset.lines
    for p in s.players:
        field = [s.cards[cid] for cid in p.zones[q.ACTIVE_ZONE]]
        if field and _first_gap(field) is not None:  # only then written (and so copied if shared)
            field = [s.own(cid) for cid in p.zones[q.ACTIVE_ZONE]]
        while field and (gap := _first_gap(field)) is not None:
            for c in field:
                if c.line > gap:
                    c.line -= 1
                    s.say(f"{q.describe(s, c.id)} moves up to the {names[c.line]} line")


def _first_gap(field: list) -> int | None:
    """Return the first empty line in front of a filled one, or None."""
    filled = {c.line for c in field}
    return next((line for line in range(max(filled)) if line not in filled), None)
