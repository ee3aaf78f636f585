"""Definitions and references of cards, keywords and statuses across a ruleset folder and the files that
name them: its decks, teams and party files, and the scenarios and battle scenarios of its ruleset.

In card files a card is named by a string ("Ember"), a keyword or status by a word outside strings and
comments; in the line-based files a name is matched as a whole phrase outside comments, a shorter card
name inside a longer one ('Spark' in 'Spark Mage') not counting.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from compiler import nodes as n
from compiler.build import read_folder, read_source
from compiler.diagnostics import CompileError
from tools.lsp.places import SHEET_FOLDERS, SHEET_SUFFIXES, Place, tokens, unquoted

KINDS = {n.Card: "card", n.KeywordDef: "keyword", n.StatusDef: "status", n.EnchantmentDef: "enchantment",
         n.Ruleset: "ruleset"}


@dataclass(frozen=True)
class Span:
    """A stretch of a file: its path, its text and the offsets of the stretch."""

    path: Path
    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Definition:
    """An item of a card file: its kind, name, the span of its name, the span of the whole item, its node."""

    kind: str
    name: str
    name_span: Span
    span: Span
    item: n.Item


@dataclass
class Folder:
    """A ruleset folder read with the editor's unsaved texts: each card file's AST and text, and its items."""

    place: Place
    files: list[tuple[n.File, str]]
    definitions: dict[tuple[str, str], Definition]

    def named(self, name: str) -> Definition | None:
        """Return the card, keyword or status of that name (a card first), or None."""
        return next((self.definitions[(k, name)] for k in ("card", "keyword", "status", "enchantment")
                     if (k, name) in self.definitions), None)

    def names(self, kind: str) -> list[str]:
        """Return the names of the definitions of a kind, sorted."""
        return sorted(name for k, name in self.definitions if k == kind)


def read(place: Place, open_texts: dict[Path, str]) -> Folder:
    """Return a ruleset folder's definitions; files that do not parse are left out."""
    folder = place.folder
    texts = {p: t for p, t in open_texts.items() if p.parent == folder and p.suffix == ".card"}
    files, _, _ = read_folder(place.root, folder, texts) if folder.is_dir() else ([], None, [])
    found: dict[tuple[str, str], Definition] = {}
    for f, text in files:
        for item in f.items:
            d = definition(place.root / f.path, text, item)
            found.setdefault((d.kind, d.name), d)
    return Folder(place, files, found)


def definition(path: Path, text: str, item: n.Item) -> Definition:
    """Return an item's definition with the spans of its name and of the item up to its closing brace."""
    start = _offset(text, item.loc)
    if isinstance(item, n.Card):
        name_at = next(s for k, s, _ in tokens(text[start:]) if k == "string") + start
        name_end = next(e for k, _, e in tokens(text[name_at:]) if k == "string") + name_at
        name = item.name
    else:
        name_at = _offset(text, item.name.loc)
        name, name_end = item.name.value, name_at + len(item.name.value)
    return Definition(KINDS[type(item)], name, Span(path, text, name_at, name_end),
                      Span(path, text, start, _closing(text, start)), item)


def _offset(text: str, loc: n.Loc) -> int:
    from tools.lsp.places import offset_of

    return offset_of(text, loc.line, loc.col)


def _closing(text: str, start: int) -> int:
    """Return the offset just past the '}' that closes the first '{' after start (or the text's end)."""
    depth = 0
    for kind, s, e in tokens(text[start:]):
        ch = text[start + s] if kind == "other" else ""
        depth += (ch == "{") - (ch == "}")
        if ch == "}" and depth == 0:
            return start + e
    return len(text)


def sheet_files(place: Place) -> list[Path]:
    """Return the files beside a ruleset that name its cards: its decks, teams and parties, and the
    scenarios and battle scenarios of tests/*/<ruleset>/ and of the project's scenarios/ folder."""
    folders = [place.folder / f for f in SHEET_FOLDERS]
    folders += [p / place.ruleset for p in sorted((place.root / "tests").glob("*"))] + [place.root / "scenarios"]
    return sorted({p for f in folders if f.is_dir() for p in f.rglob("*") if p.suffix in SHEET_SUFFIXES})


def references(folder: Folder, kind: str, name: str, open_texts: dict[Path, str]) -> list[Span]:
    """Return every place a card, keyword or status is named, its definition included."""
    found: list[Span] = []
    for f, text in folder.files:
        path = folder.place.root / f.path
        for k, s, e in tokens(text):
            if (k == "string" and kind == "card" and unquoted(text[s:e]) == name and not _is_text(text, s)) or \
                    (k == "word" and kind != "card" and text[s:e] == name):
                found.append(Span(path, text, s, e))
    longer = [other for other in folder.names("card") if name in other and other != name]
    for path in sheet_files(folder.place):
        text = open_texts.get(path) or _saved(path)
        found += [Span(path, text, s, e) for s, e in phrases(text, name, longer)]
    return found


def _is_text(text: str, at: int) -> bool:
    """Return whether the string at an offset is a `text` or `title` field (prose, not a reference)."""
    return re.search(r"\b(text|title)\s*$", text[max(0, at - 20):at]) is not None


def _saved(path: Path) -> str:
    try:
        return read_source(path, str(path))
    except (CompileError, OSError):
        return ""


def phrases(text: str, name: str, longer: list[str]) -> list[tuple[int, int]]:
    """Return the spans of a name as a whole phrase outside comments, not inside a longer name."""
    def spans(word: str) -> list[tuple[int, int]]:
        pattern = re.compile(rf"(?<![\w'-]){re.escape(word)}(?![\w'-])")
        return [(m.start(), m.end()) for m in pattern.finditer(text) if not _in_comment(text, m.start())]

    covered = [span for other in longer for span in spans(other)]
    return [(s, e) for s, e in spans(name) if not any(a <= s and e <= b for a, b in covered)]


def _in_comment(text: str, at: int) -> bool:
    """Return whether an offset of a line-based file is inside a comment ('#' at a line's start or after a space)."""
    line = text[text.rfind("\n", 0, at) + 1:at]
    return re.search(r"(^|[ \t])#", line) is not None


def at(folder: Folder, text: str, offset: int, kind: str) -> Definition | None:
    """Return the card, keyword or status named at an offset of a file of the folder, or None."""
    from tools.lsp.places import token_at

    if kind == "card":
        token = token_at(text, offset)
        if token is None:
            return None
        word = text[token[1]:token[2]]
        return folder.named(unquoted(word) if token[0] == "string" else word)
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    line = text[line_start:len(text) if line_end < 0 else line_end]
    for name in sorted((nm for _, nm in folder.definitions if nm in line), key=len, reverse=True):
        if any(line_start + s <= offset <= line_start + e for s, e in phrases(line, name, [])):
            return folder.named(name)
    return None
