"""Truly simultaneous groups: no one of them comes first, so each is carried out from the group's starting
numbers, and afterwards every change adds up (a number ends at its start plus each one's change to it).

Marguerite's super-simultaneous actions (runtime/battle/procedure.py) and, where a ruleset says `triggers that
tie resolve together.`, the card engine's triggers that no ordering key tells apart (War Vortex Night §8.5,
R-WVN-43) both work this way, through `added`. In the card engine the numbers are each card's damage and
changes and each player's resources; a card that moves while the group resolves is a new object and keeps
what happened to it. The group is a run of tasks (`together` start, a member's resolution, next, ..., end),
so a member may still ask for choices; its frame lives in `State.together`, plain data.
"""

from __future__ import annotations

from runtime import query as q
from runtime.state import Ctx, State


def added(before: dict, ends: list[dict]) -> dict:
    """Return each number at its start plus each end's change to it (new keys after, in name order)."""
    out = {}
    for k in list(before) + sorted({k for e in ends for k in e} - set(before)):
        start, change = before.get(k, 0), 0
        for e in ends:  # loops, not a generator for each number: groups add up at every tie
            change += e.get(k, 0) - start
        out[k] = start + change
    return out


def tasks(group: list[Ctx]) -> list[list]:
    """Return the tasks that resolve a run of pending abilities in order, a group of several together."""
    if len(group) == 1:
        return [["resolve", group[0].item]]
    out: list[list] = [["together", "start", [c.item for c in group]]]
    for i, ctx in enumerate(group):
        out += [["resolve", ctx.item], ["together", "next" if i < len(group) - 1 else "end", []]]
    return out


def together_task(s: State, task: list) -> None:
    """Task: open a group (keep its numbers), go back to them before the next member, or add up at the end."""
    _, step, items = task
    if step == "start":
        names = " and ".join(_label(s, c) for c in s.stack if c.item in items)
        s.say(f"together: {names}")
        s.together.append({"start": _numbers(s), "ends": []})
        return
    frame = s.together[-1]
    frame["ends"].append(_numbers(s))
    if step == "next":
        _restore(s, frame["start"])
    else:
        s.together.pop()
        _merge(s, frame["start"], frame["ends"])


def _label(s: State, ctx: Ctx) -> str:
    """Return a member as the log names it: its card, and the keyword or status it comes from."""
    owner, name, _ = ctx.ability
    return q.shown(s, ctx.source) + (f"'s {name}" if owner in ("keyword", "status") else "")


def _numbers(s: State) -> dict:
    """Return what a group's members start from: each card's zone changes, damage and changes, and each
    player's resources."""
    return {"cards": {str(c.id): [c.moves, c.damage, [list(m) for m in c.mods]] for c in s.cards},
            "players": [dict(p.resources) for p in s.players]}


def _restore(s: State, start: dict) -> None:
    """Put the numbers back as they were at the start (a card that moved since stays as it is now)."""
    for c in s.cards:
        moves, damage, mods = start["cards"].get(str(c.id), [None, 0, []])
        if moves == c.moves and (damage, mods) != (c.damage, c.mods):  # an unchanged card is not written
            _set_numbers(s, c.id, damage, [list(m) for m in mods])
    for p, resources in zip(s.players, start["players"], strict=True):
        p.resources = dict(resources)
    s.touch()


def _merge(s: State, start: dict, ends: list[dict]) -> None:
    """Set every number to its start plus each member's change: damage and resources add, changes join."""
    changed = []
    for c in s.cards:
        was = start["cards"].get(str(c.id))
        if was is None or any(e["cards"][str(c.id)][0] != was[0] for e in ends) or c.moves != was[0]:
            continue  # new, or moved while the group resolved: what happened to it stands
        mine = [e["cards"][str(c.id)] for e in ends]
        damage = added({"d": was[1]}, [{"d": end[1]} for end in mine])["d"]
        mods = [list(m) for m in was[2]] + [list(m) for end in mine for m in end[2][len(was[2]):]]
        if damage < 0 and s.game.ruleset.damage_lowers:  # recoveries past the damage: as one recovery does
            mods.append([s.game.ruleset.damage_lowers, -damage, None])
            damage = 0
        if (damage, mods) != (c.damage, c.mods):
            _set_numbers(s, c.id, damage, mods)
        changed += [c.id] if (damage, mods) != (was[1], was[2]) else []
    for k, p in enumerate(s.players):
        p.resources = added(start["players"][k], [e["players"][k] for e in ends])
        changed += [~k] if p.resources != start["players"][k] else []
    s.touch()
    s.say("together: the changes add up" + "".join(f"; {_now(s, x, start)}" for x in changed))


def _set_numbers(s: State, cid: int, damage: int, mods: list[list]) -> None:
    """Set a card's damage and changes (lists no other record holds)."""
    c = s.own(cid)
    c.damage, c.mods[:] = damage, mods


def _now(s: State, x: int, start: dict) -> str:
    """Return what a group changed of a card or a player, as it is now: 'Reed Archer hp 2', 'P1 ap 3'."""
    if x < 0:
        was, now = start["players"][~x], s.players[~x].resources
        return f"P{~x + 1} " + ", ".join(f"{r} {v}" for r, v in now.items() if was.get(r) != v)
    stat = s.game.ruleset.damage_lowers
    return f"{q.describe(s, x)} {stat} {q.stat(s, x, stat)}" if stat else f"{q.describe(s, x)} damage {s.cards[x].damage}"
