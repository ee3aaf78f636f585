"""What one player may see of a state: a structured value and a flat vector of fixed length per ruleset.

A player sees a card unless it lies in a hidden zone that is not theirs, in an ordered hidden zone (a deck,
face down even to its owner), or face down under another player's control. Of a card they cannot see they
learn only that it is there: the zone's count, or, on the field, its id and that it lies face down.
"""

from __future__ import annotations

from typing import Any

from runtime import query as q
from runtime.engine import Game as RuntimeGame
from runtime.state import State


def sees(s: State, viewer: int, cid: int) -> bool:
    """Return whether the viewer may see what a card is."""
    c = s.cards[cid]
    return q.sees(s, viewer, cid) and not (c.face_down and c.controller != viewer)


def in_view(s: State, viewer: int, cid: int) -> bool:
    """Return whether the viewer may see that the card is there and where (a field's face-down card is)."""
    return q.sees(s, viewer, cid)


def _card(s: State, viewer: int, cid: int) -> dict[str, Any]:
    """Return what the viewer sees of a card in view: everything, or for a face-down one its place only."""
    c = s.cards[cid]
    seen: dict[str, Any] = {"id": cid, "owner": c.owner, "controller": c.controller, "face_down": c.face_down}
    if not sees(s, viewer, cid):
        return seen
    cdef = s.game.cards[c.name]
    stats = {name: q.stat(s, cid, name) for name in s.game.ruleset.stats if name in cdef.stats}
    statuses = sorted([x[0], x[1]] for x in q.instances(s, cid))
    return seen | {"name": c.name, "stats": stats, "damage": c.damage, "level": c.level, "statuses": statuses,
                   "line": c.line, "square": c.square, "attached": list(c.attached), "holder": c.holder}


def _zones(s: State, viewer: int, seat: int) -> dict[str, Any]:
    """Return a player's zones as the viewer sees them: each zone's count, and the cards in view."""
    out = {}
    for zone, cards in s.players[seat].zones.items():
        shown = [_card(s, viewer, cid) for cid in cards if in_view(s, viewer, cid)]
        out[zone] = {"count": len(cards), "cards": shown}
    return out


def observation(s: State, viewer: int) -> dict[str, Any]:
    """Return the structured observation of a player: public facts, their own hidden cards, counts of the rest."""
    d = s.decision
    stack = [{"source": ctx.source if ctx.source >= 0 and in_view(s, viewer, ctx.source) else None,
              "controller": ctx.controller} for ctx in s.stack]
    return {
        "viewer": viewer, "turn": s.turn, "phase": s.phase, "step": s.step, "active": s.active, "first": s.first,
        "current_player": d["player"] if d is not None and s.result is None else -1,
        "decision": d["kind"] if d is not None and s.result is None else None,
        "result": list(s.result) if s.result is not None else None,
        "players": [{"seat": p, "resources": dict(player.resources), "out": p in s.out,
                     "zones": _zones(s, viewer, p)} for p, player in enumerate(s.players)],
        "stack": stack,
        "battle": {k: s.battle[k] for k in ("attacker", "defender", "blocker", "blockers") if k in s.battle},
    }


class Encoder:
    """The flat vector of an observation: its layout is fixed by the ruleset, whatever the state."""

    def __init__(self, game: RuntimeGame, seats: int):
        rs = game.ruleset
        self.seats = seats
        self.phases = [p.name for p in rs.phases]
        self.resources = sorted(rs.resources)
        self.zones = list(rs.zones)
        self.names = sorted(game.cards)
        self.slot = {name: i for i, name in enumerate(self.names)}
        self.per_seat = len(self.resources) + 1 + len(self.zones) * (2 + len(self.names))
        self.size = 2 + (seats + 1) + seats + (len(self.phases) + 1) + seats * self.per_seat

    def encode(self, obs: dict[str, Any]) -> list[float]:
        """Return the vector of a structured observation, the players from the viewer's seat round."""
        out = [float(obs["turn"]), float(obs["result"] is not None)]
        out += _one_hot(obs["current_player"], self.seats + 1)  # the last place: nobody (terminal)
        out += _one_hot(obs["active"], self.seats)
        phase = obs["phase"]
        out += _one_hot(self.phases.index(phase) if phase in self.phases else len(self.phases), len(self.phases) + 1)
        players = obs["players"]
        for k in range(self.seats):
            seat = (obs["viewer"] + k) % len(players)
            out += self._seat(players[seat]) if k < len(players) else [0.0] * self.per_seat
        return out

    def _seat(self, player: dict[str, Any]) -> list[float]:
        """Return one player's part: resources, whether out, then per zone its count, unseen cards, names seen."""
        out = [float(player["resources"].get(r, 0)) for r in self.resources] + [float(player["out"])]
        for zone in self.zones:
            held = player["zones"].get(zone, {"count": 0, "cards": []})
            named = [0.0] * len(self.names)  # filled from the few cards seen, not asked of every name
            for card in held["cards"]:
                if "name" in card:
                    named[self.slot[card["name"]]] += 1.0
            out += [float(held["count"]), float(held["count"]) - sum(named)]
            out += named
        return out


def _one_hot(index: int, size: int) -> list[float]:
    """Return a vector of zeros with a one at index (the last place for -1)."""
    out = [0.0] * size
    out[index if index >= 0 else size - 1] = 1.0
    return out
