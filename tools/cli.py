"""The `cardc` command line: build, check, fmt, play, tournament, scenario, fuzz, try, replay, gallery, watch,
lsp.

Exit codes: 0 success; 1 card errors, stale generated code, failed scenarios, a bad deck, a fuzz
violation or a replay that still fails, a file that cannot be read; 2 wrong usage; 3 an internal error
(a bug in cardc: one line on stderr, the traceback saved in a file of the system temp folder); 130
interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from compiler.diagnostics import CompileError, did_you_mean

if TYPE_CHECKING:
    from compiler.build import Report

EXIT_INTERNAL = 3  # a bug in cardc, never the user's input; 0, 1 and 2 as in tools/fuzzing.py
EXIT_INTERRUPTED = 130  # the shell's code for a command stopped by SIGINT (128 + 2)


def _print_errors(err: CompileError, root: Path) -> None:
    """Print every diagnostic with its source line and caret."""
    for d in err.diagnostics:
        path = root / d.path
        source = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
        print(d.render(source), file=sys.stderr)
    n = len(err.diagnostics)
    print(f"{n} error{'s' * (n != 1)}", file=sys.stderr)


def cmd_build(args: argparse.Namespace) -> int:
    from compiler.build import build

    return _print_report(build(args.root), args.verbose)


def _print_report(report: Report, verbose: bool) -> int:
    """Print what a build wrote or removed (and with verbose what it left unchanged) and the counts; return 0."""
    for action, path in report.actions:
        if action != "unchanged" or verbose:
            print(f"{action:9} {path}")
    counts = {a: sum(1 for x, _ in report.actions if x == a) for a in ("wrote", "removed", "unchanged")}
    print(f"{counts['wrote']} written, {counts['removed']} removed, {counts['unchanged']} unchanged")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from compiler.build import stale

    diffs = stale(args.root)
    if diffs:
        sys.stdout.write("".join(diffs))
        print(f"generated/ is stale: {len(diffs)} file(s) differ; run `cardc build`", file=sys.stderr)
        return 1
    if _print_warnings(args.root) and args.strict:
        print("cardc check --strict: warnings count as errors", file=sys.stderr)
        return 1
    print("all card files are valid and generated/ is up to date")
    return 0


def _print_warnings(root: Path) -> int:
    """Print every text warning (a card's text against its abilities) with its caret; return how many."""
    from compiler.rules_check import project_warnings

    warnings = project_warnings(root)
    for d in warnings:
        path = root / d.path
        print(d.render(path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None), file=sys.stderr)
    if warnings:
        print(f"{len(warnings)} warning{'s' * (len(warnings) != 1)}", file=sys.stderr)
    return len(warnings)


def cmd_fmt(args: argparse.Namespace) -> int:
    from compiler.build import read_source
    from compiler.files import inside

    status = 0
    for path in args.files:
        try:
            pretty, text = _formatted(path, read_source(path, str(path)))
        except CompileError as err:
            _print_errors(err, args.root)
            status = 1
            continue
        if pretty is None:
            print(f"cardc fmt: {path}: not a file cardc formats (.card, .deck, .sw, .scenario, .battle, .team, "
                  ".replay.json)", file=sys.stderr)
            status = max(status, 2)
        elif not args.write:
            sys.stdout.write(pretty)
        elif not inside(args.root, path):  # links followed: a link out of the project is refused too
            print(f"cardc: refusing to rewrite {path}: it is not inside the project folder {args.root}",
                  file=sys.stderr)
            status = max(status, 1)
        elif pretty != text:
            from compiler.files import write_atomic

            write_atomic(path, pretty)
            print(f"formatted {path}")
    return status


def _formatted(path: Path, text: str) -> tuple[str | None, str]:
    """Return a file's canonical text (None for a kind of file cardc does not format) and its text."""
    from compiler.fmt import format_text
    from compiler.fmt_sheets import format_kind, format_sheet

    if path.suffix == ".card":
        return format_text(text, str(path)), text
    kind = format_kind(path)
    return (format_sheet(text, str(path), kind) if kind else None), text


def cmd_play(args: argparse.Namespace) -> int:
    from runtime.battle.rules import load_rules
    from tools.battle.play import battle_command
    from tools.play import play_command

    missing = _missing_ruleset(args.root, args.ruleset)
    if missing:
        print(f"cardc play: {missing}", file=sys.stderr)
        return 2
    if _automatic(args.ruleset):
        if args.human:  # tools/human.py has nothing to ask: no player decides anything in these battles
            print(f"cardc play: {args.ruleset} plays automatic battles: no player makes a decision, so there is no "
                  "seat for --human; leave it out to watch the battle's log", file=sys.stderr)
            return 2
        return battle_command(args.root, load_rules(args.ruleset), args.parties, _options(args), args.html)
    return play_command(args.root, args.ruleset, args.seed, args.deck + args.parties, args.human, args.agent,
                        _options(args), args.html)


def _automatic(ruleset: str) -> bool:
    """Return whether a compiled ruleset plays automatic battles (swordsmen, no decisions)."""
    module = _compiled(ruleset)  # None: not built (or no such ruleset): the caller reports it its own way
    return module is not None and bool(module.RULESET.automatic)


def _compiled(ruleset: str) -> ModuleType | None:
    """Return the module generated.<ruleset>, or None when no ruleset of that name is compiled."""
    import importlib

    from runtime.folder_recovery import SAFE_NAME, restore_package

    if not SAFE_NAME.match(ruleset):  # '../x', 'a.b': never a ruleset, and never handed to the importer
        return None
    restore_package(ruleset)
    try:
        return importlib.import_module(f"generated.{ruleset}")
    except ModuleNotFoundError as err:
        if err.name in ("generated", f"generated.{ruleset}"):
            return None
        raise  # a module the compiled ruleset itself imports is missing: an internal error


def _missing_ruleset(root: Path, ruleset: str) -> str:
    """Return why no compiled ruleset is named ruleset ('' when one is), naming those there are."""
    if _compiled(ruleset) is not None:
        return ""
    built = sorted(p.parent.name for p in (root / "generated").glob("*/__init__.py") if _compiled(p.parent.name))
    return (f"no compiled ruleset '{ruleset}'{did_you_mean(ruleset, built)} (compiled: {', '.join(built) or 'none'}); "
            "`cardc build` compiles each cards/<ruleset>/ folder")


def cmd_tournament(args: argparse.Namespace) -> int:
    from runtime.battle.rules import load_rules
    from runtime.load import load_game
    from tools.battle.play import tournament_command as battles
    from tools.tournament import Setup, tournament_command

    missing = _missing_ruleset(args.root, args.ruleset)
    outputs, problem = _tournament_outputs(args)
    if missing or problem:
        print(f"error: {missing or problem}", file=sys.stderr)
        return 2
    if _automatic(args.ruleset):
        if len(args.entries) > 1 or outputs:
            print("error: a tournament of automatic battles plays the party files of one folder and prints its "
                  "table (no --csv, --json or --heatmap)", file=sys.stderr)
            return 2
        folder = Path(args.entries[0]) if args.entries else args.root / "cards" / args.ruleset / "parties"
        return battles(load_rules(args.ruleset), folder, _options(args))
    try:
        game = load_game(args.ruleset).with_options(_options(args))
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    setup = Setup(args.games, args.seed, args.agent, args.workers, outputs, args.backend, args.address)
    return tournament_command(args.root, game, _options(args), args.entries, setup)


def _tournament_outputs(args: argparse.Namespace) -> tuple[tuple[tuple[str, Path], ...], str]:
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


def _options(args: argparse.Namespace) -> dict[str, str]:
    """Return the ruleset options of --rules VERSION and --option NAME=VALUE."""
    options = dict(item.split("=", 1) for item in args.option)
    if args.rules:
        options["version"] = args.rules
    return options


def _option_item(text: str) -> str:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, found '{text}'")
    return text


def cmd_scenario(args: argparse.Namespace) -> int:
    from compiler.build import read_source
    from tools.scenario_runs import discover_files, run_paths

    for path in discover_files(args.root, args.paths):  # bytes that are not UTF-8: E005, located, before any runs
        read_source(path, str(path))
    return run_paths(args.root, args.paths, args.update, args.full_log, args.exact_lines)


def cmd_fuzz(args: argparse.Namespace) -> int:
    from tools.fuzz_targets import project_ruleset
    from tools.fuzzing import PROFILE_GAMES, fuzz_command

    folder = args.path.resolve()
    default = PROFILE_GAMES.get(os.environ.get("CARDC_PROFILE", "ci"), PROFILE_GAMES["ci"])
    games = default if args.games is None else args.games
    if folder.parent == (args.root / "cards").resolve() and folder.is_dir() and _automatic(folder.name):
        from runtime.battle.rules import load_rules
        from tools.battle.fuzz import fuzz_battles

        return fuzz_battles(load_rules(folder.name), games, args.seed, _options(args), args.out,
                            sys.stdout, sys.stderr)
    card_file = args.path.suffix == ".card" and args.path.is_file()
    inside = project_ruleset(args.root, args.path) if card_file else None
    battle_ruleset = inside or args.ruleset
    if card_file and battle_ruleset and _automatic(battle_ruleset):  # a sword, state or enchantment file
        from tools.battle.targets import fuzz_card_file

        return fuzz_card_file(args.root, args.path, battle_ruleset, inside is not None, games, args.seed,
                              _options(args), args.out, sys.stdout, sys.stderr)
    return fuzz_command(args.root, args.path, args.games, args.seed, args.out, args.ruleset, args.shrink_seconds,
                        options=_options(args))


def cmd_try(args: argparse.Namespace) -> int:
    from tools.trying import try_command

    return try_command(args.root, args.card, args.ruleset, args.games, args.against, args.seed, _options(args),
                       args.out)


def cmd_replay(args: argparse.Namespace) -> int:
    from tools.replay import replay_command

    return replay_command(args.root, args.file, args.scenario, html=args.html)


def cmd_gallery(args: argparse.Namespace) -> int:
    from tools.gallery import gallery_command

    missing = _missing_ruleset(args.root, args.ruleset)
    if missing:
        print(f"cardc gallery: {missing}", file=sys.stderr)
        return 2
    return gallery_command(args.ruleset, args.out)


def cmd_watch(args: argparse.Namespace) -> int:
    from tools.watch import Printers, watch_command

    return watch_command(args.root, args.path, args.once, Printers(_print_errors, _print_report, _internal_error),
                         args.restarted)


def cmd_lsp(args: argparse.Namespace) -> int:
    from tools.lsp.server import run

    return run(args.root)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cardc", description="The card rules compiler.")
    p.add_argument("--root", type=Path, default=Path("."), help="project folder (default: .)")
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="compile cards/ into generated/ (only what changed)")
    b.add_argument("-v", "--verbose", action="store_true", help="also list unchanged files")
    b.set_defaults(func=cmd_build)
    c = sub.add_parser("check", help="validate every card file; fail if generated/ is stale")
    c.add_argument("--strict", action="store_true", help="fail (exit 1) on warnings too")
    c.set_defaults(func=cmd_check)
    f = sub.add_parser("fmt", help="print card, deck, party, scenario and replay files in canonical form")
    f.add_argument("files", nargs="+", type=Path)
    f.add_argument("--write", action="store_true", help="rewrite the files in place")
    f.set_defaults(func=cmd_fmt)
    pl = sub.add_parser("play", help="play a game and print its log")
    pl.add_argument("ruleset")
    pl.add_argument("parties", nargs="*", help="automatic battles: the two party files (*.sw); card games: one deck "
                                               "or team a player, as a file or a sample's name (emberguard)")
    pl.add_argument("--seed", type=int, default=1)
    pl.add_argument("--deck", action="append", default=[], help="deck name or file (give one per player)")
    pl.add_argument("--human", type=int, action="append", default=[], help="player number played by you")
    pl.add_argument("--agent", choices=("random", "greedy"), default="random")
    pl.add_argument("--rules", default=None, help="the rules version (option 'version'), e.g. v1 or v2")
    pl.add_argument("--option", type=_option_item, action="append", default=[], help="a ruleset option NAME=VALUE")
    pl.add_argument("--html", type=Path, default=None, help="also write a page that steps through the game")
    pl.set_defaults(func=cmd_play)
    tr = sub.add_parser("tournament", help="every pairing of decks or teams in both seats (automatic battles: "
                                           "of the party files in a folder)")
    tr.add_argument("ruleset")
    tr.add_argument("entries", nargs="*", help="decks or teams (files, sample names or folders; default: every "
                                               "sample); automatic battles: one folder")
    tr.add_argument("--games", type=int, default=10, help="games per pairing and seating (default: 10)")
    tr.add_argument("--seed", type=int, default=1)
    tr.add_argument("--agent", choices=("random", "greedy"), default="random")
    tr.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: one a core)")
    tr.add_argument("--backend", choices=("local", "ray"), default="local",
                    help="who plays the games: local worker processes (default) or Ray tasks")
    tr.add_argument("--address", default=None,
                    help="--backend ray: the Ray cluster to join, HOST:PORT (default: start a local one)")
    tr.add_argument("--option", type=_option_item, action="append", default=[], help="a ruleset option NAME=VALUE")
    tr.add_argument("--rules", default=None, help="the rules version (option 'version'), e.g. v1 or v2")
    tr.add_argument("--csv", type=Path, action="append", default=[], help="also write every figure as CSV")
    tr.add_argument("--json", type=Path, action="append", default=[], help="also write every figure as JSON")
    tr.add_argument("--heatmap", type=Path, action="append", default=[],
                    help="also draw the matchup matrix as a heat map: FILE.png or FILE.html (may be given twice)")
    tr.set_defaults(func=cmd_tournament)
    sc = sub.add_parser("scenario", help="run scenario and battle files (default: tests/scenarios/ and tests/battles/)")
    sc.add_argument("paths", nargs="*", type=Path)
    sc.add_argument("--update", action="store_true", help="rewrite expected logs from actual runs")
    sc.add_argument("--full-log", action="store_true", help="under a failure, print the whole game log, not its tail")
    sc.add_argument("--exact-lines", action="store_true",
                    help="compare the card-file lines of '(cards.card:12)' in logs too (ignored by default)")
    sc.set_defaults(func=cmd_scenario)
    fz = sub.add_parser("fuzz", help="play checked random games around cards; shrink and save the first violation")
    fz.add_argument("path", type=Path, help="a ruleset folder, a .card file or a .deck file")
    fz.add_argument("--games", type=int, default=None, help="games to play (default: 200; 5000 with CARDC_PROFILE=long)")
    fz.add_argument("--seed", type=int, default=0)
    fz.add_argument("--out", type=Path, default=None, help="replay file to write on a violation")
    fz.add_argument("--ruleset", default=None, help="the ruleset of a card or deck file outside cards/")
    fz.add_argument("--shrink-seconds", type=float, default=120.0, help="time limit for shrinking")
    fz.add_argument("--rules", default=None, help="the rules version (option 'version'), e.g. v1 or v2")
    fz.add_argument("--option", type=_option_item, action="append", default=[], help="a ruleset option NAME=VALUE")
    fz.set_defaults(func=cmd_fuzz)
    tt = sub.add_parser("try", help="a one-card playtest: the card in a sample deck, N checked games, what each "
                                    "of its abilities did")
    tt.add_argument("card", help="the card's name, as its card file spells it")
    tt.add_argument("--ruleset", default=None, help="the ruleset, when several have a card of that name")
    tt.add_argument("--games", type=int, default=20, help="games to play (default: 20)")
    tt.add_argument("--against", default=None, help="the opponent: a sample's name or a deck or team file "
                                                    "(default: every other sample, in turn)")
    tt.add_argument("--seed", type=int, default=1, help="the first game's seed; game N has seed + N - 1")
    tt.add_argument("--out", type=Path, default=None, help="replay file to write if a game breaks an invariant")
    tt.add_argument("--rules", default=None, help="the rules version (option 'version'), e.g. v1 or v2")
    tt.add_argument("--option", type=_option_item, action="append", default=[], help="a ruleset option NAME=VALUE")
    tt.set_defaults(func=cmd_try)
    rp = sub.add_parser("replay", help="replay a fuzz replay file; exit 1 while it still fails")
    rp.add_argument("file", type=Path)
    rp.add_argument("--scenario", type=Path, default=None, help="once it passes, write a regression scenario here")
    rp.add_argument("--html", type=Path, default=None, help="also write a page that steps through the game")
    rp.set_defaults(func=cmd_replay)
    ga = sub.add_parser("gallery", help="write a static, searchable HTML page of every card of a ruleset")
    ga.add_argument("ruleset")
    ga.add_argument("-o", "--out", type=Path, required=True, help="the folder to write (created if missing)")
    ga.set_defaults(func=cmd_gallery)
    wa = sub.add_parser("watch", help="rebuild on save; rerun the scenarios and quick checks the changed files touch")
    wa.add_argument("path", nargs="?", type=Path, default=None,
                    help="a ruleset folder, card file or scenario folder to watch (default: cards/, tests/scenarios/ "
                         "and tests/battles/)")
    wa.add_argument("--once", action="store_true", help="one round over every watched file, then exit with its code")
    wa.add_argument("--restarted", type=Path, action="append", default=[], help=argparse.SUPPRESS)  # tools/watch.py
    wa.set_defaults(func=cmd_watch)
    ls = sub.add_parser("lsp", help="the language server for editors, on stdin and stdout (docs/editor.md)")
    ls.set_defaults(func=cmd_lsp)
    for runs_cards in (pl, tr, sc, fz, tt, rp, ga):
        _add_no_build(runs_cards)
    return p


def _add_no_build(sub: argparse.ArgumentParser) -> None:
    """Give a command that runs compiled cards its --no-build flag (tools/fresh.py)."""
    sub.add_argument("--no-build", action="store_true",
                     help="refuse a stale generated/ instead of rebuilding it first")


def main(argv: list[str] | None = None) -> int:
    """Return the exit code of one cardc command (module docstring); a bug prints one line, no traceback."""
    args = parser().parse_args(argv)
    try:
        return _run(args)
    except KeyboardInterrupt:
        print("cardc: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as err:  # the last resort: no input may show a user a traceback
        return _internal_error(err, ["cardc", *(sys.argv[1:] if argv is None else argv)])


def _run(args: argparse.Namespace) -> int:
    """Return the exit code of the chosen command, reporting each error a user's input can cause."""
    args.root = args.root.resolve()
    if args.command in ("build", "check", "watch") and not (args.root / "cards").is_dir():
        print(f"cardc: {args.root} has no cards/ folder; give the project folder with --root", file=sys.stderr)
        return 1
    sys.path.insert(0, str(args.root))
    try:
        if hasattr(args, "no_build"):  # a command that runs compiled cards: never old code
            from tools.fresh import ensure_built

            stop = ensure_built(args.root, args.command, args.no_build, _print_errors)
            if stop is not None:
                return stop
        return int(args.func(args))
    except CompileError as err:
        _print_errors(err, args.root)
        return 1
    except OSError as err:  # 'cardc: PATH: Is a directory', as other commands say it
        print(f"cardc: {err.filename}: {err.strerror}" if err.filename and err.strerror else f"cardc: {err}",
              file=sys.stderr)
        return 1
    except ModuleNotFoundError as err:  # a file (a scenario, a replay) may name a ruleset that is not compiled
        parts = (err.name or "").split(".")
        if len(parts) != 2 or parts[0] != "generated":
            raise  # another module is missing: a broken install or build, an internal error
        print(f"cardc: {_missing_ruleset(args.root, parts[1])}", file=sys.stderr)
        return 1


def _internal_error(err: Exception, command: list[str]) -> int:
    """Return EXIT_INTERNAL after printing one line that names the error and where its traceback is."""
    message = " ".join(str(err).split())  # one line, whatever the exception's text holds
    what = f"{type(err).__name__}: {message[:300]}" if message else type(err).__name__
    try:
        where = f"please report it with the traceback saved in {_save_traceback(err, command)}"
    except OSError as failed:  # a full or read-only temp folder: still one line, still no traceback
        where = f"please report it (its traceback could not be saved: {failed})"
    print(f"cardc: internal error (a bug in cardc): {what}; {where}", file=sys.stderr)
    return EXIT_INTERNAL


def _save_traceback(err: Exception, command: list[str]) -> str:
    """Return the path of a new file in the system temp folder holding the command and err's traceback."""
    # The temp folder, not the project: --root may name any folder, read-only or not a project at all,
    # and mkstemp creates a file of its own (O_EXCL, mode 0600) that no link can redirect.
    fd, path = tempfile.mkstemp(prefix=f"cardc-crash-{time.strftime('%Y%m%d-%H%M%S')}-", suffix=".txt")
    with os.fdopen(fd, "w", encoding="utf-8", errors="replace") as out:
        out.write(f"command: {' '.join(command)}\npython: {sys.version.split()[0]}\n\n")
        out.write("".join(traceback.format_exception(type(err), err, err.__traceback__)))
    return path
