"""`cardc fmt` for the files beside card files: decks, party files, scenarios, battle scenarios and replays.

A line-based file is printed from its tokens (grammar/sheets.lark, through compiler/parser.py): one space
between words, none inside `field[1]`, `MPCost(2)` or `10/3/2/5/Sword`, `, ` after a comma (also a party's
`、`), `:` for a full-width colon, four spaces a depth, comments kept (a trailing one after two spaces), at
most one blank line in a row. Free text (names, log lines, titles) and numbers stay as written. A replay is
printed as `cardc fuzz` writes it (JSON, one space a depth), its strings and numbers as written. Whatever the
file, the formatted text is parsed again and must give the same AST, or nothing is returned.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from compiler import sheet_nodes as sn
from compiler.diagnostics import CompileError, Diagnostic
from compiler.fmt import format_text
from compiler.parser import (
    parse_battle_scenario,
    parse_deck,
    parse_party,
    parse_replay,
    parse_scenario,
    parse_team,
    sheet_tokens,
)
from compiler.sheet_lines import CARDS_HEAD, card_blocks

FORMATS = {".deck": "deck", ".sw": "party", ".scenario": "scenario", ".battle": "battle_scenario",
           ".team": "team", ".replay.json": "replay"}
_PARSERS: dict[str, Callable[[str, str], tuple[Any, list[Diagnostic]]]] = {
    "deck": parse_deck, "party": parse_party, "scenario": parse_scenario,
    "battle_scenario": parse_battle_scenario, "team": parse_team, "replay": parse_replay}
INDENT = "    "
_NEWLINES = ("_NL", "_SNL")
# Terminals whose text is free (a name, a log line): their characters never decide the spacing.
_FREE = {"TEXT", "PIECE", "SC_ID", "ENTRY_NAME", "COUNT_NAME", "LINE_TEXT", "PARTY_NAME", "FIELD", "SWORD", "WORD",
         "NUMBER", "COUNT", "ENTRY_COUNT", "PLAYER", "POSITION", "FACE"}
_NO_SPACE_BEFORE = {":", "：", ",", "、", "，", "]", ")", "/", "[", "("}
_NO_SPACE_AFTER = {"[", "(", "/"}
_CANONICAL = {"：": ":", "、": ",", "，": ","}


class MeaningChanged(Exception):
    """The formatter would have changed what a file means: a bug in cardc, never the file's fault."""


def format_kind(path: Path) -> str | None:
    """Return the format of a file that is not a card file, from its name ('x.replay.json' is a replay), or None."""
    return FORMATS.get(".replay.json" if path.name.endswith(".replay.json") else path.suffix)


def format_sheet(text: str, path: str, kind: str) -> str:
    """Return a deck, party, scenario, battle-scenario or replay file in canonical form; raise CompileError for
    a file with syntax errors (it is not formatted)."""
    text = text.removeprefix("\ufeff")
    tree, errors = _PARSERS[kind](text, path)
    if errors:
        raise CompileError(errors)
    pretty = _json(tree) + "\n" if kind == "replay" else _scenario(text, path) if kind == "scenario" else \
        _lines(sheet_tokens(text + "\n", kind))
    again, errors = _PARSERS[kind](pretty, path)
    if errors or again != tree:
        raise MeaningChanged(f"formatting {path} would change what it means")
    return pretty


def _scenario(text: str, path: str) -> str:
    """Return a scenario in canonical form: its lines, and under each 'cards:' line its card text as `cardc fmt`
    prints a card file, indented one step."""
    rest, cards = card_blocks(text)
    pretty = _lines(sheet_tokens(rest + "\n", "scenario"))
    if cards is None:
        return pretty
    lines, blocks = cards.split("\n"), []
    heads = [i for i, line in enumerate(text.split("\n")) if CARDS_HEAD.fullmatch(line)] + [len(lines)]
    for start, end in zip(heads, heads[1:], strict=False):
        block = textwrap.dedent("\n".join(lines[start + 1:end]))
        formatted = format_text(block, path) if block.strip() else ""
        blocks.append([INDENT + x if x else "" for x in formatted.rstrip("\n").split("\n")] if formatted else [])
    out: list[str] = []
    for line in pretty.split("\n"):
        out.append(line)
        if CARDS_HEAD.fullmatch(line.split("  #")[0]) and blocks:
            out += blocks.pop(0)
    return "\n".join(out)


def _lines(tokens: Iterable[Any]) -> str:
    """Return the text of a line-based file printed from its tokens, comments and blank lines kept."""
    out: list[str] = []
    line: list[str] = []
    pending: list[str] = []  # comment and blank lines, printed at the depth of the line after them
    depth = line_depth = 0
    glue = False
    for token in tokens:
        if token.type in ("_INDENT", "_DEDENT"):
            depth += 1 if token.type == "_INDENT" else -1
        elif token.type in _NEWLINES:
            first, *rest = str(token).split("\n")
            comment = first.strip()
            if line:
                out.append(INDENT * line_depth + "".join(line) + (f"  {comment}" if comment else ""))
                line = []
            elif comment:
                pending.append(comment)
            pending += [segment.strip() for segment in rest[:-1]]  # the last is the next line's indentation
        else:
            if not line:
                out += _flushed(pending, depth)
                line_depth = depth
            elif not glue and not _punctuation(token, _NO_SPACE_BEFORE):
                line.append(" ")
            line.append(_CANONICAL.get(str(token), str(token)) if _punctuation(token, _CANONICAL) else str(token))
            glue = _punctuation(token, _NO_SPACE_AFTER)
    out += _flushed(pending, 0)
    return _blank_lines_squeezed(out)


def _punctuation(token: Any, among: Iterable[str]) -> bool:
    """Return whether a token is a punctuation mark of a set (free text that happens to be ',' is not)."""
    return token.type not in _FREE and str(token) in among


def _flushed(pending: list[str], depth: int) -> list[str]:
    """Return the waiting comment and blank lines at a depth, and empty the list."""
    lines = [INDENT * depth + comment if comment else "" for comment in pending]
    pending.clear()
    return lines


def _blank_lines_squeezed(lines: list[str]) -> str:
    """Return the lines as a text with no blank line at either end and never two in a row."""
    kept = [line for i, line in enumerate(lines) if line or (i and lines[i - 1])]
    while kept and not kept[0]:
        kept.pop(0)
    while kept and not kept[-1]:
        kept.pop()
    return "".join(f"{line}\n" for line in kept)


def _json(value: sn.JValue, depth: int = 0) -> str:
    """Return a JSON value as `json.dumps(..., indent=1)` prints it, strings and numbers as written."""
    inner, close = "\n" + " " * (depth + 1), "\n" + " " * depth
    if isinstance(value, sn.JObject):
        pairs = [f"{key.raw}: {_json(item, depth + 1)}" for key, item in value.pairs]
        return "{" + inner + ("," + inner).join(pairs) + close + "}" if pairs else "{}"
    if isinstance(value, sn.JArray):
        items = [_json(item, depth + 1) for item in value.items]
        return "[" + inner + ("," + inner).join(items) + close + "]" if items else "[]"
    return value.raw if isinstance(value, sn.JString) else value.text if isinstance(value, sn.JNumber) else value.word
