"""Interruption windows (Successor §5, §6, §10): where a ruleset says `summons, moves and destructions can be
interrupted.`, each of those procedures pauses while the players may respond (runtime/effects.interrupt opens
the window): with a card of a `responds` kind from the hand (a flash) and, where `activated abilities can
respond.`, with an activated ability (runtime/activate.py).

A window goes round the players, the opponent of the card's controller first, until every player has passed
in a row; a player with nothing to use passes without being asked. What a player uses goes on the stack with
its targets, then a round of answers opens on it (every player passes in a row, the next player first) and
it resolves; the window goes on with the next player. Where `once a flash succeeds, only flash can respond
until every player passes.`, that is flash time: before a first flash has succeeded, an answer to a use is
an activated ability (SU-6.3: no flash time yet); once one has resolved with its target there, the window and
its rounds offer only flashes (SU-6.2: no activated abilities in flash time). A flash whose target is gone
fails to the graveyard and opens nothing (SU-6.1, SU-6.3). The ★ steps of a battle open no window (SU-7.4).

The window is a task ["window", next player, passes in a row, mode]: mode 'open' (a procedure's window),
'answer' (a round on a use, before flash time) or 'flash' (flash time).
"""

from __future__ import annotations

from runtime import activate, resolve
from runtime import effects as fx
from runtime import query as q
from runtime.state import Ctx, State, Tasks
from runtime.turns import cast


def _next(s: State, player: int) -> int:
    return (player + 1) % len(s.players)


def window_task(s: State, task: list) -> None:
    """Ask the next player who has something to use, or close the window once every player has passed."""
    _, player, passes, mode = task
    while passes < len(s.players):
        options = offers(s, player, mode)
        if options:
            task[1], task[2] = player, passes
            s.ask(task, player, "interrupt", [], choices=options, can_stop=True, stop="pass")
            return
        player, passes = _next(s, player), passes + 1


def offers(s: State, player: int, mode: str) -> list[list]:
    """Return what a player may use in a window of this mode, as [action, card] pairs: flashes, then abilities."""
    rs = s.game.ruleset
    if player in s.out:
        return []
    cards = [c for c in resolve.responses(s, player) if mode == "open" or (mode == "flash" and q.kind(s, c) == rs.flash_time)]
    abilities = activate.usable_cards(s, player) if rs.activated_respond and mode != "flash" else []
    return [["respond", c] for c in cards] + [["activate", c] for c in abilities]


def answer(s: State, player: int, kind: str, x: int) -> None:
    """Record a player's answer in a window: pass, or use a flash or an activated ability (a round on it opens)."""
    task = s.tasks[-1]
    task[1], task[2] = _next(s, player), task[2] + 1 if kind == "pass" else 0
    if kind == "pass":
        s.say(f"P{player + 1} passes")
        return
    round_ = ["window", _next(s, player), 0, "flash" if task[3] == "flash" else "answer"]
    if kind == "activate":
        activate.use(s, player, x, round_)
        return
    cdef = s.game.cards[s.cards[x].name]
    paid = fx.pay_printed(s, player, cdef.cost)
    fx.move(s, x, "stack")
    s.say(f"P{player + 1} responds with {q.describe(s, x)}, paying {paid}")
    effect = next(i for i, a in enumerate(cdef.abilities) if a.kind == "effect")
    cast(s, x, Ctx(x, player, ["card", cdef.name, effect]), round_)


TASKS: Tasks = {"window": window_task, "flash_time": resolve.flash_time_task}
