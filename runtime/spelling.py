"""Spelling help for messages: "did you mean" and quoted word lists, shared by the compiler and the runtime's file readers."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """Return "; did you mean 'x'?" for the closest known word, or '' when nothing is close."""
    close = difflib.get_close_matches(word, sorted(set(known)), n=1, cutoff=0.6)
    if not close:
        lowered = {k.lower(): k for k in known}
        if word.lower() in lowered:
            close = [lowered[word.lower()]]
    return f"; did you mean '{close[0]}'?" if close else ""


def quoted_list(words: Iterable[str], limit: int = 8) -> str:
    """Return words quoted, sorted and comma-separated, eliding past `limit`."""
    items = sorted(set(words))
    shown = ", ".join(f"'{w}'" for w in items[:limit])
    more = len(items) - limit
    return shown + (f" (and {more} more)" if more > 0 else "")
