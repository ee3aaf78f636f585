"""Agents that answer a game's decisions: random, scripted (scenarios) and greedy (the person at the terminal
is tools/human.py: the tools layer)."""

from __future__ import annotations

import random
from typing import Protocol

from runtime import engine, grid, positions
from runtime import query as q
from runtime.engine import Action
from runtime.state import Ctx, State


def describe_action(s: State, a: Action) -> str:
    """Return how an action is written in logs and scenario scripts: 'stage Cinder Hound#12'."""
    kind, x = a
    if kind in ("yes", "no", "done", "mulligan", "keep", "end", "pass", "no block", "stay", "move back", "move forward",
                "go on", "end the effect"):
        return kind
    if kind == "face down":  # a card the chooser cannot see: only its place among the options (SU-8.2)
        return f"choose face-down card {x + 1} of {len((s.decision or {}).get('options', ()))}"
    if kind == "square":
        return f"square {grid.name(s, x)}"
    if kind == "slot":
        return f"slot {x + 1}"
    if kind == "share":
        return f"share {x}"
    if kind == "no breakthrough":
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
    """Makes sensible plays: stages or drives the costliest affordable card, attacks when the attack
    survives the best block, blocks when the block wins, targets the opponent's strongest card (its
    own weakest when it must), uses what it can, and pays optional costs."""

    def choose(self, s: State, actions: list[Action]) -> Action:
        d = s.decision or {}
        me, kind = d.get("player", 0), d.get("kind")
        if kind == "may":
            return ("yes", 0)
        if kind == "stage":
            cards = [a for a in actions if a[0] == "stage"]
            return max(cards, key=lambda a: (q.stat(s, a[1], "cost"), -a[1])) if cards else actions[-1]
        if kind in ("target", "choose"):  # a choice while resolving: the opponent's best, its own least
            return max(actions, key=lambda a: self._value(s, a, me))
        if kind == "act":
            return self._act(s, actions, me)
        if kind == "block":
            return self._block(s, actions, me)
        if kind == "onto":  # overdrive onto the weakest card; override onto the highest level
            return max(actions, key=lambda a: (q.stat(s, a[1], "level"), -_strength(s, a[1])))
        if kind == "mulligan":
            return ("keep", 0)
        if kind == "move":
            return max(actions, key=lambda a: (_reach_after(s, a), a[0] == "stay"))
        if kind == "square" and grid.on_grid(s):  # an empty square before one it would summon onto
            return min(actions, key=lambda a: (grid.occupant(s, me, a[1]) is not None, a[1]))
        return actions[0]

    def _act(self, s: State, actions: list[Action], me: int) -> Action:
        """Joker, override, drive or overdrive the strongest, attack if it is safe, set; then end."""
        by_kind: dict[str, list[Action]] = {}
        for a in actions:
            by_kind.setdefault(a[0], []).append(a)
        for kind in ("joker", "override", "overdrive", "drive"):
            if kind in by_kind:
                return max(by_kind[kind], key=lambda a: (_strength(s, a[1]), -a[1]))
        best_block = max((_strength(s, b) for b in _ready_foes(s, me)), default=-1)
        attacks = [a for a in by_kind.get("attack", []) if _strength(s, a[1]) > best_block]
        if attacks:
            return max(attacks, key=lambda a: (_strength(s, a[1]), -a[1]))
        sets = [a for a in by_kind.get("set", []) if q.kind(s, a[1]) not in ("unit", "evolution")]
        if sets:
            return sets[0]
        return ("end", 0) if ("end", 0) in actions else actions[-1]

    def _block(self, s: State, actions: list[Action], me: int) -> Action:
        attacker = s.battle.get("attacker", -1)
        power = _strength(s, attacker) if attacker >= 0 else 0
        winning = [a for a in actions if a[0] == "block" and _strength(s, a[1]) - s.cards[a[1]].damage > power]
        if winning:
            return min(winning, key=lambda a: (_strength(s, a[1]), a[1]))
        stop = next((a for a in actions if a[0] in ("no block", "done")), None)  # 'done': no more blockers
        if stop is not None and s.players[me].resources.get("life", 1) > 2:
            return stop
        return min(actions, key=lambda a: (_strength(s, a[1]) if a[0] == "block" else 10**9, a[1]))

    def _value(self, s: State, a: Action, me: int) -> tuple[int, int]:
        kind, x = a
        if kind == "done":
            return (-1000, 0)
        if kind == "face down":  # unseen: the first
            return (0, -x)
        if q.is_player(x):
            return (50 if ~x != me else -50, 0)
        theirs = s.cards[x].controller != me
        power = _strength(s, x)
        if theirs and s.game.ruleset.lines:  # a battle of characters: the foe nearest to retiring first
            return (100 - power, -x)
        return ((100 + power) if theirs else -power, -x)


def _reach_after(s: State, move: Action) -> int:
    """Return how many (card of its table that hurts, foe it reaches) pairs the actor has after a normal
    move ('stay' included), the lines collapsed, on a copy of the state."""
    kind, actor = move
    t = s.snapshot()
    if kind != "stay":
        positions.step(t, actor, 1, kind.split()[1])
        positions.collapse(t)
    me = t.cards[actor].controller
    foes = [c for p, player in enumerate(t.players) if p != me for c in player.zones.get(q.ACTIVE_ZONE, ())]
    pairs = 0
    for card in t.cards[actor].attached:
        cdef = t.game.cards[t.cards[card].name]
        for i, ab in enumerate(cdef.abilities):
            if ab.kind == "effect" and ab.hurts:
                ctx = Ctx(card, me, ["card", cdef.name, i])
                pairs += sum(positions.shortfall(t, ab, ctx, foe) == 0 for foe in foes)
    return pairs


def _strength(s: State, cid: int) -> int:
    """Return a card's first ruleset stat (power, BP): what the greedy agent compares."""
    stats = s.game.ruleset.stats
    return q.stat(s, cid, stats[0]) if stats else 0


def _ready_foes(s: State, me: int) -> list[int]:
    """Return the opponent's cards on the field that could block now."""
    return [c for p, player in enumerate(s.players) if p != me for c in player.zones.get(q.ACTIVE_ZONE, ())
            if "acted" not in s.cards[c].flags]


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


def play(s: State, agents: list[Agent], max_actions: int = 100_000) -> State:
    """Let the agents play the game to its end; return the final state."""
    while not engine.is_terminal(s):
        if s.actions_taken >= max_actions:
            raise RuntimeError(f"no end after {max_actions} actions")
        actions = engine.legal_actions(s)
        assert s.decision is not None
        engine.apply_action(s, agents[s.decision["player"]].choose(s, actions))
    return s
