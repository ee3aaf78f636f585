"""`cardc fmt` of decks, party files, scenarios, battle scenarios and replays (compiler/fmt_sheets.py): word
for word on the cases of tests/fmt/cases.txt, meaning and idempotence on every real file of each format,
a planted printer bug caught, and the command line (`--write` inside the project only)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from compiler import fmt_sheets
from compiler.diagnostics import CompileError
from compiler.fmt_sheets import MeaningChanged, format_kind, format_sheet
from tests.test_parties import Case, cases_of

ROOT = Path(__file__).resolve().parent.parent
CASES_FILE = ROOT / "tests" / "fmt" / "cases.txt"
KINDS = {"deck": ("deck", "deck"), "party": ("party", "sw"), "scenario": ("scenario", "scenario"),
         "battle": ("battle_scenario", "battle"), "team": ("team", "team"), "replay": ("replay", "replay.json")}


def render_case(case: Case) -> str:
    """Return the formatted text of a case's file (without its final newline), or its rendered errors."""
    kind, suffix = KINDS[case.name.split("-", 1)[0]]
    try:
        return format_sheet(case.text, f"case.{suffix}", kind).removesuffix("\n")
    except CompileError as err:
        return "\n".join(d.render(case.text) for d in err.diagnostics)


CASES = cases_of(CASES_FILE, render_case)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_fmt_word_for_word(case):
    assert render_case(case) == case.expect


def test_the_cases_cover_every_format():
    assert {c.name.split("-", 1)[0] for c in CASES} == set(KINDS)


def _real_files() -> list[Path]:
    """Return every file of the project that fmt formats, but the scenarios that pin a syntax error."""
    found = [p for folder in ("cards", "tests") for p in sorted((ROOT / folder).rglob("*")) if format_kind(p)]
    return [p for p in found if "scenario_failures" not in p.parts or "errors" not in p.parts]


REAL = _real_files()


def test_every_real_file_keeps_its_meaning_and_formats_to_itself():
    kinds = {format_kind(p) for p in REAL}
    assert kinds == {k for k, _ in KINDS.values()} and len(REAL) >= 450, (kinds, len(REAL))
    for path in REAL:  # format_sheet parses its own output: a change of AST is MeaningChanged
        kind = format_kind(path)
        assert kind is not None
        pretty = format_sheet(path.read_text(encoding="utf-8"), str(path), kind)
        assert format_sheet(pretty, str(path), kind) == pretty, path


def test_line_ends_and_a_byte_order_mark_are_canonical():
    assert format_sheet("\ufeff2 Ember Squire\r\n# note\r\nKiln Warden\r\n", "x.deck", "deck") == \
        "2 Ember Squire\n# note\nKiln Warden\n"
    assert format_sheet("scenario X\r\nsetup:\r\n\tP1 cp 2\r\n", "x.scenario", "scenario") == \
        "scenario X\nsetup:\n    P1 cp 2\n"


def test_a_printer_that_changes_meaning_is_caught(monkeypatch):
    # a planted bug: the printer drops the last line; the re-parse must refuse to return the text
    real = fmt_sheets._lines
    monkeypatch.setattr(fmt_sheets, "_lines", lambda tokens: "".join(real(tokens).splitlines(True)[:-1]))
    with pytest.raises(MeaningChanged):
        format_sheet("2 Ember Squire\nKiln Warden\n", "x.deck", "deck")


def _cardc(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tools", "--root", str(root), "fmt", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_fmt_write_rewrites_inside_the_project_only(tmp_path: Path):
    project, outside = tmp_path / "project", tmp_path / "stray.deck"
    (project / "decks").mkdir(parents=True)
    inner = project / "decks" / "a.deck"
    for path in (inner, outside):
        path.write_text("2    Ember Squire\n", encoding="utf-8")
    link = project / "decks" / "link.deck"
    link.symlink_to(outside)
    done = _cardc(project, "--write", str(inner), str(outside), str(link))
    assert done.returncode == 1 and done.stdout == f"formatted {inner}\n"
    assert done.stderr.count("refusing to rewrite") == 2, done.stderr
    assert inner.read_text(encoding="utf-8") == "2 Ember Squire\n"
    assert outside.read_text(encoding="utf-8") == "2    Ember Squire\n"


def test_fmt_reports_each_file_and_refuses_unknown_kinds(tmp_path: Path):
    bad, good, other = tmp_path / "bad.deck", tmp_path / "good.sw", tmp_path / "notes.txt"
    bad.write_text("1 Bad\x01Name\n", encoding="utf-8")
    good.write_text("Bram：10/0/0/0/\n", encoding="utf-8")
    other.write_text("hello\n", encoding="utf-8")
    done = _cardc(tmp_path, str(bad), str(good), str(other))
    assert done.returncode == 2 and done.stdout == "Bram: 10/0/0/0/\n"
    assert f"{bad}:1:6: E002 unexpected character U+0001" in done.stderr and "Traceback" not in done.stderr
    assert f"cardc fmt: {other}: not a file cardc formats" in done.stderr
