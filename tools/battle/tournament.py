"""What `cardc tournament` needs of automatic battles: one battle played and watched, and the swords of parties.

A battle has no seed and no decisions (runtime/battle: nothing in it is random), so a pairing plays one
battle in each seating. A SwordObserver (the runtime's Battle.watch) notes the swords each side carried
and used and the enchantments that acted, and gives back a Seen (tools/tournament_items.py): plain sorted
data a worker process returns as is.
"""

from __future__ import annotations

from collections import Counter

from runtime.battle.parties import SwordsmanSpec
from runtime.battle.procedure import new_battle, run
from runtime.battle.rules import Rules
from runtime.battle.state import Battle, Fighter, Sword
from tools.tournament_items import Seen

RESULTS = {"A": (1, -1), "B": (-1, 1), "draw": (0, 0)}  # a battle's result by side: 1 a win, 0 a draw, -1 a loss
Party = list[SwordsmanSpec]


class SwordObserver:
    """Watches one battle: the swords of each side's party, those its swordsmen used, the enchantments that acted."""

    def __init__(self, parties: tuple[Party, Party]):
        self.carried: list[set[str]] = [{w for spec in party for w in spec.swords} for party in parties]
        self.used: list[set[str]] = [set(), set()]
        self.fired: Counter[str] = Counter()

    def watch(self, s: Battle, what: str, who: Fighter | None, sword: Sword | None, name: str) -> None:
        """Note a sword used by a side (carried too: a sword gained in the battle), or an enchantment of a
        sword that acted (counted for the sword's card); states and processings are not a sword's doing."""
        if who is None or sword is None:
            return
        if what == "acts":
            self.used[who.side].add(sword.card)
            self.carried[who.side].add(sword.card)
        elif what == "enchantment":
            self.fired[sword.card] += 1

    def seen(self) -> Seen:
        """Return what the battle showed, sorted (plain data a worker process sends back)."""
        return Seen(tuple(tuple(sorted(c)) for c in self.carried), tuple(tuple(sorted(u)) for u in self.used),
                    tuple(sorted(self.fired.items())))


def battle_one(rules: Rules, a: Party, b: Party, options: dict[str, str]) -> tuple[list[int], int, Seen]:
    """Return a battle's result by side (1 win, 0 draw, -1 loss), its last turn and what it showed of the swords."""
    seen = SwordObserver((a, b))
    s = new_battle(rules, (a, b), options)
    s.watch = seen.watch
    run(s)
    return list(RESULTS[s.result]), s.turn, seen.seen()


def sword_names(parties: list[Party]) -> list[str]:
    """Return the swords the parties carry, sorted (the swords of the per-sword figures)."""
    return sorted({w for party in parties for spec in party for w in spec.swords})
