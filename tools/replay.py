"""`cardc replay`: play a fuzz replay file again and print its log up to the failure; turn a
replay that passes again into a regression scenario. Format: docs/fuzzing.md.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TextIO

from compiler.build import read_source
from compiler.diagnostics import CompileError
from compiler.replay_files import Replay, check_game, read_replay
from runtime import engine
from runtime.engine import Action
from runtime.state import State
from tools.fuzz_targets import Pool, UsageError, load_pool
from tools.fuzzing import EXIT_OK, EXIT_USAGE, EXIT_VIOLATION, Run, _compile_errors, _describe, play_checked


def load_replay(root: Path, file: Path) -> Replay:
    """Return a replay file's values, checked (compiler/replay_files.py), or raise CompileError with every
    problem located; UsageError if it cannot be read at all."""
    try:
        text = read_source(file, str(file))
    except OSError as err:
        raise UsageError(f"cannot read {file}: {err.strerror or err}") from None
    rulesets = {p.name for p in (root / "cards").iterdir() if p.is_dir()} if (root / "cards").is_dir() else set()
    return read_replay(text, str(file), rulesets)


def _refused(file: Path, err: CompileError, stderr: TextIO) -> int:
    """Print the located problems of a replay file and why nothing was played; return EXIT_USAGE."""
    text = read_source(file, str(file)) if file.is_file() and err.diagnostics[0].code != "E005" else None
    for d in err.diagnostics:
        print(d.render(text), file=stderr)
    if any(d.code == "E301" for d in err.diagnostics):
        print(f"cardc replay: {file} names a path outside the temporary copy; nothing was written", file=stderr)
    else:
        print(f"cardc replay: {file} cannot be replayed; nothing was played", file=stderr)
    return EXIT_USAGE


def replay_run(pool: Pool, replay: Replay) -> tuple[Run, str]:
    """Replay a replay file's choices with every check; return the run and, if the game left the
    recorded path, why."""
    recorded = replay.choices
    diverged = [""]
    run_actions: list[Action] = []

    def choose(s: State, actions: list[Action]) -> int | None:
        k = len(run_actions)
        if k >= len(recorded):
            return None
        want = recorded[k]
        if want not in actions:
            offered = ", ".join(_describe(s, a) for a in actions)
            diverged[0] = f"choice {k + 1} {list(want)} is not offered; the game offers: {offered}"
            return None
        run_actions.append(want)
        return actions.index(want)

    run = play_checked(pool.game, replay.decks, replay.seed, choose)
    return run, diverged[0]


def replay_command(root: Path, file: Path, scenario: Path | None = None, stdout: TextIO | None = None,
                   stderr: TextIO | None = None, html: Path | None = None) -> int:
    """`cardc replay`: print the log up to the failure and the violation (with html, write the viewer
    page of the game there); 1 if it still fails, 0 if it no longer does, 2 if the file cannot be replayed."""
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    try:
        replay = load_replay(root, file)
        pool = load_pool(root, replay.ruleset, replay.extra_cards)  # the options are checked first
    except UsageError as err:
        print(f"cardc replay: {err}", file=stderr)
        return EXIT_USAGE
    except CompileError as err:
        if err.diagnostics and err.diagnostics[0].path == str(file):
            return _refused(file, err, stderr)
        _compile_errors(err, root, stderr)
        print("cardc replay: the cards do not compile", file=stderr)
        return EXIT_USAGE
    try:
        problems = check_game(replay, pool.game)
        if problems:  # a game these decks or options cannot start is no replay of anything: refuse the file
            return _refused(file, CompileError(problems), stderr)
        pool.game, pool.options = pool.game.with_options(replay.options), dict(replay.options)
        code = _replay_and_report(pool, replay, file, scenario, stdout, stderr, root)
        if html is not None:
            write_replay_page(pool, replay, file, html)
            print(f"viewer page written to {html}", file=stderr)
        return code
    finally:
        pool.close()


def _replay_and_report(pool: Pool, replay: Replay, file: Path, scenario: Path | None, stdout: TextIO,
                       stderr: TextIO, root: Path) -> int:
    """Replay the choices and print the log and the verdict (and write the scenario); return the exit code."""
    run, diverged = replay_run(pool, replay)
    for line in run.log:
        print(line, file=stdout)
    if run.violation is not None:
        print(f"violation: {run.violation}", file=stdout)
        return EXIT_VIOLATION
    if diverged:
        print(f"the game no longer follows the replay: {diverged}", file=stdout)
    print(f"the replay no longer fails (recorded: {replay.violation.splitlines()[0:1]})", file=stdout)
    if scenario is not None:
        try:
            write_scenario(pool, replay, scenario, file, root)
        except UsageError as err:
            print(f"cardc replay: no scenario written: {err}", file=stderr)
            return EXIT_USAGE
        print(f"scenario written to {scenario}; run: cardc scenario {scenario}", file=stdout)
    return EXIT_OK


def write_replay_page(pool: Pool, replay: Replay, file: Path, out: Path) -> None:
    """Write the viewer page of a replay: its recorded choices played again, step by step, up to the end or
    the choice it stops at (a violation the checks find shows on the last step)."""
    from tools.viewer import Recorder, record_actions, write_page

    run, _diverged = replay_run(pool, replay)
    recorder = Recorder()
    record_actions(pool.game.new_game([list(d) for d in replay.decks], replay.seed), run.actions, recorder)
    if run.violation is not None and not recorder.steps[-1]["end"]:
        recorder.steps[-1]["end"] = f"violation: {run.violation.splitlines()[0]}"
    write_page(out, f"{replay.ruleset}: {file.name}, seed {replay.seed}", recorder.steps)


def _deck_line(deck: list[str]) -> str:
    """Return a scenario deck list in order, consecutive copies counted: 'A, 2 B, A'."""
    parts: list[str] = []
    i = 0
    while i < len(deck):
        j = i
        while j < len(deck) and deck[j] == deck[i]:
            j += 1
        parts.append(deck[i] if j - i == 1 else f"{j - i} {deck[i]}")
        i = j
    return ", ".join(parts)


def write_scenario(pool: Pool, replay: Replay, path: Path, source: Path, root: Path) -> None:
    """Write a regression scenario (docs/scenarios.md) from a replay that no longer fails: the
    recorded choices, then the first legal action until the end of that turn, and the log. It may name
    the rulesets of the project at `root` (cardc --root), wherever it is written."""
    from runtime.agents import describe_action
    from tools.scenario import ScenarioError, read_scenario, run_scenario, update_transcript

    if any(not isinstance(name, str) for deck in replay.decks for name in deck):
        raise UsageError("a battle of teams cannot be written as a scenario: a scenario's 'new game' starts from "
                         "decks, and a team's characters and tables have no set-up line")
    if any("," in name or re.match(r"\d+ ", name) for deck in replay.decks for name in deck):
        raise UsageError("a card name with ',' or a leading count cannot be written in a scenario deck line")
    game = pool.game
    s = game.new_game([list(d) for d in replay.decks], replay.seed)
    said: list[str] = []
    for action in replay.choices:
        said.append(describe_action(s, action))
        engine.apply_action(s, action)
    turn = s.turn
    while not engine.is_terminal(s) and s.turn == turn:  # finish the turn: a scenario stops after one
        action = engine.legal_actions(s)[0]
        said.append(describe_action(s, action))
        engine.apply_action(s, action)
    stop = "end" if engine.is_terminal(s) else f"after turn {turn}"
    violation = replay.violation.splitlines()[0] if replay.violation else ""
    lines = [f"scenario FUZZ-{replay.ruleset}-{replay.seed}: regression found by cardc fuzz",
             f"ruleset {replay.ruleset}", f"seed {replay.seed}",
             *[f"option {k} = {v}" for k, v in sorted(replay.options.items())], f"stop: {stop}", "",
             f"# From {source}: {violation}",
             "# Add expect: lines that state the correct behaviour at the stop point.", "setup:", "    new game"]
    lines += [f"    P{p + 1} deck: {_deck_line(deck)}" for p, deck in enumerate(replay.decks)]
    lines += ["", "choices:"] + [f"    {c}" for c in said] + ["", "transcript:"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    try:
        result = run_scenario(read_scenario(path, root), game)
    except ScenarioError as err:  # the replay's data make no scenario (a name or number no line may hold)
        path.unlink()
        raise UsageError(f"the scenario does not read back:\n{err.render()}") from None
    if result.state is not None:
        update_transcript(path, result.state.log)
