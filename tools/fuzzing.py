"""`cardc fuzz` and `cardc replay`: seeded random games around compiled cards, checked after every
action, with the first violation shrunk by Hypothesis and written as a replay file.

Public entry points: `fuzz_command` (the CLI; `cardc replay` is tools/replay.py), and for tests and tools
`play_checked`, `random_inputs` and `campaign`; what a PATH fuzzes (`resolve_target`, `load_pool`) is
tools/fuzz_targets.py, the legal decks tools/deckgen.py. Format and usage: docs/fuzzing.md.

A game is driven by (seed, decks, one index into legal_actions per decision). The campaign plays
games whose seeds and decks come from --seed, with seeded random agents. The first game that
breaks is shrunk with Hypothesis: `hypothesis.find` replays it from integers drawn from a
strategy (seed, one index per deck card, one index per decision) and shrinks those (seed toward
0, decks toward the first cards of the pool, choices toward the first legal action) while the
same violation still happens; the smallest game is written as the replay.

Checked after every action: runtime.invariants.violations is empty; a snapshot equals the state;
State.from_json(to_json) equals the state and continues identically; nothing raises; the engine
reaches the next decision within engine.MAX_STEPS steps. At the end: no legal action is offered,
and replaying the recorded choices from the same seed and decks gives a byte-identical log and
state.
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from compiler.replay_files import FORMAT
from runtime import engine, invariants
from runtime.defs import Entry, entry_names
from runtime.engine import Action, Game
from runtime.state import State
from tools.deckgen import candidates, decode_deck, encode_deck, random_deck, shape
from tools.fuzz_targets import Target, UsageError, deck_choices, resolve_target
from tools.progress import Bar
from tools.teamgen import random_team

EXIT_OK, EXIT_VIOLATION, EXIT_USAGE = 0, 1, 2
MAX_ACTIONS = 5_000  # decisions in one game before it counts as never ending
PROFILE_GAMES = {"ci": 200, "long": 5000}  # default --games by CARDC_PROFILE
SHRINK_SECONDS = 120.0


class _Violation(Exception):
    def __init__(self, text: str, signature: str):
        super().__init__(text)
        self.text, self.signature = text, signature


class _StopShrinking(BaseException):
    """Raised inside hypothesis.find when the shrink time is up (Hypothesis lets it through)."""


# ---------------------------------------------------------------- one checked game


@dataclass
class Run:
    """One game: its inputs, the actions taken, its log, and the first violation (if any)."""

    seed: int
    decks: list[list[str]]
    actions: list[Action] = field(default_factory=list)
    indices: list[int] = field(default_factory=list)
    options: list[int] = field(default_factory=list)  # how many actions each decision offered
    log: list[str] = field(default_factory=list)
    violation: str | None = None
    signature: str = ""
    finished: bool = False  # played to its end (all end-of-game checks done)
    turn: int = 0
    result: list[int] | None = None  # each player's result at the end (engine.returns), None if unfinished


# Chooses one of the legal actions by index, or None to stop the game there.
Chooser = Callable[[State, list[Action]], "int | None"]


def _signature(text: str) -> str:
    """Return a violation with numbers blanked: the same bug found in another game matches."""
    return re.sub(r"\d+", "#", text.splitlines()[0] if text else "")


def _exception(err: BaseException) -> _Violation:
    frames = traceback.extract_tb(err.__traceback__)
    where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
    detail = "".join(traceback.format_exception(type(err), err, err.__traceback__, limit=-6))
    return _Violation(f"exception {type(err).__name__}: {err} (at {where})\n{detail.rstrip()}",
                      f"exception {type(err).__name__} at {where}")


def _describe(s: State, action: Action) -> str:
    from runtime.agents import describe_action

    try:
        return describe_action(s, action)
    except Exception:  # a broken state may not describe its own cards
        return repr(action)


def play_checked(game: Game, decks: list[list[str]], seed: int, choose: Chooser,
                 max_actions: int = MAX_ACTIONS, watch: Any = None) -> Run:
    """Play one game, checking everything after every action; never raises for a broken game. `watch`
    observes the game's abilities (runtime/state.py State.watch; the replay check plays unobserved)."""
    run = Run(seed, [list(d) for d in decks])
    s: State | None = None
    try:
        s = game.new_game([list(d) for d in decks], seed, watch=watch)
        _check_invariants(s, "after the set-up")
        text = s.to_json()
        while not engine.is_terminal(s):
            actions = engine.legal_actions(s)
            if not actions:
                raise _Violation("the game is not over but offers no action", "no action")
            if len(run.actions) >= max_actions:
                raise _Violation(f"no end after {max_actions} actions", "no end")
            i = choose(s, actions)
            if i is None:
                return run
            run.options.append(len(actions))
            text = _checked_step(game, s, text, actions[i], i, run)
        if engine.legal_actions(s):
            raise _Violation("the game is over but actions are still offered", "actions after the end")
        if s.log and s.log[-1].endswith(engine.LOOP_NOTE):
            raise _Violation(f"the engine ran {engine.MAX_STEPS} steps without reaching a decision: an "
                             "endless loop of triggers", "endless loop")
        _check_replay(game, run, s)
        run.finished = True
    except _Violation as v:
        run.violation, run.signature = v.text, v.signature
    except Exception as err:
        crash = _exception(err)
        run.violation, run.signature = crash.text, crash.signature
    finally:
        if s is not None:
            run.log, run.turn, run.result = list(s.log), s.turn, (list(s.result) if s.result else None)
    return run


def _checked_step(game: Game, s: State, before: str, action: Action, index: int, run: Run) -> str:
    """Check a snapshot and a JSON round trip of the state (serialized as `before`), apply the
    action to the state and to its copy restored from JSON, check both; return the new JSON."""
    what = f"action {len(run.actions) + 1} ({_describe(s, action)}, turn {s.turn})"
    snap = s.snapshot()
    if snap.to_json() != before:
        raise _Violation(f"before {what}: a snapshot differs from the state", "snapshot differs")
    restored = State.from_json(before, game)
    if restored.to_json() != before:
        raise _Violation(f"before {what}: State.from_json(state.to_json()) differs from the state",
                         "from_json differs")
    run.actions.append(action)
    run.indices.append(index)
    engine.apply_action(s, action)
    after = s.to_json()
    engine.apply_action(restored, action)
    if restored.to_json() != after:
        raise _Violation(f"after {what}: a state restored from JSON continues differently",
                         "restored state diverges")
    _check_invariants(s, f"after {what}")
    return after


def _check_invariants(s: State, when: str) -> None:
    broken = invariants.violations(s)
    if broken:
        raise _Violation(f"{when}: " + "; ".join(broken), _signature(broken[0]))


def _check_replay(game: Game, run: Run, s: State) -> None:
    again = game.new_game([list(d) for d in run.decks], run.seed)
    for action in run.actions:
        engine.apply_action(again, action)
    if "\n".join(again.log) != "\n".join(s.log):
        first = next((i for i, (a, b) in enumerate(zip(again.log, s.log, strict=False)) if a != b),
                     min(len(again.log), len(s.log)))
        raise _Violation(f"replaying the {len(run.actions)} recorded choices gives another log (from line "
                         f"{first + 1})", "replay log differs")
    if again.to_json() != s.to_json():
        raise _Violation("replaying the recorded choices gives the same log but another state",
                         "replay state differs")


# ---------------------------------------------------------------- the campaign


@dataclass
class Outcome:
    games: int = 0
    seconds: float = 0.0
    failure: Run | None = None  # the shrunk failing game
    original: Run | None = None  # the failing game as first found
    shrink_tries: int = 0
    shrink_seconds: float = 0.0
    shrink_stopped: bool = False  # the shrink time ran out before Hypothesis was done
    other_bugs: list[str] = field(default_factory=list)  # other violations met while shrinking


def random_inputs(target: Target, rng: random.Random) -> tuple[int, list[list]]:
    """Return a game seed and decks for one game of a campaign, drawn from rng; every deck is legal
    under the game's deck rules (a card-file target's decks each hold some of its cards)."""
    game = target.pool.game
    game_seed = rng.getrandbits(32)
    if target.teams:  # two teams, a three-way battle one game in three, as the ruleset allows
        count = min(game.ruleset.players + (rng.randrange(3) == 0), max(game.ruleset.max_players, 2))
        around = target.focus if target.mode == "cards" else None
        return game_seed, [random_team(rng, game, target.pool.cards, around) for _ in range(count)]
    decks: list[list] = []
    files = [d for d in target.pool.decks.values() if d != target.deck]
    focus = candidates(game, target.focus) if target.mode == "cards" else None
    for cands in deck_choices(target, target.pool.game.ruleset.players):
        if cands is None:
            decks.append(list(target.deck))
        elif target.mode == "deck" and files and rng.random() < 0.5:
            decks.append(list(rng.choice(files)))
        else:
            decks.append(random_deck(rng, game, cands, focus))
    return game_seed, decks


def encode(target: Target, run: Run) -> list[int]:
    """Return a game's inputs as the integers the shrinker draws: the seed, per drawn deck the index
    of each card among those its position allows, and the action index at each decision with more
    than one action."""
    out = [run.seed]
    for cands, deck in zip(deck_choices(target, len(run.decks)), run.decks, strict=True):
        if cands is not None:
            out += encode_deck(target.pool.game, cands, deck)
    return out + [i for i, k in zip(run.indices, run.options, strict=True) if k > 1]


def campaign(target: Target, games: int, seed: int, progress: TextIO | None = None,
             shrink_seconds: float = SHRINK_SECONDS) -> Outcome:
    """Play `games` checked games with seeded random agents (random decks as the target says);
    stop at the first violation and shrink it with Hypothesis (see shrink)."""
    from runtime.agents import RandomAgent

    game = target.pool.game
    out = Outcome()
    bar = Bar(progress, games, "fuzzing")
    start = time.monotonic()
    rng = random.Random(seed)
    for _ in range(games):
        game_seed, decks = random_inputs(target, rng)
        agents = [RandomAgent(game_seed * 7919 + p) for p in range(len(decks))]

        def choose(s: State, actions: list[Action], agents: list[RandomAgent] = agents) -> int:
            assert s.decision is not None
            return actions.index(agents[s.decision["player"]].choose(s, actions))

        out.games += 1
        run = play_checked(game, decks, game_seed, choose)
        bar.games(out.games, force=run.violation is not None)
        if run.violation is not None:
            out.original = run
            bar.line(f"\nviolation in game {out.games}: {run.violation.splitlines()[0]}\n")
            shrink(target, out, bar, shrink_seconds)
            break
    bar.close()
    out.seconds = time.monotonic() - start
    return out


def shrink(target: Target, out: Outcome, bar: Bar, seconds: float) -> None:
    """Shrink out.original with hypothesis.find: the game is driven by integers drawn from a
    strategy (see encode); the failing game's integers are put in an in-memory example database
    so that Hypothesis replays it first and then shrinks it toward smaller integers (seed 0, the
    first cards of the pool, the first legal action), keeping only games with the same violation.
    Sets out.failure to the smallest failing game found in `seconds` (the original if none)."""
    from hypothesis import HealthCheck, Phase, Verbosity, find, settings
    from hypothesis import strategies as st
    from hypothesis.database import InMemoryExampleDatabase, choices_to_bytes

    original = out.original
    assert original is not None
    out.failure = original
    game = target.pool.game
    choices = deck_choices(target, len(original.decks))  # None: the deck (or team) stays as it was
    shapes = [shape(game, entry_names(d)) for d in original.decks]
    key = b"cardc-fuzz-shrink"
    db = InMemoryExampleDatabase()
    # A failing example in the secondary corpus is replayed, then shrunk (one in the primary
    # corpus would be taken as already shrunk).
    db.save(key + b".secondary", choices_to_bytes(encode(target, original)))
    started = time.monotonic()

    def fails(data: Any) -> bool:
        if time.monotonic() - started > seconds:
            out.shrink_stopped = True
            raise _StopShrinking
        out.shrink_tries += 1
        if out.shrink_tries % 10 == 0:
            bar.status(f"shrinking: {out.shrink_tries} tries, smallest failing game: "
                     f"{len(out.failure.actions) if out.failure else 0} actions ")
        game_seed = data.draw(st.integers(0, 2**32 - 1))
        drawn = [list(kept) if cands is None else
                 decode_deck(game, cands, slots, lambda k: data.draw(st.integers(0, k - 1)))
                 for cands, slots, kept in zip(choices, shapes, original.decks, strict=True)]
        decks = [d for d in drawn if d is not None]
        if len(decks) < len(drawn) or any(game.check_deck(entry_names(d)) for d in decks):
            return False  # not reached: every decoded deck is legal (the guard keeps shrinking honest)

        def choose(s: State, actions: list[Action]) -> int:
            return data.draw(st.integers(0, len(actions) - 1)) if len(actions) > 1 else 0

        run = play_checked(game, decks, game_seed, choose)
        if run.violation is None:
            return False
        if run.signature != original.signature:
            if run.signature not in out.other_bugs:
                out.other_bugs.append(run.signature)
            return False  # another bug: this shrink keeps to the first one
        out.failure = run  # every accepted example is smaller than the last one
        return True

    try:
        # Not seeded (random=) nor derandomized: Hypothesis then ignores the database. So two
        # shrinks of the same game may end on different (equally valid) small games.
        find(st.data(), fails,
             settings=settings(database=db, phases=[Phase.reuse, Phase.shrink], deadline=None,
                               derandomize=False, verbosity=Verbosity.quiet,
                               suppress_health_check=list(HealthCheck)),
             database_key=key)
    except _StopShrinking:
        pass
    except Exception:  # NoSuchExample (not reproduced under Hypothesis) or a Flaky report
        pass
    out.shrink_seconds = time.monotonic() - started
    bar.line(f"\rshrinking: done after {out.shrink_tries} tries ({out.shrink_seconds:.1f} s)"
             f"{' (time limit reached)' if out.shrink_stopped else ''}          \n")


def trimmed(indices: list[int]) -> list[int]:
    """Return choice indices without trailing zeros (a decision past the end takes index 0)."""
    out = list(indices)
    while out and out[-1] == 0:
        out.pop()
    return out


def _json_deck(deck: list) -> list:
    """Return a deck as a replay file holds it: card names, or a team's [character, line, [table]]."""
    return [[e.name, e.line, list(e.attached)] if isinstance(e, Entry) else e for e in deck]


def replay_data(target: Target, outcome: Outcome, campaign_seed: int) -> dict:
    """Return the JSON content of a replay file for a campaign's failure."""
    run, original = outcome.failure, outcome.original
    assert run is not None and original is not None
    return {
        "format": FORMAT,
        "ruleset": target.pool.ruleset,
        "options": target.pool.options,
        "target": target.label,
        "extra_cards": target.pool.extra,
        "seed": run.seed,
        "decks": [_json_deck(d) for d in run.decks],
        "choices": [list(a) for a in run.actions],
        "choice_indices": trimmed(run.indices),
        "violation": run.violation,
        "log": run.log,
        "found": {"campaign_seed": campaign_seed, "games": outcome.games},
        "shrink": {
            "tries": outcome.shrink_tries,
            "seconds": round(outcome.shrink_seconds, 3),
            "stopped_by_time_limit": outcome.shrink_stopped,
            "other_violations_seen": outcome.other_bugs,
            "original": {"seed": original.seed, "decks": [_json_deck(d) for d in original.decks],
                         "actions": len(original.actions),
                         "choice_indices": trimmed(original.indices), "violation": original.violation},
        },
    }


# ---------------------------------------------------------------- the commands


def _compile_errors(err, root: Path, stream: TextIO) -> None:
    for d in err.diagnostics:
        path = Path(d.path) if Path(d.path).is_absolute() else root / d.path
        source = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
        print(d.render(source), file=stream)


def fuzz_command(root: Path, path: Path, games: int | None = None, seed: int = 0, out: Path | None = None,
                 ruleset: str | None = None, shrink_seconds: float = SHRINK_SECONDS,
                 stdout: TextIO | None = None, stderr: TextIO | None = None,
                 options: dict[str, str] | None = None) -> int:
    """`cardc fuzz`: 0 no violation, 1 a violation (replay written), 2 nothing could be fuzzed."""
    from compiler.diagnostics import CompileError

    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    profile = os.environ.get("CARDC_PROFILE", "ci")
    games = games if games is not None else PROFILE_GAMES.get(profile, PROFILE_GAMES["ci"])
    if games < 1:
        print("cardc fuzz: --games must be at least 1", file=stderr)
        return EXIT_USAGE
    try:
        target = resolve_target(root, path, ruleset, options)
    except UsageError as err:
        print(f"cardc fuzz: {err}", file=stderr)
        return EXIT_USAGE
    except CompileError as err:
        _compile_errors(err, root, stderr)
        print("cardc fuzz: the cards do not compile; nothing was played", file=stderr)
        return EXIT_USAGE
    try:
        print(f"fuzzing {target.label}: {target.describe()}, compiled in {target.pool.built}; "
              f"{games} games from seed {seed}", file=stderr)
        outcome = campaign(target, games, seed, stderr, shrink_seconds)
        rate = outcome.games / outcome.seconds if outcome.seconds else 0.0
        if outcome.failure is None:
            print(f"no violation in {outcome.games} games ({outcome.seconds:.1f} s, {rate:.1f} games/s)",
                  file=stdout)
            return EXIT_OK
        data = replay_data(target, outcome, seed)
        out = out or Path(f"fuzz-{target.pool.ruleset}-seed{seed}.replay.json")
        out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        original, run = outcome.original, outcome.failure
        assert original is not None
        print(f"violation found in game {outcome.games} of {games}:", file=stdout)
        print(f"  {run.violation.splitlines()[0] if run.violation else ''}", file=stdout)
        print(f"shrunk in {outcome.shrink_tries} tries: {len(original.actions)} -> {len(run.actions)} actions, "
              f"{sum(1 for i in original.indices if i)} -> {sum(1 for i in run.indices if i)} choices other "
              "than the first legal action, "
              f"seed {original.seed} -> {run.seed}", file=stdout)
        print(f"replay written to {out}; run: cardc replay {out}", file=stdout)
        return EXIT_VIOLATION
    finally:
        target.pool.close()
