"""What a tournament's card game shows of each card: the cards drawn and played by each seat, and how often
each card's abilities fired.

A game is watched by an Observer (State.watch for the abilities, the agents' choices for the plays); it
gives back a Seen (tools/tournament_items.py), which the per-card figures sum.
"""

from __future__ import annotations

from collections import Counter

from runtime.engine import Action
from runtime.state import Ctx, State
from tools.tournament_items import Seen
from tools.trying import PLAY_ACTIONS, USE_ACTIONS

OWN_ABILITIES = ("card", "keyword")  # a status or a rule firing is not the card's own doing


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
