"""Error messages, word for word: every diagnostic a bad card folder gets, rendered with its caret.

CARDC_UPDATE_ERRORS=1 rewrites the expected texts from the compiler's current output (review the diff).

The cases live in tests/errors/cases.txt (format described at its top), so adding a case needs no
Python edit. Each case is compiled as a ruleset folder holding a copy of the real Simple Duel
ruleset plus the case's files.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from compiler.build import compile_project
from compiler.diagnostics import CompileError, Diagnostic, did_you_mean, quoted_list
from tests.conftest import RULESET_FILE

CASES_FILE = Path(__file__).resolve().parent / "errors" / "cases.txt"
FOLDER = "game"


@dataclass(frozen=True)
class Case:
    name: str
    files: tuple[tuple[str, str], ...]
    expect: str


def _section_text(lines: list[str]) -> str:
    while lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines)


def load_cases(path: Path = CASES_FILE) -> list[Case]:
    """Return the cases of a cases file, in file order."""
    cases: list[Case] = []
    name: str | None = None
    files: list[tuple[str, list[str]]] = []
    expect: list[str] | None = None
    current: list[str] | None = None

    def finish() -> None:
        if name is None:
            return
        assert expect is not None, f"case {name!r} has no '--- expect' section"
        assert files, f"case {name!r} has no '--- file:' section"
        texts = tuple((f, _section_text(ls) + "\n" if _section_text(ls) else "") for f, ls in files)
        cases.append(Case(name, texts, _section_text(expect)))

    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("=== case: "):
            finish()
            name, files, expect, current = line[len("=== case: "):].strip(), [], None, None
        elif name is None:
            continue
        elif line.startswith("--- file: "):
            current = []
            files.append((line[len("--- file: "):].strip(), current))
        elif line.startswith("--- expect"):
            expect = current = []
        else:
            assert current is not None, f"text outside a section in case {name!r}: {line!r}"
            current.append(line)
    finish()
    return cases


def _rewrite_expectations(path: Path = CASES_FILE) -> None:
    """Rewrite every case's '--- expect' section with what the compiler says now (review the diff)."""
    import tempfile

    out, skipping = [], False
    cases = {c.name: c for c in load_cases(path)}
    name = None
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("=== case: "):
            name, skipping = line[len("=== case: "):].strip(), False
        if line.startswith("--- expect") and name in cases:
            with tempfile.TemporaryDirectory() as tmp:
                out += [line, *_compile(Path(tmp), cases[name].files).split("\n"), ""]
            skipping = True
            continue
        if skipping and line.startswith("=== "):
            skipping = False
        if not skipping:
            out.append(line)
    path.write_text("\n".join(out), encoding="utf-8")


CASES = load_cases()


def compile_case(tmp_path: Path, files: tuple[tuple[str, str], ...]) -> str:
    """Compile a ruleset folder with the case's files; return every diagnostic rendered."""
    return _compile(tmp_path, files)


def _compile(tmp_path: Path, files: tuple[tuple[str, str], ...]) -> str:
    folder = tmp_path / "cards" / FOLDER
    folder.mkdir(parents=True)
    shutil.copyfile(RULESET_FILE, folder / "ruleset.card")
    for file_name, text in files:
        (folder / file_name).write_bytes(text.encode("utf-8"))
    try:
        compile_project(tmp_path)
    except CompileError as err:
        diagnostics = err.diagnostics
    else:
        raise AssertionError("the case compiled without errors")
    assert diagnostics == sorted(diagnostics, key=Diagnostic.sort_key)
    rendered = []
    for d in diagnostics:
        source = (tmp_path / d.path).read_bytes().decode("utf-8", errors="replace")
        rendered.append(d.render(source))
    return "\n".join(rendered)


if os.environ.get("CARDC_UPDATE_ERRORS"):
    _rewrite_expectations()
    CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_error_messages_word_for_word(tmp_path, case):
    assert compile_case(tmp_path, case.files) == case.expect


def test_cases_file_is_well_formed_and_broad():
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)), "case names must be unique"
    assert len(CASES) >= 24
    codes = {m for c in CASES for m in re.findall(r"^\S+:\d+:\d+: (E\d{3}) ", c.expect, re.M)}
    required = {"E001", "E002", "E003", "E006", "E101", "E102", "E103", "E104", "E105", "E106", "E107", "E108",
                "E110"}
    assert required <= codes, f"no case for {sorted(required - codes)}"
    # E101 is checked for every kind of name it can be about.
    unknowns = {m for c in CASES for m in re.findall(r"E101 unknown (card kind|stat|resource|keyword or status|"
                                                      r"keyword|status|phase|zone|card|name) ", c.expect)}
    assert unknowns == {"card kind", "stat", "resource", "keyword or status", "keyword", "status", "phase",
                        "zone", "card", "name"}
    assert any("did you mean" in c.expect for c in CASES if "E001" in c.expect)


def test_every_expected_line_has_a_source_line_and_caret():
    for case in CASES:
        lines = case.expect.split("\n")
        heads = [i for i, line in enumerate(lines) if re.match(r"^\S+:\d+:\d+: E\d{3} ", line)]
        assert len(heads) * 3 == len(lines), case.name
        for i in heads:
            col = int(lines[i].split(":")[2])
            assert lines[i + 2] == "    " + " " * (col - 1) + "^", case.name


def test_file_that_is_not_utf8(tmp_path):
    folder = tmp_path / "cards" / FOLDER
    folder.mkdir(parents=True)
    shutil.copyfile(RULESET_FILE, folder / "ruleset.card")
    (folder / "bad.card").write_bytes(b'card "Gob\xfflin" {\n    kind creature\n}\n')
    with pytest.raises(CompileError) as info:
        compile_project(tmp_path)
    [d] = info.value.diagnostics
    assert (d.code, d.path, d.line, d.col) == ("E005", "cards/game/bad.card", 1, 10)
    assert d.render(None) == ("cards/game/bad.card:1:10: E005 byte 0xFF is not valid UTF-8 "
                              "(the file must be UTF-8 text)")


def test_every_folder_is_checked_and_errors_are_sorted_across_folders(tmp_path):
    for folder in ("zeta", "alpha"):
        (tmp_path / "cards" / folder).mkdir(parents=True)
        shutil.copyfile(RULESET_FILE, tmp_path / "cards" / folder / "ruleset.card")
        (tmp_path / "cards" / folder / "bad.card").write_text('card "X" {\n    kind creture\n}\n')
    with pytest.raises(CompileError) as info:
        compile_project(tmp_path)
    assert [d.path for d in info.value.diagnostics] == ["cards/alpha/bad.card", "cards/zeta/bad.card"]
    assert str(info.value) == (
        "cards/alpha/bad.card:2:10: E101 unknown card kind 'creture'; did you mean 'creature'?\n"
        "cards/zeta/bad.card:2:10: E101 unknown card kind 'creture'; did you mean 'creature'?")


# ---------------------------------------------------------------- the rendering helpers themselves


def test_render_without_source_or_outside_it_is_the_head_only():
    d = Diagnostic("E101", "unknown stat 'x'", "a.card", 3, 5)
    assert d.render(None) == "a.card:3:5: E101 unknown stat 'x'"
    assert d.render("one line\n") == "a.card:3:5: E101 unknown stat 'x'"
    assert Diagnostic("E103", "m", "a.card", 0, 0).render("x\n") == "a.card:0:0: E103 m"


def test_render_puts_the_caret_under_the_column_and_tabs_count_as_one_column():
    d = Diagnostic("E101", "unknown card kind 'creture'", "a.card", 2, 7)
    assert d.render('card "A" {\n\tkind creture\n}\n') == (
        "a.card:2:7: E101 unknown card kind 'creture'\n"
        "     kind creture\n"
        "          ^")


def test_did_you_mean_and_quoted_list():
    assert did_you_mean("creture", ["spell", "creature"]) == "; did you mean 'creature'?"
    assert did_you_mean("FRENZY", ["Frenzy"]) == "; did you mean 'Frenzy'?"
    assert did_you_mean("zzz", ["creature"]) == ""
    assert quoted_list(["b", "a", "b"]) == "'a', 'b'"
    assert quoted_list("abcdefghij", limit=3) == "'a', 'b', 'c' (and 7 more)"


def test_compile_error_sorts_its_diagnostics():
    later = Diagnostic("E101", "b", "a.card", 2, 1)
    earlier = Diagnostic("E101", "a", "a.card", 1, 9)
    other_file = Diagnostic("E101", "a", "0.card", 9, 9)
    err = CompileError([later, earlier, other_file])
    assert err.diagnostics == [other_file, earlier, later]
