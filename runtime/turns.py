"""Turn structure and turn procedures: phases and steps, the set phase, playing staged cards,
attacks, state-based checks and end conditions. Each task is a function of (state, task).
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from runtime import actors, elements, positions, resolve, simultaneous
from runtime import effects as fx
from runtime import query as q
from runtime.defs import Ability, Filter
from runtime.ending import check_losers, done_with, past_round_limit, rules_ctx
from runtime.state import CardState, Ctx, State, Tasks
from runtime.triggers import emit, find_item, order_key
from runtime.vocabulary import BATTLE_STEPS


def begin_turn(s: State, from_phase: str = "") -> None:
    """Start the next player's turn: push every phase, step and sentence of the turn as tasks.

    With from_phase (scenarios), the turn starts at that phase: earlier phases are skipped.
    """
    rs = s.game.ruleset
    if past_round_limit(s) or not _pass_the_turn(s):
        return
    s.turn += 1
    s.players[s.active].turns_taken += 1
    s.phase = s.step = ""
    whose = f"{q.describe(s, s.actor)} of P{s.active + 1} ({s.cards[s.actor].turns})" if rs.actor_turns \
        else f"P{s.active + 1} ({s.players[s.active].turns_taken})"
    s.say(f"turn {s.turn} begins: {whose}")
    _expire(s, lambda m: m[0] == "next" and m[1] == s.active)
    tasks: list[list] = [] if from_phase or rs.announces_turn_start else [["turn_start"]]
    names = [p.name for p in rs.phases]
    start = names.index(from_phase) if from_phase else 0
    for pi, phase in enumerate(rs.phases):
        if pi < start:
            continue
        tasks.append(["phase", pi])
        for si, (step, sentences) in enumerate(phase.steps):
            if step:
                tasks.append(["step", pi, si])
            tasks += [["rule", pi, si, k] for k in range(len(sentences))]
    tasks.append(["turn_end"])
    s.tasks.extend(reversed(tasks))


def _pass_the_turn(s: State) -> bool:
    """Give the coming turn to the next seat still in the game, or, where turns go to cards, to the next
    actor; False (the game is a draw) when no actor is left on the field."""
    if not s.game.ruleset.actor_turns:
        s.active = q.next_seat(s, s.active)
        return True
    actor = actors.next_actor(s)
    if actor is None:
        s.say("no one is left to take a turn: the game is a draw")
        s.result = [-1 if p in s.out else 0 for p in range(len(s.players))]
        return False
    s.actor, s.active = actor, s.cards[actor].controller
    s.own(actor).turns += 1
    return True


def _turn_start(s: State, task: list) -> None:
    emit(s, "turn_start", player=s.active)


def announce_turn(s: State, ctx: Ctx) -> None:
    """Procedure: 'at the start of ... turn' abilities trigger now."""
    emit(s, "turn_start", player=s.active)


def _phase(s: State, task: list) -> None:
    s.phase, s.step = s.game.ruleset.phases[task[1]].name, ""
    emit(s, "phase_start", player=s.active, phase=s.phase)


def _step(s: State, task: list) -> None:
    s.step = s.game.ruleset.phases[task[1]].steps[task[2]][0]


def _rule(s: State, task: list) -> None:
    rs, ctx = s.game.ruleset, rules_ctx(s)
    rs.phases[task[1]].steps[task[2]][1][task[3]](rs, s, ctx)
    done_with(s, ctx)


def _turn_end(s: State, task: list) -> None:
    s.phase, s.step = "turn end", ""
    emit(s, "turn_end", player=s.active)
    s.tasks.append(["expire"])
    s.tasks.extend(["rule_end", k] for k in reversed(range(len(s.game.ruleset.turn_end))))


def _rule_end(s: State, task: list) -> None:
    rs, ctx = s.game.ruleset, rules_ctx(s)
    rs.turn_end[task[1]](rs, s, ctx)
    done_with(s, ctx)


def _expire_task(s: State, task: list) -> None:
    # Only a card with a temporary change can have one due or counting down, and nothing here adds one: the
    # cards without any (most: the decks and hands) are found once and skipped.
    changed = _changed(s)
    _expire(s, lambda m: m[0] == "eot" and m[1] <= s.turn, changed)
    for cid in changed:
        if any(held[2] is not None and held[2][0] == "turns" for held in s.cards[cid].statuses):
            _count_turn(s, cid)
    for cid in changed:  # durations in its own turns: the card whose turn it is, or the turn player's cards
        c = s.cards[cid]
        if cid == s.actor or (s.actor < 0 and c.controller == s.active and c.zone == q.ACTIVE_ZONE):
            elements.count_down(s, cid)
    _expire(s, lambda m: m[0] == "own" and m[1] <= 0, changed)


def _changed(s: State) -> list[int]:
    """Return the ids of the cards with some temporary change (a mod, grant, flag or status), in order, but for
    the decks and hands, most cards: a change that expires is only put on a card on the field and goes when the
    card leaves it (invariant 'expiring changes'), and a lasting one there (a scenario's) has nothing due."""
    found = [cid for p in s.players for zone, ids in p.zones.items() if zone not in PLAIN_ZONES for cid in ids
             if (c := s.cards[cid]).mods or c.granted or c.flags or c.statuses]
    return sorted(found)


PLAIN_ZONES = frozenset(("deck", "hand"))  # where no card holds a change that expires


def _count_turn(s: State, cid: int) -> None:
    """Count down by one each status instance of a card that lasts some turns; remove those at 0."""
    c = s.own(cid)
    for held in c.statuses:
        if held[2] is not None and held[2][0] == "turns":
            held[2] = ["turns", held[2][1] - 1]
    if any(held[2] is not None and held[2][0] == "turns" and held[2][1] <= 0 for held in c.statuses):
        c.statuses[:] = [held for held in c.statuses if held[2] is None or held[2][0] != "turns" or held[2][1] > 0]
        s.touch()


def _expire(s: State, due, changed: list[int] | None = None) -> None:
    """Remove temporary changes whose expiry marker is due (of the cards `changed` lists: all that have any)."""
    for cid in _changed(s) if changed is None else changed:
        if has_due(s.cards[cid], due):
            c = s.own(cid)  # only a card with something due is written (and so copied if shared)
            c.mods[:] = [m for m in c.mods if m[2] is None or not due(m[2])]
            for table in (c.granted, c.flags):
                for k in [k for k, m in table.items() if m is not None and due(m)]:
                    del table[k]
            c.statuses[:] = [held for held in c.statuses if held[2] is None or not due(held[2])]
            s.touch()


def has_due(c: CardState, due) -> bool:
    """Return whether any temporary change of a card has a due expiry marker."""
    return (any(m[2] is not None and due(m[2]) for m in c.mods)
            or any(m is not None and due(m) for table in (c.granted, c.flags) for m in table.values())
            or any(held[2] is not None and due(held[2]) for held in c.statuses))


# ---------------------------------------------------------------- the set phase


def _committed(s: State, player: int) -> dict[str, int]:
    total: dict[str, int] = {}
    for cid in s.players[player].zones.get("staging", ()):
        for res, amount in s.game.cards[s.cards[cid].name].cost.items():
            total[res] = total.get(res, 0) + amount
    return total


def stageable(s: State, player: int) -> list[int]:
    """Return the hand cards a player can still stage: their cost fits the unstaged resources.

    Cards of a kind that responds are played only in response windows, never staged.
    """
    have, committed = s.players[player].resources, _committed(s, player)
    traits = s.game.ruleset.kind_traits
    return [cid for cid in s.players[player].zones["hand"]
            if "responds" not in traits.get(q.kind(s, cid), ())
            and all(have.get(r, 0) - committed.get(r, 0) >= n
                    for r, n in s.game.cards[s.cards[cid].name].cost.items())]


def perform_rolled(s: State, ctx: Ctx, count: int, sides: int) -> None:
    """Procedure: the actor rolls and performs its card of that face (runtime/actors.py)."""
    actors.perform_rolled(s, ctx, count, sides)


def normal_move(s: State, ctx: Ctx) -> None:
    """Procedure: the card whose turn it is may move one line forward or back (runtime/positions.py)."""
    s.tasks.append(["normal_move"])


def stage(s: State, ctx: Ctx) -> None:
    """Procedure: the turn player picks cards from the hand to use this turn."""
    s.tasks.append(["stage", ctx.controller])


def _stage_task(s: State, task: list) -> None:
    options = stageable(s, task[1])
    if options:
        s.ask(task, task[1], "stage", options, can_stop=True)
    else:
        s.say(f"P{task[1] + 1} ends the set phase")


def stage_card(s: State, player: int, cid: int) -> None:
    """Move a hand card to the right end of the staging zone (counters face down)."""
    fx.move(s, cid, "staging")
    traits = s.game.ruleset.kind_traits.get(q.kind(s, cid), ())
    s.own(cid).face_down = "face down" in traits
    shown = "a card face down" if s.cards[cid].face_down else q.describe(s, cid)
    s.say(f"P{player + 1} stages {shown}")


# ---------------------------------------------------------------- playing staged cards


def play_staged(s: State, ctx: Ctx, kinds: tuple[str, ...], order: tuple) -> None:
    """Procedure: play the turn player's staged cards of these kinds, in the given order."""
    staged = [cid for cid in s.players[ctx.controller].zones.get("staging", ()) if q.kind(s, cid) in kinds]
    staged.sort(key=lambda cid: order_key(s, order, cid, ctx.controller))
    s.tasks.extend(["play", cid] for cid in reversed(staged))


def _play(s: State, task: list) -> None:
    cid = task[1]
    c, cdef = s.cards[cid], s.game.cards[s.cards[task[1]].name]
    traits = s.game.ruleset.kind_traits.get(cdef.kind, ())
    effect = next((i for i, a in enumerate(cdef.abilities) if a.kind == "effect"), None)
    ctx = Ctx(cid, c.controller, ["card", cdef.name, effect if effect is not None else 0])
    res = s.players[c.controller].resources
    reason = ""
    if any(res.get(r, 0) < n for r, n in cdef.cost.items()):
        reason = "its cost cannot be paid"
    elif effect is not None and not resolve.has_targets(s, cdef.abilities[effect], ctx):
        reason = "it has no legal target"
    if reason:
        s.say(f"{q.shown(s, cid)} returns to the hand: {reason}")
        if effect is not None:
            s.notify("fizzled", ctx, reason)
        s.own(cid).face_down = False
        fx.move(s, cid, "hand")
        return
    paid = fx.pay_printed(s, c.controller, cdef.cost)
    s.say(f"P{c.controller + 1} plays {q.shown(s, cid)}, paying {paid}")
    if "enters the field" in traits:
        enter_field(s, cid, traits)
    else:
        cast(s, cid, ctx if effect is not None else None)


def cast(s: State, cid: int, ctx: Ctx | None, round_: list | None = None) -> None:
    """Put a played card's effect on the stack: targets now, then 'played' triggers, then (a response in an
    interruption window) a round of answers to it, then it resolves."""
    if ctx is None:
        s.tasks += [["spell_done", cid], ["emit", "played", cid]]
        return
    ctx.item, ctx.stamp = s.next_id(), s.tick()
    s.stack.append(ctx)
    s.notify("fired", ctx)
    s.tasks += [["spell_done", cid], ["resolve", ctx.item], *([round_] if round_ else []), ["emit", "played", cid],
                ["targets", ctx.item]]


def play_response(s: State, player: int, cid: int, item: int) -> None:
    """Play a card from the hand in the response window of a stack item; every player may respond again."""
    waiting = find_item(s, item)
    assert waiting is not None
    waiting.window = [(player + 1) % len(s.players), 0]
    cdef = s.game.cards[s.cards[cid].name]
    paid = fx.pay_printed(s, player, cdef.cost)
    fx.move(s, cid, "stack")
    s.say(f"P{player + 1} responds with {q.describe(s, cid)}, paying {paid}")
    effect = next((i for i, a in enumerate(cdef.abilities) if a.kind == "effect"), None)
    cast(s, cid, Ctx(cid, player, ["card", cdef.name, effect]) if effect is not None else None)


def enter_field(s: State, cid: int, traits: Collection[str], at: int | None = None) -> None:
    """Put a card onto the field as its kind says (face down, with attack restriction; on a grid, into the
    square `at`) and announce it."""
    face_down = s.cards[cid].face_down
    fx.move(s, cid, "field", at=at)
    s.own(cid).face_down = face_down
    entered(s, cid, traits)


def entered(s: State, cid: int, traits: Collection[str]) -> None:
    """Announce a card that has come onto the field: its attack restriction, 'is summoned' (or 'is placed')
    and 'enters the field'."""
    if "enters with attack restriction" in traits:
        s.own(cid).flags["restricted"] = None
    player, face_down = s.cards[cid].controller, s.cards[cid].face_down
    if not face_down:
        emit(s, "summoned" if "summoned" in traits else "placed", card=cid, player=player)
    emit(s, "entered", card=cid, player=player)


def _emit_task(s: State, task: list) -> None:
    emit(s, task[1], card=task[2], player=s.cards[task[2]].controller)


def _spell_done(s: State, task: list) -> None:
    if s.cards[task[1]].zone in ("staging", "stack"):
        fx.move(s, task[1], "graveyard")
        s.say(f"{q.describe(s, task[1])} goes to the graveyard")


# ---------------------------------------------------------------- battle


def attack_all(s: State, ab: Ability, ctx: Ctx, f: Filter, order: tuple) -> None:
    """Procedure: every card the filter means attacks, one at a time, in the given order."""
    attackers = q.select(s, ab, ctx, f)
    attackers.sort(key=lambda cid: order_key(s, order, cid, ctx.controller))
    s.tasks.extend(["attack", cid] for cid in reversed(attackers))


def _attack(s: State, task: list) -> None:
    cid = task[1]
    if s.cards[cid].zone != q.ACTIVE_ZONE or q.has_flag(s, cid, "cant_attack"):
        return
    defender = q.next_seat(s, s.cards[cid].controller)
    s.battle = {"attacker": cid, "blocker": -1, "defender": defender, "declared": False}
    s.say(f"{q.describe(s, cid)} attacks P{defender + 1}")
    s.tasks += [["battle_clear"]] + [[STEPS[step]] for step in reversed(s.game.ruleset.battle_steps)]
    emit(s, "attacks", card=cid, player=s.cards[cid].controller)


def _block(s: State, task: list) -> None:
    rs, cid = s.game.ruleset, s.battle["attacker"]
    s.battle["declared"] = True  # unless the defender is asked below
    if s.cards[cid].zone != q.ACTIVE_ZONE:
        return
    able = _able_blockers(s)
    if not able:
        _not_blocked(s)
        return
    if rs.blocker_side in ("chosen", "many"):
        s.battle["declared"] = False
        forced = [b for b in able if q.has_flag(s, b, "must_block")]
        s.ask(["choose_blocker"], s.battle["defender"], "block", forced or able, can_stop=not forced,
              stop="no block")
        return
    pick = min if rs.blocker_side == "left" else max
    declare_blocker(s, pick(able, key=lambda b: q.position(s, b)))


def _choose_blocker(s: State, task: list) -> None:
    """The defender answered (apply_action records the blocker); nothing left to do here."""


def declare_blocker(s: State, blocker: int | None) -> None:
    """Make a card the blocker of the attack under way (None: the defender does not block).
    Its events come after the abilities that waited for the block to be chosen."""
    cid = s.battle["attacker"]
    s.battle["declared"] = True
    if blocker is None:
        s.say(f"P{s.battle['defender'] + 1} does not block")
        _not_blocked(s)
        return
    first = s.battle["blocker"] < 0
    s.battle["blocker"] = blocker if first else s.battle["blocker"]
    s.say(f"{q.describe(s, blocker)} blocks {q.describe(s, cid)}")
    rests = s.game.ruleset.block_rests
    if rests is not None and not (rests and q.has_name(s, blocker, rests)):  # Sturdy: not rested (R-SU-61)
        fx.exhaust(s, rules_ctx(s), [blocker])
    if s.game.ruleset.blocker_side == "many":  # SU-7.2: several blockers, asked one at a time
        s.battle.setdefault("blockers", []).append(blocker)
        if ["more_blockers"] not in s.tasks:
            s.tasks.append(["more_blockers"])
    s.tasks.append(["block_events", blocker, first])


def _able_blockers(s: State) -> list[int]:
    """Return the cards that may block the attack under way: ready, able to block, not refused."""
    rs, cid = s.game.ruleset, s.battle["attacker"]
    if q.has_flag(s, cid, "unblockable") or rs.blocker is None:
        return []
    return [b for b in q.select(s, rs, rules_ctx(s), rs.blocker) if not q.has_flag(s, b, "cant_block")
            and "acted" not in s.cards[b].flags and not q.block_refused(s, cid, b)]


def _more_blockers(s: State, task: list) -> None:
    """Ask the defender for one more blocker, or 'done' (a Sturdy blocker stays ready but blocks once)."""
    able = [b for b in _able_blockers(s) if b not in s.battle.get("blockers", ())]
    if able and q.changeable(s, s.battle["attacker"]):
        s.ask(task, s.battle["defender"], "block", able, can_stop=True, stop="done")


def _not_blocked(s: State) -> None:
    """The attack goes unblocked: 'is not blocked' comes next, before battle damage, so what it sets
    off can still remove the attacker (battle damage checks that the attacker is on the field)."""
    s.tasks.append(["emit", "unblocked", s.battle["attacker"]])


def _block_events(s: State, task: list) -> None:
    blocker, cid = task[1], s.battle["attacker"]
    emit(s, "blocks", card=blocker, player=s.cards[blocker].controller)
    if len(task) < 3 or task[2]:  # the attack is blocked once, by its first blocker
        emit(s, "blocked", card=cid, player=s.cards[cid].controller)
        emit(s, "battled", card=cid, player=s.cards[cid].controller)
    emit(s, "battled", card=blocker, player=s.cards[blocker].controller)


def _battle_damage(s: State, task: list) -> None:
    rs, b = s.game.ruleset, s.battle
    if not q.changeable(s, b["attacker"]):  # gone, or destroyed and staying (R-SU-27): it deals no damage
        return
    # The attacker is the source of battle damage, so "when this deals damage" fires in combat.
    ctx = Ctx(b["attacker"], s.active, ["ruleset", rs.name, 0])
    if rs.blocker_side == "many" and b["blocker"] >= 0:
        _shared_damage(s, task, ctx)
        return
    if b["blocker"] < 0:
        rs.unblocked(s, ctx)
        emit(s, "attack_succeeded", player=s.cards[b["attacker"]].controller)
        emit(s, "attack_received", player=b["defender"])
    elif q.changeable(s, b["blocker"]):  # a blocker destroyed before: still blocked, nothing dealt (R-SU-28)
        battling = (b["attacker"], b["blocker"])
        if rs.win_stat:
            # What decides the winner is the (current) value each had when battle damage was dealt.
            b["dealt"] = [[c, s.cards[c].moves, q.stat(s, c, rs.win_stat)] for c in battling]
        _exchange(s, ctx, battling)
        if rs.win_stat:
            # Destruction by battle damage happens now, before any ability it sets off can remove a
            # card: a card removed by such an ability later was not destroyed by battle damage.
            check_state(s)
            b["destroyed"] = [c for c, moves, _ in b["dealt"] if s.cards[c].moves != moves]


def _shared_damage(s: State, task: list, ctx: Ctx) -> None:
    """Battle damage with several blockers (Successor §7.1 ①②): the attacker's power, less what Breakthrough
    sends past the blockers, shared among those still blocking by its controller; each blocker deals its own."""
    rs, b, attacker = s.game.ruleset, s.battle, s.battle["attacker"]
    left = [x for x in b["blockers"] if q.changeable(s, x)]  # a blocked attack stays blocked (SU-7.2)
    stat, step = rs.shared_power or (rs.damage_lowers, 1)
    power = q.stat(s, attacker, stat)
    excess = _breakthrough(s, task, left, power)
    if excess is None:
        return  # its controller is asked whether to break through
    shares, pool = b.setdefault("shares", []), power - excess
    if len(shares) < len(left) - 1:  # one blocker at a time; the last takes the rest
        given = sum(n for _, n in shares)
        s.ask(task, s.cards[attacker].controller, "share", list(range(0, pool - given + 1, step)),
              blocker=left[len(shares)])
        return
    if left and len(shares) < len(left):
        shares.append([left[-1], pool - sum(n for _, n in shares)])
    for blocker in left:
        b["blocker"] = blocker
        _exchange(s, ctx, (attacker, blocker))
    if excess:
        fx.deal_damage(s, ctx, [~b["defender"]], excess)


def _breakthrough(s: State, task: list, left: list[int], power: int) -> int | None:
    """Return what Breakthrough sends to the defending player (0 without it, or declined); None while its
    controller is asked (R-SU-30, R-SU-31: power strictly past the total stamina of the blockers left)."""
    rs, b, attacker = s.game.ruleset, s.battle, s.battle["attacker"]
    if rs.breakthrough is None:
        return 0
    keyword, _, total_stat = rs.breakthrough
    excess = power - sum(q.stat(s, x, total_stat) for x in left)
    if excess <= 0 or not q.has_name(s, attacker, keyword):
        return 0
    if "through" not in b:
        s.ask(task, s.cards[attacker].controller, "breakthrough", [attacker], can_stop=True, stop="no breakthrough")
        return None
    return excess if b["through"] else 0


def _exchange(s: State, ctx: Ctx, battling: tuple[int, int]) -> None:
    """Deal battle damage: at the same time, so while the ruleset's 'blocked' body runs both cards are
    read as they were when it began (a card's damage lowering its stat does not lower what it deals).
    Afterwards, a battling card that leaves is read as it was when it left (q.last_known)."""
    rs, b = s.game.ruleset, s.battle
    b["known"] = [[c, q.known_facts(s, c)] for c in battling]
    b["exchange"] = True
    try:
        rs.blocked(s, ctx)
    finally:
        b["exchange"] = False


def _battle_won(s: State, task: list) -> None:
    """After battle damage and its checks: the card that destroyed the other by battle damage with a
    higher value, and was not destroyed by it itself, wins (even if an ability removed it since)."""
    rs, b = s.game.ruleset, s.battle
    if not b.get("dealt"):
        return
    (a, _, a_value), (d, _, d_value) = b["dealt"]
    destroyed = set(b["destroyed"])
    if d in destroyed and a not in destroyed and a_value > d_value:
        b["winner"] = a
    elif a in destroyed and d not in destroyed and d_value > a_value:
        b["winner"] = d
    else:
        return
    s.say(f"{q.describe(s, b['winner'])} wins the battle")
    rs.won(s, Ctx(b["winner"], s.cards[b["winner"]].controller, ["ruleset", rs.name, 0]))


def _battle_end(s: State, task: list) -> None:
    b = s.battle
    s.tasks.append(["battle_over"])  # after the 'finishes a battle' abilities
    for cid in (b["attacker"], b["blocker"]):
        if cid >= 0 and s.cards[cid].zone == q.ACTIVE_ZONE:
            emit(s, "battle_ended", card=cid, player=s.cards[cid].controller)


def _battle_destroy(s: State, task: list) -> None:
    """The destroy step (Successor §7.1 ★破壊): the checks that wait for all processing run now."""
    rs = s.game.ruleset
    for check in rs.checks if rs.checks_deferred else ():
        check(rs, s, rules_ctx(s))


def _battle_leave(s: State, task: list) -> None:
    """The leave step (Successor §7.1 ★離脱): the destroyed cards still in their squares go."""
    s.battle["left"] = True
    fx.leave_destroyed(s)


def _battle_clear(s: State, task: list) -> None:
    s.battle = {}


def _stepped(step: str, run: Callable[[State, list], None]) -> Callable[[State, list], None]:
    """Return a battle step's task: while it runs, the battle is in that step (a quiet one opens no window)."""

    def task(s: State, t: list) -> None:
        if s.battle:
            s.battle["step"] = step
        run(s, t)
        if s.battle:
            s.battle["step"] = ""

    return task


def _battle_over(s: State, task: list) -> None:
    """Battle end, after its window: the winner's level up (and overclock), then 'wins a battle'."""
    rs, b = s.game.ruleset, s.battle
    rs.battle_end(s, rules_ctx(s))
    if rs.win_stat:
        if b.get("winner", -1) >= 0 and s.cards[b["winner"]].zone == q.ACTIVE_ZONE:
            s.tasks.append(["emit", "won_battle", b["winner"]])  # after the overclock abilities (R-COJ-091)
    s.battle = {}


# ---------------------------------------------------------------- checks and the end


def _settled(s: State) -> bool:
    """Return whether all processing has finished: nothing on the stack, pending, resolving or interrupted,
    and no battle still before its own leave step (its destroy step runs the waiting checks)."""
    held = bool(s.battle) and "leave" in s.game.ruleset.battle_steps and not s.battle.get("left")
    return not (s.stack or s.pending or s.resolving or held or fx.interrupted(s))


def check_state(s: State) -> bool:
    """Run the ruleset's state-based checks, then its lose rules; set the result if someone lost. Return
    whether the game is over."""
    rs = s.game.ruleset
    ctx = rules_ctx(s)
    for check in rs.checks if _settled(s) or not rs.checks_deferred else ():
        check(rs, s, ctx)
    if rs.unmet_face_down:
        actors.turn_unmet_face_down(s)
    if rs.collapse:
        positions.collapse(s)
    if rs.destroyed_stay and _settled(s):  # what the checks set off comes first
        fx.leave_destroyed(s)
    over = check_losers(s, ctx)  # the checks' context: a lose rule reads only whose turn it is and the player it sets
    done_with(s, ctx)
    return over


# ---------------------------------------------------------------- mulligans


def _mulligan_task(s: State, task: list) -> None:
    if task[2] < s.game.ruleset.mulligans:
        s.ask(task, task[1], "mulligan", [0], done=task[2])
    else:
        s.say(f"P{task[1] + 1} keeps their hand")


def mulligan(s: State, player: int, redraw: bool) -> None:
    """Keep the hand, or put it all back, shuffle, and draw a new one (the task asks again)."""
    if not redraw:
        s.tasks.pop()
        s.say(f"P{player + 1} keeps their hand")
        return
    s.tasks[-1][2] += 1
    for cid in list(s.players[player].zones["hand"]):
        fx.move(s, cid, "deck")
    s.own_rng().shuffle(s.players[player].zones["deck"])
    s.say(f"P{player + 1} redraws their hand ({s.tasks[-1][2]})")
    fx.draw(s, rules_ctx(s), [~player], s.game.ruleset.opening_hand)


# The battle steps a ruleset may declare ('steps: block, damage, ...'), and the task of each.
STEPS = dict(zip(BATTLE_STEPS, ("block", "battle_damage", "battle_won", "battle_end", "battle_destroy",
                                "battle_leave"), strict=True))

TASKS: Tasks = {
    "turn_start": _turn_start, "phase": _phase, "step": _step, "rule": _rule, "turn_end": _turn_end,
    "rule_end": _rule_end, "expire": _expire_task, "stage": _stage_task, "play": _play,
    "emit": _emit_task, "spell_done": _spell_done, "attack": _attack, "block": _stepped("block", _block),
    "battle_damage": _stepped("damage", _battle_damage), "battle_end": _stepped("end", _battle_end),
    "battle_won": _stepped("winner", _battle_won), "battle_destroy": _stepped("destroy", _battle_destroy),
    "battle_leave": _stepped("leave", _battle_leave), "battle_clear": _battle_clear, "mulligan": _mulligan_task,
    "choose_blocker": _choose_blocker, "battle_over": _battle_over,
    "block_events": _block_events, "normal_move": positions.offer_move, "more_blockers": _more_blockers,
    "targets": resolve.targets_task, "resolve": resolve.resolve_task, "at_will": resolve.at_will_task,
    "resolve_step": resolve.step_task, "resolved": resolve.resolved_task, "together": simultaneous.together_task,
}
