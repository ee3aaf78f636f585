"""Deck files through the grammar: read (grammar/sheets.lark via compiler/parser.py), then checked
against the rules a game gives, every problem located, in source order.

Codes: E201 the deck's size or a card's copies, E202 an unknown card, E203 a count that is not a
whole number from 1 to MAX_COUNT; E002 a character no line may hold, E005 bytes that are not UTF-8.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from compiler import nodes as n
from compiler import sheet_nodes as sn
from compiler.build import read_source
from compiler.diagnostics import CompileError, Diagnostic, did_you_mean
from compiler.parser import parse_deck
from runtime import jokers
from runtime.engine import Game

MAX_COUNT = 999  # copies one line may ask for: past any deck size, and it keeps a hostile count cheap


@dataclass(frozen=True)
class DeckRules:
    """What a deck is checked against: the card names it may hold, its size, the copy limit."""

    known: frozenset[str]
    size: int = 0  # 0: any size
    max_copies: int = 0  # 0: no limit
    apart: frozenset[str] = field(default_factory=frozenset)  # listed, counted toward neither (jokers)
    # (kind, its card names, N): a kind counted apart that a deck holds exactly N of ('decks hold exactly 1 ruler.')
    exactly: tuple[tuple[str, frozenset[str], int], ...] = ()


def check_deck(deck: sn.DeckFile, rules: DeckRules) -> tuple[list[str], list[Diagnostic]]:
    """Return the deck's card names in order and its problems, in source order."""
    names: list[str] = []
    copies: Counter[str] = Counter()  # a count per name: a long deck file stays linear
    problems: list[Diagnostic] = []
    for entry in deck.entries:
        count = _count(entry, deck.path, problems)
        if count is None:
            continue
        name = entry.name.value
        if name not in rules.known:
            hint = did_you_mean(name, rules.known)
            problems.append(_at(deck.path, entry.name, "E202", f"unknown card '{name}'{hint}"))
            continue
        names += [name] * count
        copies[name] += count
        if rules.max_copies and name not in rules.apart and copies[name] > rules.max_copies:
            problems.append(_at(deck.path, entry, "E201", f"'{name}' appears {copies[name]} times; "
                                                          f"at most {rules.max_copies} are allowed"))
    counted = len([x for x in names if x not in rules.apart])
    if rules.size and not problems and counted != rules.size:
        problems.append(Diagnostic("E201", f"the deck has {counted} cards; it must have exactly {rules.size}",
                                   deck.path, 1, 1))
    for kind, members, count in rules.exactly if not problems else ():
        held = sum(1 for x in names if x in members)
        if held != count:
            problems.append(Diagnostic("E201", f"the deck has {held} {kind} card{'s' if held != 1 else ''}; "
                                               f"it must have exactly {count}", deck.path, 1, 1))
    return names, problems


def _count(entry: sn.DeckEntry, path: str, problems: list[Diagnostic]) -> int | None:
    """Return the copies an entry asks for, or None (with a problem added) if its count is not one."""
    if entry.count is None:
        return 1
    text = entry.count.text
    if not (text.isascii() and text.isdigit()):
        problems.append(_at(path, entry.count, "E203", f"expected a count in the digits 0-9, found '{text[:20]}'"))
        return None
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(MAX_COUNT)) or int(digits) > MAX_COUNT:
        shown = digits if len(digits) <= 20 else f"a number of {len(digits)} digits"
        problems.append(_at(path, entry.count, "E203", f"a count must be at most {MAX_COUNT}, found {shown}"))
        return None
    if int(digits) < 1:
        problems.append(_at(path, entry.count, "E203", f"a count must be at least 1, found {digits}"))
        return None
    return int(digits)


def _at(path: str, node: n.Node, code: str, message: str) -> Diagnostic:
    return Diagnostic(code, message, path, node.loc.line, node.loc.col)


def deck_rules(game: Game, sized: bool = True) -> DeckRules:
    """Return what a game's decks are checked against: its cards that are no tokens, its jokers, and
    (if sized) its deck size and copy limit."""
    known = frozenset(name for name, card in game.cards.items() if not card.token)
    rs = game.ruleset
    exactly = tuple((kind, frozenset(name for name in known if game.cards[name].kind == kind), count)
                    for kind, count in rs.kind_counts)
    apart = jokers.names(game).union(*(members for _, members, _ in exactly))
    return DeckRules(known, rs.deck_size if sized else 0, rs.max_copies if sized else 0, apart,
                     exactly if sized else ())


def read_deck(text: str, path: str, rules: DeckRules) -> list[str]:
    """Return the card names of a deck file's text, or raise CompileError with every problem located."""
    deck, syntax = parse_deck(text.removeprefix("\ufeff"), path)
    names, problems = check_deck(deck, rules)
    if syntax or problems:  # CompileError puts them in source order
        raise CompileError(syntax + problems)
    return names


def load_deck(path: Path, rules: DeckRules) -> list[str]:
    """Return the card names of a deck file on disk (see read_deck); the file must be UTF-8."""
    return read_deck(read_source(path, str(path)), str(path), rules)
