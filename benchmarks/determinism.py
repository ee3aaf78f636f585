"""Determinism digest: seeded random games per ruleset, their logs hashed with sha256.

`python -m benchmarks.determinism` prints one digest per ruleset for the benchmark-sized sample (300
games in all, and the 300 Marguerite battles of the benchmark; `--check tests/determinism/digests-300.txt` compares them with those recorded before the
issue 17 optimisations); tests/test_determinism.py checks a smaller sample against tests/determinism/digests.txt.
An optimisation must leave every digest unchanged: the games are then byte for byte the same.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (label, ruleset, options, share of the games): War Vortex Night battles are long, so they get fewer.
RULESETS = (("simple_duel", "simple_duel", {}, 1.0), ("code_of_joker v1", "code_of_joker", {"version": "v1"}, 1.0),
            ("code_of_joker v2", "code_of_joker", {"version": "v2"}, 1.0),
            ("war_vortex_night", "war_vortex_night", {}, 0.2), ("successor", "successor", {}, 0.5))
# Marguerite battles are quick and take no seed: 300 at the default --games 80, as many as the benchmark plays.
BATTLE_SHARE = 3.75


def game_logs(ruleset: str, games: int, options: dict[str, str] | None = None):
    """Yield the final log and result of each seeded random game between the ruleset's sample decks."""
    from runtime import engine
    from runtime.agents import RandomAgent
    from runtime.load import load_game
    from tools.play import legal_samples, read_entries

    game = load_game(ruleset).with_options(options or {})
    decks = read_entries(game, legal_samples(ROOT, game))
    for seed in range(games):
        s = game.new_game([decks[seed % len(decks)], decks[(seed + 1) % len(decks)]], seed)
        agents = [RandomAgent(seed * 2), RandomAgent(seed * 2 + 1)]
        while not engine.is_terminal(s):
            engine.apply_action(s, agents[s.decision["player"]].choose(s, engine.legal_actions(s)))
        yield s.log, s.result


def battle_logs(battles: int):
    """Yield the log and result of each Marguerite battle the benchmark plays (random legal parties, seed 1)."""
    import random

    from runtime.battle.rules import load_rules
    from tools.battle.fuzz import random_party
    from tools.battle.play import battle, budget_of

    rules = load_rules("marguerite")
    budget = budget_of(rules)
    rng = random.Random(1)
    for _ in range(battles):
        a, b = random_party(rules, rng, budget), random_party(rules, rng, budget)
        s = battle(rules, a, b, {})
        yield s.log, s.result


def digest(logs) -> str:
    """Return the sha256 of every game's log lines and result, in order, each game framed by its length."""
    h = hashlib.sha256()
    for lines, result in logs:
        h.update(f"{len(lines)} {result}\n".encode())
        for line in lines:
            h.update(line.encode() + b"\n")
    return h.hexdigest()


def digests(games: int) -> dict[str, str]:
    """Return the digest of each ruleset's share of `games` seeded games (at least one each)."""
    found = {label: digest(game_logs(ruleset, max(1, round(games * share)), options))
             for label, ruleset, options, share in RULESETS}
    found["marguerite battles"] = digest(battle_logs(max(1, round(games * BATTLE_SHARE))))
    return found


def render(found: dict[str, str]) -> str:
    """Return the digests as the lines of tests/determinism/digests.txt."""
    return "".join(f"{label}: {value}\n" for label, value in found.items())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=80, help="games per ruleset at share 1 (default 80: 300 in all)")
    p.add_argument("--check", type=Path, help="compare with the digests in this file; exit 1 if any differs")
    p.add_argument("--kernel", action="store_true", help="play on the runtime kernel compiled by mypyc "
                   "(benchmarks/kernel.py, built first if stale)")
    args = p.parse_args(argv)
    if args.kernel:
        from benchmarks.kernel import command

        return command("benchmarks.determinism", argv)
    sys.path.append(str(ROOT))  # after a compiled kernel's folder, if PYTHONPATH names one (benchmarks/kernel.py)
    found = render(digests(args.games))
    print(found, end="")
    if args.check is not None and found != args.check.read_text(encoding="utf-8"):
        print(f"the games differ from those of {args.check}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
