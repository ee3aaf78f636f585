"""Reading a state: stats with modifiers, flags, filters, object selection, and the ability index.

Objects are ints: a card id (>= 0) or a player written as ~p (so -1 is player 0). The index of
active abilities (listeners by event type, static effects) is derived data, rebuilt only after a
change that can affect it (State.touch).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from runtime.defs import Ability, CardDef, Filter, StaticEffect, values_of
from runtime.state import CardState, Ctx, State

ACTIVE_ZONE = "field"
# A status instance on a card (runtime/elements.py): [name, value, expiry, origin].
NAME, VALUE, ORIGIN = 0, 1, 3
MEMO_LIMIT = 20_000  # card ability lists kept per Game (card_abilities) before the memo starts anew


def player_obj(p: int) -> int:
    """Return the object number of player p."""
    return ~p


def is_player(x: int) -> bool:
    return x < 0


@dataclass
class Index:
    """Active abilities: listeners by event name, and static effects with their contexts."""

    listeners: dict[str, list[tuple[Ability, Ctx]]]
    statics: list[tuple[Ability, Ctx]]
    busy: bool = False  # set while a static amount is computed: statics never nest
    grants: bool = False  # some static grants keywords: what it grants may change with any step
    elements: dict[int, list[list]] | None = None  # status instances static abilities generate, by card
    counting: bool = False  # set while 'counts as' statics are read (other statics' filters ask for them)
    # The static effects of each kind, (ability, context, effect) in the order of `statics`: made on first
    # use, as the index itself is, so a stat read walks only the effects that can change it.
    by_kind: dict[str, list[tuple[Ability, Ctx, StaticEffect]]] = field(default_factory=dict)

    def effects(self, what: str) -> list[tuple[Ability, Ctx, StaticEffect]]:
        """Return the static effects of one kind ('modify', 'grant', 'flag', ...), in index order."""
        found = self.by_kind.get(what)
        if found is None:
            found = self.by_kind[what] = [(a, ctx, eff) for a, ctx in self.statics for eff in a.statics
                                          if eff.what == what]
        return found


def index(s: State) -> Index:
    """Return the ability index of the state, rebuilding it if a change made it stale."""
    if s.index_cache is None:
        s.index_cache = _build_index(s)
    return s.index_cache


def keyword_abilities(s: State, c: CardState, keywords) -> list[tuple[Ability, Ctx]]:
    """Return the abilities that keywords (name, arguments) give a card."""
    return [(a, Ctx(c.id, c.controller, ["keyword", kw, i], list(args)))
            for kw, args in keywords for i, a in enumerate(s.game.keywords[kw].abilities)]


def card_abilities(s: State, c: CardState) -> list[tuple[Ability, Ctx]]:
    """Return every ability a card has now: printed, from keywords (printed or granted), from statuses.

    Granted keywords come in name order, so the order never depends on how a dict was filled (a state
    read back from JSON behaves exactly like the original); statuses by name, then as they came.
    """
    # What a card has is a function of these facts alone, so the lists are kept per Game and shared: nothing
    # writes to an index's contexts (a trigger copies its context before it goes pending).
    key = (c.id, c.name, c.controller, tuple(c.granted), tuple((x[NAME], x[VALUE]) for x in c.statuses))
    memo = s.game.abilities_memo
    found = memo.get(key)
    if found is None:
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        cdef = s.game.cards[c.name]
        found = [(a, Ctx(c.id, c.controller, ["card", c.name, i])) for i, a in enumerate(cdef.abilities)]
        found += keyword_abilities(s, c, list(cdef.keywords) + [(k, ()) for k in sorted(c.granted)])
        found = memo[key] = found + status_abilities(s, c, c.statuses)
    return found


def status_abilities(s: State, c: CardState, held: list[list]) -> list[tuple[Ability, Ctx]]:
    """Return the abilities status instances give a card, each instance its own (with its value, where
    its status names it)."""
    out = []
    for x in sorted(held, key=lambda x: x[NAME]):
        sdef = s.game.statuses[x[NAME]]
        params = [x[VALUE]] if sdef.param else []
        out += [(a, Ctx(c.id, c.controller, ["status", x[NAME], i], params)) for i, a in enumerate(sdef.abilities)]
    return out


def instances(s: State, cid: int) -> list[list]:
    """Return a card's status instances now: the kept ones, merged with those static abilities generate."""
    c = s.cards[cid]
    if not s.game.generates:
        return c.statuses
    generated = index(s).elements or {}
    return merged(s, c.statuses, generated[cid]) if cid in generated else c.statuses


def merged(s: State, kept: list[list], generated: list[list]) -> list[list]:
    """Return kept instances with generated ones joined: a merging status's values add to its kept one."""
    out = [list(x) for x in kept]
    for g in generated:
        same = next((x for x in out if x[NAME] == g[NAME]), None)
        if same is not None and s.game.statuses[g[NAME]].stacking != "never":
            same[VALUE] += g[VALUE]
        else:
            out.append(list(g))
    return [x for x in out if x[VALUE] != 0]


def working(s: State, cid: int) -> bool:
    """Return whether a card's abilities work where it is: on the field, or set if its kind says so."""
    c = s.cards[cid]
    if c.zone == ACTIVE_ZONE:
        return True
    if "shared" in s.game.ruleset.zones.get(c.zone, ()):  # a field card: it works where it lies
        return True
    traits = s.game.ruleset.kind_traits.get(kind(s, cid), ())
    if c.holder >= 0:  # an attached card that is face up, while its holder is on the field
        return "works while attached" in traits and not c.face_down and s.cards[c.holder].zone == ACTIVE_ZONE
    return c.zone == s.game.ruleset.set_zone != "" and "works while set" in traits


@dataclass
class Base:
    """What an index is built on: the cards whose abilities work, their own abilities and statics, and the
    last index built on them with the grants it was built with (equal grants: that index again)."""

    on_field: list[int]  # ids, not records: a record written after a snapshot is a new object (State.own)
    abilities: dict[int, list[tuple[Ability, Ctx]]]
    statics: list[tuple[Ability, Ctx]]
    reading: Index  # the index while grants are read: its statics, never applied (busy), made once per base
    last: Index | None = None
    last_grants: tuple[dict, dict] | None = None


def _base(s: State) -> Base:
    """Return the base of the index: the working cards of the field (and set, attached, shared zones)."""
    on_field = [i for p in s.players for z in s.game.index_zones for i in p.zones.get(z, ()) if working(s, i)]
    abilities = {i: card_abilities(s, s.cards[i]) for i in on_field}
    statics = [pair for abil in abilities.values() for pair in abil if pair[0].kind == "static"]
    return Base(on_field, abilities, statics, Index({}, statics, busy=True))


def _build_index(s: State) -> Index:
    base = s.base_cache
    if base is None:
        base = s.base_cache = _base(s)
    # While grants are computed, stat reads see the statics found so far but never apply them
    # (busy), so a grant whose filter reads a stat cannot recurse into this function.
    s.index_cache = base.reading
    grants = _static_grants(s, base.statics, base.on_field)
    s.index_cache = None
    if base.last is not None and base.last_grants == grants:
        return base.last
    base.last, base.last_grants = _granted_index(s, base, *grants), grants
    return base.last


def _granted_index(s: State, base: Base, granted: dict, generated: dict) -> Index:
    """Return the index of a base with the keywords and status instances static abilities grant."""
    abilities = dict(base.abilities)
    for cid, extra in generated.items():  # its statuses' abilities: its instances, the generated joined
        kept = [pair for pair in abilities[cid] if pair[1].ability[0] != "status"]
        abilities[cid] = kept + status_abilities(s, s.cards[cid], merged(s, s.cards[cid].statuses, extra))
    statics = [pair for abil in abilities.values() for pair in abil if pair[0].kind == "static"]
    listeners: dict[str, list[tuple[Ability, Ctx]]] = {}
    for cid in base.on_field:
        extra = keyword_abilities(s, s.cards[cid], [(k, ()) for k in granted[cid]]) if cid in granted else []
        statics += [pair for pair in extra if pair[0].kind == "static"]
        for a, ctx in abilities[cid] + extra:
            if a.kind in ("triggered", "timed"):
                listeners.setdefault(a.event, []).append((a, ctx))
    grants = any(eff.what in ("grant", "grant_status") for a, _ in statics for eff in a.statics)
    return Index(listeners, statics, grants=grants, elements=generated)


def _static_grants(s: State, statics: list, on_field: list[int]) -> tuple[dict, dict]:
    """Return the keywords static abilities grant, and the status instances they generate, by card id
    (one level: grants do not chain)."""
    if not statics:
        return {}, {}
    cards = [s.cards[i] for i in on_field]
    out: dict[int, list[str]] = {}
    generated: dict[int, list[list]] = {}
    for a, ctx in statics:
        for eff in a.statics:
            if eff.what == "grant_status":
                for c in cards:
                    if eff.applies(a, s, ctx, c.id):
                        generated.setdefault(c.id, []).append([eff.keyword, eff.value, None, ctx.source])
            if eff.what != "grant":
                continue
            for c in cards:
                printed = any(k == eff.keyword for k, _ in s.game.cards[c.name].keywords)
                if not printed and eff.keyword not in c.granted and eff.applies(a, s, ctx, c.id):
                    out.setdefault(c.id, []).append(eff.keyword)
    return out, generated


def changeable(s: State, cid: int) -> bool:
    """Return whether a card takes changes (stats, statuses, keywords, recovery): on the field and not destroyed
    while it stays there (Successor SU-4.2: a status change to a destroyed successor has no effect)."""
    c = s.cards[cid]
    return c.zone == ACTIVE_ZONE and "destroyed" not in c.flags and not incapacitated(s, cid)


def incapacitated(s: State, cid: int) -> bool:
    """Return whether a card on the field is at 0 or less of the stat the ruleset's incapacity line names (Successor
    SU-7.3: stamina 0, until the destroy step destroys it); a card without that stat (a ruler) never is."""
    name, c = s.game.ruleset.incapacitated, s.cards[cid]
    return bool(name) and c.zone == ACTIVE_ZONE and name in s.game.cards[c.name].stats and stat(s, cid, name) <= 0


def has_room(s: State, player: int, zone: str) -> bool:
    """Return whether a player's zone holds fewer cards than its limit; in a zone whose limit is 'not
    counting tokens' (Successor's memory, SU-3.2) tokens take no room."""
    rs = s.game.ruleset
    if zone == ACTIVE_ZONE and rs.squares:  # a grid: one card a square, rulers behind it
        taken = sum(1 for cid in s.players[player].zones[zone] if kind(s, cid) not in rs.stands_behind)
        return taken < len(rs.lines) * rs.squares
    limit = rs.zone_limits.get(zone)
    if limit is None:
        return True
    held = s.players[player].zones[zone]
    if "not counting tokens" in rs.zones.get(zone, ()):
        held = [cid for cid in held if not s.game.cards[s.cards[cid].name].token]
    return len(held) < limit


def stat(s: State, cid: int, name: str) -> int:
    """Return a card's current value of a stat: printed, then changes, then statics, less damage if
    the ruleset says damage lowers it; a battling card that has left since battle damage is read as
    it was when it left (last known information)."""
    if s.battle:
        known = last_known(s, cid)
        if known is not None and name in known["stats"]:
            return known["stats"][name]
    c = s.cards[cid]
    if name in KEPT_STATS:
        return _kept_stat(s, c, name)
    rs = s.game.ruleset
    value = _printed(s.game.cards[c.name], c, name)
    if c.mods:
        value += sum(m[1] for m in c.mods if m[0] == name)
    if c.zone == ACTIVE_ZONE:
        value += _static_total(s, cid, "modify", name)
    if name == rs.damage_lowers:
        value -= c.damage
    return value if rs.stat_floor is None else max(value, rs.stat_floor)


# Stats a card keeps on its record or reads off its definition, which no static ability modifies.
KEPT_STATS = frozenset(("damage", "share", "level", "cost"))


def _kept_stat(s: State, c: CardState, name: str) -> int:
    """Return one of the KEPT_STATS of a card."""
    if name == "damage":
        return c.damage
    if name == "share":  # what the attacker deals this blocker (runtime/turns.py, shared power)
        return next((n for b, n in s.battle.get("shares", ()) if b == c.id), 0)
    if name == "level":
        return c.level
    return sum(s.game.cards[c.name].cost.values())


def printed_stat(s: State, cid: int, name: str) -> int:
    """Return the value of a stat printed on a card for its current level (no changes, no damage)."""
    c = s.cards[cid]
    return _printed(s.game.cards[c.name], c, name)


def _printed(cdef: type[CardDef], c: CardState, name: str) -> int:
    table = cdef.level_stats.get(name)
    return table[min(c.level, len(table)) - 1] if table else cdef.stats.get(name, 0)


def last_known(s: State, cid: int) -> dict | None:
    """Return the facts kept of a battling card (q.known_facts), while they are what counts: during
    the damage exchange (as it was when battle damage began), and after it, once it has left the
    field, for the rest of that battle (as it was when it left; a filter looking into the zone it went
    to reads it as it is there: _as_in_zone). None otherwise."""
    b = s.battle
    if not b:
        return None
    for known_id, facts in b.get("known", ()):
        if known_id == cid and (b["exchange"] or s.cards[cid].zone != ACTIVE_ZONE):
            return facts
    return None


def known_facts(s: State, cid: int) -> dict:
    """Return the facts of a card on the field that last known information keeps: every stat of the
    ruleset (damage and level too), every keyword and status name it has, and its flags."""
    c = s.cards[cid]
    cdef = s.game.cards[c.name]
    names = {k for k, _ in cdef.keywords} | set(c.granted) | {x[NAME] for x in instances(s, cid)}
    names |= {eff.keyword for eff, _, _ in statics_on(s, cid, "grant")}
    flags = set(c.flags) | {eff.flag for eff, _, _ in statics_on(s, cid, "flag")}
    stats = {name: stat(s, cid, name) for name in (*s.game.ruleset.stats, "damage", "level", "cost")}
    return {"stats": stats, "names": sorted(names), "flags": sorted(flags)}


def _static_total(s: State, cid: int, what: str, stat_name: str = "") -> int:
    """Return the sum of static effects of one kind applying to a card (statics never nest)."""
    idx = index(s)
    if idx.busy:
        return 0
    effects = idx.effects(what)
    if not effects:
        return 0
    idx.busy = True
    try:
        total = 0
        for a, ctx, eff in effects:
            if eff.stat == stat_name and eff.applies(a, s, ctx, cid):
                total += eff.amount(a, s, ctx)
        return total
    finally:
        idx.busy = False


def user(s: State, cid: int) -> int:
    """Return the card whose abilities a card's act for: the card it is attached to (an action of a
    character's table), else itself (-1: none)."""
    return s.cards[cid].holder if cid >= 0 and s.cards[cid].holder >= 0 else cid


def dealt_bonus(s: State, source: int) -> int:
    """Return how much more damage a source deals by static abilities ('damage dealt by X is increased by
    N'): of a card attached to another (an action of a character's table), of its holder."""
    dealer = user(s, source)
    if dealer < 0:
        return 0
    return _static_total(s, dealer, "deal_more") if s.cards[dealer].zone == ACTIVE_ZONE else 0


def damage_reduction(s: State, cid: int) -> int:
    """Return how much damage dealt to a card is reduced by static abilities."""
    return _static_total(s, cid, "reduce_damage") if s.cards[cid].zone == ACTIVE_ZONE else 0


def statics_on(s: State, cid: int, what: str) -> list:
    """Return the static effects of one kind that apply to a card now, with their abilities and contexts."""
    idx = index(s)
    if idx.busy or s.cards[cid].zone != ACTIVE_ZONE:
        return []
    effects = idx.effects(what)
    if not effects:
        return []
    idx.busy = True
    try:
        return [(eff, a, ctx) for a, ctx, eff in effects if eff.applies(a, s, ctx, cid)]
    finally:
        idx.busy = False


def damage_taken(s: State, ctx: Ctx, cid: int, amount: int, pierce: bool = False) -> int | None:
    """Return how much of an amount of damage a card takes: None if a protection or a floor prevents it
    (a protection older than damage that can't be prevented does not), else the amount less reductions, at
    least 0 (which is still damage where the ruleset says so)."""
    c = s.cards[cid]
    by_opponent = ctx.ability[0] != "ruleset" and ctx.controller != c.controller  # an effect, not battle
    barred = [f for f in ("undamageable", "shielded") if has_flag(s, cid, f) and (f == "undamageable" or by_opponent)]
    if barred and not _pierces(s, ctx, pierce) > max(_flag_since(s, cid, f) for f in barred):
        return None
    if any(amount < stat(s, cid, eff.stat) for eff, _, _ in statics_on(s, cid, "damage_floor")):
        return None
    return max(amount - damage_reduction(s, cid), 0)


def _flag_since(s: State, cid: int, flag: str) -> int:
    """Return when a card's flag last began: put by an effect, or the age of the static giving it."""
    c = s.cards[cid]
    since = [c.stamps.get(flag, 0)] if flag in c.flags else []
    since += [_static_since(s, src) for eff, _, src in statics_on(s, cid, "flag") if eff.flag == flag]
    return max(since, default=0)


def _static_since(s: State, ctx: Ctx) -> int:
    """Return when a static ability began to apply: when its status was put, else when its card arrived."""
    c = s.cards[ctx.source]
    if ctx.ability[0] == "status":
        return c.stamps.get(f"status {ctx.ability[1]}", c.since)
    return c.since


def _pierces(s: State, ctx: Ctx, pierce: bool) -> int:
    """Return when the damage's "can't be prevented" began (-1: it has none): its ability's use, or the age of
    a static of its dealer."""
    dealer = user(s, ctx.source)
    since = [ctx.stamp] if pierce else []
    if dealer >= 0:
        since += [_static_since(s, src) for _, _, src in statics_on(s, dealer, "pierce")]
    return max(since, default=-1)


def block_refused(s: State, attacker: int, blocker: int) -> bool:
    """Return whether a static ability of the attacker refuses this blocker ('can't be blocked by ...')."""
    return any(matches(s, a, ctx, eff.filter, blocker) for eff, a, ctx in statics_on(s, attacker, "blocked_by"))


def _static_any(s: State, cid: int, what: str, key: str) -> bool:
    """Return whether a static effect of this kind ('flag' or 'grant') with this key applies to a card."""
    idx = index(s)
    if idx.busy:
        return False
    effects = idx.effects(what)
    if not effects:
        return False
    idx.busy = True
    try:
        return any((eff.flag or eff.keyword) == key and eff.applies(a, s, ctx, cid) for a, ctx, eff in effects)
    finally:
        idx.busy = False


def has_flag(s: State, cid: int, flag: str) -> bool:
    """Return whether a card has a flag ('unblockable', 'untargetable', ...) now (a battling card that
    left after battle damage: as it had when it left)."""
    known = last_known(s, cid)
    if known is not None:
        return flag in known["flags"]
    c = s.cards[cid]
    if flag in c.flags:
        return True
    return c.zone == ACTIVE_ZONE and _static_any(s, cid, "flag", flag)


def targetable(s: State, ctx: Ctx, cid: int) -> bool:
    """Return whether an ability of ctx's controller may target a card: not if it can't be targeted,
    nor if it can't be targeted by the opponent's effects and the ability's controller is its opponent."""
    if has_flag(s, cid, "untargetable"):
        return False
    return ctx.controller == s.cards[cid].controller or not has_flag(s, cid, "untargetable_by_opponent")


def has_name(s: State, cid: int, name: str) -> bool:
    """Return whether a card has a keyword or status of that name now (a battling card that left after
    battle damage: as it had when it left)."""
    known = last_known(s, cid)
    if known is not None:
        return name in known["names"]
    c = s.cards[cid]
    if name in c.granted or any(x[NAME] == name for x in instances(s, cid)):
        return True
    if any(kw == name for kw, _ in s.game.cards[c.name].keywords):
        return True
    return c.zone == ACTIVE_ZONE and _static_any(s, cid, "grant", name)


def kind(s: State, cid: int) -> str:
    return s.game.cards[s.cards[cid].name].kind


def seated(s: State) -> list[int]:
    """Return the players still in the game, from the turn player on in seat order."""
    n = len(s.players)
    return [p for k in range(n) if (p := (s.active + k) % n) not in s.out]


def next_seat(s: State, player: int) -> int:
    """Return the next player after `player` in seat order who is still in the game."""
    n = len(s.players)
    return next((q for k in range(1, n + 1) if (q := (player + k) % n) not in s.out), player)


def players_of(s: State, ctx: Ctx, who: str) -> list[int]:
    """Return the player numbers a word means for this ability: 'you', 'opponent', 'each', ... (a player
    who left the game is no opponent and not one of 'each')."""
    if who == "you":
        return [ctx.controller]
    if who == "opponent":
        return [p for p in seated(s) if p != ctx.controller] if s.out else \
            [p for p in range(len(s.players)) if p != ctx.controller]
    if who == "each":
        return seated(s)
    if who == "turn":
        return [s.active]
    if who == "defender":
        return [s.battle["defender"]] if "defender" in s.battle else []
    if who == "their":
        return [ctx.player] if ctx.player >= 0 else []
    if who == "owner":  # a trigger's subject 'its owner': the owner of the card the ability is on
        return [s.cards[ctx.source].owner] if ctx.source >= 0 else []
    if who in ("event_controller", "event_owner"):
        card = ctx.event.get("card", -1)
        if card < 0:
            return []
        return [s.cards[card].controller if who == "event_controller" else s.cards[card].owner]
    raise ValueError(f"unknown player word {who!r}")


def matches(s: State, ab: Ability, ctx: Ctx, f: Filter, x: int) -> bool:
    """Return whether object x passes the filter, seen from the ability's controller."""
    if is_player(x):
        return f.kind == "player" and (f.control is None or ~x in players_of(s, ctx, f.control))
    if f.kind == "player":
        return False
    c = s.cards[x]
    if f.kind != "card" and f.kind not in s.game.kind_sets[c.name]:
        return False
    if f.zone and c.zone != f.zone:  # trigger scopes match cards in any zone unless one is named
        return False
    if f.control is not None and c.controller not in players_of(s, ctx, f.control):
        return False
    if f.zone_of is not None and c.controller not in _zone_owners(s, ctx, f.zone_of):
        return False
    return _card_passes(s, ab, ctx, f, x)


def _card_passes(s: State, ab: Ability, ctx: Ctx, f: Filter, cid: int) -> bool:
    """Return whether a card of the right kind, control and zone passes the rest of a filter: not the
    ability's own card if 'other', its printed attributes, then the 'with' predicate."""
    if f.other and cid == ctx.source:
        return False
    if f.attrs:
        if any(value not in attribute_values(s, cid, attr) for attr, value in f.attrs):
            return False
    if f.pred is None:
        return True
    if f.zone and s.battle and last_known(s, cid) is not None:
        return _as_in_zone(s, ab, ctx, f, cid)
    return bool(f.pred(ab, s, ctx, cid))


def attribute_values(s: State, cid: int, attr: str) -> tuple[str, ...]:
    """Return every value a card has of an attribute now: printed, and those a static ability has it count
    as having ('this counts as element earth')."""
    printed = values_of(s.game.cards[s.cards[cid].name], attr)
    idx = index(s)
    if idx.counting or s.cards[cid].zone != ACTIVE_ZONE:
        return printed
    idx.counting = True  # read apart from statics_on: a static's filter ('each earth character') asks this
    try:
        return printed + tuple(eff.keyword for a, ctx, eff in idx.effects("counts_as")
                               if eff.stat == attr and eff.applies(a, s, ctx, cid))
    finally:
        idx.counting = False


def _as_in_zone(s: State, ab: Ability, ctx: Ctx, f: Filter, cid: int) -> bool:
    """Return the 'with' test of a battling card that has left the field, read as it is in the zone the
    filter looks into (a graveyard card is level 1 there): last known information is for the battle's
    references and event scopes, not for a look into a zone. The kept facts are set aside meanwhile."""
    known = s.battle["known"]
    s.battle["known"] = [entry for entry in known if entry[0] != cid]
    try:
        return bool(f.pred(ab, s, ctx, cid))
    finally:
        s.battle["known"] = known


def _zone_owners(s: State, ctx: Ctx, who: str) -> list[int]:
    if who in ("controller", "owner"):
        if ctx.source < 0:
            return []
        return [s.cards[ctx.source].controller if who == "controller" else s.cards[ctx.source].owner]
    return players_of(s, ctx, who)


def _zone_order(s: State, ctx: Ctx, f: Filter) -> list[int] | range:
    """Return the players whose zones a card filter reads, the turn player first."""
    # A zone list holds exactly the cards its player controls there, so control and whose-zone
    # narrow the lists to read instead of being tested card by card.
    named = None  # one player word naming one player (or none): that player is the order
    if f.zone_of is None and f.control is not None:
        named = players_of(s, ctx, f.control)
    elif f.control is None and f.zone_of is not None:
        named = _zone_owners(s, ctx, f.zone_of)
    if named is not None and len(named) <= 1:
        return named
    n, first = len(s.players), s.active
    order: list[int] | range = range(n) if first == 0 else [(first + k) % n for k in range(n)]
    if f.control is not None:
        controlled = players_of(s, ctx, f.control)
        order = [p for p in order if p in controlled]
    if f.zone_of is not None:
        owners = _zone_owners(s, ctx, f.zone_of)
        order = [p for p in order if p in owners]
    return order


def select(s: State, ab: Ability, ctx: Ctx, f: Filter) -> list[int]:
    """Return every object the filter means, turn player first, each zone left to right (players who left
    the game are no players a filter means; their cards still are cards)."""
    if f.kind == "player":
        return [~p for p in seated(s) if matches(s, ab, ctx, f, ~p)]
    order = _zone_order(s, ctx, f)
    cards_only = bool(s.game.ruleset.incapacitated) and not (ctx.ability and ctx.ability[0] == "ruleset")
    if f.kind == "card" and f.pred is None and not f.other and not f.attrs and not cards_only:  # no test to run
        if f.zone != ACTIVE_ZONE:  # only a card on the field is ever flagged destroyed
            return [cid for p in order for cid in s.players[p].zones.get(f.zone, ())]
        return [cid for p in order for cid in s.players[p].zones.get(f.zone, ())
                if "destroyed" not in s.cards[cid].flags]
    cards, kinds = s.cards, s.game.kind_sets
    out: list[int] = []
    for p in order:
        for cid in s.players[p].zones.get(f.zone, ()):
            if f.kind != "card" and f.kind not in kinds[cards[cid].name] or "destroyed" in cards[cid].flags:
                continue  # a destroyed card staying on the field cannot be selected (SU-4.2)
            if cards_only and incapacitated(s, cid):
                continue  # nor an incapacitated one, but by the rules' own checks (SU-7.3)
            if _card_passes(s, ab, ctx, f, cid):
                out.append(cid)
    return out


def sees(s: State, viewer: int, cid: int) -> bool:
    """Return whether a player sees a card: anywhere but a hidden zone, and in a hidden zone of their own
    unless it is ordered, a pile lying face down even to its owner (a deck)."""
    flags = s.game.ruleset.zones.get(s.cards[cid].zone, ())
    return "hidden" not in flags or ("ordered" not in flags and s.cards[cid].controller == viewer)


def position(s: State, cid: int) -> int:
    """Return a card's index in its zone, counted from the left (a shared zone: in the order placed)."""
    c = s.cards[cid]
    if "shared" in s.game.ruleset.zones.get(c.zone, ()):
        return sum(s.cards[x].since < c.since for p in s.players for x in p.zones.get(c.zone, ()))
    zone = s.players[c.controller].zones.get(c.zone, [])
    return zone.index(cid) if cid in zone else len(zone)


def shown(s: State, x: int) -> str:
    """Return how the public log names an object: a face-down card is not named until revealed, only
    its matching attribute shows (its colour), if the ruleset has one."""
    if not is_player(x) and s.cards[x].face_down:
        attr = s.game.ruleset.matching_attribute
        value = s.game.cards[s.cards[x].name].attributes.get(attr, "") if attr else ""
        return f"a face-down {value + ' ' if value else ''}card#{x}"
    return describe(s, x)


def describe(s: State, x: int) -> str:
    """Return how the log names an object: 'Cinder Hound#12' or 'P1'."""
    if is_player(x):
        return f"P{~x + 1}"
    return f"{s.cards[x].name}#{x}"
