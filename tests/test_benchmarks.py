"""The benchmarks of compiled cards against the reference interpreter, which compares the same games and
refuses two games that differ, and of games through the API (no figure is asserted: speed is the
benchmarks' business)."""

from __future__ import annotations

import pytest

from benchmarks import interpreter


def test_the_interpreter_row_plays_the_same_games_both_ways():
    figures = interpreter.bench_interpreter("simple_duel", 2)
    assert set(figures) == {"compiled decisions per second", "interpreted decisions per second",
                            "compiled / interpreted"}
    assert all(value > 0 for value in figures.values())
    ratio = figures["interpreted decisions per second"] / figures["compiled decisions per second"]
    assert figures["compiled / interpreted"] == pytest.approx(1 / ratio)


def test_a_game_the_interpreter_plays_differently_stops_the_benchmark(monkeypatch):
    played = interpreter._one_game
    calls = []

    def second_differs(game, decks, seed):
        seconds, decisions, log = played(game, decks, seed)
        calls.append(game)
        return seconds, decisions, log + ["a line only one side logged"] if len(calls) % 2 == 0 else log

    monkeypatch.setattr(interpreter, "_one_game", second_differs)
    with pytest.raises(SystemExit, match="simple_duel seed 0: the interpreter played another game"):
        interpreter.bench_interpreter("simple_duel", 1)


def test_the_api_row_observes_only_in_its_observing_half(monkeypatch):
    from benchmarks import api as bench
    from tools.api.game import State

    observed = []
    real = State.observation_tensor
    monkeypatch.setattr(State, "observation_tensor", lambda self, p: observed.append(p) or real(self, p))
    figures = bench.bench_api("simple_duel", 1)
    assert sorted(figures) == ["decisions per second", "decisions per second observing", "games per second",
                               "games per second observing"]
    decisions = figures["decisions per second observing"] / figures["games per second observing"]
    assert len(observed) == round(decisions) > 0


def test_every_profile_name_the_readme_lists_is_one_the_command_takes(capsys):
    import re
    from pathlib import Path

    from benchmarks import run

    readme = (Path(run.ROOT) / "README.md").read_text(encoding="utf-8")
    line = next(x for x in readme.splitlines() if "--profile NAME" in x)
    listed = set(re.findall(r"`(\w+)`", line))
    with pytest.raises(SystemExit) as refused:
        run.profile("no such row", 1)
    taken = set(str(refused.value).split(": choose one of ")[1].split(", "))
    assert listed and listed <= taken


def test_the_against_rows_play_both_trees_and_leave_no_worktree():
    import subprocess

    from benchmarks import run
    from benchmarks.against import bench_against

    figures = bench_against("HEAD", 1, rounds=1)
    assert set(figures) == {f"{label}, against HEAD" for label, *_ in run.GAMES} | {"Marguerite battles, against HEAD"}
    for row in figures.values():
        assert row["before (median)"] > 0 and row["after (median)"] > 0
        assert row["after / before"] == pytest.approx(row["after (median)"] / row["before (median)"])
    trees = subprocess.run(["git", "-C", str(run.ROOT), "worktree", "list"], capture_output=True, text=True).stdout
    assert "before" not in trees


def test_against_an_unknown_commit_is_one_line():
    from benchmarks.against import bench_against

    with pytest.raises(SystemExit, match="^--against: no commit 'no-such-commit' in this repository$"):
        bench_against("no-such-commit", 1)
