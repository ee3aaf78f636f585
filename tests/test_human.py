"""The person at the terminal (tools/human.py): `cardc play --human N` in a real pseudo-terminal (help, a number,
undo, a face-down card's text, grouped menus, quit, every ruleset), and the pieces in the process: stable
numbers, the reason lines, undo's determinism, what rules text a player may see."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pexpect
import pytest

from runtime import engine
from runtime.agents import RandomAgent
from tests.conftest import ROOT
from tools.human import GROUP_AT, PROMPT, History, HumanPlayer, Numbering, Quit, menu_name, visible_rules
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


def _lowest(numbering: Numbering, s, actions):
    """Return the action of the lowest number a menu shows."""
    numbers = numbering.number(s, menu_name(s), actions)
    return actions[numbers.index(min(numbers))]


def test_numbers_stay_with_their_action_while_it_is_offered():
    game, lists = _game("code_of_joker")
    for seed in (1, 2):
        s, numbering, chooser, last, moved = game.new_game(lists, seed), Numbering(), RandomAgent(seed), {}, 0
        while not engine.is_terminal(s):
            actions = engine.legal_actions(s)
            if s.decision["player"] == 0:
                menu, keys = menu_name(s), [f"{a[0]}:{a[1]}" for a in actions]
                numbers = numbering.number(s, menu, actions)
                assert len(set(numbers)) == len(numbers)
                before = last.get(menu, {})
                assert all(before[k][0] == n for k, n in zip(keys, numbers, strict=True) if k in before)
                moved += sum(before[k][1] != i for i, k in enumerate(keys) if k in before)
                free = sorted(set(range(1, len(numbers) + 1)) - {before[k][0] for k in keys if k in before})
                fresh = sorted(n for k, n in zip(keys, numbers, strict=True) if k not in before)
                assert fresh == free[:len(fresh)]  # new ones: the lowest free
                last[menu] = {k: (n, i) for i, (k, n) in enumerate(zip(keys, numbers, strict=True))}
            engine.apply_action(s, chooser.choose(s, actions))
        assert moved > 0  # actions did change place in the list: numbering by place would have moved them


def test_a_number_freed_and_an_action_back_again():
    game, lists = _game()
    s = game.new_game(lists, 3)
    actions, numbering = engine.legal_actions(s), Numbering()
    first = numbering.number(s, "m", actions)
    assert sorted(first) == list(range(1, len(actions) + 1))
    assert numbering.number(s, "m", actions[1:]) == first[1:]  # the others keep theirs
    assert numbering.number(s, "m", actions) == first  # it comes back to the lowest free: its own
    assert sorted(numbering.number(s, "other", actions[1:])) == list(range(1, len(actions)))  # another menu


def _decisions(ruleset: str, seed: int, options: dict | None = None):
    """Yield (state, actions) at every decision of a random game."""
    game, lists = _game(ruleset, options)
    s = game.new_game(lists, seed)
    agents = [RandomAgent(seed * 10 + p) for p in range(len(lists))]
    while not engine.is_terminal(s):
        actions = engine.legal_actions(s)
        yield s, actions
        engine.apply_action(s, agents[s.decision["player"]].choose(s, actions))


def test_a_target_asked_while_resolving_names_its_card_and_ability():
    seen = 0
    for s, _ in _decisions("simple_duel", 3):
        d = s.decision
        if d["kind"] == "target":
            ctx = next(c for c in [*s.resolving, *s.stack, *s.pending] if c.item == d["item"])
            name = s.cards[ctx.source].name
            assert ctx.ability[0] == "card" and ctx.ability[1] == name
            rules = s.game.cards[name].abilities[ctx.ability[2]].rules
            assert reason(s, d["player"]) == f"{name}'s target: {rules}"
            seen += 1
    assert seen


def test_every_decision_of_every_ruleset_says_why():
    kinds: dict[str, str] = {}
    for ruleset, options in (("simple_duel", None), ("code_of_joker", {"version": "v1"}), ("code_of_joker", None),
                             ("successor", None), ("war_vortex_night", None)):
        for s, _ in _decisions(ruleset, 2, options):
            why = reason(s, s.decision["player"])
            assert not why.startswith("a decision of the game") and "an ability asks" not in why, (ruleset, why)
            kinds.setdefault(s.decision["kind"], why)
    assert {"act", "stage", "target", "block"} <= set(kinds)


def test_the_rules_a_player_sees_include_their_face_down_cards_only():
    own = other = 0
    for seed in (1, 2, 3):
        for s, _ in _decisions("simple_duel", seed):
            for viewer in (0, 1):
                lines = visible_rules(s, viewer)
                for cid, c in enumerate(s.cards):
                    if not c.face_down or c.zone == "deck":
                        continue
                    named = [line for line in lines if line.startswith(f"{c.name}#{cid} ")]
                    if viewer == c.controller:
                        own += 1
                        assert named and "(face down, only you see it)" in named[0]
                    else:
                        other += 1
                        assert not any(f"#{cid}" in line for line in lines)
    assert own and other


def _undo_game(undo_at: int | None) -> tuple[list[str], bool]:
    """Play a game where P1 takes the lowest number, undoing once at their decision `undo_at`; return the log
    and whether the opponent's generator had moved since the decision undone to."""
    game, lists = _game()
    human = HumanPlayer(0, stdin=io.StringIO(), stdout=io.StringIO())
    agents, crossed, done = [human, RandomAgent(4 * 7919 + 1)], False, False
    s, history, asked = game.new_game(lists, 4), History(agents), 0
    while not engine.is_terminal(s):
        actions = engine.legal_actions(s)
        if s.decision["player"] == 1:
            engine.apply_action(s, agents[1].choose(s, actions))
            continue
        history.mark(s, 0)
        asked += 1
        if asked == undo_at and not done:
            crossed = history.marks[-2].rngs[1] != agents[1].rng.getstate()
            s, done = history.undo(0), True
            continue
        engine.apply_action(s, _lowest(human.numbering, s, actions))
    return s.log, crossed


def test_undo_goes_back_and_the_game_goes_on_exactly_as_before():
    straight, _ = _undo_game(None)
    crossed_any = False
    for undo_at in (2, 3, 5, 8):
        log, crossed = _undo_game(undo_at)
        assert log == straight, undo_at
        crossed_any |= crossed
    assert crossed_any  # some undo went back over the opponent's random choices (its generator restored)


def test_quit_and_undo_are_commands_and_undo_needs_a_decision_before():
    game, lists = _game()
    s = game.new_game(lists, 3)
    out = io.StringIO()
    human = HumanPlayer(s.decision["player"], stdin=io.StringIO("undo\nquit\n"), stdout=out)
    with pytest.raises(Quit):
        human.choose(s, engine.legal_actions(s))
    assert "nothing to undo: this is your first decision" in out.getvalue()
