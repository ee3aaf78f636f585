"""Generated code that loads, and numbers that cannot crash.

An expression, condition or object nested past MAX_NESTING levels is a located E004 (CPython refuses
the 201st nested bracket of a module, and lowering writes about one bracket per level); every module
of generated/ imports in a fresh interpreter; a number past MAX_NUMBER is a located E007, found
without int() (which refuses a string of more than 4,300 digits, leading zeros included).
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

from compiler import nodes as n
from compiler.ast_common import MAX_NUMBER
from compiler.build import build
from compiler.check import validate
from compiler.check_terms import MAX_NESTING, _outermost_terms
from compiler.diagnostics import CompileError, Diagnostic
from compiler.parser import _lark, parse
from compiler.symbols import collect
from tests.conftest import ROOT, RULESET_FILE
from tools.cli import main

FOLDER = "game"
NESTED = ("expression nested too deeply: {} levels, the most is 100; each operator, 'and', 'or' and 'not' "
          "adds a level, also in a chain like 'a + b + c'")
TOO_LARGE = "a number must be at most 999999999, found {}"
CARD_FILES = sorted((ROOT / "cards").rglob("*.card"))


# ---------------------------------------------------------------- nesting


def _chain(terms: list[str], joiners: list[str]) -> str:
    """Return the terms joined by the joiners in turn, ten terms a line."""
    out = terms[0]
    for i, term in enumerate(terms[1:]):
        out += f" {joiners[i % len(joiners)]}" + ("\n        " if i % 10 == 9 else " ") + term
    return out


def deep_cards(levels: int) -> str:
    """Return three spells whose expressions and conditions are each `levels` levels deep.

    A chain of k terms is k levels (k - 1 operators around the innermost term); each wrapper
    ('-', '*', min, half of, not, and, a comparison) adds one.
    """
    total = _chain(["1"] * levels, ["+", "-"])  # 1 + 1 - 1 + ...: 2
    either = _chain(["turn number > 0"] * (levels - 1), ["or"])
    amount = f"min(1, half of ({_chain(['1'] * (levels - 4), ['+'])}) rounded up) * 2 - 1"  # 1
    unless = f"not (turn number > ({_chain(['1'] * (levels - 3), ['+'])})) and your life is 1 or more"
    effects = {"Deep Sum": f"deal ({total}) damage to the opponent",
               "Deep Or": f"if {either}, deal 1 damage to the opponent",
               "Deep Mixed": f"if {unless}, deal ({amount}) damage to the opponent"}
    return "\n".join(f'card "{name}" {{\n    kind spell\n    cost 1 mana\n    effect: {effect}.\n}}\n'
                     for name, effect in effects.items())


def _project(root: Path, cards: str) -> Path:
    folder = root / "cards" / FOLDER
    (folder / "decks").mkdir(parents=True)
    shutil.copyfile(RULESET_FILE, folder / "ruleset.card")
    (folder / "deep.card").write_text(cards, encoding="utf-8")
    (folder / "decks" / "sum.deck").write_text("30 Deep Sum\n", encoding="utf-8")
    (folder / "decks" / "rest.deck").write_text("15 Deep Or\n15 Deep Mixed\n", encoding="utf-8")
    return root


def _bracket_depth(source: str) -> int:
    """Return how deeply the brackets of a Python source nest."""
    deepest = depth = 0
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.OP and tok.string in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif tok.type == tokenize.OP and tok.string in ")]}":
            depth -= 1
    return deepest


def test_the_deep_cards_are_as_deep_as_the_tests_say():
    for levels in (MAX_NESTING, MAX_NESTING + 1):
        depths = [d for _, d in _outermost_terms(parse(deep_cards(levels), "deep.card")) if d > 1]
        assert depths == [levels] * 4  # the sum, the 'or' chain, the mixed condition and amount


def test_cards_at_the_bound_build_import_and_play_in_a_fresh_interpreter(tmp_path):
    root = _project(tmp_path, deep_cards(MAX_NESTING))
    build(root)
    emitted = (root / "generated" / FOLDER / "deep.py").read_text(encoding="utf-8")
    # about one bracket per level: far below the 200 CPython accepts
    assert MAX_NESTING <= _bracket_depth(emitted) <= MAX_NESTING + 10
    play = ["play", FOLDER, "--deck", "sum", "--deck", "rest", "--seed", "1"]
    done = subprocess.run([sys.executable, "-m", "tools", "--root", str(root), *play], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    log = done.stdout
    for card in ("Deep Sum", "Deep Or", "Deep Mixed"):
        assert re.search(rf"{card}#\d+ resolves \(deep\.card:", log), card
    assert "takes 2 damage" in log and "takes 1 damage" in log and " wins" in log


def test_one_level_past_the_bound_is_refused_where_each_term_starts(tmp_path):
    text = deep_cards(MAX_NESTING + 1)
    root = _project(tmp_path, text)
    with pytest.raises(CompileError) as info:
        build(root)
    found = info.value.diagnostics
    assert [(d.code, d.message) for d in found] == [("E004", NESTED.format(MAX_NESTING + 1))] * 4
    lines = text.split("\n")
    starts = [lines[d.line - 1][d.col - 1:].split(" ")[0] for d in found]
    assert starts == ["1", "turn", "not", "min(1,"]
    assert not (root / "generated" / FOLDER / "deep.py").exists()


def test_an_object_nested_past_the_bound_is_refused_too():
    sword = "the first sword of " * MAX_NESTING + "the actor"
    text = f'card "Deep" {{\n    kind spell\n    effect: reverse the sword list of {sword}.\n}}\n'
    files = [parse(RULESET_FILE.read_text(encoding="utf-8"), "ruleset.card"), parse(text, "deep.card")]
    nested = [d for d in validate(files, collect(files)) if d.code == "E004"]
    assert nested == [Diagnostic("E004", NESTED.format(MAX_NESTING + 1), "deep.card", 3, 39)]


@pytest.mark.parametrize("ruleset", sorted(p.name for p in (ROOT / "generated").iterdir() if p.is_dir()
                                           and (p / "__init__.py").is_file()))
def test_every_generated_module_imports_in_a_fresh_interpreter(ruleset):
    modules = [f"generated.{ruleset}"] + sorted(f"generated.{ruleset}.{p.stem}"
                                                for p in (ROOT / "generated" / ruleset).glob("*.py")
                                                if p.stem != "__init__")
    script = ("import importlib, sys\n"
              "for name in sys.argv[1:]:\n"
              "    print(name, importlib.import_module(name).__file__)\n")
    done = subprocess.run([sys.executable, "-c", script, *modules], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    loaded = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert list(loaded) == modules
    assert all(Path(f).resolve().is_relative_to(ROOT / "generated" / ruleset) for f in loaded.values())


# ---------------------------------------------------------------- numbers


def _cost(number: str) -> str:
    return f'card "Giant" {{\n    kind creature\n    cost {number} mana\n}}\n'


def _errors(text: str) -> list[Diagnostic]:
    with pytest.raises(CompileError) as info:
        parse(text, "t.card")
    return info.value.diagnostics


@pytest.mark.parametrize("number, shown", [
    ("9" * 4301, "a number of 4301 digits"),
    (str(10**400), "a number of 401 digits"),
    ("0" * 5000 + str(MAX_NUMBER + 1), str(MAX_NUMBER + 1)),
    ("1" * 20, "1" * 20),
    ("1" * 21, "a number of 21 digits"),
])
def test_a_number_past_the_largest_is_a_located_error(number, shown):
    assert _errors(_cost(number)) == [Diagnostic("E007", TOO_LARGE.format(shown), "t.card", 3, 10)]


@pytest.mark.parametrize("number, value", [
    ("0" * 5000 + "1", 1), ("0" * 5000, 0), ("0" * 5000 + str(MAX_NUMBER), MAX_NUMBER),
    (str(MAX_NUMBER), MAX_NUMBER),
])
def test_leading_zeros_are_read_past_python_s_digit_limit(number, value):
    [card] = parse(_cost(number), "t.card").items
    assert isinstance(card, n.Card)
    assert card.parts[1] == n.CostDecl(n.NOWHERE, (n.CostItem(n.NOWHERE, value, n.Name(n.NOWHERE, "mana")),))


@pytest.mark.parametrize("digit", ["³", "٣", "３", "①"])
def test_digits_other_than_ascii_are_located_errors(digit):
    message = f"unexpected character '{digit}'; expected a name, a number or '-'"  # 'cost -1 ap': costs may be negative
    assert _errors(_cost(digit)) == [Diagnostic("E002", message, "t.card", 3, 10)]


def _numbers(text: str) -> list:
    """Return the number tokens of a card text, last first."""
    return [tok for tok in _lark().lex(text) if tok.type == "INT"][::-1]


def _replace_numbers(text: str, by) -> str:
    for tok in _numbers(text):
        text = text[:tok.start_pos] + by(str(tok)) + text[tok.end_pos:]
    return text


@pytest.mark.parametrize("path", CARD_FILES, ids=[p.relative_to(ROOT).as_posix() for p in CARD_FILES])
def test_every_number_of_a_real_card_file_is_bounded_and_may_have_leading_zeros(path):
    text = path.read_text(encoding="utf-8")
    assert parse(_replace_numbers(text, lambda x: "0" * 50 + x), "x.card") == parse(text, "x.card")
    past = _replace_numbers(text, lambda x: str(MAX_NUMBER + 1))
    expected = [Diagnostic("E007", TOO_LARGE.format(MAX_NUMBER + 1), "x.card", t.line, t.column)
                for t in reversed(_numbers(past))]
    if not expected:  # a file that writes no number (keywords of statics only): nothing to push past the bound
        assert parse(past, "x.card") == parse(text, "x.card")
        return
    with pytest.raises(CompileError) as info:
        parse(past, "x.card")
    assert info.value.diagnostics == expected


def test_cardc_fmt_reports_a_huge_number_located_without_a_traceback(tmp_path, capsys):
    path = tmp_path / "giant.card"
    path.write_text(_cost("9" * 4301), encoding="utf-8")
    assert main(["--root", str(tmp_path), "fmt", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"giant.card:3:10: E007 {TOO_LARGE.format('a number of 4301 digits')}\n" in err
    assert "Traceback" not in err and "int_max_str_digits" not in err
