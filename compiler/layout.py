"""Generated text in black's style, running black only on the few statements it could change.

Public entry point: `black_style(text) -> str`, which equals `black.format_str(text, mode=BLACK_MODE)`
for what the templates write. The templates and lowering already write black's layout (one statement a
line, black's blank lines, black's spacing); this module settles the rest:

- string quotes, by black's own rule (`black.strings.normalize_string_quotes`), literal by literal;
- each statement black could change although the templates wrote it as black would: one past the line
  length, one with a trailing comma before a closing bracket (black explodes it), one with parentheses
  right after a keyword, '=', '[' or '{' (black drops redundant ones), '**' or a slice. Each such
  statement is formatted by black on its own at its depth (formatting a statement does not depend on
  the statements around it), once per process for each distinct statement.

Whatever this module cannot place as a standalone statement (a line inside brackets that span lines,
text black cannot parse in pieces) is formatted by black whole. tests/test_layout.py checks that the
result is black's for every module of the real cards and of the synthetic pool, and that a template
change black would undo is caught.
"""

from __future__ import annotations

import re
from functools import lru_cache

import black
from black.strings import normalize_string_quotes, str_width

LINE_LENGTH = 100
BLACK_MODE = black.Mode(line_length=LINE_LENGTH, target_versions={black.TargetVersion.PY311})
INDENT = "    "
# a string literal (triple-quoted first) or a comment: what the quote rule and the suspect search skip
LITERAL = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""' r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
                     r"""|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|#[^\n]*""")
# what black may change in a statement that fits: a magic trailing comma, parentheses it may find redundant,
# the power operator's spacing, a slice's spacing, a statement whose commas separate parts it unwraps
SUSPECT = re.compile(r",\s*[)\]}]"
                     r"|(?:^|[\[{=:]|\b(?:return|if|elif|while|for|in|else|del|assert|with|import|await|except))"
                     r"\s*\("
                     r"|\*\*|\[[^\]]*:|^(?:assert|del)\b")
# of those, what black changes whatever the brackets hold
BLACK_WORDS = re.compile(r"\*\*|\[[^\]]*:|^(?:assert|del)\b")
# parentheses right after these may be redundant to black (the search ends at the parenthesis)
REDUNDANT_AFTER = re.compile(r"(?:^|[\[{=:]|\b(?:return|if|elif|while|for|in|else|del|assert|with|import|await|"
                             r"except))\s*$")
KEYWORD_END = re.compile(r"\b(?:return|if|elif|while|for|in|else|del|assert|with|import|await|except|and|or|not|is|"
                         r"lambda|yield)$")
# `name = "text"`: black leaves it as it is when the string does not fit a line even in parentheses
STRING_FIELD = re.compile(r"( *)[A-Za-z_]\w* = (\"(?:[^\"\\]|\\.)*\")")
OPENS = ("(", "[", "{", ",", "\\")


class _Whole(Exception):
    """The text must go to black whole: a suspect line is not a statement black can take alone."""


def black_style(text: str) -> str:
    """Return the text as black formats it (BLACK_MODE)."""
    quoted = LITERAL.sub(_quoted, text)
    lines = quoted.split("\n")
    out: list[str] = []
    try:
        for i, line in enumerate(lines):
            if _suspect(line):
                out.append(_statement(line, lines[i - 1] if i else "", i + 1 < len(lines) and _deeper(lines, i)))
            else:
                out.append(line)
    except _Whole:
        return black.format_str(text, mode=BLACK_MODE)
    return "\n".join(out)


def _quoted(match: re.Match) -> str:
    """Return a string literal with black's quotes (a comment as it is)."""
    found = match.group(0)
    return found if found[0] == "#" else _normalized(found)


@lru_cache(maxsize=65536)
def _normalized(literal: str) -> str:
    return normalize_string_quotes(literal)


def _suspect(line: str) -> bool:
    """Return whether black could change this line (as one statement)."""
    stripped = line.lstrip(" ")
    if not stripped or stripped[0] == "#":
        return False
    if _width(line) > LINE_LENGTH:
        field = STRING_FIELD.fullmatch(line)
        return field is None or len(field.group(1)) + len(INDENT) + _width(field.group(2)) <= LINE_LENGTH
    code = LITERAL.sub('""', stripped)
    return SUSPECT.search(code) is not None and (BLACK_WORDS.search(code) is not None or _brackets_black_changes(code))


def _brackets_black_changes(code: str) -> bool:
    """Return whether black changes a bracket of a line (strings blanked): a magic trailing comma (any but
    a one-element tuple's), or parentheses around one expression where black finds them redundant."""
    opened: list[list[int]] = []  # [where, top-level commas]
    for i, char in enumerate(code):
        if char in "([{":
            opened.append([i, 0])
        elif char == "," and opened:
            opened[-1][1] += 1
        elif char in ")]}" and opened:
            start, commas = opened.pop()
            inner = code[start + 1:i].strip()
            # (x,) stays; (x, ) loses its space
            one_tuple = char == ")" and commas == 1 and code[i - 1] == "," and not _called(code, start)
            if inner.endswith(",") and not one_tuple:
                return True
            if char == ")" and commas == 0 and inner and REDUNDANT_AFTER.search(code, 0, start):
                return True
    return False


def _called(code: str, start: int) -> bool:
    """Return whether the bracket at `start` opens a call or a subscript, not a tuple."""
    before = code[:start].rstrip()
    return bool(before) and (before[-1].isalnum() or before[-1] in "_)]") and not KEYWORD_END.search(before)


def _width(text: str) -> int:
    """Return how wide black counts a text (wide characters count twice)."""
    return len(text) if text.isascii() else str_width(text)


def _deeper(lines: list[str], i: int) -> bool:
    """Return whether the line after line i is indented deeper (line i opens a block)."""
    nxt = lines[i + 1]
    return bool(nxt.strip()) and len(nxt) - len(nxt.lstrip(" ")) > len(lines[i]) - len(lines[i].lstrip(" "))


def _statement(line: str, previous: str, header: bool) -> str:
    """Return one statement as black formats it alone at its depth; raise _Whole when it is not one."""
    indent = len(line) - len(line.lstrip(" "))
    if indent % len(INDENT) or previous.rstrip().endswith(OPENS):
        raise _Whole
    try:
        return _formatted(indent // len(INDENT), line.lstrip(" "), header)
    except black.InvalidInput:
        raise _Whole from None


@lru_cache(maxsize=16384)
def _formatted(depth: int, statement: str, header: bool) -> str:
    """Return a statement formatted by black at a depth: inside `depth` blocks, a block of its own if a header."""
    blocks = "".join(f"{INDENT * d}if _:\n" for d in range(depth))
    body = f"{INDENT * (depth + 1)}pass\n" if header else ""
    lines = black.format_str(f"{blocks}{INDENT * depth}{statement}\n{body}", mode=BLACK_MODE).split("\n")
    return "\n".join(lines[depth:len(lines) - (2 if header else 1)])
