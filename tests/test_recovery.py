"""Every syntax error of a file at once (compiler/parser.py, compiler/recovery.py) and planned
constructs named as such (compiler/planned.py). Word-for-word messages are in tests/errors/cases.txt."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compiler import parser, planned, recovery
from compiler.diagnostics import CompileError, Diagnostic
from compiler.parser import parse
from tests.conftest import ROOT
from tests.test_docs import BLOCKS

CARD = '''card "Plain {i}" {{
    kind creature
    cost 1 mana
    stats power 1, speed 1
    text "A plain card."
    when this is summoned: draw 1 card. you gain 1 life.
}}'''

# One syntax error each, in different constructs: (line of the card it is on, old text, new text).
BREAKS = {
    "part keyword": (1, "kind creature", "knd creature"),
    "number": (3, "speed 1", "speed one"),
    "unclosed string": (4, '"A plain card."', '"A plain card.'),
    "ability keyword": (5, "when this", "wen this"),
    "event word": (5, "is summoned", "is summond"),
    "bad character": (2, "cost 1 mana", "cost 1 mana;"),
    "missing colon": (5, "summoned:", "summoned"),
    "sentence": (5, "draw 1 card.", "draw 1 crad."),
    "missing full stop": (5, "1 life.", "1 life"),
    "stray brace": (6, "}", "}\n}"),
}


def _card(i: int, broken: str | None) -> str:
    lines = CARD.format(i=i).split("\n")
    if broken is not None:
        at, old, new = BREAKS[broken]
        assert old in lines[at]
        lines[at] = lines[at].replace(old, new)
    return "\n".join(lines)


def _diagnostics(text: str) -> list[Diagnostic]:
    try:
        parse(text, "f.card")
    except CompileError as err:
        return err.diagnostics
    return []


def _shifted(d: Diagnostic, lines: int) -> Diagnostic:
    return Diagnostic(d.code, d.message, d.path, d.line + lines, d.col)


@given(st.lists(st.sampled_from([None, *BREAKS]), min_size=1, max_size=6))
def test_each_broken_card_reports_exactly_the_error_it_has_alone(breaks):
    """Recovery is exact: a file of cards, some broken once each, gets each broken card's own error
    (the one that card alone would get), at its place, in source order, and nothing else."""
    cards = [_card(i, b) for i, b in enumerate(breaks)]
    expected, line = [], 0
    for card in cards:
        expected += [_shifted(d, line) for d in _diagnostics(card)]
        line += card.count("\n") + 2
    assert len(expected) == sum(b is not None for b in breaks)
    assert _diagnostics("\n\n".join(cards) + "\n") == expected


def test_two_and_three_errors_in_one_card():
    text = _card(0, None).replace("knd", "kind").replace("kind creature", "knd creature")
    text = text.replace("speed 1", "speed one").replace("draw 1 card.", "draw 1 crad.")
    found = [(d.line, d.code) for d in _diagnostics(text)]
    assert found == [(2, "E001"), (4, "E001"), (6, "E001")]
    assert [(d.line, d.code) for d in _diagnostics(text.replace("speed one", "speed 1"))] == [(2, "E001"), (6, "E001")]


# ---------------------------------------------------------------- cascades are suppressed (planted bugs)

AFTER_A_BROKEN_BODY = '''card "A" {
    kind creature
    when this is summoned: draw 1 card.
    when this is destroyed: drow 1 card. gain 2 lfe life.
        destroy target creature an oponent controls.
    static: this gets +1 power.
}
'''


def test_a_keyword_after_a_skipped_body_is_read_as_that_keyword(monkeypatch):
    found = [(d.line, d.col) for d in _diagnostics(AFTER_A_BROKEN_BODY)]
    assert found == [(4, 34), (4, 53), (5, 36)]
    # Planted bug: without preferring a checkpoint that reads 'static' as the keyword, the parser
    # resumes inside the broken ability, reads 'static' as a name and reports a cascade at ':'.
    parser._keywords.cache_clear()
    monkeypatch.setattr(parser, "_keywords", lambda: frozenset())
    assert (6, 11) in [(d.line, d.col) for d in _diagnostics(AFTER_A_BROKEN_BODY)]


CARD_INSIDE_A_RULESET = '''ruleset tiny {
    players 2
card "Lost" {
    kind creature
}
}
'''


def test_the_brace_of_a_block_given_up_on_is_not_an_error(monkeypatch):
    assert [(d.line, d.col) for d in _diagnostics(CARD_INSIDE_A_RULESET)] == [(3, 1)]
    monkeypatch.setattr(recovery, "closers", lambda *args: set())  # planted bug: no suppression
    assert [(d.line, d.col) for d in _diagnostics(CARD_INSIDE_A_RULESET)] == [(3, 1), (6, 1)]


def test_a_stray_brace_opens_or_closes_nothing():
    text = _card(0, None).replace("cost 1 mana", "cost 1 mana {") + "\n" + _card(1, "number") + "\n"
    assert [(d.line, d.col) for d in _diagnostics(text)] == [(3, 17), (11, 26)]


def test_an_error_at_the_end_of_the_file_ends_the_report():
    text = _card(0, "part keyword") + "\n" + 'card "B" {\n    kind creature\n    effect: deal 1 damage to'
    assert [(d.line, d.code) for d in _diagnostics(text)] == [(2, "E001"), (10, "E003")]


def test_the_number_of_errors_per_file_is_capped_and_recovery_stays_fast():
    text = "\n".join(_card(i, "sentence") for i in range(200)) + "\n"
    start = time.perf_counter()
    found = _diagnostics(text)
    assert time.perf_counter() - start < 2.0
    assert len(found) == parser.MAX_ERRORS
    assert [d.line for d in found] == [6 + 7 * i for i in range(parser.MAX_ERRORS)]


def test_resume_points_and_blocks():
    text = 'card "A" {\n  kind x\n  effect: draw 1 card. "a.b}" # c.}\n}\n'
    marks = recovery.scan(text)
    assert [text[p] for p in marks.dots] == ["."]  # not the ones in the string or the comment
    assert [step for _, step in marks.braces] == [1, -1]
    points = dict(recovery.resume_points(marks, 0))
    assert points[marks.dots[0] + 1] is True and points[text.index("kind")] is False
    close = marks.braces[1][0]
    assert recovery.same_block(marks, 0, close + 1, frozenset(), outward=False)
    assert not recovery.same_block(marks, 0, close, frozenset(), outward=False)
    assert recovery.same_block(marks, 0, close, frozenset(), outward=True)
    assert recovery.closers(marks, 0, text.index("kind"), frozenset()) == {close}


# ---------------------------------------------------------------- planned constructs

# Planned sections that helpers of issue 11 are building now (choices while resolving, attribute
# filters): a planned-construct error for them would be wrong as soon as they land.
BEING_BUILT = {"2.1.5", "2.9.9", "2.9.10", "2.9.11"}
PLANNED_SECTIONS = {p.section for p in planned.PLANNED}
PROPOSALS = [b for b in BLOCKS if b.lang == "card-proposal" and b.section in PLANNED_SECTIONS]


def _planned_sections() -> set[str]:
    """Return the sections of docs/language.md whose status is 'planned'."""
    found, section = set(), ""
    for line in (ROOT / "docs" / "language.md").read_text(encoding="utf-8").split("\n"):
        heading = re.match(r"^#### (\d+(?:\.\d+)+) ", line)
        section = heading.group(1) if heading else section
        if line.startswith("**Status: planned.**"):
            found.add(section)
    return found


def test_the_planned_table_follows_the_document():
    documented = _planned_sections()
    assert PLANNED_SECTIONS <= documented, f"implemented now, drop from compiler/planned.py: " \
                                           f"{sorted(PLANNED_SECTIONS - documented)}"
    assert documented - BEING_BUILT <= PLANNED_SECTIONS, f"planned, not recognised: " \
                                                         f"{sorted(documented - BEING_BUILT - PLANNED_SECTIONS)}"


@pytest.mark.parametrize("block", PROPOSALS, ids=[b.id for b in PROPOSALS])
def test_a_proposal_gets_the_planned_error_of_its_section(block):
    found = _diagnostics(block.text)
    mine = [d for d in found if d.code == planned.CODE]
    assert mine, [d.render(None) for d in found]
    assert all(d.message.endswith(f"see docs/language.md §{block.section}") for d in mine), mine


@pytest.mark.parametrize("text", [
    'card "A" {\n    kind spell\n    txt "for each swap, this would take damage."\n}\n',
    'card "A" {\n    kind creature\n    static: this can\'t activate abilitis.\n}\n',
    'card "A" {\n    kind spell\n    effect: draw 1 crad. # for each swap\n}\n',
    'card "A" {\n    kind creature\n    when this is summond: for each creature you control, draw 1 card.\n}\n',
])
def test_planned_words_elsewhere_leave_a_syntax_error_as_it_is(text):
    assert [d.code for d in _diagnostics(text)] == ["E001"]
