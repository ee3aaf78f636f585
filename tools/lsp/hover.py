"""Hover: a card, keyword or status shown with its definition and text; a word of the language with the
section of docs/language.md that documents it.

The docs index maps each section (a `###` or `####` heading) to the words it documents: an event phrase
of its tables (`| \\`is summoned\\` |`), the words of its heading, and the first literal of each grammar
rule in its ```text blocks (`destroy := "destroy" object`). A word takes the first section whose heading
names it, else the first whose grammar or table does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from compiler import nodes as n
from compiler import rules_text
from runtime import vocabulary as v
from tools.lsp.names import Definition, Folder

LANGUAGE_DOC = Path(__file__).resolve().parents[2] / "docs" / "language.md"
RULESET_WORDS = {"zones": "Zones", "stats": "Kinds, stats and kind traits", "resources": "Resources",
                 "kinds": "Kinds, stats and kind traits", "phases": "Turn structure: phases, steps and turn end"}
MAX_SECTION_LINES = 40


@dataclass(frozen=True)
class Section:
    heading: str
    body: str


def card_text(card: n.Card) -> str:
    """Return the text shown for a card: the rules text rendered from its abilities, then its `text` field."""
    printed = next((p.text for p in card.parts if isinstance(p, n.TextDecl)), "")
    return _with_rules(card, printed)


def _with_rules(item: n.Card | n.KeywordDef | n.StatusDef, printed: str) -> str:
    """Return the rendered rules text (when there is any) above the printed text."""
    rules = rules_text.render(item).replace("\n", " ")
    return "\n\n".join(x for x in (f"*Rules text:* {rules}" if rules else "", printed) if x)


def definition_hover(d: Definition) -> str:
    """Return the Markdown shown for a card, keyword or status: what it is, where, its header, its text."""
    where = f"{d.span.path.name}:{d.span.text.count(chr(10), 0, d.span.start) + 1}"
    head = f'**{d.kind} "{d.name}"**' if d.kind == "card" else f"**{d.kind} {d.name}**"
    if isinstance(d.item, n.Card):
        lines = [_source_line(d.span.text, p.loc.line) for p in d.item.parts if not isinstance(p, n.TextDecl)]
        text = card_text(d.item)
    else:
        lines = d.span.text[d.span.start:d.span.end].split("\n")[:MAX_SECTION_LINES]
        text = getattr(d.item, "text", None) or ""
        if isinstance(d.item, n.KeywordDef | n.StatusDef):
            text = _with_rules(d.item, text)
    body = "\n".join(["```card", *lines, "```"])
    return f"{head} ({where})\n\n{body}" + (f"\n\n{text}" if text else "")


def _source_line(text: str, line: int) -> str:
    return text.split("\n")[line - 1].strip()


def word_hover(folder: Folder | None, line: str, col: int, word: str) -> str | None:
    """Return the Markdown of a word of the language under a column of a line (None if it has no entry)."""
    phrase = next((p for p in v.EVENT_PHRASES if _spans(line, p, col)), None)
    if phrase is not None:
        section = _find(f"`{phrase}`")
        return _shown(section, f"event phrase '{phrase}'") if section else None
    sym_kind = _ruleset_name_kind(folder, word)
    if sym_kind:
        section = next((s for s in index() if s.heading.endswith(RULESET_WORDS[sym_kind])), None)
        return _shown(section, f"{sym_kind[:-1]} '{word}' of this ruleset") if section else None
    section = _find(word)
    return _shown(section, f"'{word}'") if section else None


def _spans(line: str, phrase: str, col: int) -> bool:
    return any(m.start() <= col <= m.end() for m in re.finditer(rf"\b{re.escape(phrase)}\b", line))


def _ruleset_name_kind(folder: Folder | None, word: str) -> str:
    """Return which names of the folder's ruleset a word is one of ('zones', 'stats', ...), or ''."""
    if folder is None:
        return ""
    from compiler.symbols import collect

    sym = collect([f for f, _ in folder.files])
    return next((k for k in RULESET_WORDS if word in getattr(sym, k)), "")


def _shown(section: Section, what: str) -> str:
    lines = section.body.strip("\n").split("\n")
    more = "\n\n…" if len(lines) > MAX_SECTION_LINES else ""
    return f"{what} — docs/language.md, **{section.heading}**\n\n" + "\n".join(lines[:MAX_SECTION_LINES]) + more


def _find(word: str) -> Section | None:
    """Return the section that documents a word or a backquoted phrase (module docstring)."""
    if word.startswith("`"):
        return next((s for s in index() if f"| {word} |" in s.body), None)
    low = word.lower()
    by_heading = next((s for s in index() if low in re.findall(r"[a-z'-]+", s.heading.lower())), None)
    return by_heading or next((s for s in index() if low in _grammar_words(s.body)), None)


def _grammar_words(body: str) -> set[str]:
    """Return the first literal of each grammar rule of a section's ```text blocks."""
    blocks = re.findall(r"```text\n(.*?)```", body, re.S)
    return {m.lower() for block in blocks for m in re.findall(r':=\s*\[?\(?"([^"]+)"', block)}


@lru_cache(maxsize=1)
def index() -> tuple[Section, ...]:
    """Return the sections of docs/language.md (each ### and #### heading with its text), in order."""
    text = LANGUAGE_DOC.read_text(encoding="utf-8") if LANGUAGE_DOC.is_file() else ""
    parts = re.split(r"^(#{3,4} .+)$", text, flags=re.M)
    return tuple(Section(parts[i].lstrip("# ").strip(), parts[i + 1]) for i in range(1, len(parts) - 1, 2))
