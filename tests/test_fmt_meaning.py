"""`cardc fmt` keeps meaning: build(fmt(file)) gives the same generated code as build(file).

For every real card file of every ruleset folder, and for generated files (compiler/gen.py card files,
tests/sword_strategies.py Marguerite sword files, and battle objects the sword strategies never write),
the folder is compiled with the file as it is and with the file replaced by its canonical form. The
generated code is compared through what decides it: the lowered modules and the registry (emit renders
nothing else), with the source lines of `where = "file.card:N"` masked, since fmt may move lines. A
folder that is refused must be refused with the same diagnostics. Planted formatter bugs prove the
comparison sees a change of meaning.
"""

from __future__ import annotations

import difflib
import pprint
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler import fmt, gen
from compiler import nodes as n
from compiler.check import validate
from compiler.diagnostics import CompileError, Diagnostic
from compiler.fmt import format_file, format_text
from compiler.lower import lower_file, registry_context
from compiler.parser import parse
from compiler.symbols import collect
from tests import sword_strategies as sw
from tests.conftest import ROOT

# every folder of card files the project builds: the rulesets, the test ruleset and the golden folder
FOLDERS = sorted([*ROOT.glob("cards/*/"), *ROOT.glob("tests/rulesets/*/cards/*/"), *ROOT.glob("tests/golden/cards/*/")])
REAL_FILES = [(folder, path.name) for folder in FOLDERS for path in sorted(folder.glob("*.card"))]
LINE = re.compile(r"\.card:\d+")  # where a definition starts: fmt may move it, it means nothing in a game
PLACE = re.compile(r":\d+:\d+")  # a place named inside a message ('first at x.card:3:1')
SLOW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _scaled(ci: int) -> int:
    """Return a budget of `ci` examples, 50 times more under the long profile."""
    return ci * 50 if settings.default.max_examples > 100 else ci


def _masked(x: Any) -> Any:
    """Return lowered output with the source lines of its places masked."""
    if isinstance(x, str):
        return LINE.sub(".card:N", x)
    if isinstance(x, dict):
        return {k: _masked(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_masked(v) for v in x]
    return x


def _refused(problems: list[Diagnostic]) -> tuple[str, list[tuple[str, str]]]:
    """Return the outcome of a refused folder: each diagnostic's code and message, places masked."""
    return "refused", sorted((d.code, PLACE.sub(":L:C", d.message)) for d in problems)


def meaning(ruleset: str, files: list[n.File]) -> tuple[str, Any]:
    """Return what a folder of parsed files compiles to: its lowered modules and registry, or its diagnostics."""
    files = sorted(files, key=lambda f: f.path)  # the build's order
    symbols = collect(files)
    problems = validate(files, symbols)
    if problems:
        return _refused(problems)
    # the registry's digest of the symbols covers places, which formatting moves: bookkeeping, not meaning
    lowered = [lower_file(f, symbols, f.path) for f in files] + [registry_context(ruleset, list(files), "")]
    return "built", _masked(lowered)


def difference(before: tuple[str, Any], after: tuple[str, Any]) -> str | None:
    """Return the first lines where two outcomes differ, or None when they are the same."""
    if before == after:
        return None
    lines = [pprint.pformat(x, width=150).splitlines() for x in (before, after)]
    diff = difflib.unified_diff(*lines, "build(file)", "build(fmt(file))", n=1, lineterm="")
    return "\n".join(list(diff)[:30])


@cache
def folder_texts(folder: Path) -> dict[str, str]:
    """Return a folder's card texts by path (relative to the project that holds the folder)."""
    root = folder.parent.parent
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.card"))}


@cache
def folder_files(folder: Path) -> tuple[n.File, ...]:
    """Return a folder's parsed card files."""
    return tuple(parse(text, path) for path, text in folder_texts(folder).items())


@cache
def folder_meaning(folder: Path) -> tuple[str, Any]:
    """Return what a real folder compiles to, as it is."""
    return meaning(folder.name, list(folder_files(folder)))


def replaced(folder: Path, path: str, text: str) -> tuple[str, Any]:
    """Return what a real folder compiles to with the file at path replaced by text (or text added there)."""
    try:
        f = parse(text, path)
    except CompileError as err:
        return _refused(err.diagnostics)
    return meaning(folder.name, [x for x in folder_files(folder) if x.path != path] + [f])


def fmt_changes(folder: Path, name: str) -> str | None:
    """Return how building a real folder changes when one of its files is replaced by its canonical form."""
    path = next(p for p in folder_texts(folder) if p.endswith("/" + name))
    return difference(folder_meaning(folder), replaced(folder, path, format_text(folder_texts(folder)[path], path)))


def beside(folder: Path, path: str, text: str) -> tuple[tuple[str, Any], tuple[str, Any]]:
    """Return what a real folder compiles to with one more file, as written and in canonical form."""
    return replaced(folder, path, text), replaced(folder, path, format_text(text))


# ---------------------------------------------------------------- every real card file


@pytest.mark.parametrize(("folder", "name"), REAL_FILES,
                         ids=[f"{folder.relative_to(ROOT).as_posix()}/{name}" for folder, name in REAL_FILES])
def test_fmt_of_a_real_file_builds_the_same_code(folder, name):
    assert folder_meaning(folder)[0] == "built", folder_meaning(folder)[1]
    assert fmt_changes(folder, name) is None, fmt_changes(folder, name)


def test_every_ruleset_folder_is_covered():
    assert {f.relative_to(ROOT).as_posix() for f in FOLDERS} >= {
        "cards/code_of_joker", "cards/marguerite", "cards/simple_duel", "tests/rulesets/quick_duel/cards/quick_duel",
        "tests/rulesets/skirmish/cards/skirmish", "tests/golden/cards/golden"}


# ---------------------------------------------------------------- generated files


GAME = ROOT / "cards" / "simple_duel"  # compiler/gen.py draws cards in a vocabulary like Simple Duel's
GAME_SYMBOLS = collect(list(folder_files(GAME)))


@settings(SLOW, max_examples=_scaled(40))
@given(gen.card_file(GAME_SYMBOLS, path="cards/simple_duel/fuzz_generated.card"))
def test_fmt_of_generated_card_files_builds_the_same_code(f):
    before = meaning(GAME.name, [*folder_files(GAME), f])
    assert before[0] == "built", before[1]
    after = replaced(GAME, f.path, format_file(f))
    assert difference(before, after) is None, difference(before, after)


SWORD_PATH = f"cards/marguerite/{sw.FILE_NAME}"
MARGUERITE = ROOT / "cards" / "marguerite"


@settings(SLOW, max_examples=_scaled(20))
@given(sw.sword_files())
def test_fmt_of_generated_sword_files_builds_the_same_code(drawn):
    text, _names = drawn
    before, after = beside(MARGUERITE, SWORD_PATH, text)
    assert before[0] == "built", before[1]
    assert difference(before, after) is None, difference(before, after)


# swords, swordsmen and sword lists as a designer may name them: bare, 'each', 'all', possessive, 'other'
SWORD_OBJECTS = ("sword", "all sword", "swords", "each other sword", "other sword", "your sword",
                 "sword you control", "all sword an opponent controls", "the leftmost sword", "a random sword",
                 "this sword", "the target", "the first sword of the actor", "the first unused sword of the target",
                 "each sword of the actor", "swordsman", "each swordsman", "all swordsman", "swordsmen")
SWORD_EFFECTS = ("make {o} used", "make {o} unused", "destroy {o}", "put 1 Fast on {o}", "change {o} into this sword",
                 "move {o} to the end of the sword list of the actor", "hit {o} for 1", "{o} gets +1 atk",
                 "{o} recovers 1 hp", "set the atk of {o} to 1")


@settings(max_examples=_scaled(30))
@given(st.lists(st.tuples(st.sampled_from(SWORD_EFFECTS), st.sampled_from(SWORD_OBJECTS)), min_size=1, max_size=3))
def test_fmt_of_sword_objects_builds_the_same_code(effects):
    said = " and ".join(e.format(o=o) for e, o in effects)
    text = f'card "Fmt Sword" {{\n    kind attack\n    effect: hit the target for 1. separately, {said}.\n}}\n'
    before, after = beside(MARGUERITE, SWORD_PATH, text)
    assert difference(before, after) is None, difference(before, after)


# ---------------------------------------------------------------- the bugs this fixed


@pytest.mark.parametrize(("written", "printed"), [
    ("make sword unused.", "make all sword unused."),  # was 'make each sword unused.', which does not parse
    ("destroy sword.", "destroy all sword."),
    ("each other sword gets +1 atk.", "each other sword gets +1 atk."),
])
def test_a_sword_filter_prints_in_a_form_that_parses_back(written, printed):
    text = f'card "Fmt Sword" {{\n    kind attack\n    effect: hit the target for 1. separately, {written}\n}}\n'
    assert f"separately, {printed}" in format_text(text)
    before, after = beside(MARGUERITE, SWORD_PATH, text)
    assert before[0] == "built" and difference(before, after) is None, difference(before, after)


@pytest.mark.parametrize("sentence", [
    "deal 1 damage to 1 target player.",  # a target with a 'player' filter, not the player word 'target player'
    "deal (jokers) damage to it.",  # 'deal jokers' is a turn procedure
    "destroy all this.",  # a kind spelt like a keyword: 'destroy this.' would be this card
    "destroy each loses.",
])
def test_names_spelt_like_keywords_keep_their_reading(sentence):
    text = f'card "X" {{\n    kind unit\n    effect: {sentence}\n}}\n'
    assert parse(format_text(text)) == parse(text)


def test_zone_max_0_is_kept_by_fmt_and_refused_by_the_compiler():
    folder = ROOT / "cards" / "simple_duel"
    texts = folder_texts(folder)
    path = "cards/simple_duel/ruleset.card"
    limited = texts[path].replace("zone field public ordered", "zone field public ordered max 0", 1)
    assert limited != texts[path]
    assert "zone field public ordered max 0" in format_text(limited)
    before, after = beside(folder, path, limited)
    assert before == ("refused", [("E105", "zone 'field' holds at most 0 cards; a limit is 1 or more "
                                           "(leave out 'max' for no limit)")])
    assert difference(before, after) is None


# ---------------------------------------------------------------- the property sees planted bugs


def _numbers_off_by_one(monkeypatch) -> None:
    real = fmt.expr
    monkeypatch.setattr(fmt, "expr", lambda e: str(e.value + 1) if isinstance(e, n.Number) else real(e))


def _durations_dropped(monkeypatch) -> None:
    monkeypatch.setattr(fmt, "_until", lambda d: "")


def _each_before_sword(monkeypatch) -> None:
    monkeypatch.setattr(fmt, "ALL_KINDS", ("player",))  # the old printer: 'make each sword unused.'


@pytest.mark.parametrize(("plant", "folder", "name"), [
    (_numbers_off_by_one, ROOT / "cards" / "simple_duel", "spells.card"),
    (_durations_dropped, ROOT / "cards" / "simple_duel", "spells.card"),
    (_numbers_off_by_one, MARGUERITE, "swords_attack.card"),
])
def test_a_planted_formatter_bug_is_reported(monkeypatch, plant, folder, name):
    assert fmt_changes(folder, name) is None
    plant(monkeypatch)
    found = fmt_changes(folder, name)
    assert found is not None and found.startswith("--- build(file)\n+++ build(fmt(file))"), found


def test_the_old_sword_bug_is_reported(monkeypatch):
    text = 'card "Fmt Sword" {\n    kind attack\n    effect: hit the target for 1. separately, make sword unused.\n}\n'
    _each_before_sword(monkeypatch)
    before, after = beside(MARGUERITE, SWORD_PATH, text)
    assert before[0] == "built" and after == ("refused", [("E001", "unexpected 'unused'; expected 'of'")]), after
    assert difference(before, after) is not None
