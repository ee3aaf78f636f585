"""The pipeline for a project: card folders -> generated/ (parse, validate, lower, emit, write).

Public entry points: `compile_project(root)` (everything in memory), `build(root)` (write what
changed, atomically) and `stale(root)` (what differs from what is on disk).
"""

from __future__ import annotations

import difflib
import hashlib
import keyword
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from compiler import nodes as n
from compiler.check import validate
from compiler.diagnostics import CompileError, Diagnostic
from compiler.emit import render
from compiler.files import (
    STAGING_PREFIX,
    Change,
    clean_staging,
    inside,
    inside_generated,
    link_problems,
    switch_tree,
)
from compiler.freshness import (
    KEY_LINE,
    PACKAGE_INIT,
    REGISTRY,
    body_hash,
    compiler_fingerprint,
    outdated,
    rulesets,
    source_hash,
)
from compiler.lower import lower_file
from compiler.parser import parse, prepare
from compiler.symbols import collect
from runtime.folder_recovery import SAFE_NAME, recover

# below this much card text a build stays in one process: starting workers (each builds its own parser)
# costs more than it saves
PARALLEL_BYTES = 1_000_000
T = TypeVar("T")


@dataclass
class Output:
    """One generated file: its path under the project root, its key, and its text once rendered."""

    path: str
    key: str
    text: str | None = None


@dataclass
class Report:
    outputs: list[Output] = field(default_factory=list)
    actions: list[tuple[str, str]] = field(default_factory=list)  # (what was done, path)


def _name_problem(path: Path, rel: str) -> Diagnostic | None:
    stem = path.stem if path.is_file() else path.name
    if SAFE_NAME.match(stem) and not keyword.iskeyword(stem):
        return None
    return Diagnostic("E302", f"'{stem}' cannot name a generated module; use lowercase letters, digits "
                              "and '_', starting with a letter", rel, 1, 1)


def read_source(path: Path, rel: str) -> str:
    """Return a card file's text, or raise CompileError if it is not UTF-8."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        message = f"byte 0x{data[err.start]:02X} is not valid UTF-8 (the file must be UTF-8 text)"
        raise CompileError([Diagnostic("E005", message, rel, line, col)]) from None


def compile_ruleset(root: Path, folder: Path, use_keys: bool) -> list[Output]:
    """Return the generated files of one card folder; raise CompileError listing every problem."""
    files, symbols, problems = read_folder(root, folder)
    if problems:
        raise CompileError(problems)
    return _outputs(root, folder, files, symbols, use_keys)


def read_folder(root: Path, folder: Path, texts: dict[Path, str] | None = None):
    """Return the parsed card files of a folder with their texts, its symbols and every problem, in source
    order. `texts` gives the text of some files instead of what is on disk (an editor's unsaved text)."""
    texts = texts or {}
    problems: list[Diagnostic] = []
    files: list[tuple[n.File, str]] = []
    bad = _name_problem(folder, folder.relative_to(root).as_posix())
    if bad:
        problems.append(bad)
    for path in sorted(set(folder.glob("*.card")) | {p for p in texts if p.parent == folder}):
        rel = path.relative_to(root).as_posix()
        try:
            if path not in texts and not inside(root / "cards", path):
                raise CompileError([Diagnostic("E301", "this card file links outside cards/; refusing to read it",
                                               rel, 1, 1)])
            unsaved = path in texts and not path.is_file()  # named by its stem, as a file on disk is
            bad = _name_problem(path.with_suffix("") if unsaved else path, rel)
            if bad:
                raise CompileError([bad])
            text = texts[path] if path in texts else read_source(path, rel)
            files.append((parse(text, rel), text))
        except CompileError as err:
            problems += err.diagnostics
    symbols = collect([f for f, _ in files])
    problems += validate([f for f, _ in files], symbols)
    return files, symbols, sorted(problems, key=Diagnostic.sort_key)


def _outputs(root: Path, folder: Path, files, symbols, use_keys: bool) -> list[Output]:
    out_dir = f"generated/{folder.name}"
    outputs = []
    for f, text in files:
        path = f"{out_dir}/{Path(f.path).stem}.py"
        key = hashlib.sha256("\0".join([compiler_fingerprint(), symbols.digest_text(), f.path, text])
                             .encode()).hexdigest()[:32]
        out = Output(path, key)
        if not (use_keys and _unchanged_on_disk(root / path, key)):
            # the stamp is what compiler/freshness.py compares without parsing
            stamp = f"{source_hash(text.encode('utf-8'))} compiler {compiler_fingerprint()[:16]}"
            context = lower_file(f, symbols, f.path) | {"key": "PENDING-0", "stamp": stamp}
            out.text = _with_key(render("module.py.j2", context), key)
        outputs.append(out)
    outputs.append(Output(f"{out_dir}/__init__.py", "", _registry(folder.name, files)))
    return outputs


def _registry(ruleset: str, files) -> str:
    """Return the package module that lists every definition of a ruleset, sorted by name."""
    from compiler.lower import registry_context

    text = render("registry.py.j2", registry_context(ruleset, [f for f, _ in files]))
    return _with_key(text, compiler_fingerprint()[:32])  # the key line is there for its body hash


def _with_key(text: str, key: str) -> str:
    """Return generated text with its key line: the inputs' hash, then a hash of what follows the line."""
    head, _, body = text.partition("# cardc-key: PENDING-0\n")
    return f"{head}# cardc-key: {key}-{body_hash(body)}\n{body}"


def _unchanged_on_disk(path: Path, key: str) -> bool:
    """Return whether a generated file was built from the same inputs and not edited since."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    match = KEY_LINE.search(text)
    return match is not None and match.group(1) == key and match.group(2) == body_hash(text[match.end():])


def compile_project(root: Path, use_keys: bool = False) -> list[Output]:
    """Return every generated file of a project; raise CompileError listing every problem."""
    outputs = [Output("generated/__init__.py", "", PACKAGE_INIT)]
    problems: list[Diagnostic] = []
    folders = rulesets(root)
    for found, diagnostics in _compiled(root, folders, use_keys):
        outputs += found
        problems += diagnostics
    if problems:
        raise CompileError(problems)
    return outputs


def _compiled(root: Path, folders: list[Path], use_keys: bool) -> list[tuple[list[Output], list[Diagnostic]]]:
    """Return each folder's outputs and problems, in folder order: across processes for a large project."""
    return per_folder(_compile_one, root, folders, use_keys)


def per_folder(fn: Callable[[Path, Path, bool], T], root: Path, folders: list[Path], flag: bool) -> list[T]:
    """Return fn(root, folder, flag) for each folder, in folder order: across processes for a large project."""
    jobs = min(_jobs(), len(folders))
    if jobs < 2 or sum(p.stat().st_size for f in folders for p in f.glob("*.card")) < PARALLEL_BYTES:
        return [fn(root, folder, flag) for folder in folders]
    prepare()  # once, here: forked workers inherit the parser
    with ProcessPoolExecutor(max_workers=jobs, mp_context=_forking()) as pool:  # results in folder order
        return list(pool.map(fn, [root] * len(folders), folders, [flag] * len(folders)))


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
    if not outdated(root):  # the stamps say every file is what a build would write: nothing is parsed
        clean_staging(root / "generated")
        return _unchanged(root)
    report = Report(compile_project(root, use_keys=True))
    clean_staging(root / "generated")
    switch_tree(root / "generated", _change(root, report))
    return report


def _unchanged(root: Path) -> Report:
    """Return the report of a build that found every generated file up to date."""
    paths = [f"generated/{REGISTRY}"]
    for folder in rulesets(root):
        stems = [p.stem for p in sorted(folder.glob("*.card"))]  # the order a full build reports in
        paths += [f"generated/{folder.name}/{stem}.py" for stem in stems] + [f"generated/{folder.name}/{REGISTRY}"]
    return Report([Output(p, "") for p in paths], [("unchanged", p) for p in paths])


def _change(root: Path, report: Report) -> Change:
    """Return what the build changes in generated/, recording each action in the report."""
    change, orphans = Change(), set(_orphans(root, report.outputs))
    folders: dict[str, list[Output]] = {}
    for out in report.outputs:
        inside_generated(root, out.path)  # names are checked (E302); this is the last guard before a write
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
        change.folders[Path(folder).name] = {
            Path(o.path).name: o.text if o.text is not None else (root / o.path).read_text(encoding="utf-8")
            for o in outs}


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
