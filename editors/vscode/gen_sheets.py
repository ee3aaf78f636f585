"""TextMate grammars of the line-based files (decks, parties, scenarios, battles, teams) and replays."""

from __future__ import annotations


def grammars(rules: dict[str, list[str]]) -> dict[str, dict]:
    """Return the grammars of the other formats, by file name."""
    return {}
