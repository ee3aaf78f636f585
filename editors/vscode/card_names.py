"""The names the card files of cards/ declare: zones, kinds, stats, keywords, statuses, enchantments."""

from __future__ import annotations

import re
from pathlib import Path

from compiler import nodes as n
from compiler.parser import parse

# only files that declare something are parsed (the card files proper declare none of these)
DECLARES = re.compile(r"^\s*(?:ruleset|keyword|status|enchantment)\s", re.M)
SETTINGS = {"kinds": "kinds", "stats": "stats", "resource": "stats"}


def declared(cards: Path) -> dict[str, list[str]]:
    """Return the names declared by the card files under `cards`, sorted, by what they name."""
    found: dict[str, set[str]] = {k: set() for k in ("zones", "kinds", "stats", "keywords", "statuses",
                                                     "enchantments")}
    for path in sorted(cards.rglob("*.card")):
        text = path.read_text(encoding="utf-8")
        if DECLARES.search(text):
            for item in parse(text, str(path)).items:
                _collect(item, found)
    return {k: sorted(names) for k, names in found.items()}


def _collect(item: n.Node, found: dict[str, set[str]]) -> None:
    """Add the names one item of a card file declares."""
    if isinstance(item, n.KeywordDef):
        found["keywords"].add(item.name.value)
    elif isinstance(item, n.StatusDef):
        found["statuses"].add(item.name.value)
    elif isinstance(item, n.EnchantmentDef):
        found["enchantments"].add(item.name.value)
    elif isinstance(item, n.Ruleset):
        for rule in item.rules:
            _collect_rule(rule, found)


def _collect_rule(rule: n.Node, found: dict[str, set[str]]) -> None:
    """Add the zone, kind and stat names a ruleset line declares."""
    if isinstance(rule, n.Variant):
        rule = rule.rule
    if isinstance(rule, n.ZoneDecl):
        found["zones"].add(rule.name.value)
    elif isinstance(rule, n.Setting) and rule.key in SETTINGS:
        values = rule.values[:1] if rule.key == "resource" else rule.values
        found[SETTINGS[rule.key]].update(x.value for x in values if isinstance(x, n.Name))
