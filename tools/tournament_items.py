"""The per-item figures of `cardc tournament` (per card, or per sword for automatic battles) and the words
the report uses for a ruleset's games, seats and items.

A game's observer (tools/tournament_cards.py for card games, tools/battle/tournament.py for battles) gives
back a Seen: plain sorted data that a worker process returns as is. The figures are summed over the games
in schedule order, so they are the same however many workers, and whichever backend, played them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Words:
    """What a tournament's report calls its games, seats and items, and the two per-item figures."""

    game: str  # a game, or a battle
    seat: str  # a seat, or a side
    first: str  # who sits first: "the first seat", "side A"
    item: str  # card or sword: the JSON key of the per-item list is this word plus 's'
    held: str  # drawn or carried: the item was out of the seat's deck, or in its party
    acted: str  # played or used
    held_verb: str  # "drew", "carried": the report's sentence about the figures
    acted_verb: str  # "played", "used"

    @property
    def items(self) -> str:
        """Return the key of the per-item list in the results (cards, swords)."""
        return self.item + "s"


CARD_WORDS = Words("game", "seat", "the first seat", "card", "drawn", "played", "drew", "played")
BATTLE_WORDS = Words("battle", "side", "side A", "sword", "carried", "used", "carried", "used")


def words_of(results: dict) -> Words:
    """Return the words of a tournament's results, known by the key of their per-item list."""
    return BATTLE_WORDS if BATTLE_WORDS.items in results else CARD_WORDS


@dataclass(frozen=True)
class Seen:
    """What one game showed of its items: per seat the names held (drawn, carried) and acted with (played,
    used), and how often each item's abilities fired, by name."""

    held: tuple[tuple[str, ...], ...]
    acted: tuple[tuple[str, ...], ...]
    fired: tuple[tuple[str, int], ...]


def item_figures(names: list[str], games: list[tuple[list[int], Seen]]) -> list[dict]:
    """Return per item (those named, in order) the wins, draws and losses of the seats that held it and
    of those that acted with it, and how often its abilities fired, over games of (result by seat, Seen)."""
    held = {n: [0, 0, 0] for n in names}
    acted = {n: [0, 0, 0] for n in names}
    fired = dict.fromkeys(names, 0)
    for result, seen in games:
        for seat, mine in enumerate(result):
            for tally, items in ((held, seen.held[seat]), (acted, seen.acted[seat])):
                for name in items:
                    if name in tally:
                        tally[name][1 - mine] += 1  # 1: a win, 0: a draw, -1: a loss
        for name, count in seen.fired:
            if name in fired:
                fired[name] += count
    return [{"name": n, "held": held[n], "acted": acted[n], "fired": fired[n]} for n in names]
