"""Jokers, the cards a deck holds beside its main part ('jokers N[, each with a different A][, dealt
when R is full]'): which cards they are, what a deck's jokers must be, where they wait at the start.

Using and dealing them are actions of the action phase (runtime/actions.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the engine imports this module; the Game type is only named here
    from runtime.engine import Game
    from runtime.state import State

TRAIT = "used as a joker"  # the kind trait that makes a card a joker


def is_joker(game: Game, name: str) -> bool:
    """Return whether a card of this name is a joker under the game's rules."""
    return TRAIT in game.traits.get(name, ())


def names(game: Game) -> frozenset[str]:
    """Return the names of every joker of the game's cards."""
    return frozenset(name for name in game.cards if is_joker(game, name))


def deck_problems(game: Game, jokers: list[str]) -> list[str]:
    """Return what is wrong with a deck's jokers (empty when they are legal)."""
    rule = game.ruleset.jokers
    if rule is None:
        return [f"'{n}' is a joker; this ruleset uses none" for n in sorted(set(jokers))]
    count, distinct, _ = rule
    problems = [f"the deck has {len(jokers)} joker(s); it must have exactly {count}"] if len(jokers) != count else []
    values = [game.cards[n].attributes.get(distinct) for n in jokers]
    if distinct and len(set(values)) != len(values):
        problems.append(f"its jokers must each have a different {distinct}")
    return problems


def set_aside(game: Game, s: State, player: int) -> None:
    """Put a player's jokers that are not dealt into the zone where they wait (after the main deck)."""
    kept = [z for z in game.ruleset.joker_zones if z != "hand"]
    rule = game.ruleset.jokers
    if kept and not (rule and rule[2]):
        for name in s.players[player].jokers:
            game.add_card(s, name, player, kept[0])
