"""`cardc tournament`: every pairing of decks, teams or parties, in both seats, over seeded games (or, for
automatic battles, one battle a seating: nothing in them is random).

Each game's seed comes from the tournament's seed, the pairing and the game's number, never from the
order games are played in, so a tournament gives the same table however many worker processes play it. The table
gives each entry's wins, draws and losses, its win rate with a 95% Wilson interval, and its points (3 a
win, 1 a draw); then the matchup matrix (row's wins against column), the first seat's win rate, the games'
average length and the per-card (per-sword) figures (tools/tournament_items.py). The same figures can be
written as CSV, JSON and a heat map of the matrix (tools/tournament_out.py); a progress bar shows on a
terminal only.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path

from runtime.battle.rules import Rules
from runtime.defs import entry_names
from runtime.engine import Game
from tools.battle.play import PARTIES, read_party, sample_parties
from tools.battle.tournament import sword_names
from tools.play import SAMPLES, deck_path, legal_samples, read_entries
from tools.progress import Bar
from tools.tournament_items import BATTLE_WORDS, CARD_WORDS, Words, item_figures
from tools.tournament_out import write_outputs
from tools.tournament_play import BackendError, Contest, Game1, Played, play_local, schedule


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95% Wilson score interval of a win rate (0, 0 for no games)."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre, half = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # clamped: at 0 or n wins rounding leaves a bound a hair outside [0, 1], which printed as -0.0%
    return max(0.0, (centre - half) / (1 + z * z / n)), min(1.0, (centre + half) / (1 + z * z / n))


def rates(w: int, d: int, lo: int) -> dict:
    """Return a record's games, wins, draws, losses, win rate and 95% interval (rates to 6 places)."""
    n = w + d + lo
    low, high = wilson(w, n)
    return {"games": n, "wins": w, "draws": d, "losses": lo, "win_rate": round(w / max(n, 1), 6),
            "low": round(low, 6), "high": round(high, 6)}


def summary(names: list[str], items: list[str], played: list[tuple[Game1, Played]], words: Words = CARD_WORDS) -> dict:
    """Return a tournament's figures: standings, matchups (row against column, both seats), the first
    seat's record, the games' lengths and the per-item figures (plain data, in a fixed order)."""
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
    per = item_figures(items, [(r, seen) for _, (r, _, seen) in played])
    return {
        "standings": [{"entry": n, **rates(*score[n]), "points": 3 * score[n][0] + score[n][1]} for n in order],
        "matchups": [{"entry": a, "against": b, **rates(*pair[a, b])} for a, b in pair],
        "first_seat": rates(*first),
        "length": {"games": len(turns), "average_turns": round(sum(turns) / max(len(turns), 1), 6),
                   "shortest": min(turns, default=0), "longest": max(turns, default=0)},
        words.items: [{words.item: c["name"], words.held: rates(*c["held"]), words.acted: rates(*c["acted"]),
                       "fired": c["fired"]} for c in per],
    }


def table(names: list[str], figures: dict, words: Words = CARD_WORDS) -> list[str]:
    """Return the lines of the tournament's report: standings, matrix, first seat and length, per item."""
    width = max(len(n) for n in names + ["entry"])
    lines = [f"{'entry':<{width}}    W    D    L  win rate  95% interval  points"]
    for row in figures["standings"]:
        lines.append(f"{row['entry']:<{width}} {row['wins']:4} {row['draws']:4} {row['losses']:4}  "
                     f"{row['win_rate']:8.1%}  {row['low']:5.1%}-{row['high']:5.1%}  {row['points']:6}")
    beats = {(m["entry"], m["against"]): m["wins"] for m in figures["matchups"]}
    lines += ["", "wins of the row against the column:", " " * width + "".join(f" {n[:8]:>8}" for n in names)]
    lines += [f"{a:<{width}}" + "".join(f" {'-' if a == b else beats[a, b]:>8}" for b in names) for a in names]
    first, length = figures["first_seat"], figures["length"]
    lines += ["", f"{length['games']} {words.game}s; {words.first} won {first['win_rate']:.1%}; "
                  f"{length['average_turns']:.1f} turns a {words.game} on average"]
    return lines + item_lines(figures[words.items], words)


def item_lines(items: list[dict], words: Words) -> list[str]:
    """Return the per-item lines: games held and acted with (by a seat), the win rate then, abilities fired."""
    if not items:
        return []
    name, held, acted = words.item, words.held, words.acted
    width = max(len(c[name]) for c in items + [{name: name}])
    hw, aw = max(6, len(held)), max(6, len(acted))
    lines = ["", f"per {name} ({words.game}s a {words.seat} {words.held_verb} it, or {words.acted_verb} it, and "
                 f"that {words.seat}'s win rate then):",
             f"{name:<{width}} {held:>{hw}}  win rate  {acted:>{aw}}  win rate  fired"]
    for c in items:
        h, a = c[held], c[acted]
        lines.append(f"{c[name]:<{width}} {h['games']:{hw}}  {h['win_rate']:8.1%}  {a['games']:{aw}}  "
                     f"{a['win_rate']:8.1%} {c['fired']:6}")
    return lines


def entries_of(root: Path, loaded: Game | Rules, given: list[str]) -> list[Path]:
    """Return the files a tournament plays: those given (files, sample names, or folders of them), or
    every sample deck or team of the ruleset legal under its rules (automatic battles: every sample party)."""
    ruleset = loaded.ruleset.name
    if not given:
        return sample_parties(root, ruleset) if isinstance(loaded, Rules) else legal_samples(root, loaded)
    samples, out = PARTIES if isinstance(loaded, Rules) else SAMPLES, []
    for item in given:
        folder = Path(item)
        if folder.is_dir():
            out += sorted(p for _, _, suffix in samples for p in folder.glob(f"*{suffix}"))
        else:
            out.append(deck_path(root, ruleset, item, samples))
    return out


def read_all(loaded: Game | Rules, paths: list[Path]) -> list[list]:
    """Return the entries of files: decks, teams or parties (a bad file: a CompileError, located)."""
    if isinstance(loaded, Rules):
        return [read_party(loaded, p) for p in paths]
    return read_entries(loaded, paths)


def items_of(lists: dict[str, list], battles: bool) -> list[str]:
    """Return the items of the per-item figures: the swords of the parties, or the cards of the decks."""
    if battles:
        return sword_names(list(lists.values()))
    return sorted({n for deck in lists.values() for n in entry_names(deck)})


def play_all(loaded: Game | Rules, contest: Contest, todo: list[Game1], setup: Setup, bar: Bar) -> list[Played]:
    """Return the result of every game, in schedule order, played by the backend the setup names."""
    if setup.backend != "ray":
        if setup.address is not None:
            raise BackendError("--address is the Ray cluster of --backend ray")
        return play_local(loaded, contest, todo, setup.workers, bar)
    try:
        from tools.tournament_ray import play_ray
    except ImportError as err:
        if err.name != "ray":
            raise
        raise BackendError("--backend ray needs Ray: pip install 'cardc[ray]'") from None
    return play_ray(contest, todo, setup.workers, setup.address, bar)


@dataclass(frozen=True)
class Setup:
    """How a tournament is played and what it writes besides its table."""

    games: int
    seed: int
    agent: str = "random"
    workers: int = 1
    outputs: tuple[tuple[str, Path], ...] = ()  # (format: csv, json, png or html; file)
    backend: str = "local"  # local: a pool of processes; ray: Ray tasks (tools/tournament_ray.py)
    address: str | None = None  # the Ray cluster to join; None: start a local one


def tournament_command(root: Path, loaded: Game | Rules, options: dict[str, str], given: list[str],
                       setup: Setup) -> int:
    """Play a tournament of card games (a Game) or automatic battles (battle Rules: one battle a seating),
    print its report and write the files asked for; return the exit code."""
    battles, ruleset = isinstance(loaded, Rules), loaded.ruleset.name
    words = BATTLE_WORDS if battles else CARD_WORDS
    try:
        paths = entries_of(root, loaded, given)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    names = [p.stem for p in paths]
    if len(set(names)) < 2 or len(set(names)) != len(names):
        print(f"error: a tournament needs 2 or more entries of different names; found {', '.join(names) or 'none'}",
              file=sys.stderr)
        return 2
    lists = dict(zip(names, read_all(loaded, paths), strict=True))  # a bad file: a CompileError, located
    todo = schedule(names, 1 if battles else setup.games, setup.seed)
    contest = Contest(ruleset, options, lists, "" if battles else setup.agent, battles)
    try:
        with Bar(sys.stderr, len(todo), f"{ruleset} tournament", f"{words.game}s") as bar:
            results = play_all(loaded, contest, todo, setup, bar)
    except BackendError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    figures = summary(names, items_of(lists, battles), list(zip(todo, results, strict=True)), words)
    print("\n".join(table(names, figures, words)))
    head: dict = {"ruleset": ruleset, "options": dict(sorted(options.items()))}
    head |= {"games_per_pairing": 1} if battles else {"agent": setup.agent, "games_per_pairing": setup.games,
                                                      "seed": setup.seed}
    write_outputs(setup.outputs, {**head, "entries": names, **figures})
    return 0
