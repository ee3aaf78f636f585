"""Never run old code: commands that run compiled cards rebuild a stale generated/ first, or refuse with
--no-build, and a card error found by that rebuild stops them (tools/fresh.py, compiler/freshness.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.build import build
from compiler.freshness import outdated
from tests.conftest import ROOT

RULESET = Path("cards/simple_duel/ruleset.card")


def cli(root: Path, *args: str) -> subprocess.CompletedProcess:
    """Run `python -m tools --root ROOT ...` in a fresh interpreter."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "tools", "--root", str(root), *args], cwd=root, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture
def built(tmp_path: Path, built_snapshot: Path) -> Path:
    """A private copy of the session's built project."""
    root = tmp_path / "built"
    shutil.copytree(built_snapshot, root)
    return root


def edit(root: Path, rel: Path, old: str, new: str) -> None:
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_fresh_project_has_no_reasons_and_each_change_is_named(built):
    assert outdated(built) == []
    edit(built, RULESET, "starts at 20", "starts at 7")
    (built / "cards/simple_duel/counters.card").unlink()
    (built / "cards/simple_duel/extra.card").write_text("", encoding="utf-8")
    module = built / "generated/successor/keywords.py"
    module.write_text(module.read_text(encoding="utf-8") + "# a hand edit\n", encoding="utf-8")
    assert outdated(built) == ["cards/simple_duel/extra.card is new", "cards/simple_duel/ruleset.card changed",
                               "cards/simple_duel/counters.card was removed",
                               "generated/successor/keywords.py was edited"]


def test_the_check_parses_nothing(built, monkeypatch):
    import compiler.parser

    def refuse(*args, **kwargs):
        raise AssertionError("the freshness check parsed a file")

    monkeypatch.setattr(compiler.parser, "parse", refuse)
    edit(built, RULESET, "starts at 20", "starts at 7")
    assert outdated(built) == ["cards/simple_duel/ruleset.card changed"]


def test_play_rebuilds_a_stale_project_first_and_plays_the_new_cards(built):
    before = cli(built, "play", "simple_duel", "--seed", "3")
    assert before.returncode == 0 and before.stderr == ""
    edit(built, RULESET, "starts at 20", "starts at 7")
    after = cli(built, "play", "simple_duel", "--seed", "3")
    assert after.returncode == 0, after.stderr
    assert after.stderr == ("cardc play: rebuilt generated/simple_duel/ruleset.py "
                            "(cards/simple_duel/ruleset.card changed)\n")
    assert after.stdout != before.stdout
    again = cli(built, "play", "simple_duel", "--seed", "3")
    assert again.stderr == "" and again.stdout == after.stdout  # built once: the next run is fresh
    assert outdated(built) == []


@pytest.mark.parametrize("command", [
    ["play", "simple_duel"], ["scenario", "tests/scenarios/simple_duel/R-SD-01.scenario"],
    ["tournament", "simple_duel", "--games", "1"], ["fuzz", "cards/simple_duel", "--games", "1"],
    ["try", "Sparkjaw Imp", "--games", "1"], ["replay", "x.replay.json"]])
def test_no_build_refuses_a_stale_project_naming_the_command_to_run(built, command):
    edit(built, RULESET, "starts at 20", "starts at 7")
    done = cli(built, *command, "--no-build")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (f"cardc {command[0]}: generated/ is stale (cards/simple_duel/ruleset.card changed); "
                           "run `cardc build`\n")
    assert outdated(built) == ["cards/simple_duel/ruleset.card changed"]  # nothing was built


def test_a_card_error_found_by_the_rebuild_stops_the_command(built):
    creatures = built / "cards/simple_duel/creatures.card"
    text = creatures.read_text(encoding="utf-8")
    line = text[:text.index("kind creature")].count("\n") + 1
    creatures.write_text(text.replace("kind creature", "kind creture", 1), encoding="utf-8")
    tree = {p: p.read_bytes() for p in (built / "generated").rglob("*.py")}
    done = cli(built, "play", "simple_duel")
    assert done.returncode == 1 and done.stdout == ""  # no game was played with the old code
    lines = done.stderr.splitlines()
    assert lines[0].startswith(f"cards/simple_duel/creatures.card:{line}:10: E") and "creture" in lines[0]
    assert lines[2].strip() == "^"
    assert lines[-1] == ("cardc play: not run: the rebuild for cards/simple_duel/creatures.card changed found card "
                         "errors; generated/ is unchanged")
    assert {p: p.read_bytes() for p in (built / "generated").rglob("*.py")} == tree


def test_edits_of_registries_package_files_and_stray_modules_are_named(built):
    registry = built / "generated/simple_duel/__init__.py"
    registry.write_text(registry.read_text(encoding="utf-8").replace("RULESET = ", "RULESET =  "), encoding="utf-8")
    package = built / "generated/__init__.py"
    package.write_text(package.read_text(encoding="utf-8") + "import os\n", encoding="utf-8")
    (built / "generated/stray.py").write_text("", encoding="utf-8")
    (built / "generated/successor/deep").mkdir()
    (built / "generated/successor/deep/x.py").write_text("", encoding="utf-8")
    (built / "generated/stray_folder").mkdir()
    (built / "generated/stray_folder/y.py").write_text("", encoding="utf-8")
    assert outdated(built) == ["generated/__init__.py was edited", "generated/stray.py is not built from any card file",
                               "generated/simple_duel/__init__.py was edited",
                               "generated/successor/deep/x.py is not built from any card file",
                               "generated/stray_folder/ has no card folder cards/stray_folder/"]


def test_a_build_of_a_fresh_project_parses_and_renders_nothing(built, monkeypatch):
    import compiler.folder_build

    def refuse(*args, **kwargs):
        raise AssertionError("a no-op build parsed or rendered a file")

    monkeypatch.setattr(compiler.folder_build, "parse", refuse)
    monkeypatch.setattr(compiler.folder_build, "render", refuse)
    report = build(built)
    assert report.actions and {action for action, _ in report.actions} == {"unchanged"}
    edit(built, RULESET, "starts at 20", "starts at 7")  # stale now: the build parses, renders, writes
    with pytest.raises(AssertionError, match="parsed or rendered"):
        build(built)


def test_a_build_repairs_what_the_freshness_check_names(built):
    registry = built / "generated/simple_duel/__init__.py"
    good = registry.read_text(encoding="utf-8")
    registry.write_text(good + "HAND_EDIT = 1\n", encoding="utf-8")
    (built / "generated/__init__.py").write_text("", encoding="utf-8")
    report = build(built)
    assert {p for action, p in report.actions if action == "wrote"} == {
        "generated/__init__.py", "generated/simple_duel/__init__.py"}
    assert registry.read_text(encoding="utf-8") == good and outdated(built) == []
