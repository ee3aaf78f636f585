"""Random legal teams for fuzzing rulesets whose sides are teams of characters (War Vortex Night): 1 to 4
characters of the pool, standing in lines filled from the front, each with an action table that keeps
the ruleset's `tables hold ...` line (N cards by ascending cost, within the holder's budget stat, at most
M of a name) and every card's `requires` (the checks of compiler/team_files.py, which the tests hold
these teams to).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from runtime.defs import Entry, meets_requirement
from runtime.engine import Game

MAX_CHARACTERS = 4
TRIES = 200  # random tables tried before the cheapest legal one is taken


def random_team(rng: random.Random, game: Game, pool: list[str], focus: list[str] | None = None) -> list[Entry]:
    """Return a legal team drawn from a pool of card names; with focus, its tables hold 1 or 2 focus actions
    wherever the holder may take one, and its first character is a focus character or, failing one, holds a
    focus action (ValueError if no character of the pool can hold a legal table)."""
    kind, focus = game.ruleset.actor_turns[0], focus or []
    characters = [n for n in pool if game.cards[n].kind == kind]
    actions = [n for n in pool if game.cards[n].kind != kind and not game.cards[n].token]
    must = [n for n in focus if n in actions]
    able = {c: t for c in characters if (t := _table(rng, game, game.cards[c], actions, must)) is not None}
    if not able:
        raise ValueError(f"no {kind} of the pool can hold a legal table")
    lead = [c for c in focus if c in able] or sorted(c for c in able if set(able[c]) & set(must))
    chosen = [rng.choice(lead)] if lead else []
    rest = sorted(c for c in able if c not in chosen)
    chosen += rng.sample(rest, min(rng.randint(1, MAX_CHARACTERS) - len(chosen), len(rest)))
    lines, line = [], 0
    for _ in chosen:  # each stands in the line of the one before it or the next one back
        lines.append(line)
        line = min(line + rng.randint(0, 1), len(game.ruleset.lines) - 1)
    return [Entry(c, tuple(able[c]), at) for c, at in zip(chosen, lines, strict=True)]


def _table(rng: random.Random, game: Game, holder: Any, actions: list[str], must: list[str]) -> list[str] | None:
    """Return a random legal table for a holder (with 1 or 2 of the cards `must` it may take, if any), the
    cheapest legal one if no random try fits, or None."""
    assert game.ruleset.table_rules is not None
    size, stat, copies = game.ruleset.table_rules
    fits = [a for a in actions if meets_requirement(game.cards[a], holder)]
    wanted = [a for a in must if a in fits]
    budget = holder.stats.get(stat, 0)
    if len(fits) * copies < size:
        return None
    for _ in range(TRIES):
        some = rng.sample(wanted * copies, min(rng.randint(1, 2), len(wanted) * copies)) if wanted else []
        table = sorted(some + rng.sample(fits * copies, size - len(some)), key=lambda a: (_cost(game, a), a))
        if sum(_cost(game, a) for a in table) <= budget and max(Counter(table).values()) <= copies:
            return table
    cheapest = sorted(fits * copies, key=lambda a: (_cost(game, a), a))[:size]
    return cheapest if sum(_cost(game, a) for a in cheapest) <= budget else None


def _cost(game: Game, name: str) -> int:
    return sum(game.cards[name].cost.values())
