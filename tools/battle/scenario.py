"""Battle scenarios: a ruling as data. Parties, 'given' lines that set the state, 'run' lines, 'expect' lines.

Format (one instruction per line; '#' at the start of a line or after a space starts a comment):
    option NAME = VALUE
    A: Name: HP/ATK/DEF/SPD/sword, sword        (a swordsman of party A, front first; B: likewise)
    given WHO VALUE N [, VALUE N ...]            (hp, mp, ap, reserve_ap, a stat, or a state: 'Guard 2')
    given WHO sword K used|unused                 (K counts from 1 in WHO's list)
    given WHO sword K ENCHANTMENT N               (or ENCHANTMENT(ARGS) N: 'MPCost(2) 1')
    given turn N                                  (turn 0 is the one phenomenon period with no deaths)
    run: action count | states phase | N action(s) | death judgment | turn | battle
    expect WHO VALUE N    expect WHO swords: Slash Sword (used), Shock Sword [StunGiving 2]
    expect party A: Wall, Aria    expect turn N    expect result: A|B|draw|none
    expect log: LINE    expect no log: LINE    expect log in order: LINE | LINE | ...   (whole log lines)
    expect log contains: TEXT    expect no log contains: TEXT      (a deliberate partial match)
WHO is a position ('A1', 'B2') or a swordsman's name (also after it exited).
A file is read through the grammar (grammar/sheets.lark, compiler.parser.parse_battle_scenario) and
checked against the rules before it runs (compiler/check_battle_scenarios.py): every problem is a located
Diagnostic, and ScenarioError (tools/scenario_expect.py) carries them all.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from compiler import nodes as n
from compiler import sheet_nodes as sn
from compiler.check_battle_scenarios import Parties, check_battle
from compiler.check_scenarios import value
from compiler.diagnostics import CompileError, Diagnostic
from compiler.parser import parse_battle_scenario
from runtime.battle import hooks
from runtime.battle import procedure as p
from runtime.battle.rules import Rules
from runtime.battle.state import SIDES, Battle, Fighter, Sword
from tools.scenario_expect import ScenarioError

__all__ = ["ScenarioError", "Scenario", "parse_scenario", "run_scenario", "who", "sword_text"]


@dataclass
class Scenario:
    path: str
    options: dict[str, str] = field(default_factory=dict)
    parties: Parties = field(default_factory=lambda: ([], []))
    steps: list[n.Node] = field(default_factory=list)  # the 'given', 'run:' and 'expect' lines, in order
    source: str = ""  # the file's text, for the carets of its problems


def parse_scenario(text: str, path: str, rules: Rules) -> Scenario:
    """Return the scenario a file describes, or raise ScenarioError with every problem of its lines (party
    lines are checked as party files are, without budget)."""
    text = text.removeprefix("\ufeff")
    try:
        battle, problems = parse_battle_scenario(text, path)
    except CompileError as err:  # more syntax errors than are worth reading
        raise ScenarioError(err.diagnostics, text) from None
    parties, found = check_battle(battle, rules)
    if problems or found:  # a line that does not parse is left out: only the checks of the rest are shown
        raise ScenarioError(problems or found, text)
    options = {o.name.value: o.value.value for o in battle.lines if isinstance(o, sn.ScOption)}
    steps: list[n.Node] = [line for line in battle.lines if not isinstance(line, (sn.BParty, sn.ScOption))]
    return Scenario(path, options, parties, steps, text)


def run_scenario(rules: Rules, sc: Scenario) -> tuple[Battle, list[str]]:
    """Play a scenario; return the battle and every failed expectation ('path:line: ...')."""
    s = p.new_battle(rules, sc.parties, sc.options)
    failures: list[str] = []
    for line in sc.steps:
        try:
            if isinstance(line, (sn.BGivenTurn, sn.BGivenSword, sn.BGivenValues)):
                _given(s, line)
            elif isinstance(line, sn.BRun):
                _run(s, line)
            else:
                failures += [f"{sc.path}:{line.loc.line}: {m}" for m in _expect(s, line)]
        except LookupError as err:  # a position or sword the battle no longer has, or no one left to act
            raise ScenarioError([Diagnostic("E110", f"cannot carry out this line: {err.args[0]}", sc.path,
                                            line.loc.line, line.loc.col)], sc.source) from None
    return s, failures


def who(s: Battle, word: str) -> Fighter:
    """Return the swordsman a position ('A1') or a name means; LookupError if there is none (any more)."""
    if word[:1] in SIDES and word[1:].isdigit():
        party = s.parties[SIDES.index(word[0])]
        if not 1 <= int(word[1:]) <= len(party):
            raise LookupError(f"party {word[0]} has no swordsman {word} now (it has {len(party)})")
        return party[int(word[1:]) - 1]
    found = [f for f in s.fighters() + s.exited[0] + s.exited[1] if f.name == word]
    if not found:
        raise LookupError(f"no swordsman is named '{word}'")
    return found[0]


def _given(s: Battle, line: sn.BGivenTurn | sn.BGivenSword | sn.BGivenValues) -> None:
    if isinstance(line, sn.BGivenTurn):
        s.turn = value(line.turn)
        s.turn_zero = s.turn == 0
        return
    f = who(s, line.who.text)
    if isinstance(line, sn.BGivenValues):
        for v in line.values:
            _set(f, v.key.value, value(v.value))
        return
    k = value(line.index)
    if k > len(f.swords):
        raise LookupError(f"{line.who.text} has no sword {k} (it has {len(f.swords)})")
    sword = f.swords[k - 1]
    if line.used is not None:
        sword.used = line.used == "used"
    elif line.enchantment is not None and line.stacks is not None:
        sword.given[line.enchantment.value] = (value(line.stacks), tuple(value(a) for a in line.args))


def _set(f: Fighter, key: str, number: int) -> None:
    if key[0].isupper():
        f.states[key] = number
    else:
        f.values[key] = number


def _run(s: Battle, line: sn.BRun) -> None:
    if line.what == "action count":
        p.action_count(s)
    elif line.what == "states phase":
        hooks.states_phase(s)
        p.settle(s)
    elif line.what == "death judgment":
        hooks.death_judgment(s)
        s.turn_zero = False
        p.settle(s)
    elif line.what == "turn":
        p.play_turn(s)
    elif line.what == "battle":
        p.run_turns(s)
    else:  # 'N action(s)' (check_battle: with its number)
        for k in range(value(line.count) if line.count else 0):
            if s.result or not p.act(s):
                raise LookupError(f"no one can act for action {k + 1}")


def sword_text(s: Battle, w: Sword) -> str:
    """Return 'Shock Sword (used) [StunGiving 2]': a sword as expectations write it."""
    given = ", ".join(f"{k} {n}" for k, (n, _a) in sorted(w.given.items()) if n)
    return w.card + (" (used)" if w.used else "") + (f" [{given}]" if given else "")


def _expect(s: Battle, line: n.Node) -> list[str]:
    if isinstance(line, sn.ScLogOrder):
        return _in_order(s.log, [w.text for w in line.lines])
    if isinstance(line, sn.ScLog):
        return _log(s.log, line.kind, line.text)
    if isinstance(line, sn.BResult):
        return _same("result", s.result or "none", line.value.value)
    if isinstance(line, sn.BTurn):
        return [] if s.turn == value(line.value) else [f"turn is {s.turn}, expected {line.value.text}"]
    if isinstance(line, sn.BPartyIs):
        return _same(f"party {line.side}", ", ".join(f.name for f in s.parties[SIDES.index(line.side)]), line.names)
    if isinstance(line, sn.BSwords):
        f = who(s, line.who.text)
        return _same(f"{line.who.text}'s swords", ", ".join(sword_text(s, w) for w in f.swords), line.text)
    assert isinstance(line, sn.BValueIs), line
    f, key = who(s, line.who.text), line.key.value
    found = f.states.get(key, 0) if key[0].isupper() else (f.overkill if key == "overkill" else f.values[key])
    return [] if found == value(line.value) else [f"{line.who.text} {key} is {found}, expected {line.value.text}"]


def _log(log: list[str], key: str, wanted: str) -> list[str]:
    """Return a failure unless the log has (or, after 'no', lacks) the whole line, or a line containing it."""
    partial = key.endswith("contains")
    hits = [i for i, line in enumerate(log, 1) if (wanted in line if partial else wanted == line)]
    if key == "log":
        return [] if hits else [f"the log lacks the line '{wanted}'{_closest(log, wanted)}"]
    if key == "log contains":
        return [] if hits else [f"no log line contains '{wanted}'"]
    if not hits:
        return []
    if key == "no log":
        return [f"the log has the line '{wanted}' (line {hits[0]})"]
    return [f"log line {hits[0]} contains '{wanted}': '{log[hits[0] - 1]}'"]


def _closest(log: list[str], wanted: str) -> str:
    """Return '; the closest line is ...' naming a line that contains the text (or is most like it), or ''."""
    near = [line for line in log if wanted in line][:1] or difflib.get_close_matches(wanted, log, n=1, cutoff=0.6)
    return f"; the closest line is '{near[0]}'" if near else ""


def _in_order(log: list[str], wanted: list[str]) -> list[str]:
    """Return a failure unless each whole line is logged after the line before it."""
    at = 0
    for k, text in enumerate(wanted):
        found = next((i for i in range(at, len(log)) if log[i] == text), None)
        if found is None:
            what = f"has '{text}' only before '{wanted[k - 1]}'" if text in log else f"lacks the line '{text}'"
            return [f"the log {what} (expected in order: {' | '.join(wanted)})"]
        at = found + 1
    return []


def _same(what: str, found: str, wanted: str) -> list[str]:
    return [] if found == wanted.strip() else [f"{what} is {found}, expected {wanted.strip()}"]
