"""What an earlier build left for the next one: the cards each module's file defines and the folder's symbols.

A module built from a file of cards alone records, below its source stamp, how many cards the file defines
and each card's entry (what the rest of the ruleset may know of it: compiler/symbols.py), place and class
name, a line of JSON each:

    # cardc-cards: 44
    # cardc-card: ["Wickwing Moth",["creature"],false,[],7,1,"WickwingMoth"]

and a ruleset's registry records the digest of the symbols its files were checked with:

    # cardc-symbols: <digest>

A build then parses only the files whose modules are out of date (and the files that define more than
cards: the ruleset, keywords, statuses), takes the others from their records, and checks again only what it
parsed when the symbols are those of the last build: a file whose text, compiler and symbols are those it
passed with would pass again. Both lines are part of what a cold build writes, so an incremental build
writes the same bytes (tests/test_incremental_build.py). A record is trusted only when the module's key line
says its text is unedited and its stamp names the source's hash and this compiler.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from compiler import nodes as n
from compiler.freshness import REGISTRY, STAMP_LINE, compiler_fingerprint, intact, read_generated, source_hash
from compiler.symbols import CardEntry, RecordedFile, card_entry

CARDS_LINE = re.compile(r"^# cardc-cards: ([0-9]+)$", re.M)
CARD_LINE = re.compile(r"^# cardc-card: (.*)$", re.M)
CODE = re.compile(r"^[^#\n]", re.M)
SYMBOLS_LINE = re.compile(r"^# cardc-symbols: ([0-9a-f]+)$", re.M)


def cards_record(f: n.File, names: list[tuple[n.Item, str]]) -> list[str] | None:
    """Return the JSON a module records of each card of a file of cards alone (None for a file that defines
    more)."""
    if not all(isinstance(item, n.Card) for item in f.items):
        return None
    rows = []
    for item, cls in names:
        assert isinstance(item, n.Card)
        e = card_entry(item)
        rows.append(json.dumps([e.name, list(e.kinds), e.token, [list(pair) for pair in e.attributes],
                                item.loc.line, item.loc.col, cls], separators=(",", ":")))
    return rows


@dataclass
class Earlier:
    """What the last build of a folder recorded: the files taken from their records, and its symbols' digest."""

    files: dict[str, RecordedFile]
    symbols: str


def earlier_build(root: Path, folder: Path, texts: dict[Path, str]) -> Earlier | None:
    """Return what the last build of a folder recorded that is still true for these card texts (None when
    its registry is missing or edited)."""
    registry = read_generated(root / "generated" / folder.name / REGISTRY)
    found = SYMBOLS_LINE.search(registry)
    if found is None or not intact(registry):
        return None
    files = {}
    for path, text in texts.items():
        rel = path.relative_to(root).as_posix()
        recorded = _recorded(read_generated(root / "generated" / folder.name / f"{path.stem}.py"), rel, text)
        if recorded is not None:
            files[rel] = recorded
    return Earlier(files, found.group(1))


def _recorded(module: str, rel: str, text: str) -> RecordedFile | None:
    """Return the record of a module built from exactly this text by this compiler (None otherwise)."""
    stamp, count = STAMP_LINE.search(module), CARDS_LINE.search(module)
    if stamp is None or count is None or not intact(module):
        return None
    if stamp.group(2) != compiler_fingerprint()[:16] or stamp.group(1) != source_hash(text.encode("utf-8")):
        return None
    code = CODE.search(module)  # the record is in the comments above the code
    rows = [json.loads(row) for row in CARD_LINE.findall(module, 0, code.start() if code else len(module))]
    if len(rows) != int(count.group(1)):
        return None
    return RecordedFile(rel, tuple((CardEntry(name, tuple(kinds), token, tuple((a, v) for a, v in attributes)),
                                    n.Loc(line, col), cls) for name, kinds, token, attributes, line, col, cls in rows))
