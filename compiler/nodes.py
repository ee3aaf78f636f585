"""The AST of the card language: frozen dataclasses, one per grammar alias, each with a location.

Locations never take part in equality, so `parse(fmt(x)) == parse(x)` compares meaning only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union


@dataclass(frozen=True)
class Loc:
    """A 1-based line and column in a source file."""

    line: int
    col: int


NOWHERE = Loc(0, 0)


@dataclass(frozen=True)
class Node:
    loc: Loc = field(compare=False, repr=False)


@dataclass(frozen=True)
class Name(Node):
    """An identifier as written, kept with its location for 'unknown name' errors."""

    value: str


# ---------------------------------------------------------------- expressions


@dataclass(frozen=True)
class Number(Node):
    value: int


@dataclass(frozen=True)
class Param(Node):
    """A bare name: a keyword parameter, or a stat of the candidate inside a filter."""

    name: Name


@dataclass(frozen=True)
class StatOf(Node):
    stat: Name
    ref: Object


@dataclass(frozen=True)
class StatOwn(Node):
    possessive: str
    stat: Name


@dataclass(frozen=True)
class Count(Node):
    filter: Filter


@dataclass(frozen=True)
class Stacks(Node):
    status: Name
    ref: Object


@dataclass(frozen=True)
class EventAmount(Node):
    pass


@dataclass(frozen=True)
class TurnNumber(Node):
    pass


@dataclass(frozen=True)
class OwnTurnNumber(Node):
    possessive: str


@dataclass(frozen=True)
class Dice(Node):
    """'2D': the sum of `count` dice of `sides` faces, rolled when the expression is read (logged)."""

    count: int
    sides: int = 6


@dataclass(frozen=True)
class TheRoll(Node):
    """'the roll': the total of the last dice this ability rolled."""


@dataclass(frozen=True)
class BinOp(Node):
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Div(Node):
    left: Expr
    right: Expr
    rounding: str


@dataclass(frozen=True)
class Neg(Node):
    operand: Expr


@dataclass(frozen=True)
class RoundNumber(Node):
    """The current round: each player's turn once, the first player's turn first."""


@dataclass(frozen=True)
class ByRound(Node):
    """A table read by the round number; rounds past its end use its last value."""

    values: tuple[int, ...]


@dataclass(frozen=True)
class Call(Node):
    fn: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Half(Node):
    operand: Expr
    rounding: str


@dataclass(frozen=True)
class Power(Node):
    """'2 ^ turn number'."""

    left: Expr
    right: Expr


@dataclass(frozen=True)
class HitDamage(Node):
    """'the damage': in a battle, the damage of the hit being processed (or just dealt)."""


Expr = Union[
    Number, Param, StatOf, StatOwn, Count, Stacks, EventAmount, TurnNumber, OwnTurnNumber,
    RoundNumber, ByRound, BinOp, Div, Neg, Call, Half, Power, HitDamage, Dice, TheRoll,
]

# ---------------------------------------------------------------- conditions


@dataclass(frozen=True)
class Compare(Node):
    left: Expr
    op: str
    right: Expr


@dataclass(frozen=True)
class AtBound(Node):
    left: Expr
    right: Expr
    bound: str


@dataclass(frozen=True)
class StatBound(Node):
    stat: Name
    value: int
    bound: str


@dataclass(frozen=True)
class Has(Node):
    ref: Object
    name: Name


@dataclass(frozen=True)
class HasSelf(Node):
    name: Name


@dataclass(frozen=True)
class Lacks(Node):
    name: Name


@dataclass(frozen=True)
class HasAbilities(Node):
    """'with abilities' / 'with no abilities': whether the candidate has any ability (printed, from a
    keyword, granted); a state such as attack restriction is not an ability."""

    present: bool


@dataclass(frozen=True)
class Controls(Node):
    player: Object
    quantity: str
    filter: Filter


@dataclass(frozen=True)
class AllOf(Node):
    left: Cond
    right: Cond


@dataclass(frozen=True)
class AnyOf(Node):
    left: Cond
    right: Cond


@dataclass(frozen=True)
class Negation(Node):
    cond: Cond


@dataclass(frozen=True)
class SeatIs(Node):
    """'you are the first player': the player's seat in the turn order."""

    player: Object
    seat: str


@dataclass(frozen=True)
class InState(Node):
    """'it is ready', 'this is attack restricted': a card's action right or attack restriction."""

    ref: Object
    state: str


@dataclass(frozen=True)
class WonBattle(Node):
    """'the attacker won the battle': it destroyed the other card in battle with a higher stat."""

    ref: Object


@dataclass(frozen=True)
class EnteredThisTurn(Node):
    ref: Object


@dataclass(frozen=True)
class InFrontOf(Node):
    """'successor in front of this': the candidate stands one square in front of the card (a grid, SU-9.1)."""

    ref: Object


@dataclass(frozen=True)
class OptionIs(Node):
    """'the version is v1': a ruleset option's value in this game."""

    option: Name
    value: Name


@dataclass(frozen=True)
class IsType(Node):
    """'the target is an attack sword': a sword's type (its card kind)."""

    ref: Object
    kind: Name


@dataclass(frozen=True)
class WithAttribute(Node):
    """'with colour blue': the candidate's printed attribute has that value."""

    attribute: Name
    value: Name


@dataclass(frozen=True)
class HasClass(Node):
    """'the actor has a bad state': any state of a class."""

    ref: Object
    klass: Name


Cond = Union[Compare, AtBound, StatBound, Has, HasSelf, Lacks, HasAbilities, Controls, SeatIs, InState, WonBattle,
             EnteredThisTurn, OptionIs, AllOf, AnyOf, Negation, IsType, HasClass, WithAttribute, InFrontOf]

# ---------------------------------------------------------------- objects


@dataclass(frozen=True)
class ZoneRef(Node):
    possessive: str
    zone: Name


@dataclass(frozen=True)
class ChoicePlace(Node):
    """'the top of your deck', 'the bottom of their deck', 'your hand': one place of a choice (end '' for
    the whole zone)."""

    end: str
    possessive: str
    zone: Name


@dataclass(frozen=True)
class Places(Node):
    """'from each of (P, Q)' (each: the count from every place) or 'in total from (P, Q)' (the count in all)."""

    each: bool
    items: tuple[ChoicePlace, ...]


@dataclass(frozen=True)
class Filter(Node):
    """'your other red units with cost 2 or less': possessive ('your' = 'you control'), 'other' (not the
    card the ability is on), attribute values written before the kind, then control, zone, 'with's;
    places: the places a choice takes from, instead of a zone (docs/language.md 2.8.10)."""

    kind: Name
    control: str | None
    zone: ZoneRef | None
    withs: tuple[Cond, ...]
    possessive: str | None = None
    other: bool = False
    attrs: tuple[Name, ...] = ()
    places: Places | None = None


@dataclass(frozen=True)
class This(Node):
    pass


@dataclass(frozen=True)
class Holder(Node):
    """'its holder': the card this card is attached to (a character, for a card of its action table)."""


@dataclass(frozen=True)
class It(Node):
    pass


@dataclass(frozen=True)
class EventObject(Node):
    noun: Name


@dataclass(frozen=True)
class Attacker(Node):
    pass


@dataclass(frozen=True)
class Blocker(Node):
    pass


@dataclass(frozen=True)
class Winner(Node):
    """The card that won the battle under way, while it is on the field."""


@dataclass(frozen=True)
class Target(Node):
    """'target X', 'up to 2 target X'; 'another target X' is neither this card nor an earlier target."""

    count: int
    up_to: bool
    filter: Filter
    another: bool = False


@dataclass(frozen=True)
class TargetPlayer(Node):
    pass


@dataclass(frozen=True)
class Each(Node):
    filter: Filter
    article: str = ""  # 'the': 'the successor in front of this', one card a filter names (or none)


@dataclass(frozen=True)
class Extreme(Node):
    side: str
    filter: Filter


@dataclass(frozen=True)
class RandomOne(Node):
    filter: Filter


@dataclass(frozen=True)
class PlayerRef(Node):
    word: str


@dataclass(frozen=True)
class BattleRef(Node):
    """In a battle: 'the target', 'the actor', 'the subtarget', 'the sender' or 'this sword'."""

    word: str


@dataclass(frozen=True)
class FirstSword(Node):
    """'the first [unused] sword of X'."""

    of: Object
    unused: bool


@dataclass(frozen=True)
class SwordsOf(Node):
    """'each sword of X', in list order."""

    of: Object


@dataclass(frozen=True)
class Chosen(Node):
    """'the chosen unit': what the last choice of the ability chose."""

    noun: Name


Object = Union[
    This, It, EventObject, Attacker, Blocker, Winner, Target, TargetPlayer, Each, Extreme, RandomOne,
    PlayerRef, BattleRef, FirstSword, SwordsOf, Chosen, Holder,
]

# ---------------------------------------------------------------- effects


@dataclass(frozen=True)
class Duration(Node):
    until: str


@dataclass(frozen=True)
class DealDamage(Node):
    amount: Expr
    target: Object
    unpreventable: bool = False  # 'that can't be prevented': the later effect wins against "can't be damaged"
    dealer: Object | None = None  # 'X deals N damage to Y': X is the source (else the ability's card)


@dataclass(frozen=True)
class Destroy(Node):
    target: Object


@dataclass(frozen=True)
class Draw(Node):
    player: Object | None
    amount: Expr


@dataclass(frozen=True)
class Gain(Node):
    player: Object | None
    amount: Expr
    resource: Name


@dataclass(frozen=True)
class Lose(Node):
    player: Object | None
    amount: Expr | None
    resource: Name


@dataclass(frozen=True)
class Pay(Node):
    amount: Expr
    resource: Name


@dataclass(frozen=True)
class Give(Node):
    target: Object
    name: Name
    duration: Duration | None


@dataclass(frozen=True)
class PutStatus(Node):
    amount: Expr
    status: Name
    target: Object
    duration: Duration | None


@dataclass(frozen=True)
class Remove(Node):
    amount: Expr | None
    name: Name
    target: Object


@dataclass(frozen=True)
class Place(Node):
    """'place "Ash Plains" into the terrain': a new card of that name, its controller's."""

    card: str
    zone: Name


@dataclass(frozen=True)
class RemoveChanges(Node):
    """'remove 1 state change from X': whole status instances (None: all of them), the latest first."""

    amount: Expr | None
    target: Object


@dataclass(frozen=True)
class RemoveDamage(Node):
    target: Object


@dataclass(frozen=True)
class ReturnToHand(Node):
    target: Object


@dataclass(frozen=True)
class MoveToEnd(Node):
    target: Object
    side: str


@dataclass(frozen=True)
class CreateToken(Node):
    player: Object | None
    amount: Expr
    card: str


@dataclass(frozen=True)
class Discard(Node):
    """'discard 2 cards at random'; chooser 'their' or 'your': '... of their/your choice' (while resolving)."""

    player: Object | None
    amount: Expr
    chooser: str = ""


@dataclass(frozen=True)
class Choose(Node):
    """'choose a unit you control', 'the opponent chooses up to 2 cards in their hand', and 'search your
    deck for a unit with cost 2 or less' (searched: the filter's zone is the zone searched)."""

    player: Object | None
    count: int
    up_to: bool
    filter: Filter
    searched: bool = False
    revealed: bool = False  # 'search ... for X, reveal it': the chosen card is shown first


@dataclass(frozen=True)
class Reveal(Node):
    target: Object


@dataclass(frozen=True)
class PutInto(Node):
    """'put it into your hand': a card goes to that zone of its owner."""

    target: Object
    possessive: str
    zone: Name


@dataclass(frozen=True)
class Shuffle(Node):
    possessive: str
    zone: Name


@dataclass(frozen=True)
class Modify(Node):
    target: Object
    sign: str
    amount: Expr
    stat: Name
    duration: Duration | None


@dataclass(frozen=True)
class Restrict(Node):
    target: Object
    restriction: str
    duration: Duration | None


@dataclass(frozen=True)
class Grant(Node):
    target: Object
    name: Name


@dataclass(frozen=True)
class GrantStatus(Node):
    """'its holder has -1 Guarded' (static): a status instance generated for as long as the static works."""

    target: Object
    value: int
    name: Name


@dataclass(frozen=True)
class ReduceDamage(Node):
    target: Object
    amount: Expr
    increased: bool = False  # 'damage to X is increased by N'


@dataclass(frozen=True)
class DamageDealtBy(Node):
    """'damage dealt by X is increased by N' (static): damage the card deals (or its holder's cards deal)."""

    target: Object
    increased: bool
    amount: Expr


@dataclass(frozen=True)
class Pierce(Node):
    """'damage dealt by X can't be prevented' (static): it passes a "can't be damaged" older than it."""

    target: Object


@dataclass(frozen=True)
class RangeShift(Node):
    """'the ranges of X are reduced by 1' (static): every distance of the ranges X uses, shifted."""

    target: Object
    increased: bool
    amount: Expr


@dataclass(frozen=True)
class CountsAs(Node):
    """'this counts as element earth' (static): X has one more value of the attribute while it applies."""

    target: Object
    attribute: Name
    value: Name


@dataclass(frozen=True)
class DistanceAs(Node):
    """'the distance to X is treated as 3' (static): every distance between X and another card."""

    target: Object
    amount: Expr


@dataclass(frozen=True)
class RefuseChanges(Node):
    """'X can't receive state changes of influence N or less' (static)."""

    target: Object
    influence: int


@dataclass(frozen=True)
class SetResource(Node):
    possessive: str
    resource: Name
    amount: Expr


@dataclass(frozen=True)
class Summon(Node):
    """'summon it': an ability's summon of a card from outside the field (Successor SU-5.5)."""

    target: Object


@dataclass(frozen=True)
class Delete(Node):
    target: Object


@dataclass(frozen=True)
class Ready(Node):
    target: Object


@dataclass(frozen=True)
class Exhaust(Node):
    target: Object


@dataclass(frozen=True)
class LevelChange(Node):
    direction: str  # 'up' or 'down'
    target: Object
    amount: Expr | None


@dataclass(frozen=True)
class LiftRestriction(Node):
    target: Object


@dataclass(frozen=True)
class BlockedBy(Node):
    """'this can't be blocked by units with cost 3 or more' (a static ability)."""

    target: Object
    filter: Filter


@dataclass(frozen=True)
class MustBlock(Node):
    """'this must block if able' (a static ability)."""

    target: Object


@dataclass(frozen=True)
class DamageFloor(Node):
    """'this can't be damaged by less than its bp': smaller damage is not taken (a static ability)."""

    target: Object
    stat: Name


@dataclass(frozen=True)
class AnnounceTurn(Node):
    """'announce the start of the turn': "at the start of ... turn" abilities trigger here, not before the
    turn's first phase."""


@dataclass(frozen=True)
class DealJokers(Node):
    """'deal jokers': from now on this turn, a joker due to the turn player is dealt as soon as it can be."""


@dataclass(frozen=True)
class TakeActions(Node):
    """'take actions': the turn player takes the ruleset's actions, one at a time, until they end."""


@dataclass(frozen=True)
class OrderKey(Node):
    """One key of an ordering: 'stat' (descending), 'kind', 'turn_player', 'position' or 'priority'."""

    key: str
    names: tuple[Name, ...]


@dataclass(frozen=True)
class Stage(Node):
    pass


@dataclass(frozen=True)
class PlayStaged(Node):
    kinds: tuple[Name, ...]
    order: tuple[OrderKey, ...]


@dataclass(frozen=True)
class AttackAll(Node):
    filter: Filter
    order: tuple[OrderKey, ...]


# ---------------------------------------------------------------- battle effects


@dataclass(frozen=True)
class Hit(Node):
    """'hit the target for (atk of the actor - def of the target) [to its mp] [, ignoring states of class
    defence or protection]': one attack hit, its amount computed just before it lands."""

    target: Object
    amount: Expr
    pool: Name | None = None
    ignoring: tuple[Name, ...] = ()


@dataclass(frozen=True)
class Recover(Node):
    """'the actor recovers (the damage) hp': raises a value, never above its max_ value."""

    target: Object
    amount: Expr
    value: Name


@dataclass(frozen=True)
class PerformRolled(Node):
    """'roll 1D for the actor and perform its card of that face': the turn's card rolls, and the card
    attached to it at that place (its action table) resolves as if played, with no cost paid."""

    dice: Dice


@dataclass(frozen=True)
class NormalMove(Node):
    """'the actor may move one line forward or back': the turn's card may step a line (or stay)."""


@dataclass(frozen=True)
class MoveLines(Node):
    """'move target character back 2 lines': cards step lines of their own team, never past its ends."""

    target: Object
    count: int
    way: str  # 'forward' or 'back'


@dataclass(frozen=True)
class ReduceDirectly(Node):
    """'reduce the hp of X directly by N': the stat damage lowers goes down by N, past every reduction."""

    stat: Name
    target: Object
    amount: Expr


@dataclass(frozen=True)
class SetValue(Node):
    value: Name
    target: Object
    amount: Expr


@dataclass(frozen=True)
class ResetStat(Node):
    """'reset the atk of the target': back to its initial value."""

    stat: Name
    target: Object


@dataclass(frozen=True)
class RaiseTurn(Node):
    amount: Expr


@dataclass(frozen=True)
class SetUsed(Node):
    target: Object
    used: bool


@dataclass(frozen=True)
class ReverseSwords(Node):
    holder: Object


@dataclass(frozen=True)
class MoveSword(Node):
    """'move X to the end of the sword list of Y'."""

    sword: Object
    holder: Object


@dataclass(frozen=True)
class AddSword(Node):
    """'add "Null Sword" ...' (a fresh sword) or 'add a copy of X ...' to the end of a sword list."""

    name: str | None
    source: Object | None
    holder: Object


@dataclass(frozen=True)
class ChangeSword(Node):
    """'change X into Y': X becomes the same sword as Y (its enchantments too), keeping its used flag."""

    target: Object
    into: Object


@dataclass(frozen=True)
class Build(Node):
    name: str


@dataclass(frozen=True)
class SkipAction(Node):
    pass


@dataclass(frozen=True)
class BuildFails(Node):
    pass


@dataclass(frozen=True)
class Redirect(Node):
    to: Object


@dataclass(frozen=True)
class SetDamage(Node):
    amount: Expr


@dataclass(frozen=True)
class RemoveClass(Node):
    """'remove all bad states from the target'."""

    klass: Name
    target: Object


BATTLE_EFFECTS = (Hit, Recover, SetValue, ResetStat, RaiseTurn, SetUsed, ReverseSwords, MoveSword, AddSword,
                  ChangeSword, Build, SkipAction, BuildFails, Redirect, SetDamage, RemoveClass)

Effect = Union[
    DealDamage, Destroy, Draw, Gain, Lose, Pay, Give, PutStatus, Remove, RemoveDamage,
    ReturnToHand, MoveToEnd, CreateToken, Discard, Modify, Restrict, Grant, ReduceDamage, Stage,
    PlayStaged, AttackAll, SetResource, Delete, Summon, Ready, Exhaust, LevelChange, LiftRestriction, TakeActions,
    BlockedBy, MustBlock, DamageFloor, AnnounceTurn, DealJokers, Hit, Recover, SetValue, ResetStat, RaiseTurn,
    ReduceDirectly, PerformRolled, NormalMove, MoveLines, SetUsed, ReverseSwords, MoveSword, AddSword, ChangeSword, Build, SkipAction, BuildFails, Redirect, SetDamage,
    RemoveClass, Choose, Reveal, PutInto, Shuffle, RemoveChanges, GrantStatus, DamageDealtBy, RefuseChanges, Place, Pierce, RangeShift, DistanceAs, CountsAs,
]


def asks(e: Effect) -> bool:
    """Return whether an effect asks a player while its ability resolves ('choose', 'search', a
    discard of someone's choice): its ability's resolution is cut into steps there."""
    return isinstance(e, Choose) or (isinstance(e, Discard) and bool(e.chooser))


def continues_after_choice(e: Effect) -> bool:
    """Return whether a choice does something itself once answered (a discard, 'search ..., reveal it')."""
    return isinstance(e, Discard) or (isinstance(e, Choose) and e.revealed)

# ---------------------------------------------------------------- sentences and abilities


@dataclass(frozen=True)
class Sentence(Node):
    """One sentence of a body: mode is 'do', 'may', 'must_pay', 'if_you_do', 'if_you_dont' or
    'if_happened' (it happens only if the sentence before acted on something: Pattern B); in a
    battle also 'tight' ('furthermore,'), 'loose' ('and then,') or 'independent' ('separately,')."""

    mode: str
    condition: Cond | None
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Subject(Node):
    """Who an event is about: 'this', 'its holder' (the card this one is attached to), a player word, or an
    article with a filter."""

    kind: str
    word: str
    filter: Filter | None


@dataclass(frozen=True)
class Triggered(Node):
    subject: Subject
    event: str
    condition: Cond | None
    body: tuple[Sentence, ...]


@dataclass(frozen=True)
class Timed(Node):
    whose: str
    phase: Name | None
    condition: Cond | None
    body: tuple[Sentence, ...]
    at_end: bool = False  # 'at the end of your turn' (else the start of a turn or phase)


@dataclass(frozen=True)
class Static(Node):
    body: tuple[Sentence, ...]


@dataclass(frozen=True)
class SpellEffect(Node):
    body: tuple[Sentence, ...]
    repeat: int = 1  # 'effect, 10 times:' (automatic battles)


@dataclass(frozen=True)
class Activated(Node):
    """'activate [once per turn] [if cond]: body': used at will by its card's controller."""

    once_per_turn: bool
    condition: Cond | None
    body: tuple[Sentence, ...]


Ability = Union[Triggered, Timed, Static, SpellEffect, Activated]

# ---------------------------------------------------------------- cards, keywords, statuses


@dataclass(frozen=True)
class KindDecl(Node):
    kind: Name


@dataclass(frozen=True)
class CostItem(Node):
    amount: int
    resource: Name


@dataclass(frozen=True)
class CostDecl(Node):
    items: tuple[CostItem, ...]


@dataclass(frozen=True)
class StatItem(Node):
    """'bp 4000 / 5000 / 7000': the value at level 1, then the values at higher levels."""

    stat: Name
    value: int
    higher: tuple[int, ...] = ()


@dataclass(frozen=True)
class StatsDecl(Node):
    items: tuple[StatItem, ...]


@dataclass(frozen=True)
class AttrItem(Node):
    attr: Name
    value: Name


@dataclass(frozen=True)
class AttrsDecl(Node):
    items: tuple[AttrItem, ...]


@dataclass(frozen=True)
class KeywordUse(Node):
    name: Name
    args: tuple[int, ...]


@dataclass(frozen=True)
class KeywordsDecl(Node):
    items: tuple[KeywordUse, ...]


@dataclass(frozen=True)
class TextDecl(Node):
    text: str


@dataclass(frozen=True)
class TokenDecl(Node):
    pass


@dataclass(frozen=True)
class RequiresDecl(Node):
    """'requires element moon or shadow' (mode 'any') / '... moon and shadow' ('all'): a holder must have
    one (or every) value of the attribute for the card to go in its table."""

    attr: Name
    values: tuple[Name, ...]
    mode: str


@dataclass(frozen=True)
class RangeDecl(Node):
    """'range 3' (kind 'to', 0 to 3), 'range 3 to 5' ('to', 3 to 5), 'range [3][5]' ('set', 3 and 5)."""

    kind: str
    values: tuple[int, ...]


@dataclass(frozen=True)
class NamesDecl(Node):
    """'names "斬撃剣", "斬"': other spellings a party file may use for this card."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class SubtargetDecl(Node):
    """'subtarget the next sword': decided at step 3 of an action, read at effect time."""


@dataclass(frozen=True)
class SwordsDecl(Node):
    """'swords "Mirror Sword"': the sword list a built swordsman starts with."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class SlotsDecl(Node):
    """'slots fire, fire, water': a successor's memory slots, each of a genre (Successor SU-5.1)."""

    genres: tuple[Name, ...]


CardPart = Union[KindDecl, CostDecl, StatsDecl, AttrsDecl, KeywordsDecl, TextDecl, TokenDecl, NamesDecl,
                 SubtargetDecl, SwordsDecl, RangeDecl, RequiresDecl, SlotsDecl]


@dataclass(frozen=True)
class Card(Node):
    name: str
    parts: tuple[CardPart, ...]
    abilities: tuple[Ability, ...]


@dataclass(frozen=True)
class KeywordDef(Node):
    name: Name
    params: tuple[Name, ...]
    text: str | None
    abilities: tuple[Ability, ...]


@dataclass(frozen=True)
class StatusDef(Node):
    name: Name
    settings: tuple[tuple[str, str], ...]
    text: str | None
    abilities: tuple[Ability, ...]
    hooks: tuple[Hook, ...] = ()
    param: Name | None = None  # 'status Guarded(n)': the instance's value, by that name


@dataclass(frozen=True)
class Hook(Node):
    """'whenever this would act: skip the action.': a state's reaction inside a battle step."""

    event: str
    body: tuple[Sentence, ...]


@dataclass(frozen=True)
class Rider(Node):
    """'after each hit if the damage >= 1: ...': an enchantment's addition to each hit of its sword."""

    condition: Cond | None
    body: tuple[Sentence, ...]


@dataclass(frozen=True)
class EnchantmentDef(Node):
    """An enchantment, held by swords: printed as a keyword or given by an effect."""

    name: Name
    params: tuple[Name, ...]
    stacking: str
    text: str | None
    launch: Expr | None = None
    shift: int = 0  # per stack: -1 launches a turn earlier
    vanishes: bool = False
    executable: Cond | None = None
    mp_cost: tuple[Expr, Name] | None = None
    riders: tuple[Rider, ...] = ()
    whole: bool = False


# ---------------------------------------------------------------- rulesets


@dataclass(frozen=True)
class Setting(Node):
    """A one-line ruleset setting: key and its values, e.g. ('players', (2,))."""

    key: str
    values: tuple[int | str | Name, ...]


@dataclass(frozen=True)
class KindRule(Node):
    kind: Name
    traits: tuple[str, ...]


@dataclass(frozen=True)
class ZoneDecl(Node):
    name: Name
    flags: tuple[str, ...]
    limit: int | None = None


@dataclass(frozen=True)
class Step(Node):
    name: Name
    body: tuple[Sentence, ...]


@dataclass(frozen=True)
class Phase(Node):
    name: Name
    steps: tuple[Step, ...]
    body: tuple[Sentence, ...]


@dataclass(frozen=True)
class Turn(Node):
    phases: tuple[Phase, ...]
    turn_end: tuple[Sentence, ...]


@dataclass(frozen=True)
class ChosenBlocker(Node):
    """'blocker: any unit the defending player controls, chosen by them.'; 'blockers: any number of ...'."""

    filter: Filter
    many: bool = False


@dataclass(frozen=True)
class Battle(Node):
    """The battle rules: who blocks, what a blocked and an unblocked attack do, and optionally who
    wins (the card that destroyed the other with a higher stat) and what happens at battle end."""

    blocker: Object | ChosenBlocker
    blocked: tuple[Sentence, ...]
    unblocked: tuple[Sentence, ...]
    win_stat: Name | None = None
    won: tuple[Sentence, ...] = ()
    end: tuple[Sentence, ...] = ()
    steps: tuple[Name, ...] = ()  # 'steps: block, damage, ...': the battle's steps after the attack, in order
    quiet: tuple[Name, ...] = ()  # 'no responses during ...': steps that open no interruption window


@dataclass(frozen=True)
class TriggerOrder(Node):
    keys: tuple[OrderKey, ...]


@dataclass(frozen=True)
class Checks(Node):
    body: tuple[Sentence, ...]
    deferred: bool = False  # 'checks after all processing'


@dataclass(frozen=True)
class LoseRule(Node):
    cond: Cond
    at_once: bool = False


@dataclass(frozen=True)
class ActionItem(Node):
    """One action of an action phase: 'set into trigger_zone', 'discard if the version is v2'."""

    name: Name
    zone: Name | None
    cond: Cond | None
    kind: Name | None = None  # 'discard joker': only cards of this kind


@dataclass(frozen=True)
class Actions(Node):
    items: tuple[ActionItem, ...]


@dataclass(frozen=True)
class Variant(Node):
    """'if the version is v1: resource life starts at 7': a setting that replaces another under an option."""

    option: Name
    value: Name
    rule: Setting


@dataclass(frozen=True)
class ActionRight(Node):
    """'action right: highest (stacks of Quick on it - stacks of Slow on it), then highest spd of it.'"""

    keys: tuple[Expr, ...]


@dataclass(frozen=True)
class Budget(Node):
    """'swordsmen have 10 points: 5 max_hp per point, ...': the creation budget of party files."""

    points: int
    buys: tuple[tuple[str, int], ...]


Rule = Union[Setting, KindRule, ZoneDecl, Turn, Battle, TriggerOrder, Checks, LoseRule, Variant, Actions,
             ActionRight, Budget]


@dataclass(frozen=True)
class Ruleset(Node):
    name: Name
    rules: tuple[Rule, ...]


Item = Union[Card, KeywordDef, StatusDef, EnchantmentDef, Ruleset]


@dataclass(frozen=True)
class File(Node):
    path: str = field(compare=False)
    items: tuple[Item, ...] = ()
