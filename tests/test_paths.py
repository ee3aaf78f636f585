"""The compiler reads card files only under cards/ and writes only under generated/ (and cards/ for fmt)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.build import compile_project
from compiler.diagnostics import CompileError
from compiler.files import inside_generated
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
