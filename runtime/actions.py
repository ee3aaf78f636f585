"""The action phase: the turn player takes the ruleset's actions one at a time until they end it.

A ruleset lists its actions ("actions: drive, overdrive, set into trigger_zone, attack, ...", each
with an optional condition); kind traits say which cards each action applies to. The decision
offers every legal (action, card) pair plus "end"; overdrive and override then ask for the card
underneath. Costs of driven and overdriven cards are lowered by at most one set reducer.
"""

from __future__ import annotations

from runtime import activate, grid, inherit, summons
from runtime import effects as fx
from runtime import query as q
from runtime.ending import done_with, rules_ctx
from runtime.state import Ctx, State, Tasks
from runtime.triggers import emit
from runtime.turns import cast, enter_field


def take_actions(s: State, ctx: Ctx) -> None:
    """Procedure: the turn player takes actions until they choose to end."""
    s.tasks.append(["act", ctx.controller])


def _act_task(s: State, task: list) -> None:
    choices = legal(s, task[1])
    s.ask(task, task[1], "act", [], choices=choices, can_stop=True, stop="end")


def legal(s: State, player: int) -> list[list]:
    """Return every action the player may take now, as [action, card id] pairs, in a fixed order."""
    rs, kinds, cards = s.game.ruleset, s.game.kind_sets, s.cards
    out: list[list] = []
    offered: set[tuple[str, int]] = set()  # the pairs in `out`: a set, not a scan of `out` for each card
    ctx = rules_ctx(s)  # the conditions read the state, never the context: one serves them all
    for name, zone, allow, kind in rs.actions:
        if allow is not None and not allow(rs, s, ctx):
            continue
        for cid in _jokers(s, player, zone) if name == "joker" else OPTIONS[name](s, player):
            if (name, cid) not in offered and (not kind or kind in kinds[cards[cid].name]):
                offered.add((name, cid))  # one action's cards are distinct (a zone holds a card once)
                out.append([name, cid])
    done_with(s, ctx)
    return out


def _traits(s: State, cid: int) -> frozenset[str]:
    """Return the traits of a card's kind (a table of the Game, by card name)."""
    return s.game.traits[s.cards[cid].name]


def _same(s: State, a: int, b: int) -> bool:
    """Return whether two cards share the ruleset's matching attribute (none declared: always)."""
    attr = s.game.ruleset.matching_attribute
    attrs = s.game.cards[s.cards[a].name].attributes, s.game.cards[s.cards[b].name].attributes
    return not attr or attrs[0].get(attr) == attrs[1].get(attr)


def _room(s: State, player: int, zone: str) -> bool:
    return q.has_room(s, player, zone)


# ---------------------------------------------------------------- costs and reducers


def reducer(s: State, player: int, cid: int) -> int | None:
    """Return the set card that lowers this card's cost: the leftmost with the same matching attribute."""
    return next((r for r in _reducers(s, player) if _same(s, r, cid)), None)


def _reducers(s: State, player: int) -> list[int]:
    """Return a player's set cards that reduce costs, leftmost first."""
    return _having(s, player, s.game.ruleset.set_zone, "reduces costs")


def cost(s: State, player: int, cid: int) -> dict[str, int]:
    """Return what putting this card into play costs now: its printed cost, less 1 with a reducer."""
    return dict(_price(s, cid, _lowered(s, player)))


def _matching(s: State, cid: int) -> str | None:
    """Return a card's value of the matching attribute (None: it has none, or the ruleset declares none)."""
    attr = s.game.ruleset.matching_attribute
    return s.game.cards[s.cards[cid].name].attributes.get(attr) if attr else None


def _lowered(s: State, player: int) -> set[str | None]:
    """Return the matching values whose costs the player's reducers lower (see _same: equal values, or any
    card where no attribute is declared)."""
    reducers = _reducers(s, player)
    return {_matching(s, r) for r in reducers} if reducers else set()


def _price(s: State, cid: int, lowered: set[str | None]) -> dict[str, int]:
    """Return a card's cost with reducers of these values set (the printed table itself when none applies:
    read it only)."""
    printed = s.game.cards[s.cards[cid].name].cost
    if not printed or not lowered or _matching(s, cid) not in lowered:
        return printed
    first = next(iter(printed))
    return printed | {first: max(printed[first] - 1, 0)}


def _payable(s: State, player: int, price: dict[str, int], spent: str = "") -> bool:
    """Return whether the player has the resources of a price (but the one `spent`, paid already)."""
    have = s.players[player].resources
    for r, n in price.items():
        if have.get(r, 0) < n and r != spent:
            return False
    return True


def _pay(s: State, player: int, cid: int) -> str:
    """Use the reducer (to the graveyard), pay the cost; return the cost as the log writes it."""
    price = cost(s, player, cid)
    used = reducer(s, player, cid)
    if used is not None:
        s.own(used).face_down = False
        fx.move(s, used, "graveyard")
        s.say(f"{q.describe(s, used)} reduces the cost and goes to the graveyard")
    return fx.pay_printed(s, player, price)


# ---------------------------------------------------------------- which cards each action may use


def _having(s: State, player: int, zone: str, trait: str) -> list[int]:
    """Return a player's cards in a zone whose kind has a trait, in zone order."""
    traits, cards = s.game.traits, s.cards
    return [c for c in s.players[player].zones.get(zone, ()) if trait in traits[cards[c].name]]


# Each scan below first keeps the cards of the kinds the action is for (most hands hold few or none), and
# only then reads the room, the reducers and the costs.
def _drivable(s: State, player: int) -> list[int]:
    found = _having(s, player, "hand", "driven")
    if not found:
        return found
    room, lowered = _room(s, player, q.ACTIVE_ZONE), _lowered(s, player)
    return [c for c in found if _payable(s, player, _price(s, c, lowered))
            and (room or (grid.on_grid(s) and summons.squares(s, player, q.kind(s, c))))]


def _overdrivable(s: State, player: int) -> list[int]:
    found = _having(s, player, "hand", "overdrives")
    if not found:
        return found
    lowered = _lowered(s, player)
    return [c for c in found if _bases(s, player, c) and _payable(s, player, _price(s, c, lowered))]


def _bases(s: State, player: int, cid: int) -> list[int]:
    """Return the cards on the field an overdriving card may go onto."""
    return [b for b in s.players[player].zones[q.ACTIVE_ZONE]
            if not _traits(s, b).isdisjoint(("driven", "overdrives")) and _same(s, b, cid)]


def _settable(s: State, player: int) -> list[int]:
    found = _having(s, player, "hand", "set")
    return found if found and _room(s, player, s.game.ruleset.set_zone) else []


_NO_ATTACK = ("acted", "restricted", "destroyed")  # flags that keep a card from attacking


def _attackers(s: State, player: int) -> list[int]:
    return [c for c in s.players[player].zones[q.ACTIVE_ZONE]
            if s.cards[c].flags.keys().isdisjoint(_NO_ATTACK) and not q.has_flag(s, c, "cant_attack")]


def _movers(s: State, player: int) -> list[int]:
    return [c for c in s.players[player].zones[q.ACTIVE_ZONE] if grid.on_grid(s) and grid.may_move(s, c)]


def _withdrawable(s: State, player: int) -> list[int]:
    return list(s.players[player].zones[q.ACTIVE_ZONE])


def _overridable(s: State, player: int) -> list[int]:
    hand = s.players[player].zones["hand"]
    names = {s.cards[c].name for c in hand}
    return [c for c in hand if _under(s, player, c)] if len(names) < len(hand) else []  # two of a name at least


def _under(s: State, player: int, cid: int) -> list[int]:
    """Return the hand cards of the same name, below the top level, that a card may go onto."""
    top = s.game.ruleset.max_level
    return [u for u in s.players[player].zones["hand"]
            if u != cid and s.cards[u].name == s.cards[cid].name and s.cards[u].level < top]


def _discardable(s: State, player: int) -> list[int]:
    return list(s.players[player].zones["hand"])


def _joker_cost(s: State, cid: int) -> dict[str, int]:
    """Return what using a joker costs: its printed cost, less the resource that deals it (that
    resource was spent when it was dealt)."""
    dealt_by = _dealt_by(s)
    return {r: n for r, n in s.game.cards[s.cards[cid].name].cost.items() if r != dealt_by}


def _dealt_by(s: State) -> str:
    """Return the resource whose filling deals jokers ('' if none does)."""
    return s.game.ruleset.jokers[2] if s.game.ruleset.jokers else ""


def _jokers(s: State, player: int, zone: str) -> list[int]:
    """Return the jokers a player may use from a zone: cost payable; from a kept zone, once a turn."""
    p = s.players[player]
    if zone != "hand" and p.joker_turn == s.turn:
        return []
    printed, dealt_by = s.game.cards, _dealt_by(s)
    return [c for c in _having(s, player, zone, "used as a joker")
            if _payable(s, player, printed[s.cards[c].name].cost, dealt_by)]


def open_dealing(s: State, ctx: Ctx) -> None:
    """Procedure: a joker due to the turn player is dealt from now on this turn, as soon as it can be."""
    s.players[ctx.controller].dealing = s.turn
    deal_jokers(s)


def deal_jokers(s: State) -> None:
    """Deal the turn player a joker whose resource is full: once dealing is open this turn (or in the
    action phase), between tasks — so right after the effect that filled it — when the hand has room."""
    rule = s.game.ruleset.jokers
    if rule is None or not rule[2]:
        return
    player, resource = s.active, rule[2]
    p = s.players[player]
    full = s.game.ruleset.resource_bounds.get(resource, (None, None))[1]
    # Read between any two tasks: the resource first (seldom full), the agenda last (a scan).
    if not p.jokers or full is None or p.resources.get(resource, 0) < full or not _room(s, player, "hand"):
        return
    if p.dealing != s.turn and ["act", player] not in s.tasks:  # nor the action phase under way
        return
    p.resources[resource] = 0
    cid = s.game.add_card(s, p.jokers[0], player, "hand")
    s.say(f"P{player + 1}'s {resource} is full: {q.describe(s, cid)} is dealt into the hand")


OPTIONS = {"drive": _drivable, "overdrive": _overdrivable, "set": _settable, "attack": _attackers,
           "withdraw": _withdrawable, "override": _overridable, "discard": _discardable, "move": _movers,
           "activate": activate.usable_cards}


# ---------------------------------------------------------------- carrying out an action


def perform(s: State, player: int, action: str, cid: int) -> None:
    """Carry out an action the player chose (the act task stays on the agenda for the next one)."""
    if action == "joker":
        _use_joker(s, player, cid)
        return
    if action in ("overdrive", "override"):
        options = _bases(s, player, cid) if action == "overdrive" else _under(s, player, cid)
        s.ask(["act_onto", action, cid], player, "onto", options)
        return
    if action == "move" or (action == "drive" and grid.on_grid(s)):  # which square: then carried out
        squares = grid.destinations(s, cid) if action == "move" else summons.squares(s, player, q.kind(s, cid))
        s.ask(["act_square", action, cid], player, "square", squares)
        return
    DO[action](s, player, cid)


def perform_square(s: State, player: int, code: int) -> None:
    """Finish a drive, a move or an ability's summon on a grid with the square chosen."""
    _, action, cid = s.tasks.pop()
    if action == "move":
        _move(s, cid, code)
    elif action == "summon":
        summons.by_ability(s, player, cid, code)
    elif inherit.inherited_kinds(s):
        paid = _pay(s, player, cid)
        s.say(f"P{player + 1} drives {q.describe(s, cid)} into {grid.name(s, code)}, paying {paid}")
        summons.begin(s, cid, code)
    else:
        _drive(s, player, cid, code)


def _move(s: State, cid: int, code: int) -> None:
    """Move a card; where moves can be interrupted, declare it and let the window pass first: the move is made
    whatever happens in it (SU-10.4)."""
    if "moves" not in s.game.ruleset.interruptible:
        grid.move(s, cid, code)
        return
    s.say(f"{q.describe(s, cid)} is moving to {grid.name(s, code)}")
    s.tasks.append(["moving", cid, code])
    fx.interrupt(s, cid, "moves")


def _moving_task(s: State, task: list) -> None:
    """Make a declared move once its window has closed, unless the card has left the field."""
    _, cid, code = task
    if s.cards[cid].zone != q.ACTIVE_ZONE:
        s.say(f"{q.describe(s, cid)} has left the field; its move is not made")
        return
    grid.move(s, cid, code)


def end_actions(s: State, player: int) -> None:
    """End the action phase; a joker that fills from now on (time left at turn end) waits for the next
    turn's dealing (R-COJ-121 a)."""
    s.tasks.pop()
    s.players[player].dealing = 0
    s.say(f"P{player + 1} ends the action phase")


def perform_onto(s: State, player: int, under: int) -> None:
    """Finish an overdrive or override with the card chosen to go under."""
    _, action, cid = s.tasks.pop()
    (_overdrive if action == "overdrive" else _override)(s, player, cid, under)


def _drive(s: State, player: int, cid: int, at: int | None = None, kept: list | None = None) -> None:
    """Drive a card from the hand (on a grid into a square; with the hand cards it inherits, SU-5.2)."""
    paid = _pay(s, player, cid)
    where = f" into {grid.name(s, at)}" if at is not None else ""
    s.say(f"P{player + 1} drives {q.describe(s, cid)}{where}, paying {paid}")
    for m, slot in kept or ():  # the words are added as it is summoned, before it enters (SU-5.2)
        inherit.attach(s, cid, m, slot)
    _enter(s, cid, None, at)


def _enter(s: State, cid: int, base: int | None, at: int | None = None) -> None:
    """Put a card onto the field (in place of base, for an overdrive; on a grid, into the square `at`) and
    announce it."""
    player, acted = s.cards[cid].controller, base is not None and "acted" in s.cards[base].flags
    index = s.players[player].zones[q.ACTIVE_ZONE].index(base) if base is not None else None
    if base is not None:
        fx.move(s, base, "graveyard")
        s.say(f"{q.describe(s, base)} goes under and to the graveyard")
    enter_field(s, cid, _traits(s, cid), at)
    if index is not None:
        field = s.players[player].zones[q.ACTIVE_ZONE]
        field.insert(index, field.pop())
        s.touch()  # the index lists abilities in zone order
    if acted:
        s.own(cid).flags["acted"] = None  # an overdriven card keeps the action right of the one under it
    if base is not None and s.cards[cid].level == s.game.ruleset.overclock_at:
        fx.overclock(s, rules_ctx(s), cid)


def _overdrive(s: State, player: int, cid: int, base: int) -> None:
    paid = _pay(s, player, cid)
    s.say(f"P{player + 1} overdrives {q.describe(s, cid)} onto {q.describe(s, base)}, paying {paid}")
    _enter(s, cid, base)


def _set(s: State, player: int, cid: int) -> None:
    zone = s.game.ruleset.set_zone
    fx.move(s, cid, zone)
    s.own(cid).face_down = "face down" in _traits(s, cid)
    s.say(f"P{player + 1} sets {q.shown(s, cid)} in {zone}")


def _attack(s: State, player: int, cid: int) -> None:
    fx.exhaust(s, rules_ctx(s), [cid])
    s.tasks.append(["attack", cid])


def _withdraw(s: State, player: int, cid: int) -> None:
    s.say(f"P{player + 1} withdraws {q.describe(s, cid)}")
    emit(s, "left", card=cid, player=player)
    fx.move(s, cid, "graveyard")


def _override(s: State, player: int, cid: int, under: int) -> None:
    s.say(f"P{player + 1} overrides {q.describe(s, cid)} onto {q.describe(s, under)}")
    fx.move(s, cid, "graveyard")
    fx.level_change(s, rules_ctx(s), [under], 1)
    fx.draw(s, rules_ctx(s), [~player], 1)


def _discard(s: State, player: int, cid: int) -> None:
    s.say(f"P{player + 1} discards {q.describe(s, cid)}")
    fx.move(s, cid, "graveyard")


def _use_joker(s: State, player: int, cid: int) -> None:
    """Pay a joker's cost and cast its effect; from the hand it goes to the graveyard first (a joker
    kind may be 'deleted instead of graveyard'), from a kept zone it stays there."""
    cdef = s.game.cards[s.cards[cid].name]
    paid = fx.pay_printed(s, player, _joker_cost(s, cid))
    s.say(f"P{player + 1} uses {q.describe(s, cid)}, paying {paid}")
    if s.cards[cid].zone == "hand":
        fx.move(s, cid, "graveyard")
    else:
        s.players[player].joker_turn = s.turn
    effect = next((i for i, a in enumerate(cdef.abilities) if a.kind == "effect"), None)
    if effect is not None:
        cast(s, cid, Ctx(cid, player, ["card", cdef.name, effect]))


DO = {"drive": _drive, "set": _set, "attack": _attack, "withdraw": _withdraw, "discard": _discard,
      "activate": activate.use}

TASKS: Tasks = {"act": _act_task, "act_onto": lambda s, task: None, "act_square": lambda s, task: None,
         "moving": _moving_task}
