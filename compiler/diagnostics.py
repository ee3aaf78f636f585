"""Located errors: every problem a card file can have, with a stable code, rendered with a caret."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from runtime.spelling import did_you_mean, quoted_list

__all__ = ["CompileError", "Diagnostic", "did_you_mean", "quoted_list"]  # the two spellings are the runtime's

# Each error kind has a stable code. Messages say what was found, what was expected, where.
CODES = {
    "E001": "unexpected token",
    "E002": "unexpected character",
    "E003": "unexpected end of file",
    "E004": "nesting too deep",
    "E005": "file is not valid UTF-8 text",
    "E006": "planned construct, not implemented yet",
    "E007": "number too large",
    "E008": "file too large",
    "E101": "unknown name",
    "E102": "duplicate definition",
    "E103": "missing part",
    "E104": "part given twice",
    "E105": "wrong kind of reference",
    "E106": "not allowed here",
    "E107": "wrong number of arguments",
    "E108": "'if you do' without a cost before it",
    "E110": "a reference to nothing here",
    "E201": "deck size or copies",
    "E202": "unknown card in deck",
    "E203": "bad deck count",
    "E204": "bad swordsman line",
    "E205": "creation budget",
    "E206": "not a sword",
    "E207": "bad number in a scenario",
    "E208": "no such player or position in a scenario",
    "E209": "wrong kind of value in a replay file",
    "E210": "bad number in a replay file",
    "E301": "path outside the project",
    "E302": "file name cannot name a module",
    # warnings: the build goes on; `cardc check --strict` fails on them
    "W001": "the text and the abilities differ in scope",
    "W002": "the text and the abilities differ in targets",
    "W003": "the text and the abilities differ in numbers",
    "W004": "the text and the abilities differ in effects",
}


@dataclass(frozen=True)
class Diagnostic:
    """One error (or, with severity 'warning', one warning) at a place in a file; notes follow the caret."""

    code: str
    message: str
    path: str
    line: int
    col: int
    severity: str = "error"
    notes: tuple[str, ...] = ()

    def sort_key(self) -> tuple[str, int, int, str]:
        """Return the key that puts diagnostics in source order."""
        return (self.path, self.line, self.col, self.message)

    def render(self, source: str | None) -> str:
        """Return 'path:line:col: CODE message' ('warning CODE' for a warning), the source line, a caret
        under the column, then the notes."""
        word = "warning " if self.severity == "warning" else ""
        head = f"{self.path}:{self.line}:{self.col}: {word}{self.code} {self.message}"
        return "\n".join([self._located(head, source), *(f"    {note}" for note in self.notes)])

    def _located(self, head: str, source: str | None) -> str:
        """Return the head with the source line and the caret under it, when the source holds that line."""
        if source is None or self.line < 1:
            return head
        lines = source.split("\n")  # the parser counts only \n as a line break
        if self.line > len(lines):
            return head
        text = lines[self.line - 1].rstrip("\r").replace("\t", " ")
        text = text.removeprefix("\ufeff") if self.line == 1 else text  # a byte-order mark is no character
        # a control or bidi character would move what follows it on a terminal: shown as one U+FFFD
        text = "".join(ch if ch.isprintable() else "\ufffd" for ch in text)
        caret = " " * (max(self.col, 1) - 1) + "^"
        return f"{head}\n    {text}\n    {caret}"


class CompileError(Exception):
    """Raised by a stage that found errors; carries every diagnostic it found."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = sorted(diagnostics, key=Diagnostic.sort_key)
        super().__init__("\n".join(d.render(None) for d in self.diagnostics))
