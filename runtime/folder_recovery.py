"""Putting generated/ back in one piece after a build was killed while switching folders (compiler/files.py).

One ruleset folder switched on its own: without renameat2 a build renames the old folder to
`.cardc-old-<ruleset>`, renames the staged new folder into place, then removes the old one. The
leftover old folder is the journal: if it is there and the ruleset folder is not, the build was killed
between the first two steps, and the old folder (complete: it was renamed whole) is put back. If both
are there, the switch had happened and the old folder is rubbish for the next build.

Several changes at once (two rulesets, a ruleset and generated/__init__.py, ...): the build stages
every new folder (`.cardc-<ruleset>`, marked inside by a `.cardc-new` file) and file
(`.cardc-new-<name>`) first, then writes the journal `.cardc-commit.json` naming them: that write is
the commit. With no journal, a kill rolls back (the staged copies are rubbish); with one, `finish`
rolls forward: each step it takes can be taken again, and a folder holding the mark is the new one,
so it knows which switches are done. The journal goes last.

The loader and every build apply these rules before they read generated/, so no reader ever finds
a ruleset folder missing, mixed, or out of step with the others. Nothing here acts through a link.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

OLD_PREFIX = ".cardc-old-"
STAGED_PREFIX = ".cardc-"  # .cardc-<ruleset>: a ruleset's staged new folder (no ruleset name has '-' or '.')
TRASH_PREFIX = ".cardc-trash-"
NEW_FILE_PREFIX = ".cardc-new-"  # a staged file of generated/ itself
JOURNAL = ".cardc-commit.json"
MARK = ".cardc-new"  # inside a staged folder: this folder holds the new files
SAFE_NAME = re.compile(r"^[a-z][a-z0-9_]*$")  # a ruleset folder or module name (compiler/build.py)
Exchange = Callable[[Path, Path], bool]
Hook = Callable[..., None]


def _real_dir(path: Path) -> bool:
    return path.is_dir() and not path.is_symlink()


def restore(generated: Path, ruleset: str) -> bool:
    """Put back generated/<ruleset> from its moved-aside old folder if it is missing; return whether it did."""
    folder, old = generated / ruleset, generated / f"{OLD_PREFIX}{ruleset}"
    if folder.exists() or folder.is_symlink() or not _real_dir(old):
        return False
    old.rename(folder)
    return True


def restore_all(generated: Path) -> list[str]:
    """Put back every ruleset folder of a generated/ folder left missing by a killed build; return their names."""
    names = sorted(p.name[len(OLD_PREFIX):] for p in generated.glob(f"{OLD_PREFIX}*") if p.is_dir())
    return [name for name in names if restore(generated, name)]


def recover(generated: Path) -> list[str]:
    """Finish a committed switch, then put back folders a single switch left aside; return the ones put back."""
    if not _real_dir(generated):  # missing, or a link: never written through (the build refuses it)
        return []
    if (generated / JOURNAL).is_file():
        with locked(generated):  # a build still switching holds it: wait, then find its journal gone
            plan = read_journal(generated)
            if plan is not None:
                finish(generated, plan)
    return restore_all(generated)


def restore_package(ruleset: str) -> None:
    """Put the importable `generated` package in one piece before `generated.<ruleset>` is imported."""
    spec = importlib.util.find_spec("generated")
    for location in (spec.submodule_search_locations or []) if spec else []:
        recover(Path(location))  # every ruleset, not only this one: the tree is old or new as a whole


@contextmanager
def locked(generated: Path) -> Iterator[None]:
    """Hold an exclusive lock on the folder (released by the system if the holder is killed)."""
    try:
        import fcntl
    except ImportError:  # no flock here: a killed build is still recovered, only not waited for
        yield
        return
    fd = os.open(generated, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _plain(name: object, ruleset: bool = False) -> bool:
    """Return whether a journal entry names one entry of generated/ itself (a ruleset: a safe name)."""
    if not isinstance(name, str):
        return False
    if ruleset:
        return SAFE_NAME.match(name) is not None
    return name not in ("", ".", "..") and "/" not in name and "\\" not in name and "\0" not in name \
        and not name.startswith(STAGED_PREFIX)


def read_journal(generated: Path) -> dict[str, list[str]] | None:
    """Return the journal's plan (switch, remove, write, delete: lists of names), or None if it is unusable."""
    try:
        data = json.loads((generated / JOURNAL).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    keys = ("switch", "remove", "write", "delete")
    if not isinstance(data, dict) or not all(isinstance(data.get(k), list) for k in keys):
        return None
    if not all(_plain(x, k == "switch") for k in keys for x in data[k]):
        return None  # a journal naming anything but entries of generated/ is not ours: never acted on
    return {k: list(data[k]) for k in keys}


def _nothing(step: str, name: str | None = None) -> None:
    return None


def finish(generated: Path, plan: dict[str, list[str]], exchange: Exchange | None = None,
           before: Hook = _nothing) -> None:
    """Carry out a committed plan, skipping what is done already; `before(step, name)` runs before each step."""
    for ruleset in plan["switch"]:
        before("switch", ruleset)
        _switch(generated, ruleset, exchange, before)
    for name in plan["remove"]:
        before("remove", name)
        _remove(generated, name)
    for name in plan["write"]:
        before("write", name)
        staged = generated / f"{NEW_FILE_PREFIX}{name}"
        if staged.is_file() and not staged.is_symlink():
            os.replace(staged, generated / name)  # replaces a link itself, never its target
    for name in plan["delete"]:
        before("delete", name)
        (generated / name).unlink(missing_ok=True)
    before("close")
    _close(generated, plan)


def _remove(generated: Path, name: str) -> None:
    """Move a folder of generated/ that no card folder produces any more out of the way, whole."""
    if _real_dir(generated / name):
        _make_room(generated / f"{TRASH_PREFIX}{name}")
        (generated / name).rename(generated / f"{TRASH_PREFIX}{name}")


def _close(generated: Path, plan: dict[str, list[str]]) -> None:
    """Remove the marks of the switched folders, then the journal: the switch is over."""
    for ruleset in plan["switch"]:
        if _real_dir(generated / ruleset):
            (generated / ruleset / MARK).unlink(missing_ok=True)
    (generated / JOURNAL).unlink(missing_ok=True)


def _switch(generated: Path, ruleset: str, exchange: Exchange | None, before: Hook) -> None:
    """Put the staged folder of a ruleset in place, unless the folder in place is already the new one."""
    folder, staged, old = (generated / f"{prefix}{ruleset}" for prefix in ("", STAGED_PREFIX, OLD_PREFIX))
    if folder.is_symlink() or (folder / MARK).exists() or not _real_dir(staged) or not (staged / MARK).is_file():
        return  # switched already (the staged name then holds the old folder, or nothing)
    if not folder.exists():  # a first build, or killed between the two renames below
        staged.rename(folder)
        return
    if exchange is not None and exchange(staged, folder):
        return
    _make_room(old)
    before("move-old", ruleset)
    folder.rename(old)
    before("move-new", ruleset)
    staged.rename(folder)


def _make_room(path: Path) -> None:
    """Remove a leftover of an earlier build that sits where a folder is about to be renamed to."""
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)
