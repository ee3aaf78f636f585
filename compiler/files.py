"""Writing generated/ safely: atomic files, ruleset folders replaced in one step, never through a link.

A build puts a ruleset's complete new folder next to the old one inside generated/ and exchanges
the two with one `renameat2(RENAME_EXCHANGE)` system call, so a build killed at any point leaves
each ruleset folder entirely old or entirely new, never mixed.

Where the system or filesystem has no exchange call (or CARDC_NO_RENAMEAT2=1 says to act so), the
switch takes four steps (FALLBACK_STEPS): move the old folder aside to `.cardc-old-<ruleset>`, move
the new one in, rename the old one to `.cardc-trash-<ruleset>`, remove that. Killed between the first
two, the ruleset folder is missing on disk but its old folder is whole beside it: the next build and
the loader put it back before they read anything (runtime/folder_recovery.py), so every reader sees the
folder entirely old or entirely new. A `.cardc-old-` folder is never partly removed.

A build that changes more than one thing (two ruleset folders, a folder and generated/__init__.py, a
removed ruleset) stages all of it first and commits it with a journal (`switch_tree`): killed before
the commit, every reader finds the whole old tree; after it, the whole new one (the recovery
finishes the switches). CARDC_BUILD_KILL_BEFORE=<step> or <step>:<name> (a step, or 'end') makes a
build kill itself there: the tests use it.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import signal
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from compiler.diagnostics import CompileError, Diagnostic
from runtime.folder_recovery import JOURNAL, MARK, NEW_FILE_PREFIX, OLD_PREFIX, finish, locked, recover

STAGING_PREFIX = ".cardc-"
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
FALLBACK_STEPS = ("move-old", "move-new", "discard-old", "remove-old")


def inside_generated(root: Path, rel: str) -> Path:
    """Return the absolute path of an output, refusing any path outside generated/."""
    target = _resolved(root / rel)
    gen = root.resolve() / "generated"  # the project's own folder: a generated/ that is a link leads elsewhere
    if target is None or gen not in target.parents:
        raise CompileError([Diagnostic("E301", f"refusing to write outside generated/: {rel}", rel, 1, 1)])
    return target


def inside(folder: Path, path: Path) -> bool:
    """Return whether a path (links followed) lies inside a folder."""
    target = _resolved(path)
    return target is not None and folder.resolve() in target.parents


def _resolved(path: Path) -> Path | None:
    """Return a path with its links followed, or None for a loop of links."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: Python 3.11's "Symlink loop"
        return None


def write_atomic(path: Path, text: str) -> None:
    """Write a file through a temporary file in the same folder and a rename: old or new, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=STAGING_PREFIX, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        ordinary_mode(tmp)  # mkstemp makes 0600; a generated file is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def ordinary_mode(path: str) -> None:
    """Give a file the mode a new file gets (0666 less the umask), as a file made by mkstemp (0600) has not."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(path, 0o666 & ~umask)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one system call; return False where the system cannot (or is told not to)."""
    if os.environ.get("CARDC_NO_RENAMEAT2") == "1":
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return result == 0


def replace_folder(folder: Path, files: dict[str, str | None]) -> None:
    """Make `folder` hold exactly `files` (name -> text, or None to keep the file it holds), switching old for
    new in one step."""
    staging = folder.parent / f"{STAGING_PREFIX}{folder.name}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    _fill(staging, folder, files)
    if not folder.exists():
        staging.rename(folder)
    elif _exchange(staging, folder):
        shutil.rmtree(staging)
    else:
        _switch_in_steps(folder, staging)


def _switch_in_steps(folder: Path, staging: Path) -> None:
    """Switch staging in for folder without renameat2; runtime/folder_recovery.py undoes a kill between steps."""
    old, trash = (folder.parent / f"{prefix}{folder.name}" for prefix in (OLD_PREFIX, f"{STAGING_PREFIX}trash-"))
    for rubbish in (old, trash):  # of an earlier killed build: the folder is there, so they are not needed
        shutil.rmtree(rubbish, ignore_errors=True)
    # An old folder is always whole (recovery may put it back), so it is renamed away before removal.
    steps = {"move-old": lambda: folder.rename(old), "move-new": lambda: staging.rename(folder),
             "discard-old": lambda: old.rename(trash), "remove-old": lambda: shutil.rmtree(trash)}
    for name in FALLBACK_STEPS:
        _kill_if_told(name)
        steps[name]()
    _kill_if_told("end")


def _kill_if_told(step: str, name: str | None = None) -> None:
    """Kill this process (SIGKILL: no clean-up runs) if CARDC_BUILD_KILL_BEFORE names this step (of `name`)."""
    if os.environ.get("CARDC_BUILD_KILL_BEFORE") in (step, f"{step}:{name}"):
        os.kill(os.getpid(), getattr(signal, "SIGKILL", signal.SIGTERM))


@dataclass
class Change:
    """What a build changes in generated/: ruleset folders to replace whole (name -> files), folders to
    remove, files of generated/ itself to write (name -> text) and to delete."""

    folders: dict[str, dict[str, str | None]] = field(default_factory=dict)  # None: keep the file
    remove: list[str] = field(default_factory=list)
    write: dict[str, str] = field(default_factory=dict)
    delete: list[str] = field(default_factory=list)

    def size(self) -> int:
        """Return how many separate things change."""
        return len(self.folders) + len(self.remove) + len(self.write) + len(self.delete)


def switch_tree(generated: Path, change: Change) -> None:
    """Make every change at once: one folder or file on its own, several through a staged, journalled switch."""
    if change.size() == 1 and change.folders:
        [(name, files)] = change.folders.items()
        replace_folder(generated / name, files)  # one exchange: atomic by itself
    elif change.size() == 1 and change.write:
        [(name, text)] = change.write.items()
        write_atomic(generated / name, text)
    elif change.size():
        _switch_journalled(generated, change)


def _switch_journalled(generated: Path, change: Change) -> None:
    """Stage everything, commit with the journal, then switch (runtime/folder_recovery.py finishes a kill)."""
    generated.mkdir(parents=True, exist_ok=True)
    for name, files in sorted(change.folders.items()):
        _kill_if_told("stage", name)
        _stage(generated / f"{STAGING_PREFIX}{name}", generated / name, files)
    for name, text in sorted(change.write.items()):
        write_atomic(generated / f"{NEW_FILE_PREFIX}{name}", text)
    plan = {"switch": sorted(change.folders), "remove": sorted(change.remove), "write": sorted(change.write),
            "delete": sorted(change.delete)}
    _kill_if_told("commit")
    with locked(generated):  # a loader meeting the journal waits here instead of switching beside us
        write_atomic(generated / JOURNAL, json.dumps(plan, indent=1) + "\n")  # the commit
        finish(generated, plan, _exchange, _kill_if_told)
    _kill_if_told("discard")
    remove_leftovers(generated)
    _kill_if_told("end")


def _stage(staging: Path, folder: Path, files: dict[str, str | None]) -> None:
    """Write a ruleset's complete new folder under its staging name, with the mark that says it is new."""
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    _fill(staging, folder, files)
    write_atomic(staging / MARK, "")  # last: a marked folder is complete


def _fill(staging: Path, folder: Path, files: dict[str, str | None]) -> None:
    """Write each file into a staging folder; a file kept (None) is linked from the folder, not rewritten."""
    for name, text in sorted(files.items()):
        if text is not None:
            write_atomic(staging / name, text)
            continue
        try:
            os.link(folder / name, staging / name)  # safe to share: a generated file is only ever replaced
        except OSError:  # a filesystem without hard links
            write_atomic(staging / name, (folder / name).read_text(encoding="utf-8"))


def clean_staging(generated: Path) -> None:
    """Finish or undo what a killed build left behind, then remove staging folders, old folders and
    temporary files."""
    recover(generated)  # first: an old folder is the only copy while its ruleset folder is missing
    if generated.is_dir() and not generated.is_symlink():
        remove_leftovers(generated)


def remove_leftovers(generated: Path) -> None:
    """Remove every `.cardc-*` entry under generated/ (a link is removed itself, never what it leads to)."""
    for leftover in sorted(generated.rglob(f"{STAGING_PREFIX}*")):
        if leftover.is_symlink() or not leftover.is_dir():
            leftover.unlink(missing_ok=True)
        else:
            shutil.rmtree(leftover, ignore_errors=True)


def link_problems(root: Path) -> list[Diagnostic]:
    """Return an E301 for generated/, an entry of it or an entry of one of its folders that is a link."""
    gen = root / "generated"
    if gen.is_symlink():
        return [_link_error(root, gen)]
    if not gen.is_dir():
        return []
    links = []
    for entry in sorted(p for p in gen.iterdir() if not p.name.startswith(STAGING_PREFIX)):
        inner = sorted(entry.iterdir()) if _is_real_dir(entry) else []
        links += [p for p in [entry, *inner] if p.is_symlink()]
    return [_link_error(root, p) for p in links]


def _is_real_dir(path: Path) -> bool:
    return path.is_dir() and not path.is_symlink()


def _link_error(root: Path, link: Path) -> Diagnostic:
    """Return the E301 of an output path that is a link: where it leads, what was expected."""
    rel = link.relative_to(root).as_posix()
    target, base = _resolved(link), root.resolve()
    if target is None:
        noun, expected, where = "path", "folder or file", f"{os.readlink(link)} (a loop of links)"
    else:
        noun = expected = "folder" if link == root / "generated" or target.is_dir() else "file"
        where = target.relative_to(base).as_posix() if base in target.parents else f"{target} (outside the project)"
    return Diagnostic("E301", f"this {noun} is a link to {where}; expected a real {expected} of the project: "
                              "refusing to write through it", rel, 1, 1)
