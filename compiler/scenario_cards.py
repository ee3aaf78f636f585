"""The cards a scenario declares for itself (its `cards:` section, docs/scenarios.md): checked with the
ruleset's own card files, then built by the reference interpreter (compiler/interpret.py) into definitions
the runtime plays beside the compiled ones. No code is generated for them and nothing is written.

Problems are those of the scenario file only (its path), located where its `cards:` text has them.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any

from compiler import nodes as n
from compiler.build import read_source
from compiler.check import validate
from compiler.diagnostics import CompileError, Diagnostic
from compiler.interpret import ITEMS
from compiler.parser import parse
from compiler.symbols import collect
from runtime.engine import Game


def with_cards(game: Game, ruleset_files: list[n.File], cards: n.File) -> Game:
    """Return the game with a scenario's cards, keywords and statuses added; raise CompileError with the
    problems of the scenario's card text (an unknown keyword, a name the ruleset already has ...)."""
    files = [*ruleset_files, cards]
    symbols = collect(files)
    problems = [Diagnostic("E106", "a scenario's 'cards:' declares cards, keywords and statuses; its ruleset is "
                                   "the one its 'ruleset' line names", cards.path, item.loc.line, item.loc.col)
                for item in cards.items if type(item) not in ITEMS]
    problems = problems or [d for d in validate(files, symbols) if d.path == cards.path]
    if problems:
        raise CompileError(sorted(problems, key=Diagnostic.sort_key))
    where = PurePosixPath(cards.path).name
    tables: dict[type, dict[str, Any]] = {kind: {} for kind in ITEMS}
    for item in cards.items:
        key = item.name if isinstance(item, n.Card) else item.name.value
        tables[type(item)][key] = ITEMS[type(item)](item, symbols, where)
    return Game(game.declared, {**game.cards, **tables[n.Card]}, {**game.keywords, **tables[n.KeywordDef]},
                {**game.statuses, **tables[n.StatusDef]}, game.options)


def ruleset_files(ruleset: str, scenario: Path, root: Path) -> list[n.File]:
    """Return the parsed card files of a scenario's ruleset: cards/NAME of the project (root) or of a folder
    above the scenario file; raise CompileError at the file's start when there is none."""
    for base in (root, *scenario.resolve().parents):
        if (base / "cards" / ruleset).is_dir():
            return _parsed(base, ruleset)
    raise CompileError([Diagnostic("E101", f"the cards of ruleset '{ruleset}' are in no cards/ folder, and a "
                                           "scenario's 'cards:' are checked with them", str(scenario), 1, 1)])


@lru_cache(maxsize=8)
def _parsed(base: Path, ruleset: str) -> list[n.File]:
    """Return the card files of base/cards/RULESET parsed, sorted by name, paths as the build gives them
    (relative to base), once per process."""
    rels = [p.relative_to(base).as_posix() for p in sorted((base / "cards" / ruleset).glob("*.card"))]
    return [parse(read_source(base / rel, rel), rel) for rel in rels]
