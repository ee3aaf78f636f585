"""The text check: planted mismatches of scope, targets, numbers and effects each give their warning, word
for word; harmless rewording gives none; `cardc check` prints warnings and succeeds, `--strict` fails."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.parser import parse
from compiler.rules_check import check_texts, features
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
