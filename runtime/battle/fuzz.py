"""Random legal parties and the invariants every finished battle keeps (used by tests and benchmarks)."""

from __future__ import annotations

import random

from runtime.battle.parties import Budget, SwordsmanSpec
from runtime.battle.rules import Rules
from runtime.battle.state import Battle

NAMES = ("Aster", "Brisk", "Corvin", "Dalla", "Edda", "Fenn", "Galen", "Hesper", "Ilse")


def random_swordsman(rules: Rules, rng: random.Random, budget: Budget, name: str) -> SwordsmanSpec:
    """Return a swordsman spending exactly the budget: some points on swords, the rest spread over stats."""
    swords = sorted(n for n, c in rules.cards.items() if c.kind in rules.sword_kinds)
    count = rng.randint(1, min(6, budget.points))
    spend = {"max_hp": 0, "atk": 0, "def": 0, "spd": 0}
    for _ in range(budget.points - count):
        spend[rng.choice(sorted(spend))] += 1
    picked = tuple(rng.choice(swords) for _ in range(count))
    per = budget.per_point
    return SwordsmanSpec(name, spend["max_hp"] * per["max_hp"], spend["atk"] * per["atk"],
                         spend["def"] * per["def"], spend["spd"] * per["spd"], picked, 0)


def random_party(rules: Rules, rng: random.Random, budget: Budget, size: int = 0) -> list[SwordsmanSpec]:
    """Return 1-3 random swordsmen (or `size`), each within the budget."""
    names = rng.sample(NAMES, size or rng.randint(1, 3))
    return [random_swordsman(rules, rng, budget, name) for name in names]


def violations(s: Battle) -> list[str]:
    """Return what a finished battle breaks: an end, the turn bound, counts, party rows, sword ownership."""
    out = []
    if s.result not in ("A", "B", "draw"):
        out.append(f"no result (result {s.result!r})")
    if s.turn > s.defs.ruleset.last_turn + 1:
        out.append(f"turn {s.turn} is past {s.defs.ruleset.last_turn + 1}")
    seen: set[int] = set()
    for f in s.fighters():
        if f.values["ap"] < 0 or f.values["reserve_ap"] < 0:
            out.append(f"{f.name} has AP {f.values['ap']}, reserve AP {f.values['reserve_ap']}")
        if f.hp <= 0 and not s.turn_zero:
            out.append(f"{f.name} is dead (HP {f.hp}) but still in its party after the end")
        for w in f.swords:
            if w.id in seen:
                out.append(f"sword {w.id} ({w.card}) is held twice")
            seen.add(w.id)
    if not any("result:" in line for line in s.log[-1:]):
        out.append("the log does not end with the result")
    return out
