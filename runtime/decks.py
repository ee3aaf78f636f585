"""Deck files: one line per entry, 'N Card Name' or 'Card Name'; '#' starts a comment."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class DeckProblem:
    """A located deck problem; codes as in compiler/diagnostics.py (E201 size or copies, E202 unknown
    card, E203 a line that is not 'N Card Name')."""

    path: str
    line: int
    col: int
    code: str
    message: str

    def render(self, source: str) -> str:
        """Return 'path:line:col: CODE message' with the source line and a caret."""
        head = f"{self.path}:{self.line}:{self.col}: {self.code} {self.message}"
        lines = source.splitlines()
        if not 1 <= self.line <= len(lines):
            return head
        return f"{head}\n    {lines[self.line - 1]}\n    {' ' * (self.col - 1)}^"


class DeckError(Exception):
    def __init__(self, problems: list[DeckProblem], source: str):
        self.problems, self.source = problems, source
        super().__init__("\n".join(p.render(source) for p in problems))


def parse_deck(text: str, path: str, known: set[str], size: int = 0, max_copies: int = 0,
               apart: frozenset[str] = frozenset()) -> list[str]:
    """Return the card names of a deck file in order, or raise DeckError with every problem located.

    Cards named in `apart` (jokers) are listed but count toward neither the size nor the copy limit.
    """
    deck: list[str] = []
    problems: list[DeckProblem] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].rstrip()
        body = line.lstrip()
        if not body:
            continue
        col = len(line) - len(body) + 1
        count_text, _, rest = body.partition(" ")
        count, name = (int(count_text), rest.strip()) if count_text.isdigit() else (1, body)
        name_col = col + (len(body) - len(body[len(count_text):].lstrip()) if count_text.isdigit() else 0)
        if count < 1:
            problems.append(DeckProblem(path, number, col, "E203", f"a count must be at least 1, found {count}"))
        elif name not in known:
            close = difflib.get_close_matches(name, sorted(known), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            problems.append(DeckProblem(path, number, name_col, "E202", f"unknown card '{name}'{hint}"))
        else:
            deck += [name] * count
            if max_copies and name not in apart and deck.count(name) > max_copies:
                problems.append(DeckProblem(path, number, col, "E201", f"'{name}' appears {deck.count(name)} times; "
                                                              f"at most {max_copies} are allowed"))
    counted = len([n for n in deck if n not in apart])
    if size and not problems and counted != size:
        problems.append(DeckProblem(path, 1, 1, "E201", f"the deck has {counted} cards; it must have exactly {size}"))
    if problems:
        raise DeckError(problems, text)
    return deck


def load_deck(path: Path, known: set[str], size: int = 0, max_copies: int = 0,
              apart: frozenset[str] = frozenset()) -> list[str]:
    """Return the cards of a deck file (see parse_deck)."""
    return parse_deck(path.read_text(encoding="utf-8"), str(path), known, size, max_copies, apart)
