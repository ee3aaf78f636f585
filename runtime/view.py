"""A readable picture of a state, whole or as one player sees it (hidden zones and face-down cards)."""

from __future__ import annotations

from runtime import elements, grid
from runtime import query as q
from runtime.state import State
from runtime.vocabulary import SIGNED


def card_line(s: State, cid: int, viewer: int | None = None) -> str:
    """Return how the board shows one card: its name, place, cost, stats, damage and statuses."""
    c = s.cards[cid]
    if c.face_down and viewer is not None and viewer != c.controller:
        return q.shown(s, cid)[2:]  # 'face-down card#7', or with its colour: 'face-down blue card#7'
    parts = [q.describe(s, cid)]
    if c.zone == q.ACTIVE_ZONE and grid.on_grid(s) and not grid.stands_behind(s, cid):
        parts = [f"{parts[0]} at {grid.name(s, grid.code_of(s, cid))}"]
    cost = ", ".join(f"{n} {r}" for r, n in s.game.cards[c.name].cost.items())
    stats = [f"cost {cost}"] if cost and c.zone != "field" else []
    stats += [_stat(s, cid, name) for name in s.game.ruleset.stats if name in s.game.cards[c.name].stats]
    if c.damage:
        stats.append(f"damage {c.damage}")
    stats += [_status(s, x) for x in sorted(q.instances(s, cid), key=lambda x: x[0])]
    if c.face_down:
        stats.append("face down")
    return parts[0] + (f" ({', '.join(stats)})" if stats else "")


def _status(s: State, x: list) -> str:
    """Return a status instance as a card's line shows it: 'Poison x2', 'Guarded -3', 'Freezing Forest'."""
    return elements.shown(s, x) if s.game.statuses[x[0]].stacking in SIGNED else f"{x[0]} x{x[1]}"


def _stat(s: State, cid: int, name: str) -> str:
    """Return 'bp 3000', or 'bp 1000 (printed 3000)' when changes or damage make the current value differ."""
    current, printed = q.stat(s, cid, name), q.printed_stat(s, cid, name)
    return f"{name} {current}" + (f" (printed {printed})" if current != printed else "")


def _zone(s: State, p: int, zone: str, viewer: int | None) -> str:
    cards = s.players[p].zones.get(zone, [])
    hidden = "hidden" in s.game.ruleset.zones.get(zone, ())
    if zone == "deck" or (hidden and viewer is not None and viewer != p):
        return f"{zone}: {len(cards)} card{'s' * (len(cards) != 1)}"
    return f"{zone}: " + (", ".join(card_line(s, cid, viewer) for cid in cards) or "-")


def render_state(s: State, viewer: int | None = None) -> str:
    """Return the board as text; with a viewer, what that player may see."""
    lines = [f"turn {s.turn}, P{s.active + 1} to play, {s.phase or 'setup'}"
             + (f".{s.step}" if s.step else "")]
    for p, player in enumerate(s.players):
        res = ", ".join(f"{k} {v}" for k, v in player.resources.items())
        lines.append(f"P{p + 1}{' (you)' if viewer == p else ''}: {res}")
        lines += ["  " + _zone(s, p, zone, viewer) for zone in s.game.ruleset.zones]
    if s.result is not None:
        lines.append(f"result: {s.result}")
    return "\n".join(lines)


def observation(s: State, player: int) -> str:
    """Return what one player may see of the state."""
    return render_state(s, viewer=player)
