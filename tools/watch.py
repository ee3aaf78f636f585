"""`cardc watch [PATH]`: rebuild on save, then rerun the scenarios and quick checks that touch what changed.

Each batch of saved files (debounced by watchfiles) is one round: the build (its written files, or its card
errors located as `cardc build` prints them), then the scenario and battle files the change touches (run by
tools/scenario_runs.py), then a quick check of each changed card file (a few seeded fuzz games), then one
summary line. Which scenarios a change touches is `affected`, a pure function of two `Index`es (before and
after the change): what each card file defines and mentions, and what each scenario file names.
`watch_command` is what `cardc watch` calls.
"""

from __future__ import annotations

import dataclasses
import importlib
import io
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from compiler.diagnostics import CompileError

if TYPE_CHECKING:
    from compiler.build import Report

SCENARIO_KINDS = (".scenario", ".battle")
WATCHED = (".card", *SCENARIO_KINDS)
QUICK_GAMES = 3  # games (or battles) a quick check plays: a round stays a matter of seconds
QUICK_SEED = 0
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
    if any(path.is_relative_to(after.root / part) for part in ("compiler", "grammar")):
        return set(after.scenarios)  # how every card compiles
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


# ---------------------------------------------------------------- the rounds

@dataclass(frozen=True)
class Printers:
    """How `cardc` prints: card errors located (as `cardc build`), a build's report, and an internal error
    (one line, the traceback saved; returns the exit code)."""

    errors: Callable[[CompileError, Path], None]
    report: Callable[["Report", bool], int]
    crash: Callable[[Exception, list[str]], int]


@dataclass
class Watcher:
    """A watch session: the project, how to print, the index as of the last good build and the files saved
    since (a round whose build fails keeps them for the next)."""

    root: Path
    printers: Printers
    good: Index | None = None
    pending: set[Path] = dataclasses.field(default_factory=set)

    def round(self, saved: list[Path]) -> int:
        """Build, run the scenarios and quick checks that the files saved since the last good build (and the
        card files whose compiled module the build rewrote) touch, print one summary line; return 0 when all
        of it passed, 1 otherwise."""
        started = time.monotonic()
        before, self.pending = self.good or index(self.root), self.pending | set(saved)
        report = self._build()
        if report is None:
            print(f"watch: {_names(saved)}: the build found card errors; nothing was run ({_since(started)})")
            return 1
        saved_since, rebuilt = self.pending, _card_files(self.root, report.actions)
        touched, self.pending = sorted(saved_since | rebuilt), set()
        self.good = after = index(self.root, before, touched)
        _forget_generated()
        picked = affected(touched, before, after)
        ran = self._scenarios(picked)
        bad = self._quick_checks([p for p in sorted(saved_since) if p in after.cards])  # saved, not only rebuilt
        written = sum(1 for action, _ in report.actions if action != "unchanged")
        print(f"watch: {_names(saved)}: built ({written} file(s) written or removed); {len(picked)} scenario "
              f"file(s) {'passed' if ran == 0 else 'FAILED'}; {bad} quick check(s) failed ({_since(started)})")
        return 1 if ran or bad else 0

    def guarded(self, saved: list[Path]) -> int:
        """Return the code of a round; a bug met in it is reported in one line (as `cardc` reports one) and
        the watcher goes on."""
        try:
            return self.round(saved)
        except Exception as err:  # a card that compiles and still breaks the engine must not end the session
            self.pending = set()
            return self.printers.crash(err, ["cardc", "watch", *map(str, saved)])

    def _build(self) -> Report | None:
        """Return the build's report (after printing it as `cardc build` does), or None after printing its
        located errors."""
        from compiler.build import build

        try:
            report = build(self.root)
        except CompileError as err:
            self.printers.errors(err, self.root)
            return None
        self.printers.report(report, False)
        return report

    def _quick_checks(self, files: list[Path]) -> int:
        """Print the line of each card file's quick check; return how many failed."""
        checks = [_quick_check(self.root, p) for p in files]
        for _, line in checks:
            print(line)
        return sum(1 for ok, _ in checks if not ok)

    def _scenarios(self, picked: list[Path]) -> int:
        """Return the exit code of running the picked files (0 when there are none)."""
        from compiler.build import read_source
        from tools.scenario_runs import run_paths

        if not picked:
            return 0
        try:
            for path in picked:  # bytes that are not UTF-8: located, as `cardc scenario` reports them
                read_source(path, str(path))
        except CompileError as err:
            self.printers.errors(err, self.root)
            return 1
        return run_paths(self.root, picked)


def _since(started: float) -> str:
    return f"{time.monotonic() - started:.1f} s"


def _card_files(root: Path, actions: list[tuple[str, str]]) -> set[Path]:
    """Return the card files whose compiled module a build wrote or removed (generated/R/F.py is
    cards/R/F.card)."""
    paths = [Path(path) for action, path in actions if action != "unchanged"]
    return {root / "cards" / p.parent.name / f"{p.stem}.card" for p in paths
            if len(p.parts) == 3 and p.parts[0] == "generated" and p.suffix == ".py" and p.stem != "__init__"}


def _names(paths: list[Path]) -> str:
    """Return the changed files' names, a few of them."""
    shown = ", ".join(p.name for p in paths[:3])
    return shown + (f" and {len(paths) - 3} more" if len(paths) > 3 else "") if paths else "start"


def _forget_generated() -> None:
    """Drop the compiled modules imported by an earlier round, so this round plays what was just built."""
    from compiler.scenario_cards import _parsed

    for name in [m for m in sys.modules if m == "generated" or m.startswith("generated.")]:
        del sys.modules[name]
    importlib.invalidate_caches()
    _parsed.cache_clear()  # the card files a scenario's 'cards:' is checked with


def _quick_check(root: Path, path: Path) -> tuple[bool, str]:
    """Return whether a few seeded fuzz games around a card file's cards passed, and a line saying so."""
    from tools.fuzz_targets import UsageError, resolve_target
    from tools.fuzzing import campaign

    rel = path.relative_to(root) if path.is_relative_to(root) else path
    if _automatic(path.parent.name):
        return _quick_battles(root, path, rel)
    try:
        target = resolve_target(root, path)
    except UsageError as err:  # a file no deck can hold (tokens only, keywords): nothing to play
        return True, f"quick check {rel}: skipped: {err}"
    try:
        out = campaign(target, QUICK_GAMES, QUICK_SEED, None, shrink_seconds=0.0)
    finally:
        target.pool.close()
    if out.original is None:
        return True, f"quick check {rel}: no violation in {out.games} games"
    violation = (out.original.violation or "").splitlines()[0]
    return False, (f"quick check {rel}: VIOLATION in game {out.games}: {violation}; run `cardc fuzz {rel} "
                   f"--games {QUICK_GAMES} --seed {QUICK_SEED}` to shrink it and write its replay")


def _quick_battles(root: Path, path: Path, rel: Path) -> tuple[bool, str]:
    """Return whether a few seeded battles around a card file of an automatic ruleset passed, and a line."""
    from tools.battle.targets import fuzz_card_file

    said = io.StringIO()
    with tempfile.TemporaryDirectory(prefix="cardc-watch-") as tmp:  # a violation's parties go there, not root
        code = fuzz_card_file(root, path, path.parent.name, True, QUICK_GAMES, QUICK_SEED, {},
                              Path(tmp) / "violation.sw", said, said)
    last = [line for line in said.getvalue().splitlines() if line.strip()][-1:] or [""]
    if code == 1:
        return False, (f"quick check {rel}: VIOLATION: {last[0]}; run `cardc fuzz {rel} --games {QUICK_GAMES} "
                       f"--seed {QUICK_SEED}` to see it")
    return True, f"quick check {rel}: {last[0].removeprefix('cardc fuzz: ')}"


def _automatic(ruleset: str) -> bool:
    """Return whether a compiled ruleset plays automatic battles (no decks to fuzz, parties instead)."""
    return bool(importlib.import_module(f"generated.{ruleset}").RULESET.automatic)


# ---------------------------------------------------------------- the command


def _changed_files(changes: Iterable[tuple[object, str]], paths: list[Path]) -> list[Path]:
    """Return the card, scenario and battle files of a batch of watchfiles changes that are (or are inside)
    one of the watched paths, sorted."""
    found = {Path(p) for _, p in changes if Path(p).suffix in WATCHED}
    return sorted(f for f in found if any(f == p or f.is_relative_to(p) for p in paths))


def watch_command(root: Path, path: Path | None, once: bool, printers: Printers) -> int:
    """`cardc watch`: with once, one round over every watched file, its exit code; else rounds until Ctrl-C
    (KeyboardInterrupt reaches the caller, which exits 130)."""
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(line_buffering=True)  # each line as it is printed, also into a pipe
    if path is not None and not path.exists():
        print(f"cardc watch: {path} does not exist", file=sys.stderr)
        return 2
    paths = [path.resolve()] if path is not None else \
        [p for p in (root / "cards", root / "tests" / "scenarios", root / "tests" / "battles") if p.exists()]
    watcher = Watcher(root, printers)
    if once:
        return watcher.round([f for p in paths for f in ([p] if p.is_file() else sorted(p.rglob("*")))
                              if f.suffix in WATCHED])
    watcher.guarded([])  # the cards as they are: what the build rewrites is run
    _loop(watcher, paths)
    return 0


def _loop(watcher: Watcher, paths: list[Path]) -> None:
    """Run a round for each batch of saves under the paths, until KeyboardInterrupt."""
    import watchfiles

    # A file's folder is watched, not the file: an editor that saves by renaming a new file over it would
    # leave a watch on the old file behind.
    folders = sorted({p.parent if p.is_file() else p for p in paths})
    shown = ", ".join(str(p.relative_to(watcher.root) if p.is_relative_to(watcher.root) else p) for p in paths)
    ready = False
    for changes in watchfiles.watch(*folders, rust_timeout=500, yield_on_timeout=True):
        if not ready:  # the first timeout: the watch is in place, so a save from now on is seen
            print(f"watching {shown} (Ctrl-C to stop)")
            ready = True
        saved = _changed_files(changes, paths)
        if saved:
            watcher.guarded(saved)
