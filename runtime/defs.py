"""Definitions that generated code subclasses: cards, abilities, keywords, statuses, rulesets.

A definition is immutable rules data plus straight-line methods; game state lives in State.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

# A predicate over a candidate card or player: (state, ctx, candidate) -> bool.
Pred = Callable[[Any, Any, int], bool]


@dataclass(frozen=True)
class Entry:
    """A deck entry with cards attached to it, in order (a character and its action table by face), and the
    line it stands in where it starts on the field (0: the front)."""

    name: str
    attached: tuple[str, ...] = ()
    line: int = 0


def values_of(card: Any, attr: str) -> tuple[str, ...]:
    """Return every value a card definition has of an attribute ('element' -> ('moon', 'shadow'))."""
    if attr in card.attribute_values:
        return tuple(card.attribute_values[attr])
    return (card.attributes[attr],) if attr in card.attributes else ()


def counted_as(card: Any, attr: str) -> tuple[str, ...]:
    """Return the values of an attribute a card's printed static abilities say it counts as having ('this
    counts as element earth'), whatever their conditions: what a table may be built on (R-WVN-45)."""
    return tuple(eff.keyword for a in card.abilities if a.kind == "static" for eff in a.statics
                 if eff.what == "counts_as" and eff.stat == attr)


def meets_requirement(card: Any, holder: Any, have: tuple[str, ...] | None = None) -> bool:
    """Return whether a holder may take a card: a card with no requirement fits everyone; 'requires A x or
    y' needs one of the values, 'requires A x and y' all, matched exactly (R-WVN-05, R-WVN-06); the values
    are the holder's printed ones and those it counts as having, unless `have` gives them."""
    if card.requires is None:
        return True
    attr, mode, values = card.requires
    held = set(values_of(holder, attr) + counted_as(holder, attr) if have is None else have)
    return bool(held & set(values)) if mode == "any" else set(values) <= held


def entry_names(deck: list) -> list[str]:
    """Return every card name of a deck, an entry's attached cards after it."""
    return [n for e in deck for n in ((e.name, *e.attached) if isinstance(e, Entry) else (e,))]


@dataclass(frozen=True)
class Filter:
    """Which cards (or players) a phrase like 'creature an opponent controls with power 3 or less' means.

    kind: a card kind, 'card' for any card, or 'player'. control: 'you', 'opponent', 'defender' or
    None. zone: the zone name (default 'field'); zone_of: whose zone ('you', 'opponent', 'their',
    'controller', 'owner' or None for both players). pred: the ability's function that tests
    the 'with' clauses, or None. other: the card the ability is on is left out ('other', 'another').
    attrs: (attribute, value) pairs the card's printed attributes must have ('red unit').
    """

    kind: str
    control: str | None = None
    zone: str = "field"
    zone_of: str | None = None
    pred: Any = None
    other: bool = False
    attrs: tuple[tuple[str, str], ...] = ()
    # a choice over several places (docs/language.md 2.8.10): (end, zone, whose) each, end 'top', 'bottom'
    # or '' (the whole zone); each_place: the count from every place, else in total
    places: tuple[tuple[str, str, str], ...] = ()
    each_place: bool = False


@dataclass(frozen=True)
class TargetSpec:
    """A target slot: how many, whether 'up to', the filter, and when it is chosen. distinct: 'another
    target', which no earlier slot of the same ability may have chosen."""

    count: int
    up_to: bool
    filter: Filter
    at_resolution: bool = False
    distinct: bool = False
    # Pattern B: the step whose 'if that happened' sentence names it; it is chosen only when that
    # step is reached and the sentence before it happened (-1: chosen before resolution)
    step: int = -1


@dataclass(frozen=True)
class Scope:
    """Whose events a triggered ability listens to: 'this', 'holder' (the card it is attached to), 'player'
    (with who) or 'filter'."""

    kind: str
    who: str = ""
    filter: Filter | None = None


@dataclass(frozen=True)
class MaySpec:
    """A 'you may' decision: its index in ctx.answers and the function telling if it is payable."""

    index: int
    payable: Any = None


@dataclass(frozen=True)
class StaticEffect:
    """One continuous effect of a static ability.

    what: 'modify' (stat, amount function), 'flag' (flag), 'grant' (keyword), 'reduce_damage'
    (amount function), 'blocked_by' (filter of blockers refused), 'damage_floor' (stat: smaller
    damage is not taken), 'deal_more' (amount function: damage the card deals is that much more),
    'grant_status' (keyword: a status, value: its instance's value, generated while it works),
    'refuse_changes' (value: statuses of that influence or less are not received), 'counts_as' (stat: an
    attribute, keyword: one more value the card has of it). applies: the
    function telling whether it applies to a card.
    """

    what: str
    applies: Any
    stat: str = ""
    amount: Any = None
    flag: str = ""
    keyword: str = ""
    filter: Any = None  # 'blocked_by': which blockers cannot block the card
    value: int = 0  # 'grant_status': the value of the instance generated; 'refuse_changes': the influence


class Ability:
    """Base of every ability. `where` is the source 'file:line'; `text` its card text."""

    where: ClassVar[str] = ""
    kind: ClassVar[str] = ""
    event: ClassVar[str] = ""
    phase: ClassVar[str] = ""
    scope: ClassVar[Scope] = Scope("this")
    targets: ClassVar[tuple[TargetSpec, ...]] = ()
    mays: ClassVar[tuple[MaySpec, ...]] = ()
    statics: ClassVar[tuple[StaticEffect, ...]] = ()
    has_condition: ClassVar[bool] = False
    hurts: ClassVar[bool] = False  # it deals damage or reduces a value directly (the anti-stalemate rule)
    # The steps of its resolution, run one task each so that choices and interrupts can come between
    # them (docs/language.md 2.2.1); empty: one step, `resolve`.
    steps: ClassVar[tuple[Callable[[Any, Any, Any], None], ...]] = ()
    choice_filters: ClassVar[tuple[Filter, ...]] = ()  # per choice slot: what may be chosen while it resolves
    once_per_turn: ClassVar[bool] = False  # an activated ability used at most once a turn
    rules: ClassVar[str] = ""  # this ability's line of its card's rules text

    def condition(self, s: Any, ctx: Any) -> bool:
        """Return whether the ability's 'if' condition holds (abilities without one: True)."""
        return True

    def resolve(self, s: Any, ctx: Any) -> None:
        """Carry out the ability's effects."""

    def payable(self, s: Any, ctx: Any) -> bool:
        """Return whether the cost its first sentence pays can be paid now (no cost: True)."""
        return True


class Triggered(Ability):
    kind = "triggered"


class Timed(Ability):
    kind = "timed"


class Static(Ability):
    kind = "static"


class SpellEffect(Ability):
    kind = "effect"


class Activated(Ability):
    kind = "activated"


class CardDef:
    """A card: printed values and abilities. Subclasses are generated, one per card."""

    name: ClassVar[str] = ""
    where: ClassVar[str] = ""
    kind: ClassVar[str] = ""
    cost: ClassVar[dict[str, int]] = {}
    stats: ClassVar[dict[str, int]] = {}
    level_stats: ClassVar[dict[str, tuple[int, ...]]] = {}  # stat -> its value at each level
    attributes: ClassVar[dict[str, str]] = {}
    keywords: ClassVar[tuple[tuple[str, tuple[int, ...]], ...]] = ()
    text: ClassVar[str] = ""
    rules: ClassVar[str] = ""  # the rules text the compiler rendered from the abilities (compiler/rules_text.py)
    token: ClassVar[bool] = False
    abilities: ClassVar[tuple[Ability, ...]] = ()
    # automatic battles: other spellings, a sword's repeat count and sub-target, a swordsman's swords
    names: ClassVar[tuple[str, ...]] = ()
    repeat: ClassVar[int] = 1
    subtarget: ClassVar[bool] = False
    swords: ClassVar[tuple[str, ...]] = ()
    range: ClassVar[tuple | None] = None  # ('to', low, high) or ('set', d, ...): distances it reaches; None: any
    # 'requires element moon or shadow': (attribute, 'any' or 'all', values) a holder must have; None: any holder
    requires: ClassVar[tuple | None] = None
    attribute_values: ClassVar[dict[str, tuple[str, ...]]] = {}  # where an attribute has several values
    slots: ClassVar[tuple[str, ...]] = ()  # memory slots, each of a genre (Successor SU-5.1)

    def each_target(self, s: Any, ctx: Any) -> None:
        """Carry out a sword's effect on one target, once (a hit with its tight and loose sentences)."""

    def afterwards(self, s: Any, ctx: Any) -> None:
        """Carry out a sword's independent sentences, after every target."""


class KeywordDef:
    """A keyword: a named bundle of abilities with parameters."""

    name: ClassVar[str] = ""
    where: ClassVar[str] = ""
    params: ClassVar[tuple[str, ...]] = ()
    text: ClassVar[str] = ""
    rules: ClassVar[str] = ""  # the rules text the compiler rendered from the abilities (compiler/rules_text.py)
    abilities: ClassVar[tuple[Ability, ...]] = ()


class StatusDef:
    """A status: stacking, consumption, duration and the abilities it gives its holder."""

    name: ClassVar[str] = ""
    where: ClassVar[str] = ""
    stacking: ClassVar[str] = "stacks"
    consumed: ClassVar[str] = "never"
    lasts: ClassVar[str] = "permanently"
    family: ClassVar[str] = ""  # what it changes ('damage_taken'); '' : its own name
    influence: ClassVar[int] = 1  # 1 to 3: how hard it is to keep off or remove
    attribute: ClassVar[str] = ""  # '' : no attribute
    param: ClassVar[str] = ""  # 'status Guarded(n)': its abilities read the instance's value as n
    text: ClassVar[str] = ""
    rules: ClassVar[str] = ""  # the rules text the compiler rendered from the abilities (compiler/rules_text.py)
    abilities: ClassVar[tuple[Ability, ...]] = ()
    klass: ClassVar[str] = ""  # automatic battles: 'bad', 'defence', ... (what 'a bad state' means)
    hooks: ClassVar[dict[str, Any]] = {}  # automatic battles: battle step -> method run there


class EnchantmentDef:
    """An enchantment held by a sword (automatic battles): launch turn, conditions, cost, riders."""

    name: ClassVar[str] = ""
    where: ClassVar[str] = ""
    params: ClassVar[tuple[str, ...]] = ()
    stacking: ClassVar[str] = "stacks"
    text: ClassVar[str] = ""
    rules: ClassVar[str] = ""  # the rules text the compiler rendered from the abilities (compiler/rules_text.py)
    shift: ClassVar[int] = 0  # per stack, added to the launch turn
    vanishes: ClassVar[bool] = False  # the sword vanishes when used (at the cost step)
    whole: ClassVar[bool] = False  # the sword targets every enemy or every ally
    cost_value: ClassVar[str] = ""  # the number 'cost' is paid from ('' when nothing is paid)

    def launch_turn(self, s: Any, ctx: Any) -> int | None:
        """Return the turn the sword launches from, or None when this enchantment does not say."""
        return None

    def executable(self, s: Any, ctx: Any) -> bool:
        """Return whether the enchantment lets its sword be executed now."""
        return True

    def cost(self, s: Any, ctx: Any) -> int:
        """Return how much of cost_value executing the sword takes."""
        return 0

    def after_hit(self, s: Any, ctx: Any) -> None:
        """Carry out what the enchantment adds after each hit of its sword."""


# A sentence of the ruleset: a function of its class, called (ruleset, state, context).
Sentence = Callable[..., Any]


@dataclass(frozen=True)
class PhaseDef:
    name: str
    steps: tuple[tuple[str, tuple[Sentence, ...]], ...]


class RulesetDef:
    """A ruleset: settings as data; phase sentences, battle, checks and lose rules as methods."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    where: ClassVar[str] = ""
    players: ClassVar[int] = 2
    first_player: ClassVar[str] = "random"
    deck_size: ClassVar[int] = 0
    max_copies: ClassVar[int] = 0
    opening_hand: ClassVar[int] = 0
    kinds: ClassVar[tuple[str, ...]] = ()
    stats: ClassVar[tuple[str, ...]] = ()
    resources: ClassVar[dict[str, int]] = {}
    zones: ClassVar[dict[str, tuple[str, ...]]] = {}
    kind_traits: ClassVar[dict[str, tuple[str, ...]]] = {}
    # Each phase: (name, ((step name or '', (sentence, ...)), ...)).
    phases: ClassVar[tuple[PhaseDef, ...]] = ()
    turn_end: ClassVar[tuple[Sentence, ...]] = ()
    blocker: ClassVar[Filter | None] = None
    blocker_side: ClassVar[str] = "left"  # 'left', 'right', or 'chosen' by the defending player
    win_stat: ClassVar[str] = ""  # a battle is won by destroying the other card with a higher value of it
    trigger_order: ClassVar[tuple[tuple[str, tuple[str, ...]], ...]] = ()
    checks: ClassVar[tuple[Sentence, ...]] = ()
    lose_rules: ClassVar[tuple[Sentence, ...]] = ()
    options: ClassVar[dict[str, str]] = {}  # option -> default value
    option_values: ClassVar[dict[str, tuple[str, ...]]] = {}  # option -> allowed values
    # (option, value, attribute, value): a setting that replaces another under an option; for the
    # attribute 'resource' the value is (resource, start, min, max)
    variants: ClassVar[tuple[tuple, ...]] = ()
    max_level: ClassVar[int] = 0  # cards with per-level stats go from level 1 up to this
    overclock_at: ClassVar[int] = 0  # reaching this level readies a card and lifts its attack restriction
    heal_on: ClassVar[str] = ""  # damage heals on a level 'up', or on 'any' level change
    damage_lowers: ClassVar[str] = ""  # the stat damage counts against (its current value is less by it)
    # 'turns go to characters in initiative order: each rolls 1D, ...': (kind, dice, faces); () for seats
    actor_turns: ClassVar[tuple] = ()
    start_on_field: ClassVar[tuple[str, ...]] = ()
    lines: ClassVar[tuple[str, ...]] = ()  # 'lines front, middle, back': each team's lines, front first
    # 'tables hold 6 cards in ascending cost, costing at most the ap of their holder, at most 2 of a name.'
    table_rules: ClassVar[tuple | None] = None  # (cards, the holder's budget stat, copies of a name)
    collapse: ClassVar[bool] = False
    unmet_face_down: ClassVar[bool] = False  # an attached card whose requirement its holder stops meeting turns face down
    stalemate: ClassVar[bool] = False  # damage or direct reduction reaches past its range, less the shortfall
    slot_attribute: ClassVar[str] = ""  # 'inherited cards go into slots of the same genre.'
    shed_attached: ClassVar[bool] = False  # 'cards attached to a card go to the graveyard when it leaves the field.'
    summon_onto: ClassVar[tuple[str, ...]] = ()  # 'a successor may be summoned onto another.': inherit-summons
    incapacitated: ClassVar[str] = ""  # 'a card with stamina 0 or less can't be selected or changed.': that stat
    shared_power: ClassVar[tuple | None] = None  # (stat, step): the attacker's stat shared among its blockers
    breakthrough: ClassVar[tuple | None] = None  # (keyword, stat, total stat): the excess may go to the defender
    block_rests: ClassVar[str | None] = None  # 'blocking rests the blocker[, unless it has K].': K or ''; None: no
    # Procedures that pause for an interruption window ('summon', 'move', 'destroy'; runtime/windows.py), whether
    # activated abilities respond in them, and the kind whose first success opens flash time ('' none).
    # The battle's steps after the attack, in order (runtime/turns.STEPS), and those that open no window.
    battle_steps: ClassVar[tuple[str, ...]] = ("block", "damage", "winner", "end")
    quiet_steps: ClassVar[tuple[str, ...]] = ()
    interruptible: ClassVar[tuple[str, ...]] = ()
    activated_respond: ClassVar[bool] = False
    flash_time: ClassVar[str] = ""
    destroyed_stay: ClassVar[bool] = False  # a destroyed card stays, unselectable, until all processing finished
    whole_choice: ClassVar[bool] = False  # 'a choice that cannot meet its count chooses nothing.' (SU-8.1)
    search_may_end: ClassVar[bool] = False  # 'a search that finds nothing may end the effect.' (SU-10.6)
    squares: ClassVar[int] = 0  # 'each line has 3 squares.': the field is a grid (runtime/grid.py); 0: no grid
    stands_behind: ClassVar[tuple[str, ...]] = ()  # 'every ruler stands behind the middle square.': those kinds
    stat_floor: ClassVar[int | None] = None  # 'stats never go below 0.': the least any stat reads
    tokens_leave: ClassVar[bool] = False  # 'tokens that leave the field leave the game.': to 'removed'
    kind_counts: ClassVar[tuple[tuple[str, int], ...]] = ()  # 'decks hold exactly 1 ruler.': (kind, count)
    max_players: ClassVar[int] = 2  # 'players 2 to 4': games of 2 to 4 players (players is the least)
    elimination: ClassVar[bool] = False  # a player who loses leaves; the game goes on to the last one
    damage_threshold: ClassVar[int] = 1  # "damage events need at least N damage": less is no damage (0: 0 is damage)
    resource_bounds: ClassVar[dict[str, tuple[int | None, int | None]]] = {}  # resource -> (min, max)
    zone_limits: ClassVar[dict[str, int]] = {}  # zone -> most cards it holds per player (shared: in all)
    checks_deferred: ClassVar[bool] = False  # 'checks after all processing': only with nothing on the stack
    together: ClassVar[bool] = False  # 'triggers that tie resolve together.' (runtime/simultaneous.py)
    default_range: ClassVar[tuple | None] = None  # 'a card with no range has range N.': ('to', 0, N); None: any
    mulligans: ClassVar[int] = 0  # how many whole-hand redraws a player may take at the start
    short_deck: ClassVar[tuple | None] = None  # (zones set aside, where to) before rebuilding a short deck
    all_lose: ClassVar[str] = "draw"  # when every player loses at once: 'draw' or 'lose'
    round_limit: ClassVar[tuple | None] = None  # (last round, resource compared, tie: 'first'/'second'/'draw')
    # The action phase: (action, zone or '', condition function or None, only this kind or '') for each
    # action the turn player may take; set_zone is where 'set' puts cards; matching_attribute is what
    # 'the same colour' compares.
    actions: ClassVar[tuple[tuple[str, str, Any, str], ...]] = ()
    set_zone: ClassVar[str] = ""
    matching_attribute: ClassVar[str] = ""
    # (how many, the attribute each must differ in or '', the resource whose fullness deals them or '')
    jokers: ClassVar[tuple[int, str, str] | None] = None
    joker_zones: ClassVar[tuple[str, ...]] = ()  # where 'joker from ZONE' actions use jokers
    life_fill: ClassVar[tuple[int, str, str] | None] = None  # (amount, resource, 'any' or 'opponent')
    # Pattern A: a target slot with no legal choice skips only the effects on it (else the ability is lost)
    skip_missing_targets: ClassVar[bool] = False
    # 'sentence': abilities triggered while an effect resolves, and the state checks, come between its
    # sentences; 'effect' (default): only once it has resolved
    interrupts: ClassVar[str] = "effect"
    banned_keywords: ClassVar[tuple[str, ...]] = ()  # decks may not hold cards with these keywords
    announces_turn_start: ClassVar[bool] = False  # a turn sentence says when turn-start abilities trigger
    lose_at_once: ClassVar[bool] = False  # lose rules are also checked inside effects, stopping them
    # automatic battles (runtime/battle/): turns 0..last_turn, default launch turn, the action right's keys
    # (methods, highest first), effect order by action type, the state every judge counts first, and the
    # creation budget (points, ((value, units per point), ...)) of party files
    automatic: ClassVar[bool] = False
    last_turn: ClassVar[int] = 0
    launch_turn: ClassVar[int] = 0
    action_right: ClassVar[tuple[str, ...]] = ()
    type_priority: ClassVar[tuple[str, ...]] = ()
    judge_first: ClassVar[str] = ""
    budget: ClassVar[tuple | None] = None

    def blocked(self, s: Any, ctx: Any) -> None:
        """Carry out a blocked attack."""

    def unblocked(self, s: Any, ctx: Any) -> None:
        """Carry out an unblocked attack."""

    def won(self, s: Any, ctx: Any) -> None:
        """Carry out what follows a won battle (after battle damage)."""

    def battle_end(self, s: Any, ctx: Any) -> None:
        """Carry out the end of a battle."""
