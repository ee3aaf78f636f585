"""Determinism guard for optimisations: 20 seeded random games per ruleset (fewer for the long ones) give
the log digests in tests/determinism/digests.txt. CARDC_UPDATE_DIGESTS=1 rewrites the file (only when a
change of the games is intended; review it)."""

import os
from pathlib import Path

from benchmarks.determinism import digest, digests, game_logs, render

EXPECTED = Path(__file__).parent / "determinism" / "digests.txt"
GAMES = 20


def test_digests_of_seeded_games_match_the_committed_ones():
    found = render(digests(GAMES))
    if os.environ.get("CARDC_UPDATE_DIGESTS"):
        EXPECTED.write_text(found, encoding="utf-8")
    assert found == EXPECTED.read_text(encoding="utf-8")


def test_a_changed_log_line_changes_the_digest():
    logs = [(list(lines), result) for lines, result in game_logs("simple_duel", 3)]
    before = digest(logs)
    logs[1][0][5] += " "
    assert digest(logs) != before


def test_a_line_moved_to_the_next_game_changes_the_digest():
    logs = [(list(lines), result) for lines, result in game_logs("simple_duel", 2)]
    before = digest(logs)
    logs[1][0].insert(0, logs[0][0].pop())
    assert digest(logs) != before


def test_a_changed_result_changes_the_digest():
    logs = [(list(lines), list(result)) for lines, result in game_logs("simple_duel", 2)]
    before = digest(logs)
    logs[0] = (logs[0][0], [1 - x for x in logs[0][1]])
    assert digest(logs) != before


def test_the_check_flag_fails_on_other_digests(tmp_path, capsys):
    from benchmarks.determinism import main

    good = tmp_path / "good.txt"
    good.write_text(render(digests(1)), encoding="utf-8")
    assert main(["--games", "1", "--check", str(good)]) == 0
    bad = tmp_path / "bad.txt"
    bad.write_text(good.read_text(encoding="utf-8").replace("simple_duel: ", "simple_duel: 0"), encoding="utf-8")
    assert main(["--games", "1", "--check", str(bad)]) == 1
    assert "differ" in capsys.readouterr().err


def test_no_skipped_check_would_have_changed_the_board(monkeypatch):
    from runtime import unchanged

    monkeypatch.setattr(unchanged, "VERIFY", True)  # every skipped check is run on a copy, which must not change
    assert render(digests(8)) == render(_plain_digests(8, monkeypatch))


def _plain_digests(games, monkeypatch):
    """Return the digests of the games played with every check run (no skipping)."""
    from runtime import unchanged

    monkeypatch.setattr(unchanged, "needs_checks", lambda s, key=None: True)
    return digests(games)


def test_a_detector_that_misses_changes_is_caught(monkeypatch):
    import pytest

    from runtime import unchanged

    monkeypatch.setattr(unchanged, "VERIFY", True)
    monkeypatch.setattr(unchanged, "board_key", lambda s: (s.turn,))  # planted: blind to all but the turn
    with pytest.raises(unchanged.MissedChange):
        digests(2)


def test_a_ruleset_context_is_reused_only_as_new():
    """done_with keeps a context no sentence wrote to, and rules_ctx hands it out again; one written to is
    dropped; under VERIFY (tests/conftest.py) a write its quick test misses is caught (a planted write)."""
    import pytest

    from runtime import ending
    from runtime.load import load_game

    s = load_game("simple_duel").empty_state(1)
    ctx = ending.rules_ctx(s, player=1)
    ending.done_with(s, ctx)
    assert s.spare is ctx and ending.rules_ctx(s) is ctx and (ctx.player, s.spare) == (-1, None)
    ctx.happened = True
    ending.done_with(s, ctx)
    assert s.spare is None and ending.rules_ctx(s) is not ctx
    planted = ending.rules_ctx(s)
    planted.params.append(3)  # no sentence of a ruleset writes this; the quick test does not look at it
    assert ending.VERIFY
    with pytest.raises(ending.KeptWritten):
        ending.done_with(s, planted)
