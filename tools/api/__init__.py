"""The game API: `from tools import api; game = api.load("simple_duel"); state = game.new_state(seed=1)`.

Integers for actions (a fixed action space per ruleset), observations per player (structured and flat),
clone, serialize and deserialize; documented in docs/api.md.
"""

from tools.api.game import TERMINAL, ApiError, Game, State, deserialize, load
from tools.api.space import ActionSpace, ActionSpaceError

__all__ = ["TERMINAL", "ActionSpace", "ActionSpaceError", "ApiError", "Game", "State", "deserialize", "load"]
