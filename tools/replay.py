"""`cardc replay`: play a fuzz replay file again and print its log up to the failure; turn a
replay that passes again into a regression scenario. Format: docs/fuzzing.md.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import TextIO

from runtime import engine
from runtime.engine import Action
from runtime.state import State
from tools.fuzz_targets import Pool, UsageError, card_file_name_problem, load_pool
from tools.fuzzing import (
    EXIT_OK,
    EXIT_USAGE,
    EXIT_VIOLATION,
    FORMAT,
    Run,
    _compile_errors,
    _describe,
    play_checked,
)


def read_replay(file: Path) -> dict:
    """Return a replay file's content, or raise UsageError saying what is wrong with it."""
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise UsageError(f"cannot read {file}: {err}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise UsageError(f"{file} is not a replay file (expected \"format\": \"{FORMAT}\")")
    for key, kind in (("ruleset", str), ("seed", int), ("decks", list), ("choices", list)):
        if not isinstance(data.get(key), kind):
            raise UsageError(f"{file}: '{key}' is missing or not a {kind.__name__}")
    return data


def deck_problem(pool: Pool, decks: list) -> str:
    """Return why a replay's decks cannot start a game of its ruleset ('' if they can): one list of
    card names per player, each passing the game's deck check (so no empty deck)."""
    players = pool.game.ruleset.players
    if len(decks) != players:
        return f"'decks' holds {len(decks)} deck(s); ruleset '{pool.ruleset}' is played by {players}"
    for p, deck in enumerate(decks, 1):
        if not isinstance(deck, list) or not all(isinstance(name, str) for name in deck):
            return f"deck {p} of 'decks' is not a list of card names"
        problems = pool.game.check_deck(deck)
        if problems:
            return f"deck {p} of 'decks' cannot start a game: {'; '.join(problems)}"
    return ""


def replay_run(pool: Pool, data: dict) -> tuple[Run, str]:
    """Replay a replay file's choices with every check; return the run and, if the game left the
    recorded path, why."""
    recorded = [tuple(a) for a in data["choices"]]
    diverged = [""]
    run_actions: list[Action] = []

    def choose(s: State, actions: list[Action]) -> int | None:
        k = len(run_actions)
        if k >= len(recorded):
            return None
        want = (str(recorded[k][0]), int(recorded[k][1]))
        if want not in actions:
            offered = ", ".join(_describe(s, a) for a in actions)
            diverged[0] = f"choice {k + 1} {list(want)} is not offered; the game offers: {offered}"
            return None
        run_actions.append(want)
        return actions.index(want)

    run = play_checked(pool.game, data["decks"], data["seed"], choose)
    return run, diverged[0]


def replay_command(root: Path, file: Path, scenario: Path | None = None, stdout: TextIO | None = None,
                   stderr: TextIO | None = None) -> int:
    """`cardc replay`: print the log up to the failure and the violation; 1 if it still fails,
    0 if it no longer does, 2 if the file cannot be replayed."""
    from compiler.diagnostics import CompileError

    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    try:
        data = read_replay(file)
        if refused_paths(file, data, stderr):
            return EXIT_USAGE
        pool = load_pool(root, data["ruleset"], data.get("extra_cards"), data.get("options"))
    except UsageError as err:
        print(f"cardc replay: {err}", file=stderr)
        return EXIT_USAGE
    except CompileError as err:
        _compile_errors(err, root, stderr)
        print("cardc replay: the cards do not compile", file=stderr)
        return EXIT_USAGE
    try:
        problem = deck_problem(pool, data["decks"])
        if problem:  # a game these decks cannot start is no replay of anything: refuse the file
            print(f"cardc replay: {file}: {problem}", file=stderr)
            return EXIT_USAGE
        run, diverged = replay_run(pool, data)
        for line in run.log:
            print(line, file=stdout)
        if run.violation is not None:
            print(f"violation: {run.violation}", file=stdout)
            return EXIT_VIOLATION
        if diverged:
            print(f"the game no longer follows the replay: {diverged}", file=stdout)
        print(f"the replay no longer fails (recorded: {str(data.get('violation', '')).splitlines()[0:1]})",
              file=stdout)
        if scenario is not None:
            try:
                write_scenario(pool, data, scenario, file)
            except UsageError as err:
                print(f"cardc replay: no scenario written: {err}", file=stderr)
                return EXIT_USAGE
            print(f"scenario written to {scenario}; run: cardc scenario {scenario}", file=stdout)
        return EXIT_OK
    finally:
        pool.close()


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


def write_scenario(pool: Pool, data: dict, path: Path, source: Path) -> None:
    """Write a regression scenario (docs/scenarios.md) from a replay that no longer fails: the
    recorded choices, then the first legal action until the end of that turn, and the log."""
    from runtime.agents import describe_action
    from tools.scenario import ScenarioError, read_scenario, run_scenario, update_transcript

    if any("," in name or re.match(r"\d+ ", name) for deck in data["decks"] for name in deck):
        raise UsageError("a card name with ',' or a leading count cannot be written in a scenario deck line")
    game = pool.game
    s = game.new_game([list(d) for d in data["decks"]], data["seed"])
    said: list[str] = []
    for pair in data["choices"]:
        action = (str(pair[0]), int(pair[1]))
        said.append(describe_action(s, action))
        engine.apply_action(s, action)
    turn = s.turn
    while not engine.is_terminal(s) and s.turn == turn:  # finish the turn: a scenario stops after one
        action = engine.legal_actions(s)[0]
        said.append(describe_action(s, action))
        engine.apply_action(s, action)
    stop = "end" if engine.is_terminal(s) else f"after turn {turn}"
    violation = str(data.get("violation", "")).splitlines()[0] if data.get("violation") else ""
    lines = [f"scenario FUZZ-{data['ruleset']}-{data['seed']}: regression found by cardc fuzz",
             f"ruleset {data['ruleset']}", f"seed {data['seed']}",
             *[f"option {k} = {v}" for k, v in sorted((data.get("options") or {}).items())], f"stop: {stop}", "",
             f"# From {source}: {violation}",
             "# Add expect: lines that state the correct behaviour at the stop point.", "setup:", "    new game"]
    lines += [f"    P{p + 1} deck: {_deck_line(deck)}" for p, deck in enumerate(data["decks"])]
    lines += ["", "choices:"] + [f"    {c}" for c in said] + ["", "transcript:"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    try:
        result = run_scenario(read_scenario(path), game)
    except ScenarioError as err:  # the replay's data make no scenario (a name or number no line may hold)
        path.unlink()
        raise UsageError(f"the scenario does not read back:\n{err.render()}") from None
    if result.state is not None:
        update_transcript(path, result.state.log)


# ---------------------------------------------------------------- names that would choose where replay writes


def refused_paths(file: Path, data: dict, stderr: TextIO) -> bool:
    """Print a located E301 for each name of a replay file that would lead a write out of the temporary
    copy (the ruleset, the extra card file); return whether there was one."""
    from compiler.diagnostics import Diagnostic

    found = _path_problems(data)
    text = file.read_text(encoding="utf-8") if found else ""
    for keys, message in found:
        print(Diagnostic("E301", message, str(file), *json_position(text, keys)).render(text), file=stderr)
    if found:
        print(f"cardc replay: {file} names a path outside the temporary copy; nothing was written", file=stderr)
    return bool(found)


def _path_problems(data: dict) -> list[tuple[tuple[str, ...], str]]:
    """Return (key path, message) for the ruleset and the extra card file name of a replay, if not plain names."""
    from compiler.build import SAFE_NAME

    found: list[tuple[tuple[str, ...], str]] = []
    if not isinstance(data["ruleset"], str) or not SAFE_NAME.match(data["ruleset"]):
        found.append((("ruleset",), f"ruleset {json.dumps(data['ruleset'])} is not a ruleset name; expected "
                                    "the name of a folder of cards/ (lowercase letters, digits and '_', "
                                    "starting with a letter)"))
    extra = data.get("extra_cards")
    why = card_file_name_problem(extra.get("file")) if isinstance(extra, dict) else None
    if why is not None:
        found.append((("extra_cards", "file"), f"extra_cards file {why}"))
    return found


def json_position(text: str, keys: tuple[str, ...]) -> tuple[int, int]:
    """Return the line and column (from 1) where the value at a path of object keys starts in a JSON
    text (the last of duplicate keys, as json.loads keeps); as far as the path exists."""
    pos = _skip_space(text, 0)
    for key in keys:
        found = _member_value(text, pos, key)
        if found is None:
            break
        pos = found
    return text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def _member_value(text: str, pos: int, key: str) -> int | None:
    """Return where the value of `key` starts in the JSON object at pos (its last occurrence), or None."""
    if not text.startswith("{", pos):
        return None
    decoder, found, pos = json.JSONDecoder(), None, _skip_space(text, pos + 1)
    try:
        while text.startswith('"', pos):
            name, pos = decoder.raw_decode(text, pos)
            pos = _skip_space(text, _skip_space(text, pos) + 1)  # past the ':'
            found = pos if name == key else found
            pos = _skip_space(text, decoder.raw_decode(text, pos)[1])
            pos = _skip_space(text, pos + 1) if text.startswith(",", pos) else len(text)
    except ValueError:  # not reached for a text json.loads read; a position is still owed
        pass
    return found
