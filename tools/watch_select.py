"""Which scenario and battle files a change touches, for `cardc watch` (tools/watch.py).

`affected` is a pure function of the changed paths and two `Index`es (the project before and after the
change); `index` reads one: what each card file defines and mentions, and what each scenario file says.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from compiler.diagnostics import CompileError

SCENARIO_KINDS = (".scenario", ".battle")
WATCHED = (".card", *SCENARIO_KINDS)
CODE = ("compiler", "grammar", "runtime", "tools")  # cardc's own code: a change touches every game
UNREAD = ("loc", "path")  # fields of a parsed file that name nothing a game plays


@dataclass(frozen=True)
class CardFile:
    """What a card file gives its ruleset: each definition (and other spelling of a card, pointing at the
    card) with the names it mentions, and the names its rules mention; `whole` when a change to it touches every game of the ruleset (the rules, or unreadable)."""

    ruleset: str
    defines: Mapping[str, frozenset[str]]
    rules: frozenset[str] = frozenset()
    whole: bool = False


@dataclass(frozen=True)
class ScenarioFile:
    """A scenario or battle file: the ruleset it plays and every name and line of text its parsed form holds
    (one string: a battle's swordsman line is one piece of text, 'Aria: 10/0/0/1/Sword A, Sword B')."""

    ruleset: str
    said: str


@dataclass(frozen=True)
class Index:
    """The project as the selection sees it: its root, its card files and its scenario and battle files."""

    root: Path
    cards: Mapping[Path, CardFile]
    scenarios: Mapping[Path, ScenarioFile]


# ---------------------------------------------------------------- the selection (pure)


def affected(changed: Iterable[Path], before: Index, after: Index) -> list[Path]:
    """Return the scenario and battle files (sorted) that the changed paths touch, given the project
    before and after the change."""
    chosen: set[Path] = set()
    for path in changed:
        chosen |= _touched(path, before, after)
    return sorted(chosen)


def _touched(path: Path, before: Index, after: Index) -> set[Path]:
    """Return the scenario files one changed path touches."""
    if path.suffix in SCENARIO_KINDS:
        return {path} if path in after.scenarios else set()
    if any(path.is_relative_to(after.root / part) for part in CODE):
        return set(after.scenarios)  # how every card compiles or plays
    files = [f for f in (before.cards.get(path), after.cards.get(path)) if f is not None]
    if not files:
        return set()
    ruleset = files[-1].ruleset
    mine = {s for s, f in after.scenarios.items() if f.ruleset == ruleset}
    if any(f.whole for f in files):
        return mine
    names = set().union(*(f.defines for f in files))  # a card renamed or removed counts under its old name
    graph = _graph(before, ruleset, _graph(after, ruleset, {}))
    rules = set().union(*(f.rules for f in after.cards.values() if f.ruleset == ruleset))
    return {s for s in mine if _reached(graph, _named(graph, after.scenarios[s].said) | rules) & names}


def _named(graph: dict[str, set[str]], said: str) -> set[str]:
    """Return the definitions a scenario names somewhere in what it says."""
    return {name for name in graph if name in said}


def _graph(index: Index, ruleset: str, graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Return graph with each definition of a ruleset's card files added, pointing at what it mentions."""
    for f in index.cards.values():
        if f.ruleset == ruleset:
            for name, mentioned in f.defines.items():
                graph.setdefault(name, set()).update(mentioned)
    return graph


def _reached(graph: dict[str, set[str]], start: set[str]) -> set[str]:
    """Return the start names and every definition they reach through mentions."""
    seen, todo = set(start), list(start)
    while todo:
        for name in graph.get(todo.pop(), set()) - seen:
            seen.add(name)
            todo.append(name)
    return seen


# ---------------------------------------------------------------- reading the project


def index(root: Path, previous: Index | None = None, changed: Iterable[Path] = ()) -> Index:
    """Return the Index of a project: every file read, or only the changed ones when given the previous."""
    if previous is None:
        cards = sorted((root / "cards").glob("*/*.card"))
        scenarios = [p for folder in ("scenarios", "battles") for kind in SCENARIO_KINDS
                     for p in sorted((root / "tests" / folder).rglob(f"*{kind}"))]
        previous, changed = Index(root, {}, {}), [*cards, *scenarios]
    card_files, scenario_files = dict(previous.cards), dict(previous.scenarios)
    rulesets = _rulesets(root)
    for path in changed:
        card_files.pop(path, None)
        scenario_files.pop(path, None)
        if path.is_file() and path.suffix == ".card" and path.parent.parent == root / "cards":
            card_files[path] = _card_file(path, path.parent.name)
        elif path.is_file() and path.suffix in SCENARIO_KINDS:
            scenario_files[path] = _scenario_file(path, rulesets)
    return Index(root, card_files, scenario_files)


def _rulesets(root: Path) -> set[str]:
    """Return the names of the project's ruleset folders."""
    return {p.name for p in (root / "cards").iterdir() if p.is_dir()} if (root / "cards").is_dir() else set()


def _card_file(path: Path, ruleset: str) -> CardFile:
    """Return what a card file defines; a file that does not read or parse touches its whole ruleset."""
    from compiler import nodes as n
    from compiler.build import read_source
    from compiler.parser import parse
    from tools.battle.targets import definitions, mentions

    try:
        parsed = parse(read_source(path, str(path)), str(path))
    except (CompileError, OSError):
        return CardFile(ruleset, {}, whole=True)
    kinds = (n.Card, n.StatusDef, n.EnchantmentDef, n.KeywordDef)
    others = [item for item in parsed.items if not isinstance(item, kinds)]
    rules = frozenset().union(*(mentions(item) for item in others))
    defines = {name: frozenset(found) for name, found in definitions([parsed]).items()}
    spellings = {alias: frozenset({card.name}) for card in parsed.items if isinstance(card, n.Card)
                 for part in card.parts if isinstance(part, n.NamesDecl) for alias in part.names}
    return CardFile(ruleset, {**spellings, **defines}, rules, whole=bool(others))


def _scenario_file(path: Path, rulesets: set[str]) -> ScenarioFile:
    """Return the ruleset a scenario or battle file plays (its 'ruleset' line, else its folder) and its names."""
    from compiler import sheet_nodes as sn
    from compiler.build import read_source
    from compiler.parser import parse_battle_scenario, parse_scenario

    folder = next((p.name for p in path.parents if p.name in rulesets), "")
    try:
        text = read_source(path, str(path)).removeprefix("\ufeff")
        ast = (parse_battle_scenario if path.suffix == ".battle" else parse_scenario)(text, str(path))[0]
    except (CompileError, OSError):
        return ScenarioFile(folder, "")
    named = [i.name.value for i in getattr(ast, "items", ()) if isinstance(i, sn.ScRuleset)]
    return ScenarioFile(named[0] if named else folder, "\n".join(sorted(_strings(ast))))


def _strings(node: object) -> set[str]:
    """Return every string a parsed file holds (names, words, lines of text), its locations aside."""
    if isinstance(node, str):
        return {node}
    if isinstance(node, tuple | list):
        return set().union(*(_strings(x) for x in node))
    if not dataclasses.is_dataclass(node):
        return set()
    return set().union(*(_strings(getattr(node, f.name)) for f in dataclasses.fields(node) if f.name not in UNREAD))
