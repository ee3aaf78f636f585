"""`cardc watch [PATH]`: rebuild on save, then rerun the scenarios and quick checks that touch what changed.

Each batch of saved files (debounced by watchfiles) is one round: the build (its written files, or its card
errors located as `cardc build` prints them), then the scenario and battle files the change touches (run by
tools/scenario_runs.py), then a quick check of each changed card file (a few seeded fuzz games), then one
summary line. Which scenarios a change touches is `affected` (tools/watch_select.py). A change to cardc's own
code, when the project is cardc itself, restarts the watcher on the new code. `watch_command` is what
`cardc watch` calls.
"""

from __future__ import annotations

import dataclasses
import importlib
import io
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from compiler.diagnostics import CompileError
from tools.watch_select import CODE, WATCHED, Index, affected, index

if TYPE_CHECKING:
    from compiler.build import Report

CODE_KINDS = (".py", ".lark", ".j2")  # the files of cardc's own code that a restart picks up
QUICK_GAMES = 3  # games (or battles) a quick check plays: a round stays a matter of seconds
QUICK_SEED = 0


@dataclass(frozen=True)
class Printers:
    """How `cardc` prints: card errors located (as `cardc build`), a build's report, and an internal error
    (one line, the traceback saved; returns the exit code)."""

    errors: Callable[[CompileError, Path], None]
    report: Callable[[Report, bool], int]
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
        self.good = before = self.good or index(self.root)  # a failed first build keeps the tree as it was read
        self.pending |= set(saved)
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


def _changed_files(changes: Iterable[tuple[object, str]], paths: list[Path], suffixes: tuple[str, ...]) -> list[Path]:
    """Return the files of a batch of watchfiles changes that end in one of the suffixes and are (or are
    inside) one of the paths, sorted."""
    found = {Path(p) for _, p in changes if Path(p).suffix in suffixes}
    return sorted(f for f in found if any(f == p or f.is_relative_to(p) for p in paths))


def own_code(root: Path) -> list[Path]:
    """Return cardc's own folders when the project is cardc itself (the compiler running is its compiler/),
    else nothing."""
    import compiler

    running = Path(compiler.__file__).resolve().parent
    return [root / part for part in CODE if (root / part).is_dir()] if running == root / "compiler" else []


def watch_command(root: Path, path: Path | None, once: bool, printers: Printers, restarted: list[Path]) -> int:
    """`cardc watch`: with once, one round over every watched file, its exit code; else rounds until Ctrl-C
    (KeyboardInterrupt reaches the caller, which exits 130). `restarted`: cardc's own files whose change
    restarted the watcher (its first round runs what they touch)."""
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
    watcher.guarded([p.resolve() for p in restarted])  # else the cards as they are: what the build rewrites
    _loop(watcher, paths, own_code(root) if path is None else [])
    return 0


def _loop(watcher: Watcher, paths: list[Path], code: list[Path]) -> None:
    """Run a round for each batch of saves under the paths, until KeyboardInterrupt; restart the process
    when a file of cardc's own code changed."""
    import watchfiles

    # A file's folder is watched, not the file: an editor that saves by renaming a new file over it would
    # leave a watch on the old file behind.
    folders = sorted({p.parent if p.is_file() else p for p in paths} | set(code))
    shown = ", ".join(str(p.relative_to(watcher.root) if p.is_relative_to(watcher.root) else p) for p in paths)
    ready = False
    for changes in watchfiles.watch(*folders, rust_timeout=500, yield_on_timeout=True):
        if not ready:  # the first timeout: the watch is in place, so a save from now on is seen
            print(f"watching {shown}{' and cardc itself' if code else ''} (Ctrl-C to stop)")
            ready = True
        changed_code = _changed_files(changes, code, CODE_KINDS)
        if changed_code:
            _restart(changed_code)
        saved = _changed_files(changes, paths, WATCHED)
        if saved:
            watcher.guarded(saved)


def _restart(changed: list[Path]) -> None:
    """Replace this process by a new watcher (the same command line) that runs the new code first."""
    print(f"watch: cardc itself changed ({_names(changed)}); restarting with the new code")
    sys.stdout.flush()
    argv, kept = sys.orig_argv[1:], []
    while argv:  # the files of an earlier restart are not passed on
        head, argv = argv[0], argv[1:]
        if head == "--restarted":
            argv = argv[1:]
        else:
            kept.append(head)
    os.execv(sys.executable, [sys.executable, *kept, *(x for p in changed for x in ("--restarted", str(p)))])
