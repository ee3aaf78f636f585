"""Every scenario file under tests/scenarios/ is a test (adding one needs no Python edit)."""

from __future__ import annotations

import subprocess
import sys

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


def test_a_scenarios_own_cards_are_checked_with_the_cards_of_root(project, tmp_path):
    """`cardc --root DIR scenario`: a scenario's 'cards:' compile with DIR's card files, here a keyword
    only DIR's Simple Duel declares, though the scenario lies outside DIR and this project has the same ruleset."""
    keywords = project / "cards" / "simple_duel" / "keywords.card"
    keywords.write_text(keywords.read_text(encoding="utf-8") + '\nkeyword Rootmark {\n    text "Rootmark (a test '
                        'keyword of this folder only)."\n    static: this can\'t be blocked.\n}\n', encoding="utf-8")
    scenario = tmp_path / "elsewhere" / "rootmark.scenario"
    scenario.parent.mkdir()
    scenario.write_text("scenario X-1: a keyword of the root's cards\nruleset simple_duel\nseed 1\nstop: before "
                        "phase draw of turn 1\n\nsetup:\n    new game, first P1\n    P1 deck: 30 Marked Ram\n"
                        "    P2 deck: 30 Marked Ram\n\nexpect:\n    P1 hand count 5\n\ncards:\n"
                        '    card "Marked Ram" {\n        kind creature\n        cost 1 mana\n'
                        '        stats power 1, speed 1\n        keywords Rootmark\n    }\n', encoding="utf-8")
    cardc = [sys.executable, "-m", "tools", "--root", str(project)]
    assert subprocess.run([*cardc, "build"], cwd=ROOT, capture_output=True, text=True).returncode == 0
    result = subprocess.run([*cardc, "scenario", str(scenario)], cwd=ROOT, capture_output=True, text=True)
    assert result.stdout.splitlines() == ["ok    X-1: a keyword of the root's cards", "1 passed, 0 failed"], \
        result.stdout + result.stderr
