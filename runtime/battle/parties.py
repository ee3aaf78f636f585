"""The swordsmen of a party as the engine takes them, the creation budget, and the party-file line of each.

Party files (*.sw, one 'Name: HP/ATK/DEF/SPD/swords' a line) are read and checked by compiler/party_files.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

STATS = (("max_hp", "HP"), ("atk", "ATK"), ("def", "DEF"), ("spd", "SPD"))  # per_point key, label


@dataclass(frozen=True)
class Budget:
    """Creation budget: every swordsman spends exactly `points`; one point buys per_point[key] units."""

    points: int
    per_point: Mapping[str, int]  # keys: "max_hp", "atk", "def", "spd", "sword"

    def __post_init__(self) -> None:
        keys = {key for key, _ in STATS} | {"sword"}
        if set(self.per_point) != keys or min(self.per_point.values()) < 1:
            raise ValueError(f"per_point needs a whole number 1 or more for each of {sorted(keys)}, "
                             f"found {dict(self.per_point)}")


@dataclass(frozen=True)
class SwordsmanSpec:
    """One swordsman as written in a party file."""

    name: str
    max_hp: int
    atk: int
    def_: int
    spd: int
    swords: tuple[str, ...]  # canonical English names, in order
    line: int  # 1-based line in the file


def format_swordsman(spec: SwordsmanSpec) -> str:
    """Return the canonical line for a swordsman, e.g. 'Name: 10/1/1/2/Slash Sword, Shock Sword'."""
    return f"{spec.name}: {spec.max_hp}/{spec.atk}/{spec.def_}/{spec.spd}/{', '.join(spec.swords)}"
