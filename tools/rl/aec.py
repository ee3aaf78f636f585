"""A PettingZoo AEC environment for each card-game ruleset: one agent per seat, turn order the engine's."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from tools import api
from tools.rl.common import (
    RENDER_MODES,
    Seeds,
    apply_checked,
    live,
    mask_array,
    mask_box,
    observation_array,
    observation_box,
    shown,
)

DEFAULT_MAX_MOVES = 5_000  # the move cap: a game still running after this many actions is truncated


def agent_name(seat: int) -> str:
    """Return the PettingZoo name of a seat: player_0, player_1, ..."""
    return f"player_{seat}"


class CardcAECEnv(AECEnv):
    """A cardc game as a PettingZoo AEC environment: whoever the engine asks (a target, a block, a
    response: not only the player whose turn it is) is the agent selected, so an agent may act several
    times in a row. Observations are dicts of the agent's own flat view and its action mask."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "cardc_v0", "is_parallelizable": False}

    def __init__(self, ruleset: str, rules: str | None = None, decks: list | None = None,
                 seed: int | None = None, max_moves: int = DEFAULT_MAX_MOVES,
                 render_mode: str | None = None, options: dict[str, str] | None = None):
        super().__init__()
        if render_mode not in (None, *RENDER_MODES):
            raise api.ApiError(f"render_mode is one of {list(RENDER_MODES)}, not {render_mode!r}")
        self.game = api.load(ruleset, rules=rules, options=options)
        self.decks = decks
        self.max_moves, self.render_mode = max_moves, render_mode
        seats = len(decks) if decks is not None else self.game.min_players
        self.possible_agents = [agent_name(p) for p in range(seats)]
        view = spaces.Dict({"observation": observation_box(self.game), "action_mask": mask_box(self.game)})
        self.observation_spaces = {a: view for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents}
        self.seeds = Seeds(seed)
        self.state: api.State | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        """Return an agent's observation space (the same object every call, as PettingZoo asks)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """Return an agent's action space: Discrete(num_actions)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new game: with `seed`, exactly that game; without, the next of the seeded sequence."""
        self.state = self.game.new_state(self.decks, seed=self.seeds.next(seed))
        self.moves = 0
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._finish_if_over()
        self.agent_selection = self._selected()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """Return what one agent sees: its own flat view and its mask (zeros when it does not decide)."""
        state, seat = self._live(), self.possible_agents.index(agent)
        return {"observation": observation_array(state, seat), "action_mask": mask_array(state, seat)}

    def step(self, action: Any) -> None:
        """Take the selected agent's action; IllegalActionError if it is not legal (see docs/api.md)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        apply_checked(self._live(), action)
        self.moves += 1
        self._finish_if_over()
        self.agent_selection = self._selected()
        self._accumulate_rewards()

    def _finish_if_over(self) -> None:
        """At the end (or at the move cap) set every agent's reward, termination or truncation."""
        state = self._live()
        over, capped = state.is_terminal(), self.moves >= self.max_moves
        returns = state.returns() if over else [0.0] * len(self.agents)
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = returns[seat]
            self.terminations[agent], self.truncations[agent] = over, capped and not over
        if over or capped:
            self.infos = {a: {"returns": returns, "moves": self.moves} for a in self.agents}

    def _selected(self) -> str:
        """Return the agent that acts next: the seat the engine asks, or the first agent once it is over."""
        seat, first = self._live().current_player, self.agents[0]
        return agent_name(seat) if seat != api.TERMINAL and not self.truncations[first] else first

    def _live(self) -> api.State:
        """Return the game in play; ApiError before the first reset."""
        return live(self.state)

    def render(self) -> str | None:
        """Return (ansi) or print (human) the whole board as text; nothing without a render mode."""
        if self.render_mode is None or self.state is None:
            return None
        return shown(self.render_mode, str(self.state))

    def close(self) -> None:
        """Let the game go."""
        self.state = None
