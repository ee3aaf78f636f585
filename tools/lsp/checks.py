"""Diagnostics of unsaved text: the compiler's own checks, as `cardc check`, `play`, `scenario` and `replay`
run them on a file, with the editor's text in place of what is saved.

A card file is checked with the other card files of its folder (each open one by its unsaved text);
decks, teams, party files, scenarios, battle scenarios and replays against the compiled game of their
ruleset (generated/), as the commands that read them check them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from compiler.build import read_folder
from compiler.diagnostics import CompileError, Diagnostic
from tools.lsp.places import Place


def card_folder(place: Place, open_texts: dict[Path, str]) -> dict[str, list[Diagnostic]]:
    """Return the problems of each card file of a folder (by its path relative to the root), open texts
    in place of saved ones."""
    texts = {p: t for p, t in open_texts.items() if p.parent == place.path.parent and p.suffix == ".card"}
    _, _, problems = read_folder(place.root, place.path.parent, texts)
    found: dict[str, list[Diagnostic]] = {}
    for d in problems:
        found.setdefault(d.path, []).append(d)
    return found


def sheet(place: Place, text: str) -> list[Diagnostic]:
    """Return every problem of a deck, team, party, scenario, battle scenario or replay file's text."""
    try:
        _CHECKS[place.kind](place, text)
    except CompileError as err:
        return err.diagnostics
    except ModuleNotFoundError as err:  # the ruleset it names is not compiled
        if not (err.name or "").startswith("generated"):
            raise
        return [Diagnostic("E101", f"ruleset '{place.ruleset}' is not compiled into generated/; run 'cardc build'",
                           place.rel, 1, 1)]
    return []


def _deck(place: Place, text: str) -> None:
    from compiler.sheets import deck_rules, read_deck
    from runtime.load import load_game

    read_deck(text, place.rel, deck_rules(load_game(place.ruleset)))


def _team(place: Place, text: str) -> None:
    from compiler.team_files import read_team
    from runtime.load import load_game

    read_team(text.removeprefix("\ufeff"), place.rel, load_game(place.ruleset))


def _party(place: Place, text: str) -> None:
    from runtime.battle.rules import load_rules
    from tools.battle.play import party_from_text

    party_from_text(load_rules(place.ruleset), text, place.rel)


def _scenario(place: Place, text: str) -> None:
    """Check a scenario as `cardc scenario` does before it plays: the file alone, then against the game."""
    from compiler.check_scenarios import check_game, check_options
    from runtime.load import load_game
    from tools.scenario import known_rulesets, scenario_from_text
    from tools.scenario_expect import ScenarioError

    sc = scenario_from_text(text, place.rel, known_rulesets(place.path, place.root))
    assert sc.ast is not None
    game = load_game(sc.ruleset)
    problems = check_options(sc.ast, game)
    if not problems:
        problems = check_game(sc.ast, game.with_options(sc.options) if sc.options else game)
    if problems:
        raise ScenarioError(problems, text)


def _battle(place: Place, text: str) -> None:
    from runtime.battle.rules import load_rules
    from tools.battle.scenario import parse_scenario

    parse_scenario(text, place.rel, load_rules(place.ruleset))


def _replay(place: Place, text: str) -> None:
    """Check a replay as `cardc replay` does before it plays: the file alone, then against the game."""
    from compiler.replay_files import check_game, read_replay
    from runtime.load import load_game

    cards = place.root / "cards"
    replay = read_replay(text, place.rel, {p.name for p in cards.iterdir() if p.is_dir()} if cards.is_dir() else set())
    if replay.extra_cards is None:  # with a card file of its own, the game is compiled when it is replayed
        problems = check_game(replay, load_game(replay.ruleset))
        if problems:
            raise CompileError(problems)


_CHECKS: dict[str, Callable[[Place, str], None]] = {
    "deck": _deck, "team": _team, "party": _party, "scenario": _scenario, "battle_scenario": _battle,
    "replay": _replay}
