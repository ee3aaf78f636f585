"""Inheritance (Successor §4, §5): a card of a kind that is `inherited` (a memorion) is attached to the card that
inherits it, kept in the ruleset's `attached` zone, and moves with it. Where cards have `slots` and the ruleset
says `inherited cards go into slots of the same genre.`, each inherited card is designated one slot of its
genre when it is inherited, for good (`CardState.slot`); with no slot of its genre, none (SU-5.1). A summon by
the `drive` action first lets its player add any number of such cards from the hand (SU-5.2).

With `a successor may be summoned onto another.` the drive may go into a square of its own side
that holds one: an inherit-summon (SU-5.3). The new card may keep, as inherited cards, the one it replaces
(which then counts as one of them, SU-5.7; a token has nothing to give, SU-13.3) and the cards that one
inherited; the rest go to the graveyard, and what leaves the field loses its statuses (its counters, SU-5.8).
Both ways combine (SU-5.4).

The summon is a task (["summon", card, square, chosen, done, slots, kept, kept_done]: runtime/summons.py) that
asks one decision at a time: the next hand card to inherit or `done` (an ability's summon takes none, SU-5.5),
then the next card of the replaced one to inherit (keep) or `done`, then a slot for each card it inherits that
has a choice of two or more.
"""

from __future__ import annotations

from runtime import effects as fx
from runtime import grid
from runtime import query as q
from runtime.state import State
from runtime.triggers import emit


def inherited_kinds(s: State) -> tuple[str, ...]:
    """Return the kinds whose cards are inherited."""
    return tuple(k for k, traits in s.game.ruleset.kind_traits.items() if "inherited" in traits)


def attached_zone(s: State) -> str:
    """Return the zone where the ruleset keeps attached cards ('' if it has none)."""
    return next((z for z, flags in s.game.ruleset.zones.items() if "attached" in flags), "")


def from_hand(s: State, player: int, chosen: list[int]) -> list[int]:
    """Return the hand cards a summon may still add: of an inherited kind, not chosen yet."""
    kinds = inherited_kinds(s)
    return [c for c in s.players[player].zones["hand"] if q.kind(s, c) in kinds and c not in chosen]


def slots_for(s: State, holder: int, cid: int) -> list[int]:
    """Return the slots of a holder that a card may be designated for: those of its genre."""
    attr = s.game.ruleset.slot_attribute
    genre = s.game.cards[s.cards[cid].name].attributes.get(attr) if attr else None
    return [k for k, g in enumerate(s.game.cards[s.cards[holder].name].slots) if genre is not None and g == genre]


def slot_name(s: State, holder: int, k: int) -> str:
    """Return how the log names a slot: 'slot 2 (fire)'."""
    return f"slot {k + 1} ({s.game.cards[s.cards[holder].name].slots[k]})"


def replaced(s: State, player: int, at: int | None) -> int | None:
    """Return the card an inherit-summon into a square replaces, or None for an empty square."""
    return None if at is None else grid.occupant(s, player, at)


def keepable(s: State, old: int, kept: list[int]) -> list[int]:
    """Return the cards an inherit-summon may still keep: the replaced card (not a token) and what it inherited."""
    mine = ([] if s.game.cards[s.cards[old].name].token else [old]) + list(s.cards[old].attached)
    return [c for c in mine if c not in kept]


def ask_next(s: State, task: list) -> bool:
    """Ask a summon's next decision; return False once nothing is left to ask (the slots all designated)."""
    _, cid, at, chosen, done, slots, kept, kept_done = task
    player = s.cards[cid].controller
    if not done and (options := from_hand(s, player, chosen)):
        s.ask(task, player, "inherit", options, can_stop=True, stop="done", card=cid, stage="hand")
        return True
    old = replaced(s, player, at)
    if old is not None and not kept_done and (options := keepable(s, old, kept)):
        s.ask(task, player, "inherit", options, can_stop=True, stop="done", card=cid, stage="replaced")
        return True
    decided = {m for m, _ in slots}
    for m in chosen + kept:
        if m not in decided:
            choice = slots_for(s, cid, m)
            if len(choice) >= 2:
                s.ask(task, player, "slot", choice, card=cid, memorion=m)
                return True
            slots.append([m, choice[0] if choice else -1])
    return False


def answer(s: State, decision: dict, kind: str, x: int) -> None:
    """Record an answer to a summon's decision: a hand card to inherit, 'done', or a slot."""
    task, hand = s.tasks[-1], decision.get("stage") == "hand"
    if kind == "inherit":
        task[3 if hand else 6].append(x)
    elif kind == "done":
        task[4 if hand else 7] = True
    else:
        task[5].append([decision["memorion"], x])


def replace(s: State, cid: int, old: int, kept: list[int]) -> None:
    """Take the replaced card of an inherit-summon off its square: what is not kept goes to the graveyard (a
    token leaves the game), and what is kept comes off it, to be inherited by the new card (SU-5.3)."""
    player = s.cards[old].controller
    s.say(f"P{player + 1} inherit-summons {q.describe(s, cid)} onto {q.describe(s, old)}")
    for m in list(s.cards[old].attached):
        s.own(old).attached.remove(m)
        s.own(m).holder = -1
        if m not in kept:
            fx.move(s, m, "graveyard")
            s.say(f"{q.describe(s, m)} goes to the graveyard")
    emit(s, "left", card=old, player=player)
    if old not in kept:
        fx.move(s, old, "graveyard")
        if s.cards[old].zone == "graveyard":
            s.say(f"{q.describe(s, old)} goes to the graveyard")


def attach(s: State, holder: int, cid: int, slot: int) -> None:
    """Attach a card (from the hand, or a successor going under) to a holder, designated for a slot; logged."""
    fx.move(s, cid, attached_zone(s))
    c = s.own(cid)
    c.controller = s.cards[holder].controller
    s.own(holder).attached.append(cid)
    c.holder, c.slot = holder, slot
    into = f" into {slot_name(s, holder, slot)}" if slot >= 0 else ""
    also = " (now a memorion)" if q.kind(s, cid) not in inherited_kinds(s) else ""
    s.say(f"{q.describe(s, holder)} inherits {q.describe(s, cid)}{also}{into}")
