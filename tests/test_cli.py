"""The `cardc` command line on click: --version, help with defaults and examples for every command,
one-line usage errors with their exit codes, a closed pipe, and Ctrl-C; through real `cardc` processes
and main([...])."""

from __future__ import annotations

import re
import shlex
import signal
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tools.cli import ORDER, cardc, main

CARDC = [sys.executable, "-m", "tools"]  # the `cardc` script runs the same main (pyproject's scripts)
WITH_DEFAULTS = {"play", "tournament", "fuzz", "try"}  # the commands with an option whose default is a value


def _cardc(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([*CARDC, *args], cwd=cwd, capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)


def test_version_prints_the_installed_packages_version() -> None:
    done = _cardc("--version")
    assert (done.returncode, done.stdout, done.stderr) == (0, f"cardc {metadata.version('cardc')}\n", "")


def test_the_top_help_lists_every_command_in_order() -> None:
    done = _cardc("--help")
    assert done.returncode == 0
    listed = [line.split()[0] for line in done.stdout.split("Commands:\n")[1].split("\n\n")[0].splitlines()]
    assert listed == list(ORDER)
    assert "[default: .]" in done.stdout


@pytest.mark.parametrize("command", ORDER)
def test_each_commands_help_shows_its_defaults_and_examples(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Usage: cardc {command} ")
    assert re.search(rf"\n  Examples:\n    cardc (--root \S+ )?{command}\b", out), out
    assert "[default: " in out or command not in WITH_DEFAULTS, out


@pytest.mark.parametrize("command", ORDER)
def test_every_example_in_a_help_parses(command: str) -> None:
    """An example naming an option the command lacks would be a usage error: each one parses."""
    epilog = cardc.commands[command].epilog or ""
    lines = [line.strip() for line in epilog.splitlines() if line.strip().startswith("cardc ")]
    assert lines
    for line in lines:  # parsed as main parses, not run: click returns what main would run
        run, args = cardc.main(shlex.split(line)[1:], prog_name="cardc", standalone_mode=False)
        assert args.command == command and callable(run.function), line


BAD = [  # (arguments, exit code, the one line of stderr)
    (["play", "nosuch"], 2, "cardc play: no compiled ruleset 'nosuch' (compiled: code_of_joker, marguerite, "
                            "simple_duel, successor, war_vortex_night); `cardc build` compiles each cards/<ruleset>/ "
                            "folder"),
    (["play", "simple_duel", "--deck", "nosuch"], 2,
     "cardc play: no deck or team 'nosuch' in cards/simple_duel/ (there: aggro, control, embers, mixed, tempo)"),
    (["play", "simple_duel", "--deck", "{tmp}/missing.deck"], 1, "cardc: {tmp}/missing.deck: No such file or directory"),
    (["play", "simple_duel", "--human", "3"], 2,
     "cardc play: --human 3: no such seat; the players are numbered 1 to 2"),
    (["play", "marguerite", "--option", "foo=bar"], 2, "cardc play: ruleset 'marguerite' has no option 'foo'"),
    (["play", "marguerite", "--option", "overkill=zzz"], 2,
     "cardc play: option 'overkill' is one of fewer_wins, more_wins, not 'zzz'"),
    (["tournament", "simple_duel", "--games", "many"], 2,
     "cardc tournament: Invalid value for '--games': 'many' is not a valid integer (see `cardc tournament --help`)"),
    (["play", "simple_duel", "--sed", "3"], 2,
     "cardc play: No such option '--sed'. Did you mean '--seed'? (see `cardc play --help`)"),
    (["check", "--root", "."], 2, "cardc check: No such option '--root' (--root goes before the command: cardc "
                                  "--root DIR check) (see `cardc check --help`)"),
    (["frobnicate"], 2, "cardc: No such command 'frobnicate' (see `cardc --help`)"),
    (["play", "simple_duel", "--option", "crisis"], 2,
     "cardc play: Invalid value for '--option': expected NAME=VALUE, found 'crisis' (see `cardc play --help`)"),
    (["--root", "{tmp}", "play", "simple_duel"], 1,
     "cardc: {tmp} has no cards/ folder; give the project folder with --root"),
]


@pytest.mark.parametrize(("args", "code", "line"), BAD, ids=[" ".join(b[0]) for b in BAD])
def test_a_bad_argument_is_one_line_with_its_exit_code(tmp_path: Path, args: list[str], code: int, line: str) -> None:
    done = _cardc(*(a.format(tmp=tmp_path.resolve()) for a in args))
    assert (done.returncode, done.stdout) == (code, ""), done.stderr
    assert done.stderr == line.format(tmp=tmp_path.resolve()) + "\n"


def test_outside_a_project_the_folder_is_named(tmp_path: Path) -> None:
    done = _cardc("play", "simple_duel", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"cardc: {tmp_path.resolve()} has no cards/ folder; give the project folder with --root\n"


def test_options_and_arguments_come_in_any_order(capsys: pytest.CaptureFixture[str]) -> None:
    before = ["tournament", "simple_duel", "aggro", "embers", "--games", "1", "--workers", "1"]
    after = ["tournament", "--games", "1", "--workers", "1", "simple_duel", "--agent", "random", "aggro", "embers"]
    assert main(before) == 0
    first = capsys.readouterr().out
    assert main(after) == 0
    assert capsys.readouterr().out == first and first.startswith("entry ")


def test_a_reader_that_stops_early_leaves_no_noise_and_exit_0() -> None:
    proc = subprocess.Popen([*CARDC, "play", "simple_duel", "--seed", "1"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # as `| head -1` does
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 0
    assert first.startswith(b"setup: P") and err == ""


def test_ctrl_c_stops_watch_with_130() -> None:
    proc = subprocess.Popen([*CARDC, "watch", "cards/simple_duel"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        while line and not line.startswith("watching "):  # the watch is in place: Ctrl-C now stops it
            line = proc.stdout.readline()
        assert line.startswith("watching cards/simple_duel (Ctrl-C to stop)"), line
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 130
        assert err.splitlines()[-1] == "cardc: interrupted" and "Traceback" not in err
    finally:
        proc.kill()
        proc.wait()
