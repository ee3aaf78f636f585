"""Scenario expectations: each `expect:` line checked against the state at the stop point.

Every check returns its failure messages (empty when it holds); a line that cannot be read raises
ScenarioError. Log lines are compared whole, with card `#id`s ignored on both sides; `log contains:`
spells a deliberate partial match. Format: docs/scenarios.md.
"""

from __future__ import annotations

import difflib
import re

from runtime import engine
from runtime import query as q
from runtime.agents import describe_action
from runtime.state import State
from runtime.view import observation
from runtime.vocabulary import CARD_STATES

PLAYER = re.compile(r"^P(\d+)\b")
PLAIN_STATS = ("damage", "level", "cost")  # read from the card itself, not from the stats of the ruleset


class ScenarioError(Exception):
    """A scenario file that cannot be read, located at path:line."""


def strip_ids(text: str) -> str:
    """Return a log line or expectation without card ids ('Ember Whelp#12' -> 'Ember Whelp')."""
    return re.sub(r"#\d+", "", text)


def entries(text: str) -> list[str]:
    """Return card names from 'A, 2 B, C' (a count repeats a name); '-' is empty."""
    out: list[str] = []
    for part in [p.strip() for p in text.split(",") if p.strip() and p.strip() != "-"]:
        count, _, name = part.partition(" ")
        out += [name] * int(count) if count.isdigit() and name else [part]
    return out


def player(text: str, where: str) -> tuple[int, str]:
    """Return the player index a line starts with ('P2 ...' -> 1) and the rest of the line."""
    m = PLAYER.match(text)
    if not m:
        raise ScenarioError(f"{where}: expected a player (P1, P2) at the start of '{text}'")
    return int(m.group(1)) - 1, text[m.end():].strip()


def check(s: State, where: str, text: str, block: list[str]) -> list[str]:
    """Return the failures of one expectation line (block: the lines under 'log in order:')."""
    key, _, value = text.partition(": ")
    if text == "log in order:":
        return _log_in_order(s, where, block)
    if key in ("log", "no log", "log contains", "no log contains"):
        return _log(s, where, key, value)
    if key in ("offers", "does not offer"):
        offered = [strip_ids(describe_action(s, a)) for a in engine.legal_actions(s)]
        if (strip_ids(value) in offered) != (key == "offers"):
            return [f"{where}: the decision {'lacks' if key == 'offers' else 'has'} '{value}'; it offers: "
                    f"{', '.join(offered) or 'nothing'}"]
        return []
    if key == "result":
        return _result(s, where, value)
    p, what = player(text, where)
    if what.startswith("sees: ") or what.startswith("does not see: "):
        seen_text = what.split(": ", 1)[1]
        seen = seen_text in observation(s, p)
        if seen == what.startswith("sees"):
            return []
        return [f"{where}: P{p + 1} {'sees' if seen else 'does not see'} '{seen_text}'"]
    return _player_line(s, where, p, what)


# ---------------------------------------------------------------- the log


def _log(s: State, where: str, key: str, value: str) -> list[str]:
    want = strip_ids(value)
    lines = [strip_ids(line) for line in s.log]
    partial = key.endswith("contains")
    hits = [i for i, line in enumerate(lines, 1) if (want in line if partial else want == line)]
    if key == "log":
        return [] if hits else [f"{where}: log lacks the line '{value}'{_closest(want, lines)}"]
    if key == "log contains":
        return [] if hits else [f"{where}: no log line contains '{value}'"]
    if not hits:
        return []
    if key == "no log":
        return [f"{where}: log has the line '{value}' (line {hits[0]})"]
    return [f"{where}: log line {hits[0]} contains '{value}': '{lines[hits[0] - 1]}'"]


def _closest(want: str, lines: list[str]) -> str:
    """Return '; the closest line is ...' for the log line most like a missing one, or ''."""
    near = [line for line in lines if want in line][:1] or difflib.get_close_matches(want, lines, n=1, cutoff=0.6)
    return f"; the closest line is '{near[0]}'" if near else ""


def _log_in_order(s: State, where: str, block: list[str]) -> list[str]:
    """Return a failure unless each whole line of the block is logged after the one before it."""
    lines = [strip_ids(line) for line in s.log]
    at = 0
    for k, text in enumerate(block):
        want = strip_ids(text)
        found = next((i for i in range(at, len(lines)) if lines[i] == want), None)
        if found is None:
            of = f"(line {k + 1} of the ordered block)"
            if want in lines:
                return [f"{where}: log has '{text}' only before '{block[k - 1]}' {of}"]
            return [f"{where}: log lacks the line '{text}' {of}{_closest(want, lines)}"]
        at = found + 1
    return []


def _result(s: State, where: str, value: str) -> list[str]:
    if value not in ("none", "draw", "all lose") and not re.fullmatch(r"P\d+ wins", value):
        raise ScenarioError(f"{where}: expected 'result: P1 wins', 'draw', 'all lose' or 'none', found '{value}'")
    have = result_text(s.result)
    return [] if have == value else [f"{where}: result is {have}, expected {value}"]


def result_text(result: list[int] | None) -> str:
    """Return a game result as expectations write it: 'none', 'draw', 'all lose', 'P2 wins'."""
    if result is None:
        return "none"
    if all(r == 0 for r in result):
        return "draw"
    if all(r == -1 for r in result):
        return "all lose"
    winners = [f"P{p + 1}" for p, r in enumerate(result) if r == 1]
    return f"{winners[0]} wins" if len(winners) == 1 else str(result)


# ---------------------------------------------------------------- zones, resources, cards


def _player_line(s: State, where: str, p: int, what: str) -> list[str]:
    zone, colon, names = what.partition(": ")
    zones = s.players[p].zones
    who = f"P{p + 1}"
    if colon and zone in zones:
        actual, want = [s.cards[c].name for c in zones[zone]], entries(names)
        return [] if actual == want else [f"{where}: {who} {zone} is {_names(actual)}; expected {_names(want)}"]
    m = re.match(r"(\w+) count (?:(.+) )?(\d+)$", what)
    if m and m.group(1) in zones:
        return _count(s, where, p, m.group(1), m.group(2), int(m.group(3)))
    m = re.match(r"(\w+)\[(\d+)\] (\S+)(?: (.+))?$", what)
    if m and m.group(1) in zones:
        cards = zones[m.group(1)]
        index = int(m.group(2))
        if not 1 <= index <= len(cards):
            return [f"{where}: {who} {m.group(1)} has no card {index} (it has {len(cards)})"]
        return _card(s, where, cards[index - 1], m.group(3), m.group(4))
    key, _, value = what.partition(" ")
    if key in s.players[p].resources:
        have = s.players[p].resources[key]
        return [] if str(have) == value else [f"{where}: {who} {key} is {have}, expected {value}"]
    raise ScenarioError(f"{where}: cannot read expectation '{who} {what}'; expected '{who} ZONE: A, B', "
                        f"'{who} ZONE count [NAME] N', '{who} ZONE[i] ...' or '{who} RESOURCE N' (zones: "
                        f"{', '.join(zones)}; resources: {', '.join(s.players[p].resources)})")


def _names(names: list[str]) -> str:
    return ", ".join(names) or "-"


def _count(s: State, where: str, p: int, zone: str, name: str | None, want: int) -> list[str]:
    """Return a failure unless a zone holds want cards (of one name, when a name is given)."""
    cards = [s.cards[c].name for c in s.players[p].zones[zone]]
    if name is None:
        n = len(cards)
        cards_word = "card" if n == 1 else "cards"
        return [] if n == want else [f"{where}: P{p + 1} {zone} has {n} {cards_word}, expected {want}"]
    if name not in s.game.cards:
        near = difflib.get_close_matches(name, sorted(s.game.cards), n=1)
        hint = f"; did you mean '{near[0]}'?" if near else ""
        raise ScenarioError(f"{where}: unknown card '{name}' in 'P{p + 1} {zone} count {name} {want}'{hint}")
    n = cards.count(name)
    return [] if n == want else [f"{where}: P{p + 1} {zone} has {n} {name}, expected {want}"]


def _card(s: State, where: str, cid: int, key: str, value: str | None) -> list[str]:
    """Return the failures of one card expectation: a fact about the card, or one of its stats."""
    phrase = f"{key} {value}" if value else key
    if key in ("face", "status", "is") or phrase in CARD_STATES:
        return _card_fact(s, where, cid, key, value)
    if key == "printed" and value and " " in value:
        stat, _, number = value.partition(" ")
        return _printed(s, where, cid, stat, number)
    _known_stat(s, where, key)
    current = q.stat(s, cid, key)
    return [] if str(current) == value else [f"{where}: {q.describe(s, cid)} {key} is {current}, expected {value}"]


def _card_fact(s: State, where: str, cid: int, key: str, value: str | None) -> list[str]:
    """Return the failures of 'face down', 'status NAME N', 'is NAME' or a card state ('exhausted')."""
    c = s.cards[cid]
    named = q.describe(s, cid)
    if key == "face" and value in ("down", "up"):
        side = "down" if c.face_down else "up"
        return [] if side == value else [f"{where}: {named} is face {side}, expected face {value}"]
    if key == "status":
        name, _, stacks = (value or "").partition(" ")
        have, want = c.statuses.get(name, [0])[0], int(stacks or 1)
        return [] if have == want else [f"{where}: {named} has {have} {name}, expected {want}"]
    if key == "is":
        return [] if c.name == value else [f"{where}: the card there is {named}, expected {value}"]
    phrase = f"{key} {value}" if value else key
    if phrase not in CARD_STATES:
        raise ScenarioError(f"{where}: cannot read '{phrase}'; expected 'face down', 'face up', 'status NAME N', "
                            f"'is NAME' or one of: {', '.join(CARD_STATES)}")
    flag, present = CARD_STATES[phrase]
    return [] if (flag in c.flags) == present else [f"{where}: {named} is not {phrase}"]


def _known_stat(s: State, where: str, stat: str) -> None:
    """Raise ScenarioError unless stat names a stat of the ruleset or damage, level, cost."""
    known = PLAIN_STATS + tuple(s.game.ruleset.stats)
    if stat not in known:
        near = difflib.get_close_matches(stat, known, n=1)
        hint = f"did you mean '{near[0]}'? " if near else ""
        raise ScenarioError(f"{where}: unknown stat '{stat}'; {hint}expected one of: {', '.join(known)}")


def _printed(s: State, where: str, cid: int, stat: str, value: str) -> list[str]:
    _known_stat(s, where, stat)
    if stat in ("damage", "level"):
        raise ScenarioError(f"{where}: '{stat}' has no printed value; write '{stat} {value}'")
    cdef = s.game.cards[s.cards[cid].name]
    named = q.describe(s, cid)
    if stat != "cost" and stat not in cdef.stats and stat not in cdef.level_stats:
        return [f"{where}: {named} has no printed {stat}, expected {value}"]
    have = sum(cdef.cost.values()) if stat == "cost" else q.printed_stat(s, cid, stat)
    return [] if str(have) == value else [f"{where}: {named} printed {stat} is {have}, expected {value}"]
