"""The `cardc` commands that play compiled rulesets: play, tournament and gallery.

A new option of a command is one more `@click.option(...)` line above its function: its value reaches
the cmd_ function as `args.<name>` (tournament's `--backend` would be `args.backend`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

from tools.cli_common import (
    AGENT,
    NO_BUILD,
    PATH,
    RULESET_OPTIONS,
    Args,
    Run,
    automatic,
    examples,
    missing_ruleset,
    options,
    seed,
)


def cmd_play(args: Args) -> int:
    from runtime.battle.rules import load_rules
    from runtime.engine import chosen_options
    from tools.battle.play import battle_command
    from tools.play import play_command

    missing = missing_ruleset(args.root, args.ruleset)
    if missing:
        print(f"cardc play: {missing}", file=sys.stderr)
        return 2
    if automatic(args.ruleset):
        if args.human:  # tools/human.py has nothing to ask: no player decides anything in these battles
            print(f"cardc play: {args.ruleset} plays automatic battles: no player makes a decision, so there is no "
                  "seat for --human; leave it out to watch the battle's log", file=sys.stderr)
            return 2
        rules = load_rules(args.ruleset)
        try:
            chosen_options(rules.ruleset, options(args))  # checked as a card game's are
        except ValueError as err:
            print(f"cardc play: {err}", file=sys.stderr)
            return 2
        return battle_command(args.root, rules, args.parties, options(args), args.html)
    return play_command(args.root, args.ruleset, args.seed, args.deck + args.parties, args.human, args.agent,
                        options(args), args.html)


def cmd_tournament(args: Args) -> int:
    from runtime.battle.rules import load_rules
    from runtime.engine import chosen_options
    from runtime.load import load_game
    from tools.tournament import Setup, tournament_command

    missing = missing_ruleset(args.root, args.ruleset)
    outputs, problem = _tournament_outputs(args)
    if missing or problem:
        print(f"error: {missing or problem}", file=sys.stderr)
        return 2
    battles = automatic(args.ruleset)
    try:
        loaded = load_rules(args.ruleset) if battles else load_game(args.ruleset).with_options(options(args))
        if battles:
            chosen_options(loaded.ruleset, options(args))  # checked as a card game's are
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    refused = _deterministic(args) if battles else ""
    if refused:
        print(f"error: {args.ruleset}'s battles are deterministic (nothing in them is random, nobody decides): "
              f"{refused}", file=sys.stderr)
        return 2
    setup = Setup(GAMES if args.games is None else args.games, 1 if args.seed is None else args.seed,
                  args.agent or "random", args.workers, outputs, args.backend, args.address)
    return tournament_command(args.root, loaded, options(args), args.entries, setup)


GAMES = 10  # games a pairing and seating unless --games says; automatic battles play one


def _deterministic(args: Args) -> str:
    """Return why an option given cannot apply to automatic battles ('' when none is given that way)."""
    if args.games is not None and args.games != 1:
        return (f"a pairing plays one battle in each seating, and --games {args.games} would play that same "
                "battle again; leave --games out (or give 1)")
    for option, value in (("--seed", args.seed), ("--agent", args.agent)):
        if value is not None:
            return f"{option} changes nothing in them; leave it out"
    return ""


def _tournament_outputs(args: Args) -> tuple[tuple[tuple[str, Path], ...], str]:
    """Return the files --csv, --json and --heatmap ask for, as (format, file), and what is wrong with them."""
    from tools.heatmap import png_problem
    from tools.tournament_out import kind_of, output_problem

    asked = [("csv", p) for p in args.csv] + [("json", p) for p in args.json] + [("heatmap", p) for p in args.heatmap]
    for option, path in asked:
        problem = output_problem(option, path) or (png_problem() if kind_of(option, path) == "png" else "")
        if problem:
            return (), problem
    if len({p.resolve() for _, p in asked}) < len(asked):
        return (), "the same file is named twice among --csv, --json and --heatmap"
    return tuple((kind_of(option, path), path) for option, path in asked), ""


def cmd_gallery(args: Args) -> int:
    from tools.gallery import gallery_command

    missing = missing_ruleset(args.root, args.ruleset)
    if missing:
        print(f"cardc gallery: {missing}", file=sys.stderr)
        return 2
    return gallery_command(args.ruleset, args.out)


HTML = click.option("--html", type=PATH, default=None, help="also write a page that steps through the game")


@click.command(help="Play a game and print its log.\n\n"
                    "RULESET: a compiled ruleset (cards/<ruleset>/). PARTIES: automatic battles: the two party files "
                    "(*.sw); card games: one deck or team a player, as a file or a sample's name (emberguard).",
               epilog=examples("cardc play simple_duel --seed 3",
                               "cardc play code_of_joker --rules v1 --deck v1_roots_and_tides --human 1",
                               "cardc play war_vortex_night emberguard stormtide --agent greedy",
                               "cardc play marguerite cards/marguerite/parties/twins.sw cards/marguerite/parties/venom.sw"))
@click.argument("ruleset")
@click.argument("parties", nargs=-1)
@seed(1)
@click.option("--deck", multiple=True, help="deck name or file (give one per player) [default: the first two "
                                            "legal samples]")
@click.option("--human", type=click.IntRange(min=1), multiple=True, help="player number played by you")
@AGENT
@RULESET_OPTIONS
@HTML
@NO_BUILD
def play(**params: Any) -> Run:
    return Run(cmd_play, params)


@click.command(help="Play every pairing of entries in both seats; print the table.\n\n"
                    "Entries are decks or teams, or for automatic battles parties; N seeded games each (automatic "
                    "battles: one, since nothing in them is random), in W worker processes (the table is the same "
                    "for any W).\n\n"
                    "ENTRIES: decks, teams or parties (files, sample names or folders) [default: every legal "
                    "sample].",
               epilog=examples("cardc tournament simple_duel --games 20 --seed 1",
                               "cardc tournament code_of_joker --rules v2 --json t.json --heatmap t.png",
                               "cardc tournament simple_duel aggro embers --games 1 --workers 1",
                               "cardc tournament marguerite --json m.json --heatmap m.html"))
@click.argument("ruleset")
@click.argument("entries", nargs=-1)
@click.option("--games", type=int, default=None, show_default=f"{GAMES}; automatic battles: 1",
              help="games per pairing and seating")
@click.option("--seed", type=int, default=None, show_default="1", help="the first game's seed (not for "
                                                                         "automatic battles)")
@click.option("--agent", type=click.Choice(["random", "greedy"]), default=None, show_default="random",
              help="how the computer's players choose (not for automatic battles)")
@click.option("--workers", type=int, default=os.cpu_count() or 1, show_default="one a core", help="processes")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="who plays the games: local worker processes or Ray tasks")
@click.option("--address", default=None, show_default="start a local Ray instance",
              help="--backend ray: the Ray cluster to join, HOST:PORT")
@RULESET_OPTIONS
@click.option("--csv", type=PATH, multiple=True, help="also write every figure as CSV")
@click.option("--json", type=PATH, multiple=True, help="also write every figure as JSON")
@click.option("--heatmap", type=PATH, multiple=True,
              help="also draw the matchup matrix as a heat map: FILE.png or FILE.html (may be given twice)")
@NO_BUILD
def tournament(**params: Any) -> Run:
    return Run(cmd_tournament, params)


@click.command(help="Write a searchable HTML page of a ruleset's cards.\n\n"
                    "RULESET: a compiled ruleset. The page is static (no network) and the same bytes for the "
                    "same ruleset.",
               epilog=examples("cardc gallery simple_duel -o site/simple_duel"))
@click.argument("ruleset")
@click.option("-o", "--out", type=PATH, required=True, help="the folder to write (created if missing)")
@NO_BUILD
def gallery(**params: Any) -> Run:
    return Run(cmd_gallery, params)


COMMANDS = (play, tournament, gallery)
