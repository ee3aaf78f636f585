"""What both adapters share: the spaces of a game, its arrays, reproducible seeds, and the opponents."""

from __future__ import annotations

import operator
import random
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces

from runtime import engine
from runtime.agents import GreedyAgent
from tools import api

Opponent = Callable[[api.State], int]  # an opponent: the state in, a legal action number out
RENDER_MODES = ("human", "ansi")  # both adapters render text
SEED_RANGE = 2**31  # seeds drawn for the games of later resets


class IllegalActionError(api.ApiError):
    """An action that is not legal in the state (or not an action of the space at all)."""


FINITE = float(np.finfo(np.float32).max)  # resources have no bound in the rules; a view is always finite


def observation_box(game: api.Game) -> spaces.Box:
    """Return the space of a game's flat observations: any finite float32 (counts and resources)."""
    return spaces.Box(-FINITE, FINITE, shape=(game.observation_size,), dtype=np.float32)


def mask_box(game: api.Game) -> spaces.Box:
    """Return the space of an action mask: one 0/1 entry per action, int8 as Discrete.sample(mask) takes."""
    return spaces.Box(0, 1, shape=(game.num_actions,), dtype=np.int8)


def observation_array(state: api.State, seat: int) -> np.ndarray:
    """Return what a seat sees as a float32 vector."""
    return np.asarray(state.observation_tensor(seat), dtype=np.float32)


def mask_array(state: api.State, seat: int) -> np.ndarray:
    """Return the legal-action mask of a seat: its legal actions if it decides now, else all zeros."""
    mask = np.zeros(state.game.num_actions, dtype=np.int8)
    if state.current_player == seat:
        mask[state.legal_actions()] = 1
    return mask


def apply_checked(state: api.State, action: Any) -> None:
    """Apply an action; IllegalActionError saying why when it is not an integer legal now."""
    try:
        number = operator.index(action)  # numpy integers too
    except TypeError:
        raise IllegalActionError(f"an action is an integer, not {action!r}") from None
    if not 0 <= number < state.game.num_actions:
        raise IllegalActionError(f"action {number} is not in the action space [0, {state.game.num_actions})")
    try:
        state.apply_action(number)
    except api.ApiError:
        raise IllegalActionError(f"action {number} ({state.action_to_string(number)}) is not legal now; "
                                 "choose one where the action mask is 1") from None


class Seeds:
    """The seeds of successive games: a reset's own seed, else the next of a sequence that seed started."""

    def __init__(self, seed: int | None):
        self.pending = seed
        self.rng = random.Random(0 if seed is None else seed)  # no seed at all: the same games every run

    def next(self, seed: int | None) -> int:
        """Return the seed of the next game: `seed` when given (restarting the sequence from it)."""
        if seed is not None:
            self.pending, self.rng = None, random.Random(seed)
            return seed
        if self.pending is not None:
            chosen, self.pending = self.pending, None
            return chosen
        return self.rng.randrange(SEED_RANGE)


def random_opponent(seed: int) -> Opponent:
    """Return an opponent that picks uniformly among the legal actions with its own seeded generator."""
    rng = random.Random(seed)
    return lambda state: rng.choice(state.legal_actions())


def greedy_opponent(seed: int) -> Opponent:
    """Return the engine's greedy agent (runtime/agents.py GreedyAgent) as an opponent."""
    agent = GreedyAgent()
    return lambda state: state.game.space.encode(agent.choose(state.raw, engine.legal_actions(state.raw)))


def opponent_of(choice: str | Opponent, seed: int) -> Opponent:
    """Return the opponent a name stands for ('random', 'greedy'), or the callable; ApiError otherwise."""
    if callable(choice):
        return choice
    makers = {"random": random_opponent, "greedy": greedy_opponent}
    if choice not in makers:
        raise api.ApiError(f"opponent is 'random', 'greedy' or a callable (state -> action), not {choice!r}")
    return makers[choice](seed)


def live(state: api.State | None) -> api.State:
    """Return the game in play; ApiError before the first reset."""
    if state is None:
        raise api.ApiError("call reset() before using the environment")
    return state


def shown(render_mode: str | None, text: str) -> str | None:
    """Return the text (ansi) or print it (human)."""
    if render_mode == "ansi":
        return text
    print(text)
    return None
