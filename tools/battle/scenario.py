"""Battle scenarios: a ruling as data. Parties, 'given' lines that set the state, 'run' lines, 'expect' lines.

Format (one instruction per line, '#' comments):
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
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from runtime.battle import hooks
from runtime.battle import procedure as p
from runtime.battle.parties import SwordsmanSpec, parse_party
from runtime.battle.rules import Rules
from runtime.battle.state import SIDES, Battle, Fighter, Sword


class ScenarioError(Exception):
    """A scenario line that cannot be read or carried out; the message starts with path:line."""


@dataclass
class Scenario:
    path: str
    options: dict[str, str] = field(default_factory=dict)
    parties: tuple[list[SwordsmanSpec], list[SwordsmanSpec]] = field(default_factory=lambda: ([], []))
    steps: list[tuple[int, str, str]] = field(default_factory=list)  # (line, 'given'|'run'|'expect', text)


def parse_scenario(text: str, path: str, rules: Rules) -> Scenario:
    """Return the scenario a file describes (party lines are checked as party files are, without budget)."""
    sc = Scenario(path)
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        head, _, rest = line.partition(" ")
        if line[:2] in ("A:", "B:"):
            spec = parse_party(line[2:].strip(), f"{path}:{number}", rules.spellings)[0]
            sc.parties[SIDES.index(line[0])].append(spec)
        elif head == "option" and "=" in rest:
            key, _, value = rest.partition("=")
            sc.options[key.strip()] = value.strip()
        elif head in ("given", "expect") or head == "run:":
            sc.steps.append((number, head.rstrip(":"), rest.strip()))
        else:
            raise ScenarioError(f"{path}:{number}: expected 'A:', 'B:', 'option', 'given', 'run:' or 'expect', "
                                f"found '{head}'")
    return sc


def run_scenario(rules: Rules, sc: Scenario) -> tuple[Battle, list[str]]:
    """Play a scenario; return the battle and every failed expectation ('path:line: ...')."""
    s = p.new_battle(rules, sc.parties, sc.options)
    failures: list[str] = []
    for number, what, text in sc.steps:
        where = f"{sc.path}:{number}"
        try:
            if what == "given":
                _given(s, text)
            elif what == "run":
                _run(s, text)
            else:
                failures += [f"{where}: {m}" for m in _expect(s, text)]
        except (KeyError, ValueError, IndexError) as err:
            raise ScenarioError(f"{where}: cannot read '{what} {text}' ({err})") from None
    return s, failures


def who(s: Battle, word: str) -> Fighter:
    """Return the swordsman a position ('A1') or a name means."""
    if re.fullmatch(r"[AB]\d+", word):
        return s.parties[SIDES.index(word[0])][int(word[1:]) - 1]
    found = [f for f in s.fighters() + s.exited[0] + s.exited[1] if f.name == word]
    if not found:
        raise KeyError(word)
    return found[0]


def _given(s: Battle, text: str) -> None:
    if text.startswith("turn "):
        s.turn = int(text.split()[1])
        s.turn_zero = s.turn == 0
        return
    name, _, rest = text.partition(" ")
    f = who(s, name)
    if rest.startswith("sword "):
        _, k, *what = rest.split()
        sword = f.swords[int(k) - 1]
        if what[0] in ("used", "unused"):
            sword.used = what[0] == "used"
        else:
            name, args = _enchantment(what[0])
            sword.given[name] = (int(what[1]), args)
        return
    for item in rest.split(","):
        key, value = item.split()
        _set(f, key, int(value))


def _enchantment(word: str) -> tuple[str, tuple[int, ...]]:
    """Return the name and arguments of 'MPCost(2)' (or just a name)."""
    m = re.fullmatch(r"(\w+)(?:\(([\d, ]*)\))?", word)
    if m is None:
        raise ValueError(f"expected an enchantment like 'StunGiving' or 'MPCost(2)', found '{word}'")
    return m.group(1), tuple(int(x) for x in (m.group(2) or "").split(",") if x.strip())


def _set(f: Fighter, key: str, value: int) -> None:
    if key[0].isupper():
        f.states[key] = value
    else:
        f.values[key] = value


def _run(s: Battle, text: str) -> None:
    if text == "action count":
        p.action_count(s)
    elif text == "states phase":
        hooks.states_phase(s)
        p.settle(s)
    elif text == "death judgment":
        hooks.death_judgment(s)
        s.turn_zero = False
        p.settle(s)
    elif text == "turn":
        p.play_turn(s)
    elif text == "battle":
        p.run_turns(s)
    else:
        for n in range(int(text.split()[0])):
            if s.result or not p.act(s):
                raise ValueError(f"no one can act for action {n + 1}")


def sword_text(s: Battle, w: Sword) -> str:
    """Return 'Shock Sword (used) [StunGiving 2]': a sword as expectations write it."""
    given = ", ".join(f"{k} {n}" for k, (n, _a) in sorted(w.given.items()) if n)
    return w.card + (" (used)" if w.used else "") + (f" [{given}]" if given else "")


def _expect(s: Battle, text: str) -> list[str]:
    if text.startswith("log in order: "):
        return _in_order(s.log, [x.strip() for x in text[14:].split(" | ")])
    key, _, wanted = text.partition(": ")
    if key in ("log", "no log", "log contains", "no log contains"):
        return _log(s.log, key, wanted)
    if text.startswith("result: "):
        return _same("result", s.result or "none", text[8:])
    if text.startswith("turn "):
        return _same("turn", str(s.turn), text[5:])
    if text.startswith("party "):
        side, _, names = text[6:].partition(":")
        return _same(f"party {side}", ", ".join(f.name for f in s.parties[SIDES.index(side)]), names)
    name, _, rest = text.partition(" ")
    f = who(s, name)
    if rest.startswith("swords: ") or rest == "swords:":
        return _same(f"{name}'s swords", ", ".join(sword_text(s, w) for w in f.swords), rest[8:])
    key, value = rest.split()
    found = f.states.get(key, 0) if key[0].isupper() else (f.overkill if key == "overkill" else f.values[key])
    return _same(f"{name} {key}", str(found), value)


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
