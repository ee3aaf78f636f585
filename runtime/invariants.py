"""Invariants every reachable state keeps; fuzzing and property tests check them after each action."""

from __future__ import annotations

from runtime import engine
from runtime.state import State


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
            if name != "life" and value < 0:
                out.append(f"P{p + 1} has {value} {name}")
    if s.result is not None and engine.legal_actions(s):
        out.append("the game is over but actions are still offered")
    if s.result is None and s.decision is None and not engine.paused(s):
        out.append("the game is neither over nor waiting for a decision")
    return out
