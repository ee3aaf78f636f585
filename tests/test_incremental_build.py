"""A build after an edit parses only what changed (compiler/records.py) and writes exactly what a cold build of
the same cards writes; its errors are a cold build's errors, located in the same files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import compiler.folder_build
from compiler.build import CompileError, build, compile_project
from compiler.freshness import outdated


@pytest.fixture
def built(tmp_path: Path, built_snapshot: Path) -> Path:
    """A private copy of the session's built project."""
    root = tmp_path / "built"
    shutil.copytree(built_snapshot, root)
    return root


def edit(root: Path, rel: str, old: str, new: str, count: int = 1) -> None:
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted((root / "generated").rglob("*.py"))}


def cold(root: Path, tmp_path: Path) -> dict[str, bytes]:
    """Return what a cold build of the same cards writes."""
    fresh = tmp_path / "cold"
    shutil.copytree(root / "cards", fresh / "cards")
    build(fresh)
    return tree(fresh)


def parsed_during(root: Path, monkeypatch) -> list[str]:
    """Build the project; return the card files it parsed."""
    seen: list[str] = []
    real = compiler.folder_build.parse

    def parse(text: str, path: str = "<text>"):
        seen.append(path)
        return real(text, path)

    monkeypatch.setattr(compiler.folder_build, "parse", parse)
    build(root)
    return seen


def test_a_card_edit_parses_its_file_and_the_definitions_alone_and_writes_a_cold_builds_bytes(built, tmp_path,
                                                                                               monkeypatch):
    edit(built, "cards/simple_duel/creatures.card", "stats power 1,", "stats power 2,")
    assert parsed_during(built, monkeypatch) == ["cards/simple_duel/creatures.card", "cards/simple_duel/keywords.card",
                                                 "cards/simple_duel/ruleset.card"]
    assert outdated(built) == [] and tree(built) == cold(built, tmp_path)


@pytest.mark.parametrize(("rel", "old", "new"), [
    # a setting of the ruleset that lowering reads: every module of the folder changes
    ("cards/code_of_joker/ruleset.card", "    triggered abilities interrupt effects between sentences", "    # none"),
    ("cards/simple_duel/creatures.card", "Marrow Lark", "Marrow Linnet"),  # a name: the folder's symbols change
    ("cards/code_of_joker/units.card", "attributes colour red", "attributes colour blue"),  # first-use order
    ("cards/simple_duel/creatures.card", "# Simple Duel", "\n\n# Simple Duel"),  # every card of a file moves
    ("cards/simple_duel/spells.card", 'card "Flare Needle" {\n    kind spell', 'card "Flare Needle" {\n    kind spell\n    token'),
])
def test_an_edit_builds_what_a_cold_build_writes(built, tmp_path, rel, old, new):
    edit(built, rel, old, new, count=-1)
    build(built)
    assert outdated(built) == [] and tree(built) == cold(built, tmp_path)


def test_a_new_file_and_a_removed_file_build_what_a_cold_build_writes(built, tmp_path):
    (built / "cards/simple_duel/extra.card").write_text(
        'card "Extra Imp" {\n    kind creature\n    cost 1 mana\n    stats power 1, speed 1\n'
        '    when this is summoned: create 1 "Pebble Sprite" tokens.\n}\n', encoding="utf-8")
    (built / "cards/code_of_joker/cases_timing.card").unlink()
    build(built)
    assert outdated(built) == [] and tree(built) == cold(built, tmp_path)


def errors(root: Path) -> list[str]:
    """Return the errors a build reports, one line each."""
    with pytest.raises(CompileError) as err:
        build(root)
    return [f"{d.path}:{d.line}:{d.col}: {d.code} {d.message}" for d in err.value.diagnostics]


def cold_errors(root: Path) -> list[str]:
    with pytest.raises(CompileError) as err:
        compile_project(root)
    return [f"{d.path}:{d.line}:{d.col}: {d.code} {d.message}" for d in err.value.diagnostics]


def test_a_card_defined_twice_is_found_in_the_file_that_was_not_parsed_again(built):
    (built / "cards/simple_duel/a_first.card").write_text('card "Wickwing Moth" {\n    kind creature\n}\n',
                                                           encoding="utf-8")
    before = tree(built)
    found = errors(built)
    assert found == cold_errors(built)
    assert any(e.startswith("cards/simple_duel/creatures.card:7:1: E102 card 'Wickwing Moth' is defined twice; "
                            "first at cards/simple_duel/a_first.card:1:1") for e in found)
    assert tree(built) == before  # nothing was written


def test_a_name_one_file_uses_and_another_renames_is_an_error_in_the_file_that_uses_it(built):
    (built / "cards/simple_duel/extra.card").write_text(
        'card "Extra Imp" {\n    kind creature\n    cost 1 mana\n    stats power 1, speed 1\n'
        '    when this is summoned: create 1 "Pebble Sprite" tokens.\n}\n', encoding="utf-8")
    build(built)
    edit(built, "cards/simple_duel/creatures.card", '"Pebble Sprite"', '"Pebble Spright"', count=-1)
    found = errors(built)
    assert found == cold_errors(built)
    assert [e.split(":")[0] for e in found] == ["cards/simple_duel/extra.card"] and "Pebble Sprite" in found[0]


def test_a_syntax_error_in_the_edited_file_is_reported_as_a_cold_build_reports_it(built):
    edit(built, "cards/simple_duel/creatures.card", "kind creature", "kind creature {")
    before = tree(built)
    assert errors(built) == cold_errors(built) != []
    assert tree(built) == before
