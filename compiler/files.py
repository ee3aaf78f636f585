"""Writing generated/ safely: atomic files, and a ruleset folder replaced in one step.

A build puts a ruleset's complete new folder next to the old one inside generated/ and exchanges
the two with one `renameat2(RENAME_EXCHANGE)` system call, so a build killed at any point leaves
each ruleset folder entirely old or entirely new, never mixed.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import tempfile
from pathlib import Path

from compiler.diagnostics import CompileError, Diagnostic

STAGING_PREFIX = ".cardc-"
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


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
    """Swap two folders in one system call; return False where the system cannot."""
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
    else:  # no renameat2: a short window where the folder is missing, never mixed
        old = folder.parent / f"{STAGING_PREFIX}old-{folder.name}"
        shutil.rmtree(old, ignore_errors=True)
        folder.rename(old)
        staging.rename(folder)
        shutil.rmtree(old)


def clean_staging(generated: Path) -> None:
    """Remove what a killed build left behind (staging folders and temporary files)."""
    if generated.is_dir():
        for leftover in generated.rglob(f"{STAGING_PREFIX}*"):
            shutil.rmtree(leftover, ignore_errors=True) if leftover.is_dir() else leftover.unlink(missing_ok=True)
