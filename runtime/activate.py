"""Activated abilities (docs/language.md 2.4.1): a card's `activate:` ability, used at will by the player who
controls the card on the field: as the `activate` action of an action phase, and as a response in an
interruption window where the ruleset says `activated abilities can respond.` (runtime/windows.py).

It is offered while its card is able (not destroyed, not incapacitated, not under the summoning lock that a
kind `enters with attack restriction` gives, which Haste lifts: Successor [速攻]), its condition holds, its
first sentence's cost can be paid, it has its targets and, `once per turn`, it was not used this turn. Used,
it goes on the stack like a triggered ability: its targets are chosen, then it resolves; its first sentence
usually pays the cost.
"""

from __future__ import annotations

from runtime import query as q
from runtime.resolve import has_targets
from runtime.state import Ctx, State

LOCKS = frozenset({"destroyed", "restricted", "activated", "summoning"})  # flags that keep an activated ability unused


def ability_index(s: State, cid: int) -> int | None:
    """Return the index of a card's activated ability, or None when it has none."""
    abilities = s.game.cards[s.cards[cid].name].abilities
    return next((i for i, a in enumerate(abilities) if a.kind == "activated"), None)


def _ctx(s: State, cid: int, index: int) -> Ctx:
    return Ctx(cid, s.cards[cid].controller, ["card", s.cards[cid].name, index])


def usable(s: State, cid: int) -> bool:
    """Return whether the controller of a card may use its activated ability now."""
    c, index = s.cards[cid], ability_index(s, cid)
    if index is None or c.zone != q.ACTIVE_ZONE or LOCKS & set(c.flags) or q.incapacitated(s, cid):
        return False
    ab, ctx = s.game.cards[c.name].abilities[index], _ctx(s, cid, index)
    return (not ab.has_condition or ab.condition(s, ctx)) and ab.payable(s, ctx) and has_targets(s, ab, ctx)


def usable_cards(s: State, player: int) -> list[int]:
    """Return the cards a player controls whose activated ability they may use now, in field order."""
    return [c for c in s.players[player].zones[q.ACTIVE_ZONE] if usable(s, c)]


def use(s: State, player: int, cid: int, round_: list | None = None) -> None:
    """Use a card's activated ability: put it on the stack, targets first, then (in a window) a round of
    responses to it, then it resolves."""
    index = ability_index(s, cid)
    assert index is not None
    if s.game.cards[s.cards[cid].name].abilities[index].once_per_turn:
        s.own(cid).flags["activated"] = ["eot", s.turn]
    s.say(f"P{player + 1} activates {q.describe(s, cid)}")
    ctx = _ctx(s, cid, index)
    ctx.item, ctx.stamp = s.next_id(), s.tick()
    s.stack.append(ctx)
    s.notify("fired", ctx)
    s.tasks += [["resolve", ctx.item], *([round_] if round_ else []), ["targets", ctx.item]]
