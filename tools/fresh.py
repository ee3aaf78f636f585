"""Never run old code: the commands that run compiled cards rebuild a stale generated/ first (or refuse).

compiler/freshness.py answers "is generated/ up to date" from hashes alone, so a fresh project costs a
few milliseconds and imports no compiler; only a stale one pays for the build.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from compiler.diagnostics import CompileError
from compiler.freshness import outdated

SHOWN = 3  # names a one-line message lists before "and N more"


def ensure_built(root: Path, command: str, no_build: bool, print_errors: Callable[[CompileError, Path], None],
                 err: TextIO | None = None) -> int | None:
    """Return None when generated/ is (now) up to date, else the exit code the command stops with."""
    err = err or sys.stderr  # looked up per call: a default bound at import would outlive a redirected stderr
    reasons = outdated(root) if (root / "cards").is_dir() else []  # no card folders: nothing to build from
    if not reasons:
        return None
    if no_build:
        print(f"cardc {command}: generated/ is stale ({listed(reasons)}); run `cardc build`", file=err)
        return 1
    from compiler.build import build

    try:
        report = build(root)
    except CompileError as problem:
        print_errors(problem, root)
        print(f"cardc {command}: not run: the rebuild for {listed(reasons)} found card errors; generated/ is "
              "unchanged", file=err)
        return 1
    print(f"cardc {command}: rebuilt {listed(rebuilt(report.actions))} ({listed(reasons)})", file=err)
    return None


def rebuilt(actions: list[tuple[str, str]]) -> list[str]:
    """Return the generated modules a build wrote or removed (the registries only when nothing else changed)."""
    touched = [path for action, path in actions if action != "unchanged"]
    modules = [p for p in touched if not p.endswith("/__init__.py")]
    return modules or touched or ["nothing"]


def listed(items: list[str]) -> str:
    """Return a few items joined, with how many more there are."""
    head = ", ".join(items[:SHOWN])
    return head if len(items) <= SHOWN else f"{head} and {len(items) - SHOWN} more"
