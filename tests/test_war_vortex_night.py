"""War Vortex Night (cards/war_vortex_night/, digest ../shared/rules/war-vortex-night.md): its rulings on
building a team (R-WVN-01 to R-WVN-07, R-WVN-17) are team files, tests/scenarios/war_vortex_night/teams/,
each saying what it is and what it expects in its first lines:

    # scenario R-WVN-01: six cards costing 15 fit an ap of 15
    # expect: legal                         (or one '# expect: CODE message' line per problem, in order)

Adding a case needs no Python edit. The other rulings are scenarios beside them (tests/test_scenarios.py)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from compiler.diagnostics import CompileError
from compiler.team_files import load_team, read_team, team_text
from runtime import engine, invariants
from runtime.agents import GreedyAgent, RandomAgent
from runtime.defs import entry_names
from runtime.invariants import violations
from runtime.load import load_game
from tests.conftest import ROOT
from tests.test_differential import assert_same_game, interpreted
from tools.cli import main
from tools.scenario import read_scenario
from tools.teamgen import random_team
from tools.tournament import wilson

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
    assert rulings == {f"R-WVN-{n:02d}" for n in (1, 2, 3, 4, 5, 6, 7, 17, 45)}


def test_every_ruling_of_the_digest_is_a_scenario_a_team_case_or_an_error_case() -> None:
    """R-WVN-01 to R-WVN-63: the scenarios beside the team cases, the team cases, and the one ruling that is a
    compile error (R-WVN-63, tokens refused: tests/errors/cases.txt, a case whose name ends in r_wvn_63)."""
    index = ROOT.parent / "shared" / "rules" / "rulings-index.tsv"
    if not index.exists():
        index = ROOT / "tests" / "scenarios" / "war_vortex_night" / "RULINGS.tsv"
    rulings = [line.split("\t")[0] for line in index.read_text(encoding="utf-8").splitlines()
               if line.startswith("R-WVN-")]
    scenarios = {read_scenario(p).name for p in (ROOT / "tests" / "scenarios" / "war_vortex_night").glob("*.scenario")}
    teams = {p.read_text(encoding="utf-8").split(":")[0].removeprefix("# scenario ") for p in CASES}
    cases = (ROOT / "tests" / "errors" / "cases.txt").read_text(encoding="utf-8")
    errors = {f"R-WVN-{n}" for n in re.findall(r"^=== case: \w*_r_wvn_(\d\d)$", cases, re.M)}
    assert len(rulings) == 63
    assert [r for r in rulings if r not in scenarios | teams | errors] == []


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


def test_random_teams_are_legal_team_files() -> None:
    """The fuzzer's teams pass the team-file checks (read back, they are the same entries), also around a file."""
    game = load_game("war_vortex_night")
    pool = sorted(game.cards)
    fire = [n for n in pool if game.cards[n].requires == ("element", "any", ("fire",))]
    for seed in range(40):
        focus = fire if seed % 2 else None
        team = random_team(random.Random(seed), game, pool, focus)
        assert read_team(team_text(team, game.ruleset.lines), "x.team", game) == team, seed
        if focus:
            assert set(focus) & set(entry_names(team)), seed


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["--root", str(ROOT), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("teams", [("dawnbreakers", "stormtide"), ("emberguard", "tidewardens", "skyrunners")],
                         ids=["2-vs-2", "3-way"])
def test_play_prints_a_readable_battle_by_team_names(capsys: pytest.CaptureFixture[str], teams: tuple) -> None:
    code, log, _ = _cli(capsys, "play", "war_vortex_night", *teams, "--seed", "4")
    assert code == 0
    for said in ("rolls 1D for initiative", "initiative order: ", " rolls 1D: ", " moves ", "(distance ",
                 " now)", " is destroyed", " leaves the game", "is the last player standing and wins"):
        assert said in log, said
    assert _cli(capsys, "play", "war_vortex_night", *teams, "--seed", "4") == (0, log, "")
    assert _cli(capsys, "play", "war_vortex_night", *teams, "--seed", "5")[1] != log


def test_play_names_the_teams_there_are(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _cli(capsys, "play", "war_vortex_night", "dawnbreakers", "stormtid")
    assert code == 2
    assert err == ("cardc play: no deck or team 'stormtid' in cards/war_vortex_night/ (there: dawnbreakers, "
                   "dusk_covenant, emberguard, skyrunners, stonecircle, stormtide, tidewardens); did you mean "
                   "'stormtide'?\n")


def test_a_tournament_plays_every_pairing_in_both_seats_alike_on_any_number_of_workers(
        capsys: pytest.CaptureFixture[str]) -> None:
    args = ("tournament", "war_vortex_night", "dawnbreakers", "stormtide", "skyrunners", "--games", "1")
    code, one, _ = _cli(capsys, *args, "--workers", "1")
    assert code == 0 and _cli(capsys, *args, "--workers", "2") == (0, one, "")
    rows = {line.split()[0]: line.split() for line in one.splitlines()[1:4]}
    assert sorted(rows) == ["dawnbreakers", "skyrunners", "stormtide"]
    assert all(int(w) + int(d) + int(lo) == 4 for _, w, d, lo, *_ in rows.values())  # 2 rivals, 2 seats
    assert "6 games; the first seat won" in one
    matrix = one.split("wins of the row against the column:\n")[1].splitlines()[1:4]
    assert sum(int(x) for line in matrix for x in line.split()[1:] if x != "-") == sum(
        int(r[1]) for r in rows.values())


def test_the_wilson_interval() -> None:
    assert wilson(0, 0) == (0.0, 0.0)
    low, high = wilson(5, 10)
    assert round(low, 4) == 0.2366 and round(high, 4) == 0.7634
    assert wilson(10, 10)[1] == pytest.approx(1.0) and wilson(0, 10)[0] == pytest.approx(0.0)


def test_the_greedy_agent_beats_the_random_one_from_either_seat() -> None:
    game = load_game("war_vortex_night")
    teams = [load_team(p, game) for p in TEAMS]
    wins = played = 0
    for seed in range(10):
        pair = [teams[seed % len(teams)], teams[(seed + 3) % len(teams)]]
        for greedy in (0, 1):
            agents = [RandomAgent(seed), RandomAgent(seed + 1)]
            agents[greedy] = GreedyAgent()
            s = game.new_game(pair, seed)
            while not engine.is_terminal(s):
                engine.apply_action(s, agents[s.decision["player"]].choose(s, engine.legal_actions(s)))
            wins += s.result is not None and s.result[greedy] == 1
            played += 1
    assert wins > played // 2, f"greedy won {wins} of {played}"


def test_fuzz_finds_a_planted_violation_in_a_battle_of_random_teams_and_replays_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    real = invariants.violations
    monkeypatch.setattr(invariants, "violations", lambda s: real(s) + (
        ["fake violation: turn 4 reached"] if s.turn >= 4 else []))
    out = tmp_path / "found.replay.json"
    code, printed, _ = _cli(capsys, "fuzz", str(ROOT / "cards" / "war_vortex_night"), "--games", "2", "--out", str(out),
                            "--shrink-seconds", "5")
    assert code == 1 and "violation found in game 1 of 2" in printed
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["violation"].endswith("fake violation: turn 4 reached")
    teams = data["decks"]
    assert 2 <= len(teams) <= 3 and all(len(entry) == 3 and len(entry[2]) == 6 for team in teams for entry in team)
    code, printed, _ = _cli(capsys, "replay", str(out))
    assert code == 1 and data["log"][-1] in printed
    monkeypatch.undo()  # the "bug" is fixed: the replay passes, but a team battle makes no scenario
    code, _, err = _cli(capsys, "replay", str(out), "--scenario", str(tmp_path / "x.scenario"))
    assert code == 2 and "a battle of teams cannot be written as a scenario" in err
    teams[0][0][2].reverse()  # its faces no longer go up in cost
    out.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = _cli(capsys, "replay", str(out))
    assert code == 2 and "E201 team 1 cannot start a game: " in err and "the faces go up in cost" in err
