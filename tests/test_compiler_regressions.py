"""Regression tests of compiler bugs found while writing tests/."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys

import pytest

from compiler.build import build, compile_project, stale
from compiler.diagnostics import CompileError
from compiler.parser import parse
from tests.conftest import ROOT

RULESET_FILE = ROOT / "cards" / "simple_duel" / "ruleset.card"


def test_deeply_nested_expression_is_E004_not_a_lark_traceback():
    deep = "(1 + " * 1000 + "1" + ")" * 1000
    text = f'card "A" {{\n    kind spell\n    effect: deal {deep} damage to target creature.\n}}\n'
    with pytest.raises(CompileError) as info:
        parse(text, "a.card")
    assert [d.code for d in info.value.diagnostics] == ["E004"]


def test_render_shows_the_right_line_after_a_unicode_line_separator_in_a_string(tmp_path):
    folder = tmp_path / "cards" / "game"
    folder.mkdir(parents=True)
    shutil.copyfile(RULESET_FILE, folder / "ruleset.card")
    source = 'card "A" {\n    text "a\u2028b"\n    kind creture\n}\n'
    (folder / "bad.card").write_text(source, encoding="utf-8")
    with pytest.raises(CompileError) as info:
        compile_project(tmp_path)
    [d] = info.value.diagnostics
    assert d.render(source) == (
        "cards/game/bad.card:3:10: E101 unknown card kind 'creture'; did you mean 'creature'?\n"
        "        kind creture\n"
        "             ^")


def test_build_repairs_a_hand_edited_generated_file(tmp_path):
    shutil.copytree(ROOT / "cards" / "simple_duel", tmp_path / "cards" / "simple_duel")  # one ruleset: the same build
    build(tmp_path)
    victim = sorted((tmp_path / "generated").rglob("*.py"))[-1]
    victim.write_text(victim.read_text(encoding="utf-8") + "HAND_EDIT = 1\n", encoding="utf-8")
    build(tmp_path)  # `cardc check` says: "generated/ is stale ...; run `cardc build`"
    assert stale(tmp_path) == []


def test_two_rulesets_in_one_folder_are_an_error(tmp_path):
    folder = tmp_path / "cards" / "game"
    folder.mkdir(parents=True)
    shutil.copyfile(RULESET_FILE, folder / "ruleset.card")
    text = RULESET_FILE.read_text(encoding="utf-8").replace("ruleset simple_duel", "ruleset alpha")
    (folder / "alpha.card").write_text(text, encoding="utf-8")
    with pytest.raises(CompileError):
        compile_project(tmp_path)


def test_generated_files_get_normal_permissions(tmp_path):
    shutil.copytree(ROOT / "cards" / "simple_duel", tmp_path / "cards" / "simple_duel")  # one ruleset: the same build
    old = os.umask(0o022)
    try:
        build(tmp_path)
    finally:
        os.umask(old)
    for path in (tmp_path / "generated").rglob("*.py"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o644, path


def test_root_without_cards_folder_is_an_error(tmp_path):
    missing = tmp_path / "typo"
    result = subprocess.run([sys.executable, "-m", "tools", "--root", str(missing), "build"],
                            cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                            capture_output=True, text=True)
    message = f"cardc: {missing.resolve()} has no cards/ folder; give the project folder with --root\n"
    assert (result.returncode, result.stdout, result.stderr) == (1, "", message)  # an error, not a traceback
    assert not missing.exists()


def test_it_inside_a_with_clause_means_the_target_named_before_it(tmp_path):
    """'destroy each creature with power < power of it' compares with the target, not the event card."""
    from tests.conftest import compiled_game
    from tools.scenario import read_scenario, run_scenario

    shutil.copytree(ROOT / "cards" / "simple_duel", tmp_path / "cards" / "simple_duel")  # one ruleset: the same build
    (tmp_path / "cards" / "simple_duel" / "quirk.card").write_text(
        'card "Quirk Cull" {\n    kind spell\n    cost 1 mana\n    stats speed 3\n'
        '    effect: deal 1 damage to target creature. destroy each creature with power < power of it.\n}\n',
        encoding="utf-8")
    scenario = tmp_path / "quirk.scenario"
    scenario.write_text("""scenario QUIRK: 'it' inside a with clause
ruleset simple_duel
seed 1
stop: before phase battle of turn 3

setup:
    turn 3, P1 active, phase main
    P1 deck: 5 Skyreef Leviathan
    P2 deck: 5 Skyreef Leviathan
    P1 staging: Quirk Cull
    P1 mana 1
    P2 field: Pebble Sprite, Kilnheart Brute

choices:
    target Kilnheart Brute

expect:
    log: T3 main.activation: Kilnheart Brute takes 1 damage (total 1)
    log: T3 main.activation: Pebble Sprite is destroyed
    P2 field: Kilnheart Brute
""", encoding="utf-8")
    build(tmp_path)
    with compiled_game(tmp_path, "simple_duel") as game:
        outcome = run_scenario(read_scenario(scenario), game)
    assert outcome.passed, outcome.failures


def test_ruleset_sentences_cannot_ask_or_pay(tmp_path):
    folder = tmp_path / "cards" / "game"
    folder.mkdir(parents=True)
    text = RULESET_FILE.read_text(encoding="utf-8").replace(
        "you gain (your turn number) mana.", "as a cost, pay 1 life. if you do, you gain (your turn number) mana.")
    (folder / "ruleset.card").write_text(text, encoding="utf-8")
    with pytest.raises(CompileError) as info:
        compile_project(tmp_path)
    assert [d.code for d in info.value.diagnostics] == ["E106", "E106"]


def test_fmt_keeps_all_player_filters():
    from compiler.fmt import format_text

    text = 'card "A" {\n    kind spell\n    effect:\n        deal 1 damage to all player with life < 5.\n}\n'
    assert parse(format_text(text)) == parse(text)
    assert "all player with life < 5" in format_text(text)


def test_its_turn_number_is_refused(tmp_path):
    folder = tmp_path / "cards" / "game"
    folder.mkdir(parents=True)
    shutil.copyfile(RULESET_FILE, folder / "ruleset.card")
    (folder / "a.card").write_text('card "A" {\n    kind creature\n    stats power 1, speed 1\n'
                                   '    when this is summoned: you gain (its turn number) life.\n}\n', encoding="utf-8")
    with pytest.raises(CompileError) as info:
        compile_project(tmp_path)
    assert [d.code for d in info.value.diagnostics] == ["E105"]


def test_granted_keyword_statics_and_statuses_survive_a_json_round_trip(simple_duel):
    """Fuzzing found a status static counted twice (or not at all) next to a keyword granted by a static."""
    from runtime import query as q
    from runtime.state import State

    s = simple_duel.empty_state(1)
    imp = simple_duel.add_card(s, "Sparkjaw Imp", 0, "field")
    simple_duel.add_card(s, "Rampart Standard", 0, "field")
    s.own(imp).statuses = [["Warspark", 1, None, -1], ["Braced", 1, None, -1]]
    s.touch()
    restored = State.from_json(s.to_json(), simple_duel)
    assert q.damage_reduction(s, imp) == q.damage_reduction(restored, imp) == 2
