"""Agents that answer a game's decisions: random, scripted (scenarios), greedy, and a human."""

from __future__ import annotations

import random
import sys
from typing import Protocol, TextIO

from runtime import engine
from runtime import query as q
from runtime.engine import Action
from runtime.state import State
from runtime.view import render_state


def describe_action(s: State, a: Action) -> str:
    """Return how an action is written in logs and scenario scripts: 'stage Cinder Hound#12'."""
    kind, x = a
    if kind in ("yes", "no", "done", "mulligan", "keep"):
        return kind
    return f"{kind} {q.describe(s, x)}"


class Agent(Protocol):
    def choose(self, s: State, actions: list[Action]) -> Action: ...


class RandomAgent:
    """Chooses uniformly among legal actions with its own seeded generator."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, s: State, actions: list[Action]) -> Action:
        return actions[self.rng.randrange(len(actions))]


class GreedyAgent:
    """Makes sensible plays: stages the costliest affordable card, targets the opponent's strongest
    card (its own weakest when it must), and pays optional costs."""

    def choose(self, s: State, actions: list[Action]) -> Action:
        d = s.decision or {}
        me = d.get("player", 0)
        if d.get("kind") == "may":
            return ("yes", 0)
        if d.get("kind") == "stage":
            cards = [a for a in actions if a[0] == "stage"]
            return max(cards, key=lambda a: (q.stat(s, a[1], "cost"), -a[1])) if cards else actions[-1]
        if d.get("kind") == "target":
            return max(actions, key=lambda a: self._value(s, a, me))
        return actions[0]

    def _value(self, s: State, a: Action, me: int) -> tuple[int, int]:
        kind, x = a
        if kind == "done":
            return (-1000, 0)
        if q.is_player(x):
            return (50 if ~x != me else -50, 0)
        theirs = s.cards[x].controller != me
        power = q.stat(s, x, "power")
        return ((100 + power) if theirs else -power, -x)


class ScriptError(Exception):
    """A scripted agent was asked something its script does not answer."""


class ScriptedAgent:
    """Answers decisions from a list of choices written as action descriptions (or prefixes)."""

    def __init__(self, choices: list[str]):
        self.choices = list(choices)
        self.used = 0

    def choose(self, s: State, actions: list[Action]) -> Action:
        offered = [describe_action(s, a) for a in actions]
        if self.used >= len(self.choices):
            raise ScriptError(f"unscripted choice; the game offers: {', '.join(offered)}")
        want = self.choices[self.used]
        self.used += 1
        for a, text in zip(actions, offered, strict=True):
            if text == want or text.split("#")[0] == want:
                return a
        raise ScriptError(f"scripted choice '{want}' is not offered; the game offers: {', '.join(offered)}")


class HumanAgent:
    """Asks a person at the terminal, showing the board from their side and numbered actions."""

    def __init__(self, player: int, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout):
        self.player, self.stdin, self.stdout = player, stdin, stdout

    def choose(self, s: State, actions: list[Action]) -> Action:
        self.stdout.write(render_state(s, viewer=self.player) + "\n")
        for i, a in enumerate(actions, 1):
            self.stdout.write(f"  {i}. {describe_action(s, a)}\n")
        while True:
            self.stdout.write("your choice> ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                raise EOFError("no more input")
            if line.strip().isdigit() and 1 <= int(line) <= len(actions):
                return actions[int(line) - 1]
            self.stdout.write(f"type a number from 1 to {len(actions)}\n")


def play(s: State, agents: list[Agent], max_actions: int = 100_000) -> State:
    """Let the agents play the game to its end; return the final state."""
    while not engine.is_terminal(s):
        if s.actions_taken >= max_actions:
            raise RuntimeError(f"no end after {max_actions} actions")
        actions = engine.legal_actions(s)
        assert s.decision is not None
        engine.apply_action(s, agents[s.decision["player"]].choose(s, actions))
    return s
