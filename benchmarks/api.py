"""Games through the game API (tools.api), as a program or an agent trainer plays them.

Each decision goes through the API's integer actions: `legal_actions()`, a seeded random choice among them,
`apply_action`; the observing rows also build the current player's `observation_tensor` at every decision,
as a learning loop does. Decks are read once, before the clock starts.
"""

from __future__ import annotations

import random
import time


def bench_api(ruleset: str, games: int, options: dict[str, str] | None = None) -> dict[str, float]:
    """Return games and decisions per second through the API, without and with an observation per decision."""
    from benchmarks.run import ROOT
    from tools import api
    from tools.play import legal_samples, read_entries

    game = api.load(ruleset, options=options)
    decks = read_entries(game.raw, legal_samples(ROOT, game.raw))
    figures: dict[str, float] = {}
    for label, observe in (("", False), (" observing", True)):
        seconds, decisions = _games(game, decks, games, observe)
        figures[f"games per second{label}"] = games / seconds
        figures[f"decisions per second{label}"] = decisions / seconds
    return figures


def _games(game, decks: list, games: int, observe: bool) -> tuple[float, int]:
    """Return the seconds and decisions of seeded random games between the decks, round robin."""
    decisions, start = 0, time.perf_counter()
    for seed in range(games):
        state = game.new_state([decks[seed % len(decks)], decks[(seed + 1) % len(decks)]], seed)
        chooser = random.Random(seed)
        while not state.is_terminal():
            if observe:
                state.observation_tensor(state.current_player)
            state.apply_action(chooser.choice(state.legal_actions()))
            decisions += 1
    return time.perf_counter() - start, decisions
