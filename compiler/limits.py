"""The size every file cardc reads must keep, checked before it is parsed, so that a bounded reader does
bounded work: a text past a limit is one located error (E008), found without parsing it.

The largest real files are far below (a 23 KB card file of about 800 lines, lines of at most 312
characters); a 100,000-card file, a 1 MB name or a 100,000-line deck is refused at once.
"""

from __future__ import annotations

from compiler.diagnostics import Diagnostic

MAX_CHARS = 1 << 20  # characters in one file (1 MiB of ASCII text)
MAX_LINES = 20_000
MAX_LINE_CHARS = 10_000


def size_problem(text: str, path: str) -> Diagnostic | None:
    """Return the error of a text past a size limit, at the place where it passes it, or None."""
    if len(text) > MAX_CHARS:
        line = text.count("\n", 0, MAX_CHARS) + 1
        col = MAX_CHARS - (text.rfind("\n", 0, MAX_CHARS) + 1) + 1
        return Diagnostic("E008", f"the file is longer than {MAX_CHARS} characters; split it", path, line, col)
    lines = text.split("\n")
    if len(lines) > MAX_LINES:
        return Diagnostic("E008", f"the file has more than {MAX_LINES} lines; split it", path, MAX_LINES + 1, 1)
    for number, row in enumerate(lines, 1):
        if len(row) > MAX_LINE_CHARS:
            message = f"line {number} has {len(row)} characters; a line holds at most {MAX_LINE_CHARS}"
            return Diagnostic("E008", message, path, number, MAX_LINE_CHARS + 1)
    return None
