"""The text check: planted mismatches of scope, targets, numbers and effects each give their warning, word
for word; harmless rewording gives none; `cardc check` prints warnings and succeeds, `--strict` fails."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.parser import parse
from compiler.rules_check import check_texts, features, project_warnings
from tests.conftest import ROOT

CARD = '''card "Ember Test" {{
    kind creature
    cost 2 mana
    stats power 2, speed 3
    text "{text}"
    {ability}
}}
'''
ABILITY = "when this enters the field: deal 2 damage to target creature an opponent controls."
RULES = "rules: When Ember Test enters the field, deal 2 damage to target creature an opponent controls."


def warnings(text: str, ability: str = ABILITY) -> list[str]:
    """Return the rendered warnings of one planted card (path x.card)."""
    source = CARD.format(text=text, ability=ability)
    return [d.render(source) for d in check_texts([parse(source, "x.card")])]


def expected(code: str, what: str) -> str:
    return (f"x.card:5:5: warning {code} the text and the abilities differ in {what}\n"
            f'        text "{{text}}"\n        ^\n    text:  {{text}}\n    {RULES}')


def test_faithful_rewording_passes():
    assert warnings("When Ember Test enters the field, it deals 2 damage to target opponent creature.") == []
    assert warnings("When this enters the field, deal 2 damage to target creature an opponent controls.") == []


@pytest.mark.parametrize(("text", "code", "what"), [
    ("When Ember Test enters the field, deal 2 damage to target creature you control.", "W001",
     "scope: the text says you, the abilities say an opponent"),
    ("When Ember Test enters the field, deal 2 damage to up to 2 target creatures an opponent controls.", "W002",
     "targets: the text says up to 2 creature, the abilities say 1 creature"),
    ("When Ember Test enters the field, deal 2 damage to target player an opponent controls.", "W002",
     "targets: the text says 1 player, the abilities say 1 creature"),
    ("When Ember Test enters the field, deal 3 damage to target creature an opponent controls.", "W003",
     "numbers: the text says 3, the abilities say 2"),
    ("When Ember Test enters the field, destroy target creature an opponent controls; it takes two damage.", "W004",
     "effects: the text says destroy, the abilities say nothing"),
])
def test_planted_mismatch_warns_word_for_word(text: str, code: str, what: str):
    assert warnings(text) == [expected(code, what).format(text=text)]


def test_effect_missing_from_text_warns():
    text = "When Ember Test enters the field, target creature an opponent controls gets 2 fewer friends."
    found = warnings(text)
    assert len(found) == 1 and "W004 the text and the abilities differ in effects: the text says nothing, " \
                                "the abilities say deal damage" in found[0]


def test_features_read_numbers_scope_targets_and_verbs():
    f = features("When one of your units attacks, draw two cards and deal 1000 damage to target opponent unit.")
    assert f.numbers == {2, 1000}
    assert f.scope == {"you", "an opponent"}
    assert f.targets == ("1 unit",)
    assert f.effects == {"draw", "deal damage"}


def _cli(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tools", "--root", str(root), *args], capture_output=True,
                          text=True, cwd=ROOT, check=False)


def test_check_prints_warnings_and_strict_fails(tmp_path: Path):
    shutil.copytree(ROOT / "tests" / "golden" / "cards", tmp_path / "cards")
    folder = next(p for p in (tmp_path / "cards").iterdir() if p.is_dir())
    text = "When Ember Test enters the field, deal 3 damage to target creature an opponent controls."
    (folder / "planted.card").write_text(CARD.format(text=text, ability=ABILITY), encoding="utf-8")
    assert _cli(tmp_path, "build").returncode == 0  # warnings never fail a build
    plain = _cli(tmp_path, "check")
    assert plain.returncode == 0, plain.stderr
    line = f"cards/{folder.name}/planted.card:5:5: warning W003 the text and the abilities differ in numbers: " \
           "the text says 3, the abilities say 2"
    assert line in plain.stderr.splitlines()
    strict = _cli(tmp_path, "check", "--strict")
    assert strict.returncode == 1
    assert line in strict.stderr.splitlines()
    assert "cardc check --strict: warnings count as errors" in strict.stderr


def codes(text: str, ability: str, item: str = CARD) -> list[str]:
    """Return the codes and messages of one planted item's warnings, without their notes."""
    source = item.format(text=text, ability=ability)
    return [f"{d.code} {d.message.split(': ', 1)[1]}" for d in check_texts([parse(source, "x.card")])]


KEYWORD = '''keyword Thornguard(n) {{
    text "{text}"
    {ability}
}}
'''
GRANT = "when this enters the field: give target creature you control Driftstep until end of turn."
GAIN = "when this enters the field: you gain (its power) life."
COUNT = "when this enters the field: you gain (min(3, number of creatures you control)) life."
HALF = "when this blocks: deal (its power / 2 rounded down) damage to the attacker."
SHELL = "keywords Shellplate(1)\n    when this enters the field: draw 2 cards."
TOKEN = 'when this enters the field: create 1 "Ember Test" token.'
PREVENT = "static: damage to this is reduced by n."
IMMUNE = "static: this can't be damaged."
EVERY = "static: this gets +(min(3, turn number / 6 rounded down)) power."


# each reading of the comparer: the false positive it removes (no warning), then a planted mismatch of the
# same kind that still warns
@pytest.mark.parametrize(("text", "ability", "item", "found"), [
    # the rules text brackets sums; only a card's hand-written brackets are reminders
    ("Ember Test gets +1 power for every 6 turns of the game so far, up to +3.", EVERY, CARD, []),
    ("Ember Test gets +1 power for every 5 turns of the game so far, up to +3.", EVERY, CARD,
     ["W003 the text says 1, 5, the abilities say 6"]),
    # a 1 the other text lacks is said without a number ('for each'); with another number it is listed
    ("You gain 1 life for each creature you control, up to 3.", COUNT, CARD, []),
    ("You gain 1 life for each creature you control, up to 4.", COUNT, CARD,
     ["W003 the text says 1, 4, the abilities say 3"]),
    # a keyword's own brackets are its definition, read
    ("Thornguard N (damage dealt to this creature is reduced by N).", PREVENT, KEYWORD, []),
    ("Thornguard N (this creature deals N damage to the attacker).", PREVENT, KEYWORD,
     ["W004 the text says deal damage, the abilities say nothing"]),
    # preventing damage is not dealing it
    ("This creature takes no damage.", IMMUNE, KEYWORD, []),
    ("This creature takes 2 damage.", IMMUNE, KEYWORD,
     ["W003 the text says 2, the abilities say nothing", "W004 the text says deal damage, the abilities say nothing"]),
    # gaining a keyword is 'give'; gaining an amount is 'gain'
    ("When Ember Test enters the field, target creature you control gains Driftstep until end of turn.", GRANT, CARD, []),
    ("When Ember Test enters the field, target creature you control gains Driftstep and you gain 2 life.", GRANT,
     CARD, ["W003 the text says 2, the abilities say nothing", "W004 the text says gain, the abilities say nothing"]),
    ("When Ember Test enters the field, you gain life equal to its power.", GAIN, CARD, []),
    ("When Ember Test enters the field, you lose life equal to its power.", GAIN, CARD,
     ["W004 the text says lose, the abilities say gain"]),
    # 'half' and 'twice' say 2
    ("When Ember Test blocks, it deals half its power, rounded down, as damage to the attacker.", HALF, CARD, []),
    ("When Ember Test blocks, it deals a third of its power as damage to the attacker.", HALF, CARD,
     ["W003 the text says 3, the abilities say 2"]),
    # English says one without a number ('create a token'); any other number still counts
    ("When Ember Test enters the field, create an Ember Test token.", TOKEN, CARD, []),
    ("When Ember Test enters the field, create two Ember Test tokens.", TOKEN, CARD,
     ["W003 the text says 2, the abilities say 1"]),
    # a keyword the text never names is printed by name on the card: its line is left out
    ("When Ember Test enters the field, draw 2 cards.", SHELL, CARD, []),
    ("Shellplate 3. When Ember Test enters the field, draw 2 cards.", SHELL, CARD,
     ["W003 the text says 3, the abilities say 1"]),
])
def test_reading_removes_false_positive_and_keeps_planted_mismatch(text: str, ability: str, item: str,
                                                                   found: list[str]):
    assert codes(text, ability, item) == found


@pytest.mark.parametrize(("text", "targets"), [
    ("Range 2. Target character an opponent controls gets Might -2.", ("1 character",)),  # 2 ends its sentence
    ("Range 2: 2 target characters an opponent controls get Might -2.", ("2 character",)),
    ("Its controller's own effects may target it.", ()),  # the verb
    ("Its controller's own effects may target creatures.", ("1 creature",)),
])
def test_targets_are_read_within_their_sentence_and_not_as_a_verb(text: str, targets: tuple[str, ...]):
    assert features(text).targets == targets


@pytest.mark.parametrize(("text", "numbers", "scope", "effects"), [
    ("Put 1 +100/+100 counter on it.", {1}, set(), set()),  # a counter's kind is not an amount
    ("Each counter gives +100/+100.", {100}, set(), set()),  # ...but a counter's own amounts are
    ("While you hold 3 or more memories, you gain a tenth of it.", {3, 10}, {"you"}, set()),
    ("Put a card from your discard pile into your hand.", {1}, {"you"}, set()),
    ("Discard a card; return it to its owners' hands.", {1}, set(), {"discard", "return to hand"}),
])
def test_features_of_counters_memories_piles_and_hands(text: str, numbers: set[int], scope: set[str],
                                                       effects: set[str]):
    f = features(text)
    assert (f.numbers, f.scope, f.effects) == (numbers, scope, effects)


def test_keyword_without_abilities_is_not_compared():
    source = 'keyword Penetrate {\n    text "When this wins a battle, the defending player takes 1 damage."\n}\n'
    assert check_texts([parse(source, "x.card")]) == []


def test_strict_check_passes_on_the_whole_project():
    # every card, keyword and status of every pool under cards/: its text says what its abilities do
    result = _cli(ROOT, "check", "--strict")
    assert result.returncode == 0, result.stderr
    assert " warning W0" not in result.stderr


@pytest.mark.parametrize("root", sorted((ROOT / "tests" / "rulesets").glob("*/")) + [ROOT / "tests" / "golden"],
                         ids=lambda p: p.name)
def test_test_rulesets_have_no_text_warnings(root: Path):
    assert [d.render(None) for d in project_warnings(root)] == []
