"""Generated Marguerite swords, enchantments and states (tests/sword_strategies.py): they print in canonical
form, compile through the real pipeline beside the real Marguerite pool, and battles between legal parties
carrying them keep every battle invariant (tools/battle/fuzz.py `check`), under drawn option values, and
play the same battle when the reference interpreter reads the same folder (compiler/interpret_battle.py).

CI-sized and derandomized (tests/conftest.py 'ci' profile): a few files, each built once (black) and
played in a few battles; CARDC_PROFILE=long runs 50 times as many files.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from compiler import nodes as n
from compiler.build import build
from compiler.diagnostics import CompileError
from compiler.fmt import format_text
from compiler.interpret_battle import interpret_battle_rules
from compiler.parser import parse
from compiler.party_files import parse_party
from compiler.symbols import collect
from runtime.battle.parties import format_swordsman
from runtime.battle.rules import Rules, load_rules
from tests import sword_strategies as sw
from tests.conftest import ROOT, generated_package
from tests.test_battle_differential import outcome
from tests.test_differential import first_difference, parse_folder
from tools.battle.fuzz import check
from tools.battle.play import budget_of

FOLDER = ROOT / "cards" / "marguerite"
RULES = load_rules("marguerite")
BUDGET = budget_of(RULES)
OPTIONS = [{}] + [{k: x} for k, values in sorted(RULES.ruleset.option_values.items())
                  for x in values if x != RULES.ruleset.options[k]]
BATTLES = 3
SLOW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
                phases=[Phase.explicit, Phase.reuse, Phase.generate])  # each example builds: no shrinking


def _scaled(ci: int) -> int:
    """Return a budget of `ci` examples, 50 times more under the long profile."""
    return ci * 50 if os.environ.get("CARDC_PROFILE") == "long" else ci


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """Return a copy of the Marguerite folder and its generated code, to build generated files beside."""
    root = tmp_path_factory.mktemp("sword_properties")
    shutil.copytree(FOLDER, root / "cards" / "marguerite")
    shutil.copytree(ROOT / "generated" / "marguerite", root / "generated" / "marguerite",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "generated" / "__init__.py", root / "generated" / "__init__.py")
    return root


@settings(max_examples=_scaled(10))
@given(sw.sword_files())
def test_generated_sword_files_parse_and_print_canonically(drawn):
    text, names = drawn
    f = parse(text, sw.FILE_NAME)
    assert [i.name for i in f.items if isinstance(i, n.Card)] == names
    pretty = format_text(text, sw.FILE_NAME)
    assert parse(pretty, sw.FILE_NAME) == f, pretty


def _compiled(project: Path, text: str) -> Rules:
    """Return the Marguerite rules with the generated file built beside the pool (the real pipeline)."""
    (project / "cards" / "marguerite" / sw.FILE_NAME).write_text(text, encoding="utf-8")
    try:
        build(project)
    except CompileError as err:
        raise AssertionError(f"a generated sword file does not compile:\n{text}\n{err}") from None
    with generated_package(project, "marguerite") as module:
        return Rules(module.RULESET, module.CARDS, module.STATUSES, module.ENCHANTMENTS)


def _legal(rules: Rules, party: list) -> bool:
    """Return whether a party reads back from its party-file lines under the creation budget."""
    text = "".join(format_swordsman(x) + "\n" for x in party)
    return len(parse_party(text, "drawn.sw", rules.spellings, {}, BUDGET)) == len(party)


@settings(SLOW, max_examples=_scaled(6))
@given(sw.sword_files(), st.data())
def test_generated_swords_compile_and_battles_keep_the_invariants(project, drawn, data):
    text, names = drawn
    rules = _compiled(project, text)
    assert all(rules.cards[x].kind in rules.sword_kinds for x in names)
    files = parse_folder(project, project / "cards" / "marguerite")
    interpreted = interpret_battle_rules(files, collect(files))
    assert BUDGET is not None
    for _ in range(BATTLES):
        a, b = data.draw(sw.parties(BUDGET, names)), data.draw(sw.parties(BUDGET, names))
        assert _legal(rules, a) and _legal(rules, b) and set(a[0].swords) & set(names)
        options = data.draw(st.sampled_from(OPTIONS))
        problems = check(rules, a, b, options)
        assert not problems, f"{text}\nA: {a}\nB: {b}\noptions: {options}\n" + "\n".join(problems)
        log, state, error = outcome(rules, (a, b), options)
        log2, state2, error2 = outcome(interpreted, (a, b), options)
        assert (log2, state2, error2) == (log, state, error), f"{text}\n{first_difference(log, log2)}"


PLANTED = '''card "Gen Sword 1" {
    kind support
    keywords Fast
    text "A generated sword."
    effect: the target recovers 9 hp.
}
'''


def test_a_planted_engine_bug_is_caught_through_a_generated_sword(project, monkeypatch):
    # Planted in the engine: recovery ignores max HP. The same path as the property (build beside the pool,
    # battle, check) must report it, and nothing once the bug is gone.
    from runtime.battle import effects as fx
    from runtime.battle.parties import SwordsmanSpec

    rules = _compiled(project, PLANTED)
    a = [SwordsmanSpec("Fuzzer0", 5, 1, 1, 2, ("Gen Sword 1",) * 5, 0)]
    b = [SwordsmanSpec("Fuzzer1", 5, 1, 1, 2, ("Null Sword",) * 5, 0)]
    assert check(rules, a, b, {}) == []

    def uncapped(s, ctx, objs, amount, name):
        for f in objs:
            fx._change(s, f, name, amount, f"{s.label(f)} recovers {amount}")

    monkeypatch.setattr(fx, "recover", uncapped)
    assert any(p.startswith("Fuzzer0 has HP ") and p.endswith(" above its max HP 5") for p in check(rules, a, b, {}))
