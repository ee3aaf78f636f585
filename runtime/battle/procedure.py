"""The battle procedure (digest §6-§9, §12): turns, the action right, action processing, settlement, judges.

Public entry points: `new_battle(rules, parties, options)` and `run(battle)`. Nothing is chosen and
nothing is random: a battle is a function of the two parties and the options.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import Any

from runtime.battle import effects as fx
from runtime.battle import hooks
from runtime.battle.parties import SwordsmanSpec
from runtime.battle.right import executable, holders
from runtime.battle.rules import Rules
from runtime.battle.state import SIDES, Battle, Ctx, Fighter, Sword
from runtime.simultaneous import added

SKIP = "skip"
# A turn whose actions never run out (copies of 儀式剣 feeding reserve AP) ends the battle as a draw.
MAX_ACTIONS_PER_TURN = 2000


@dataclass
class Action:
    """One holder's action in a processing: steps 1-4 fill it, step 5 carries it out."""

    actor: Fighter
    sword: Sword | None = None
    kind: str = SKIP
    target: Any = None
    whole: bool = False
    subtarget: Sword | None = None


def new_battle(rules: Rules, parties: tuple[list[SwordsmanSpec], list[SwordsmanSpec]],
               options: dict[str, str] | None = None) -> Battle:
    """Return a battle at turn 0 between two parties (front first)."""
    s = Battle(rules, {**rules.ruleset.options, **(options or {})})
    for side, specs in enumerate(parties):
        for spec in specs:
            stats = {"max_hp": spec.max_hp, "atk": spec.atk, "def": spec.def_, "spd": spec.spd}
            s.parties[side].append(fx.make_fighter(s, spec.name, side, stats, spec.swords))
    return s


def run(s: Battle) -> Battle:
    """Play the battle to its end; return it with its log and result."""
    for side in (0, 1):
        for f in s.parties[side]:
            s.log.append(f"{SIDES[side]}{s.parties[side].index(f) + 1} {f.name}: " + _line(s, f))
    return run_turns(s)


def run_turns(s: Battle) -> Battle:
    """Play turns from where the battle stands until it ends; return it."""
    while not s.result:
        play_turn(s)
    return s


def _line(s: Battle, f: Fighter) -> str:
    v = f.values
    return f"{v['max_hp']}/{v['atk']}/{v['def']}/{v['spd']}/" + ", ".join(w.card for w in f.swords)


def play_turn(s: Battle) -> None:
    s.say("turn starts")
    action_count(s)
    if not s.turn_zero:
        s.say("states phase")
        hooks.states_phase(s)
        if settle(s):
            return
    _actions(s)
    if s.result:
        return
    if s.turn_zero:
        s.say("death judgment after turn 0")
        hooks.death_judgment(s)
        s.turn_zero = False
        if settle(s):
            return
    if s.turn >= s.defs.ruleset.last_turn:
        _judge(s, f"turn {s.turn} ends")
        return
    s.turn += 1


def action_count(s: Battle) -> None:
    """Give each swordsman AP equal to its SPD (Sleep replaces this) and, by option, unuse its swords."""
    each_turn = s.options.get("used_swords", "reset_each_turn") == "reset_each_turn"
    for f in s.fighters():
        # has_hook first: fire would find no state to trigger, and its context would be built for nothing
        if not (s.defs.has_hook(f, "get_ap") and hooks.fire(s, f, "get_ap", Ctx(holder=f))):
            f.values["ap"] = f.values["spd"]
        if each_turn or all(w.used for w in f.swords):
            for w in f.swords:
                w.used = False


# ---------------------------------------------------------------- one action processing


def _actions(s: Battle) -> None:
    for _ in range(MAX_ACTIONS_PER_TURN):
        if not act(s) or s.result:
            return
    s.say(f"{MAX_ACTIONS_PER_TURN} actions in one turn: the battle stops")
    _finish(s, "draw", "the action limit")


def act(s: Battle) -> bool:
    """Give the action right, process the holders' actions, settle (not in turn 0); return whether anyone acted."""
    who = holders(s)
    if not who:
        return False
    process(s, who)
    if not s.turn_zero:
        settle(s)
    if s.watch is not None:
        s.watch(s, "processed", None, None, "")
    return True


def process(s: Battle, who: list[Fighter]) -> None:
    """Steps 1-4 for every holder, then every effect by type priority and rank (§7.2, §7.4)."""
    s.actions += 1
    if len(who) == 1:  # most processings: one holder, nothing to order
        _carry_out(s, _prepare(s, who[0]))
        return
    # sorted by (priority, rank), so each group of equal ones is a run: groups in order, sides in order within
    for _key, run in groupby(_ranked(s, [_prepare(s, f) for f in who]), key=itemgetter(0)):
        group = [a for _k, _side, a in run]
        if len(group) == 1:
            _carry_out(s, group[0])
        else:
            _together(s, group)


def _ranked(s: Battle, actions: list[Action]) -> list[tuple[tuple[int, int], int, Action]]:
    """Return ((type priority, rank), side, action) for each action, in the order they are carried out."""
    rank_of = s.defs.type_rank
    ranked = []
    seen: dict[tuple[int, str], int] = {}  # (side, type) -> how many of its actions came before (the rank)
    for a in actions:
        rank = seen.get((a.actor.side, a.kind), 0)
        seen[(a.actor.side, a.kind)] = rank + 1
        ranked.append(((rank_of[a.kind], rank), a.actor.side, a))
    ranked.sort(key=itemgetter(0, 1))
    return ranked


def _numbers(s: Battle) -> dict[int, tuple[dict[str, int], dict[str, int]]]:
    """Return every swordsman's values and state counts, by id (what super-simultaneous actions merge)."""
    return {f.id: (dict(f.values), dict(f.states)) for f in s.fighters()}


def _restore(s: Battle, numbers: dict[int, tuple[dict[str, int], dict[str, int]]]) -> None:
    for f in s.fighters():
        if f.id in numbers:
            f.values, f.states = dict(numbers[f.id][0]), dict(numbers[f.id][1])


def _together(s: Battle, group: list[Action]) -> None:
    """Carry out super-simultaneous actions (equal type and rank in both parties, §7.4 item 4).

    Neither comes first, so each is carried out from the group's starting state: before each one
    the numbers (values, state counts, the turn) go back to where they started, and sword reads
    ('the first sword of X') see only swords that were there at the start. Afterwards every change
    adds up: a number ends at its start plus each action's change to it.
    """
    s.say("super-simultaneous: " + " and ".join(s.label(a.actor) for a in group))
    start, turn = _numbers(s), s.turn
    s.frozen_swords = {w.id for f in s.fighters() for w in f.swords}
    ends, turns = [], []
    for i, a in enumerate(group):
        if i:  # the first starts from the start already
            _restore(s, start)
        s.turn = turn
        _carry_out(s, a)
        ends.append(_numbers(s))
        turns.append(s.turn - turn)
    s.frozen_swords = None
    if s.turn != turn + sum(turns):
        s.turn = turn + sum(turns)
        s.say(f"  the changes add up: the turn number becomes {s.turn}")
    _merge(s, start, ends)


def _merge(s: Battle, start: dict, ends: list[dict]) -> None:
    """Set each number to its start plus the sum of every action's change; judge deaths no action saw."""
    for f in s.fighters():
        before = start.get(f.id)
        if before is None:  # built during the group: what happened to it stands
            continue
        mine = [e[f.id] for e in ends]
        # (count compares, as == does: every end is its own copy; no generator for each swordsman)
        if mine.count(before) == len(mine) and min(before[1].values(), default=0) >= 0:
            continue  # no action changed its numbers: they are their start already, and nobody died
        _merge_one(s, f, before, mine)


def _merge_one(s: Battle, f: Fighter, before: tuple, mine: list[tuple]) -> None:
    """Set f's numbers to their start plus each action's change to them; judge its death if no action saw it."""
    merged = [_summed(before[part], [m[part] for m in mine]) for part in (0, 1)]
    # Both actions may consume the same last stack of a state (two Reflects sending two attacks back):
    # each saw it, since neither came first, and a state count stops at 0.
    merged[1] = {k: max(0, count) for k, count in merged[1].items()}
    if merged[0] != f.values or merged[1] != f.states:
        s.say(f"  the changes add up: {s.label(f)} " + _changes(f, merged))
    f.values, f.states = merged
    if all(m[0]["hp"] > 0 for m in mine):
        hooks.check_death(s, f, before[0]["hp"])


def _summed(before: dict[str, int], ends: list[dict[str, int]]) -> dict[str, int]:
    """Return the numbers at their start plus every change (a copy of the start when nothing changed)."""
    return dict(before) if ends.count(before) == len(ends) else added(before, ends)


def _changes(f: Fighter, merged: list[dict[str, int]]) -> str:
    values = [f"{k} {v}" for k, v in merged[0].items() if f.values.get(k) != v]
    states = [f"{k} {v}" for k, v in merged[1].items() if f.states.get(k, 0) != v]
    return ", ".join(values + states)


def _prepare(s: Battle, f: Fighter) -> Action:
    """Steps 1-4: decide the sword (or a skip), the target and sub-target, then pay."""
    a = Action(f)
    if not (f.states and s.defs.has_hook(f, "act") and _skips(s, f)):  # most hold no state at all
        a.sword = _first_executable(s, f)
    if a.sword is not None:
        _decide_targets(s, a)
    _pay(s, a)
    return a


def _skips(s: Battle, f: Fighter) -> bool:
    """Return whether a state of f triggers at its action and makes it a skip (Stun)."""
    stunned = Ctx(holder=f, actor=f)
    return hooks.fire(s, f, "act", stunned) and stunned.skip


def _first_executable(s: Battle, f: Fighter) -> Sword | None:
    """Return the first sword f may execute now (None: a skip)."""
    for w in f.swords:
        if not w.used and executable(s, f, w):  # a used sword is passed over without asking
            return w
    return None


def _next_sword(f: Fighter, w: Sword) -> Sword | None:
    i = next(i for i, x in enumerate(f.swords) if x is w)
    return f.swords[i + 1] if i + 1 < len(f.swords) else None


def _decide_targets(s: Battle, a: Action) -> None:
    assert a.sword is not None
    card = s.defs.cards[a.sword.card]
    a.kind, traits = card.kind, s.defs.card_traits[a.sword.card]
    enchants = s.defs.enchants(a.sword)
    a.whole = bool(enchants) and any(ench.whole for ench, _c, _a in enchants)
    if a.whole and s.watch is not None:
        for ench, _c, _a in enchants:
            if ench.whole:
                s.watch(s, "enchantment", a.actor, a.sword, ench.name)
    if "targets the next sword" in traits:
        a.target = _next_sword(a.actor, a.sword)
    elif "targets allies" in traits and not a.whole:
        a.target = a.actor
    elif "targets enemies" in traits and not a.whole:
        a.target = _single_attack_target(s, a.actor)
    if card.subtarget:
        a.subtarget = _next_sword(a.actor, a.sword)


def _single_attack_target(s: Battle, actor: Fighter) -> Fighter | None:
    """Return the enemy front, or the front-most enemy whose state takes single attacks (Taunt)."""
    enemies = s.parties[1 - actor.side]
    for f in enemies:
        if f.states and s.defs.has_hook(f, "chosen"):  # most hold no state at all
            hook = Ctx(actor=actor)
            hooks.fire(s, f, "chosen", hook)
            return hook.redirect_to or (enemies[0] if enemies else None)
    return enemies[0] if enemies else None


def _pay(s: Battle, a: Action) -> None:
    f, w = a.actor, a.sword
    pool = "ap" if f.values["ap"] >= 1 else "reserve_ap"
    f.values[pool] = left = f.values[pool] - 1
    s.say(f"{s.label(f)} acts: {w.card if w else 'skip'} ({pool} {left + 1}→{left})")
    watch = s.watch
    if watch is not None:
        watch(s, "acts", f, w, w.card if w else "")
    if w is None:
        return
    w.used = True
    enchants = s.defs.enchants(w)
    for ench, _count, args in enchants:
        if ench.cost_value:
            f.values[ench.cost_value] -= ench.cost(s, Ctx(actor=f, sword=w, params=args))
            if watch is not None:
                watch(s, "enchantment", f, w, ench.name)
    vanishing = [ench for ench, _c, _a in enchants if ench.vanishes] if enchants else []
    if vanishing:
        f.swords = [x for x in f.swords if x is not w]
        s.say(f"  {w.card} vanishes")
        for ench in vanishing if watch is not None else ():
            watch(s, "enchantment", f, w, ench.name)


def _carry_out(s: Battle, a: Action) -> None:
    """Step 5: the effect, per target and per repeat, then the independent sentences (§8)."""
    if a.sword is None:
        return
    card = s.defs.cards[a.sword.card]
    traits = s.defs.card_traits[a.sword.card]
    targets: list[Any] = [a.target]
    if a.whole:
        targets = list(s.parties[1 - a.actor.side] if "targets enemies" in traits else s.parties[a.actor.side])
    needs = "targets the next sword" in traits and a.target is None or card.subtarget and a.subtarget is None
    if needs or _vanished(s, a):
        s.say(f"  {card.name} has nothing to act on")
        return
    ctx = Ctx(actor=a.actor, sword=a.sword, subtarget=a.subtarget)
    for target in targets:
        for _ in range(card.repeat):
            ctx.target, ctx.damage = target, 0
            card.each_target(s, ctx)
    card.afterwards(s, ctx)


def _vanished(s: Battle, a: Action) -> bool:
    """Return whether the target or sub-target is a sword no list holds any more (a swordsman or None: no)."""
    for x in (a.target, a.subtarget):
        if isinstance(x, Sword) and not fx.exists(s, x):
            return True
    return False


# ---------------------------------------------------------------- settlement and judges


def settle(s: Battle) -> bool:
    """Event settlement: the dead exit and the rows close up; return whether the battle ended (§6, §9)."""
    for party in s.parties:  # party A's first, then B's, front to back
        for f in list(party):  # a copy: the dead leave the party as they are found
            if f.values["hp"] <= 0:
                f.overkill = -f.hp
                s.say(f"{s.label(f)} exits (overkill {f.overkill})")
                s.parties[f.side].remove(f)
                s.exited[f.side].append(f)
    if not s.parties[0] or not s.parties[1] or s.turn > s.defs.ruleset.last_turn:
        _judge(s, "settlement")
    return bool(s.result)


def _total(fighters: list[Fighter], what: str) -> int:
    return sum(f.states.get(what, 0) if what[0].isupper() else getattr(f, what) for f in fighters)


def _judge(s: Battle, when: str) -> None:
    """Decide the result: annihilation, else the state counted first (Push), else overkill or HP (§9)."""
    empty = [not p for p in s.parties]
    first = s.defs.ruleset.judge_first
    if empty[0] != empty[1]:
        _finish(s, "B" if empty[0] else "A", "the other party is annihilated")
        return
    pool = s.exited if all(empty) else s.parties
    pushes = [_total(pool[i], first) for i in (0, 1)] if first else [0, 0]
    if pushes[0] != pushes[1]:
        _finish(s, "A" if pushes[0] > pushes[1] else "B", f"{first} {pushes[0]} to {pushes[1]}")
        return
    if all(empty):
        over = [_total(s.exited[i], "overkill") for i in (0, 1)]
        fewer = s.options.get("overkill", "fewer_wins") == "fewer_wins"
        better = (over[0] < over[1]) == fewer
        winner = "draw" if over[0] == over[1] else ("A" if better else "B")
        _finish(s, winner, f"overkill judge {over[0]} to {over[1]}")
        return
    hp = [_total(s.parties[i], "hp") for i in (0, 1)]
    winner = "draw" if hp[0] == hp[1] else ("A" if hp[0] > hp[1] else "B")
    _finish(s, winner, f"overturn judge: HP {hp[0]} to {hp[1]} after {when}")


def _finish(s: Battle, result: str, why: str) -> None:
    s.result = result
    s.say(f"result: {'a draw' if result == 'draw' else f'party {result} wins'} ({why})")
