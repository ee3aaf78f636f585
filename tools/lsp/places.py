"""Where a file belongs (project root, ruleset folder, format), offsets as LSP positions, and a small lexer."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from compiler.fmt_sheets import format_kind

# folders of a ruleset that hold files naming its cards: cards/<ruleset>/decks/x.deck ...
SHEET_FOLDERS = ("decks", "teams", "parties")
SHEET_SUFFIXES = (".deck", ".team", ".sw", ".scenario", ".battle")
_TOKEN = re.compile(r'(?P<string>"(?:[^"\\\n]|\\.)*"?)|(?P<comment>#[^\n]*)|(?P<word>[A-Za-z_][\w\'-]*)|(?P<other>\S)')
_RULESET_LINE = re.compile(r"^ruleset[ \t]+(\S+)", re.M)
_RULESET_KEY = re.compile(r'"ruleset"\s*:\s*"([^"\\]*)"')


@dataclass(frozen=True)
class Place:
    """A file of a project: its format ('card', 'deck', ...), project root and ruleset (folder name)."""

    path: Path
    kind: str
    root: Path
    ruleset: str

    @property
    def folder(self) -> Path:
        """Return the ruleset's card folder."""
        return self.root / "cards" / self.ruleset

    @property
    def rel(self) -> str:
        """Return the path as `cardc check` names it: relative to the project root when it is inside."""
        try:
            return self.path.relative_to(self.root).as_posix()
        except ValueError:
            return str(self.path)


def place_of(path: Path, text: str, fallback_root: Path) -> Place | None:
    """Return where a file belongs, or None for a file cardc does not read."""
    kind = "card" if path.suffix == ".card" else format_kind(path)
    if kind is None:
        return None
    if kind == "card" or (kind in ("deck", "team", "party") and path.parent.name in SHEET_FOLDERS):
        folder = path.parent if kind == "card" else path.parent.parent
        root = folder.parent.parent if folder.parent.name == "cards" else folder.parent
        return Place(path, kind, root, folder.name)
    root = next((p for p in path.parents if (p / "cards").is_dir()), fallback_root)
    named = (_RULESET_LINE if kind == "scenario" else _RULESET_KEY).search(text) if kind != "battle_scenario" else None
    return Place(path, kind, root, named.group(1) if named else path.parent.name)


def tokens(text: str) -> Iterator[tuple[str, int, int]]:
    """Return (kind, start, end) of each string, comment, word and other character of a card file."""
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        assert kind is not None
        yield kind, m.start(), m.end()


def unquoted(string: str) -> str:
    """Return the value of a string token: quotes dropped, escapes read (docs/language.md 1.4)."""
    body = string[1:-1] if len(string) > 1 and string.endswith('"') else string[1:]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def offset_of(text: str, line: int, col: int) -> int:
    """Return the offset of a 1-based line and column (code points), clamped to the text."""
    start = 0
    for _ in range(line - 1):
        found = text.find("\n", start)
        if found < 0:
            return len(text)
        start = found + 1
    end = text.find("\n", start)
    return min(start + max(col, 1) - 1, len(text) if end < 0 else end)


def position(text: str, offset: int) -> tuple[int, int]:
    """Return the 0-based line and UTF-16 column of an offset, as LSP positions count them."""
    line_start = text.rfind("\n", 0, offset) + 1
    before = text[line_start:offset]
    return text.count("\n", 0, offset), len(before.encode("utf-16-le")) // 2


def offset_at(text: str, line: int, character: int) -> int:
    """Return the offset of a 0-based line and UTF-16 column."""
    start = offset_of(text, line + 1, 1)
    end = text.find("\n", start)
    line_text = text[start:] if end < 0 else text[start:end]
    units = 0
    for i, ch in enumerate(line_text):
        if units >= character:
            return start + i
        units += 2 if ord(ch) > 0xFFFF else 1
    return start + len(line_text)


def word_end(text: str, offset: int) -> int:
    """Return where the token that starts at an offset ends (a diagnostic's range): a word, a string, a character."""
    m = _TOKEN.match(text, offset)
    return m.end() if m and m.lastgroup != "comment" and "\n" not in m.group() else min(offset + 1, len(text))


def token_at(text: str, offset: int) -> tuple[str, int, int] | None:
    """Return the string or word token under an offset (or just before it), or None."""
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    for kind, start, end in tokens(text[line_start:len(text) if line_end < 0 else line_end]):
        if kind in ("string", "word") and start <= offset - line_start <= end:
            return kind, line_start + start, line_start + end
    return None
