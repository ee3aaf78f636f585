"""The `cardc` command line: build, check, fmt, play, tournament, scenario, fuzz, try, replay, gallery, watch,
lsp.

Exit codes: 0 success (also when the reader of stdout, such as `| head`, stops early); 1 card errors,
stale generated code, failed scenarios, a bad deck, a fuzz violation or a replay that still fails, a file
that cannot be read, no cards/ folder in the project folder; 2 wrong usage (an unknown command or
option, a bad value, a ruleset that is not compiled); 3 an internal error (a bug in cardc: one line on
stderr, the traceback saved in a file of the system temp folder); 130 interrupted (Ctrl-C).

click parses (tools/cli_project.py, cli_games.py, cli_checks.py declare the commands); `main` runs the
chosen command itself, outside click, so every error is one line of the project's own.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

from compiler.diagnostics import CompileError
from tools import cli_checks, cli_games, cli_project, version
from tools.cli_common import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    PATH,
    Args,
    Run,
    internal_error,
    missing_ruleset,
    print_errors,
    print_report,
)

__all__ = ["EXIT_INTERNAL", "EXIT_INTERRUPTED", "main"]
_print_errors, _print_report, _internal_error = print_errors, print_report, internal_error  # older names, kept
ANYWHERE = ("fmt", "lsp")  # the commands that need no cards/ folder: a file, an editor's folder


class Commands(click.Group):
    """A group that lists its commands in the order they were added (build first), not alphabetically."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Return the command names in the order they were added."""
        return list(self.commands)


def _version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """Print the installed package's version and stop (the --version option's callback)."""
    if not value or ctx.resilient_parsing:
        return
    click.echo(f"cardc {version()}")
    ctx.exit()


@click.group(cls=Commands, help="The card rules compiler.",
             context_settings={"help_option_names": ["-h", "--help"], "show_default": True,
                               "max_content_width": 100},
             epilog="\b\nExamples:\n  cardc build\n  cardc play simple_duel --seed 3\n"
                    "  cardc --root ../my-game check --strict\n  cardc tournament --help")
@click.option("--root", type=PATH, default=Path("."), help="the project folder (the one holding cards/)")
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_version,
              help="print cardc's version and exit")
def cardc(root: Path) -> None:
    """The group's own step: nothing; the chosen command's Run gets the root in _chosen."""


@cardc.result_callback()
def _chosen(run: Run, root: Path) -> tuple[Run, Args]:
    """Return the command's Run and its parameters (lists, not click's tuples), with root and the command."""
    params: dict[str, Any] = {k: list(v) if isinstance(v, tuple) else v for k, v in run.params.items()}
    command = click.get_current_context().invoked_subcommand
    return run, Args(**params, root=root.resolve(), command=command)


ORDER = ("build", "check", "fmt", "play", "tournament", "scenario", "fuzz", "try", "replay", "gallery", "watch", "lsp")
_COMMANDS = {c.name: c for c in (*cli_project.COMMANDS, *cli_games.COMMANDS, *cli_checks.COMMANDS)}
for _name in ORDER:  # the order of `cardc --help`
    cardc.add_command(_COMMANDS[_name])


def main(argv: list[str] | None = None) -> int:
    """Return the exit code of one cardc command (module docstring); a bug prints one line, no traceback."""
    given = sys.argv[1:] if argv is None else list(argv)
    try:
        code = _parsed_and_run(given)
        sys.stdout.flush()  # here, not at exit: a reader gone by now is still met by the handler below
        return code
    except KeyboardInterrupt:
        print("cardc: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return _reader_gone()
    except Exception as err:  # the last resort: no input may show a user a traceback
        return internal_error(err, ["cardc", *given])


def _parsed_and_run(argv: list[str]) -> int:
    """Return the exit code of the command line: a usage error's (2), --help's and --version's (0), or the run's."""
    try:
        chosen = cardc.main(argv, prog_name="cardc", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as err:  # a bare `cardc`: the help, and the usage error's code
        print(err.format_message(), file=sys.stderr)
        return err.exit_code
    except click.ClickException as err:
        print(_one_line(err), file=sys.stderr)
        return err.exit_code
    except click.Abort as err:  # Ctrl-C (or an end of input) while click itself was reading
        raise KeyboardInterrupt from err
    if isinstance(chosen, int):  # --help, --version: click printed it and exited
        return chosen
    run, args = chosen
    return _run(run, args)


def _one_line(err: click.ClickException) -> str:
    """Return a click error as one line naming the command and where its help is."""
    ctx = err.ctx if isinstance(err, click.UsageError) else None
    where = ctx.command_path if ctx is not None else "cardc"
    message = " ".join(err.format_message().split()).rstrip(".")
    if isinstance(err, click.NoSuchOption) and err.option_name == "--root" and ctx is not None and ctx.parent:
        message += f" (--root goes before the command: cardc --root DIR {ctx.info_name})"
    return f"{where}: {message} (see `{where} --help`)"


def _reader_gone() -> int:
    """Return 0 once stdout is pointed at the null device: its reader stopped early (`| head`), which is
    no error, and the output still buffered must not raise again when Python exits."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError):  # no file descriptor behind sys.stdout: nothing is flushed at exit
        pass
    return 0


def _run(run: Run, args: Args) -> int:
    """Return the exit code of the chosen command, reporting each error a user's input can cause."""
    if args.command not in ANYWHERE and not (args.root / "cards").is_dir():
        print(f"cardc: {args.root} has no cards/ folder; give the project folder with --root", file=sys.stderr)
        return 1
    sys.path.insert(0, str(args.root))
    try:
        if "no_build" in run.params:  # a command that runs compiled cards: never old code
            from tools.fresh import ensure_built

            stop = ensure_built(args.root, args.command, args.no_build, print_errors)
            if stop is not None:
                return stop
        return int(run.function(args))
    except CompileError as err:
        print_errors(err, args.root)
        return 1
    except BrokenPipeError:
        raise  # not a file the user named: the reader of stdout is gone (main)
    except OSError as err:  # 'cardc: PATH: Is a directory', as other commands say it
        print(f"cardc: {err.filename}: {err.strerror}" if err.filename and err.strerror else f"cardc: {err}",
              file=sys.stderr)
        return 1
    except ModuleNotFoundError as err:  # a file (a scenario, a replay) may name a ruleset that is not compiled
        parts = (err.name or "").split(".")
        if len(parts) != 2 or parts[0] != "generated":
            raise  # another module is missing: a broken install or build, an internal error
        print(f"cardc: {missing_ruleset(args.root, parts[1])}", file=sys.stderr)
        return 1
