"""Status instances (docs/language.md 2.10): what a card's statuses are, and putting and removing them.

A card keeps its statuses as instances `[name, value, expiry, origin]` (origin: the card whose effect put
it, -1 if none), in the order they came. How a new one joins them is its status's stacking:

- `stacks`, `refresh`, `once`: one instance per status, its value a positive number of stacks;
- `merges`: one instance per status, its value signed; values add, durations add, and at ±0 it vanishes;
- `never`: every one is an instance of its own (a named status).

A static ability may generate an instance for as long as it works (`its holder has -1 Guarded`): it is
not kept, it is read from the ability index, so removing it only makes it arise again at once. A merging
one adds its value to the kept instance of its status. Everything else that changes a card (`gets`,
static abilities) is its basic modification, which no effect on state changes touches.
"""

from __future__ import annotations

from runtime import query as q
from runtime.query import NAME, ORIGIN, VALUE
from runtime.state import CardState, Ctx, State
from runtime.vocabulary import SIGNED

EXPIRY = 2


def total(s: State, cid: int, name: str) -> int:
    """Return the value of a status on a card: its stacks, or the sum of its instances' signed values."""
    return sum(x[VALUE] for x in q.instances(s, cid) if x[NAME] == name)


def put(s: State, ctx: Ctx, cid: int, amount: int, name: str, until: list | None) -> None:
    """Put a status on a card by its stacking (an amount of 0, or of none for stacks, puts nothing)."""
    sdef = s.game.statuses[name]
    if amount == 0 or (amount < 0 and sdef.stacking not in SIGNED) or _refused(s, cid, name):
        return
    c = s.own(cid)
    held = next((x for x in c.statuses if x[NAME] == name), None)
    if sdef.stacking == "never" or held is None:
        value = 1 if sdef.stacking == "once" else amount
        c.statuses.append([name, value, until, ctx.source])
    elif sdef.stacking == "merges":
        held[VALUE] += amount
        held[EXPIRY] = _added(held[EXPIRY], until)
    else:
        held[VALUE] = {"stacks": held[VALUE] + amount, "refresh": amount}.get(sdef.stacking, 1)
        held[EXPIRY] = until
    c.stamps[f"status {name}"] = s.tick()  # what the status gives dates from now (the later effect wins)
    s.touch()
    s.say(_put_line(s, cid, name, amount))
    if sdef.stacking == "merges" and total(s, cid, name) == 0:
        c.statuses[:] = [x for x in c.statuses if x[NAME] != name]
        s.touch()
        _arises(s, cid, name)
    elif sdef.stacking == "merges" and held is not None and held[VALUE] == 0:
        c.statuses.remove(held)  # what is left is only what a static generates: nothing to keep
        s.touch()


def _put_line(s: State, cid: int, name: str, amount: int) -> str:
    """Return the log line of a put: the stacks, the merged value and how long it lasts, or the count of a
    named status."""
    who, sdef = q.describe(s, cid), s.game.statuses[name]
    if sdef.stacking == "merges":
        value = total(s, cid, name)
        kept = next(x for x in s.cards[cid].statuses if x[NAME] == name)
        return f"{who} has {name} {value:+d}{_left(kept[EXPIRY])}" if value else f"{who} has {name} ±0: it vanishes"
    if sdef.stacking == "never":
        count = sum(x[NAME] == name for x in q.instances(s, cid))
        return f"{who} gets {name}" + (f" {amount:+d}" if sdef.param else "") + f" ({count} now)"
    return f"{who} has {total(s, cid, name)} {name}"


def _left(until: list | None) -> str:
    """Return how long a merged instance lasts, as its log line says: ' for 6 of its own turns'."""
    if until is not None and until[0] in ("turns", "own"):
        return f" for {until[1]} {'of its own ' if until[0] == 'own' else ''}turn{'s' * (until[1] != 1)}"
    return ""


def _added(kept: list | None, new: list | None) -> list | None:
    """Return the expiry of two merged instances: durations counted in turns add, any other is the new one."""
    if kept is not None and new is not None and kept[0] == new[0] and kept[0] in ("turns", "own"):
        return [kept[0], kept[1] + new[1]]
    return new


def _refused(s: State, cid: int, name: str) -> bool:
    """Return whether a static ability keeps the status off the card ('can't receive ... of influence N or
    less'), saying so."""
    influence = s.game.statuses[name].influence
    if any(influence <= eff.value for eff, _, _ in q.statics_on(s, cid, "refuse_changes")):
        s.say(f"{q.describe(s, cid)} does not receive {name} (influence {influence})")
        return True
    return False


def remove(s: State, cid: int, amount: int | None, name: str) -> None:
    """Remove stacks of a status (None: all), or, for a signed one, that many whole instances, latest first."""
    if s.game.statuses[name].stacking in SIGNED:
        mine = [x for x in q.instances(s, cid) if x[NAME] == name]
        _remove_instances(s, cid, mine[::-1][:amount] if amount is not None else mine[::-1])
        return
    c = s.own(cid)
    held = next((x for x in c.statuses if x[NAME] == name), None)
    if held is None:
        return
    left = 0 if amount is None else held[VALUE] - amount
    if left > 0:
        held[VALUE] = left
    else:
        c.statuses.remove(held)
    s.say(f"{q.describe(s, cid)} has {max(left, 0)} {name}")


def remove_changes(s: State, cid: int, amount: int | None) -> None:
    """Remove that many state changes (None: all) from a card, whole instances, the latest first."""
    mine = q.instances(s, cid)[::-1]
    _remove_instances(s, cid, mine[:amount] if amount is not None else mine)


def _remove_instances(s: State, cid: int, chosen: list[list]) -> None:
    """Remove instances as they are seen (kept and generated parts): what a static generates arises again."""
    c = s.own(cid)
    for x in chosen:
        s.say(f"{q.describe(s, cid)} loses {shown(s, x)}")
        kept = next((k for k in c.statuses if k[NAME] == x[NAME] and
                     (s.game.statuses[x[NAME]].stacking != "never" or k[ORIGIN] == x[ORIGIN])), None)
        if kept is not None:
            c.statuses.remove(kept)
            s.touch()
        _arises(s, cid, x[NAME])


def _arises(s: State, cid: int, name: str) -> None:
    """Say so when a status that was just removed is there again, generated by a static ability."""
    for g in (q.index(s).elements or {}).get(cid, []):
        if g[NAME] == name:
            s.say(f"{q.describe(s, cid)} has {shown(s, g)} again ({q.describe(s, g[ORIGIN])})")


def shown(s: State, x: list) -> str:
    """Return an instance as the log shows it: 'Guarded -3', 'Freezing Forest', '2 Poison'."""
    sdef = s.game.statuses[x[NAME]]
    if sdef.stacking in SIGNED:
        return f"{x[NAME]} {x[VALUE]:+d}" if sdef.stacking == "merges" or sdef.param else x[NAME]
    return f"{x[VALUE]} {x[NAME]}"


def count_down(s: State, cid: int) -> None:
    """Count down by one every duration in its holder's own turns on a card (its own turn ended)."""
    if any(m is not None and m[0] == "own" for m in _markers(s.cards[cid])):
        for m in _markers(s.own(cid)):  # only a card with such a duration is written (and so copied if shared)
            if m is not None and m[0] == "own":
                m[1] -= 1


def _markers(c: CardState) -> list:
    """Return the expiry markers of every temporary change of a card (None: it lasts)."""
    return [m[2] for m in c.mods] + list(c.granted.values()) + list(c.flags.values()) + [x[EXPIRY] for x in c.statuses]
