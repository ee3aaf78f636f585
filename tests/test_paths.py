"""The compiler reads card files only under cards/ and writes only under generated/ (and cards/ for fmt),
never through a link."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.build import build, compile_project
from compiler.diagnostics import CompileError
from compiler.files import inside_generated
from runtime.folder_recovery import JOURNAL, read_journal, recover
from tests.conftest import ROOT


def _cardc(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tools", "--root", str(root), *args], cwd=ROOT,
                          capture_output=True, text=True)


def test_outputs_outside_generated_are_refused(tmp_path):
    for rel in ("cards/x.py", "generated/../x.py", "../generated/x.py", "/etc/x.py"):
        with pytest.raises(CompileError) as info:
            inside_generated(tmp_path, rel)
        assert info.value.diagnostics[0].code == "E301"
    assert inside_generated(tmp_path, "generated/a/b.py") == (tmp_path / "generated/a/b.py").resolve()


def test_a_card_file_linking_outside_cards_is_refused(project: Path, tmp_path: Path):
    secret = tmp_path / "outside.card"
    secret.write_text('card "X" {\n    kind creature\n}\n', encoding="utf-8")
    os.symlink(secret, project / "cards" / "simple_duel" / "linked.card")
    with pytest.raises(CompileError) as info:
        compile_project(project)
    [d] = info.value.diagnostics
    assert (d.code, d.path) == ("E301", "cards/simple_duel/linked.card")
    assert "links outside cards/" in d.message


def test_fmt_write_refuses_files_outside_cards(project: Path, tmp_path: Path):
    stray = tmp_path / "stray.card"
    stray.write_text('card "X" {\nkind creature\n}\n', encoding="utf-8")
    result = _cardc(project, "fmt", "--write", str(stray))
    assert result.returncode == 1 and "refusing to rewrite" in result.stderr
    assert stray.read_text(encoding="utf-8") == 'card "X" {\nkind creature\n}\n'
    inner = project / "cards" / "simple_duel" / "ugly.card"
    inner.write_text('card "Ugly Toad" {\nkind   creature\n  cost 1 mana\n stats power 1, speed 1}\n', encoding="utf-8")
    result = _cardc(project, "fmt", "--write", str(inner))
    assert result.returncode == 0, result.stderr
    assert inner.read_text(encoding="utf-8").startswith('card "Ugly Toad" {\n    kind creature\n')


def test_build_writes_nothing_outside_generated(project: Path):
    before = {p for p in project.rglob("*") if "generated" not in p.parts}
    assert _cardc(project, "build").returncode == 0
    after = {p for p in project.rglob("*") if "generated" not in p.parts}
    assert after == before


@pytest.fixture
def small(project: Path) -> Path:
    """Return the project with a smaller Simple Duel (ruleset, keywords, counters): the same paths, faster builds."""
    for card in ("creatures", "spells", "keep_spells"):
        (project / "cards" / "simple_duel" / f"{card}.card").unlink()
    return project


def _outside(tmp_path: Path) -> Path:
    """Return a folder outside the project holding one file, to see that nothing is written into it."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("untouched\n", encoding="utf-8")
    return outside


def _contents(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_generated_folder_linking_outside_the_project_is_refused_before_anything_is_written(small, tmp_path):
    project = small
    outside = _outside(tmp_path)
    os.symlink(outside, project / "generated")
    with pytest.raises(CompileError) as info:
        build(project)
    [d] = info.value.diagnostics
    assert d.render(None) == (f"generated:1:1: E301 this folder is a link to {outside.resolve()} (outside the project); "
                              "expected a real folder of the project: refusing to write through it")
    assert _contents(outside) == {"keep.txt": b"untouched\n"}
    result = _cardc(project, "build")  # the command: the error, and exit code 1 as for any card error
    assert (result.returncode, result.stdout, result.stderr) == (1, "", f"{d.render(None)}\n1 error\n")
    assert _contents(outside) == {"keep.txt": b"untouched\n"}


def test_a_ruleset_folder_or_a_generated_file_that_is_a_link_is_refused(small, tmp_path):
    project = small
    outside = _outside(tmp_path)
    build(project)
    gen = project / "generated"
    before = _contents(gen)
    shutil.rmtree(gen / "simple_duel")
    os.symlink(outside, gen / "simple_duel")
    with pytest.raises(CompileError) as info:
        build(project)
    assert [d.render(None) for d in info.value.diagnostics] == [
        f"generated/simple_duel:1:1: E301 this folder is a link to {outside.resolve()} (outside the project); "
        "expected a real folder of the project: refusing to write through it"]
    (gen / "simple_duel").unlink()
    build(project)
    (gen / "simple_duel" / "keywords.py").unlink()
    os.symlink(outside / "keep.txt", gen / "simple_duel" / "keywords.py")
    (gen / "__init__.py").unlink()
    os.symlink(project / "cards" / "simple_duel" / "ruleset.card", gen / "__init__.py")  # inside the project
    with pytest.raises(CompileError) as info:
        build(project)
    assert [d.render(None) for d in info.value.diagnostics] == [
        "generated/__init__.py:1:1: E301 this file is a link to cards/simple_duel/ruleset.card; expected a real file "
        "of the project: refusing to write through it",
        f"generated/simple_duel/keywords.py:1:1: E301 this file is a link to {(outside / 'keep.txt').resolve()} "
        "(outside the project); expected a real file of the project: refusing to write through it"]
    assert _contents(outside) == {"keep.txt": b"untouched\n"}
    assert (project / "cards" / "simple_duel" / "ruleset.card").read_text(encoding="utf-8").startswith("# Simple Duel")
    for link in (gen / "__init__.py", gen / "simple_duel" / "keywords.py"):
        link.unlink()
    build(project)  # the links gone, the build puts the real files back
    assert _contents(gen) == before


def test_a_link_loop_is_a_located_refusal_not_a_crash(small):
    project = small
    build(project)
    gen = project / "generated" / "simple_duel"
    os.symlink("loop_b.py", gen / "loop_a.py")
    os.symlink("loop_a.py", gen / "loop_b.py")
    with pytest.raises(CompileError) as info:
        build(project)
    assert [d.render(None) for d in info.value.diagnostics] == [
        "generated/simple_duel/loop_a.py:1:1: E301 this path is a link to loop_b.py (a loop of links); expected a "
        "real folder or file of the project: refusing to write through it",
        "generated/simple_duel/loop_b.py:1:1: E301 this path is a link to loop_a.py (a loop of links); expected a "
        "real folder or file of the project: refusing to write through it"]
    with pytest.raises(CompileError):
        inside_generated(project, "generated/simple_duel/loop_a.py")
    for name in ("loop_a.py", "loop_b.py"):
        (gen / name).unlink()
    os.symlink("loop.card", project / "cards" / "simple_duel" / "loop.card")
    with pytest.raises(CompileError) as info:
        build(project)
    assert [d.render(None) for d in info.value.diagnostics] == [
        "cards/simple_duel/loop.card:1:1: E301 this card file links outside cards/; refusing to read it"]


def test_inside_generated_refuses_a_generated_folder_that_is_a_link(tmp_path):
    outside = _outside(tmp_path)
    root = tmp_path / "project"
    root.mkdir()
    os.symlink(outside, root / "generated")
    with pytest.raises(CompileError) as info:
        inside_generated(root, "generated/keep.txt")
    assert info.value.diagnostics[0].message == "refusing to write outside generated/: generated/keep.txt"


def test_a_leftover_link_in_generated_is_removed_not_followed(small, tmp_path):
    project = small
    outside = _outside(tmp_path)
    build(project)
    gen = project / "generated"
    os.symlink(outside, gen / ".cardc-simple_duel")  # where a build stages; and a moved-aside folder
    os.symlink(outside, gen / ".cardc-old-other")
    (gen / "simple_duel" / "counters.py").unlink()
    build(project)
    assert not list(gen.rglob(".cardc-*")) and (gen / "simple_duel" / "counters.py").is_file()
    assert _contents(outside) == {"keep.txt": b"untouched\n"}


def test_recovery_never_acts_through_a_link_or_on_a_journal_naming_paths(tmp_path):
    outside = _outside(tmp_path)
    (outside / ".cardc-old-simple_duel").mkdir()  # as a killed build leaves a ruleset folder moved aside
    root = tmp_path / "project"
    root.mkdir()
    os.symlink(outside, root / "generated")
    assert recover(root / "generated") == []
    assert (outside / ".cardc-old-simple_duel").is_dir() and not (outside / "simple_duel").exists()
    gen = tmp_path / "generated"
    gen.mkdir()
    for plan in ({"switch": ["../outside"], "remove": [], "write": [], "delete": []},
                 {"switch": [], "remove": ["../outside"], "write": [], "delete": ["../outside/keep.txt"]},
                 {"switch": [], "remove": [], "write": ["/etc/passwd"], "delete": []}, ["not", "a", "plan"]):
        (gen / JOURNAL).write_text(json.dumps(plan), encoding="utf-8")
        assert read_journal(gen) is None
        recover(gen)
        assert _contents(outside) == {"keep.txt": b"untouched\n"}
