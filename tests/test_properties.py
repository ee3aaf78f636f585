"""Hypothesis properties of the front end: any text gives an AST or located errors; fmt round-trips."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from compiler import nodes as n
from compiler.check import validate
from compiler.diagnostics import CompileError
from compiler.fmt import format_file, format_text
from compiler.parser import parse
from compiler.symbols import collect
from tests import strategies as gen
from tests.conftest import ROOT

RULESET = parse((ROOT / "cards" / "simple_duel" / "ruleset.card").read_text(encoding="utf-8"),
                "cards/simple_duel/ruleset.card")


def _ast_or_located_error(text: str) -> None:
    try:
        f = parse(text, "fuzz.card")
    except CompileError as err:
        assert err.diagnostics, "a CompileError must carry diagnostics"
        lines = text.count("\n") + 2
        for d in err.diagnostics:
            assert d.path == "fuzz.card" and 1 <= d.line <= lines and d.col >= 1, d
            assert d.code in ("E001", "E002", "E003", "E004", "E006", "E007") and d.message
        return
    assert isinstance(f, n.File)
    # What parses must also validate without a traceback (errors are data, not exceptions).
    validate([RULESET, f], collect([RULESET, f]))


@given(st.text(max_size=200))
def test_any_text_gives_ast_or_located_error(text):
    _ast_or_located_error(text)


@given(gen.token_soup)
def test_token_soup_gives_ast_or_located_error(text):
    _ast_or_located_error(text)


@given(gen.files)
def test_fmt_round_trip_of_generated_asts(f):
    text = format_file(f)
    assert parse(text, "<fmt>") == f
    assert format_text(text) == text


@given(gen.files)
def test_generated_asts_validate_without_traceback(f):
    diagnostics = validate([RULESET, f], collect([RULESET, f]))
    for d in diagnostics:  # each at the place of a node of the drawn file (every drawn node is at NOWHERE)
        assert (d.path, d.line, d.col) == (f.path, n.NOWHERE.line, n.NOWHERE.col), d
        assert re.fullmatch(r"E\d{3}", d.code) and d.message, d


def test_fmt_round_trip_of_every_real_card_file():
    for path in sorted((ROOT / "cards").rglob("*.card")):
        text = path.read_text(encoding="utf-8")
        pretty = format_text(text, str(path))
        assert parse(pretty) == parse(text), path
        assert format_text(pretty) == pretty, path
