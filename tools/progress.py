"""Progress bars for long commands (`cardc tournament`, `cardc fuzz`, `cardc try`), drawn with rich.

A bar is drawn only when its stream is a terminal: piped or redirected, a command prints nothing but its
results, so its output can be compared and parsed.
"""

from __future__ import annotations

from typing import Any, TextIO, TypeVar

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

T = TypeVar("T")


class Bar:
    """A rich progress bar of `total` games (or battles: the unit) on a terminal stream; nothing at all on any
    other stream."""

    def __init__(self, stream: TextIO | None, total: int, label: str = "games", unit: str = "games"):
        self.label = label
        self.rich: Progress | None = None
        if stream is not None and stream.isatty():
            self.rich = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn(unit), TimeElapsedColumn(), TimeRemainingColumn(),
                                 console=Console(file=stream), transient=False)
            self.task = self.rich.add_task(label, total=total)
            self.rich.start()

    def __enter__(self) -> Bar:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def games(self, done: int, force: bool = False) -> None:
        """Show that `done` games are done (force: at once; rich refreshes the bar a few times a second)."""
        if self.rich is not None:
            self.rich.update(self.task, completed=done, refresh=force)

    def done(self, result: T) -> T:
        """Count one more game done; return its result (for use inside a comprehension)."""
        if self.rich is not None:
            self.rich.advance(self.task)
        return result

    def status(self, text: str) -> None:
        """Show a passing state (shrinking: how far it is) in the bar's label."""
        if self.rich is not None:
            self.rich.update(self.task, description=text.strip(), refresh=True)

    def line(self, text: str) -> None:
        """Print a line above the bar (a violation met, say); blank text only ends the bar's line."""
        if self.rich is not None and text.strip():
            self.rich.console.print(text.strip(), markup=False, highlight=False)

    def close(self) -> None:
        """Stop drawing, leaving the bar's last state on the terminal."""
        if self.rich is not None:
            self.rich.stop()
            self.rich = None
