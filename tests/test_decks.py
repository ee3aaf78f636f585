"""Deck files go through the grammar (grammar/sheets.lark, compiler/sheets.py): every problem located, word
for word (tests/errors/decks.txt), nothing hostile gets further than an error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from compiler.diagnostics import CompileError
from compiler.sheets import MAX_COUNT, DeckRules, deck_rules, load_deck, read_deck
from runtime.load import load_game
from tests.test_parties import Case, cases_of, problems_of

ROOT = Path(__file__).resolve().parent.parent
CASES_FILE = ROOT / "tests" / "errors" / "decks.txt"
PATH = "decks/case.deck"
RULES = DeckRules(deck_rules(load_game("simple_duel")).known, size=30, max_copies=3)


def render_case(case: Case) -> str:
    """Return every problem of the case's deck rendered, joined by newlines ('' for a legal deck)."""
    return problems_of(lambda: read_deck(case.text, PATH, RULES), case.text)


CASES = cases_of(CASES_FILE, render_case)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_error_messages_word_for_word(case):
    assert render_case(case) == case.expect


def test_a_legal_deck_reads_in_order_with_counts_comments_and_a_byte_order_mark():
    text = "\ufeff# aggro\n27 Wickwing Moth  # cheap\nQuillback Scout\n\n2 Quillback Scout"  # no final newline
    names = read_deck(text, PATH, DeckRules(RULES.known, 30))  # no copy limit
    assert names == ["Wickwing Moth"] * 27 + ["Quillback Scout"] * 3


def test_counts_are_bounded_before_they_are_read():
    ok = f"{MAX_COUNT} Wickwing Moth\n"
    assert len(read_deck(ok, PATH, DeckRules(RULES.known))) == MAX_COUNT
    with pytest.raises(CompileError) as info:
        read_deck(f"{MAX_COUNT + 1} Wickwing Moth\n", PATH, DeckRules(RULES.known))
    assert [d.message for d in info.value.diagnostics] == [f"a count must be at most {MAX_COUNT}, found 1000"]


def test_bytes_that_are_not_utf8_are_a_located_error(tmp_path):
    path = tmp_path / "bad.deck"
    path.write_bytes(b"2 Wickwing Moth\n3 Quill\xffback Scout\n")
    with pytest.raises(CompileError) as info:
        load_deck(path, RULES)
    [d] = info.value.diagnostics
    assert (d.code, d.line, d.col, d.message) == ("E005", 2, 8, "byte 0xFF is not valid UTF-8 (the file must be UTF-8 text)")


def test_cardc_play_reports_a_hostile_deck_located_and_without_a_traceback(tmp_path):
    deck = tmp_path / "hostile.deck"
    deck.write_text("1e8 Wickwing Moth\n" + "9" * 4301 + " Quillback Scout\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "tools", "play", "simple_duel", "--deck", str(deck)],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[0] == f"{deck}:1:1: E203 expected a count in the digits 0-9, found '1e8'"
    assert f"{deck}:2:1: E203 a count must be at most 999, found a number of 4301 digits" in result.stderr
    assert result.stderr.splitlines()[-1] == "2 errors"
