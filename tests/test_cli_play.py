"""`cardc play`: full random games print a deterministic log; a human plays through the terminal."""

from __future__ import annotations

import io
import subprocess
import sys

from runtime import engine
from runtime.agents import HumanAgent, RandomAgent, ScriptedAgent, ScriptError
from runtime.scenario import discover, read_scenario
from tests.conftest import ROOT


def _play(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "compiler", "play", "simple_duel", *args], cwd=ROOT,
                          input=stdin, capture_output=True, text=True, timeout=120)


def test_play_prints_a_full_game_and_is_deterministic():
    first, again, other = _play("--seed", "3"), _play("--seed", "3"), _play("--seed", "4")
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert lines[0].startswith("setup: P") and lines[0].endswith("goes first")
    assert lines[-1].endswith(" wins") or "draw" in lines[-1]
    assert first.stdout == again.stdout
    assert first.stdout != other.stdout


def test_play_with_a_bad_deck_reports_it_located(tmp_path):
    deck = tmp_path / "bad.deck"
    deck.write_text("29 Wickwing Moth\n1 Wickwing Mouth\n", encoding="utf-8")
    result = _play("--deck", str(deck))
    assert result.returncode == 1
    assert f"{deck}:2:3: E202 unknown card 'Wickwing Mouth'; did you mean 'Wickwing Moth'?" in result.stderr


def test_human_agent_shows_the_board_and_reads_a_choice(simple_duel, simple_duel_decks):
    s = simple_duel.new_game([simple_duel_decks[0], simple_duel_decks[1]], 2)
    player = s.decision["player"]
    out = io.StringIO()
    agent = HumanAgent(player, stdin=io.StringIO("x\n99\n1\n"), stdout=out)
    actions = engine.legal_actions(s)
    assert agent.choose(s, actions) == actions[0]
    shown = out.getvalue()
    assert f"P{player + 1} (you)" in shown and "  1. " in shown
    assert shown.count("your choice> ") == 3 and "type a number from 1 to" in shown


def test_human_play_through_the_cli_hides_the_opponents_hand():
    result = _play("--seed", "5", "--human", "1", stdin="1\n" * 400)
    assert result.returncode in (0, 1)
    assert "P1 (you)" in result.stdout and "your choice> " in result.stdout
    assert "hand: 5 cards" in result.stdout or "hand: 6 cards" in result.stdout


def test_scripted_agent_is_strict(simple_duel, simple_duel_decks):
    s = simple_duel.new_game([simple_duel_decks[0], simple_duel_decks[1]], 2)
    actions = engine.legal_actions(s)
    try:
        ScriptedAgent([]).choose(s, actions)
    except ScriptError as err:
        assert str(err).startswith("unscripted choice; the game offers: ")
    else:
        raise AssertionError("an unscripted choice must fail")
    try:
        ScriptedAgent(["stage No Such Card"]).choose(s, actions)
    except ScriptError as err:
        assert "'stage No Such Card' is not offered" in str(err)
    else:
        raise AssertionError("a choice that is not offered must fail")
    assert RandomAgent(1).choose(s, actions) in actions


def test_every_card_keyword_and_status_has_a_scenario(simple_duel):
    titles = {read_scenario(p).name for p in discover(ROOT, [])}
    names = set(simple_duel.cards) | set(simple_duel.keywords) | set(simple_duel.statuses)
    missing = sorted(n for n in names if f"CARD-{n}" not in titles and not any(n in t for t in titles))
    texts = "\n".join(p.read_text(encoding="utf-8") for p in discover(ROOT, []))
    missing = [n for n in missing if n not in texts]
    assert not missing, f"no scenario shows: {missing}"
