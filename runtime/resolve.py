"""Choosing targets and resolving a stack item: 'you may' answers, target re-checks, effects.

Targets named before any cost sentence are chosen when the item goes on the stack; a 'you may'
is answered when resolution begins; the engine (never card code) re-checks every target then.
"""

from __future__ import annotations

from runtime import choices, positions
from runtime import effects as fx
from runtime import query as q
from runtime.defs import Ability, TargetSpec
from runtime.ending import GameOver
from runtime.state import CardState, Ctx, State, copy_of
from runtime.triggers import announce, emit, find_item


def candidates(s: State, ab: Ability, ctx: Ctx, spec: TargetSpec) -> list[int]:
    """Return the objects a target slot may legally name now."""
    lines = s.game.ruleset.lines  # no lines: no distances to test (the common case, kept cheap)
    return [x for x in q.select(s, ab, ctx, spec.filter)
            if q.is_player(x) or (q.targetable(s, ctx, x) and (not lines or positions.in_range(s, ab, ctx, x)))]


def has_targets(s: State, ab: Ability, ctx: Ctx) -> bool:
    """Return whether every mandatory target slot has at least one legal choice."""
    return all(spec.up_to or candidates(s, ab, ctx, spec) for spec in ab.targets)


def targets_task(s: State, task: list) -> None:
    ctx = find_item(s, task[1])
    if ctx is None:
        return
    if ("priority", ()) in s.game.ruleset.trigger_order and not _its_turn(s, ctx):
        return
    _choose(s, task, ctx, s.game.ability(ctx.ability), at_resolution=False)


def _its_turn(s: State, ctx: Ctx) -> bool:
    """Priority levels: return whether an ability activates now that its turn has come (announcing it
    once); if it cannot, say why and take it off the stack."""
    set_card = s.cards[ctx.source].zone == s.game.ruleset.set_zone and ctx.used is None
    reason = _unusable(s, ctx, set_card, at_will=False)
    if reason:
        s.say(f"{q.shown(s, ctx.source)} {reason}")
        s.stack.remove(ctx)
        s.notify("fizzled", ctx, reason)
        return False
    if ctx.used is None:  # announced once, even if its targets take a decision
        announce(s, ctx)
        ctx.used = True
    return True


def changes_board(s: State, ab: Ability, ctx: Ctx) -> bool:
    """Return whether some legal use of a set card's ability would change the board (§7.4): it is
    tried on a copy of the state with each candidate of its first target slot."""
    if not has_targets(s, ab, ctx):
        return False
    first = candidates(s, ab, ctx, ab.targets[0]) if ab.targets else [None]
    for choice in first or [None]:
        copy = s.snapshot()
        trial = Ctx(**copy_of(ctx))
        trial.targets = [[[x, -1 if q.is_player(x) else s.cards[x].moves]] if x is not None else []
                         for x in [choice] + [_any(s, ab, ctx, spec) for spec in ab.targets[1:]]]
        try:
            resolve_now(copy, ab, trial)
        except GameOver:
            return True
        if _board_moved(copy, s):
            return True
    return False


def _any(s: State, ab: Ability, ctx: Ctx, spec: TargetSpec) -> int | None:
    found = candidates(s, ab, ctx, spec)
    return found[0] if found else None


def _board_moved(trial: State, s: State) -> bool:
    """Return whether a trial on a snapshot of s changed what a use of an ability can change: players'
    resources and zones, and the cards. A card record the trial never wrote is still the one s holds
    (State.own copies a shared record before its first write), so only the records it copied are compared."""
    if len(trial.cards) != len(s.cards):
        return True
    if [(p.resources, p.zones) for p in trial.players] != [(p.resources, p.zones) for p in s.players]:
        return True
    return any(a is not b and _card_facts(a) != _card_facts(b) for a, b in zip(trial.cards, s.cards, strict=True))


def _card_facts(c: CardState) -> tuple:
    """Return what a use of an ability can change of a card."""
    return c.zone, c.controller, c.damage, c.mods, c.statuses, c.granted, c.flags, c.level, c.face_down


def usable(s: State, ctx: Ctx) -> bool:
    """Return whether a card used at will can be used (its targets are checked before): its cost can be
    paid, and a card of its matching attribute is on its controller's field (unless it is colourless)."""
    rs, cdef = s.game.ruleset, s.game.cards[s.cards[ctx.source].name]
    if any(s.players[ctx.controller].resources.get(r, 0) < n for r, n in cdef.cost.items()):
        return False
    mine = cdef.attributes.get(rs.matching_attribute, "colourless")
    field = s.players[ctx.controller].zones[q.ACTIVE_ZONE]
    if mine != "colourless" and not any(
            s.game.cards[s.cards[u].name].attributes.get(rs.matching_attribute) == mine for u in field):
        return False
    return True


def at_will_task(s: State, task: list) -> None:
    """Priority level 3 (§11): the players alternate, the turn player first; each in turn uses one of
    their usable cards (paying its cost) or passes; two passes in a row end the level."""
    _, k, passes, items = task
    if k == 0 and passes == 0:  # the level begins: say which cards cannot be used (they stay set)
        for waiting in [c for c in (find_item(s, i) for i in items) if c is not None]:
            reason = _unusable(s, waiting)
            if reason:
                s.say(f"{q.shown(s, waiting.source)} {reason}")
                s.stack.remove(waiting)
                s.notify("fizzled", waiting, reason)
                items = [i for i in items if i != waiting.item]
        task[3] = items
    if passes >= 2 or not items:
        for left in [c for c in (find_item(s, i) for i in items) if c is not None]:
            s.stack.remove(left)  # what nobody used stays set
            s.notify("fizzled", left, "nobody used it")
        return
    player = (s.active + k) % len(s.players)
    mine = [ctx for ctx in (find_item(s, i) for i in items) if ctx is not None and ctx.controller == player
            and not _unusable(s, ctx)]
    if not mine:
        s.tasks.append(["at_will", k + 1, passes + 1, items])
        return
    s.ask(task, player, "use", [ctx.source for ctx in mine], can_stop=True, stop="pass")


def _unusable(s: State, ctx: Ctx, set_card: bool = True, at_will: bool = True) -> str:
    """Return why an ability cannot activate when its turn comes (§13), or '' if it can: its source
    left (unless the event is its own leaving) or its condition fails; a set card also needs a legal
    target and a use that changes the board (§7.4), and one used at will its colour and cost (§3.4)."""
    ab, c = s.game.ability(ctx.ability), s.cards[ctx.source]
    own_exit = ctx.event.get("card") == ctx.source and ctx.event.get("name") in ("destroyed", "left")
    if c.moves != ctx.event.get("moves", c.moves) and not own_exit:
        return "has left before its turn; it does not activate"
    if ab.has_condition and not ab.condition(s, ctx):
        return "its condition does not hold when its turn comes; it does not activate"
    if not set_card:
        return ""
    if not has_targets(s, ab, ctx):
        return "has no legal target; it cannot be used"
    if at_will and not usable(s, ctx):
        return "cannot be used now"
    return "" if changes_board(s, ab, ctx) else "would have no effect; it cannot be used"


def use(s: State, player: int, cid: int | None) -> None:
    """Record a choice at level 3: use a card (paying its cost; it resolves now) or pass."""
    _, k, passes, items = s.tasks.pop()
    chosen = [i for i in items if (ctx := find_item(s, i)) is not None and ctx.source == cid]
    if cid is None or not chosen:
        s.say(f"P{player + 1} passes")
        s.tasks.append(["at_will", k + 1, passes + 1, items])
        return
    ctx = find_item(s, chosen[0])
    assert ctx is not None
    ctx.used = True
    paid = fx.pay_printed(s, player, s.game.cards[s.cards[cid].name].cost)
    s.say(f"P{player + 1} uses {q.describe(s, cid)}, paying {paid}")
    s.tasks.append(["at_will", k + 1, 0, [i for i in items if i != ctx.item]])
    s.tasks += [["resolve", ctx.item], ["targets", ctx.item]]


def _choose(s: State, task: list, ctx: Ctx, ab: Ability, at_resolution: bool, step: int = -1) -> bool:
    """Ask for the next missing target; return True when every slot of this timing is filled (a step's
    Pattern B slots when step >= 0: one with no legal choice skips its part)."""
    while len(ctx.targets) < len(ab.targets):
        ctx.targets.append([])
    for slot, spec in enumerate(ab.targets):
        chosen = ctx.targets[slot]
        if spec.step != step or (step < 0 and spec.at_resolution != at_resolution):
            continue
        if len(chosen) >= spec.count or _stopped(chosen):
            continue
        taken = {x for x, _ in chosen}
        if spec.distinct:  # 'another target': none chosen by an earlier slot of this ability
            taken |= {x for earlier in ctx.targets[:slot] for x, _ in earlier}
        options = [x for x in candidates(s, ab, ctx, spec) if x not in taken]
        if not options:
            if not chosen and not spec.up_to and (step >= 0 or s.game.ruleset.skip_missing_targets):
                s.say(f"{q.shown(s, ctx.source)}: no legal target; that part is skipped")
                chosen.append([None, 0])
            elif not chosen and not spec.up_to:
                s.say(f"{q.shown(s, ctx.source)}: no legal target; the ability is removed")
                s.stack.remove(ctx)
                s.notify("fizzled", ctx, "it had no legal target")
                return False
            continue
        if len(options) <= spec.count - len(chosen) and not spec.up_to:
            for x in options:
                chosen.append([x, -1 if q.is_player(x) else s.cards[x].moves])
                where = positions.distance_note(s, ctx, x)
                s.say(f"{q.shown(s, ctx.source)} targets {q.describe(s, x)}{where}")
                targeted(s, x)
            continue
        s.ask(task, ctx.controller, "target", options, item=ctx.item, slot=slot, can_stop=spec.up_to)
        return False
    return True


def targeted(s: State, x: int) -> None:
    """Tell a card's abilities that it was chosen as a target ('when this is targeted')."""
    if not q.is_player(x):
        emit(s, "targeted", card=x, player=s.cards[x].controller)


def _stopped(chosen: list) -> bool:
    return any(x is None for x, _ in chosen)


def _recheck(s: State, ab: Ability, ctx: Ctx) -> bool:
    """Drop targets that are no longer legal; return False if the ability had targets and lost all."""
    had_any = False
    for slot, spec in enumerate(ab.targets):
        chosen = [pair for pair in ctx.targets[slot] if pair[0] is not None]
        had_any = had_any or bool(chosen)
        legal = set(candidates(s, ab, ctx, spec))
        ctx.targets[slot] = [[x, m] for x, m in chosen
                             if x in legal and (q.is_player(x) or s.cards[x].moves == m)]
    return not had_any or any(ctx.targets)


def resolve_task(s: State, task: list) -> None:
    ctx = find_item(s, task[1])
    if ctx is None:
        return
    ab = s.game.ability(ctx.ability)
    if not _source_present(s, ab, ctx):
        s.say(f"{q.shown(s, ctx.source)} has left the field; its ability is lost")
        s.stack.remove(ctx)
        s.notify("fizzled", ctx, "its source left the field")
        return
    if not _window(s, task, ctx):
        return
    if not _answer_mays(s, task, ctx, ab) or not _choose(s, task, ctx, ab, at_resolution=True):
        return
    s.stack.remove(ctx)
    if not _recheck(s, ab, ctx):
        s.say(f"{q.shown(s, ctx.source)}: every target is gone; the ability fizzles")
        s.notify("fizzled", ctx, "every target was gone")
        return
    if ab.has_condition and not ab.condition(s, ctx):
        s.say(f"{q.shown(s, ctx.source)}: the condition no longer holds")
        s.notify("fizzled", ctx, "its condition no longer held")
        return
    if ab.hurts:  # the anti-stalemate rule: targets past the range, and by how much (positions.shortfall)
        ctx.far = [[x, k] for slot in ctx.targets for x, _ in slot if not q.is_player(x)
                   and (k := positions.shortfall(s, ab, ctx, x) or 0) > 0]
    if s.game.ruleset.flash_time and q.kind(s, ctx.source) == s.game.ruleset.flash_time:
        s.tasks.append(["flash_time"])  # once it has resolved (its steps come first)
    _resolve(s, ab, ctx)


def flash_time_task(s: State, task: list) -> None:
    """A flash has resolved with its target there: flash time, in which every window under way offers only
    flashes (runtime/windows.py)."""
    windows = [t for t in s.tasks if t[0] == "window"]
    if windows and any(t[3] != "flash" for t in windows):
        s.say("flash time begins")
    for t in windows:
        t[3] = "flash"


def responses(s: State, player: int) -> list[int]:
    """Return the hand cards a player could play in a response window now (none: a player who left)."""
    rs = s.game.ruleset
    out: list[int] = []
    if player in s.out:
        return out
    for cid in s.players[player].zones["hand"]:
        cdef = s.game.cards[s.cards[cid].name]
        if "responds" not in rs.kind_traits.get(cdef.kind, ()):
            continue
        if any(s.players[player].resources.get(r, 0) < n for r, n in cdef.cost.items()):
            continue
        effect = next((a for a in cdef.abilities if a.kind == "effect"), None)
        if effect is None or has_targets(s, effect, Ctx(cid, player, ["card", cdef.name, 0])):
            out.append(cid)
    return out


def _window(s: State, task: list, ctx: Ctx) -> bool:
    """Offer each player in turn a response before an item resolves; True once all passed in a row.

    The window opens with the opponent of the item's controller. A player with nothing to play
    passes without being asked; after a response, every player must pass again.
    """
    rs = s.game.ruleset
    if rs.interruptible or not any("responds" in traits for traits in rs.kind_traits.values()):
        return True  # responses only in the windows of interruptible procedures (runtime/windows.py)
    n = len(s.players)
    if not ctx.window:
        ctx.window = [(ctx.controller + 1) % n, 0]
    while ctx.window[1] < n:
        player = ctx.window[0]
        options = responses(s, player)
        if options:
            s.ask(task, player, "respond", options, item=ctx.item, can_stop=True)
            return False
        ctx.window = [(player + 1) % n, ctx.window[1] + 1]
    return True


def pass_response(s: State, player: int, item: int) -> None:
    """Record that a player let the top item resolve without responding."""
    ctx = find_item(s, item)
    assert ctx is not None
    ctx.window = [(player + 1) % len(s.players), ctx.window[1] + 1]
    s.say(f"P{player + 1} passes")


def _source_present(s: State, ab: Ability, ctx: Ctx) -> bool:
    """Return False for a face-down card's trigger whose card already left (it fires once)."""
    if ab.kind != "triggered" or ctx.ability[0] != "card":
        return True
    traits = s.game.ruleset.kind_traits.get(q.kind(s, ctx.source), ())
    return "to graveyard after trigger" not in traits or q.working(s, ctx.source)


def _answer_mays(s: State, task: list, ctx: Ctx, ab: Ability) -> bool:
    """Ask the next unanswered 'you may'; return True when all are answered."""
    while len(ctx.answers) < len(ab.mays):
        ctx.answers.append(None)
    for may in ab.mays:
        if ctx.answers[may.index] is not None:
            continue
        if may.payable is not None and not may.payable(ab, s, ctx):
            ctx.answers[may.index] = False
            s.say(f"{q.shown(s, ctx.source)}: the optional cost cannot be paid")
            continue
        s.ask(task, ctx.controller, "may", [1, 0], item=ctx.item, index=may.index)
        return False
    return True


def _resolve(s: State, ab: Ability, ctx: Ctx) -> None:
    """Begin resolving: reveal a face-down source, then run the first step (one task per step)."""
    c = s.cards[ctx.source] if ctx.source >= 0 else None
    if c is not None and c.face_down:
        s.own(ctx.source).face_down = False
        s.say(f"face-down card#{c.id} is revealed: {q.describe(s, c.id)}")
    s.say(f"{q.describe(s, ctx.source)} resolves ({ab.where})")
    s.notify("resolved", ctx)
    ctx.step = 0
    s.resolving.append(ctx)
    s.tasks.append(["resolve_step", ctx.item])


def steps_of(ab: Ability) -> tuple:
    """Return the functions (ability, state, ctx) that carry out an ability's resolution, in order."""
    return ab.steps or (type(ab).resolve,)


def step_task(s: State, task: list) -> None:
    """Run the next step of a resolving ability; Pattern B targets of its sentence are chosen first,
    only when the sentence before it happened. A choice in the step queues itself on top."""
    ctx = choices.resolving(s, task[1])
    if ctx.ended:  # 'a search that finds nothing may end the effect.': the searcher ended it
        s.tasks.append(["resolved", ctx.item])
        return
    ab, k = s.game.ability(ctx.ability), ctx.step
    lazy = [slot for slot, spec in enumerate(ab.targets) if spec.step == k]
    if lazy and ctx.happened and not _choose(s, task, ctx, ab, True, k):
        return
    for slot in lazy:  # chosen just now: only the markers of a skipped part or a stop go
        ctx.targets[slot] = [pair for pair in ctx.targets[slot] if pair[0] is not None]
    fns = steps_of(ab)
    ctx.step += 1
    s.tasks.append(["resolve_step", ctx.item] if ctx.step < len(fns) else ["resolved", ctx.item])
    fns[k](ab, s, ctx)


def resolve_now(s: State, ab: Ability, ctx: Ctx) -> None:
    """Carry out every step at once, each choice taking the first options (a trial on a copy)."""
    s.resolving.append(ctx)
    for fn in steps_of(ab):
        fn(ab, s, ctx)
        while s.tasks and s.tasks[-1][0] in ("choose", "not found"):
            task = s.tasks.pop()  # a search that found nothing goes on
            if task[0] == "not found":
                continue
            slot, about, count, place = task[2], task[4], task[5], task[7]
            found = choices.options(s, ctx, slot, about, place)[:max(count, 0)]
            ctx.chosen[slot] += [[x, -1 if q.is_player(x) else s.cards[x].moves] for x in found]
    s.resolving.remove(ctx)


def resolved_task(s: State, task: list) -> None:
    """Finish a resolution: a status consumed on trigger goes, a card used once goes to the graveyard."""
    ctx = choices.resolving(s, task[1])
    s.resolving.remove(ctx)
    ab = s.game.ability(ctx.ability)
    c = s.cards[ctx.source] if ctx.source >= 0 else None
    kind, name, _ = ctx.ability
    if kind == "status" and s.game.statuses[name].consumed == "on trigger" and c is not None:
        fx.remove(s, ctx, [c.id], 1, name)
    if ab.kind == "triggered" and kind == "card" and c is not None and q.working(s, c.id):
        traits = s.game.ruleset.kind_traits.get(q.kind(s, c.id), ())
        if "to graveyard after trigger" in traits:
            fx.move(s, c.id, "graveyard")
            s.say(f"{q.describe(s, c.id)} goes to the graveyard")
