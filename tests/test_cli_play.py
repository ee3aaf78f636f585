"""`cardc play`: full random games print a deterministic log; a human plays through the terminal."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys

from compiler.sheets import deck_rules, load_deck
from runtime import engine
from runtime.agents import RandomAgent, ScriptedAgent, ScriptError, play
from runtime.state import State
from tests.conftest import ROOT
from tools.human import HumanPlayer, Numbering, menu_name
from tools.play import deck_path, default_decks
from tools.scenario import discover, read_scenario


def _play(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tools", "play", "simple_duel", *args], cwd=ROOT,
                          input=stdin, capture_output=True, text=True, timeout=120)


def _cli_decks(game) -> list[list[str]]:
    """Return the decks `cardc play simple_duel` plays without --deck: the first two legal sample decks."""
    return [load_deck(deck_path(ROOT, "simple_duel", d), deck_rules(game))
            for d in default_decks(ROOT, game)]


def test_play_prints_a_full_game_and_is_deterministic(simple_duel):
    first, again, other = _play("--seed", "3"), _play("--seed", "3"), _play("--seed", "4")
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert lines[0].startswith("setup: P") and lines[0].endswith("goes first")
    s = simple_duel.new_game(_cli_decks(simple_duel), 3)  # the same game in this process: the log it prints
    play(s, [RandomAgent(3 * 7919 + p) for p in range(2)])
    assert lines == s.log and engine.is_terminal(s)
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
    agent = HumanPlayer(player, stdin=io.StringIO("x\n99\n?\n1\n"), stdout=out)
    actions = engine.legal_actions(s)
    assert agent.choose(s, actions) == actions[0]
    shown = out.getvalue()
    assert f"P{player + 1} (you)" in shown and "  1. " in shown
    assert shown.count("your choice> ") == 4 and "'99' is no action here" in shown
    hand = {s.cards[c].name for c in s.players[player].zones["hand"]}
    rules = [line.strip() for line in shown.split("\n") if line.strip().split("#")[0] in hand]
    assert rules and all(line.split(": ", 1)[1] == _rules(simple_duel.cards[line.split("#")[0]]) for line in rules)
    opponent = {s.cards[c].name for c in s.players[1 - player].zones["hand"]} - hand
    assert not any(line.strip().split("#")[0] in opponent for line in shown.split("\n"))


def _rules(cdef) -> str:
    return (cdef.rules or cdef.text).replace("\n", " ")


def _human_game(game, seed: int, answers: int) -> tuple[State, int, int, list[int]]:
    """Replay what `cardc play --seed N --human 1` plays when P1 answers the lowest number of each menu (its
    numbers are stable: tools/human.py) `answers` times: return the state where it stops, P1's prompts, P2's
    hand size at P1's first choice, and the numbers typed."""
    s = game.new_game(_cli_decks(game), seed)
    opponent, prompts, hand, typed, numbering = RandomAgent(seed * 7919 + 1), 0, -1, [], Numbering()
    while not engine.is_terminal(s) and prompts <= answers:
        actions = engine.legal_actions(s)
        choice = opponent.choose(s, actions) if s.decision["player"] == 1 else None
        if s.decision["player"] == 0:
            prompts += 1
            hand = len(s.players[1].zones["hand"]) if hand < 0 else hand
            if prompts > answers:
                break  # the prompt is shown, the input has ended
            numbers = numbering.number(s, menu_name(s), actions)
            typed.append(min(numbers))
            choice = actions[numbers.index(min(numbers))]
        engine.apply_action(s, choice)
    return s, prompts, hand, typed


def test_human_play_through_the_cli_hides_the_opponents_hand(simple_duel):
    answers = 400
    s, prompts, hand, typed = _human_game(simple_duel, 5, answers)
    result = _play("--seed", "5", "--human", "1", stdin="".join(f"{n}\n" for n in typed))
    finished = engine.is_terminal(s)
    assert result.returncode == (0 if finished else 1), result.stderr
    assert result.stderr == ("" if finished else "\ninput ended: the game is abandoned\n")
    assert result.stdout.count("your choice> ") == prompts and result.stdout.count("P1 (you)") == prompts
    assert f"hand: {hand} cards" in result.stdout  # the opponent's hand is a count, not its cards
    lines = result.stdout.replace("your choice> ", "your choice>\n").splitlines()  # the log goes on after a prompt
    assert [line for line in lines if line in set(s.log)] == s.log


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


def test_an_empty_deck_file_is_refused_located(tmp_path):
    deck = tmp_path / "EMPTY.deck"
    deck.write_text("# no card yet\n", encoding="utf-8")
    result = _play("--deck", str(deck))
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [f"{deck}:1:1: E201 the deck has 0 cards; it must have exactly 30",
                                          "    # no card yet", "    ^", "1 error"]


def test_rules_with_no_deck_size_refuse_an_empty_deck():
    from runtime.defs import RulesetDef

    class AnySize(RulesetDef):
        name = "any_size"  # deck_size 0: 'deck 0 cards', any size but 0

    game = engine.Game(AnySize(), {}, {}, {})
    assert game.check_deck([]) == ["the deck has 0 cards; it must have at least 1"]


def test_play_under_rules_with_no_deck_size_refuses_an_empty_deck_at_its_file(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(ROOT / "tests" / "rulesets" / "quick_duel", project)
    ruleset = project / "cards" / "quick_duel" / "ruleset.card"
    ruleset.write_text(ruleset.read_text(encoding="utf-8").replace("deck 30 cards", "deck 0 cards"), encoding="utf-8")
    deck = tmp_path / "empty.deck"
    deck.write_text("", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # run in the project, its own generated/ first on the path

    def cardc(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "tools", *args], cwd=project, env=env, capture_output=True,
                              text=True)

    assert cardc("build").returncode == 0
    result = cardc("play", "quick_duel", "--deck", str(deck))
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines()[0] == f"{deck}:1:1: E201 the deck has 0 cards; it must have at least 1"
    assert result.stderr.splitlines()[-1] == "1 error"  # one file for both players: reported once
