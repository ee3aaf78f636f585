"""The person at the terminal (tools/human.py): `cardc play --human N` in a real pseudo-terminal (help, a number,
undo, a face-down card's text, grouped menus, quit, every ruleset), and the pieces in the process: stable
numbers, the reason lines, undo's determinism, what rules text a player may see."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pexpect

from runtime import engine
from runtime.agents import RandomAgent
from tests.conftest import ROOT
from tools.human import GROUP_AT, PROMPT, History, HumanPlayer, Numbering, menu_name, visible_rules
from tools.play import deck_path, default_decks, read_entries
from tools.reasons import reason

CARDC = Path(sys.executable).parent / "cardc"  # the console script of the environment running the tests
MENU_LINE = re.compile(r"^  (\d+)\. (.+)$", re.M)
GROUP_LINE = re.compile(r"^  ([a-z])\. (.+)$", re.M)


class Terminal:
    """`cardc play ...` in a pseudo-terminal: each call sends a line and returns what is shown up to the next
    prompt (line ends as the terminal writes them turned back into newlines)."""

    def __init__(self, *args: str):
        self.child = pexpect.spawn(str(CARDC), ["play", *args], cwd=str(ROOT), encoding="utf-8", echo=False,
                                   timeout=120, dimensions=(60, 250))
        self.decision = ""
        self.screen = self._next()

    def _next(self) -> str:
        self.child.expect_exact([PROMPT, pexpect.EOF])
        shown = self.child.before.replace("\r\n", "\n")
        if "\nwhy: " in shown:  # a decision's screen: its menu is the one numbers answer (help, rules: not)
            self.decision = shown
        return shown

    def send(self, line: str) -> str:
        """Type a line; return the screen it brings."""
        self.child.sendline(line)
        self.screen = self._next()
        return self.screen

    def menu(self) -> dict[int, str]:
        """Return the numbered actions of the last decision's menu."""
        return {int(n): text for n, text in MENU_LINE.findall(self.decision.split("\nwhy: ")[1])}

    def groups(self) -> dict[str, list[int]]:
        """Return the numbers in each group of the last decision's grouped menu, by letter."""
        found = {}
        for letter, text in GROUP_LINE.findall(self.decision.split("\nwhy: ")[1]):
            inline = re.match(r"[^:]+: (\d+)\. ", text)  # a group of one action shows it: 'end: 12. end'
            listed = text.split("actions: ")[1].rstrip(")") if "actions: " in text else ""
            found[letter] = [int(inline.group(1))] if inline else [int(n) for n in listed.split(", ")]
        return found

    def lowest(self) -> str:
        """Return the lowest number the last menu shows, flat or in groups."""
        return str(min(list(self.menu()) + [n for ns in self.groups().values() for n in ns]))

    def quit(self) -> tuple[int, str]:
        """Type quit; return the exit status and what was shown after."""
        self.child.sendline("quit")
        self.child.expect(pexpect.EOF)
        rest = self.child.before
        self.child.close()
        return self.child.exitstatus, rest


def board(screen: str) -> str:
    """Return the board part of a screen: from its 'turn N' line to the end (reason and menu included)."""
    return screen[screen.index("\nturn ") + 1:] if "\nturn " in screen else screen[screen.index("turn "):]


def _game(ruleset: str = "simple_duel", options: dict | None = None):
    from runtime.load import load_game

    game = load_game(ruleset)
    game = game.with_options(options) if options else game
    return game, read_entries(game, [deck_path(ROOT, ruleset, d) for d in default_decks(ROOT, game)])


def _counter_seed(game, lists) -> int:
    """Return the first seed whose opening hand gives P1 a counter (a card staged face down)."""
    for seed in range(1, 200):
        s = game.new_game(lists, seed)
        if any(game.cards[s.cards[c].name].kind == "counter" for c in s.players[0].zones["hand"]):
            return seed
    raise AssertionError("no seed deals P1 a counter")


def test_a_game_at_a_terminal_help_undo_face_down_text_and_quit():
    game, lists = _game()
    seed = _counter_seed(game, lists)
    counters = {n for n, c in game.cards.items() if c.kind == "counter"}
    term = Terminal("simple_duel", "--seed", str(seed), "--human", "1")
    first = term.screen
    assert "P1 (you)" in first and "\nwhy: " in first and term.menu()
    helped = term.send("help")
    assert all(word in helped for word in ("undo", "quit", "rules", "NUMBER", "LETTER"))
    pick = term.lowest()
    second = term.send(pick)
    assert board(second) != board(first)
    undone = term.send("undo")
    assert "-- undone: back to P1's previous decision" in undone
    assert board(undone) == board(first)  # the same board, reason and numbers
    assert board(term.send(pick)) == board(second)  # and the same game goes on
    for _ in range(60):  # stage a counter when one is offered, else the lowest number, until one lies face down
        mine = board(term.screen).split("\nP2")[0]
        if "face down" in mine:
            break
        staged = [n for n, text in term.menu().items() if text.startswith("stage ") and text[6:].split("#")[0] in counters]
        term.send(str(staged[0]) if staged else term.lowest())
    mine = board(term.screen).split("\nP2")[0]
    hidden = re.findall(r"(\w[\w' ]*)#(\d+) \([^)]*face down", mine)
    assert hidden, "P1 never got a face-down counter"
    rules = term.send("rules")
    name, cid = hidden[0]
    line = f"  {name.strip()}#{cid} (face down, only you see it): "
    assert line + game.cards[name.strip()].rules.replace("\n", " ") in rules
    theirs = re.findall(r"face-down (?:\w+ )?card#(\d+)", board(term.decision))
    assert not any(f"#{c}" in rules for c in theirs)  # the opponent's face-down cards stay unnamed
    status, rest = term.quit()
    assert status == 0 and "P1 quit: the game is abandoned" in rest


def test_a_grouped_menu_at_a_terminal_opens_a_group_and_takes_a_number_from_it():
    term = Terminal("code_of_joker", "--seed", "1", "--human", "1")
    for _ in range(80):
        if "actions in groups" in term.screen:
            break
        term.send(term.lowest())
    assert "actions in groups" in term.screen, "no menu of more than 15 actions in 80 decisions"
    groups = term.groups()
    assert len(term.menu()) == 0 and len(groups) >= 2  # groups only: no long flat list
    assert sum(len(ns) for ns in groups.values()) > GROUP_AT
    letter, numbers = next((g, ns) for g, ns in groups.items() if len(ns) > 1)
    opened = term.send(letter)
    assert sorted(int(n) for n, _ in MENU_LINE.findall(opened)) == numbers
    assert "in groups" in term.send("back")
    before = board(term.decision)
    after = term.send(str(numbers[-1]))
    assert "is no action here" not in after and board(after) != before
    assert term.quit()[0] == 0


def _plays(*args: str, decisions: int = 30) -> tuple[int, str]:
    """Play `decisions` decisions (the lowest number each) of a game at a terminal, then quit; return the exit
    status and all that was shown."""
    term, shown = Terminal(*args), []
    for _ in range(decisions):
        shown.append(term.screen)
        if term.child.isalive() is False or "\nwhy: " not in term.screen:
            break
        term.send(term.lowest())
    shown.append(term.screen)
    if not term.child.isalive():
        term.child.close()
        return term.child.exitstatus, "".join(shown)
    status, rest = term.quit()
    return status, "".join(shown) + rest


def test_every_ruleset_plays_at_a_terminal_in_any_seat():
    for args in (("simple_duel", "--human", "2"), ("code_of_joker", "--rules", "v1", "--human", "2"),
                 ("code_of_joker", "--rules", "v2", "--human", "1"), ("successor", "--human", "2"),
                 ("war_vortex_night", "--human", "2"),
                 ("war_vortex_night", "dawnbreakers", "dusk_covenant", "emberguard", "skyrunners", "--human", "3")):
        status, shown = _plays(*args, "--seed", "2")
        seat = args[args.index("--human") + 1]
        assert status == 0, (args, shown[-2000:])
        assert "Traceback" not in shown and f"P{seat} (you)" in shown and "is no action here" not in shown
        assert shown.count("\nwhy: ") >= 3 and re.search(r"^T\d+ ", shown, re.M), args


def test_automatic_battles_refuse_a_human_with_a_message():
    child = pexpect.spawn(str(CARDC), ["play", "marguerite", "--human", "1"], cwd=str(ROOT), encoding="utf-8")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and "Traceback" not in child.before
    assert "marguerite plays automatic battles: no player makes a decision" in child.before


def test_a_seat_that_is_not_in_the_game_is_refused():
    child = pexpect.spawn(str(CARDC), ["play", "simple_duel", "--human", "3"], cwd=str(ROOT), encoding="utf-8")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and "--human 3: no such seat; the players are numbered 1 to 2" in child.before
