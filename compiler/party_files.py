"""Party files (*.sw) through the grammar: read (grammar/sheets.lark via compiler/parser.py), then checked
against the swords of a ruleset and its creation budget, every problem located, in source order.

Codes: E202 unknown sword, E204 a swordsman line with a bad value, a name listed twice or no swordsman
at all, E205 the creation budget, E206 not a sword; E001/E002 a line that does not parse, E005 bytes that
are not UTF-8.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from compiler import nodes as n
from compiler import sheet_nodes as sn
from compiler.build import read_source
from compiler.diagnostics import CompileError, Diagnostic, did_you_mean
from compiler.parser import parse_party as parse_party_file
from runtime.battle.parties import STATS, Budget, SwordsmanSpec

MAX_VALUE = 999_999_999  # as numbers in card files: any budget's values are far below it


def check_party(party: sn.PartyFile, swords: Mapping[str, str], others: Mapping[str, str] = {},
                budget: Budget | None = None) -> tuple[list[SwordsmanSpec], list[Diagnostic]]:
    """Return the swordsmen of a party file that have no problem, front first, and every problem."""
    specs: list[SwordsmanSpec] = []
    problems: list[Diagnostic] = []
    seen: set[str] = set()
    for line in party.swordsmen:
        found = _line_problems(line, seen, swords, others)
        spec = None if found else _spec(line, swords)
        if spec is not None and budget is not None:
            found = _budget_problems(spec, line, budget)
        specs += [spec] if spec is not None and not found else []
        problems += [Diagnostic(code, message, party.path, node.loc.line, node.loc.col) for node, code, message in found]
    return specs, problems


Found = list[tuple[n.Node, str, str]]  # (where, code, message) of a swordsman line's problems


def _line_problems(line: sn.SwordsmanLine, seen: set[str], swords: Mapping[str, str],
                   others: Mapping[str, str]) -> Found:
    """Return a line's problems other than the budget; add its name to seen."""
    name = line.name.value
    found: Found = [(line, "E204", f"swordsman '{name}' is listed twice")] if name in seen else []
    seen.add(name)
    for word, (_, label) in zip(line.stats, STATS, strict=True):
        found += _number_problems(word, label)
    for sword in line.swords:
        if not sword.text:
            found.append((sword, "E204", "empty sword name between separators"))
        elif sword.text in others:
            found.append((sword, "E206", f"'{sword.text}' is {others[sword.text]}, not a sword"))
        elif sword.text not in swords:
            found.append((sword, "E202", f"unknown sword '{sword.text}'{did_you_mean(sword.text, swords)}"))
    return found


def _number_problems(word: sn.Word, label: str) -> Found:
    """Return why a field is not a whole number from 0 to MAX_VALUE, if it is not (read without int())."""
    text = word.text
    if not (text.isascii() and text.isdigit()):  # ASCII only: isdigit alone accepts '²' and others
        return [(word, "E204", f"expected a whole number 0 or more for {label}, found '{text[:20]}'")]
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(MAX_VALUE)) or int(digits) > MAX_VALUE:
        shown = digits if len(digits) <= 20 else f"a number of {len(digits)} digits"
        return [(word, "E204", f"{label} must be at most {MAX_VALUE}, found {shown}")]
    return []


def _spec(line: sn.SwordsmanLine, swords: Mapping[str, str]) -> SwordsmanSpec:
    """Return the swordsman of a line without problems (its swords under their canonical names)."""
    hp, atk, def_, spd = (int(w.text.lstrip("0") or "0") for w in line.stats)  # past int()'s digit limit
    names = tuple(swords[w.text] for w in line.swords)
    return SwordsmanSpec(line.name.value, hp, atk, def_, spd, names, line.loc.line)


def _budget_problems(spec: SwordsmanSpec, line: sn.SwordsmanLine, budget: Budget) -> Found:
    """Return how a swordsman breaks the budget: values off the per-point step, else a wrong total."""
    values = {"max_hp": spec.max_hp, "atk": spec.atk, "def": spec.def_, "spd": spec.spd, "sword": len(spec.swords)}
    labels = dict(STATS) | {"sword": "sword count"}
    # a sword count is shown where the swords start: after the fourth slash, at the first sword
    places: list[n.Node] = [*line.stats, line.swords[0] if line.swords else line.stats[3]]
    found: Found = [(at, "E205", f"{labels[key]} {values[key]} is not a multiple of {budget.per_point[key]}")
                    for key, at in zip(values, places, strict=True) if values[key] % budget.per_point[key]]
    spent = sum(values[key] // budget.per_point[key] for key in values)
    # the total of a swordsman already off the per-point step would be a fraction, and only noise
    if not found and spent != budget.points:
        points = "point" if spent == 1 else "points"
        found.append((line, "E205", f"'{spec.name}' spends {spent} {points}; the budget is exactly {budget.points}"))
    return found


def parse_party(text: str, path: str, swords: Mapping[str, str], others: Mapping[str, str] = {},
                budget: Budget | None = None) -> list[SwordsmanSpec]:
    """Return the swordsmen of a party file's text, front first, or raise CompileError with every problem."""
    party, syntax = parse_party_file(text.removeprefix("\ufeff"), path)
    specs, problems = check_party(party, swords, others, budget)
    if not party.swordsmen and not syntax and not problems:
        problems.append(Diagnostic("E204", "the party file lists no swordsman", path, 1, 1))
    if syntax or problems:  # CompileError puts them in source order
        raise CompileError(syntax + problems)
    return specs


def load_party(path: Path, swords: Mapping[str, str], others: Mapping[str, str] = {},
               budget: Budget | None = None) -> list[SwordsmanSpec]:
    """Return the swordsmen of a party file on disk (see parse_party); the file must be UTF-8."""
    return parse_party(read_source(path, str(path)), str(path), swords, others, budget)
