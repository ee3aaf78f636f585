"""The games of `cardc tournament`: the schedule, one game played and watched, and the local worker pool.

Each game's seed comes from the tournament's seed, the pairing and the game's number, never from the
order games are played in, so a tournament gives the same results however many worker processes, or
whichever backend (this pool or Ray, tools/tournament_ray.py), play it.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from runtime import engine
from runtime.agents import Agent, GreedyAgent, RandomAgent
from runtime.engine import Game
from runtime.load import load_game
from tools.play import read_entries
from tools.progress import Bar
from tools.tournament_cards import Observer, Seen

MAX_ACTIONS = 20_000  # a game that takes more decisions than this is stopped and counted a draw


class BackendError(Exception):
    """A backend that cannot play: Ray not installed, or its cluster not reached (one line for the user)."""


@dataclass(frozen=True)
class Game1:
    """One game of the tournament: who sits where, and its seed."""

    first: str
    second: str
    seed: int


def schedule(names: list[str], games: int, seed: int) -> list[Game1]:
    """Return every game: each ordered pairing (both seats), `games` times, seeded by pairing and number."""
    pairs = [(a, b) for a in names for b in names if a != b]
    return [Game1(a, b, seed * 1_000_003 + p * games + k) for p, (a, b) in enumerate(pairs) for k in range(games)]


_WORKER: dict = {}  # in a worker process: the game, the entries and the agent, loaded once

Played = tuple[list[int], int, Seen]  # a game's result by seat, its number of turns, what it showed of the cards


def _load_worker(ruleset: str, options: dict[str, str], paths: dict[str, Path], agent: str) -> None:
    game = load_game(ruleset).with_options(options)
    _WORKER.update(game=game, lists=dict(zip(paths, read_entries(game, list(paths.values())), strict=True)),
                   agent=agent)


def _play_in_worker(one: Game1) -> Played:
    return play_one(_WORKER["game"], _WORKER["lists"], one, _WORKER["agent"])


def play_local(game: Game, options: dict[str, str], paths: dict[str, Path], lists: dict[str, list],
               todo: list[Game1], agent: str, workers: int, bar: Bar) -> list[Played]:
    """Return the result of every game, in schedule order, played by a pool of worker processes (each reads
    the entries' files once), or in this one, from the entries read, for 1 worker; bar counts the games."""
    if workers <= 1 or len(todo) < 2:
        return [bar.done(play_one(game, lists, one, agent)) for one in todo]
    setup = (game.ruleset.name, options, paths, agent)
    with ProcessPoolExecutor(workers, initializer=_load_worker, initargs=setup) as pool:
        chunk = max(1, min(8, len(todo) // (workers * 4)))  # small chunks: the bar moves, the pool stays busy
        return [bar.done(r) for r in pool.map(_play_in_worker, todo, chunksize=chunk)]


def play_one(game: Game, lists: dict[str, list], one: Game1, agent: str) -> Played:
    """Return a game's result (1 win, 0 draw, -1 loss, by seat), its number of turns and what it showed
    of the cards (drawn, played, abilities fired)."""
    seen = Observer(2)
    s = game.new_game([lists[one.first], lists[one.second]], one.seed, watch=seen.watch)
    agents: list[Agent] = [GreedyAgent() if agent == "greedy" else RandomAgent(one.seed * 2 + p) for p in (0, 1)]
    for _ in range(MAX_ACTIONS):
        seen.look(s)
        if engine.is_terminal(s):
            break
        assert s.decision is not None
        action = agents[s.decision["player"]].choose(s, engine.legal_actions(s))
        seen.chose(s, action)
        engine.apply_action(s, action)
    return (s.result if s.result is not None else [0, 0]), s.turn, seen.seen()
