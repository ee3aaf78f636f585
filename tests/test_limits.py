"""Every reader refuses a file past the size limits (compiler/limits.py) at once, with one located E008, so
bounded input means bounded work: the issue's 100,000-card file, 1 MB name, 100,000-line deck and party
of 20,000 empty sword entries."""

from __future__ import annotations

import pytest

from compiler import limits
from compiler.diagnostics import CompileError
from compiler.parser import parse
from compiler.party_files import parse_party
from compiler.sheets import DeckRules, read_deck
from runtime.battle.rules import load_rules
from tools.scenario import scenario_from_text

CARD = 'card "C{i}" {{\n    kind creature\n    cost 1 mana\n}}\n'


def _readers():
    spellings = load_rules("marguerite").spellings
    return {
        "card": lambda text: parse(text, "big.card"),
        "deck": lambda text: read_deck(text, "big.card", DeckRules(frozenset({"Spark"}))),
        "party": lambda text: parse_party(text, "big.card", spellings),
        "scenario": lambda text: scenario_from_text(text, "big.card", {"simple_duel"}),
    }


READERS = _readers()


def _refusal(kind: str, text: str) -> tuple[int, int, str]:
    with pytest.raises(CompileError) as info:
        READERS[kind](text)
    [d] = info.value.diagnostics
    assert (d.code, d.path) == ("E008", "big.card")
    return d.line, d.col, d.message


@pytest.mark.parametrize("kind", sorted(READERS))
def test_a_file_past_each_limit_is_one_located_error(kind):
    chars = "x\n" * (limits.MAX_CHARS // 2 + 1)  # past the characters before the lines: 1 MiB of 2-character lines
    assert _refusal(kind, chars)[2] == f"the file is longer than {limits.MAX_CHARS} characters; split it"
    lines = "\n" * limits.MAX_LINES
    assert _refusal(kind, lines) == (limits.MAX_LINES + 1, 1, f"the file has more than {limits.MAX_LINES} lines; split it")
    wide = "ok\n" + "y" * (limits.MAX_LINE_CHARS + 1) + "\n"
    assert _refusal(kind, wide) == (2, limits.MAX_LINE_CHARS + 1, f"line 2 has {limits.MAX_LINE_CHARS + 1} characters; "
                                                               f"a line holds at most {limits.MAX_LINE_CHARS}")


def test_the_place_of_a_file_too_long_is_where_it_passes_the_limit():
    text = "a" * 100 + "\n" + "b\n" * (limits.MAX_CHARS // 2)
    line, col, _ = _refusal("card", text)
    offset = limits.MAX_CHARS
    assert (line, col) == (text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset))


def test_the_issue_s_hostile_sizes_are_refused_at_once():
    assert _refusal("card", "".join(CARD.format(i=i) for i in range(100_000)))[2].startswith("the file is longer")
    assert _refusal("card", 'card "' + "C" * 2**20 + '" {\n    kind creature\n}\n')[2].startswith("the file is longer")
    assert _refusal("deck", "1 Spark\n" * 100_000)[2] == f"the file has more than {limits.MAX_LINES} lines; split it"
    assert _refusal("party", "Quorina: 10/1/1/2/" + "," * 20_000 + "\n")[:2] == (1, limits.MAX_LINE_CHARS + 1)


def test_files_at_the_limits_are_read():
    cards = "".join(CARD.format(i=i) for i in range((limits.MAX_LINES - 1) // 4))
    assert len(parse(cards, "many.card").items) == (limits.MAX_LINES - 1) // 4
    deck = "1 Spark\n" * (limits.MAX_LINES - 1)
    assert len(read_deck(deck, "many.deck", DeckRules(frozenset({"Spark"})))) == limits.MAX_LINES - 1
    with pytest.raises(CompileError) as info:  # a widest line is read, and its problem is the card's name
        read_deck("1 " + "S" * (limits.MAX_LINE_CHARS - 2) + "\n", "wide.deck", DeckRules(frozenset({"Spark"})))
    assert [d.code for d in info.value.diagnostics] == ["E202"]
