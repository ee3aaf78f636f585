"""Every scenario file under tests/scenarios/ is a test (adding one needs no Python edit)."""

from __future__ import annotations

import pytest

from runtime.load import load_game
from tests.conftest import ROOT
from tools.scenario import discover, read_scenario, run_scenario

PATHS = discover(ROOT, [])
_GAMES: dict = {}


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_scenario(path):
    sc = read_scenario(path)
    if sc.ruleset not in _GAMES:
        _GAMES[sc.ruleset] = load_game(sc.ruleset)
    outcome = run_scenario(sc, _GAMES[sc.ruleset])
    assert outcome.passed, "\n".join(outcome.failures)


@pytest.mark.parametrize("prefix, folder", [("R-SD-", "simple_duel"), ("R-COJ-", "code_of_joker"), ("R-SU-", "successor")])
def test_every_ruling_has_a_scenario(prefix, folder):
    """Every ruling of the index has a scenario named after it (OPEN ones pin a documented decision)."""
    index = ROOT.parent / "shared" / "rules" / "rulings-index.tsv"
    if not index.exists():
        index = ROOT / "tests" / "scenarios" / folder / "RULINGS.tsv"
    rulings = [line.split("\t")[0] for line in index.read_text(encoding="utf-8").splitlines()
               if line.startswith(prefix)]
    names = {read_scenario(p).name for p in PATHS}
    missing = [r for r in rulings if r not in names]
    assert rulings and not missing, f"rulings without a scenario: {missing}"
