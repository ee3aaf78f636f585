"""Issue 17's build-speed pieces: the output of a build across processes and black's view of generated/."""

from __future__ import annotations

import shutil

import black
import pytest

from benchmarks.pool import synthetic_pool
from compiler import build as b
from compiler.emit import BLACK_MODE
from tests.conftest import ROOT


def test_a_build_across_processes_writes_what_one_process_writes(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "cards", tmp_path / "cards")
    serial = [(o.path, o.text) for o in b.compile_project(tmp_path)]
    monkeypatch.setattr(b, "PARALLEL_BYTES", 0)
    monkeypatch.setenv("CARDC_JOBS", "2")
    assert [(o.path, o.text) for o in b.compile_project(tmp_path)] == serial


def test_a_card_error_found_in_a_worker_is_reported_located(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "cards", tmp_path / "cards")
    (tmp_path / "cards" / "simple_duel" / "broken.card").write_text('card "Broken" {\n    kind creture\n}\n')
    monkeypatch.setattr(b, "PARALLEL_BYTES", 0)
    monkeypatch.setenv("CARDC_JOBS", "2")
    with pytest.raises(b.CompileError) as err:
        b.compile_project(tmp_path)
    assert [(d.path, d.line) for d in err.value.diagnostics] == [("cards/simple_duel/broken.card", 2)]


@pytest.mark.parametrize("path", sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "generated").rglob("*.py")))
def test_black_leaves_every_generated_file_as_it_is(path):
    text = (ROOT / path).read_text(encoding="utf-8")
    assert black.format_str(text, mode=BLACK_MODE) == text


def test_the_synthetic_pool_renames_every_copied_card_and_is_the_same_every_time(tmp_path):
    first = synthetic_pool(tmp_path / "a", 1500)
    again = synthetic_pool(tmp_path / "b", 1500)
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*.card"))
    assert first == again >= 1500
    assert all((tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files)
    copy = (tmp_path / "a" / "cards" / "simple_duel" / "creatures_copy000.card").read_text(encoding="utf-8")
    assert 'card "Wickwing Moth Copy Ba"' in copy and 'card "Wickwing Moth"' not in copy


def test_the_synthetic_pool_compiles(tmp_path):
    synthetic_pool(tmp_path, 1500)
    outputs = b.compile_project(tmp_path)
    assert len({o.path for o in outputs}) == len(outputs) > len(list((ROOT / "cards").rglob("*.card")))


def test_text_warnings_found_across_processes_are_those_found_in_one(tmp_path, monkeypatch):
    from compiler.rules_check import project_warnings

    shutil.copytree(ROOT / "cards", tmp_path / "cards")
    card = tmp_path / "cards" / "simple_duel" / "creatures.card"
    card.write_text(card.read_text(encoding="utf-8").replace('text "Driftstep."', 'text "Draw 3 cards."', 1),
                    encoding="utf-8")
    serial = project_warnings(tmp_path)
    monkeypatch.setattr(b, "PARALLEL_BYTES", 0)
    monkeypatch.setenv("CARDC_JOBS", "2")
    assert project_warnings(tmp_path) == serial
    assert any(d.path == "cards/simple_duel/creatures.card" for d in serial)
