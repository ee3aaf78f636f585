"""The `cardc` commands that test cards: scenario, fuzz, try and replay."""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from tools.cli_common import NO_BUILD, PATH, RULESET_OPTIONS, Args, Run, automatic, examples, options, seed


def cmd_scenario(args: Args) -> int:
    from compiler.build import read_source
    from tools.scenario_runs import discover_files, run_paths

    for path in discover_files(args.root, args.paths):  # bytes that are not UTF-8: E005, located, before any runs
        read_source(path, str(path))
    return run_paths(args.root, args.paths, args.update, args.full_log, args.exact_lines)


def cmd_fuzz(args: Args) -> int:
    from tools.fuzz_targets import project_ruleset
    from tools.fuzzing import PROFILE_GAMES, fuzz_command

    folder = args.path.resolve()
    default = PROFILE_GAMES.get(os.environ.get("CARDC_PROFILE", "ci"), PROFILE_GAMES["ci"])
    games = default if args.games is None else args.games
    if folder.parent == (args.root / "cards").resolve() and folder.is_dir() and automatic(folder.name):
        from runtime.battle.rules import load_rules
        from tools.battle.fuzz import fuzz_battles

        return fuzz_battles(load_rules(folder.name), games, args.seed, options(args), args.out,
                            sys.stdout, sys.stderr)
    card_file = args.path.suffix == ".card" and args.path.is_file()
    inside = project_ruleset(args.root, args.path) if card_file else None
    battle_ruleset = inside or args.ruleset
    if card_file and battle_ruleset and automatic(battle_ruleset):  # a sword, state or enchantment file
        from tools.battle.targets import fuzz_card_file

        return fuzz_card_file(args.root, args.path, battle_ruleset, inside is not None, games, args.seed,
                              options(args), args.out, sys.stdout, sys.stderr)
    return fuzz_command(args.root, args.path, args.games, args.seed, args.out, args.ruleset, args.shrink_seconds,
                        options=options(args))


def cmd_try(args: Args) -> int:
    from tools.trying import try_command

    return try_command(args.root, args.card, args.ruleset, args.games, args.against, args.seed, options(args),
                       args.out)


def cmd_replay(args: Args) -> int:
    from tools.replay import replay_command

    return replay_command(args.root, args.file, args.scenario, html=args.html)


@click.command(help="Run scenario and battle files, one line each.\n\n"
                    "PATHS: scenario (.scenario) and battle (.battle) files or folders of them "
                    "[default: tests/scenarios/ and tests/battles/].",
               epilog=examples("cardc scenario", "cardc scenario tests/scenarios/simple_duel --full-log",
                               "cardc scenario tests/scenarios/simple_duel/keywords.scenario --update"))
@click.argument("paths", nargs=-1, type=PATH)
@click.option("--update", is_flag=True, help="rewrite expected logs from actual runs")
@click.option("--full-log", is_flag=True, help="under a failure, print the whole game log, not its tail")
@click.option("--exact-lines", is_flag=True,
              help="compare the card-file lines of '(cards.card:12)' in logs too (ignored by default)")
@NO_BUILD
def scenario(**params: Any) -> Run:
    return Run(cmd_scenario, params)


@click.command(help="Fuzz cards with checked random games; shrink a violation.\n\n"
                    "The first violation of an invariant is shrunk and saved as a replay file. "
                    "PATH: a ruleset folder, a .card file or a .deck file.",
               epilog=examples("cardc fuzz cards/simple_duel --games 500 --seed 3",
                               "cardc fuzz cards/simple_duel/spells.card --out found.replay.json",
                               "cardc fuzz my.deck --ruleset code_of_joker --rules v2"))
@click.argument("path", type=PATH)
@click.option("--games", type=int, default=None, show_default="200; 5000 with CARDC_PROFILE=long",
              help="games to play")
@seed(0, "the first game's seed")
@click.option("--out", type=PATH, default=None, help="replay file to write on a violation")
@click.option("--ruleset", default=None, help="the ruleset of a card or deck file outside cards/")
@click.option("--shrink-seconds", type=float, default=120.0, show_default=True, help="time limit for shrinking")
@RULESET_OPTIONS
@NO_BUILD
def fuzz(**params: Any) -> Run:
    return Run(cmd_fuzz, params)


@click.command("try", help="Playtest one card: N checked games, what each ability did.\n\n"
                           "The card goes into a legal sample deck. CARD: the card's name, as its card file spells it.",
               epilog=examples("cardc try 'Sparkjaw Imp'", "cardc try 'Frost Needle' --ruleset successor --games 40",
                               "cardc try 'Sparkjaw Imp' --against control --seed 7"))
@click.argument("card")
@click.option("--ruleset", default=None, help="the ruleset, when several have a card of that name")
@click.option("--games", type=int, default=20, show_default=True, help="games to play")
@click.option("--against", default=None, help="the opponent: a sample's name or a deck or team file "
                                              "[default: every other sample, in turn]")
@seed(1, "the first game's seed; game N has seed + N - 1")
@click.option("--out", type=PATH, default=None, help="replay file to write if a game breaks an invariant")
@RULESET_OPTIONS
@NO_BUILD
def try_(**params: Any) -> Run:
    return Run(cmd_try, params)


@click.command(help="Replay a fuzz replay file; exit 1 while it still fails.\n\n"
                    "FILE: a replay file (.replay.json) written by cardc fuzz or cardc try.",
               epilog=examples("cardc replay found.replay.json",
                               "cardc replay found.replay.json --scenario tests/scenarios/regression.scenario"))
@click.argument("file", type=PATH)
@click.option("--scenario", type=PATH, default=None, help="once it passes, write a regression scenario here")
@click.option("--html", type=PATH, default=None, help="also write a page that steps through the game")
@NO_BUILD
def replay(**params: Any) -> Run:
    return Run(cmd_replay, params)


COMMANDS = (scenario, fuzz, try_, replay)
