"""`cardc try CARD`: a one-card playtest. The card goes into a legal sample deck (tools/try_decks.py), which
plays N seeded games against the other samples in turn (or --against one), in both seats, every game
checked as `cardc fuzz` checks them (tools/fuzzing.play_checked). An observer on the games (State.watch)
counts what each of the card's abilities did; the report (tools/try_report.py) gives the counts, how often
an ability the player uses was never legal, and a log excerpt of the first time of each outcome. Public
entry point: `try_command`. Usage and the report's lines: docs/try.md.
"""

from __future__ import annotations

import importlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from runtime import activate
from runtime.agents import RandomAgent
from runtime.engine import Action, Game
from runtime.folder_recovery import SAFE_NAME
from runtime.load import load_game
from runtime.spelling import did_you_mean
from runtime.state import Ctx, State
from tools.deckgen import why_not_in_a_deck
from tools.fuzz_targets import Pool, Target
from tools.fuzzing import (
    EXIT_OK,
    EXIT_USAGE,
    EXIT_VIOLATION,
    Outcome,
    Run,
    play_checked,
    replay_data,
)
from tools.play import deck_path, legal_samples, read_entries
from tools.progress import Bar
from tools.try_decks import Placed, place
from tools.try_report import Tally, report, violation_lines

# The actions that play a card from where it waits (the hand, a joker's zone) and the one that uses an
# activated ability, by the names engine.legal_actions gives them.
PLAY_ACTIONS = frozenset({"stage", "drive", "overdrive", "override", "set", "respond", "joker"})
USE_ACTIONS = frozenset({"activate"})
PLAY = ("play",)  # the row of the card itself: played, or never playable


class TryError(Exception):
    """A card or option `cardc try` cannot play (exit 2), with the message to print."""


@dataclass
class Trial:
    """The games of one trial and what was seen in them."""

    game: Game
    card: str
    placed: Placed
    opponents: list[tuple[str, list]]  # (name as given, entries)
    options: dict[str, str]
    keys: list[tuple] = field(default_factory=list)  # the rows of the report (see _rows)
    rows: dict[tuple, Tally] = field(default_factory=dict)
    seen: int = 0  # games the card left the deck in (drawn, or on the field from the start)
    used: int = 0  # games it was played in or one of its abilities went on the stack in
    results: list[int] = field(default_factory=list)  # per game: 1 won, -1 lost, 0 drawn or unfinished
    logs: dict[int, list[str]] = field(default_factory=dict)  # game number -> log, for the excerpts
    played: list[tuple[int, int, str]] = field(default_factory=list)  # per game: seed, seat, opponent's name


def try_command(root: Path, name: str, ruleset: str | None = None, games: int = 20, against: str | None = None,
                seed: int = 1, options: dict[str, str] | None = None, out: Path | None = None,
                stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """`cardc try`: 0 the report printed, 1 an invariant broke (replay written), 2 a usage error."""
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    try:
        trial = _prepare(root, name, ruleset, games, against, options or {})
    except TryError as err:
        print(f"cardc try: {err}", file=stderr)
        return EXIT_USAGE
    with Bar(stderr, games, f"trying {name}") as bar:  # on stderr, a terminal only: the report stays clean
        for g in range(games):
            run = _play(trial, g, seed + g)
            bar.games(g + 1, force=run.violation is not None)
            if run.violation is not None:
                bar.close()
                return _violation(trial, run, g, seed, out, stdout)
    stdout.write(report(trial, seed))
    return EXIT_OK


def _prepare(root: Path, name: str, ruleset: str | None, games: int, against: str | None,
             options: dict[str, str]) -> Trial:
    """Return the trial of a card: its game, the deck it went into and the opponents; TryError if none."""
    if games < 1:
        raise TryError("--games must be at least 1")
    game = _game(_ruleset_of(root, name, ruleset), options)
    why = why_not_in_a_deck(game, name)
    if why is not None:
        raise TryError(f"'{name}' cannot be in a deck of {game.ruleset.name}: {why}")
    placed = place(root, game, name)
    if placed is None:
        raise TryError(f"no sample deck of cards/{game.ruleset.name}/ stays legal with '{name}' in it "
                       "(deck size, copy limits, tables)")
    trial = Trial(game, name, placed, _opponents(root, game, placed, against), options)
    trial.keys = _rows(trial)
    trial.rows = {key: Tally() for key in trial.keys}
    return trial


def _rulesets(root: Path) -> dict[str, list[str]]:
    """Return the card names of each compiled ruleset of the project, by ruleset name."""
    found = {}
    for init in sorted((root / "generated").glob("*/__init__.py")):
        if not SAFE_NAME.match(init.parent.name):  # never a ruleset, and never handed to the importer
            continue
        module = importlib.import_module(f"generated.{init.parent.name}")
        found[init.parent.name] = sorted(module.CARDS)
    return found


def _ruleset_of(root: Path, name: str, given: str | None) -> str:
    """Return the ruleset a card name is looked up in: --ruleset, else the one ruleset that has it."""
    pools = _rulesets(root)
    if given is not None and given not in pools:
        raise TryError(f"no compiled ruleset '{given}'{did_you_mean(given, pools)} (compiled: {', '.join(pools)})")
    having = [r for r, cards in pools.items() if name in cards and given in (None, r)]
    if not having:
        known = pools[given] if given else [c for cards in pools.values() for c in cards]
        where = f"ruleset '{given}'" if given else "any compiled ruleset"
        elsewhere = [r for r, cards in pools.items() if name in cards]
        note = f" (it is a card of {', '.join(elsewhere)})" if elsewhere else did_you_mean(name, known)
        raise TryError(f"no card '{name}' in {where}{note}")
    if len(having) > 1:
        raise TryError(f"'{name}' is a card of {', '.join(having)}; say which with --ruleset")
    return _supported(having[0])


def _supported(ruleset: str) -> str:
    """Return the ruleset if `try` plays it; TryError naming the kinds of rulesets it plays if not."""
    module = importlib.import_module(f"generated.{ruleset}")
    if module.RULESET.automatic:
        raise TryError(f"{ruleset} plays automatic battles of parties, which `cardc try` does not play; it "
                       "plays card games of decks or teams (simple_duel, code_of_joker, successor, war_vortex_night); "
                       f"try the card with `cardc fuzz` on its card file, or `cardc play {ruleset}` with a party")
    return ruleset


def _game(ruleset: str, options: dict[str, str]) -> Game:
    """Return the ruleset's game under the chosen options; TryError for an unknown option."""
    try:
        return load_game(ruleset).with_options(options) if options else load_game(ruleset)
    except ValueError as err:
        raise TryError(str(err)) from None


def _opponents(root: Path, game: Game, placed: Placed, against: str | None) -> list[tuple[str, list]]:
    """Return the opponents by name: --against, else every other legal sample, in name order."""
    names = [against] if against else [p.stem for p in legal_samples(root, game) if p.stem != placed.sample]
    if not names:
        raise TryError(f"cards/{game.ruleset.name}/ has no other legal sample to play against; give one with --against")
    try:
        paths = [deck_path(root, game.ruleset.name, n) for n in names]
        return list(zip(names, read_entries(game, paths), strict=True))
    except ValueError as err:  # an unknown sample name (a deck file's errors are a CompileError: located, exit 1)
        raise TryError(str(err)) from None


# ---------------------------------------------------------------- one game


def seating(trial: Trial, g: int) -> tuple[int, str, list[list]]:
    """Return the seat of the deck under trial in game g (first in even games), the opponent's name and the
    decks in seat order; each opponent in turn plays two games, one in each seat."""
    name, opponent = trial.opponents[(g // 2) % len(trial.opponents)]
    seat = g % 2
    decks = [trial.placed.entries, opponent] if seat == 0 else [opponent, trial.placed.entries]
    return seat, name, [list(d) for d in decks]


def _play(trial: Trial, g: int, seed: int) -> Run:
    """Play game g (number g + 1 in the report) with the seed, as `cardc play` plays it, observed."""
    seat, opponent, decks = seating(trial, g)
    trial.played.append((seed, seat, opponent))
    agents = [RandomAgent(seed * 7919 + p) for p in range(len(decks))]  # cardc play's agents (tools/play.py)
    watcher = _Watcher(trial, g, seat, agents)
    run = play_checked(trial.game, decks, seed, watcher.choose, watch=watcher.watch)
    watcher.close(run)
    return run


class _Watcher:
    """What one game shows of the card: the rows made legal, whether it was seen and used, the outcomes."""

    def __init__(self, trial: Trial, g: int, seat: int, agents: list[RandomAgent]):
        self.trial, self.g, self.seat, self.agents = trial, g, seat, agents
        self.legal: set[tuple] = set()
        self.seen = self.used = False

    def choose(self, s: State, actions: list[Action]) -> int:
        """Return the agent's choice, noting first what the actions offered make legal and a play chosen."""
        assert s.decision is not None
        self.seen = self.seen or _out_of_deck(s, self.trial.card, self.seat)
        if s.decision["player"] == self.seat:
            self.legal |= _legal_rows(s, self.trial.card, actions)
        chosen = self.agents[s.decision["player"]].choose(s, actions)
        if chosen[0] in PLAY_ACTIONS and PLAY in self.trial.rows and _mine(s, chosen[1], self.trial.card, self.seat):
            self.trial.rows[PLAY].count("played", self.g, len(s.log))
            self.used = True
        return actions.index(chosen)

    def watch(self, s: State, what: str, ctx: Ctx, why: str) -> None:
        """Count what happened to an ability of a copy of the card the seat owns (State.watch)."""
        key = tuple(ctx.ability)
        if key in self.trial.rows and _mine(s, ctx.source, self.trial.card, self.seat):
            self.trial.rows[key].count(what, self.g, len(s.log), why)
            if what == "fired":  # it went on the stack: it could be used (where a die chose it, say)
                self.legal.add(key)
                self.used = True

    def close(self, run: Run) -> None:
        """Record the game's result and log and, if the card left the deck, which rows were legal in it."""
        trial = self.trial
        trial.results.append(run.result[self.seat] if run.result else 0)
        trial.logs[self.g] = run.log
        trial.used += self.used
        if self.seen:
            trial.seen += 1
            for key in trial.keys:
                trial.rows[key].games += 1
                trial.rows[key].legal += key in self.legal


def _rows(trial: Trial) -> list[tuple]:
    """Return the rows of the card: the card itself, its abilities, its printed keywords' abilities."""
    card = trial.game.cards[trial.card]
    # Where turns go to cards a die, not a player, plays a card; a kind that starts on the field is never played.
    rs = trial.game.ruleset
    chosen = not rs.actor_turns and card.kind not in rs.start_on_field
    keys: list[tuple] = [PLAY] * chosen + [("card", trial.card, i) for i in range(len(card.abilities))]
    for keyword, _ in card.keywords:
        kdef = trial.game.keywords.get(keyword)
        keys += [("keyword", keyword, i) for i in range(len(kdef.abilities))] if kdef is not None else []
    return keys


def _mine(s: State, cid: object, card: str, seat: int) -> bool:
    """Return whether cid is the id of a copy of the card that the seat under trial owns."""
    return isinstance(cid, int) and 0 <= cid < len(s.cards) and s.cards[cid].name == card and s.cards[cid].owner == seat


def _out_of_deck(s: State, card: str, seat: int) -> bool:
    """Return whether a copy of the card the seat owns is anywhere but its deck (drawn, or set out at the start)."""
    return any(c.name == card and c.owner == seat and c.zone != "deck" for c in s.cards)


def _legal_rows(s: State, card: str, actions: list[Action]) -> set[tuple]:
    """Return the rows that the actions offered make legal: the card itself and its effect when it may be
    played, its activated ability when it may be used."""
    out: set[tuple] = set()
    for kind, cid in actions:
        if not _mine(s, cid, card, s.decision["player"] if s.decision else -1):
            continue
        abilities = s.game.cards[card].abilities
        if kind in PLAY_ACTIONS:
            out |= {PLAY} | {("card", card, i) for i, a in enumerate(abilities) if a.kind == "effect"}
        elif kind in USE_ACTIONS and (index := activate.ability_index(s, cid)) is not None:
            out.add(("card", card, index))
    return out


# ---------------------------------------------------------------- a broken game


def _violation(trial: Trial, run: Run, g: int, seed: int, out: Path | None, stdout: TextIO) -> int:
    """Write a broken game as a fuzz replay file (tools/fuzzing.replay_data) and say so; return EXIT_VIOLATION."""
    rs = trial.game.ruleset.name
    pool = Pool(rs, trial.game, sorted(trial.game.cards), {}, options=dict(trial.options))
    target = Target(pool, "deck", f"cardc try {trial.card}")
    data = replay_data(target, Outcome(games=g + 1, failure=run, original=run), seed)
    path = out or Path(f"try-{rs}-seed{seed}.replay.json")
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    stdout.write(violation_lines(run, g, path))
    return EXIT_VIOLATION
