"""Invariants every finished automatic battle keeps; `cardc fuzz` and the Marguerite tests check them.

Each invariant is a named check in INVARIANTS. Around them, tools/battle/fuzz.py `check` adds a
crash, a replay that differs (`replayed`) and a party line that does not read back (`read_back`, a
check of the party-file format, which the tools own).
tests/test_invariants.py plants a breakage of each one in a real battle and expects exactly its message.
"""

from __future__ import annotations

from collections.abc import Callable

from runtime.battle.state import Battle, Fighter

Check = Callable[[Battle], list[str]]


def result(s: Battle) -> list[str]:
    """Return a message when the battle has no result."""
    return [] if s.result in ("A", "B", "draw") else [f"no result (result {s.result!r})"]


def last_turn(s: Battle) -> list[str]:
    """Return a message when a turn starts after the last one (星霜剣 may push the number past it, no more)."""
    last = s.defs.ruleset.last_turn
    late = [line for line in s.log if line.endswith(" turn starts") and int(line[1:].split()[0]) > last]
    return [f"'{late[0]}' comes after the last turn, {last}"] if late else []


def ap(s: Battle) -> list[str]:
    """Return a message for each swordsman with negative AP or reserve AP."""
    return [f"{f.name} has AP {f.values['ap']}, reserve AP {f.values['reserve_ap']}"
            for f in s.fighters() if f.values["ap"] < 0 or f.values["reserve_ap"] < 0]


def dead_in_party(s: Battle) -> list[str]:
    """Return a message for each dead swordsman still in a party once turn 0 is over."""
    return [] if s.turn_zero else [f"{f.name} is dead (HP {f.hp}) but still in its party after the end"
                                   for f in s.fighters() if f.hp <= 0]


def state_counts(s: Battle) -> list[str]:
    """Return a message for each swordsman holding a negative state count."""
    return [f"{f.name} has a negative state count: {f.states}"
            for f in s.fighters() if any(count < 0 for count in f.states.values())]


def max_hp(s: Battle) -> list[str]:
    """Return a message for each swordsman further above its max HP than its last HP assignment put it.

    §10 (seed: 「HPは最大値以上には回復しないが、代入によって最大値以上になることはある」): recovery never
    raises HP above the max, an assignment may (Life's HP := 1 at max HP 0), and damage or a raise of
    max HP and HP together (臥竜剣) never widens the gap, so HP - max HP stays at most `over_max`.
    """
    return [f"{f.name} has HP {f.hp} above its max HP {f.values['max_hp']}" + _allowed(f)
            for f in s.fighters() if f.hp - f.values["max_hp"] > f.over_max]


def _allowed(f: Fighter) -> str:
    """Return how far above max HP an assignment allowed the swordsman to be ('' if not at all)."""
    return f" (its last HP assignment allows {f.over_max} above)" if f.over_max else ""


def swords_once(s: Battle) -> list[str]:
    """Return a message for each sword held a second time (by the same swordsman or another)."""
    seen: set[int] = set()
    out = []
    for w in (w for f in s.fighters() for w in f.swords):
        if w.id in seen:
            out.append(f"sword {w.id} ({w.card}) is held twice")
        seen.add(w.id)
    return out


def party_order(s: Battle) -> list[str]:
    """Return a message for each party out of the order the rules keep."""
    return [f"party {'AB'[side]} is out of order: {', '.join(f.name for f in party)}"
            for side, party in enumerate(s.parties) if [f.id for f in party] != _kept_order(party)]


def _kept_order(party: list[Fighter]) -> list[int]:
    """Return the ids of a party in the order the rules keep: builds newest first, then the rest as created."""
    built = sorted((f.id for f in party if f.built), reverse=True)
    return built + sorted(f.id for f in party if not f.built)


def exits(s: Battle) -> list[str]:
    """Return a message for each exited swordsman that is alive or whose overkill is not -HP."""
    return [f"{f.name} exited with HP {f.hp} and overkill {f.overkill}"
            for f in s.exited[0] + s.exited[1] if f.hp > 0 or f.overkill != -f.hp]


def log_end(s: Battle) -> list[str]:
    """Return a message when the log's last line is not the result."""
    return [] if any("result:" in line for line in s.log[-1:]) else ["the log does not end with the result"]


INVARIANTS: tuple[tuple[str, Check], ...] = (
    ("result", result),
    ("last turn", last_turn),
    ("ap", ap),
    ("dead in party", dead_in_party),
    ("state counts", state_counts),
    ("max hp", max_hp),
    ("swords once", swords_once),
    ("party order", party_order),
    ("exits", exits),
    ("log end", log_end),
)


def broken(s: Battle) -> list[tuple[str, str]]:
    """Return (invariant name, message) for every broken invariant of a finished battle, in INVARIANTS order."""
    return [(name, message) for name, check in INVARIANTS for message in check(s)]


def violations(s: Battle) -> list[str]:
    """Return what a finished battle breaks (empty when every invariant holds)."""
    return [message for _, message in broken(s)]


def replayed(first: Battle, again: Battle) -> list[str]:
    """Return a message when a battle played again from the same parties and options logs differently."""
    return [] if first.log == again.log else ["the replay differs"]
