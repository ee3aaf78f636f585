"""compiler/layout.py gives black's text without running black on every line: the two must agree on every
module the real cards and the synthetic pool make, and a template change black would undo must show."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import black
import pytest

from benchmarks.pool import synthetic_pool
from compiler import build as b
from compiler import emit
from compiler.layout import BLACK_MODE, black_style
from tests.conftest import ROOT


def rendered(root: Path, monkeypatch) -> list[str]:
    """Return every text a build of the project renders, as the templates write it."""
    texts: list[str] = []

    def recorded(text: str) -> str:
        texts.append(text)
        return black_style(text)

    with monkeypatch.context() as patched:
        patched.setattr(emit, "black_style", recorded)
        b.compile_project(root)
    return texts


def disagreements(texts: list[str]) -> Iterator[str]:
    """Yield the first line of each text whose fast layout is not black's."""
    return (t.split("\n", 1)[0] for t in texts if black_style(t) != black.format_str(t, mode=BLACK_MODE))


@pytest.fixture
def real(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "cards", tmp_path / "cards")
    return tmp_path


def test_the_fast_layout_is_blacks_on_the_real_cards(real, monkeypatch):
    texts = rendered(real, monkeypatch)
    assert len(texts) > 50 and list(disagreements(texts)) == []


def test_the_fast_layout_is_blacks_on_a_sample_of_the_synthetic_pool(tmp_path, monkeypatch):
    synthetic_pool(tmp_path, 1500)
    copies = [t for t in rendered(tmp_path, monkeypatch) if "_copy" in t.split("\n", 1)[0]]  # the real: above
    assert len(copies) > 20 and list(disagreements(copies)) == []


@pytest.mark.parametrize(("old", "new"), [
    ("{% if cls.late_fields and (cls.functions or cls.inner) %}\n\n{% endif %}\n", ""),  # a blank line black adds
    ("    {{ field.name }} = {{ field.code }}", "    {{ field.name }}={{ field.code }}"),  # spacing black restores
])
def test_a_template_change_black_would_undo_is_caught(real, tmp_path, monkeypatch, old, new):
    templates = tmp_path / "templates"
    shutil.copytree(emit.TEMPLATES, templates)
    planted = templates / "class.py.j2"
    text = planted.read_text(encoding="utf-8")
    assert old in text
    planted.write_text(text.replace(old, new), encoding="utf-8")
    monkeypatch.setattr(emit, "TEMPLATES", templates)
    emit._env.cache_clear()
    try:
        assert next(disagreements(rendered(real, monkeypatch)), None)
    finally:
        emit._env.cache_clear()


@pytest.mark.parametrize("statement", [
    "x = ('a', 'b',)",  # a magic trailing comma
    "x = (a(), b(),)",
    "x = (a(),)",  # a one-element tuple's comma is not magic
    "x = (a, )",  # but its space goes
    "x = f(a,)",  # a call's is magic
    "x = (a)",
    "x = ()",
    "    return (a <= 3) and b",  # parentheses black keeps
    "    return ((a <= 3) or b)",
    "    return (fx.stat(s, [c], 'bp') <= 3000)",  # parentheses black drops
    "y = [(a)]",
    "z = a ** b",
    "w = 'it\\'s'",
    "v = " + repr("x" * 90),  # fits in parentheses on its own line: black wraps it
    "u = " + repr("x" * 120),  # fits nowhere: black leaves it
    "t = f(" + ", ".join(f"argument_{i}" for i in range(12)) + ")",
])
def test_each_kind_of_statement_black_changes_comes_out_as_black_writes_it(statement):
    text = ("class A:\n    def f(self):\n" + statement + "\n") if statement.startswith(" ") else statement + "\n"
    text = text.replace("\n    return", "\n        return")
    assert black_style(text) == black.format_str(text, mode=BLACK_MODE)


def test_text_it_cannot_take_a_statement_at_a_time_goes_to_black_whole():
    text = "X = {\n    'a': " + repr("y" * 100) + ",\n}\n"
    assert black_style(text) == black.format_str(text, mode=BLACK_MODE)
