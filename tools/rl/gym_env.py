"""A Gymnasium environment for one seat of a card game, the other seats played by a fixed opponent."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from tools import api
from tools.rl.aec import DEFAULT_MAX_MOVES
from tools.rl.common import (
    RENDER_MODES,
    IllegalActionError,
    Opponent,
    Seeds,
    apply_checked,
    live,
    mask_array,
    observation_array,
    observation_box,
    opponent_of,
    shown,
)

ILLEGAL_CHOICES = ("lose", "raise")


class CardcGymEnv(gymnasium.Env):
    """One seat of a cardc game as a Gymnasium environment: `step` takes the seat's action, then plays the
    opponent's decisions until the seat decides again or the game ends. The legal actions are
    `info["action_mask"]`; the reward is the seat's return at the end (1 a win, -1 a loss, 0 a draw)."""

    metadata = {"render_modes": list(RENDER_MODES)}

    def __init__(self, ruleset: str, opponent: str | Opponent = "random", seat: int = 0,
                 rules: str | None = None, decks: list | None = None, seed: int | None = None,
                 max_moves: int = DEFAULT_MAX_MOVES, illegal: str = "lose", render_mode: str | None = None,
                 options: dict[str, str] | None = None):
        if render_mode not in (None, *RENDER_MODES):
            raise api.ApiError(f"render_mode is one of {list(RENDER_MODES)}, not {render_mode!r}")
        if illegal not in ILLEGAL_CHOICES:
            raise api.ApiError(f"illegal is one of {', '.join(ILLEGAL_CHOICES)}, not {illegal!r}")
        self.game = api.load(ruleset, rules=rules, options=options)
        seats = len(decks) if decks is not None else self.game.min_players
        if not isinstance(seat, int) or not 0 <= seat < seats:
            raise api.ApiError(f"seat is one of 0 to {seats - 1}, not {seat!r}")
        self.decks, self.seat, self.choice = decks, seat, opponent
        self.max_moves, self.illegal, self.render_mode = max_moves, illegal, render_mode
        self.observation_space = observation_box(self.game)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.seeds = Seeds(seed)
        self.state: api.State | None = None
        self.done = False

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        """Deal a new game (seeded as the AEC environment is); play the opponent up to the seat's decision."""
        super().reset(seed=seed)
        game_seed = self.seeds.next(seed)
        self.state = self.game.new_state(self.decks, seed=game_seed)
        self.opponent = opponent_of(self.choice, game_seed * 2 + 1)  # its own generator, fixed by the game's
        self.moves, self.done = 0, False
        self._play_opponent(capped=False)  # a reset always hands the seat a decision (or the game's end)
        return observation_array(self.state, self.seat), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        """Take the seat's action and the opponent's replies; return observation, reward, ends, info."""
        state = self._live()
        if self.done:
            raise api.ApiError("the game is over; call reset()")
        if not self.action_space.contains(action):
            size = self.game.num_actions
            raise IllegalActionError(f"action {action!r} is not in the action space [0, {size})")
        try:
            apply_checked(state, action)
        except IllegalActionError:
            if self.illegal == "raise":
                raise
            return self._illegal()
        self.moves += 1
        self._play_opponent(capped=True)
        reward = state.returns()[self.seat] if state.is_terminal() else 0.0
        truncated = self.moves >= self.max_moves and not state.is_terminal()
        self.done = truncated or state.is_terminal()
        return observation_array(state, self.seat), reward, state.is_terminal(), truncated, self._info()

    def _illegal(self) -> tuple[np.ndarray, float, bool, bool, dict]:
        """Return the step of an illegal action under illegal='lose': the episode ends as a loss."""
        self.done = True
        info = self._info() | {"illegal_action": True}
        return observation_array(self._live(), self.seat), -1.0, True, False, info

    def _play_opponent(self, capped: bool) -> None:
        """Apply the opponent's actions until the seat decides, the game ends or (if capped) the move cap."""
        state = self._live()
        while not state.is_terminal() and state.current_player != self.seat and not (
                capped and self.moves >= self.max_moves):
            apply_checked(state, self.opponent(state))
            self.moves += 1

    def _info(self) -> dict[str, Any]:
        """Return the step's info: the seat's action mask and the moves played so far."""
        return {"action_mask": mask_array(self._live(), self.seat), "moves": self.moves}

    def _live(self) -> api.State:
        """Return the game in play; ApiError before the first reset."""
        return live(self.state)

    def render(self) -> str | None:
        """Return (ansi) or print (human) the board as the seat sees it; nothing without a render mode."""
        if self.render_mode is None or self.state is None:
            return None
        return shown(self.render_mode, self.state.observation_string(self.seat))
