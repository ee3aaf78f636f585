"""Completion that knows the grammar: what the parser accepts at the cursor (compiler.parser.expected_at),
the words of the language it expects, the event phrases that start with them, and the names of the
document's ruleset folder where a name (or, in a card file, a quoted card name) can come.
"""

from __future__ import annotations

from dataclasses import dataclass

from compiler.parser import expected_at
from compiler.symbols import collect
from runtime import vocabulary as v
from tools.lsp.names import Folder

START = {"card": "start", "deck": "deck", "party": "party", "scenario": "scenario",
         "battle_scenario": "battle_scenario", "team": "team"}


@dataclass(frozen=True)
class Item:
    """One completion: the text inserted, what it is ('keyword', 'card', 'status', 'zone', ...)."""

    label: str
    what: str


def complete(kind: str, text: str, offset: int, folder: Folder | None) -> list[Item]:
    """Return the completions at an offset (the start of the word being typed is where the grammar is asked)."""
    start = offset
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_'-"):
        start -= 1
    expected = expected_at(text, start, START[kind]) if kind in START else []
    words = [w for w in expected if w[:1].isalpha() and w.islower()]
    items = [Item(w, "keyword") for w in words]
    items += [Item(p, "event") for p in v.EVENT_PHRASES if p.split()[0] in words and " " in p]
    sheet = kind != "card"  # a line-based file may name a card, a status or a zone on most of its lines
    if folder is not None:
        items += _names(folder, kind, sheet or "NAME" in expected or not expected, sheet or "STRING" in expected or not expected)
    return list(dict.fromkeys(items))


def _names(folder: Folder, kind: str, names: bool, cards: bool) -> list[Item]:
    """Return the folder's names a position can take: keywords, statuses, zones and the like; card names."""
    found: list[Item] = []
    if names:
        sym = collect([f for f, _ in folder.files])
        found += [Item(k, "keyword name") for k in folder.names("keyword")]
        found += [Item(s, "status") for s in folder.names("status")]
        for what in ("zones", "stats", "resources", "kinds", "phases"):
            found += [Item(name, what[:-1]) for name in getattr(sym, what)]
    if cards:
        quote = '"' if kind == "card" else ""
        found += [Item(f"{quote}{c}{quote}", "card") for c in folder.names("card")]
    return found
