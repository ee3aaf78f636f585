"""`cardc try`'s decks: a card put into a legal sample deck (or, where sides are teams, into a sample team's
action table or in place of one of its characters), written as the file text that `cardc play` reads back.

A deck keeps its size: copies of the card take the places of other cards of its part (the main part, or
the cards listed apart such as jokers and rulers), cards of the same kind first, from the end of the list.
The result is re-read from its text so that the list played is the one a saved file gives (the order of
a deck's cards decides its shuffle).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from compiler.diagnostics import CompileError
from compiler.sheets import deck_rules, read_deck
from compiler.team_files import read_team, team_text
from runtime.defs import Entry, entry_names
from runtime.engine import Game
from tools.deckgen import is_apart
from tools.play import legal_samples, read_entries

MAX_COPIES = 3  # copies of the card a deck gets, as the copy limit allows


@dataclass(frozen=True)
class Placed:
    """The deck (or team) under trial: its sample, its text, its entries, and what the card replaced."""

    sample: str
    text: str
    entries: list
    replaced: tuple[str, ...]  # the names the card took the place of (empty: the sample held it already)
    suffix: str  # '.deck' or '.team'


def place(root: Path, game: Game, card: str) -> Placed | None:
    """Return the first sample (in name order) that holds the card or can take it and stay legal, or None."""
    for path in legal_samples(root, game):
        entries = read_entries(game, [path])[0]
        placed = _team(game, path, entries, card) if path.suffix == ".team" else _deck(game, path, entries, card)
        if placed is not None:
            return placed
    return None


def _deck(game: Game, path: Path, deck: list[str], card: str) -> Placed | None:
    """Return a deck file's deck with copies of the card in it (as many as fit, up to MAX_COPIES), or None."""
    if card in deck:
        return _read_deck(game, path.stem, deck, ())
    most = min(game.ruleset.max_copies or MAX_COPIES, MAX_COPIES)
    for count in range(most, 0, -1):
        for spots in _spots(game, deck, card, count):
            changed = [card if i in spots else x for i, x in enumerate(deck)]
            if not game.check_deck(changed):
                return _read_deck(game, path.stem, changed, tuple(deck[i] for i in sorted(spots)))
    return None


def _spots(game: Game, deck: list[str], card: str, count: int) -> list[set[int]]:
    """Return the sets of places to try for `count` copies: the first `count` of the preferred places, then
    (one copy) each place on its own, so that a joker may replace the one joker it does not clash with."""
    kind = game.cards[card].kind
    part = [i for i in range(len(deck)) if is_apart(game, deck[i]) == is_apart(game, card)]
    order = sorted(part, key=lambda i: (game.cards[deck[i]].kind != kind, -i))
    if len(order) < count:
        return []
    return [set(order[:count])] + ([{i} for i in order[1:]] if count == 1 else [])


def _read_deck(game: Game, sample: str, deck: list[str], replaced: tuple[str, ...]) -> Placed:
    """Return a deck as its file text and the list that text reads back as."""
    counts: dict[str, int] = {}
    for name in deck:
        counts[name] = counts.get(name, 0) + 1
    text = "".join(f"{n} {name}\n" for name, n in counts.items())
    return Placed(sample, text, read_deck(text, f"{sample}.deck", deck_rules(game)), replaced, ".deck")


def _team(game: Game, path: Path, team: list[Entry], card: str) -> Placed | None:
    """Return a team with the card in it: as a character in place of one (keeping its table), else on a
    face of a table (the table kept in ascending cost); None if no place keeps the team legal."""
    if card in entry_names(team):
        return _read_team(game, path.stem, team, ())
    for i, entry in enumerate(team):
        for changed, replaced in _team_changes(game, team, i, entry, card):
            placed = _read_team(game, path.stem, changed, (replaced,))
            if placed is not None:
                return placed
    return None


def _team_changes(game: Game, team: list[Entry], i: int, entry: Entry, card: str) -> list[tuple[list[Entry], str]]:
    """Return the teams to try with the card in the place of entry i's character, or of each face of its
    table, the last first."""
    def but(new: Entry) -> list[Entry]:
        return team[:i] + [new] + team[i + 1:]

    if game.cards[card].kind == game.ruleset.actor_turns[0]:
        return [(but(Entry(card, entry.attached, entry.line)), entry.name)]
    out = []
    for face in reversed(range(len(entry.attached))):
        table = [card if k == face else x for k, x in enumerate(entry.attached)]
        table.sort(key=lambda x: sum(game.cards[x].cost.values()))  # stable: equal costs keep their order
        out.append((but(Entry(entry.name, tuple(table), entry.line)), entry.attached[face]))
    return out


def _read_team(game: Game, sample: str, team: list[Entry], replaced: tuple[str, ...]) -> Placed | None:
    """Return a team as its file text and the entries it reads back as, or None if the rules refuse it."""
    text = team_text(team, game.ruleset.lines, f"{sample} with a card on trial")
    try:
        entries = read_team(text, f"{sample}.team", game)
    except CompileError:
        return None
    return None if game.check_deck(entry_names(entries)) else Placed(sample, text, entries, replaced, ".team")
