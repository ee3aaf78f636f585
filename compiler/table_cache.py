"""A cache file for something slow to compute and quick to load (the card parser's LALR tables).

`cached(path, key, build, save, load)` returns what `load` reads from the file when its first line is `key`,
else what `build` computes, saved to the file for next time. The file lives beside what it is computed from,
as Python's own __pycache__ does (compiler/parser.py: grammar/__pycache__/), never in a place an input
chooses. A file that is missing, of another key or damaged is computed again; a folder that cannot be
written (a read-only install) only means no cache. A save is atomic (a temporary file and a rename), so
processes that start together never read half a file.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, TypeVar

from compiler.files import ordinary_mode

T = TypeVar("T")


def cached(path: Path, key: str, build: Callable[[], T], save: Callable[[T, IO[bytes]], None],
           load: Callable[[IO[bytes]], T]) -> T:
    """Return the object the cache file holds for `key`, or a newly built one (saved when possible)."""
    found = _loaded(path, key, load)
    if found is not None:
        return found
    made = build()
    _save(path, key, made, save)
    return made


def _loaded(path: Path, key: str, load: Callable[[IO[bytes]], T]) -> T | None:
    """Return what the file holds for `key`; None when it is missing, of another key, or cannot be read."""
    try:
        with path.open("rb") as fh:
            if fh.readline() != f"{key}\n".encode():
                return None
            return load(fh)
    except Exception:  # noqa: BLE001 - a damaged file may fail in any way while unpickling: it is rebuilt
        return None


def _save(path: Path, key: str, made: T, save: Callable[[T, IO[bytes]], None]) -> None:
    """Write the cache file atomically; do nothing where the folder cannot be written."""
    try:
        path.parent.mkdir(exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(f"{key}\n".encode())
            save(made, fh)
        ordinary_mode(tmp)  # other users of an install may read it too
        os.replace(tmp, path)
    except OSError:
        pass
    finally:
        Path(tmp).unlink(missing_ok=True)  # gone already when the rename was made
