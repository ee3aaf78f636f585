"""Party files (runtime/battle/parties.py): good files, the canonical form, the creation budget, and
every error message word for word.

The error cases live in tests/errors/parties.txt (format described at its top), so adding a case needs
no Python edit. CARDC_UPDATE_ERRORS=1 rewrites their expected texts from the current output (review the
diff).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compiler.diagnostics import CODES, CompileError
from compiler.party_files import load_party, parse_party
from runtime.battle.parties import Budget, SwordsmanSpec, format_swordsman

CASES_FILE = Path(__file__).resolve().parent / "errors" / "parties.txt"
PATH = "parties/case.sw"

SWORDS = {"Slash Sword": "Slash Sword", "斬撃剣": "Slash Sword", "斬": "Slash Sword",
          "Shock Sword": "Shock Sword", "衝撃剣": "Shock Sword", "衝": "Shock Sword",
          "Shield Sword": "Shield Sword", "盾の剣": "Shield Sword", "盾": "Shield Sword",
          "Heating Sword": "Heating Sword", "加熱剣": "Heating Sword", "熱": "Heating Sword"}
OTHERS = {"Wall": "a built swordsman"}
BUDGET = Budget(10, {"max_hp": 5, "atk": 1, "def": 1, "spd": 1, "sword": 1})
HEAD = re.compile(r"^parties/case\.sw:(\d+):(\d+): (E\d{3}) (.*)$")


# ---------------------------------------------------------------- the error cases, as data


@dataclass(frozen=True)
class Case:
    name: str
    text: str
    budget: bool
    expect: str


def _section_text(lines: list[str]) -> str:
    while lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines)


def load_cases(path: Path = CASES_FILE) -> list[Case]:
    """Return the cases of a cases file, in file order."""
    cases: list[Case] = []
    name: str | None = None
    file: list[str] | None = None
    expect: list[str] | None = None
    budget = False
    current: list[str] | None = None

    def finish() -> None:
        if name is None:
            return
        assert file is not None, f"case {name!r} has no '--- file' section"
        assert expect is not None, f"case {name!r} has no '--- expect' section"
        text = _section_text(file)
        cases.append(Case(name, text + "\n" if text else "", budget, _section_text(expect)))

    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("=== case: "):
            finish()
            name, file, expect, budget, current = line[len("=== case: "):].strip(), None, None, False, None
        elif name is None:
            continue
        elif line in ("--- file", "--- file with budget"):
            file = current = []
            budget = line.endswith("with budget")
        elif line == "--- expect":
            expect = current = []
        else:
            assert current is not None, f"text outside a section in case {name!r}: {line!r}"
            current.append(line)
    finish()
    return cases


def render_case(case: Case) -> str:
    """Return every problem of the case's file rendered, joined by newlines."""
    with pytest.raises(CompileError) as info:
        parse_party(case.text, PATH, SWORDS, OTHERS, BUDGET if case.budget else None)
    return "\n".join(p.render(case.text) for p in info.value.diagnostics)


def rewrite_expectations(path: Path = CASES_FILE, render: Callable[[Case], str] | None = None) -> None:
    """Rewrite every case's '--- expect' section with what the reader says now (review the diff)."""
    render = render or render_case
    out: list[str] = []
    cases = {c.name: c for c in load_cases(path)}
    name, skipping = None, False
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("=== case: "):
            name, skipping = line[len("=== case: "):].strip(), False
        if line == "--- expect" and name in cases:
            out += [line, *render(cases[name]).split("\n"), ""]
            skipping = True
        elif not skipping:
            out.append(line)
    path.write_text("\n".join(out), encoding="utf-8")


def problems_of(read: Callable[[], object], text: str) -> str:
    """Return every problem a reader raises for a text, rendered and joined by newlines ('' for none)."""
    try:
        read()
    except CompileError as err:
        return "\n".join(d.render(text) for d in err.diagnostics)
    return ""


def cases_of(path: Path, render: Callable[[Case], str]) -> list[Case]:
    """Return the cases of a cases file, first rewriting its expectations when CARDC_UPDATE_ERRORS is set."""
    if os.environ.get("CARDC_UPDATE_ERRORS"):
        rewrite_expectations(path, render)
    return load_cases(path)


CASES = cases_of(CASES_FILE, render_case)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_error_messages_word_for_word(case):
    assert render_case(case) == case.expect


def test_cases_file_is_well_formed_and_broad():
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)), "case names must be unique"
    assert len(CASES) >= 12
    heads = [HEAD.match(line) for c in CASES for line in c.expect.split("\n") if line.startswith("parties/")]
    messages = {(m[3], re.sub(r"'[^']*'|\d+", "_", m[4])) for m in heads if m}
    assert messages == {
        ("E202", "unknown sword _; did you mean _?"), ("E202", "unknown sword _"),
        ("E206", "_ is a built swordsman, not a sword"),
        ("E001", "unexpected end of the line; expected _"), ("E001", "unexpected _; expected _ or the end of the line"),
        ("E001", "unexpected _; expected a swordsman's name or the end of the line"),
        ("E204", "expected a whole number _ or more for HP, found _"), ("E204", "HP must be at most _, found a number of _ digits"),
        ("E002", "unexpected character U+_; expected _"),
        ("E204", "expected a whole number _ or more for ATK, found _"),
        ("E204", "expected a whole number _ or more for DEF, found _"),
        ("E204", "expected a whole number _ or more for SPD, found _"),
        ("E204", "empty sword name between separators"), ("E204", "swordsman _ is listed twice"),
        ("E204", "the party file lists no swordsman"),
        ("E205", "HP _ is not a multiple of _"), ("E205", "_ spends _ points; the budget is exactly _"),
        ("E205", "_ spends _ point; the budget is exactly _")}
    assert any(len(_heads(c)) >= 4 and len({h[0] for h in _heads(c)}) >= 2 for c in CASES), \
        "no case with several errors on several lines"


def _heads(case: Case) -> list[tuple[int, int]]:
    return [(int(m[1]), int(m[2])) for m in map(HEAD.match, case.expect.split("\n")) if m]


def test_every_expected_head_has_its_source_line_and_caret_in_source_order():
    for case in CASES:
        lines = case.expect.split("\n")
        heads = _heads(case)
        assert heads == sorted(heads), case.name
        assert len(heads) * 3 == len(lines), case.name
        for i, (line, col) in enumerate(heads):
            shown = "".join(ch if ch.isprintable() else "\ufffd" for ch in case.text.split("\n")[line - 1])
            assert lines[3 * i + 1] == "    " + shown, case.name
            assert lines[3 * i + 2] == "    " + " " * (col - 1) + "^", case.name


def test_the_new_codes_are_registered():
    assert (CODES["E202"], CODES["E204"], CODES["E205"], CODES["E206"]) == (
        "unknown card in deck", "bad swordsman line", "creation budget", "not a sword")


# ---------------------------------------------------------------- good files


GOOD = """\
# parties/quorina.sw: front first
Quorina: 10/1/1/2/ Slash Sword, 衝撃剣, 盾, Heating Sword
  Gris：5/2/2/1/斬撃剣、斬撃剣，加熱剣、熱   # full-width colon and commas

Bubble: 5/0/0/0/
Knight of Dawn : 0 / 3 / 0 / 12 / 盾の剣 , Shield Sword,盾
"""


def test_a_good_file():
    assert parse_party(GOOD, PATH, SWORDS, OTHERS) == [
        SwordsmanSpec("Quorina", 10, 1, 1, 2,
                      ("Slash Sword", "Shock Sword", "Shield Sword", "Heating Sword"), 2),
        SwordsmanSpec("Gris", 5, 2, 2, 1,
                      ("Slash Sword", "Slash Sword", "Heating Sword", "Heating Sword"), 3),
        SwordsmanSpec("Bubble", 5, 0, 0, 0, (), 5),
        SwordsmanSpec("Knight of Dawn", 0, 3, 0, 12, ("Shield Sword",) * 3, 6)]


def test_a_sword_is_the_same_by_its_english_name_japanese_name_and_id():
    text = "A: 1/1/1/1/Shock Sword\nB: 1/1/1/1/衝撃剣\nC: 1/1/1/1/衝\n"
    assert {s.swords for s in parse_party(text, PATH, SWORDS)} == {("Shock Sword",)}


def test_format_swordsman_is_canonical_and_round_trips():
    party = parse_party(GOOD, PATH, SWORDS, OTHERS)
    assert [format_swordsman(s) for s in party] == [
        "Quorina: 10/1/1/2/Slash Sword, Shock Sword, Shield Sword, Heating Sword",
        "Gris: 5/2/2/1/Slash Sword, Slash Sword, Heating Sword, Heating Sword",
        "Bubble: 5/0/0/0/",
        "Knight of Dawn: 0/3/0/12/Shield Sword, Shield Sword, Shield Sword"]
    for spec in party:
        assert parse_party(format_swordsman(spec), PATH, SWORDS) == [replace(spec, line=1)]


NAMES = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="#:："),
                min_size=1).filter(lambda name: name == name.strip())
SPECS = st.builds(SwordsmanSpec, NAMES, *[st.integers(0, 10**6)] * 4,
                  st.lists(st.sampled_from(sorted(set(SWORDS.values())))).map(tuple), st.just(1))


@given(SPECS)
def test_any_swordsman_round_trips_through_its_canonical_line(spec):
    assert parse_party(format_swordsman(spec), PATH, SWORDS) == [spec]


def test_load_party_reads_utf8_with_or_without_a_byte_order_mark(tmp_path):
    path = tmp_path / "quorina.sw"
    for data in (GOOD.encode("utf-8"), GOOD.encode("utf-8-sig")):
        path.write_bytes(data)
        assert load_party(path, SWORDS, OTHERS) == parse_party(GOOD, PATH, SWORDS, OTHERS)
    path.write_text("Quorina: 10/1/1/2/Wall\n", encoding="utf-8")
    with pytest.raises(CompileError) as info:
        load_party(path, SWORDS, OTHERS)
    assert str(info.value) == f"{path}:1:19: E206 'Wall' is a built swordsman, not a sword"


# ---------------------------------------------------------------- the creation budget and other details


def test_budget_accepts_a_party_spending_exactly_the_points():
    text = ("Quorina: 10/1/1/2/斬, 衝, 盾, 熱\n"  # 10/5 + 1 + 1 + 2 + 4 swords
            "Gris: 5/2/2/1/斬撃剣、斬撃剣、加熱剣、加熱剣\n"  # 5/5 + 2 + 2 + 1 + 4 swords
            "Solo: 50/0/0/0/\n")  # 50/5
    assert [s.name for s in parse_party(text, PATH, SWORDS, budget=BUDGET)] == ["Quorina", "Gris", "Solo"]


def test_budget_refuses_what_no_budget_accepts():
    text = "Quorina: 12/1/1/2/斬, 衝, 盾, 熱\nGris: 5/2/2/1/\n"
    assert len(parse_party(text, PATH, SWORDS)) == 2
    with pytest.raises(CompileError) as info:
        parse_party(text, PATH, SWORDS, budget=BUDGET)
    assert [(p.line, p.col, p.code) for p in info.value.diagnostics] == [(1, 10, "E205"), (2, 1, "E205")]


def test_budget_steps_apply_to_every_value_including_the_sword_count():
    budget = Budget(6, {"max_hp": 10, "atk": 2, "def": 3, "spd": 4, "sword": 2})
    assert parse_party("A: 20/2/3/4/斬, 衝\n", PATH, SWORDS, budget=budget)[0].max_hp == 20
    with pytest.raises(CompileError) as info:
        parse_party("A: 25/1/2/3/斬, 衝, 盾\n", PATH, SWORDS, budget=budget)
    assert [(p.col, p.message) for p in info.value.diagnostics] == [
        (4, "HP 25 is not a multiple of 10"), (7, "ATK 1 is not a multiple of 2"),
        (9, "DEF 2 is not a multiple of 3"), (11, "SPD 3 is not a multiple of 4"),
        (13, "sword count 3 is not a multiple of 2")]


@pytest.mark.parametrize("per_point", [{"max_hp": 5, "atk": 1, "def": 1, "spd": 1},
                                       {"max_hp": 5, "atk": 1, "def": 1, "spd": 1, "sword": 0},
                                       {"max_hp": 5, "atk": 1, "def": 1, "spd": 1, "sword": 1, "hp": 1}])
def test_a_budget_needs_a_step_of_one_or_more_for_exactly_the_five_values(per_point):
    with pytest.raises(ValueError, match="per_point needs a whole number 1 or more"):
        Budget(10, per_point)


@pytest.mark.parametrize("text", ["", "\n\n   \n", "# nobody\n"])
def test_a_party_file_without_swordsmen(text):
    with pytest.raises(CompileError) as info:
        parse_party(text, PATH, SWORDS)
    [problem] = info.value.diagnostics
    assert (problem.line, problem.col, problem.code, problem.message) == (
        1, 1, "E204", "the party file lists no swordsman")


def test_without_others_a_built_swordsman_is_an_unknown_sword():
    with pytest.raises(CompileError) as info:
        parse_party("Quorina: 10/1/1/2/Wall\n", PATH, SWORDS)
    assert str(info.value).split("\n")[0] == "parties/case.sw:1:19: E202 unknown sword 'Wall'"


def test_a_number_must_be_written_in_ascii_digits():
    with pytest.raises(CompileError) as info:
        parse_party("Quorina: １０/1/1/2²/斬\n", PATH, SWORDS)
    assert [p.message for p in info.value.diagnostics] == [
        "expected a whole number 0 or more for HP, found '１０'",
        "expected a whole number 0 or more for SPD, found '2²'"]
