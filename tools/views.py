"""What the game viewer shows of one moment of a game: plain JSON-ready dicts built from a state.

A step is {"title", "action", "log", "panels", "end"}: `log` holds the log lines the step added, `panels`
one panel a player (a card game) or a party (an automatic battle), each a name and groups; a group is a
name, facts ([label, value] pairs) and items (lines). The viewer (tools/viewer.py) draws any step the
same way, so both kinds of game share one page.
"""

from __future__ import annotations

from typing import Any

from runtime import query as q
from runtime.battle.state import SIDES, Battle, Fighter
from runtime.state import State
from runtime.view import card_line

Step = dict[str, Any]


def _group(name: str, facts: list[list[str]] | None = None, items: list[str] | None = None) -> dict[str, Any]:
    return {"name": name, "facts": facts or [], "items": items or []}


def _zone(s: State, p: int, zone: str) -> dict[str, Any]:
    """Return a zone's group: its cards' lines, or only a count for the deck (its order is hidden)."""
    cards = s.players[p].zones.get(zone, [])
    if zone == "deck":
        return _group(f"{zone} ({len(cards)})")
    return _group(f"{zone} ({len(cards)})", items=[card_line(s, cid, None) for cid in cards])


def _statuses(s: State, p: int) -> list[str]:
    """Return 'Card#7: Poison x2' for every status on a card the player controls, by card."""
    lines = []
    for cid in sorted(cid for cards in s.players[p].zones.values() for cid in cards):
        names = [f"{x[0]} x{x[1]}" for x in sorted(q.instances(s, cid), key=lambda x: x[0])]
        if names:
            lines.append(f"{q.describe(s, cid)}: {', '.join(names)}")
    return lines


def _player(s: State, p: int) -> dict[str, Any]:
    """Return one player's panel: resources, statuses, then every zone in the ruleset's order."""
    resources = [[k, str(v)] for k, v in s.players[p].resources.items()]
    groups = [_group("resources", resources, []), _group("statuses", items=_statuses(s, p))]
    groups += [_zone(s, p, zone) for zone in s.game.ruleset.zones]
    return {"name": f"P{p + 1}" + (" to play" if s.active == p and s.result is None else ""), "groups": groups}


def game_step(s: State, action: str, shown: int) -> Step:
    """Return the view of a card game's state after `action`; its log is the lines from index `shown` on."""
    title = f"turn {s.turn}, P{s.active + 1} to play, {s.phase or 'setup'}" + (f".{s.step}" if s.step else "")
    end = ""
    if s.result is not None:
        won = [f"P{p + 1}" for p, r in enumerate(s.result) if r > 0]
        end = f"game over: {' and '.join(won)} won" if won else "game over: a draw"
    return {"title": title, "action": action, "log": s.log[shown:],
            "panels": [_player(s, p) for p in range(len(s.players))], "end": end}


def _fighter(b: Battle, f: Fighter, exited: bool) -> dict[str, Any]:
    """Return a swordsman's group: HP, AP, reserve AP and states as facts, the sword list as items."""
    v = f.values
    facts = [["HP", f"{v['hp']}/{v['max_hp']}"], ["AP", str(v.get("ap", 0))], ["reserve AP", str(v.get("reserve_ap", 0))]]
    facts += [[name, str(n)] for name, n in sorted(f.states.items()) if n]
    swords = [w.card + (" (used)" if w.used else "")
              + "".join(f" +{name}" + (f" x{st}" if st != 1 else "") for name, (st, _a) in sorted(w.given.items()))
              for w in f.swords]
    label = f"{SIDES[f.side]}- {f.name} (exited)" if exited else b.label(f)
    return _group(label, facts, swords)


def battle_step(b: Battle, action: str, shown: int) -> Step:
    """Return the view of an automatic battle after `action`; its log is the lines from index `shown` on."""
    panels = [{"name": f"party {SIDES[side]}",
               "groups": [_fighter(b, f, False) for f in b.parties[side]]
               + [_fighter(b, f, True) for f in b.exited[side]]} for side in (0, 1)]
    end = ""
    if b.result:
        end = "battle over: a draw" if b.result == "draw" else f"battle over: party {b.result} won"
    return {"title": f"turn {b.turn}", "action": action, "log": b.log[shown:], "panels": panels, "end": end}
