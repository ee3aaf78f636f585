"""Per-card figures of a tournament: in how many games each card was drawn and played, the win rate then,
and how often its abilities fired.

A game is watched by an Observer (State.watch for the abilities, the agents' choices for the plays); it
gives back a Seen, plain sorted data that a worker process returns as is. The figures are summed over the
games in schedule order, so they are the same however many workers played them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from runtime.engine import Action
from runtime.state import Ctx, State
from tools.trying import PLAY_ACTIONS, USE_ACTIONS

OWN_ABILITIES = ("card", "keyword")  # a status or a rule firing is not the card's own doing


@dataclass(frozen=True)
class Seen:
    """What one game showed of the cards: per seat the names drawn and played, and abilities fired by name."""

    drawn: tuple[tuple[str, ...], ...]
    played: tuple[tuple[str, ...], ...]
    fired: tuple[tuple[str, int], ...]


class Observer:
    """Watches one game: the cards out of each seat's deck at every decision, the plays chosen, the abilities fired."""

    def __init__(self, seats: int):
        self.drawn: list[set[str]] = [set() for _ in range(seats)]
        self.played: list[set[str]] = [set() for _ in range(seats)]
        self.fired: Counter[str] = Counter()

    def look(self, s: State) -> None:
        """Note every card out of its owner's deck (drawn, or set out at the start)."""
        for c in s.cards:
            if c.zone != "deck" and 0 <= c.owner < len(self.drawn):
                self.drawn[c.owner].add(c.name)

    def chose(self, s: State, action: Action) -> None:
        """Note a card played or used by the action chosen (it was drawn, too: it may come from the deck)."""
        kind, cid = action
        if kind in PLAY_ACTIONS | USE_ACTIONS and isinstance(cid, int) and 0 <= cid < len(s.cards):
            card = s.cards[cid]
            if 0 <= card.owner < len(self.played):
                self.played[card.owner].add(card.name)
                self.drawn[card.owner].add(card.name)

    def watch(self, s: State, what: str, ctx: Ctx, why: str) -> None:
        """Count an ability of a card (its own or its keyword's) put on the stack (State.watch); where turns
        go to cards, dice and not players choose the cards used, so a card whose ability fired was played."""
        if what == "fired" and ctx.ability[0] in OWN_ABILITIES and 0 <= ctx.source < len(s.cards):
            card = s.cards[ctx.source]
            self.fired[card.name] += 1
            if s.game.ruleset.actor_turns and 0 <= card.owner < len(self.played):
                self.played[card.owner].add(card.name)

    def seen(self) -> Seen:
        """Return what the game showed, sorted (plain data a worker process sends back)."""
        return Seen(tuple(tuple(sorted(d)) for d in self.drawn), tuple(tuple(sorted(p)) for p in self.played),
                    tuple(sorted(self.fired.items())))


def card_figures(names: list[str], games: list[tuple[list[int], Seen]]) -> list[dict]:
    """Return per card (those named, in order) the wins, draws and losses of the seats that drew it and
    of those that played it, and how often its abilities fired, over games of (result by seat, Seen)."""
    drawn = {n: [0, 0, 0] for n in names}
    played = {n: [0, 0, 0] for n in names}
    fired = dict.fromkeys(names, 0)
    for result, seen in games:
        for seat, mine in enumerate(result):
            for tally, cards in ((drawn, seen.drawn[seat]), (played, seen.played[seat])):
                for name in cards:
                    if name in tally:
                        tally[name][1 - mine] += 1  # 1: a win, 0: a draw, -1: a loss
        for name, count in seen.fired:
            if name in fired:
                fired[name] += count
    return [{"card": n, "drawn": drawn[n], "played": played[n], "fired": fired[n]} for n in names]
