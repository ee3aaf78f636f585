"""Benchmarks: build times and game speed. One command: `python -m benchmarks.run`.

Prints a Markdown table (the README quotes it). Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def bench_build() -> dict[str, float]:
    """Return seconds for a cold build, a no-op rebuild and a one-card rebuild of every card folder."""
    from compiler.build import build

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copytree(ROOT / "cards", root / "cards")
        cold = _timed(lambda: build(root))
        noop = min(_timed(lambda: build(root)) for _ in range(3))
        card = sorted((root / "cards").rglob("creatures.card"))[0]
        card.write_text(card.read_text(encoding="utf-8") + "\n# benchmark edit\n", encoding="utf-8")
        one = _timed(lambda: build(root))
    return {"cold build (s)": cold, "no-op rebuild (s)": noop, "one-card rebuild (s)": one}


def bench_games(ruleset: str, games: int, options: dict[str, str] | None = None) -> dict[str, float]:
    """Return games per second, per-turn time and actions per second for seeded random games
    between the ruleset's sample decks (or teams) that its rules (and options) accept."""
    from runtime import engine
    from runtime.agents import RandomAgent
    from runtime.load import load_game
    from tools.play import legal_samples, read_entries

    game = load_game(ruleset).with_options(options or {})
    decks = read_entries(game, legal_samples(ROOT, game))
    turns = actions = 0
    per_game = []
    for seed in range(games):
        start = time.perf_counter()
        s = game.new_game([decks[seed % len(decks)], decks[(seed + 1) % len(decks)]], seed)
        agents = [RandomAgent(seed * 2), RandomAgent(seed * 2 + 1)]
        while not engine.is_terminal(s):
            engine.apply_action(s, agents[s.decision["player"]].choose(s, engine.legal_actions(s)))
        per_game.append(time.perf_counter() - start)
        turns += s.turn
        actions += s.actions_taken
    total = sum(per_game)
    return {"games per second": games / total, "ms per turn": 1000 * total / turns,
            "decisions per second": actions / total, "median game (ms)": 1000 * statistics.median(per_game),
            "turns per game": turns / games}


def bench_memory(ruleset: str, games: int, options: dict[str, str] | None = None) -> dict[str, float]:
    """Return the peak Python heap while playing games, and the process's peak RSS."""
    tracemalloc.start()
    bench_games(ruleset, games, options)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"peak traced heap (MiB)": peak / 2**20, "peak RSS (MiB)": rss_kib / 1024}


# What the game benchmarks play: (label, ruleset, options, share of --games: a War Vortex Night battle is
# some 50 turns of many characters).
GAMES = (("simple_duel", "simple_duel", {}, 1.0), ("code_of_joker v1", "code_of_joker", {"version": "v1"}, 1.0),
         ("code_of_joker v2", "code_of_joker", {"version": "v2"}, 1.0),
         ("war_vortex_night battles (sample teams)", "war_vortex_night", {}, 0.2),
         ("successor (sample decks)", "successor", {}, 0.5))


def bench_battles(battles: int) -> dict[str, float]:
    """Return battles per second, ms per battle, actions and hits per battle over random legal parties."""
    import random

    from runtime.battle.rules import load_rules
    from tools.battle.fuzz import random_party
    from tools.battle.play import battle, budget_of

    rules = load_rules("marguerite")
    budget = budget_of(rules)
    rng = random.Random(1)
    pairs = [(random_party(rules, rng, budget), random_party(rules, rng, budget)) for _ in range(battles)]
    done = []
    seconds = _timed(lambda: done.extend(battle(rules, a, b, {}) for a, b in pairs))
    return {"battles per second": battles / seconds, "ms per battle": 1000 * seconds / battles,
            "actions per battle": statistics.mean(s.actions for s in done),
            "hits per battle": statistics.mean(s.hits for s in done)}


def mid_game(ruleset: str = "code_of_joker", options: dict[str, str] | None = None, seed: int = 3,
             decisions: int = 60):
    """Return the state of a seeded random game after `decisions` decisions (or at its end)."""
    from runtime import engine
    from runtime.agents import RandomAgent
    from runtime.load import load_game
    from tools.play import legal_samples, read_entries

    game = load_game(ruleset).with_options({"version": "v1"} if options is None else options)
    decks = read_entries(game, legal_samples(ROOT, game))
    s = game.new_game([decks[seed % len(decks)], decks[(seed + 1) % len(decks)]], seed)
    agents = [RandomAgent(seed * 2), RandomAgent(seed * 2 + 1)]
    while not engine.is_terminal(s) and s.actions_taken < decisions:
        engine.apply_action(s, agents[s.decision["player"]].choose(s, engine.legal_actions(s)))
    return s


def _repeat(fn, times: int) -> None:
    """Call fn `times` times, keeping no result (a list of thousands of copies would time the collector)."""
    for _ in range(times):
        fn()


def bench_snapshot(rounds: int = 2000) -> dict[str, float]:
    """Return microseconds for a snapshot of a mid-game Code of Joker state, a restore (a snapshot of the kept
    snapshot: a usable state equal to the original, as an undo and an API clone make it), the two in a row,
    `to_dict`, a JSON round trip, and the deferred cost of copy on write: writing every card after a snapshot
    (best of five batches: the least disturbed by other work on the machine)."""
    from runtime.state import State

    s = mid_game()
    kept = s.snapshot()
    few = max(1, rounds // 10)

    def per_call(fn, times: int) -> float:
        return 1e6 * min(_timed(lambda: _repeat(fn, times)) for _ in range(5)) / times

    def write_every_card() -> None:
        copy = s.snapshot()
        for cid in range(len(copy.cards)):
            copy.own(cid)

    return {"cards in the state": len(s.cards), "snapshot (µs)": per_call(s.snapshot, rounds),
            "restore (µs)": per_call(kept.snapshot, rounds),
            "snapshot + restore (µs)": per_call(lambda: s.snapshot().snapshot(), rounds),
            "to_dict (µs)": per_call(s.to_dict, few),
            "to_json + from_json (µs)": per_call(lambda: State.from_json(s.to_json(), s.game), few),
            "snapshot, then a write to every card (µs)": per_call(write_every_card, few)}


def _profile_build(profiler, size: int) -> None:
    """Profile a cold build, then `cardc check`, of the synthetic pool (one process: the jobs are off)."""
    import os

    from benchmarks.pool import _run, synthetic_pool

    os.environ["CARDC_JOBS"] = "1"  # the profiler sees only its own process
    with tempfile.TemporaryDirectory() as tmp:
        synthetic_pool(Path(tmp), size)
        profiler.runcall(_run, "build", Path(tmp))
        profiler.runcall(_run, "check", Path(tmp))


def profile(name: str, games: int, top: int = 30, size: int = 10_000) -> None:
    """Print the cProfile report (by own time) of `games` seeded random games of one GAMES row, of
    Marguerite battles for 'marguerite', snapshots for the row 'snapshot', or of a cold build and a check of the synthetic pool for 'build'."""
    import cProfile
    import pstats

    rows = {label.split()[0] if "(" in label else label.replace(" ", "_"): row for label, *row in GAMES}
    if name not in ("snapshot", "build", "marguerite") and name not in rows:
        raise SystemExit(f"unknown profile '{name}': choose one of build, snapshot, marguerite, {', '.join(rows)}")
    profiler = cProfile.Profile()
    if name == "build":
        _profile_build(profiler, size)
    elif name == "snapshot":
        profiler.runcall(bench_snapshot)
    elif name == "marguerite":
        profiler.runcall(bench_battles, games)
    else:
        ruleset, options, share = rows[name]
        profiler.runcall(bench_games, ruleset, max(1, round(games * share)), options)
    pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--json", type=Path, help="also write the figures to this file")
    p.add_argument("--profile", metavar="NAME", help="profile one row instead (build, simple_duel, "
                   "code_of_joker_v1, code_of_joker_v2, war_vortex_night, successor, marguerite, snapshot) and print where "
                   "the time goes")
    p.add_argument("--only", choices=tuple(GROUPS), action="append",
                   help="run only these rows (repeatable): " + "; ".join(f"{k}: {v[0]}" for k, v in GROUPS.items()))
    p.add_argument("--pool-size", type=int, default=10_000, help="cards in the synthetic pool (default: 10000)")
    p.add_argument("--against", metavar="REV", help="also play the games in the commit REV, interleaved with these, "
                   "and give the ratio (the group 'against')")
    p.add_argument("--rounds", type=int, default=3, help="rounds of --against, each tree in turn (default: 3)")
    p.add_argument("--kernel", action="store_true", help="run on the runtime kernel compiled by mypyc "
                   "(benchmarks/kernel.py, built first if stale); --against then measures this tree both ways")
    args = p.parse_args(argv)
    if args.only and "against" in args.only and args.against is None:
        p.error("--only against needs --against REV")
    if args.kernel:
        from benchmarks.kernel import command

        return command("benchmarks.run", argv)
    sys.path.append(str(ROOT))  # after a compiled kernel's folder, if PYTHONPATH names one
    if args.profile:
        profile(args.profile, args.games, size=args.pool_size)
        return 0
    figures: dict[str, dict[str, float]] = {}
    for group, (_what, add) in GROUPS.items():
        if args.only is None or group in args.only:
            add(figures, args)
    _print(figures, args.games)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return 0


def _builds(figures: dict[str, dict[str, float]], args: argparse.Namespace) -> None:
    """Add the build rows: the real card folders and the synthetic pool."""
    from benchmarks.pool import bench_pool

    figures["build (every card folder)"] = bench_build()
    figures[f"build ({args.pool_size:,}-card synthetic pool)"] = bench_pool(args.pool_size)


def _games(figures: dict[str, dict[str, float]], args: argparse.Namespace) -> None:
    """Add the rows of seeded random games of each card ruleset."""
    for label, ruleset, options, share in GAMES:
        count = max(1, round(args.games * share))
        figures[label] = {**bench_games(ruleset, count, options), **bench_memory(ruleset, min(50, count), options)}


def _battles(figures: dict[str, dict[str, float]], args: argparse.Namespace) -> None:
    figures["Marguerite battles (random legal parties)"] = bench_battles(args.games)


def _snapshot(figures: dict[str, dict[str, float]], args: argparse.Namespace) -> None:
    figures["mid-game Code of Joker state"] = bench_snapshot()


def _interpreter(figures: dict[str, dict[str, float]], args: argparse.Namespace) -> None:
    """Add the rows of compiled cards against the reference interpreter (a tenth of the games: both sides play)."""
    from benchmarks.interpreter import bench_interpreter

    for label, ruleset, options, share in GAMES:
        figures[f"compiled vs interpreter, {label}"] = bench_interpreter(ruleset, max(1, round(args.games * share / 10)),
                                                                         options)


def _api(figures: dict[str, dict[str, float]], args: argparse.Namespace) -> None:
    """Add the rows of games played through the game API (a third of the games: each is played twice)."""
    from benchmarks.api import bench_api

    for label, ruleset, options, share in GAMES:
        figures[f"through the API, {label}"] = bench_api(ruleset, max(1, round(args.games * share / 3)), options)


def _against(figures: dict[str, dict[str, float]], args: argparse.Namespace) -> None:
    """Add the rows of game speed against the commit --against (none without it)."""
    from benchmarks.against import bench_against
    from benchmarks.kernel import active

    if args.against is not None:
        figures.update(bench_against(args.against, args.games, args.rounds, active()))


# The row groups, in the order they run: (what --only's help says, the function adding the rows).
GROUPS = {
    "build": ("the real and synthetic pools", _builds),
    "games": ("--games random games of each card ruleset", _games),
    "marguerite": ("--games Marguerite battles", _battles),
    "snapshot": ("the mid-game Code of Joker state", _snapshot),
    "interpreter": ("compiled cards against the reference interpreter", _interpreter),
    "api": ("games through the game API", _api),
    "against": ("--games games of each row in the commit --against and here, in turn", _against),
}


def _print(figures: dict[str, dict[str, float]], games: int) -> None:
    """Print the figures as a Markdown table."""
    print(f"| benchmark ({games} random games each, one core; builds use both) | value |")
    print("|---|---|")
    for label, values in figures.items():
        for name, value in values.items():
            print(f"| {label}: {name} | {value:.3f} |")


if __name__ == "__main__":
    raise SystemExit(main())
