"""Writing generated/ safely: atomic files, and a ruleset folder replaced in one step.

A build puts a ruleset's complete new folder next to the old one inside generated/ and exchanges
the two with one `renameat2(RENAME_EXCHANGE)` system call, so a build killed at any point leaves
each ruleset folder entirely old or entirely new, never mixed.

Where the system or filesystem has no exchange call (or CARDC_NO_RENAMEAT2=1 says to act so), the
switch takes four steps (FALLBACK_STEPS): move the old folder aside to `.cardc-old-<ruleset>`, move
the new one in, rename the old one to `.cardc-trash-<ruleset>`, remove that. Killed between the first
two, the ruleset folder is missing on disk but its old folder is whole beside it: the next build and
the loader put it back before they read anything (runtime/folder_recovery.py), so every reader sees the
folder entirely old or entirely new. A `.cardc-old-` folder is never partly removed.
CARDC_BUILD_KILL_BEFORE=<step> (a step, or 'end') makes a build kill itself there: the tests use it.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import tempfile
from pathlib import Path

from compiler.diagnostics import CompileError, Diagnostic
from runtime.folder_recovery import OLD_PREFIX, restore_all

STAGING_PREFIX = ".cardc-"
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
FALLBACK_STEPS = ("move-old", "move-new", "discard-old", "remove-old")


def inside_generated(root: Path, rel: str) -> Path:
    """Return the absolute path of an output, refusing any path outside generated/."""
    target = (root / rel).resolve()
    gen = (root / "generated").resolve()
    if gen not in target.parents:
        raise CompileError([Diagnostic("E301", f"refusing to write outside generated/: {rel}", rel, 1, 1)])
    return target


def inside(folder: Path, path: Path) -> bool:
    """Return whether a path (links followed) lies inside a folder."""
    return folder.resolve() in path.resolve().parents


def write_atomic(path: Path, text: str) -> None:
    """Write a file through a temporary file in the same folder and a rename: old or new, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=STAGING_PREFIX, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; a generated file is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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


def replace_folder(folder: Path, files: dict[str, str]) -> None:
    """Make `folder` hold exactly `files` (name -> text), switching old for new in one step."""
    staging = folder.parent / f"{STAGING_PREFIX}{folder.name}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for name, text in sorted(files.items()):
        write_atomic(staging / name, text)
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


def _kill_if_told(step: str) -> None:
    """Kill this process (SIGKILL: no clean-up runs) if CARDC_BUILD_KILL_BEFORE names this step."""
    if os.environ.get("CARDC_BUILD_KILL_BEFORE") == step:
        os.kill(os.getpid(), getattr(signal, "SIGKILL", signal.SIGTERM))


def clean_staging(generated: Path) -> None:
    """Undo or remove what a killed build left behind: put back a folder moved aside, then remove
    staging folders, old folders and temporary files."""
    if generated.is_dir():
        restore_all(generated)  # first: an old folder is the only copy while its ruleset folder is missing
        for leftover in generated.rglob(f"{STAGING_PREFIX}*"):
            shutil.rmtree(leftover, ignore_errors=True) if leftover.is_dir() else leftover.unlink(missing_ok=True)
