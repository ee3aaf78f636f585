"""Edits: formatting through `cardc fmt`'s formatter, renaming a card across its folder and the files that
name it, and the outline of a card file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from compiler import nodes as n
from compiler.diagnostics import CompileError
from compiler.parser import parse_deck
from tools.lsp.names import Definition, Folder, Span, definition, references
from tools.lsp.places import Place


class RenameRefused(Exception):
    """A rename that cannot be made: the message says why."""


def formatted(place: Place, text: str) -> str | None:
    """Return a file's canonical text as `cardc fmt` prints it, or None when it has errors."""
    from compiler.fmt import format_text
    from compiler.fmt_sheets import MeaningChanged, format_sheet

    try:
        return format_text(text, place.rel) if place.kind == "card" else format_sheet(text, place.rel, place.kind)
    except (CompileError, MeaningChanged):
        return None


def rename(folder: Folder, card: Definition, new: str, open_texts: dict[Path, str]) -> list[tuple[Span, str]]:
    """Return the edits that rename a card everywhere it is named, or raise RenameRefused."""
    problem = name_problem(folder, new)
    if problem:
        raise RenameRefused(problem)
    edits = []
    for span in references(folder, "card", card.name, open_texts):
        quoted = span.text[span.start] == '"'
        edits.append((span, '"' + new + '"' if quoted else new))
    return edits


def name_problem(folder: Folder, new: str) -> str:
    """Return why a new card name cannot be used ('' if it can)."""
    if new in folder.names("card"):
        return f"a card named '{new}' already exists in {folder.place.folder.name}/; choose another name"
    entries, errors = parse_deck(f"1 {new}\n")
    valid = not errors and len(entries.entries) == 1 and entries.entries[0].name.value == new
    if not valid or any(ch in new for ch in '",\\'):
        return (f"'{new}' is not a valid card name: a card name is one line with no '\"', '\\\\', ',' or ' #', "
                "and no space at either end")
    return ""


@dataclass(frozen=True)
class Symbol:
    """One entry of a file's outline: its name, what it is, its span, the span of its name, its children."""

    name: str
    kind: str
    span: Span
    name_span: Span
    children: tuple[Symbol, ...] = ()


def outline(path: Path, text: str, ast: n.File) -> list[Symbol]:
    """Return the outline of a card file: its cards, keywords, statuses and enchantments, and its ruleset
    with one child per rule."""
    out = []
    for item in ast.items:
        d = definition(path, text, item)
        children = tuple(_rule(path, text, r) for r in item.rules) if isinstance(item, n.Ruleset) else ()
        out.append(Symbol(d.name, d.kind, d.span, d.name_span, children))
    return out


def _rule(path: Path, text: str, rule: n.Node) -> Symbol:
    """Return a ruleset's rule as an outline entry named by its first line."""
    from tools.lsp.places import offset_of

    start = offset_of(text, rule.loc.line, rule.loc.col)
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    span = Span(path, text, start, end)
    return Symbol(text[start:end].strip()[:80] or type(rule).__name__, "rule", span, span)
