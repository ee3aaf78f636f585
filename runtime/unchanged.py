"""Skipping state-based checks on a board the last checks left as it is: a cheap change detector.

The engine runs the checks and lose rules (turns.check_state) before every task, and about a third of
the time nothing happened since the last run. The detector is a key of what moves whenever the game
changes: the log (every effect, move, payment and roll says so), the clocks (`stamp` for zone changes,
abilities used and restrictions put; `counter` for stack items), the turn and whose it is, the lengths of
the stack, pending triggers, resolutions and cards, the battle, the interruption under way, and `version`,
which the writes that say nothing in the log bump (State.changed). Equal keys: the checks would find
what they found last time, which was nothing to do, so they are skipped. The phase and step are not in the
key: nothing a check, a lose rule or a static ability reads depends on them (expiry is a task of its own,
and a phase's start is an event), and a third of the steps of a game change nothing else.
"""

from __future__ import annotations

from runtime import effects as fx
from runtime.state import State

# Tests set this: every skipped check is then run on a snapshot, which must come out exactly as it went
# in (tests/test_determinism.py); a key that misses a change fails there.
VERIFY = False


class MissedChange(Exception):
    """A check skipped as unchanged would have changed the board (the detector missed a write)."""


def board_key(s: State) -> tuple:
    """Return the key that differs whenever anything the checks read may have changed."""
    b = s.battle
    return (len(s.log), s.stamp, s.counter, s.version, s.turn, s.active, s.actor, s.cycle, len(s.cards),
            len(s.stack), len(s.pending), len(s.resolving), len(s.together), len(s.out), fx.interrupted(s),
            repr(b) if b else "")


def needs_checks(s: State, key: tuple | None = None) -> bool:
    """Return whether the checks must run now (the board may have changed since they last ran); remember
    this board as checked. `key`: the board's key, if it was just taken."""
    key = key or board_key(s)
    if key != s.checked:
        s.checked = key
        return True
    if VERIFY:
        _verify(s)
    return False


def grants_stale(s: State, key: tuple) -> bool:
    """Return whether what static abilities grant may have changed since the last step began (the board's
    key differs); remember this board. The conditions of grants read what the checks read."""
    if key != s.granted:
        s.granted = key
        return True
    return False


def _verify(s: State) -> None:
    """Raise MissedChange if the checks, run on a copy of the state, change it."""
    from runtime import turns

    copy = s.snapshot()
    before = copy.to_dict()
    turns.check_state(copy)
    if copy.to_dict() != before:
        raise MissedChange(f"checks skipped on turn {s.turn} ({s.phase}.{s.step}) would have changed the board")
