"""Shared zones (`zone terrain public shared max 1`): one zone for every player, whose cards' abilities work
as on the field (War Vortex Night's field card, its §2 and R-WVN-60).

A shared zone is kept in each player's zone of that name (a card stays its controller's), and its `max`
counts the cards of all of them: a card put in past it sends the one that came first to its owner's
graveyard. `CardState.since` tells which came first.
"""

from __future__ import annotations

from runtime import query as q
from runtime.state import Ctx, State


def is_shared(s: State, zone: str) -> bool:
    """Return whether a zone is one zone for every player."""
    return "shared" in s.game.ruleset.zones.get(zone, ())


def cards_in(s: State, zone: str) -> list[int]:
    """Return the cards of a shared zone, the one that came first first."""
    return sorted((cid for p in s.players for cid in p.zones.get(zone, ())), key=lambda cid: s.cards[cid].since)


def place(s: State, ctx: Ctx, name: str, zone: str) -> int:
    """Put a new card into its controller's zone; a full shared zone gives up its first card; return its id."""
    cid = s.game.add_card(s, name, ctx.controller, zone)
    s.say(f"P{ctx.controller + 1} places {q.describe(s, cid)} into the {zone}")
    limit = s.game.ruleset.zone_limits.get(zone)
    if is_shared(s, zone) and limit is not None:
        for old in cards_in(s, zone)[:-limit]:
            _discard(s, old, zone)
    return cid


def _discard(s: State, cid: int, zone: str) -> None:
    """Send a card out of a full shared zone to its owner's graveyard."""
    c = s.own(cid)
    s.players[c.controller].zones[zone].remove(cid)
    c.controller, c.zone = c.owner, "graveyard"
    c.moves += 1
    s.players[c.owner].zones["graveyard"].append(cid)
    s.touch()
    s.say(f"{q.describe(s, cid)} is discarded: the {zone} holds {s.game.ruleset.zone_limits[zone]} at most")
