"""Loading a compiled ruleset from generated/ into a Game."""

from __future__ import annotations

import importlib

from runtime.engine import Game
from runtime.folder_recovery import restore_package


def load_game(ruleset: str) -> Game:
    """Return the Game of a ruleset compiled into generated/<ruleset>/."""
    restore_package(ruleset)  # a build killed mid-switch may have left it aside (runtime/folder_recovery.py)
    module = importlib.import_module(f"generated.{ruleset}")
    return Game(module.RULESET, module.CARDS, module.KEYWORDS, module.STATUSES)
