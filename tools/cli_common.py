"""What every `cardc` command shares: the options several commands take, the printers of errors and
reports, the lookup of compiled rulesets, and the one-line report of an internal error.

A command's click callback only returns `Run(function, params)`; tools/cli.py runs it after parsing,
outside click, so that interrupts, closed pipes and bugs are reported the project's way.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import TYPE_CHECKING, Any

import click

from compiler.diagnostics import CompileError, did_you_mean

if TYPE_CHECKING:
    from compiler.build import Report

EXIT_INTERNAL = 3  # a bug in cardc, never the user's input; 0, 1 and 2 as in tools/fuzzing.py
EXIT_INTERRUPTED = 130  # the shell's code for a command stopped by SIGINT (128 + 2)
Args = SimpleNamespace  # a command's parameters by name, with root and command added by tools/cli.py
Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


@dataclass(frozen=True)
class Run:
    """What a parsed command line asks for: the function to call and its parameters (by option name)."""

    function: Callable[[Args], int]
    params: dict[str, Any]


def examples(*lines: str) -> str:
    """Return a help epilog that lists example command lines, kept as written (click's \\b)."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)


class OptionItem(click.ParamType):
    """A ruleset option given as NAME=VALUE."""

    name = "NAME=VALUE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        """Return the text when it holds a '=', else fail as a usage error."""
        if "=" not in value:
            self.fail(f"expected NAME=VALUE, found '{value}'", param, ctx)
        return str(value)


def stack(*decorators: Decorator) -> Decorator:
    """Return one decorator applying several, the first given outermost (as if written above each other)."""
    def apply(function: Callable[..., Any]) -> Callable[..., Any]:
        for decorator in reversed(decorators):
            function = decorator(function)
        return function
    return apply


PATH = click.Path(path_type=Path)  # not checked here: each command reports a missing file its own way
AGENT = click.option("--agent", type=click.Choice(["random", "greedy"]), default="random", show_default=True,
                     help="how the computer's players choose")
RULES = click.option("--rules", default=None, metavar="VERSION",
                     help="the rules version (option 'version'), e.g. v1 or v2 [default: the ruleset's own]")
OPTION = click.option("--option", "option", type=OptionItem(), multiple=True,
                      help="a ruleset option NAME=VALUE (may be given several times)")
NO_BUILD = click.option("--no-build", is_flag=True,
                        help="refuse a stale generated/ instead of rebuilding it first")
RULESET_OPTIONS = stack(RULES, OPTION)


def seed(default: int, text: str = "the game's seed") -> Decorator:
    """Return the --seed option with its default."""
    return click.option("--seed", type=int, default=default, show_default=True, help=text)


def print_errors(err: CompileError, root: Path) -> None:
    """Print every diagnostic with its source line and caret."""
    for d in err.diagnostics:
        path = root / d.path
        source = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
        print(d.render(source), file=sys.stderr)
    n = len(err.diagnostics)
    print(f"{n} error{'s' * (n != 1)}", file=sys.stderr)


def print_report(report: Report, verbose: bool) -> int:
    """Print what a build wrote or removed (and with verbose what it left unchanged) and the counts; return 0."""
    for action, path in report.actions:
        if action != "unchanged" or verbose:
            print(f"{action:9} {path}")
    counts = {a: sum(1 for x, _ in report.actions if x == a) for a in ("wrote", "removed", "unchanged")}
    print(f"{counts['wrote']} written, {counts['removed']} removed, {counts['unchanged']} unchanged")
    return 0


def options(args: Args) -> dict[str, str]:
    """Return the ruleset options of --rules VERSION and --option NAME=VALUE."""
    chosen = dict(item.split("=", 1) for item in args.option)
    if args.rules:
        chosen["version"] = args.rules
    return chosen


def automatic(ruleset: str) -> bool:
    """Return whether a compiled ruleset plays automatic battles (swordsmen, no decisions)."""
    module = compiled(ruleset)  # None: not built (or no such ruleset): the caller reports it its own way
    return module is not None and bool(module.RULESET.automatic)


def compiled(ruleset: str) -> ModuleType | None:
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


def missing_ruleset(root: Path, ruleset: str) -> str:
    """Return why no compiled ruleset is named ruleset ('' when one is), naming those there are."""
    if compiled(ruleset) is not None:
        return ""
    built = sorted(p.parent.name for p in (root / "generated").glob("*/__init__.py") if compiled(p.parent.name))
    return (f"no compiled ruleset '{ruleset}'{did_you_mean(ruleset, built)} (compiled: {', '.join(built) or 'none'}); "
            "`cardc build` compiles each cards/<ruleset>/ folder")


def internal_error(err: Exception, command: list[str]) -> int:
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
