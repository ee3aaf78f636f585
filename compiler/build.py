"""The pipeline for a project: card folders -> generated/ (parse, validate, lower, emit, write).

Public entry points: `compile_project(root)` (everything in memory), `build(root)` (write what
changed, atomically) and `stale(root)` (what differs from what is on disk). One folder is compiled by
compiler/folder_build.py.
"""

from __future__ import annotations

import difflib
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from compiler.diagnostics import CompileError, Diagnostic
from compiler.files import (
    STAGING_PREFIX,
    Change,
    clean_staging,
    inside_generated,
    link_problems,
    switch_tree,
)
from compiler.folder_build import Output, compile_ruleset, read_folder, read_source
from compiler.freshness import KEY_LINE, PACKAGE_INIT, REGISTRY, outdated, project_state, rulesets
from compiler.parser import prepare
from runtime.folder_recovery import SAFE_NAME, recover

__all__ = ["KEY_LINE", "SAFE_NAME", "CompileError", "Output", "Report", "build", "compile_project", "compile_ruleset",
           "in_processes", "read_folder", "read_source", "rulesets", "stale"]

# below this much card text a build stays in one process: starting workers (each builds its own parser)
# costs more than it saves
PARALLEL_BYTES = 1_000_000
T = TypeVar("T")


@dataclass
class Report:
    outputs: list[Output] = field(default_factory=list)
    actions: list[tuple[str, str]] = field(default_factory=list)  # (what was done, path)


def compile_project(root: Path, use_keys: bool = False) -> list[Output]:
    """Return every generated file of a project; raise CompileError listing every problem. With use_keys, a
    folder the freshness stamps find up to date is listed, not compiled (its outputs carry no text)."""
    folders = rulesets(root)
    return _compile_folders(root, folders, project_state(root)[1] if use_keys else
                            {f: sorted(f.glob("*.card")) for f in folders}, use_keys)


def _compile_folders(root: Path, folders: list[Path], stale: dict[Path, list[Path]], use_keys: bool) -> list[Output]:
    """Return every generated file: the `stale` folders compiled (their stale card files decide whether across
    processes), the others listed as they are."""
    outputs = [Output("generated/__init__.py", "", PACKAGE_INIT)]
    problems: list[Diagnostic] = []
    work = sum(p.stat().st_size for sources in stale.values() for p in sources if p.is_file())
    todo = list(stale)
    compiled = dict(zip(todo, in_processes(_compile_one, [root] * len(todo), todo, [use_keys] * len(todo), work=work,
                                           chunk=1), strict=True))
    for folder in folders:
        found, diagnostics = compiled.get(folder) or (_unchanged_folder(folder), [])
        outputs += found
        problems += diagnostics
    if problems:
        raise CompileError(problems)
    return outputs


def in_processes(fn: Callable[..., T], *arguments: list, work: int | None = None, chunk: int = 0) -> list[T]:
    """Return fn(*args) for each tuple of arguments, in order: across processes when there is much card text
    to parse (`work` bytes; by default the files the second list names), `chunk` calls at a time."""
    count = len(arguments[0])
    jobs = min(_jobs(), count)
    if work is None:
        work = sum(p.stat().st_size for p in arguments[1])
    if jobs < 2 or work < PARALLEL_BYTES:
        return list(map(fn, *arguments))
    prepare()  # once, here: forked workers inherit the parser
    with ProcessPoolExecutor(max_workers=jobs, mp_context=_forking()) as pool:  # results in order
        return list(pool.map(fn, *arguments, chunksize=chunk or max(1, count // (jobs * 8))))


def _forking() -> multiprocessing.context.BaseContext | None:
    """Return the fork start method where the system has one (workers then inherit what the parent made)."""
    return multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None


def _jobs() -> int:
    """Return how many processes a build may use: CARDC_JOBS, else one per core."""
    setting = os.environ.get("CARDC_JOBS", "")
    return int(setting) if setting.isdigit() and int(setting) > 0 else os.cpu_count() or 1


def _compile_one(root: Path, folder: Path, use_keys: bool) -> tuple[list[Output], list[Diagnostic]]:
    """Return one folder's outputs and problems (a worker returns them: a CompileError does not pickle)."""
    try:
        return compile_ruleset(root, folder, use_keys), []
    except CompileError as err:
        return [], err.diagnostics


def _orphans(root: Path, outputs: list[Output]) -> list[str]:
    """Return generated .py files that no card file produces any more."""
    wanted = {o.path for o in outputs}
    gen = root / "generated"
    found = sorted(p.relative_to(root).as_posix() for p in gen.rglob("*.py")
                   if gen.is_dir() and not any(part.startswith(STAGING_PREFIX) for part in p.parts))
    return [p for p in found if p not in wanted]


def build(root: Path) -> Report:
    """Write every generated file whose source or compiler changed; remove orphans; report each action.

    A ruleset folder with any change is replaced whole; every change of one build is made at once, so a
    killed build leaves generated/ entirely old or entirely new (compiler/files.py). Nothing is written
    through a link: a generated/ holding one is refused (E301) before anything is written.
    """
    links = link_problems(root)
    if links:  # before the keys are read: nothing is read or written through a link
        raise CompileError(links)
    recover(root / "generated")  # before the keys are read: a killed build's switch may change the files
    reasons, stale = project_state(root)
    if not reasons:  # the stamps say every file is what a build would write: nothing is parsed
        clean_staging(root / "generated")
        return _unchanged(root)
    report = Report(_compile_folders(root, rulesets(root), stale, use_keys=True))
    clean_staging(root / "generated")
    switch_tree(root / "generated", _change(root, report))
    return report


def _unchanged(root: Path) -> Report:
    """Return the report of a build that found every generated file up to date."""
    outputs = [Output(f"generated/{REGISTRY}", "")] + [o for f in rulesets(root) for o in _unchanged_folder(f)]
    return Report(outputs, [("unchanged", o.path) for o in outputs])


def _unchanged_folder(folder: Path) -> list[Output]:
    """Return the outputs of a folder whose generated files are up to date, in the order a build lists them."""
    stems = [p.stem for p in sorted(folder.glob("*.card"))]
    return [Output(f"generated/{folder.name}/{stem}.py", "") for stem in stems + ["__init__"]]


def _change(root: Path, report: Report) -> Change:
    """Return what the build changes in generated/, recording each action in the report."""
    change, orphans = Change(), set(_orphans(root, report.outputs))
    folders: dict[str, list[Output]] = {}
    for out in report.outputs:
        if out.text is not None or str(Path(out.path).parent) not in folders:
            # names are checked (E302); this is the last guard before a write (a kept file is linked into
            # a new folder beside its own: its folder is guarded)
            inside_generated(root, out.path)
        folders.setdefault(str(Path(out.path).parent), []).append(out)
    for folder, outs in sorted(folders.items()):
        gone = sorted(p for p in orphans if _beneath(p, folder))
        orphans -= set(gone)
        _folder_change(root, change, report, folder, outs, gone)
    report.actions += [("removed", p) for p in sorted(orphans)]
    change.remove = sorted({Path(p).parts[1] for p in orphans})  # a folder no card folder produces: whole
    return change


def _beneath(path: str, folder: str) -> bool:
    """Return whether an orphan belongs to an output folder: generated/ itself holds only its own files."""
    return str(Path(path).parent) == folder if folder == "generated" else path.startswith(folder + "/")


def _folder_change(root: Path, change: Change, report: Report, folder: str, outs: list[Output],
                   gone: list[str]) -> None:
    """Add one output folder's changes: a ruleset folder is replaced whole, generated/'s files one by one."""
    changed = [o for o in outs if o.text is not None and _differs(root, o)]
    report.actions += [("wrote" if o in changed else "unchanged", o.path) for o in outs]
    report.actions += [("removed", p) for p in gone]
    if folder == "generated":
        change.write.update({Path(o.path).name: o.text or "" for o in changed})
        change.delete += [Path(p).name for p in gone]
    elif changed or gone:
        change.folders[Path(folder).name] = {Path(o.path).name: o.text for o in outs}  # None: kept as it is


def _differs(root: Path, out: Output) -> bool:
    target = root / out.path
    return not target.exists() or target.read_text(encoding="utf-8") != out.text


def stale(root: Path) -> list[str]:
    """Return a unified diff for every generated file that differs from a fresh in-memory build."""
    recover(root / "generated")  # a reader too: a killed build's switch is finished or undone first
    if not link_problems(root) and not outdated(root):  # the stamps say a build would write every file as
        # it is (and a build writes only when every card file compiles): nothing to parse or compare
        return []
    outputs = compile_project(root, use_keys=False)
    diffs = []
    for out in outputs:
        target = root / out.path
        old = target.read_text(encoding="utf-8") if target.exists() else ""
        if old != out.text:
            diffs.append("".join(difflib.unified_diff(
                old.splitlines(True), (out.text or "").splitlines(True), f"a/{out.path}", f"b/{out.path}")))
    for orphan in _orphans(root, outputs):
        diffs.append(f"--- a/{orphan}\n+++ /dev/null\n(no card file produces this file any more)\n")
    return diffs
