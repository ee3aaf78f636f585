"""`cardc tournament` for card games: every pairing of decks or teams, in both seats, over seeded games.

Each game's seed comes from the tournament's seed, the pairing and the game's number, never from the
order games are played in, so a tournament gives the same table however many worker processes play it. The table
gives each entry's wins, draws and losses, its win rate with a 95% Wilson interval, and its points (3 a
win, 1 a draw); then the matchup matrix (row's wins against column), the first seat's win rate, the games'
average length and the per-card figures (tools/tournament_cards.py). The same figures can be written as CSV,
JSON and a heat map of the matrix (tools/tournament_out.py); a progress bar shows on a terminal only.
"""

from __future__ import annotations

import math
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from runtime import engine
from runtime.agents import Agent, GreedyAgent, RandomAgent
from runtime.defs import entry_names
from runtime.engine import Game
from runtime.load import load_game
from tools.play import SAMPLES, deck_path, legal_samples, read_entries
from tools.progress import Bar
from tools.tournament_cards import Observer, Seen, card_figures
from tools.tournament_out import write_outputs

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

Played = tuple[list[int], int, Seen]  # a game's result by seat, its number of turns, what it showed of the cards


def _load_worker(ruleset: str, options: dict[str, str], paths: dict[str, Path], agent: str) -> None:
    game = load_game(ruleset).with_options(options)
    _WORKER.update(game=game, lists=dict(zip(paths, read_entries(game, list(paths.values())), strict=True)),
                   agent=agent)


def _play_in_worker(one: Game1) -> Played:
    return play_one(_WORKER["game"], _WORKER["lists"], one, _WORKER["agent"])


def play_all(game: Game, options: dict[str, str], paths: dict[str, Path], lists: dict[str, list], todo: list[Game1],
             agent: str, workers: int, bar: Bar | None = None) -> list[Played]:
    """Return the result of every game, in schedule order, played by a pool of worker processes (each reads
    the entries' files once), or in this one, from the entries read, for 1 worker; bar counts the games."""
    bar = bar or Bar(None, len(todo))
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


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95% Wilson score interval of a win rate (0, 0 for no games)."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre, half = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)


def rates(w: int, d: int, lo: int) -> dict:
    """Return a record's games, wins, draws, losses, win rate and 95% interval (rates to 6 places)."""
    n = w + d + lo
    low, high = wilson(w, n)
    return {"games": n, "wins": w, "draws": d, "losses": lo, "win_rate": round(w / max(n, 1), 6),
            "low": round(low, 6), "high": round(high, 6)}


def summary(names: list[str], cards: list[str], played: list[tuple[Game1, Played]]) -> dict:
    """Return a tournament's figures: standings, matchups (row against column, both seats), the first
    seat's record, the games' lengths and the per-card figures (plain data, in a fixed order)."""
    score = {n: [0, 0, 0] for n in names}
    pair = {(a, b): [0, 0, 0] for a in names for b in names if a != b}
    first = [0, 0, 0]
    for one, (result, _turns, _seen) in played:
        for name, other, mine in ((one.first, one.second, result[0]), (one.second, one.first, result[1])):
            score[name][1 - mine] += 1  # 1: a win, 0: a draw, -1: a loss
            pair[name, other][1 - mine] += 1
        first[1 - result[0]] += 1
    order = sorted(names, key=lambda n: (-(3 * score[n][0] + score[n][1]), n))
    turns = [t for _, (_, t, _) in played]
    return {
        "standings": [{"entry": n, **rates(*score[n]), "points": 3 * score[n][0] + score[n][1]} for n in order],
        "matchups": [{"entry": a, "against": b, **rates(*pair[a, b])} for a, b in pair],
        "first_seat": rates(*first),
        "length": {"games": len(turns), "average_turns": round(sum(turns) / max(len(turns), 1), 6),
                   "shortest": min(turns, default=0), "longest": max(turns, default=0)},
        "cards": [{"card": c["card"], "drawn": rates(*c["drawn"]), "played": rates(*c["played"]), "fired": c["fired"]}
                  for c in card_figures(cards, [(r, seen) for _, (r, _, seen) in played])],
    }


def table(names: list[str], figures: dict) -> list[str]:
    """Return the lines of the tournament's report: standings, matrix, first seat and length, per card."""
    width = max(len(n) for n in names + ["entry"])
    lines = [f"{'entry':<{width}}    W    D    L  win rate  95% interval  points"]
    for row in figures["standings"]:
        lines.append(f"{row['entry']:<{width}} {row['wins']:4} {row['draws']:4} {row['losses']:4}  "
                     f"{row['win_rate']:8.1%}  {row['low']:5.1%}-{row['high']:5.1%}  {row['points']:6}")
    beats = {(m["entry"], m["against"]): m["wins"] for m in figures["matchups"]}
    lines += ["", "wins of the row against the column:", " " * width + "".join(f" {n[:8]:>8}" for n in names)]
    lines += [f"{a:<{width}}" + "".join(f" {'-' if a == b else beats[a, b]:>8}" for b in names) for a in names]
    first, length = figures["first_seat"], figures["length"]
    lines += ["", f"{length['games']} games; the first seat won {first['win_rate']:.1%}; "
                  f"{length['average_turns']:.1f} turns a game on average"]
    return lines + card_lines(figures["cards"])


def card_lines(cards: list[dict]) -> list[str]:
    """Return the per-card lines: games drawn and played (by a seat), the win rate then, abilities fired."""
    if not cards:
        return []
    width = max(len(c["card"]) for c in cards + [{"card": "card"}])
    lines = ["", "per card (games a seat drew it, or played it, and that seat's win rate then):",
             f"{'card':<{width}}  drawn  win rate  played  win rate  fired"]
    for c in cards:
        drawn, played = c["drawn"], c["played"]
        lines.append(f"{c['card']:<{width}} {drawn['games']:6}  {drawn['win_rate']:8.1%}  {played['games']:6}  "
                     f"{played['win_rate']:8.1%} {c['fired']:6}")
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


@dataclass(frozen=True)
class Setup:
    """How a tournament is played and what it writes besides its table."""

    games: int
    seed: int
    agent: str = "random"
    workers: int = 1
    outputs: tuple[tuple[str, Path], ...] = ()  # (format: csv, json, png or html; file)


def tournament_command(root: Path, game: Game, options: dict[str, str], given: list[str], setup: Setup) -> int:
    """Play a tournament, print its report and write the files asked for; return the exit code."""
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
    todo = schedule(names, setup.games, setup.seed)
    with Bar(sys.stderr, len(todo), f"{game.ruleset.name} tournament") as bar:
        results = play_all(game, options, dict(zip(names, paths, strict=True)), lists, todo, setup.agent,
                           setup.workers, bar)
    cards = sorted({n for deck in lists.values() for n in entry_names(deck)})
    figures = summary(names, cards, list(zip(todo, results, strict=True)))
    print("\n".join(table(names, figures)))
    head = {"ruleset": game.ruleset.name, "options": dict(sorted(options.items())), "agent": setup.agent,
            "games_per_pairing": setup.games, "seed": setup.seed, "entries": names}
    write_outputs(setup.outputs, {**head, **figures})
    return 0
