"""Reinforcement-learning adapters over the game API (docs/api.md): the optional extra `[rl]`.

`CardcAECEnv` is a PettingZoo AEC environment with one agent per seat; `CardcGymEnv` a Gymnasium
environment for one seat against a fixed opponent.
"""

try:
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as err:  # a clear word instead of a missing-module traceback deep inside
    raise ImportError("tools.rl needs the optional extra [rl]: pip install -e '.[rl]'") from err

from tools.rl.aec import CardcAECEnv
from tools.rl.common import IllegalActionError
from tools.rl.gym_env import CardcGymEnv

__all__ = ["CardcAECEnv", "CardcGymEnv", "IllegalActionError"]
