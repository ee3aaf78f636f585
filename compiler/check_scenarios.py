"""Scenario files through the grammar: the values of a scenario checked where they are read, every problem
located, in source order (docs/scenarios.md).

Two stages, as a scenario is read and then run. `check_file` needs the file alone: its header lines and
sections, the set-up's first line, the `log in order:` blocks, and every number (ASCII digits, within
bounds). `check_game` needs the game the scenario runs against: its players, zones, resources, stats,
statuses, phases, options and card names exist (with "did you mean").

Codes: E101 an unknown name, E103 a missing part, E104 a line given twice, E106 a line in the wrong place,
E202 an unknown card and E203 a bad count in a card list (as in deck files), E207 a bad number, E208 a
player the ruleset does not have; syntax errors are E001 and E002 (compiler/parser.py).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from compiler import nodes as n
from compiler import sheet_nodes as sn
from compiler.diagnostics import Diagnostic, did_you_mean, quoted_list
from compiler.sheets import DeckRules, check_deck
from runtime.engine import Game
from runtime.vocabulary import CARD_STATES, MAX_FACES, SIGNED

# A turn, index, count, amount or value: the bound of the numbers of card text (nine digits), as an
# expectation must state what the cards can make (a ledger that appends digits reaches 813245), and cheap to read.
MAX_NUMBER = 999_999_999
MAX_SEED = 2**63 - 1  # what a signed 64-bit integer holds: any replay file or other tool can carry it
PLAIN_STATS = ("damage", "level", "cost")  # read from the card itself, not from the stats of the ruleset
SETUP_FACTS = ("damage", "level")  # what a set-up line may set on a card, besides statuses and card states
SETUP_ONLY = ("deck list", "jokers")  # lists a set-up registers; no zone holds them
SECTIONS = ("setup", "choices", "expect", "transcript", "cards")


class Problems:
    """The problems found in one file, and the helpers that word them."""

    number_code = "E207"  # a bad number (compiler/replay_files.py has its own code)

    def __init__(self, path: str):
        self.path, self.found = path, list[Diagnostic]()

    def add(self, node: n.Node, code: str, message: str) -> None:
        """Add a problem located at a node."""
        self.found.append(Diagnostic(code, message, self.path, node.loc.line, node.loc.col))

    def known(self, name: n.Name, what: str, table: Collection[str], code: str = "E101") -> bool:
        """Return whether a name is in a table; if not, add 'unknown WHAT' with the closest known name."""
        if name.value in table:
            return True
        hint = did_you_mean(name.value, table) or (f"; known: {quoted_list(table)}" if table else "")
        self.add(name, code, f"unknown {what} '{name.value}'{hint}")
        return False

    def number(self, word: sn.Word | None, what: str, low: int = 0, high: int = MAX_NUMBER) -> int | None:
        """Return a number as written (ASCII digits, '-' first if low < 0, from low to high), or None with
        a problem added; it is read with int() only once its length is known to be small."""
        if word is None:
            return None
        text = word.text
        digits = text[1:] if text.startswith("-") and low < 0 else text
        if not (digits.isascii() and digits.isdigit()):
            sign = ", '-' first if it is negative" if low < 0 else ""
            self.add(word, self.number_code, f"expected {what} in the digits 0-9{sign}, found '{text[:20]}'")
            return None
        digits = digits.lstrip("0") or "0"
        negative = text.startswith("-") and digits != "0"
        bound = -low if negative else high
        if len(digits) > len(str(bound)) or int(digits) > bound:
            shown = f"{'-' if negative else ''}{digits}" if len(digits) <= 20 else f"a number of {len(digits)} digits"
            self.add(word, self.number_code, f"{what} must be {'at least' if negative else 'at most'} "
                                   f"{low if negative else high}, found {shown}")
            return None
        value = -int(digits) if negative else int(digits)
        if value < low:
            self.add(word, self.number_code, f"{what} must be at least {low}, found {value}")
            return None
        return value


def _kind(item: n.Node) -> str:
    """Return what a top-level item is: a section's name, 'option NAME', or the header word."""
    if isinstance(item, sn.ScSection):
        return item.name
    if isinstance(item, sn.ScCardBlock):
        return "cards"
    if isinstance(item, sn.ScOption):
        return f"option {item.name.value}"
    words = {sn.ScTitle: "scenario", sn.ScRuleset: "ruleset", sn.ScSeed: "seed", sn.ScStop: "stop",
             sn.ScRolls: "rolls", sn.ScPlayers: "players"}
    return words[type(item)]


# ---------------------------------------------------------------- what the file alone tells


def check_file(sc: sn.ScenarioFile, rulesets: Collection[str]) -> list[Diagnostic]:
    """Return the problems of a scenario that its text shows: header lines, structure, numbers."""
    out = Problems(sc.path)
    _headers(sc, out, rulesets)
    for item in sc.items:
        if isinstance(item, sn.ScSection) and item.name == "setup":
            _setup_start(item, out)
        if isinstance(item, sn.ScSection) and item.name in ("setup", "expect"):
            for line in item.lines:
                _numbers(line, item.name, out)
    return out.found


def _headers(sc: sn.ScenarioFile, out: Problems, rulesets: Collection[str]) -> None:
    """Add the problems of the header lines: twice, missing, an unknown ruleset, a bad seed or turn."""
    firsts: dict[str, n.Node] = {}
    for item in sc.items:
        kind = _kind(item)
        if kind in firsts:
            what = f"'{kind}:' section" if kind in SECTIONS else f"'{kind}' line"
            out.add(item, "E104", f"the scenario has a second {what}; the first is at line {firsts[kind].loc.line}")
        firsts.setdefault(kind, item)
        if isinstance(item, sn.ScRuleset):
            out.known(item.name, "ruleset", rulesets)
        elif isinstance(item, sn.ScSeed):
            out.number(item.value, "a seed", 0, MAX_SEED)
        elif isinstance(item, sn.ScStop):
            out.number(item.turn, "a turn", 1)
        elif isinstance(item, sn.ScRolls):
            for face in item.faces:
                out.number(face, "a die's face", 1, MAX_FACES)
        elif isinstance(item, sn.ScPlayers):
            out.number(item.value, "a number of players", 1)
        elif isinstance(item, sn.ScCardBlock) and not item.file.items:
            out.add(item, "E103", "'cards:' needs the cards it declares below it, indented, in the card language")
    for kind, line in (("scenario", "'scenario ID: title'"), ("ruleset", "'ruleset NAME'")):
        if kind not in firsts:
            out.found.append(Diagnostic("E103", f"a scenario needs a {line} line", sc.path, 1, 1))


def _setup_start(setup: sn.ScSection, out: Problems) -> None:
    """Add the problems of how the set-up starts: the first line, once; a new game takes only decks."""
    starts = [line for line in setup.lines if isinstance(line, (sn.ScNewGame, sn.ScTurnStart))]
    if setup.lines and not isinstance(setup.lines[0], (sn.ScNewGame, sn.ScTurnStart)):
        out.add(setup.lines[0], "E103", "the set-up must start with 'new game[, first P1]' or "
                                        "'turn N, P1 active, phase NAME'")
    for again in starts[1:]:
        out.add(again, "E104", f"the set-up says twice how the game starts; the first is at line {starts[0].loc.line}")
    if starts and isinstance(starts[0], sn.ScNewGame):
        for line in setup.lines:
            if not isinstance(line, sn.ScNewGame) and not (isinstance(line, sn.ScCards) and line.zone.value == "deck"):
                out.add(line, "E106", "a 'new game' set-up takes only 'Pn deck:' lines; this line sets up a game "
                                      "in progress ('turn N, P1 active, phase NAME')")


def _numbers(line: n.Node, where: str, out: Problems) -> None:
    """Add the problems of a set-up or expectation line's numbers, and of a line out of its place."""
    if isinstance(line, sn.ScTurnStart):
        out.number(line.turn, "a turn", 1)
    elif isinstance(line, sn.ScCards):
        rules = DeckRules(frozenset(e.name.value for e in line.entries))  # names: check_game
        out.found += check_deck(sn.DeckFile(line.loc, out.path, line.entries), rules)[1]
        if where == "expect" and line.zone.value in SETUP_ONLY:
            out.add(line.zone, "E106", f"'{line.zone.value}' is registered by a set-up line; an expectation "
                                       "names a zone")
    elif isinstance(line, sn.ScAmount):
        out.number(line.value, "an amount", -MAX_NUMBER)
    elif isinstance(line, (sn.ScCount, sn.ScSees)) and where == "setup":
        out.add(line, "E106", "this is an expectation; it belongs in 'expect:'")
    elif isinstance(line, sn.ScCount):
        out.number(line.value, "a count")
    elif isinstance(line, sn.ScSlot):
        out.number(line.index, "a card index", 1)
        _fact(line.fact, where, out)
    elif isinstance(line, sn.ScLogOrder) and not line.lines:
        out.add(line, "E103", "'log in order:' needs the log lines it orders below it, indented further")


def _fact(fact: sn.ScFact, where: str, out: Problems) -> None:
    """Add the problems of a fact about a card: its number, and whether a set-up can set it."""
    if isinstance(fact, sn.ScStat):
        out.number(fact.value, "a value", -MAX_NUMBER)
    elif isinstance(fact, sn.ScStatus):
        out.number(fact.stacks, "a status value", -MAX_NUMBER)
    elif isinstance(fact, sn.ScChanges):
        out.number(fact.count, "a number of state changes")
    if isinstance(fact, sn.ScHolds):
        out.found += check_deck(sn.DeckFile(fact.loc, out.path, fact.entries),
                                DeckRules(frozenset(e.name.value for e in fact.entries)))[1]
    if where == "setup" and not (isinstance(fact, (sn.ScStatus, sn.ScCardState, sn.ScHolds, sn.ScFace, sn.ScLine)) or (
            isinstance(fact, sn.ScStat) and not fact.printed and fact.stat.value in SETUP_FACTS)):
        out.add(fact, "E106", "a set-up line sets a card's 'damage N', 'level N', 'status NAME N', 'holds: ...', "
                              f"'face down', 'line NAME', 'square LINE N' or one of {quoted_list(CARD_STATES)}; the rest is for "
                              "'expect:'")


# ---------------------------------------------------------------- what the game tells


def check_game(sc: sn.ScenarioFile, game: Game) -> list[Diagnostic]:
    """Return the problems of a scenario against the game it runs in (its options already chosen)."""
    out = Problems(sc.path)
    rs = game.ruleset
    phases = [p.name for p in rs.phases]
    players = scenario_players(sc, game)
    for item in sc.items:
        if isinstance(item, sn.ScStop) and item.phase is not None:
            out.known(item.phase, "phase", phases)
        elif isinstance(item, sn.ScPlayers) and not rs.players <= players <= max(rs.players, rs.max_players):
            most = max(rs.players, rs.max_players)
            allowed = f"{rs.players}" if most == rs.players else f"{rs.players} to {most}"
            out.add(item.value, "E208", f"ruleset '{rs.name}' is played by {allowed} players, found {players}")
        elif isinstance(item, sn.ScSection) and item.name in ("setup", "expect"):
            for line in item.lines:
                _game_line(line, item.name, game, out, players)
    return out.found


def scenario_players(sc: sn.ScenarioFile, game: Game) -> int:
    """Return how many play a scenario: its 'players N' line (checked), else the ruleset's least."""
    line = next((i for i in sc.items if isinstance(i, sn.ScPlayers)), None)
    if line is None or not (line.value.text.isascii() and line.value.text.isdigit()) or len(line.value.text) > 3:
        return game.ruleset.players
    return int(line.value.text)


def check_options(sc: sn.ScenarioFile, game: Game) -> list[Diagnostic]:
    """Return the problems of a scenario's 'option NAME = VALUE' lines against a game's options."""
    out = Problems(sc.path)
    for item in sc.items:
        if isinstance(item, sn.ScOption):
            option(item, game.declared.name, game.declared.option_values, out)
    return out.found


def option(line: sn.ScOption, ruleset: str, allowed: dict[str, tuple[str, ...]], out: Problems) -> None:
    """Add the problems of an 'option NAME = VALUE' line: an option the ruleset has, and one of its values."""
    if line.name.value in allowed:
        out.known(line.value, f"value of option '{line.name.value}'", allowed[line.name.value])
        return
    hint = did_you_mean(line.name.value, allowed) or (f"; known: {quoted_list(allowed)}" if allowed
                                                     else "; it has no options")
    out.add(line.name, "E101", f"ruleset '{ruleset}' has no option '{line.name.value}'{hint}")


def _game_line(line: n.Node, where: str, game: Game, out: Problems, players: int) -> None:
    """Add the problems of one set-up or expectation line against the game."""
    rs = game.ruleset
    for player in _players(line):
        _player(player, players, out)
    zones = list(rs.zones) + list(SETUP_ONLY if where == "setup" else ())
    if isinstance(line, sn.ScTurnStart):
        out.known(line.phase, "phase", [p.name for p in rs.phases])
    elif isinstance(line, sn.ScCards) and out.known(line.zone, "zone", zones):
        for entry in line.entries:
            out.known(entry.name, "card", game.cards, "E202")
    elif isinstance(line, sn.ScAmount):
        out.known(line.key, "resource", list(rs.resources) + (["turns"] if where == "setup" else []))
    elif isinstance(line, sn.ScCount) and out.known(line.zone, "zone", rs.zones) and line.card is not None:
        out.known(line.card, "card", game.cards, "E202")
    elif isinstance(line, sn.ScSlot) and out.known(line.zone, "zone", rs.zones):
        _game_fact(line.fact, game, out)


def _game_fact(fact: sn.ScFact, game: Game, out: Problems) -> None:
    """Add the problems of a fact about a card against the game: its stat, status or card name."""
    if isinstance(fact, sn.ScStat) and fact.printed:
        if out.known(fact.stat, "stat", PLAIN_STATS + tuple(game.ruleset.stats)) and fact.stat.value in SETUP_FACTS:
            out.add(fact.stat, "E106", f"'{fact.stat.value}' has no printed value; write '{fact.stat.value} "
                                       f"{fact.value.text}'")
    elif isinstance(fact, sn.ScStat):
        out.known(fact.stat, "stat", PLAIN_STATS + tuple(game.ruleset.stats))
    elif isinstance(fact, sn.ScStatus) and out.known(fact.status, "status", game.statuses):
        stacking = game.statuses[fact.status.value].stacking
        if stacking not in SIGNED and fact.stacks is not None and fact.stacks.text.startswith("-"):
            out.add(fact.stacks, "E105", f"status '{fact.status.value}' counts stacks, 1 or more; found "
                                         f"'{fact.stacks.text[:20]}'")
    elif isinstance(fact, sn.ScIs):
        out.known(fact.card, "card", game.cards, "E202")
    elif isinstance(fact, sn.ScHolds):
        for entry in fact.entries:
            out.known(entry.name, "card", game.cards, "E202")
    elif isinstance(fact, sn.ScLine):
        out.known(fact.line, "line", game.ruleset.lines)
        if fact.square is not None and not game.ruleset.squares:
            out.add(fact, "E106", f"'square {fact.line.value} {fact.square.text}': {game.ruleset.name}'s lines "
                                  "have no squares; say 'line NAME'")
        elif fact.square is not None:
            out.number(fact.square, "a square", 1, game.ruleset.squares)


def _players(line: n.Node) -> Iterable[sn.Word]:
    """Return the players a line names."""
    if isinstance(line, sn.ScNewGame):
        return [line.first] if line.first else []
    if isinstance(line, sn.ScTurnStart):
        return [line.active]
    if isinstance(line, sn.ScResult):
        return [line.winner] if line.winner else []
    player = getattr(line, "player", None)
    return [player] if isinstance(player, sn.Word) else []


def _player(word: sn.Word, players: int, out: Problems) -> None:
    """Add a problem unless a word names one of the ruleset's players, P1 to Pn."""
    names = [f"P{i}" for i in range(1, players + 1)]
    if word.text not in names:
        expected = " or ".join(names) if players <= 2 else f"P1 to P{players}"
        out.add(word, "E208", f"unknown player '{word.text[:20]}'; expected {expected}")


def player_index(word: sn.Word) -> int:
    """Return the index of a player check_game has accepted ('P2' -> 1)."""
    return int(word.text[1:]) - 1


def value(word: sn.Word) -> int:
    """Return the number a checked Word holds (check_file has refused any other)."""
    return int(word.text)
