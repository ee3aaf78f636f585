"""`cardc fuzz FILE.card` for automatic battles: which swords a campaign around one card file draws.

A sword file's swords are its own. A file of enchantments, states or built swordsmen has no swords, so
its campaign draws the swords that reach what it defines: a sword printing an enchantment, putting a
state, giving an enchantment that puts a state, building a swordsman (whose own swords count too).
Reaching is read from the ASTs of the ruleset's card files (names and quoted names each definition
mentions), followed transitively. A card file outside the project is compiled beside the ruleset's
cards in a temporary copy, as tools/fuzzing.py does for card games.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import tempfile
from pathlib import Path
from typing import TextIO

from runtime.battle.rules import Rules, load_rules

TEXT_FIELDS = ("text", "names", "loc")  # free text and other spellings name nothing


class TargetError(Exception):
    """The card file cannot be fuzzed (the message says why; exit code 2)."""


def mentions(node: object) -> set[str]:
    """Return every name and quoted name a definition's AST mentions (its text aside)."""
    from compiler import nodes as n

    if isinstance(node, n.Name):
        return {node.value}
    if isinstance(node, str):
        return {node}
    if isinstance(node, tuple):
        return set().union(*(mentions(x) for x in node)) if node else set()
    if isinstance(node, n.TextDecl | n.NamesDecl) or not dataclasses.is_dataclass(node):
        return set()
    return set().union(*(mentions(getattr(node, f.name)) for f in dataclasses.fields(node)
                         if f.name not in TEXT_FIELDS))


def _name(item: object) -> str:
    name = getattr(item, "name", "")
    return name if isinstance(name, str) else name.value


def definitions(files: list) -> dict[str, set[str]]:
    """Return each definition of the files (cards, states, enchantments, keywords) with what it mentions."""
    from compiler import nodes as n

    kinds = (n.Card, n.StatusDef, n.EnchantmentDef, n.KeywordDef)
    return {_name(i): mentions(i) - {_name(i)} for f in files for i in f.items if isinstance(i, kinds)}


def reach(graph: dict[str, set[str]], start: str) -> set[str]:
    """Return start and every definition it reaches through mentions."""
    seen, todo = {start}, [start]
    while todo:
        for name in graph.get(todo.pop(), set()) - seen:
            seen.add(name)
            todo.append(name)
    return seen


def focus_swords(rules: Rules, files: list, file: object) -> list[str]:
    """Return the swords of rules that are, or reach, a definition of `file` (one of files)."""
    graph = definitions(files)
    own = set(definitions([file]))
    swords = sorted(x for x, c in rules.cards.items() if c.kind in rules.sword_kinds)
    return [x for x in swords if reach(graph, x) & own]


def _parse_folder(folder: Path, extra: tuple[str, str] | None) -> list:
    from compiler.build import read_source
    from compiler.parser import parse

    files = [parse(read_source(p, p.name), p.name) for p in sorted(folder.glob("*.card"))]
    return files + ([parse(extra[1], extra[0])] if extra else [])


def _rules_with(root: Path, ruleset: str, extra: tuple[str, str]) -> Rules:
    """Return the Rules of the ruleset with one more card file, built in a temporary copy of the project."""
    from compiler.build import build
    from tools.fuzz_targets import _generated_from

    with tempfile.TemporaryDirectory(prefix="cardc-fuzz-") as tmp:
        copy = Path(tmp)
        shutil.copytree(root / "cards" / ruleset, copy / "cards" / ruleset)
        if (root / "generated" / ruleset).is_dir():
            shutil.copytree(root / "generated" / ruleset, copy / "generated" / ruleset,
                            ignore=shutil.ignore_patterns("__pycache__"))
        (copy / "cards" / ruleset / extra[0]).write_text(extra[1], encoding="utf-8")
        build(copy)
        with _generated_from(copy):
            return load_rules(ruleset)


def around_file(root: Path, path: Path, ruleset: str, inside: bool) -> tuple[Rules, list[str]]:
    """Return the rules to fuzz and the swords a campaign around the card file at path draws (empty for a
    file that defines nothing: the whole pool); raise TargetError when no sword uses the file."""
    from compiler.build import SAFE_NAME, read_source

    folder = root / "cards" / ruleset
    if inside:
        rules, files = load_rules(ruleset), _parse_folder(folder, None)
        file = next(f for f in files if f.path == path.name)
    else:
        stem = re.sub(r"[^a-z0-9_]", "_", path.stem.lower())
        extra = (f"fuzz_{stem if SAFE_NAME.match(stem) else 'cards_' + stem}.card", read_source(path, str(path)))
        rules, files = _rules_with(root, ruleset, extra), _parse_folder(folder, extra)
        file = files[-1]
    if not definitions([file]):
        return rules, []
    focus = focus_swords(rules, files, file)
    if not focus:
        defined = ", ".join(sorted(definitions([file])))
        raise TargetError(f"{path}: no sword of '{ruleset}' is, carries, gives or builds anything this file "
                          f"defines ({defined}); there is nothing to fuzz around it")
    return rules, focus


def fuzz_card_file(root: Path, path: Path, ruleset: str, inside: bool, games: int, seed: int,
                   options: dict[str, str], out: Path | None, stdout: TextIO, stderr: TextIO) -> int:
    """`cardc fuzz FILE.card` in a battle ruleset: battles between random legal parties carrying the file's
    swords (see around_file); exit codes as fuzz_battles, 2 for a file that cannot be fuzzed."""
    from compiler.diagnostics import CompileError
    from tools.battle.fuzz import fuzz_battles
    from tools.fuzzing import _compile_errors

    try:
        rules, focus = around_file(root, path, ruleset, inside)
    except TargetError as err:
        print(f"cardc fuzz: {err}", file=stderr)
        return 2
    except CompileError as err:
        _compile_errors(err, root, stderr)
        print("cardc fuzz: the cards do not compile; nothing was played", file=stderr)
        return 2
    note = "" if inside else (f"(the parties carry swords of {path}: add the file to cards/{ruleset}/ "
                              "and run `cardc build` before that line can play them)")
    return fuzz_battles(rules, games, seed, options, out, stdout, stderr, tuple(focus), str(path), note)
