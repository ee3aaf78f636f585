"""Where the parser may pick up again after a syntax error: the sentence ends, braces and line
starts of a card file's text, found without the grammar (compiler/parser.py drives the recovery).

A resume point is *strong* when it is a boundary the language always has (just after a sentence's
'.', just before or after a '}'); the parser resumes there once one token fits. A *weak* point (a
line start, or the unexpected word itself) must be followed by three tokens that parse, so that a
sentence wrapped over two lines is not taken for a new one.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

# strings and comments hide their '.' and braces; an unclosed string runs to the end of its line
_MARKS = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*|(?P<mark>[.{}])')
_LINE_START = re.compile(r"^[ \t\r\f\v]*(?=[^\s#])", re.M)


@dataclass(frozen=True)
class Marks:
    """The places of one text that a recovery can resume at."""

    dots: tuple[int, ...]
    braces: tuple[tuple[int, int], ...]  # (position, +1 for '{' or -1 for '}'), in text order
    line_starts: tuple[int, ...]
    end: int


def scan(text: str) -> Marks:
    """Return the sentence ends, braces and line starts of a text."""
    dots: list[int] = []
    braces: list[tuple[int, int]] = []
    for m in _MARKS.finditer(text):
        mark = m.group("mark")
        if mark == ".":
            dots.append(m.start())
        elif mark:
            braces.append((m.start(), 1 if mark == "{" else -1))
    starts = tuple(m.end() for m in _LINE_START.finditer(text))
    return Marks(tuple(dots), tuple(braces), starts, len(text))


def resume_points(marks: Marks, after: int) -> list[tuple[int, bool]]:
    """Return (position, strong) for every resume point past `after`, nearest first."""
    points = {p + 1: True for p in marks.dots if p >= after}
    for pos, step in marks.braces:
        if step < 0 and pos > after:
            points[pos] = True
        if step < 0 and pos >= after:
            points[pos + 1] = True
    for pos in marks.line_starts[bisect.bisect_right(marks.line_starts, after):]:
        points.setdefault(pos, False)
    points[marks.end] = True
    return sorted(points.items())


def same_block(marks: Marks, start: int, end: int, ignored: frozenset[int], outward: bool) -> bool:
    """Return whether text from `start` to `end` stays in the block open at `start`.

    With `outward`, blocks opened in between may stay open (the parser abandons them); without,
    they must all be closed again. Braces at `ignored` positions (stray ones) do not count.
    """
    depth = 0
    for pos, step in marks.braces:
        if pos < start or pos in ignored:
            continue
        if pos >= end:
            break
        depth += step
        if depth < 0:
            return False
    return depth == 0 or (outward and depth > 0)



def closers(marks: Marks, start: int, end: int, ignored: frozenset[int]) -> set[int]:
    """Return the places of the '}' that close the blocks opened between `start` and `end` and left
    open at `end` (a parser that resumes outside those blocks would take each for a stray brace)."""
    left_open, depth, found = 0, 0, set[int]()
    for pos, step in marks.braces:
        if pos < start or pos in ignored:
            continue
        if pos < end:
            left_open = max(0, left_open + step)
            continue
        if len(found) == left_open:
            break
        depth += step
        if depth < 0:
            found.add(pos)
            depth = 0
    return found
