"""Rules text: every card, keyword, status and enchantment of every folder renders, the same way each time;
a sample of rendered texts matches tests/rules_text/expected.txt (CARDC_UPDATE_GOLDEN=1 rewrites it)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from compiler import nodes as n
from compiler.parser import parse
from compiler.rules_check import check_texts
from compiler.rules_text import render, render_ability
from tests.conftest import ROOT

FOLDERS = sorted((ROOT / "cards").glob("*/")) + sorted((ROOT / "tests" / "rulesets").glob("*/cards/*/"))
EXPECTED = ROOT / "tests" / "rules_text" / "expected.txt"
SAMPLE_EVERY = 9  # every ninth item of each folder goes into the expected file


def items(folder: Path) -> list[n.Item]:
    """Return the cards, keywords, statuses and enchantments of a folder, in file order."""
    files = [parse(p.read_text(encoding="utf-8"), p.relative_to(ROOT).as_posix()) for p in sorted(folder.glob("*.card"))]
    return [i for f in files for i in f.items if not isinstance(i, n.Ruleset)]


def _name(item: n.Item) -> str:
    return item.name if isinstance(item, n.Card) else item.name.value


def _has_rules(item: n.Item) -> bool:
    """Return whether an item has something to say: a keyword, an ability, a heading (non-cards)."""
    if not isinstance(item, n.Card):
        return True
    return bool(item.abilities) or any(isinstance(p, (n.KeywordsDecl, n.RangeDecl)) for p in item.parts)


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_every_item_renders(folder: Path):
    found = items(folder)
    assert found
    for item in found:
        text = render(item)
        assert bool(text) == _has_rules(item), _name(item)
        assert render(item) == text  # deterministic
        assert "\n\n" not in text and "  " not in text and "((" not in text, text


def test_render_ability_one_line_per_ability():
    card = next(i for i in items(ROOT / "cards" / "simple_duel") if _name(i) == "Quillback Scout")
    assert render_ability(card.abilities[0], card.name) == "When Quillback Scout is blocked, deal 1 damage to the blocker."
    assert render_ability(card.abilities[0]) == "When this card is blocked, deal 1 damage to the blocker."


def sample() -> str:
    """Return the expected file's text: a sample of every folder's rendered items."""
    out = []
    for folder in FOLDERS:
        for item in items(folder)[::SAMPLE_EVERY]:
            out.append(f"## {folder.name}: {_name(item)}\n{render(item)}\n")
    return "\n".join(out)


def test_rendered_sample_matches_expected():
    text = sample()
    if os.environ.get("CARDC_UPDATE_GOLDEN"):
        EXPECTED.write_text(text, encoding="utf-8")
    assert text == EXPECTED.read_text(encoding="utf-8")


DOC = ROOT / "docs" / "rules-text.md"
EXAMPLE = re.compile(r"```card\n(.*?)\n```\n\n```(rules|warnings)\n(.*?)\n```", re.S)


def _pool_sources() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "cards").glob("*/*.card")))


@pytest.mark.parametrize("number", range(len(EXAMPLE.findall(DOC.read_text(encoding="utf-8")))))
def test_doc_example_renders_as_shown(number: int):
    # docs/rules-text.md: each ```card block, then the ```rules text it renders or the ```warnings it gives
    source, kind, shown = EXAMPLE.findall(DOC.read_text(encoding="utf-8"))[number]
    file = parse(source, "example.card")
    if kind == "rules":
        assert "\n\n".join(render(i) for i in file.items) == shown
        pools = _pool_sources()  # a rendering example shows real items of the pools, as they are today
        assert all(chunk in pools for chunk in source.split("\n\n"))
    else:
        assert "\n".join(d.render(source) for d in check_texts([file])) == shown
