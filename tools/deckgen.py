"""Random legal decks for fuzzing: the same deck rules as Game.check_deck (deck size, copy limit, tokens,
keywords a rules version bans, the jokers a deck must have, each with a different attribute, and the cards
of a kind listed apart, such as Successor's one ruler). Jokers and those cards are the deck's part apart
("jokers" below: what is listed with a deck but not counted in its size).

A deck is drawn position by position from the cards still allowed at that position, so any sequence
of indices decodes to a legal deck (see decode_deck): the shrinker in tools/fuzzing.py then never
wastes a try on a deck the game would refuse.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from runtime import jokers
from runtime.engine import Game

DEFAULT_SIZE = 30  # the deck size of a ruleset that states none
Draw = Callable[[int], int]  # returns an integer in [0, n)


@dataclass(frozen=True)
class Candidates:
    """The cards a deck may be drawn from, in draw order: the main part and the jokers."""

    main: tuple[str, ...]
    jokers: tuple[str, ...]


def why_not_in_a_deck(game: Game, name: str) -> str | None:
    """Return why a card can never be in a deck under the game's rules, or None if it can."""
    card = game.cards.get(name)
    if card is None:
        return "it is not a card of this ruleset"
    if card.token:
        return "it is a token"
    if jokers.is_joker(game, name):
        return None if game.ruleset.jokers is not None else "it is a joker and these rules use no jokers"
    banned = [k for k, _ in card.keywords if k in game.ruleset.banned_keywords]
    return f"it has {banned[0]}, which these rules do not allow" if banned else None


def candidates(game: Game, names: list[str]) -> Candidates:
    """Return the cards of names that may be in a deck under the game's rules, split into main and jokers."""
    legal = [x for x in names if why_not_in_a_deck(game, x) is None]
    return Candidates(tuple(x for x in legal if not is_apart(game, x)), tuple(x for x in legal if is_apart(game, x)))


def is_apart(game: Game, name: str) -> bool:
    """Return whether a card is listed with a deck but apart from its size: a joker, or of a counted kind."""
    return jokers.is_joker(game, name) or game.cards[name].kind in dict(game.ruleset.kind_counts)


def size_of(game: Game) -> int:
    """Return how many cards a deck's main part holds (besides its jokers)."""
    return game.ruleset.deck_size or DEFAULT_SIZE


def joker_count(game: Game) -> int:
    """Return how many cards apart a deck must have under the game's options: jokers, and the counted kinds."""
    held = game.ruleset.jokers[0] if game.ruleset.jokers is not None else 0
    return held + sum(count for _, count in game.ruleset.kind_counts)


def problem(game: Game, cands: Candidates) -> str | None:
    """Return why no legal deck can be drawn from cands (too few cards, too few different jokers), or None."""
    size, copies = size_of(game), game.ruleset.max_copies
    if not cands.main or (copies and len(cands.main) * copies < size):
        most = f", at most {copies} copies each" if copies else ""
        return (f"only {len(cands.main)} card(s) may be in a deck under these rules{most}; "
                f"a deck needs {size}")
    for kind, count in game.ruleset.kind_counts:
        if not any(game.cards[x].kind == kind for x in cands.jokers):
            return f"a deck needs {count} {kind}; these cards offer none"
    count = game.ruleset.jokers[0] if game.ruleset.jokers is not None else 0
    offered = len(_joker_values(game, tuple(x for x in cands.jokers if jokers.is_joker(game, x))))
    if count and offered < count:
        distinct = game.ruleset.jokers[1] if game.ruleset.jokers else None
        each = f" each with a different {distinct}" if distinct else ""
        return f"a deck needs {count} joker(s){each}; these cards offer {offered}"
    return None


def _joker_values(game: Game, jokers: tuple[str, ...]) -> set:
    """Return the different values of the attribute jokers must differ in (the jokers themselves if none)."""
    distinct = game.ruleset.jokers[1] if game.ruleset.jokers else None
    return {game.cards[j].attributes.get(distinct) if distinct else j for j in jokers}


def shape(game: Game, deck: list[str]) -> list[bool]:
    """Return, per position of a deck, whether it holds a joker."""
    return [is_apart(game, x) for x in deck]


def allowed(game: Game, cands: Candidates, so_far: list[str], joker: bool) -> list[str]:
    """Return the cards a deck built so far may take next, in candidate order."""
    if not joker:
        copies = game.ruleset.max_copies
        return [c for c in cands.main if not copies or so_far.count(c) < copies]
    distinct = game.ruleset.jokers[1] if game.ruleset.jokers else None
    taken = {game.cards[x].attributes.get(distinct) for x in so_far if jokers.is_joker(game, x)} if distinct else set()
    quota = dict(game.ruleset.kind_counts)
    full = {kind for kind, count in quota.items() if sum(game.cards[x].kind == kind for x in so_far) >= count}
    return [j for j in cands.jokers if j not in so_far and game.cards[j].kind not in full
            and not (distinct and jokers.is_joker(game, j) and game.cards[j].attributes.get(distinct) in taken)]


def decode_deck(game: Game, cands: Candidates, slots: list[bool], draw: Draw,
                start: tuple[str, ...] = ()) -> list[str] | None:
    """Return start plus the cards the drawn indices choose, one per slot (True: a joker), or None when a
    slot has no card left (a shape that cannot be filled)."""
    deck = list(start)
    for joker in slots:
        options = allowed(game, cands, deck, joker)
        if not options:
            return None
        deck.append(options[draw(len(options))])
    return deck


def encode_deck(game: Game, cands: Candidates, deck: list[str]) -> list[int]:
    """Return the indices decode_deck reads to rebuild deck (the inverse of decode_deck)."""
    out: list[int] = []
    for i, name in enumerate(deck):
        out.append(allowed(game, cands, deck[:i], is_apart(game, name)).index(name))
    return out


def random_deck(rng: random.Random, game: Game, cands: Candidates, focus: Candidates | None = None) -> list[str]:
    """Return a random legal deck: shuffled main part, then the jokers; with focus, 1 to half the deck of the
    focus cards (as the copy limit allows) and at least one focus joker when focus has jokers."""
    size, copies = size_of(game), game.ruleset.max_copies
    deck: list[str] = []
    if focus is not None and focus.main:
        room = len(focus.main) * copies if copies else size
        deck = decode_deck(game, focus, [False] * rng.randint(1, max(1, min(size // 2, room))), rng.randrange) or []
    deck = decode_deck(game, cands, [False] * (size - len(deck)), rng.randrange, tuple(deck)) or deck
    rng.shuffle(deck)
    chosen = [rng.choice(focus.jokers)] if joker_count(game) and focus is not None and focus.jokers else []
    shuffled = Candidates(cands.main, tuple(rng.sample(cands.jokers, len(cands.jokers))))
    return deck + _fill_jokers(game, shuffled, deck, chosen)


def _fill_jokers(game: Game, cands: Candidates, deck: list[str], chosen: list[str]) -> list[str]:
    """Return chosen plus the first allowed jokers of cands until the deck has as many as the rules say."""
    out = list(chosen)
    while len(out) < joker_count(game):
        options = allowed(game, cands, deck + out, True)
        if not options:
            break  # checked beforehand by problem(); the game would refuse the deck
        out.append(options[0])
    return out
