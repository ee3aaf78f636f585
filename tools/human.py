"""A person at the terminal plays a seat of `cardc play`: the board from their side, why a decision is asked,
stable numbers for the actions, grouped menus for many actions, the rules text of what they see, help,
undo (back to their previous decision, from a snapshot) and quit.
"""

from __future__ import annotations

import string
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TextIO

from runtime.agents import describe_action
from runtime.engine import Action
from runtime.state import State
from runtime.view import render_state
from tools.reasons import reason

if TYPE_CHECKING:  # the viewer imports the runtime's agents; only its type is needed here
    from tools.viewer import Recorder

GROUP_AT = 15  # more actions than this: the menu shows groups, opened by their letter
STOPS = ("end", "done", "pass", "no block", "no breakthrough", "stay", "end the effect", "keep", "no")
NOT_CARDS = ("face down", "square", "slot", "share", "yes", "mulligan", "go on")  # their value is no card id
PROMPT = "your choice> "
HELP = """commands:
  NUMBER      take the action of that number (numbers stay with their action while it is offered)
  TEXT        or type the action as the menu writes it: end, stage Cinder Hound#12
  LETTER      open a group of actions (menus of more than {at} actions are grouped); 'back' closes it
  rules, ?    the rules text of every card you can see, your own face-down cards included
  board, b    show the board again
  menu, m     show the actions again
  undo, u     go back to your previous decision (the game, its dice and the other players restored)
  quit, q     leave the game (the log so far stays printed; exit code 0)
  help, h     this help"""


class Undo(Exception):
    """The player asked to go back to their previous decision."""


class Quit(Exception):
    """The player asked to leave the game."""


def action_key(a: Action) -> str:
    """Return the identity of an action across decisions: its kind and its card or value ('stage:12')."""
    return f"{a[0]}:{a[1]}"


def card_of(s: State, a: Action) -> int | None:
    """Return the card an action names, or None (a stop, a square, a player, a face-down position)."""
    kind, x = a
    return x if kind not in STOPS + NOT_CARDS and 0 <= x < len(s.cards) else None


def _order(s: State, a: Action) -> tuple:
    """Return where a new action is numbered among new ones: stops last, then by kind, name and id."""
    cid = card_of(s, a)
    return (a[0] in STOPS, a[0], s.cards[cid].name if cid is not None else "", a[1])


@dataclass
class Numbering:
    """Stable action numbers: per menu (a decision's kind and what asks it), an action keeps its number while
    it stays offered there; a new action takes the lowest number free."""

    menus: dict[str, dict[str, int]] = field(default_factory=dict)

    def number(self, s: State, menu: str, actions: list[Action]) -> list[int]:
        """Return the number of each action (in the list's order), remembering them for the next menu."""
        keys = [action_key(a) for a in actions]
        kept = {k: n for k, n in self.menus.get(menu, {}).items() if k in keys}
        taken = set(kept.values())
        fresh = sorted((a for a in actions if action_key(a) not in kept), key=lambda a: _order(s, a))
        n = 1
        for a in fresh:
            while n in taken:
                n += 1
            kept[action_key(a)] = n
            taken.add(n)
        self.menus[menu] = kept
        return [kept[k] for k in keys]

    def copy(self) -> Numbering:
        """Return an independent copy (an undo restores it with the state)."""
        return Numbering({m: dict(t) for m, t in self.menus.items()})


def menu_name(s: State) -> str:
    """Return the menu a decision belongs to: its kind, and the ability or card that asks it."""
    d = s.decision or {}
    return f"{d.get('kind')}:{d.get('item', d.get('card', ''))}:{d.get('slot', '')}"


def group_of(s: State, a: Action, by_kind: bool) -> str:
    """Return the group an action is listed under: its kind, or (one kind only) the card's owner and zone."""
    if by_kind:
        return a[0]
    cid = card_of(s, a)
    if cid is None:
        return a[0] if a[0] in STOPS else "other"
    c = s.cards[cid]
    return f"P{c.controller + 1} {c.zone}"


def groups(s: State, actions: list[Action]) -> dict[str, list[int]]:
    """Return the indexes of the actions in each group, groups in order of their first action."""
    by_kind = len({a[0] for a in actions if a[0] not in STOPS}) > 1
    found: dict[str, list[int]] = {}
    for i, a in enumerate(actions):
        found.setdefault(group_of(s, a, by_kind), []).append(i)
    return found


def visible_rules(s: State, viewer: int) -> list[str]:
    """Return 'Name#id: rules text' for each card the viewer may see now: the open zones of all, their own
    hidden zones and face-down cards (marked), cards an open decision shows them; never others' secrets."""
    lines: dict[str, str] = {}
    for p, player in enumerate(s.players):
        for zone, cards in sorted(player.zones.items()):
            if zone == "deck" or ("hidden" in s.game.ruleset.zones.get(zone, ()) and p != viewer):
                continue
            for cid in cards:
                _add_rules(s, viewer, cid, lines)
    d = s.decision or {}
    for kind, x in ([tuple(c) for c in d["choices"]] if "choices" in d else []):
        if kind == "choose":  # a searcher sees the cards of the deck it searches
            _add_rules(s, viewer, x, lines)
    return [f"{name}: {text}" for name, text in sorted(lines.items())]


def _add_rules(s: State, viewer: int, cid: int, lines: dict[str, str]) -> None:
    """Add a card's rules text under its name, unless it is face down and not the viewer's."""
    c = s.cards[cid]
    if c.face_down and viewer not in (c.controller, c.owner):
        return
    cdef = s.game.cards[c.name]
    text = (cdef.rules or cdef.text).replace("\n", " ") or "(no rules text)"
    lines[f"{c.name}#{cid}" + (" (face down, only you see it)" if c.face_down else "")] = text


class HumanPlayer:
    """Asks a person at the terminal; raises Undo or Quit when they ask for it (the play loop handles both)."""

    def __init__(self, player: int, stdin: TextIO | None = None, stdout: TextIO | None = None,
                 can_undo: Callable[[int], bool] | None = None):
        # the streams are looked up per player: defaults bound at import would outlive a redirection
        self.player, self.stdin, self.stdout = player, stdin or sys.stdin, stdout or sys.stdout
        self.numbering = Numbering()
        self.can_undo = can_undo or (lambda player: False)

    def choose(self, s: State, actions: list[Action]) -> Action:
        """Return the action the person picks by its number."""
        numbers = self.numbering.number(s, menu_name(s), actions)
        by_number = dict(zip(numbers, actions, strict=True))
        self._say(render_state(s, viewer=self.player))
        self._say(f"why: {reason(s, self.player)}")
        self._menu(s, actions, numbers)
        while True:
            line = self._read().strip().lower()
            if line.isdigit() and int(line) in by_number:
                return by_number[int(line)]
            named = [a for a in actions if describe_action(s, a).lower() == line]
            if named:  # an action typed as the menu writes it: 'end', 'stage cinder hound#12'
                return named[0]
            if not self._command(s, line, actions, numbers):
                self._say(f"'{line}' is no action here: type one of the numbers shown, a group letter, or help")

    def _command(self, s: State, line: str, actions: list[Action], numbers: list[int]) -> bool:
        """Carry out a command other than a number; return False when the line is none."""
        found = self._groups(s, actions, numbers) if len(actions) > GROUP_AT else []
        letters = dict(zip(string.ascii_lowercase, (members for _, members in found), strict=False))
        if line in letters:
            self._say("\n".join(f"  {numbers[i]}. {describe_action(s, actions[i])}" for i in letters[line]))
            self._say("  (back: the whole menu)")
        elif line in ("back", "menu", "m", ""):
            self._menu(s, actions, numbers)
        elif line in ("rules", "?"):
            self._say("\n".join(f"  {t}" for t in visible_rules(s, self.player)) or "  (no card in sight)")
        elif line in ("board", "b"):
            self._say(render_state(s, viewer=self.player))
        elif line in ("help", "h"):
            self._say(HELP.format(at=GROUP_AT))
        elif line in ("undo", "u"):
            if self.can_undo(self.player):
                raise Undo()
            self._say("nothing to undo: this is your first decision")
        elif line in ("quit", "q", "exit"):
            raise Quit()
        else:
            return False
        return True

    def _menu(self, s: State, actions: list[Action], numbers: list[int]) -> None:
        """Show the actions by number; more than GROUP_AT of them as lettered groups (one-action groups inline)."""
        order = sorted(range(len(actions)), key=lambda i: numbers[i])
        if len(actions) <= GROUP_AT:
            self._say("\n".join(f"  {numbers[i]}. {describe_action(s, actions[i])}" for i in order))
            return
        self._say(f"{len(actions)} actions in groups: type a letter to open one (any number works at once)")
        for letter, (name, members) in zip(string.ascii_lowercase, self._groups(s, actions, numbers), strict=False):
            if len(members) == 1:
                i = members[0]
                self._say(f"  {letter}. {name}: {numbers[i]}. {describe_action(s, actions[i])}")
            else:
                shown = ", ".join(str(numbers[i]) for i in members)
                self._say(f"  {letter}. {name} ({len(members)} actions: {shown})")

    def _groups(self, s: State, actions: list[Action], numbers: list[int]) -> list[tuple[str, list[int]]]:
        """Return the groups of the menu, each its members by number, the groups by their lowest number."""
        found = [(name, sorted(members, key=lambda i: numbers[i])) for name, members in groups(s, actions).items()]
        return sorted(found, key=lambda g: numbers[g[1][0]])

    def _say(self, text: str) -> None:
        self.stdout.write(text + "\n")

    def _read(self) -> str:
        """Return the next line typed after the prompt; EOFError when the input has ended."""
        self.stdout.write(PROMPT)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise EOFError("no more input")
        return line


@dataclass
class Checkpoint:
    """A human's decision as it was asked: the state, the other agents' generators, the menus' numbers."""

    player: int
    state: State
    rngs: list
    numberings: list
    steps: int


class History:
    """The checkpoints of the humans' decisions in one game, for undo; the game's RNG is in each snapshot,
    the random agents' generators beside it, so that play goes on after an undo exactly as it would have."""

    def __init__(self, agents: list, recorder: Recorder | None = None):
        self.agents, self.recorder = agents, recorder
        self.marks: list[Checkpoint] = []
        for agent in agents:
            if isinstance(agent, HumanPlayer):
                agent.can_undo = self.can_undo

    def mark(self, s: State, player: int) -> None:
        """Remember the state at a human's decision, before it is asked."""
        rngs = [a.rng.getstate() if hasattr(a, "rng") else None for a in self.agents]
        numberings = [a.numbering.copy() if isinstance(a, HumanPlayer) else None for a in self.agents]
        steps = len(self.recorder.steps) if self.recorder is not None else 0
        self.marks.append(Checkpoint(player, s.snapshot(), rngs, numberings, steps))

    def can_undo(self, player: int) -> bool:
        """Return whether the player has a decision before the one asked now."""
        return any(m.player == player for m in self.marks[:-1])

    def undo(self, player: int) -> State:
        """Return the state of the player's previous decision, the agents and the recording set back with it."""
        self.marks.pop()  # the decision asked now
        while self.marks[-1].player != player:  # other humans' decisions after it are taken back too
            self.marks.pop()
        back = self.marks.pop()  # it is marked again when it is asked again
        for agent, rng, numbering in zip(self.agents, back.rngs, back.numberings, strict=True):
            if rng is not None:
                agent.rng.setstate(rng)
            if numbering is not None:
                agent.numbering = numbering
        if self.recorder is not None:
            del self.recorder.steps[back.steps:]
            self.recorder.shown = len(back.state.log)
        return back.state.snapshot()
