"""Party files (*.sw): the swordsmen of one party, front first, one 'Name: HP/ATK/DEF/SPD/swords' a line.

Problems are reported like deck problems (runtime/decks.py), with codes from compiler/diagnostics.py:
E202 unknown sword, E204 a line that is not a swordsman, E205 creation budget, E206 not a sword.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from runtime.decks import DeckError, DeckProblem
from runtime.spelling import did_you_mean

COLONS = ":："  # Japanese keyboards type the full-width colon as readily as the ASCII one
SWORD_SEPARATORS = ",、，"
STATS = (("max_hp", "HP"), ("atk", "ATK"), ("def", "DEF"), ("spd", "SPD"))  # per_point key, label
SHAPE = "expected 'NAME: HP/ATK/DEF/SPD/SWORDS'"

# A problem whose path and line the caller knows: (column, code, message); tuples sort in source order.
Found = tuple[int, str, str]


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


def parse_party(text: str, path: str, swords: Mapping[str, str], others: Mapping[str, str] = {},
                budget: Budget | None = None) -> list[SwordsmanSpec]:
    """Return the swordsmen of a party file, front first, or raise DeckError with every problem located."""
    party: list[SwordsmanSpec] = []
    problems: list[DeckProblem] = []
    seen: set[str] = set()
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0]
        if line.strip():
            spec, found = _check_line(line, number, seen, swords, others, budget)
            party += [spec] if spec else []
            problems += [DeckProblem(path, number, *problem) for problem in sorted(found)]
    if not party and not problems:
        problems.append(DeckProblem(path, 1, 1, "E204", "the party file lists no swordsman"))
    if problems:
        raise DeckError(problems, text)
    return party


def load_party(path: Path, swords: Mapping[str, str], others: Mapping[str, str] = {},
               budget: Budget | None = None) -> list[SwordsmanSpec]:
    """Return the swordsmen of a party file on disk (see parse_party)."""
    # utf-8-sig: editors on Windows often start a Japanese text file with a byte-order mark
    return parse_party(path.read_text(encoding="utf-8-sig"), str(path), swords, others, budget)


def format_swordsman(spec: SwordsmanSpec) -> str:
    """Return the canonical line for a swordsman, e.g. 'Name: 10/1/1/2/Slash Sword, Shock Sword'."""
    return f"{spec.name}: {spec.max_hp}/{spec.atk}/{spec.def_}/{spec.spd}/{', '.join(spec.swords)}"


def _check_line(line: str, number: int, seen: set[str], swords: Mapping[str, str],
                others: Mapping[str, str], budget: Budget | None) -> tuple[SwordsmanSpec | None, list[Found]]:
    """Return the swordsman of a line (None if the line has errors) and its problems; add its name to seen."""
    body, col = line.strip(), len(line) - len(line.lstrip()) + 1
    cut = min((body.find(colon) for colon in COLONS if colon in body), default=-1)
    fields = _split(body[cut + 1:], col + cut + 1, "/")
    if cut < 1 or len(fields) != 5:  # cut 0 is an empty name: body starts with no space
        return None, [(col, "E204", f"{SHAPE}, found '{body}'")]
    name = body[:cut].strip()
    found = [(col, "E204", f"swordsman '{name}' is listed twice")] if name in seen else []
    seen.add(name)
    for (text, at), (_, label) in zip(fields[:4], STATS, strict=True):
        _check_number(text, at, label, found)
    names = _swords(*fields[4], swords, others, found)
    if found:
        return None, found
    hp, atk, def_, spd = (int(text) for text, _ in fields[:4])  # each checked by _check_number above
    spec = SwordsmanSpec(name, hp, atk, def_, spd, names, number)
    return spec, _budget_problems(spec, [col] + [at for _, at in fields], budget) if budget else []


def _split(text: str, col: int, separators: str) -> list[tuple[str, int]]:
    """Return the stripped pieces of text between separators, each with the column it starts at."""
    pieces: list[tuple[str, int]] = []
    start = 0
    for i, char in enumerate(text + separators[0]):  # the added separator ends the last piece
        if char in separators:
            piece = text[start:i]
            # a blank piece is shown where it starts; a written one at its first character
            pad = len(piece) - len(piece.lstrip()) if piece.strip() else 0
            pieces.append((piece.strip(), col + start + pad))
            start = i + 1
    return pieces


def _check_number(text: str, col: int, label: str, found: list[Found]) -> None:
    """Return nothing; add to found why the field is not a whole number 0 or more, if it is not."""
    if not (text.isascii() and text.isdigit()):  # ASCII only: isdigit alone accepts '²' and others
        found.append((col, "E204", f"expected a whole number 0 or more for {label}, found '{text}'"))


def _swords(text: str, col: int, swords: Mapping[str, str], others: Mapping[str, str],
            found: list[Found]) -> tuple[str, ...]:
    """Return the canonical names of the swords it could resolve; add the others' problems to found."""
    if not text:
        return ()
    names: list[str] = []
    for sword, at in _split(text, col, SWORD_SEPARATORS):
        if not sword:
            found.append((at, "E204", "empty sword name between separators"))
        elif sword in swords:
            names.append(swords[sword])
        elif sword in others:
            found.append((at, "E206", f"'{sword}' is {others[sword]}, not a sword"))
        else:
            found.append((at, "E202", f"unknown sword '{sword}'{did_you_mean(sword, swords)}"))
    return tuple(names)


def _budget_problems(spec: SwordsmanSpec, cols: list[int], budget: Budget) -> list[Found]:
    """Return how a swordsman breaks the budget: values off the per-point step, else a wrong total."""
    values = {"max_hp": spec.max_hp, "atk": spec.atk, "def": spec.def_, "spd": spec.spd,
              "sword": len(spec.swords)}
    labels = dict(STATS) | {"sword": "sword count"}
    found = [(at, "E205", f"{labels[key]} {values[key]} is not a multiple of {budget.per_point[key]}")
             for key, at in zip(values, cols[1:], strict=True) if values[key] % budget.per_point[key]]
    spent = sum(values[key] // budget.per_point[key] for key in values)
    # the total of a swordsman already off the per-point step would be a fraction, and only noise
    if not found and spent != budget.points:
        points = "point" if spent == 1 else "points"
        found.append((cols[0], "E205", f"'{spec.name}' spends {spent} {points}; the budget is exactly "
                                       f"{budget.points}"))
    return found
