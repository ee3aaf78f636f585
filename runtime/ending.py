"""How a game ends: lose rules, every player losing at once, and the round limit.

Lose rules are checked between tasks (turns.check_state); a ruleset whose lose rules apply
'at once' also has them checked inside effects, after each change to a player, and then the
rest of the effect does not happen (GameOver unwinds it to the engine loop).
"""

from __future__ import annotations

from runtime.state import Ctx, State


class GameOver(Exception):
    """Raised inside an effect that ended the game; the engine loop stops there."""


def rules_ctx(s: State, player: int = -1) -> Ctx:
    """Return a context for ruleset sentences: 'you' is the turn player. The state's spare one if it has one
    (see done_with), else a new one."""
    ctx = s.spare
    if ctx is None:
        return Ctx(-1, s.active, ["ruleset", s.game.ruleset.name, 0], player=player)
    s.spare = None  # handed out: a sentence run meanwhile (a lose rule checked at once) gets a new one
    ctx.controller, ctx.player = s.active, player
    return ctx


# The tests set this (tests/conftest.py): every context done_with keeps is then compared field by field with a
# new one, so a write its quick test misses fails a test (a planted one: tests/test_determinism.py).
VERIFY = False


class KeptWritten(Exception):
    """done_with kept as spare a ruleset context that a sentence wrote to."""


def done_with(s: State, ctx: Ctx) -> None:
    """Keep a ruleset context its user is done with as the state's spare, unless a sentence wrote to it. Making
    one is a tenth of a Code of Joker game, and most are only read. A ruleset context is never kept (those of
    abilities go on the stack or wait as triggers), so it is free when its user returns. What a ruleset
    sentence can write: 'if you do' and 'if that happened' (paid, happened, runs), a roll and a choice."""
    if ctx.paid or ctx.happened or not ctx.runs or ctx.rolled or ctx.chosen or ctx.ended:
        return
    if VERIFY and ctx.__dict__ != Ctx(-1, ctx.controller, ctx.ability, player=ctx.player).__dict__:
        raise KeptWritten(f"a ruleset context written to would be used again: {ctx}")
    s.spare = ctx


def check_losers(s: State, ctx: Ctx | None = None) -> bool:
    """Set the result if a lose rule holds for some player; under elimination a loser leaves the game
    and the others play on, until one is left. `ctx`: a context of the ruleset's to read them in. Return
    whether the game is over."""
    rs = s.game.ruleset
    mine = ctx is None
    ctx = ctx or rules_ctx(s)
    playing = [p for p in range(len(s.players)) if p not in s.out]
    losers = []
    for p in playing:
        ctx.player = p
        for rule in rs.lose_rules:
            if rule(rs, s, ctx):
                losers.append(p)
                break
    if mine:
        done_with(s, ctx)
    if not losers:
        return s.result is not None
    if rs.elimination and len(losers) < len(playing):
        _leave(s, losers, [p for p in playing if p not in losers])
    elif len(losers) == len(playing):
        _all_lose(s, playing)
    else:
        s.result = [-1 if p in losers else 1 for p in range(len(s.players))]
        winners = [f"P{p + 1}" for p in range(len(s.players)) if p not in losers]
        s.say(f"{', '.join(f'P{p + 1}' for p in losers)} loses; {', '.join(winners)} wins")
    return s.result is not None


def _leave(s: State, losers: list[int], left: list[int]) -> None:
    """Elimination: the losers leave the game; the last player standing wins. A turn player who leaves
    ends their turn there: what was left of it (its tasks, the stack, triggers waiting) is dropped."""
    s.out += losers
    if s.active in losers:
        s.tasks.clear()
        s.stack.clear()
        s.pending.clear()
        s.resolving.clear()
        s.decision = None
    names = ", ".join(f"P{p + 1}" for p in losers)
    s.say(f"{names} {'leaves' if len(losers) == 1 else 'leave'} the game")
    if len(left) == 1:
        s.result = [1 if p == left[0] else -1 for p in range(len(s.players))]
        s.say(f"P{left[0] + 1} is the last player standing and wins")


def _all_lose(s: State, playing: list[int]) -> None:
    """Every player still playing loses at once: the ruleset's 'if every player loses at once' outcome
    (players who already left the game lose)."""
    rs, n = s.game.ruleset, len(s.players)
    if rs.all_lose == "draw":
        s.result = [0 if p in playing else -1 for p in range(n)]
        s.say("every player loses at once: the game is a draw")
    elif rs.all_lose in ("first", "second"):
        winner = s.first if rs.all_lose == "first" else (s.first + 1) % n
        s.result = [1 if p == winner else -1 for p in range(n)]
        s.say(f"every player loses at once: the {rs.all_lose} player, P{winner + 1}, wins")
    else:
        s.result = [-1] * n
        s.say("every player loses at once: nobody wins")


def at_once(s: State) -> None:
    """Inside an effect: end the game now if a lose rule that applies at once holds."""
    if s.game.ruleset.lose_at_once and s.result is None and check_losers(s):
        raise GameOver


def round_number(s: State) -> int:
    """Return the current round: every player has one turn per round (where turns go to cards, every actor:
    the cycle)."""
    if s.game.ruleset.actor_turns:
        return s.cycle
    return (s.turn - 1) // len(s.players) + 1 if s.turn else 0


def past_round_limit(s: State) -> bool:
    """Before a turn begins: end the game by the round limit if the last round is over."""
    limit = s.game.ruleset.round_limit
    if limit is None or s.turn < limit[0] * len(s.players):
        return False
    last, resource, tie = limit
    values = [p.resources.get(resource, 0) for p in s.players]
    best = max(values)
    leaders = [p for p, v in enumerate(values) if v == best]
    if len(leaders) > 1 and tie in ("first", "second"):
        leaders = [s.first if tie == "first" else (s.first + 1) % len(s.players)]
    if len(leaders) == 1:
        s.result, told = [1 if p in leaders else -1 for p in range(len(s.players))], f"P{leaders[0] + 1} wins"
    elif tie == "lose":
        s.result, told = [-1] * len(s.players), "they all lose"
    else:
        s.result, told = [0] * len(s.players), "the game is a draw"
    s.say(f"round {last} is over: {resource} {', '.join(map(str, values))}; {told}")
    return True
