"""Putting back a ruleset folder that a build killed mid-switch left aside (compiler/files.py, fallback).

Without renameat2 a build switches a ruleset folder in three steps: the old folder is renamed to
`.cardc-old-<ruleset>`, the staged new folder is renamed into place, the old one is removed. The
leftover old folder is the journal: if it is there and the ruleset folder is not, the build was
killed between the first two steps, and the old folder (complete: it was renamed whole) is put
back. If both are there, the switch had happened and the old folder is rubbish for the next build.
The loader and every build apply this rule before they read generated/, so no reader ever finds a
ruleset folder missing or mixed.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

OLD_PREFIX = ".cardc-old-"


def restore(generated: Path, ruleset: str) -> bool:
    """Put back generated/<ruleset> from its moved-aside old folder if it is missing; return whether it did."""
    folder, old = generated / ruleset, generated / f"{OLD_PREFIX}{ruleset}"
    if folder.exists() or not old.is_dir():
        return False
    old.rename(folder)
    return True


def restore_all(generated: Path) -> list[str]:
    """Put back every ruleset folder of a generated/ folder left missing by a killed build; return their names."""
    names = sorted(p.name[len(OLD_PREFIX):] for p in generated.glob(f"{OLD_PREFIX}*") if p.is_dir())
    return [name for name in names if restore(generated, name)]


def restore_package(ruleset: str) -> None:
    """Put back the ruleset folder of the importable `generated` package before it is imported."""
    spec = importlib.util.find_spec("generated")
    for location in (spec.submodule_search_locations or []) if spec else []:
        restore(Path(location), ruleset)
