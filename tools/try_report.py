"""The report of `cardc try` (tools/trying.py): plain text, the same for the same trial, line by line as
docs/try.md describes it: the deck and its games, one entry per row (the card itself, each of its abilities,
each ability of its printed keywords) with its counts, then a log excerpt of the first time of each outcome
with the `cardc play` command that replays that game, then the deck's text to save for that command.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tools.fuzzing import Run
    from tools.trying import Trial

OUTCOMES = ("played", "fired", "resolved", "fizzled")
BEFORE, AFTER = 2, 3  # log lines of an excerpt before and from the line where the outcome was seen
USED = ("effect", "activated")  # abilities a player chooses to use: they may be never legal


@dataclass
class Tally:
    """What one row (the card, or one of its abilities) did over a trial."""

    counts: dict[str, int] = field(default_factory=dict)
    first: dict[str, tuple[int, int]] = field(default_factory=dict)  # outcome -> (game, log length then)
    reasons: dict[str, int] = field(default_factory=dict)  # why it fizzled -> how often
    games: int = 0  # games the card was drawn or in play in
    legal: int = 0  # of those, the games it was legal in (offered, or put on the stack)

    def count(self, what: str, game: int, at: int, why: str = "") -> None:
        """Count one outcome, keeping where it was first seen."""
        self.counts[what] = self.counts.get(what, 0) + 1
        self.first.setdefault(what, (game, at))
        if what == "fizzled":
            self.reasons[why] = self.reasons.get(why, 0) + 1


def report(trial: Trial, seed: int) -> str:
    """Return the whole report of a trial."""
    lines = _head(trial, seed) + [""]
    for number, key in enumerate(trial.keys, 1):
        lines += [f"{number}. {_title(trial, key)}", f"   {_counts(trial, key)}"]
    lines += ["", f"excerpts (to replay a game, save the deck at the end as try{trial.placed.suffix}):"]
    excerpts = [line for number, key in enumerate(trial.keys, 1) for what in OUTCOMES
                if what in trial.rows[key].first for line in _excerpt(trial, number, key, what)]
    lines += excerpts or ["    none: the card was never played and none of its abilities went on the stack"]
    lines += ["", f"try{trial.placed.suffix}:"] + [f"    {x}" for x in trial.placed.text.splitlines()]
    return "\n".join(lines) + "\n"


def _head(trial: Trial, seed: int) -> list[str]:
    """Return the lines that say what was played: the card, the deck, the opponents, the results."""
    rs, placed = trial.game.ruleset.name, trial.placed
    chosen = "".join(f", option {k} = {v}" for k, v in sorted(trial.options.items()))
    if placed.replaced:
        copies = f"{len(placed.replaced)} cop{'ies' if len(placed.replaced) > 1 else 'y'}"
        into = f"{placed.sample} with {copies} of it in place of {_quoted(placed.replaced)}"
    else:
        into = f"{placed.sample}, which holds it already"
    won, lost = trial.results.count(1), trial.results.count(-1)
    games = len(trial.results)
    return [f"cardc try '{trial.card}' ({rs}{chosen}): {games} game{'s' * (games != 1)} from seed {seed}",
            f"deck: {into}",
            f"against: {', '.join(name for name, _ in trial.opponents)} in turn, each in both seats",
            f"drawn or in play in {trial.seen} of {games} games, played or used in {trial.used}; won {won}, lost {lost}, "
            f"drawn {games - won - lost} ({100 * won / games:.0f}% won)"]


def _quoted(names: tuple[str, ...]) -> str:
    return ", ".join(f"'{n}'" for n in names)


def _title(trial: Trial, key: tuple) -> str:
    """Return how a row is named: the card itself, or an ability by its index, kind and rules text."""
    if key[0] == "play":
        return f"the card itself ({trial.game.cards[trial.card].kind})"
    ability = trial.game.ability(list(key))
    text = ability.rules or _keyword_line(trial, key) or ability.where
    owner = "ability" if key[0] == "card" else f"keyword {key[1]}, ability"
    return f"{owner} {key[2] + 1} ({ability.kind}): {text}"


def _keyword_line(trial: Trial, key: tuple) -> str:
    """Return a keyword ability's line of its keyword's rules text (its first line is the keyword's head)."""
    kdef = trial.game.keywords.get(key[1]) if key[0] == "keyword" else None
    lines = kdef.rules.splitlines() if kdef is not None else []
    return lines[key[2] + 1] if key[2] + 1 < len(lines) else ""


def _counts(trial: Trial, key: tuple) -> str:
    """Return a row's counts and, for what a player uses, in how many games it was never legal."""
    tally = trial.rows[key]
    if key[0] == "play":
        said = f"played {tally.counts.get('played', 0)}"
    else:
        said = ", ".join(f"{what} {tally.counts.get(what, 0)}" for what in OUTCOMES[1:])
        reasons = "; ".join(f"{why or 'no reason given'}: {n}" for why, n in sorted(tally.reasons.items()))
        said += f" ({reasons})" if reasons else ""
    if key[0] == "play" or (key[0] == "card" and trial.game.ability(list(key)).kind in USED):
        never, what = tally.games - tally.legal, "playable" if key[0] == "play" else "legal"
        said += f"; never {what} in {never} of the {tally.games} games the card was drawn or in play in"
        said += f" (NEVER {what.upper()})" if tally.games and never == tally.games else ""
    return said


def _excerpt(trial: Trial, number: int, key: tuple, what: str) -> list[str]:
    """Return the excerpt of a row's first outcome: where it was, the command replaying it, the log lines."""
    game, at = trial.rows[key].first[what]
    game_seed, seat, opponent = trial.played[game]
    mine = f"try{trial.placed.suffix}"
    decks = [mine, opponent] if seat == 0 else [opponent, mine]
    flags = "".join(f" --option {k}={v}" for k, v in sorted(trial.options.items()))
    log = trial.logs[game]
    shown = log[max(0, at - BEFORE):at + AFTER]
    return ([f"{number}. {what}: game {game + 1}, seed {game_seed}, the deck as P{seat + 1} against {opponent}; "
             f"cardc play {trial.game.ruleset.name} {' '.join(decks)} --seed {game_seed}{flags}"]
            + [f"    {line}" for line in shown])


def violation_lines(run: Run, game: int, path: Path) -> str:
    """Return what `cardc try` prints when a game broke an invariant, as `cardc fuzz` says it."""
    first = run.violation.splitlines()[0] if run.violation else ""
    return (f"violation found in game {game + 1} (seed {run.seed}):\n  {first}\n"
            f"replay written to {path}; run: cardc replay {path}\n")
