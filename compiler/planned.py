"""Constructs the language plans but has not built: a syntax error on their words says so.

docs/language.md marks each planned construct with "Status: planned" and proposes its syntax.
A designer who writes the proposal gets, instead of "unexpected ...", an E006 naming the
section (tests/test_recovery.py keeps this table and the document in step).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from compiler.diagnostics import Diagnostic


@dataclass(frozen=True)
class Planned:
    """A planned construct: the words that give it away, what it is, and its section of docs/language.md."""

    words: str  # a regular expression over the card text of one sentence or line
    says: str  # what it is, and 'is' or 'are'
    section: str
    opens: bool = False  # the words open a sentence or a part: any error later in it is theirs


PLANNED = (
    Planned(r"\binstead\s+when\b|\bwould\s+(?:take|be|deal|leave)\b|\bproceed\s+with\b",
            "replacement effects ('instead when ... would ...') are", "2.6.1", True),
    Planned(r"\btokens?\s+at\s+the\s+(?:left|right)\s+end\b",
            "creating tokens at a position ('at the left end') is", "2.9.17"),
    Planned(r"\bswap\b", "swapping positions ('swap') is", "2.9.19", True),
    Planned(r"\brepeat\s+\S+\s+times?\b", "repeating part of an effect ('repeat N times:') is", "2.9.23", True),
    Planned(r"\bfor\s+each\b", "a loop over cards ('for each ...,') is", "2.9.24", True),
    Planned(r"\ba\s+player\s+wins\s+when\b", "a win rule ('a player wins when ...') is", "2.12.31", True),
)

CODE = "E006"
_SENTENCE_END = re.compile(r"[.{}]")
_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*')


def recognise(text: str, pos: int) -> tuple[Planned, int, int] | None:
    """Return the planned construct a syntax error at offset `pos` is on, with its offsets, or None.

    Its words must be in the error's sentence (strings and comments do not count): at the error,
    just before it, or after it in the same part of the sentence (not past an ability header's ':');
    words that open a sentence own every error after them in it.
    """
    if not 0 <= pos <= len(text):
        return None
    plain = _STRING_OR_COMMENT.sub(lambda m: " " * len(m.group()), text)
    start, end = _sentence(plain, pos)
    words = plain[start:end]
    for item in PLANNED:
        for m in re.finditer(item.words, words):
            first, last = start + m.start(), start + m.end()
            right_after = last + len(words[m.end():]) - len(words[m.end():].lstrip())
            opening = item.opens and words[:m.start()].rstrip()[-1:] in ("", ":")
            if (opening and pos >= first) or (pos <= right_after and (pos >= first or ":" not in
                                                                       words[pos - start:m.start()])):
                return item, first, last
    return None


def _sentence(text: str, pos: int) -> tuple[int, int]:
    """Return the offsets of the sentence around `pos`: from the '.', '{' or '}' before it to the next."""
    before = [m.end() for m in _SENTENCE_END.finditer(text, 0, pos)]
    after = _SENTENCE_END.search(text, pos)
    return (before[-1] if before else 0), (after.start() if after else len(text))


def planned_error(text: str, item: Planned, at: int, syntax_error: Diagnostic) -> Diagnostic:
    """Return the E006 diagnostic of a planned construct at offset `at`, in place of a syntax error."""
    line = text.count("\n", 0, at) + 1
    col = at - (text.rfind("\n", 0, at) + 1) + 1
    message = f"{item.says} not implemented yet; see docs/language.md §{item.section}"
    return replace(syntax_error, code=CODE, message=message, line=line, col=col)
