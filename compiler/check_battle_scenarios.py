"""Battle scenario files through the grammar: the values of a battle scenario checked where they are read,
every problem located, in source order (format: tools/battle/scenario.py).

A party line ('A: NAME: HP/ATK/DEF/SPD/SWORDS') is a party file's line, read by the party reader
(runtime/battle/parties.py) with its codes (E202 an unknown sword, E204 a line that is no swordsman, E206
not a sword), at its place in the scenario. The other lines are checked against the battle ruleset: a
swordsman named exists (a position within its party, E208; the name of one, or of a swordsman a
build sword makes, E101), and so do values, states,
enchantments, options and results (E101); numbers are ASCII digits within bounds (E207); a 'log in order:'
lists lines (E103); a number goes only with 'run: N action(s)' (E103, E106).
"""

from __future__ import annotations

from compiler import nodes as n
from compiler import sheet_nodes as sn
from compiler.check_scenarios import MAX_NUMBER, Problems, option
from compiler.diagnostics import CompileError, Diagnostic
from compiler.party_files import parse_party
from runtime.battle.parties import SwordsmanSpec
from runtime.battle.rules import Rules
from runtime.battle.state import SIDES

VALUES = ("max_hp", "atk", "def", "spd", "hp", "mp", "ap", "reserve_ap")  # what a swordsman holds (§10, §12)
RESULTS = ("A", "B", "draw", "none")
Parties = tuple[list[SwordsmanSpec], list[SwordsmanSpec]]


def check_battle(battle: sn.BattleFile, rules: Rules) -> tuple[Parties, list[Diagnostic]]:
    """Return the parties of a battle scenario (front first) and every problem of its lines."""
    out = Problems(battle.path)
    parties: Parties = ([], [])
    for line in battle.lines:
        if isinstance(line, sn.BParty):
            parties[SIDES.index(line.side)].extend(_party_line(line, rules, out))
    built = {name for name, card in rules.cards.items() if card.kind not in rules.sword_kinds}  # 'Wall'
    names = {spec.name for party in parties for spec in party} | built
    for line in battle.lines:
        for who in _who_of(line):
            _who(who, parties, names, out)
        _line(line, rules, out)
    return parties, out.found


def _party_line(line: sn.BParty, rules: Rules, out: Problems) -> list[SwordsmanSpec]:
    """Return the swordsman of a party line; its problems are placed where the line's text starts."""
    try:
        return parse_party(line.line.text, out.path, rules.spellings)
    except CompileError as err:
        for p in err.diagnostics:
            out.found.append(Diagnostic(p.code, p.message, out.path, line.loc.line, line.line.loc.col + p.col - 1))
        return []


def _who_of(line: n.Node) -> list[sn.BWho]:
    who = getattr(line, "who", None)
    return [who] if isinstance(who, sn.BWho) else []


def _who(who: sn.BWho, parties: Parties, names: set[str], out: Problems) -> None:
    """Add a problem unless a swordsman is a position within its party or the name of one."""
    if not who.position:
        out.known(n.Name(who.loc, who.text), "swordsman", names)
        return
    side, digits = who.text[0], who.text[1:]
    size = len(parties[SIDES.index(side)])
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 6 and 1 <= int(digits) <= size):
        has = (f"party {side} has no swordsman" if not size else f"party {side} has only {side}1" if size == 1
               else f"party {side} has {side}1 to {side}{size}")
        out.add(who, "E208", f"no swordsman at '{who.text[:20]}'; {has}")


def _line(line: n.Node, rules: Rules, out: Problems) -> None:
    """Add the problems of one line that is not a party line: its names and numbers."""
    states = tuple(rules.statuses)
    if isinstance(line, sn.ScOption):
        option(line, rules.ruleset.name, rules.ruleset.option_values, out)
    elif isinstance(line, (sn.BGivenTurn, sn.BTurn)):
        out.number(line.turn if isinstance(line, sn.BGivenTurn) else line.value, "a turn")
    elif isinstance(line, sn.BGivenSword):
        out.number(line.index, "a sword index", 1)
        if line.enchantment is not None:
            out.known(line.enchantment, "enchantment", rules.enchantments)
            for arg in (*line.args, line.stacks):
                out.number(arg, "a number")
    elif isinstance(line, sn.BGivenValues):
        for v in line.values:
            out.known(v.key, "value or state", VALUES + states)
            out.number(v.value, "a value", -MAX_NUMBER)
    elif isinstance(line, sn.BValueIs):
        out.known(line.key, "value or state", VALUES + ("overkill",) + states)
        out.number(line.value, "a value", -MAX_NUMBER)
    elif isinstance(line, sn.BRun):
        _run(line, out)
    elif isinstance(line, sn.BResult):
        out.known(line.value, "result", RESULTS)
    elif isinstance(line, sn.ScLogOrder) and not line.lines:
        out.add(line, "E103", "'expect log in order:' needs the log lines it orders, separated by ' | '")


def _run(line: sn.BRun, out: Problems) -> None:
    """Add the problems of a 'run:' line: 'N action(s)' takes a number from 1, the others none."""
    if line.what in ("action", "actions") and line.count is None:
        out.add(line, "E103", f"'run: {line.what}' needs how many: 'run: 1 action' or 'run: 3 actions'")
    elif line.what in ("action", "actions"):
        out.number(line.count, "a number of actions", 1)
    elif line.count is not None:
        out.add(line.count, "E106", f"'run: {line.what}' takes no number; only 'run: N action(s)' does")
