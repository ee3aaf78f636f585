"""The AST of the line-based files (grammar/sheets.lark): decks, party files, scenarios, battle scenarios.

Frozen dataclasses with locations, as compiler/nodes.py for the card language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from compiler.nodes import File, Name, Node

# ---------------------------------------------------------------- line-based files (grammar/sheets.lark)


@dataclass(frozen=True)
class Word(Node):
    """A word as written, read later by the check (a count that may not be a number at all)."""

    text: str


@dataclass(frozen=True)
class DeckEntry(Node):
    """'N Card Name' (count None: one copy)."""

    count: Word | None
    name: Name


@dataclass(frozen=True)
class DeckFile(Node):
    path: str = field(compare=False)
    entries: tuple[DeckEntry, ...] = ()


@dataclass(frozen=True)
class SwordsmanLine(Node):
    """'Name: HP/ATK/DEF/SPD/sword, sword' as written: each field and sword a Word ('' where it is empty)."""

    name: Name
    stats: tuple[Word, ...]  # HP, ATK, DEF, SPD
    swords: tuple[Word, ...]


@dataclass(frozen=True)
class PartyFile(Node):
    path: str = field(compare=False)
    swordsmen: tuple[SwordsmanLine, ...] = ()


# ---------------------------------------------------------------- scenario files (grammar/sheets.lark)
# Players ('P1'), numbers and lines of text are Words as written; the checks (compiler/check_scenarios.py,
# compiler/check_battle_scenarios.py) read them. A card list is DeckEntry nodes, as a deck file's lines.


@dataclass(frozen=True)
class ScTitle(Node):
    """'scenario ID: title'."""

    id: Word
    title: str


@dataclass(frozen=True)
class ScRuleset(Node):
    name: Name


@dataclass(frozen=True)
class ScSeed(Node):
    value: Word


@dataclass(frozen=True)
class ScStop(Node):
    """'stop: end', 'stop: after turn N', 'stop: before phase NAME of turn N', 'stop: at the next choice'."""

    kind: str  # 'end', 'after turn', 'before phase', 'at the next choice'
    phase: Name | None = None
    turn: Word | None = None


@dataclass(frozen=True)
class ScOption(Node):
    """'option NAME = VALUE' (card-game and battle scenarios)."""

    name: Name
    value: Name


@dataclass(frozen=True)
class ScNewGame(Node):
    """'new game' or 'new game, first P1': the set-up's first line."""

    first: Word | None


@dataclass(frozen=True)
class ScTurnStart(Node):
    """'turn N, P1 active, phase NAME': the set-up's first line for a game in progress."""

    turn: Word
    active: Word
    phase: Name


@dataclass(frozen=True)
class ScCards(Node):
    """'P1 ZONE: A, 2 B' (no entries for '-'); the zone is 'deck list' for 'P1 deck list: ...'."""

    player: Word
    zone: Name
    entries: tuple[DeckEntry, ...]


@dataclass(frozen=True)
class ScCount(Node):
    """'P1 ZONE count N' or 'P1 ZONE count NAME N'."""

    player: Word
    zone: Name
    card: Name | None
    value: Word


@dataclass(frozen=True)
class ScAmount(Node):
    """'P1 RESOURCE N' (and 'P1 turns N' in a set-up)."""

    player: Word
    key: Name
    value: Word


@dataclass(frozen=True)
class ScStat(Node):
    """'STAT N' or 'printed STAT N' of a card ('damage', 'level' and 'cost' too)."""

    stat: Name
    value: Word
    printed: bool = False


@dataclass(frozen=True)
class ScStatus(Node):
    """'status NAME N': its stacks, or the sum of its signed values (None: 1)."""

    status: Name
    stacks: Word | None


@dataclass(frozen=True)
class ScChanges(Node):
    """'state changes N': how many status instances a card has."""

    count: Word


@dataclass(frozen=True)
class ScFace(Node):
    side: str  # 'down' or 'up'


@dataclass(frozen=True)
class ScCardState(Node):
    phrase: str  # 'ready', 'exhausted', 'attack restricted'


@dataclass(frozen=True)
class ScIs(Node):
    card: Name


@dataclass(frozen=True)
class ScHolds(Node):
    """'holds: A, 2 B': the cards attached to the card, in order ('-' or nothing: none)."""

    entries: tuple[DeckEntry, ...]


@dataclass(frozen=True)
class ScLine(Node):
    """'line middle': the line of its team the card stands in; 'square front 2': its square of a grid."""

    line: Name
    square: Word | None = None


ScFact = Union[ScStat, ScStatus, ScChanges, ScFace, ScCardState, ScIs, ScHolds, ScLine]


@dataclass(frozen=True)
class ScSlot(Node):
    """'P1 ZONE[i] FACT': a fact about the i-th card of a zone."""

    player: Word
    zone: Name
    index: Word
    fact: ScFact


@dataclass(frozen=True)
class ScSees(Node):
    """'P2 sees: TEXT' or 'P2 does not see: TEXT'."""

    player: Word
    text: str
    seen: bool


@dataclass(frozen=True)
class ScLog(Node):
    """'log: LINE', 'no log: LINE', 'log contains: TEXT', 'no log contains: TEXT' (battles too)."""

    kind: str
    text: str


@dataclass(frozen=True)
class ScLogOrder(Node):
    """'log in order:' and the lines under it (in a battle: the lines between ' | ')."""

    lines: tuple[Word, ...]


@dataclass(frozen=True)
class ScResult(Node):
    """'result: P1 wins' (with its winner), 'draw', 'all lose' or 'none'."""

    value: str
    winner: Word | None = None


@dataclass(frozen=True)
class ScOffers(Node):
    """'offers: ACTION' or 'does not offer: ACTION'."""

    action: str
    offered: bool


@dataclass(frozen=True)
class ScError(Node):
    """'error: TEXT': the set-up is refused with a message containing TEXT."""

    text: str


@dataclass(frozen=True)
class ScSection(Node):
    """'setup:', 'choices:', 'expect:' or 'transcript:' and the lines indented under it."""

    name: str
    lines: tuple[Node, ...]


@dataclass(frozen=True)
class ScCardBlock(Node):
    """'cards:' and the card-language text indented under it: cards, keywords and statuses for this scenario."""

    file: File


@dataclass(frozen=True)
class ScRolls(Node):
    """'rolls: 4, 6, 1': the faces the game's dice show, in order (none: the game rolls no die)."""

    faces: tuple[Word, ...]


@dataclass(frozen=True)
class ScPlayers(Node):
    """'players 3': how many play, for a ruleset of 'players 2 to 4' (without the line: its least)."""

    value: Word


ScItem = Union[ScTitle, ScRuleset, ScSeed, ScStop, ScOption, ScRolls, ScPlayers, ScSection, ScCardBlock]


@dataclass(frozen=True)
class ScenarioFile(Node):
    path: str = field(compare=False)
    items: tuple[ScItem, ...] = ()


# ---------------------------------------------------------------- battle scenario files (grammar/sheets.lark)


@dataclass(frozen=True)
class BWho(Node):
    """A swordsman: a position ('A1', 'B2') or a name."""

    text: str
    position: bool


@dataclass(frozen=True)
class BParty(Node):
    """'A: NAME: HP/ATK/DEF/SPD/SWORDS': a swordsman of a party, its line read as a party file's line."""

    side: str
    line: Word


@dataclass(frozen=True)
class BValue(Node):
    """'hp 5', 'Guard 1': a value or a state of a swordsman."""

    key: Name
    value: Word


@dataclass(frozen=True)
class BGivenTurn(Node):
    turn: Word


@dataclass(frozen=True)
class BGivenSword(Node):
    """'given WHO sword K used|unused' or 'given WHO sword K ENCHANTMENT[(ARGS)] N'."""

    who: BWho
    index: Word
    used: str | None
    enchantment: Name | None = None
    args: tuple[Word, ...] = ()
    stacks: Word | None = None


@dataclass(frozen=True)
class BGivenValues(Node):
    """'given WHO VALUE N, VALUE N ...'."""

    who: BWho
    values: tuple[BValue, ...]


@dataclass(frozen=True)
class BRun(Node):
    """'run: action count', 'run: N action(s)', 'run: turn' ..."""

    what: str
    count: Word | None


@dataclass(frozen=True)
class BResult(Node):
    value: Name


@dataclass(frozen=True)
class BTurn(Node):
    value: Word


@dataclass(frozen=True)
class BPartyIs(Node):
    """'expect party A: NAME, NAME'."""

    side: str
    names: str


@dataclass(frozen=True)
class BSwords(Node):
    """'expect WHO swords: SWORD, SWORD (used) [ENCHANTMENT N]'."""

    who: BWho
    text: str


@dataclass(frozen=True)
class BValueIs(Node):
    """'expect WHO VALUE N'."""

    who: BWho
    key: Name
    value: Word


BLine = Union[BParty, ScOption, BGivenTurn, BGivenSword, BGivenValues, BRun, ScLog, ScLogOrder, BResult, BTurn,
              BPartyIs, BSwords, BValueIs]


@dataclass(frozen=True)
class BattleFile(Node):
    path: str = field(compare=False)
    lines: tuple[BLine, ...] = ()


# ---------------------------------------------------------------- team files (docs/teams.md)


@dataclass(frozen=True)
class TeamFace(Node):
    """'3: Ember Jab': the card on a face of the action die."""

    face: Word
    card: Name


@dataclass(frozen=True)
class TeamCharacter(Node):
    """'character Kaito the Ember, front' and its faces."""

    name: Name
    line: Name
    faces: tuple[TeamFace, ...]


@dataclass(frozen=True)
class TeamFile(Node):
    path: str = field(compare=False)
    title: str | None = None
    characters: tuple[TeamCharacter, ...] = ()


# ---------------------------------------------------------------- replay files: JSON (grammar/sheets.lark `replay`)
# Strings and numbers are kept as written (with their quotes, escapes and digits); compiler/replay_files.py
# reads them, so a bad escape or a number past its bound is located at the character that is wrong.


@dataclass(frozen=True)
class JString(Node):
    raw: str  # as written, quotes included


@dataclass(frozen=True)
class JNumber(Node):
    text: str


@dataclass(frozen=True)
class JLiteral(Node):
    word: str  # 'true', 'false' or 'null'


@dataclass(frozen=True)
class JArray(Node):
    items: tuple[JValue, ...]


@dataclass(frozen=True)
class JObject(Node):
    """Its members in file order, duplicate keys included (the check refuses them)."""

    pairs: tuple[tuple[JString, JValue], ...]


JValue = Union[JObject, JArray, JString, JNumber, JLiteral]
