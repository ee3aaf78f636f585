"""Stage 1, the line structure of scenario files (grammar/sheets.lark): indentation as tokens, and the
messages of a line that does not parse (of every line-based file: decks and party files too). No Lark import: compiler/parser.py hands the parser's tokens
and exceptions here, and this module reads only their attributes.

A scenario file has two depths of indented lines: the lines of a section, and under a `log in order:`
line the lines indented further than it. `Lines` turns the indentation that ends each end-of-line token
(`_SNL`, which takes in the next line's indentation) into `_INDENT` and `_DEDENT` tokens, so the grammar
sees the nesting and the parser's lexer reads the next line in the right state.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from compiler.diagnostics import CompileError, Diagnostic
from runtime.spelling import did_you_mean, quoted_list

# What a terminal is called in a message; terminals mapped to None are left out (they come with another).
DESCRIBED: dict[str, str | None] = {
    "WORD": "a name", "NUMBER": "a number", "PLAYER": "a player (P1, P2, ...)",
    "POSITION": "a position (A1, B1, ...)", "TEXT": "text", "PIECE": "a log line", "SC_ID": "a scenario ID",
    "ENTRY_NAME": "a card name", "COUNT_NAME": "a card name", "FACE": "a face (1, 2, ...)", "ENTRY_COUNT": None, "_SNL": "the end of the line",
    "_INDENT": "an indented line", "_DEDENT": None, "$END": "the end of the file",
    # decks and party files
    "COUNT": None, "LINE_TEXT": "a card name", "_NL": "the end of the line", "PARTY_NAME": "a swordsman's name",
    "COLON": "':'", "FIELD": "a value", "SWORD": "a sword", "SWORD_SEP": "','",
    # replay files (JSON)
    "J_STRING": "a string", "J_NUMBER": "a number", "J_NL": None,
}
OUTSIDE = {"scenario": "an indented line outside a section (setup:, choices:, expect:, transcript:, cards:)",
           "battle_scenario": "an indented line; the lines of a battle scenario start at the start of the line",
           "team": "an indented line outside a character; a table's faces go under 'character NAME, LINE'"}
MAX_ERRORS = 25  # per file, as for card files
FURTHER = "a line indented further than the line above it; only the lines under 'log in order:' are"


class Lines:
    """The postlex of scenario files: `_INDENT` before a line deeper than the one above, `_DEDENT` after.

    A line is at depth 0 when it starts at the start of the line; else at depth 2 when it is indented
    further than the last line at depth 1 of its section, else at depth 1. So no file nests deeper than two.
    """

    always_accept = ("WORD",)  # a keyword is a whole word: 'seedling' is one (unexpected) name

    def process(self, stream: Iterable[Any]) -> Iterator[Any]:
        """Return the tokens with `_INDENT` and `_DEDENT` tokens where the depth of the lines changes."""
        depth, last = 0, None
        section_indent: int | None = None
        for token in stream:
            if last is None and token.type != "_SNL" and token.column > 1:  # the file's first line
                yield _marker(token, "_INDENT", "section", token.start_pos, token.line, token.column)
                depth, section_indent = 1, token.column - 1
            last = token
            yield token
            if token.type == "_SNL":
                indent = len(str(token).rsplit("\n", 1)[1])
                new = 0 if not indent else 2 if section_indent is not None and indent > section_indent else 1
                section_indent = None if new == 0 else indent if new == 1 else section_indent
                yield from _markers(token, depth, new)
                depth = new
        if last is not None:
            yield from (_marker(last, "_DEDENT", "", last.end_pos, last.end_line, last.end_column)
                        for _ in range(depth))


def _markers(nl: Any, depth: int, new: int) -> Iterator[Any]:
    """Return the `_INDENT` or `_DEDENT` tokens that go from one depth to another, at the next line's start."""
    kind = "_INDENT" if new > depth else "_DEDENT"
    value = ("section" if new == 1 else "block") if kind == "_INDENT" else ""
    for _ in range(abs(new - depth)):
        yield _marker(nl, kind, value, nl.end_pos, nl.end_line, nl.end_column)


def _marker(token: Any, kind: str, value: str, pos: int, line: int, col: int) -> Any:
    """Return a token of no width at a place, made by the class of the parser's own tokens."""
    return type(token)(kind, value, pos, line, col, line, col, pos)


def message(token_type: str, token: str, expected: Iterable[str], pretty: dict[str, str], start: str) -> str:
    """Return what a line that does not parse says: what was found and what could come next."""
    expected = set(expected)
    if token_type == "_INDENT":
        return FURTHER if token == "block" else OUTSIDE[start]
    found = "end of the line" if token_type in ("_SNL", "_NL") else "end of the file" if token_type == "$END" \
        else f"'{token}'"
    words = [pretty[t] for t in expected if t in pretty]
    hint = did_you_mean(token, [w for w in words if w.isalpha()]) if token_type == "WORD" else ""
    return f"unexpected {found}; expected {expected_text(expected, pretty)}{hint}"


def expected_text(expected: Iterable[str], pretty: dict[str, str]) -> str:
    """Return 'a number or one of 'a', 'b'' for the terminals a parser state accepts."""
    expected = set(expected)
    described = sorted({d for t in expected if (d := DESCRIBED.get(t))})
    words = sorted({pretty[t] for t in expected if t in pretty})
    if len(expected) > 1:
        described = [d for d in described if d != "the end of the file"]  # a line may always end the file
    parts = described + ([f"one of {quoted_list(words, 12)}" if len(words) > 1 else f"'{words[0]}'"] if words else [])
    return ", ".join(parts[:-1]) + (" or " if len(parts) > 1 else "") + parts[-1] if parts else "nothing"


def parse_lines(parse: Callable[[str], Any], error: type[Exception], terminals: Iterable[Any], text: str,
                path: str, start: str) -> tuple[Any, list[Diagnostic]]:
    """Return the parse tree of a file's lines that parse and a diagnostic for each line that does not (it is
    left out, and the file parsed again); `error` is the parser's exception class, `terminals` its terminals."""
    lines, errors = text.split("\n"), list[Diagnostic]()
    pretty = {t.name: t.pattern.value for t in terminals if t.pattern.type == "str"}
    while True:
        try:  # every line ends with a newline in the grammar; the last one may lack it on disk
            return parse("\n".join(lines) + "\n"), errors
        except error as err:
            errors.append(diagnostic(err, pretty, path, start))
            at = getattr(err, "line", 0)
            if len(errors) == MAX_ERRORS or not 1 <= at <= len(lines) or not lines[at - 1]:
                raise CompileError(errors) from None  # (an error on a line already left out ends the file)
            lines[at - 1] = ""  # line numbers stay as they are


def diagnostic(err: Any, pretty: dict[str, str], path: str, start: str) -> Diagnostic:
    """Return the diagnostic of a parser error: E002 for a character no terminal takes, else E001."""
    parser = getattr(err, "interactive_parser", None)
    state = parser.parser_state if parser is not None else getattr(err, "state", None)
    expected = set(state.parse_conf.parse_table.states[state.position]) if state is not None else set()
    line, col = max(err.line, 1), max(err.column, 1)
    char = getattr(err, "char", None)
    if char is not None:  # the lexer found no terminal here
        shown = f"'{char}'" if char.isprintable() else f"U+{ord(char):04X}"
        more = f"; expected {expected_text(expected, pretty)}" if expected else ""
        return Diagnostic("E002", f"unexpected character {shown}{more}", path, line, col)
    token = getattr(err, "token", None)
    kind, value = (token.type, str(token)) if token is not None else ("$END", "")
    return Diagnostic("E001", message(kind, value, expected, pretty, start), path, line, col)


# ---------------------------------------------------------------- the card text of a scenario ('cards:')

CARDS_HEAD = re.compile(r"cards[ \t]*:(?:[ \t]+(?:#.*)?)?\r?")


def card_blocks(text: str) -> tuple[str, str | None]:
    """Return a scenario's text without the lines of its 'cards:' blocks, and those lines alone (None if it has
    no such block): each text keeps the other's lines as empty ones, so every line and column stays where it is.

    A block is the lines after a 'cards:' line at the start of a line that are indented, with the blank and
    comment lines between them."""
    lines = text.split("\n")
    inside = [False] * len(lines)
    found = False
    for i, line in enumerate(lines):
        if not CARDS_HEAD.fullmatch(line):
            continue
        found, last = True, i
        for j in range(i + 1, len(lines)):
            if lines[j][:1] in (" ", "\t") and lines[j].strip():
                last = j
            elif lines[j].strip() and not lines[j].startswith("#"):
                break
        for j in range(i + 1, last + 1):
            inside[j] = True
    if not found:
        return text, None
    rest = "\n".join("" if inside[i] else line for i, line in enumerate(lines))
    return rest, "\n".join(line if inside[i] else "" for i, line in enumerate(lines))


# ---------------------------------------------------------------- replay files (JSON)

MAX_DEPTH = 32  # arrays and objects inside one another: a replay nests 4 deep; past this is no replay
SHOWN = 40  # characters of an unexpected token quoted in a message (a number may have thousands of digits)


class JsonSpace:
    """The postlex of replay files: drops `J_NL` (a newline and the spaces after it), which JSON allows
    between any two tokens; it is in every state of the lexer."""

    always_accept = ("J_NL",)

    def process(self, stream: Iterable[Any]) -> Iterator[Any]:
        """Return the tokens without the newlines."""
        return (token for token in stream if token.type != "J_NL")


def json_diagnostic(err: Any, terminals: Iterable[Any], path: str) -> Diagnostic:
    """Return the diagnostic of a JSON text that does not parse: the first error (JSON has no lines to skip),
    with what the parser accepts at that place (exact, where a state's lookaheads may hold more)."""
    line, col, char = max(err.line, 1), max(err.column, 1), getattr(err, "char", None)
    if char == '"':
        return Diagnostic("E002", "string not closed: this '\"' has no closing '\"' on the same line", path,
                          line, col)
    parser = getattr(err, "interactive_parser", None)
    expected = set(parser.accepts()) - {"J_NL"} if parser is not None else set()
    pretty = {t.name: t.pattern.value for t in terminals if t.pattern.type == "str"}
    if char is not None:
        shown = f"'{char}'" if char.isprintable() else f"U+{ord(char):04X}"
        return Diagnostic("E002", f"unexpected character {shown}; expected {expected_text(expected, pretty)}",
                          path, line, col)
    token = getattr(err, "token", None)
    kind, value = (token.type, str(token)) if token is not None else ("$END", "")
    value = value if len(value) <= SHOWN else f"{value[:SHOWN]}..."
    return Diagnostic("E001", message(kind, value, expected, pretty, "replay"), path, line, col)


def json_problem(text: str, tree: Any, path: str) -> Diagnostic | None:
    """Return the first form feed of a JSON text (no JSON space), else the first array or object nested past
    MAX_DEPTH, else None; the tree is walked without recursion."""
    if "\f" in text:
        at = text.index("\f")
        line, col = text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1
        return Diagnostic("E002", "unexpected character U+000C; JSON allows only spaces, tabs and line breaks "
                                  "between values", path, line, col)
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            return Diagnostic("E004", f"JSON nested too deeply: more than {MAX_DEPTH} arrays and objects "
                                      "inside one another", path, node.meta.line, node.meta.column)
        deeper = depth + (node.data in ("j_object", "j_array"))
        stack += [(c, deeper) for c in reversed(node.children) if hasattr(c, "children")]
    return None
