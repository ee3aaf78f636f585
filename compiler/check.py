"""Stage 2: validation. Collects every error of a ruleset's files, located, in source order.

Public entry point: `validate(files, symbols) -> list[Diagnostic]`. Messages say what was found,
what was expected, and where; unknown names get "did you mean". The Checker is assembled here from
one class of methods per part of the language: compiler/check_cards.py (files, cards, keywords,
statuses, abilities and sentences), compiler/check_effects.py, compiler/check_terms.py (expressions,
conditions, objects, filters), compiler/check_rulesets.py and compiler/check_battle.py (automatic
battles), with what several of them use in compiler/check_common.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from compiler import nodes as n
from compiler.check_battle import BattleChecks
from compiler.check_cards import CardChecks
from compiler.check_effects import EffectChecks
from compiler.check_rulesets import RulesetChecks
from compiler.check_terms import TermChecks
from compiler.diagnostics import Diagnostic, did_you_mean, quoted_list
from compiler.symbols import RecordedFile, Symbols

RULESET_NAMES = ("card kind", "stat", "resource", "phase", "zone")


@dataclass
class Checker(BattleChecks, CardChecks, EffectChecks, TermChecks, RulesetChecks):
    """Every check, in the module of its part of the language; error() and known() serve them all."""

    sym: Symbols
    path: str = ""
    errors: list[Diagnostic] = field(default_factory=list)

    def error(self, code: str, message: str, node: n.Node) -> None:
        self.errors.append(Diagnostic(code, message, self.path, node.loc.line, node.loc.col))

    def known(self, name: n.Name, what: str, table) -> bool:
        """Report an unknown name with the closest known one; return whether it is known."""
        if name.value in table:
            return True
        if self.sym.ruleset is None and what in RULESET_NAMES:
            return False  # the missing ruleset is reported once; its names are not guessed at
        hint = did_you_mean(name.value, table)
        if not hint:
            hint = f"; known: {quoted_list(table)}" if table else f"; no {what} is defined"
        self.error("E101", f"unknown {what} '{name.value}'{hint}", name)
        return False


def validate(files: list[n.File] | list[n.File | RecordedFile], sym: Symbols) -> list[Diagnostic]:
    """Return every problem of a ruleset's files, in source order. A recorded file (its module says what it
    defines) counts for the definitions of the folder but is not checked again: it passed with these symbols."""
    checker = Checker(sym)
    _duplicates(files, checker)
    if sym.ruleset is None and files:
        checker.errors.append(Diagnostic("E103", "this folder has no ruleset; one file must say "
                                                 "'ruleset <name> { ... }'", files[0].path, 1, 1))
    for f in files:
        if isinstance(f, n.File):
            checker.file(f)
    return sorted(checker.errors, key=Diagnostic.sort_key)


def _duplicates(files: list[n.File] | list[n.File | RecordedFile], checker: Checker) -> None:
    seen: dict[tuple[str, str], str] = {}
    rulesets: list[str] = []
    for f in files:
        for what, name, loc in _definitions(f):
            if (what, name) in seen:
                message = f"{what} '{name}' is defined twice; first at {seen[(what, name)]}"
            elif what == "ruleset" and rulesets:
                message = f"a folder holds one ruleset; '{name}' comes after {rulesets[0]}"
            else:
                seen[(what, name)] = f"{f.path}:{loc.line}:{loc.col}"
                if what == "ruleset":
                    rulesets.append(f"'{name}' at {seen[(what, name)]}")
                continue
            checker.errors.append(Diagnostic("E102", message, f.path, loc.line, loc.col))


def _definitions(f: n.File | RecordedFile) -> list[tuple[str, str, n.Loc]]:
    """Return (what, name, where) for each definition of a file."""
    if isinstance(f, RecordedFile):
        return [("card", entry.name, loc) for entry, loc, _ in f.cards]
    return [(*_item_name(item), item.loc) for item in f.items]


def _item_name(item: n.Item) -> tuple[str, str]:
    if isinstance(item, n.Card):
        return "card", item.name
    what = {n.KeywordDef: "keyword", n.StatusDef: "status", n.EnchantmentDef: "enchantment",
            n.Ruleset: "ruleset"}[type(item)]
    return what, item.name.value
