"""Shared test setup: the project root, the compiled Simple Duel game and its decks, and
throw-away copies of the card folders for tests that build.

Every test that builds works on a copy under pytest's tmp_path, so nothing is ever written to the
repository's own cards/ or generated/ folders.
"""

from __future__ import annotations

import importlib
import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent

# CI runs fixed, small budgets (derandomized: the same examples every run); CARDC_PROFILE=long runs
# the same properties with 50 times the examples, randomized.
settings.register_profile("ci", max_examples=100, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=5000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("CARDC_PROFILE", "ci"))
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from runtime import ending  # noqa: E402  (after the root is on the path)

ending.VERIFY = True  # every ruleset context kept for reuse is checked to be as new, in every test's games

RULESET_FILE = ROOT / "cards" / "simple_duel" / "ruleset.card"


@pytest.fixture(scope="session")
def simple_duel():
    """The Simple Duel game, loaded from the committed generated/simple_duel package."""
    from runtime.load import load_game

    return load_game("simple_duel")


@pytest.fixture(scope="session")
def simple_duel_decks(simple_duel):
    """Every deck of cards/simple_duel/decks/, each a list of card names, sorted by file name."""
    from compiler.sheets import deck_rules, load_deck

    paths = sorted((ROOT / "cards" / "simple_duel" / "decks").glob("*.deck"))
    return [load_deck(p, deck_rules(simple_duel)) for p in paths]


@pytest.fixture(scope="session")
def cards_snapshot(tmp_path_factory) -> Path:
    """Return one copy of the repository's cards/ taken at the start of the session, so every test
    of a session sees the same cards even while the card files are being edited."""
    root = tmp_path_factory.mktemp("cards_snapshot")
    shutil.copytree(ROOT / "cards", root / "cards")
    return root / "cards"


@pytest.fixture
def project(tmp_path: Path, cards_snapshot: Path) -> Path:
    """Return a project folder holding a copy of the Simple Duel card folder and nothing else (the
    build machinery is the same for every ruleset; one keeps these tests fast)."""
    root = tmp_path / "project"
    (root / "cards").mkdir(parents=True)
    shutil.copytree(cards_snapshot / "simple_duel", root / "cards" / "simple_duel")
    return root


@pytest.fixture(scope="session")
def built_snapshot(tmp_path_factory, cards_snapshot: Path) -> Path:
    """Return a project built once per session from the session's copy of cards/ (do not modify)."""
    from compiler.build import build

    root = tmp_path_factory.mktemp("built_snapshot")
    shutil.copytree(cards_snapshot, root / "cards")
    report = build(root)
    assert {action for action, _ in report.actions} == {"wrote"}
    return root


@pytest.fixture(scope="session")
def duel_built_snapshot(tmp_path_factory, cards_snapshot: Path) -> Path:
    """Return a project of the Simple Duel folder alone, built once per session (do not modify): the
    build machinery is the same for every ruleset, and one keeps a test of it fast."""
    from compiler.build import build

    root = tmp_path_factory.mktemp("duel_built_snapshot")
    shutil.copytree(cards_snapshot / "simple_duel", root / "cards" / "simple_duel")
    build(root)
    return root


def _is_generated(module: str) -> bool:
    return module == "generated" or module.startswith("generated.")


@contextmanager
def generated_package(root: Path, ruleset: str) -> Iterator:
    """Import root/generated/<ruleset> (a temporary build) as `generated.<ruleset>`; afterwards the
    repository's own generated modules are back in place."""
    saved = {name: mod for name, mod in sys.modules.items() if _is_generated(name)}
    for name in saved:
        del sys.modules[name]
    sys.path.insert(0, str(root))
    importlib.invalidate_caches()
    try:
        yield importlib.import_module(f"generated.{ruleset}")
    finally:
        sys.path.remove(str(root))
        for name in [name for name in sys.modules if _is_generated(name)]:
            del sys.modules[name]
        sys.modules.update(saved)


@contextmanager
def compiled_game(root: Path, ruleset: str) -> Iterator:
    """Return, for the duration of a with-block, the Game of a ruleset built under root."""
    from runtime.engine import Game

    with generated_package(root, ruleset) as module:
        yield Game(module.RULESET, module.CARDS, module.KEYWORDS, module.STATUSES)
