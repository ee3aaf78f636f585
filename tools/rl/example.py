"""Play games through both adapters with random agents that follow the action mask; print games per second.

    python -m tools.rl.example --games 1000 [--ruleset simple_duel] [--seed 0]

It trains nothing: it shows the loop a learning program writes, once per adapter.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import TypeVar

import numpy as np

from tools import api
from tools.rl import CardcAECEnv, CardcGymEnv

Result = TypeVar("Result")


def masked_choice(rng: np.random.Generator, mask: np.ndarray) -> int:
    """Return a uniformly random action among those the mask allows."""
    return int(rng.choice(np.flatnonzero(mask)))


def play_aec(env: CardcAECEnv, rng: np.random.Generator) -> list[float]:
    """Play one game of the AEC environment, every agent random; return each agent's total reward."""
    env.reset()
    totals = dict.fromkeys(env.agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        env.step(None if terminated or truncated else masked_choice(rng, observation["action_mask"]))
    return list(totals.values())


def play_gym(env: CardcGymEnv, rng: np.random.Generator) -> float:
    """Play one episode of the Gymnasium environment with a random agent; return its reward."""
    _, info = env.reset()
    done, reward = False, 0.0
    while not done:
        _, reward, terminated, truncated, info = env.step(masked_choice(rng, info["action_mask"]))
        done = terminated or truncated
    return float(reward)


def timed(name: str, games: int, play: Callable[[], Result]) -> list[Result]:
    """Play `games` games, print how fast, and return what each game returned."""
    start = time.perf_counter()
    results = [play() for _ in range(games)]
    seconds = time.perf_counter() - start
    print(f"{name}: {games} games in {seconds:.1f} s, {games / seconds:.1f} games/s")
    return results


def main(argv: list[str] | None = None) -> int:
    """Play the games through each adapter; return the exit code."""
    parser = argparse.ArgumentParser(prog="python -m tools.rl.example", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games through each adapter (default 1000)")
    parser.add_argument("--ruleset", default="simple_duel", help="a card-game ruleset (default simple_duel)")
    parser.add_argument("--seed", type=int, default=0, help="seeds the deals and the agents (default 0)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    try:
        aec, gym = CardcAECEnv(args.ruleset, seed=args.seed), CardcGymEnv(args.ruleset, seed=args.seed)
    except api.ApiError as err:
        parser.error(str(err))
    rng = np.random.default_rng(args.seed)
    totals = timed("pettingzoo AEC", args.games, lambda: play_aec(aec, rng))
    rewards = timed("gymnasium vs random", args.games, lambda: play_gym(gym, rng))
    wins = sum(1 for r in rewards if r == 1.0)
    zero = all(sum(t) == 0 for t in totals)
    print(f"AEC reward sums all zero: {zero}; gym agent won {wins} of {args.games}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
