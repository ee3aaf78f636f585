"""`cardc play`: load a compiled ruleset and decks, let agents play, print the log."""

from __future__ import annotations

import sys
from pathlib import Path

from runtime import engine, jokers
from runtime.agents import Agent, GreedyAgent, HumanAgent, RandomAgent
from runtime.decks import DeckError, load_deck
from runtime.engine import Game
from runtime.load import load_game


def deck_path(root: Path, ruleset: str, name: str) -> Path:
    """Return the file a deck argument names: a path, or a deck of cards/<ruleset>/decks/."""
    given = Path(name)
    if given.suffix == ".deck" or given.exists():
        return given
    return root / "cards" / ruleset / "decks" / f"{name}.deck"


def default_decks(root: Path, game: Game) -> list[str]:
    """Return the first two sample decks that are legal under the game's rules and options."""
    known = {n for n, c in game.cards.items() if not c.token}
    legal = []
    for path in sorted((root / "cards" / game.ruleset.name / "decks").glob("*.deck")):
        try:
            if not game.check_deck(load_deck(path, known)):
                legal.append(path.stem)
        except DeckError:
            continue
    return legal[:2]


def play_command(root: Path, ruleset: str, seed: int, decks: list[str], humans: list[int],
                 agent: str, options: dict[str, str] | None = None) -> int:
    """Play one game and print its log; return the exit code."""
    game = load_game(ruleset)
    try:
        game = game.with_options(options) if options else game
    except ValueError as err:
        print(f"cardc play: {err}", file=sys.stderr)
        return 2
    names = decks or default_decks(root, game)
    if len(names) == 1:
        names = names * 2
    known = {n for n, c in game.cards.items() if not c.token}
    try:
        lists = [load_deck(deck_path(root, ruleset, d), known, game.ruleset.deck_size,
                           game.ruleset.max_copies, jokers.names(game)) for d in names]
    except DeckError as err:
        print(err, file=sys.stderr)
        return 1
    agents: list[Agent] = []
    for p in range(len(lists)):
        if p + 1 in humans:
            agents.append(HumanAgent(p))
        else:
            agents.append(GreedyAgent() if agent == "greedy" else RandomAgent(seed * 7919 + p))
    try:
        state = game.new_game(lists, seed)
    except ValueError as err:  # a deck these rules refuse (size, copies, jokers)
        print(f"cardc play: {err}", file=sys.stderr)
        return 1
    shown = 0
    while True:  # print the log as it grows, so a human sees what happened before each choice
        for line in state.log[shown:]:
            print(line, flush=True)
        shown = len(state.log)
        if engine.is_terminal(state):
            return 0
        assert state.decision is not None
        try:
            choice = agents[state.decision["player"]].choose(state, engine.legal_actions(state))
        except (EOFError, KeyboardInterrupt):
            print("\ninput ended: the game is abandoned", file=sys.stderr)
            return 1
        engine.apply_action(state, choice)
