"""`cardc play`: load a compiled ruleset and decks, let agents play, print the log."""

from __future__ import annotations

import sys
from pathlib import Path

from compiler.diagnostics import CompileError, Diagnostic, did_you_mean
from compiler.sheets import deck_rules, load_deck
from compiler.team_files import load_team
from runtime import engine
from runtime.agents import Agent, GreedyAgent, RandomAgent, describe_action
from runtime.defs import entry_names
from runtime.engine import Game
from runtime.load import load_game
from runtime.state import State
from tools.human import History, HumanPlayer, Quit, Undo
from tools.viewer import Recorder, write_page

Samples = tuple[tuple[str, str, str], ...]  # (folder of cards/<ruleset>/, what a file there is, its suffix)
SAMPLES: Samples = (("decks", "deck", ".deck"), ("teams", "team", ".team"))  # what a name means in card games


def deck_path(root: Path, ruleset: str, name: str, samples: Samples = SAMPLES) -> Path:
    """Return the file a deck argument names: a path (a deck or a team file), or a sample deck or team of
    cards/<ruleset>/ by its name (or another kind of samples); ValueError, saying which there are, when a
    name is none of them."""
    given = Path(name)
    if given.suffix in {suffix for _, _, suffix in samples} or given.exists():
        return given
    found = [root / "cards" / ruleset / folder / f"{name}{suffix}" for folder, _, suffix in samples]
    path = next((p for p in found if p.is_file()), None)
    if path is None:
        there = sorted(p.stem for folder, _, suffix in samples
                       for p in (root / "cards" / ruleset / folder).glob(f"*{suffix}"))
        kinds = " or ".join(kind for _, kind, _ in samples)
        raise ValueError(f"no {kinds} '{name}' in cards/{ruleset}/ (there: {', '.join(there) or 'none'})"
                         f"{did_you_mean(name, there)}")
    return path


def legal_samples(root: Path, game: Game) -> list[Path]:
    """Return the sample decks and teams of a ruleset (cards/<ruleset>/decks/, teams/) that are legal under
    the game's rules and options."""
    legal = []
    for folder, _, suffix in SAMPLES:
        for path in sorted((root / "cards" / game.ruleset.name / folder).glob(f"*{suffix}")):
            try:
                if not game.check_deck(entry_names(_read(path, game))):
                    legal.append(path)
            except CompileError:
                continue
    return legal


def default_decks(root: Path, game: Game) -> list[str]:
    """Return the first two sample decks (or teams) that are legal under the game's rules and options."""
    return [p.stem for p in legal_samples(root, game)[:2]]


def _read(path: Path, game: Game) -> list:
    """Return a player's deck: a team file's entries (characters and their tables), or a deck file's names."""
    return load_team(path, game) if path.suffix == ".team" else load_deck(path, deck_rules(game))


def _refused(game: Game, paths: list[Path], lists: list[list]) -> list[Diagnostic]:
    """Return what the rules refuse in decks that read well (jokers, banned keywords, an empty deck under
    rules with no size), each located at its deck file, so that none reaches the user unlocated."""
    files = dict(zip(paths, lists, strict=True))  # one deck file given for both players is reported once
    return [Diagnostic("E201", problem, str(path), 1, 1) for path, deck in files.items()
            for problem in game.check_deck(entry_names(deck))]


def read_entries(game: Game, paths: list[Path]) -> list[list]:
    """Return the decks or teams of files; their problems, and what the rules refuse in them, are a
    CompileError located at each file (printed by the CLI, exit 1)."""
    lists = [_read(path, game) for path in paths]
    refused = _refused(game, paths, lists)
    if refused:
        raise CompileError(refused)
    return lists


def play_command(root: Path, ruleset: str, seed: int, decks: list[str], humans: list[int],
                 agent: str, options: dict[str, str] | None = None, html: Path | None = None) -> int:
    """Play one game and print its log (with html, write the viewer page of the game there); return the exit code."""
    game = load_game(ruleset)
    try:
        game = game.with_options(options) if options else game
    except ValueError as err:
        print(f"cardc play: {err}", file=sys.stderr)
        return 2
    names = decks or default_decks(root, game)
    if len(names) == 1:
        names = names * 2
    try:
        paths = [deck_path(root, ruleset, d) for d in names]
    except ValueError as err:
        print(f"cardc play: {err}", file=sys.stderr)
        return 2
    lists = read_entries(game, paths)
    wrong = sorted(set(h for h in humans if not 1 <= h <= len(lists)))
    if wrong:
        print(f"cardc play: --human {wrong[0]}: no such seat; the players are numbered 1 to {len(lists)}",
              file=sys.stderr)
        return 2
    agents: list[Agent] = []
    for p in range(len(lists)):
        if p + 1 in humans:
            agents.append(HumanPlayer(p))
        else:
            agents.append(GreedyAgent() if agent == "greedy" else RandomAgent(seed * 7919 + p))
    try:
        state = game.new_game(lists, seed)
    except ValueError as err:  # a deck these rules refuse (size, copies, jokers)
        print(f"cardc play: {err}", file=sys.stderr)
        return 1
    recorder = Recorder() if html is not None else None  # recording costs a view an action: only when asked
    code = _play(state, agents, recorder)
    if html is not None and recorder is not None:
        title = f"{ruleset}: {' against '.join(p.stem for p in paths)}, seed {seed}"
        write_page(html, title, recorder.steps)
        print(f"viewer page written to {html} ({len(recorder.steps)} steps)", file=sys.stderr)
    return code


def _play(state: State, agents: list[Agent], recorder: Recorder | None) -> int:
    """Let the agents play to the end, printing the log as it grows (and recording each step); return the
    exit code (0 also when a human quits; 1: a human's input ended). A human's undo sets the game back."""
    if recorder is not None:
        recorder.game(state, "set-up")
    history, shown = History(agents, recorder), 0
    while True:  # print the log as it grows, so a human sees what happened before each choice
        for line in state.log[shown:]:
            print(line, flush=True)
        shown = len(state.log)
        if engine.is_terminal(state):
            return 0
        assert state.decision is not None
        player = state.decision["player"]
        if isinstance(agents[player], HumanPlayer):
            history.mark(state, player)
        try:
            choice = agents[player].choose(state, engine.legal_actions(state))
        except Undo:
            state = history.undo(player)
            shown = len(state.log)
            print(f"-- undone: back to P{player + 1}'s previous decision (turn {state.turn})", flush=True)
            continue
        except Quit:
            print(f"P{player + 1} quit: the game is abandoned", file=sys.stderr)
            return 0
        except (EOFError, KeyboardInterrupt):
            print("\ninput ended: the game is abandoned", file=sys.stderr)
            return 1
        said = describe_action(state, choice) if recorder is not None else ""
        engine.apply_action(state, choice)
        if recorder is not None:
            recorder.game(state, said)
