"""`cardc tournament` for card games: every pairing of decks or teams, in both seats, over seeded games.

Each game's seed comes from the tournament's seed, the pairing and the game's number, never from the
order games are played in, so a tournament gives the same table however many worker processes play it. The table
gives each entry's wins, draws and losses, its win rate with a 95% Wilson interval, and its points (3 a
win, 1 a draw); then the matchup matrix (row's wins against column) and the first seat's win rate.
"""

from __future__ import annotations

import math
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from runtime import engine
from runtime.agents import Agent, GreedyAgent, RandomAgent
from runtime.engine import Game
from runtime.load import load_game
from tools.play import SAMPLES, deck_path, legal_samples, read_entries

MAX_ACTIONS = 20_000  # a game that takes more decisions than this is stopped and counted a draw


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


def _load_worker(ruleset: str, options: dict[str, str], paths: dict[str, Path], agent: str) -> None:
    game = load_game(ruleset).with_options(options)
    _WORKER.update(game=game, lists=dict(zip(paths, read_entries(game, list(paths.values())), strict=True)),
                   agent=agent)


def _play_in_worker(one: Game1) -> tuple[list[int], int]:
    return play_one(_WORKER["game"], _WORKER["lists"], one, _WORKER["agent"])


def play_all(game: Game, options: dict[str, str], paths: dict[str, Path], lists: dict[str, list], todo: list[Game1],
             agent: str, workers: int) -> list[tuple[list[int], int]]:
    """Return the result of every game, in schedule order, played by a pool of worker processes (each reads
    the entries' files once), or in this one, from the entries read, for 1 worker."""
    if workers <= 1 or len(todo) < 2:
        return [play_one(game, lists, one, agent) for one in todo]
    setup = (game.ruleset.name, options, paths, agent)
    with ProcessPoolExecutor(workers, initializer=_load_worker, initargs=setup) as pool:
        return list(pool.map(_play_in_worker, todo, chunksize=max(1, len(todo) // (workers * 4))))


def play_one(game: Game, lists: dict[str, list], one: Game1, agent: str) -> tuple[list[int], int]:
    """Return a game's result (1 win, 0 draw, -1 loss, by seat) and its number of turns."""
    s = game.new_game([lists[one.first], lists[one.second]], one.seed)
    agents: list[Agent] = [GreedyAgent() if agent == "greedy" else RandomAgent(one.seed * 2 + p) for p in (0, 1)]
    for _ in range(MAX_ACTIONS):
        if engine.is_terminal(s):
            break
        assert s.decision is not None
        engine.apply_action(s, agents[s.decision["player"]].choose(s, engine.legal_actions(s)))
    return (s.result if s.result is not None else [0, 0]), s.turn


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95% Wilson score interval of a win rate (0, 0 for no games)."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre, half = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)


def table(names: list[str], played: list[tuple[Game1, list[int], int]]) -> list[str]:
    """Return the lines of the tournament's report."""
    score = {n: [0, 0, 0] for n in names}
    beats = {(a, b): 0 for a in names for b in names}
    first_wins = 0
    for one, result, _turns in played:
        for name, other, mine in ((one.first, one.second, result[0]), (one.second, one.first, result[1])):
            score[name][1 - mine] += 1  # 1: a win, 0: a draw, -1: a loss
            beats[name, other] += mine == 1
        first_wins += result[0] == 1
    width = max(len(n) for n in names + ["entry"])
    lines = [f"{'entry':<{width}}    W    D    L  win rate  95% interval  points"]
    for name, (w, d, lo) in sorted(score.items(), key=lambda kv: (-(3 * kv[1][0] + kv[1][1]), kv[0])):
        low, high = wilson(w, w + d + lo)
        rate = w / max(w + d + lo, 1)
        lines.append(f"{name:<{width}} {w:4} {d:4} {lo:4}  {rate:8.1%}  {low:5.1%}-{high:5.1%}  {3 * w + d:6}")
    lines += ["", "wins of the row against the column:", " " * width + "".join(f" {n[:8]:>8}" for n in names)]
    lines += [f"{a:<{width}}" + "".join(f" {'-' if a == b else beats[a, b]:>8}" for b in names) for a in names]
    turns = sum(t for _, _, t in played) / max(len(played), 1)
    lines += ["", f"{len(played)} games; the first seat won {first_wins / max(len(played), 1):.1%}; "
                  f"{turns:.1f} turns a game on average"]
    return lines


def entries_of(root: Path, game: Game, given: list[str]) -> list[Path]:
    """Return the files a tournament plays: those given (files, sample names, or folders of them), or
    every sample deck or team of the ruleset legal under its rules."""
    if not given:
        return legal_samples(root, game)
    ruleset, out = game.ruleset.name, []
    for item in given:
        folder = Path(item)
        if folder.is_dir():
            out += sorted(p for _, suffix in SAMPLES for p in folder.glob(f"*{suffix}"))
        else:
            out.append(deck_path(root, ruleset, item))
    return out


def tournament_command(root: Path, game: Game, options: dict[str, str], given: list[str], games: int, seed: int,
                       agent: str, workers: int) -> int:
    """Play a tournament and print its report; return the exit code."""
    try:
        paths = entries_of(root, game, given)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    names = [p.stem for p in paths]
    if len(set(names)) < 2 or len(set(names)) != len(names):
        print(f"error: a tournament needs 2 or more entries of different names; found {', '.join(names) or 'none'}",
              file=sys.stderr)
        return 2
    lists = dict(zip(names, read_entries(game, paths), strict=True))  # a bad file: a CompileError, located
    todo = schedule(names, games, seed)
    results = play_all(game, options, dict(zip(names, paths, strict=True)), lists, todo, agent, workers)
    played = [(one, result, turns) for one, (result, turns) in zip(todo, results, strict=True)]
    print("\n".join(table(names, played)))
    return 0
