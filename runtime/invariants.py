"""Invariants every reachable state keeps; fuzzing and property tests check them after each action."""

from __future__ import annotations

from runtime import engine
from runtime.state import State


def _card_count(s: State, p: int) -> list[str]:
    """A registered deck: its cards exist once per build of the deck (a short deck builds it anew),
    and kept jokers exist once each; tokens and dealt jokers come on top."""
    player = s.players[p]
    if not player.deck_list:
        return []
    owned = [c.name for c in s.cards if c.owner == p and not s.game.cards[c.name].token]
    main = [n for n in owned if not s.game.is_joker(n)]
    want = len(player.deck_list) * (1 + player.rebuilds)
    out = [f"P{p + 1} owns {len(main)} deck cards, expected {want}"] if len(main) != want else []
    jokers = len(owned) - len(main)
    dealt = s.game.jokers is not None and bool(s.game.jokers[2])
    if not dealt and jokers != len(player.jokers):
        out.append(f"P{p + 1} owns {jokers} jokers, expected {len(player.jokers)}")
    return out


def violations(s: State) -> list[str]:
    """Return every broken invariant of a state (empty when all hold)."""
    out: list[str] = []
    seen: dict[int, str] = {}
    for p, player in enumerate(s.players):
        for zone, cards in player.zones.items():
            for cid in cards:
                where = f"P{p + 1} {zone}"
                if cid in seen:
                    out.append(f"card #{cid} is in both {seen[cid]} and {where}")
                seen[cid] = where
                c = s.cards[cid]
                if c.zone != zone or c.controller != p:
                    out.append(f"card #{cid} is listed in {where} but says P{c.controller + 1} {c.zone}")
    missing = [c.id for c in s.cards if c.id not in seen]
    if missing:
        out.append(f"cards in no zone: {missing}")
    for c in s.cards:
        if c.damage < 0:
            out.append(f"card #{c.id} has negative damage {c.damage}")
        if any(held[0] <= 0 for held in c.statuses.values()):
            out.append(f"card #{c.id} holds a status with no stacks: {c.statuses}")
    for p, player in enumerate(s.players):
        for name, value in player.resources.items():
            low, high = s.game.bounds.get(name, (None, None))
            if (name != "life" and value < (low or 0)) or (high is not None and value > high):
                out.append(f"P{p + 1} has {value} {name}")
        out += _card_count(s, p)
    # The hand limit caps draws and dealt jokers; a card returned to the hand may pass it (decisions.md).
    for zone, limit in [(z, n) for z, n in s.game.ruleset.zone_limits.items() if z != "hand"]:
        out += [f"P{p + 1} {zone} holds {len(player.zones[zone])} cards, more than {limit}"
                for p, player in enumerate(s.players) if len(player.zones.get(zone, ())) > limit]
    if s.result is not None and engine.legal_actions(s):
        out.append("the game is over but actions are still offered")
    if s.result is None and s.decision is None and not engine.paused(s):
        out.append("the game is neither over nor waiting for a decision")
    return out
