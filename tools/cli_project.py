"""The `cardc` commands about the project's files: build, check, fmt, watch and lsp."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from compiler.diagnostics import CompileError
from tools.cli_common import PATH, Args, Run, examples, internal_error, print_errors, print_report


def cmd_build(args: Args) -> int:
    from compiler.build import build

    return print_report(build(args.root), args.verbose)


def cmd_check(args: Args) -> int:
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


def cmd_fmt(args: Args) -> int:
    from compiler.build import read_source
    from compiler.files import inside

    status = 0
    for path in args.files:
        try:
            pretty, text = _formatted(path, read_source(path, str(path)))
        except CompileError as err:
            print_errors(err, args.root)
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


def cmd_watch(args: Args) -> int:
    from tools.watch import Printers, watch_command

    return watch_command(args.root, args.path, args.once, Printers(print_errors, print_report, internal_error),
                         args.restarted)


def cmd_lsp(args: Args) -> int:
    from tools.lsp.server import run

    return run(args.root)


@click.command(help="Compile cards/ into generated/ (only what changed).",
               epilog=examples("cardc build", "cardc --root ../my-game build -v"))
@click.option("-v", "--verbose", is_flag=True, help="also list unchanged files")
def build(**params: Any) -> Run:
    return Run(cmd_build, params)


@click.command(help="Validate every card file; fail if generated/ is stale.",
               epilog=examples("cardc check", "cardc check --strict"))
@click.option("--strict", is_flag=True, help="fail (exit 1) on warnings too")
def check(**params: Any) -> Run:
    return Run(cmd_check, params)


@click.command(help="Print files in canonical form (--write: rewrite them).\n\n"
                    "FILES: .card, .deck, .sw, .scenario, .battle, .team and .replay.json files; comments are kept.",
               epilog=examples("cardc fmt cards/simple_duel/creatures.card",
                               "cardc fmt --write cards/simple_duel/decks/*.deck"))
@click.argument("files", nargs=-1, required=True, type=PATH)
@click.option("--write", is_flag=True, help="rewrite the files in place (inside the project folder only)")
def fmt(**params: Any) -> Run:
    return Run(cmd_fmt, params)


@click.command(help="Rebuild on save; rerun what the changed files touch.\n\n"
                    "What they touch: the scenario and battle files naming a changed card, and a quick fuzz check "
                    "of each changed card file. "
                    "PATH: a ruleset folder, card file or scenario folder to watch [default: cards/, tests/scenarios/ "
                    "and tests/battles/].",
               epilog=examples("cardc watch", "cardc watch cards/simple_duel/spells.card",
                               "cardc watch --once"))
@click.argument("path", required=False, type=PATH)
@click.option("--once", is_flag=True, help="one round over every watched file, then exit with its code")
@click.option("--restarted", type=PATH, multiple=True, hidden=True)  # tools/watch.py passes them on a restart
def watch(**params: Any) -> Run:
    return Run(cmd_watch, params)


@click.command(help="The language server for editors (stdin and stdout).\n\nSee docs/editor.md.",
               epilog=examples("cardc lsp", "cardc --root ~/my-game lsp"))
def lsp(**params: Any) -> Run:
    return Run(cmd_lsp, params)


COMMANDS = (build, check, fmt, watch, lsp)
