"""War Vortex Night (cards/war_vortex_night/, digest ../shared/rules/war-vortex-night.md): its rulings on
building a team (R-WVN-01 to R-WVN-07, R-WVN-17) are team files, tests/scenarios/war_vortex_night/teams/,
each saying what it is and what it expects in its first lines:

    # scenario R-WVN-01: six cards costing 15 fit an ap of 15
    # expect: legal                         (or one '# expect: CODE message' line per problem, in order)

Adding a case needs no Python edit. The other rulings are scenarios beside them (tests/test_scenarios.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.diagnostics import CompileError
from compiler.team_files import load_team, read_team
from runtime import engine
from runtime.agents import RandomAgent
from runtime.invariants import violations
from runtime.load import load_game
from tests.conftest import ROOT
from tests.test_differential import assert_same_game, interpreted

CASES = sorted((ROOT / "tests" / "scenarios" / "war_vortex_night" / "teams").glob("*.team"))
TEAMS = sorted((ROOT / "cards" / "war_vortex_night" / "teams").glob("*.team"))


def _expected(text: str) -> list[str]:
    """Return the problems a case expects ('legal': none)."""
    found = [line.removeprefix("# expect: ") for line in text.splitlines() if line.startswith("# expect: ")]
    return [] if found == ["legal"] else found


def _problems(text: str, path: Path) -> list[str]:
    """Return every problem of a team file against War Vortex Night, as 'CODE message'."""
    try:
        read_team(text, path.name, load_game("war_vortex_night"))
    except CompileError as err:
        return [f"{d.code} {d.message}" for d in err.diagnostics]
    return []


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_a_team_ruling(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# scenario R-WVN-") and _expected(text) is not None
    assert _problems(text, path) == _expected(text)


def test_every_team_ruling_of_the_digest_has_a_case() -> None:
    rulings = {p.read_text(encoding="utf-8").split(":")[0].removeprefix("# scenario ") for p in CASES}
    assert rulings == {f"R-WVN-{n:02d}" for n in (1, 2, 3, 4, 5, 6, 7, 17)}


def test_a_case_whose_team_is_changed_no_longer_passes() -> None:
    """The cases check something: the over-budget table on a character with enough ap has no problem."""
    path = next(p for p in CASES if p.stem == "R-WVN-01-over")
    text = path.read_text(encoding="utf-8").replace("Rulings Recruit", "Rulings Soldier")
    assert _expected(text) and _problems(text, path) == []


def _teams(game: engine.Game, seed: int) -> list:
    """Return the teams of a seeded game: two of the sample teams, or three every third seed."""
    count = 3 if seed % 3 == 2 else 2
    return [load_team(TEAMS[(seed + k * 2) % len(TEAMS)], game) for k in range(count)]


def test_the_sample_teams_play_battles_that_keep_every_invariant() -> None:
    game = load_game("war_vortex_night")
    assert len(TEAMS) >= 6
    ended = 0
    for seed in range(12):
        s = game.new_game(_teams(game, seed), seed)
        agents = [RandomAgent(seed * 3 + k) for k in range(len(s.players))]
        while not engine.is_terminal(s):
            engine.apply_action(s, agents[s.decision["player"]].choose(s, engine.legal_actions(s)))
            assert violations(s) == [], f"seed {seed}"
        ended += s.result is not None and s.result.count(1) == 1
    assert ended >= 10  # battles end with one team standing (a few may reach the turn limit)


def test_the_reference_interpreter_plays_the_same_battles() -> None:
    game = load_game("war_vortex_night")
    interp = interpreted(ROOT, ROOT / "cards" / "war_vortex_night")
    for seed in range(4):
        assert_same_game(game, interp, _teams(game, seed), seed)
