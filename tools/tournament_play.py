"""The games of `cardc tournament`: the schedule, one game played and watched, and the local worker pool.

Each game's seed comes from the tournament's seed, the pairing and the game's number, never from the
order games are played in (an automatic battle takes no seed: nothing in it is random), so a tournament
gives the same results however many worker processes, or whichever backend (this pool or Ray,
tools/tournament_ray.py), play it.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from runtime import engine
from runtime.agents import Agent, GreedyAgent, RandomAgent
from runtime.battle.rules import Rules, load_rules
from runtime.engine import Game
from runtime.load import load_game
from tools.battle.tournament import battle_one
from tools.progress import Bar
from tools.tournament_cards import Observer
from tools.tournament_items import Seen

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


Played = tuple[list[int], int, Seen]  # a game's result by seat, its number of turns, what it showed of the items


@dataclass(frozen=True)
class Contest:
    """What playing any game of a tournament takes, sent once to each worker process or Ray task."""

    ruleset: str
    options: dict[str, str]
    entries: dict[str, list]  # the decks, teams or parties by name, as the driver read them
    agent: str  # card games: random or greedy (automatic battles have no agent)
    battles: bool  # automatic battles (runtime/battle) rather than card games

    def load(self) -> Game | Rules:
        """Return the compiled ruleset the games are played by: a Game with the options, or battle Rules."""
        return load_rules(self.ruleset) if self.battles else load_game(self.ruleset).with_options(self.options)


def play_game(loaded: Game | Rules, contest: Contest, one: Game1) -> Played:
    """Return one game's result by seat, its number of turns and what it showed of the items."""
    first, second = contest.entries[one.first], contest.entries[one.second]
    if isinstance(loaded, Rules):
        return battle_one(loaded, first, second, contest.options)
    return play_one(loaded, [first, second], one.seed, contest.agent)


_WORKER: dict = {}  # in a worker process: the contest and its loaded ruleset, loaded once


def _start_worker(contest: Contest) -> None:
    _WORKER.update(contest=contest, loaded=contest.load())


def _play_in_worker(one: Game1) -> Played:
    return play_game(_WORKER["loaded"], _WORKER["contest"], one)


def play_local(loaded: Game | Rules, contest: Contest, todo: list[Game1], workers: int, bar: Bar) -> list[Played]:
    """Return the result of every game, in schedule order, played by a pool of worker processes (each loads
    the ruleset once), or in this one for 1 worker; bar counts the games."""
    if workers <= 1 or len(todo) < 2:
        return [bar.done(play_game(loaded, contest, one)) for one in todo]
    with ProcessPoolExecutor(workers, initializer=_start_worker, initargs=(contest,)) as pool:
        chunk = max(1, min(8, len(todo) // (workers * 4)))  # small chunks: the bar moves, the pool stays busy
        return [bar.done(r) for r in pool.map(_play_in_worker, todo, chunksize=chunk)]


def play_one(game: Game, decks: list[list], seed: int, agent: str) -> Played:
    """Return a card game's result (1 win, 0 draw, -1 loss, by seat), its number of turns and what it showed
    of the cards (drawn, played, abilities fired)."""
    seen = Observer(2)
    s = game.new_game(decks, seed, watch=seen.watch)
    agents: list[Agent] = [GreedyAgent() if agent == "greedy" else RandomAgent(seed * 2 + p) for p in (0, 1)]
    for _ in range(MAX_ACTIONS):
        seen.look(s)
        if engine.is_terminal(s):
            break
        assert s.decision is not None
        action = agents[s.decision["player"]].choose(s, engine.legal_actions(s))
        seen.chose(s, action)
        engine.apply_action(s, action)
    return (s.result if s.result is not None else [0, 0]), s.turn, seen.seen()
