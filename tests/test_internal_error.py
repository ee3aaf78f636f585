"""No traceback ever: a bug in cardc prints one line and saves its traceback; a user's bad input is reported.

The bug is planted in a real `cardc` process (`python -c`): the script replaces a tools function by one
that raises, then calls tools.cli.main, so production code keeps no backdoor for tests. Bad arguments
and files (a missing path, a folder where a file goes, bytes that are not UTF-8, a ruleset not compiled)
each get their message word for word, never the internal-error line (exit 3).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tools import cli
from tools.cli import EXIT_INTERNAL, main

PLANTED = """
import sys
import tools.scenario_runs

def planted(*args, **kwargs):
    raise RuntimeError("planted bug\\n  on two lines")

tools.scenario_runs.run_paths = planted
from tools.cli import main
sys.exit(main(["--root", sys.argv[1], "scenario", sys.argv[2]]))
"""
LINE = re.compile(r"cardc: internal error \(a bug in cardc\): RuntimeError: planted bug on two lines; "
                  r"please report it with the traceback saved in (\S+)")
BAD_UTF8 = b"Quorina: 10/1/1/2/\xff\n"
COMPILED = "(compiled: code_of_joker, marguerite, simple_duel, successor, war_vortex_night); `cardc build` compiles each cards/<ruleset>/ folder"


def _a_scenario() -> Path:
    """Return one scenario file of the project (the planted bugs stop before it runs)."""
    return sorted((ROOT / "tests" / "scenarios").rglob("*.scenario"))[0]


def test_a_planted_bug_prints_one_line_and_saves_its_traceback(tmp_path: Path) -> None:
    scenario = _a_scenario()
    env = {**os.environ, "TMPDIR": str(tmp_path)}  # tempfile's folder: the crash file lands in tmp_path
    done = subprocess.run([sys.executable, "-c", PLANTED, str(ROOT), str(scenario)], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (EXIT_INTERNAL, "")
    assert len(done.stderr.splitlines()) == 1
    found = LINE.fullmatch(done.stderr.rstrip("\n"))
    assert found is not None, done.stderr
    saved = Path(found.group(1))
    assert saved.parent == tmp_path and saved.name.startswith("cardc-crash-") and saved.suffix == ".txt"
    text = saved.read_text(encoding="utf-8")
    assert text.startswith(f"command: cardc --root {ROOT} scenario {scenario}\n")
    assert "Traceback (most recent call last):" in text and "in planted" in text
    assert text.rstrip().endswith("RuntimeError: planted bug\n  on two lines")
    assert sorted(p.name for p in tmp_path.iterdir()) == [saved.name]


def test_a_bug_whose_traceback_cannot_be_saved_still_prints_one_line(monkeypatch: pytest.MonkeyPatch,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    def full(*args: object, **kwargs: object) -> tuple[int, str]:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tempfile, "mkstemp", full)
    assert cli._internal_error(KeyError("x"), ["cardc", "build"]) == EXIT_INTERNAL
    assert capsys.readouterr().err == ("cardc: internal error (a bug in cardc): KeyError: 'x'; please report it "
                                       "(its traceback could not be saved: [Errno 28] No space left on device)\n")


def test_an_interrupt_prints_one_line_and_exits_130(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(*args: object, **kwargs: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr("tools.scenario_runs.run_paths", interrupted)
    assert main(["--root", str(ROOT), "scenario", str(_a_scenario())]) == 130
    assert capsys.readouterr().err == "cardc: interrupted\n"


@pytest.mark.parametrize(("missing", "code", "line"), [
    ("generated.nosuch", 1, f"cardc: no compiled ruleset 'nosuch' {COMPILED}"),
    ("lark", EXIT_INTERNAL, "cardc: internal error (a bug in cardc): ModuleNotFoundError: No module named 'lark'"),
])
def test_a_missing_module_is_a_ruleset_not_compiled_only_under_generated(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
        missing: str, code: int, line: str) -> None:
    def importing(*args: object, **kwargs: object) -> int:  # what a reader naming that module would raise
        raise ModuleNotFoundError(f"No module named '{missing}'", name=missing)

    monkeypatch.setattr("tools.scenario_runs.run_paths", importing)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)  # tempfile caches its folder: read TMPDIR again
    assert main(["--root", str(ROOT), "scenario", str(_a_scenario())]) == code
    assert capsys.readouterr().err.splitlines()[0].startswith(line)


def _bad_files(tmp: Path) -> dict[str, Path]:
    """Return hostile inputs by name: bytes that are not UTF-8 (as a party, a scenario), a folder, a missing path."""
    files = {"bad_sw": tmp / "bad.sw", "bad_scenario": tmp / "bad.scenario", "folder": tmp / "folder.sw",
             "missing": tmp / "missing.sw", "parties": tmp / "parties"}
    for name in ("bad_sw", "bad_scenario"):
        files[name].write_bytes(BAD_UTF8)
    files["folder"].mkdir()
    files["parties"].mkdir()
    (files["parties"] / "bad.sw").write_bytes(BAD_UTF8)
    for name, decks in (("empty_decks", [[], []]), ("one_deck", [["Wickwing Moth"] * 30])):
        files[name] = tmp / f"{name}.replay.json"
        files[name].write_text(json.dumps({"format": "cardc-replay/1", "ruleset": "simple_duel", "seed": 1,
                                           "decks": decks, "choices": []}), encoding="utf-8")
    return files


def _e005(path: Path) -> str:
    return f"{path}:1:19: E005 byte 0xFF is not valid UTF-8 (the file must be UTF-8 text)"


CASES = [  # (arguments, exit code, the first line of stderr); {name} is a file of _bad_files
    (["play", "nosuch"], 2, f"cardc play: no compiled ruleset 'nosuch' {COMPILED}"),
    (["play", "simple_dul"], 2, f"cardc play: no compiled ruleset 'simple_dul'; did you mean 'simple_duel'? {COMPILED}"),
    (["play", "../generated"], 2, f"cardc play: no compiled ruleset '../generated' {COMPILED}"),
    (["tournament", "nosuch", "{parties}"], 2, f"error: no compiled ruleset 'nosuch' {COMPILED}"),
    (["play", "marguerite", "{bad_sw}", "{bad_sw}"], 1, "E005 {bad_sw}"),
    (["play", "marguerite", "{folder}", "{folder}"], 1, "cardc: {folder}: Is a directory"),
    (["play", "marguerite", "{missing}", "{missing}"], 1, "cardc: {missing}: No such file or directory"),
    (["tournament", "marguerite", "{parties}", "bulwark"], 1, "E005 {parties}/bad.sw"),
    (["tournament", "marguerite", "{missing}", "bulwark"], 1, "cardc: {missing}: No such file or directory"),
    (["tournament", "marguerite", "{folder}", "bulwark"], 2,
     "error: a tournament needs 2 or more entries of different names; found bulwark"),
    (["scenario", "{bad_scenario}"], 1, "E005 {bad_scenario}"),
    (["scenario", "{missing}"], 1, "cardc: {missing}: No such file or directory"),
    (["fmt", "{folder}"], 1, "cardc: {folder}: Is a directory"),
    (["replay", "{empty_decks}"], 2, "{empty_decks}:1:77: E201 deck 1 cannot start a game: "
                                     "the deck has 0 cards; it must have exactly 30"),
    (["replay", "{one_deck}"], 2, "{one_deck}:1:76: E209 'decks' holds 1 deck(s); ruleset 'simple_duel' is "
                                  "played by 2"),
]


@pytest.mark.parametrize(("args", "code", "first"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_bad_arguments_and_files_are_reported_not_crashed_on(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             args: list[str], code: int, first: str) -> None:
    files = {name: str(path) for name, path in _bad_files(tmp_path).items()}
    shown = first.format(**files)
    if shown.startswith("E005 "):  # located at the bad byte, with the line and a caret below
        shown = _e005(Path(shown[5:]))
    assert main(["--root", str(ROOT), *(a.format(**files) for a in args)]) == code
    err = capsys.readouterr().err
    assert err.splitlines()[0] == shown, err
    assert "Traceback" not in err and "internal error" not in err
