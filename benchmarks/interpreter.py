"""Compiled cards against the reference interpreter: the same seeded random games, both ways.

Issue 17's row "compiled vs reference interpreter": for each card ruleset of the game benchmarks, the
generated package (generated/<ruleset>/) and the interpreter (compiler/interpret.py over cards/<ruleset>/)
play the same seeded games with the same random choices. Only the games are timed, each side in turn, game
by game, so a load that comes and goes touches both alike. The logs must agree line for line, or the
figures compare two different games and the benchmark stops.
"""

from __future__ import annotations

import time


def interpreted_game(ruleset: str):
    """Return the Game the reference interpreter makes of cards/<ruleset>/ (read as the build reads it)."""
    from benchmarks.run import ROOT
    from compiler.build import read_folder
    from compiler.interpret import interpret_ruleset

    files, symbols, _problems = read_folder(ROOT, ROOT / "cards" / ruleset)
    return interpret_ruleset([f for f, _text in files], symbols)


def _one_game(game, decks: list, seed: int) -> tuple[float, int, list[str]]:
    """Return the seconds, decisions and log of one seeded random game."""
    from runtime import engine
    from runtime.agents import RandomAgent

    start = time.perf_counter()
    s = game.new_game([decks[seed % len(decks)], decks[(seed + 1) % len(decks)]], seed)
    agents = [RandomAgent(seed * 2), RandomAgent(seed * 2 + 1)]
    while not engine.is_terminal(s):
        engine.apply_action(s, agents[s.decision["player"]].choose(s, engine.legal_actions(s)))
    return time.perf_counter() - start, s.actions_taken, s.log


def bench_interpreter(ruleset: str, games: int, options: dict[str, str] | None = None) -> dict[str, float]:
    """Return decisions per second of compiled and interpreted cards over the same games, and their ratio."""
    from benchmarks.run import ROOT
    from runtime.load import load_game
    from tools.play import legal_samples, read_entries

    compiled = load_game(ruleset).with_options(options or {})
    interpreted = interpreted_game(ruleset).with_options(options or {})
    decks = read_entries(compiled, legal_samples(ROOT, compiled))
    seconds, decisions = [0.0, 0.0], 0
    for seed in range(games):
        (t0, n, log0), (t1, _, log1) = _one_game(compiled, decks, seed), _one_game(interpreted, decks, seed)
        if log0 != log1:
            raise SystemExit(f"{ruleset} seed {seed}: the interpreter played another game; see tests/test_differential.py")
        seconds[0] += t0
        seconds[1] += t1
        decisions += n
    return {"compiled decisions per second": decisions / seconds[0],
            "interpreted decisions per second": decisions / seconds[1],
            "compiled / interpreted": seconds[1] / seconds[0]}
