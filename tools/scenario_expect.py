"""Scenario expectations: each `expect:` line, an AST node (compiler/nodes.py), checked against the state at
the stop point.

Every check returns its failure messages (empty when it holds). The lines were checked before the game
ran (compiler/check_scenarios.py), so each names players, zones, stats, statuses and cards that exist,
and each number is one. Log lines are compared whole, with card `#id`s ignored on both sides;
`log contains:` spells a deliberate partial match. Format: docs/scenarios.md.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from compiler import nodes as n
from compiler import sheet_nodes as sn
from compiler.check_scenarios import player_index, value
from compiler.diagnostics import CompileError, Diagnostic
from runtime import elements, engine, grid
from runtime import query as q
from runtime.agents import describe_action
from runtime.state import State
from runtime.view import observation
from runtime.vocabulary import CARD_STATES


class ScenarioError(CompileError):
    """A scenario that cannot be read or run: every problem located (path:line:col, code), in source order."""

    def __init__(self, diagnostics: Iterable[Diagnostic], source: str = ""):
        super().__init__(diagnostics)
        self.source = source

    def render(self) -> str:
        """Return every problem with its source line and a caret under the column."""
        return "\n".join(d.render(self.source) for d in self.diagnostics)


# Where an ability is written, as the log names it: '(cards.card:12)'. A card file that is only reformatted
# moves these lines, so comparisons read the file's name alone unless asked for the lines.
WHERE = re.compile(r"\(([^()\s]+\.(?:card|scenario)):\d+\)")


def strip_ids(text: str, exact_lines: bool = False) -> str:
    """Return a log line or expectation without card ids ('Ember Whelp#12' -> 'Ember Whelp') and, unless
    exact_lines, without the line numbers of where abilities are written ('(cards.card:12)' -> '(cards.card)')."""
    text = re.sub(r"#\d+", "", text)
    return text if exact_lines else WHERE.sub(r"(\1)", text)


def cards(entries: Iterable[sn.DeckEntry]) -> list[str]:
    """Return the card names of a list's entries, in order ('2 B' is two copies)."""
    return [name for e in entries for name in [e.name.value] * (value(e.count) if e.count else 1)]


def check(s: State, where: str, line: n.Node, exact_lines: bool = False) -> list[str]:
    """Return the failures of one expectation line (log lines compared with the lines of where abilities are
    written only if exact_lines)."""
    if isinstance(line, sn.ScLogOrder):
        return _log_in_order(s, where, [w.text for w in line.lines], exact_lines)
    if isinstance(line, sn.ScLog):
        return _log(s, where, line.kind, line.text, exact_lines)
    if isinstance(line, sn.ScOffers):
        offered = [strip_ids(describe_action(s, a)) for a in engine.legal_actions(s)]
        if (strip_ids(line.action) in offered) != line.offered:
            return [f"{where}: the decision {'lacks' if line.offered else 'has'} '{line.action}'; it offers: "
                    f"{', '.join(offered) or 'nothing'}"]
        return []
    if isinstance(line, sn.ScResult):
        have = result_text(s.result)
        return [] if have == line.value else [f"{where}: result is {have}, expected {line.value}"]
    if isinstance(line, sn.ScSees):
        p = player_index(line.player)
        seen = line.text in observation(s, p)
        return [] if seen == line.seen else [f"{where}: P{p + 1} {'sees' if seen else 'does not see'} '{line.text}'"]
    if isinstance(line, sn.ScError):
        return []  # the set-up's refusal, checked before the game runs (tools/scenario.py)
    assert isinstance(line, (sn.ScCards, sn.ScCount, sn.ScSlot, sn.ScAmount)), line
    return _player_line(s, where, line)


# ---------------------------------------------------------------- the log


def _log(s: State, where: str, key: str, value: str, exact_lines: bool) -> list[str]:
    want = strip_ids(value, exact_lines)
    lines = [strip_ids(line, exact_lines) for line in s.log]
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


def _log_in_order(s: State, where: str, block: list[str], exact_lines: bool) -> list[str]:
    """Return a failure unless each whole line of the block is logged after the one before it."""
    lines = [strip_ids(line, exact_lines) for line in s.log]
    at = 0
    for k, text in enumerate(block):
        want = strip_ids(text, exact_lines)
        found = next((i for i in range(at, len(lines)) if lines[i] == want), None)
        if found is None:
            of = f"(line {k + 1} of the ordered block)"
            if want in lines:
                return [f"{where}: log has '{text}' only before '{block[k - 1]}' {of}"]
            return [f"{where}: log lacks the line '{text}' {of}{_closest(want, lines)}"]
        at = found + 1
    return []


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


def _player_line(s: State, where: str, line: sn.ScCards | sn.ScCount | sn.ScSlot | sn.ScAmount) -> list[str]:
    """Return the failures of a 'P1 ...' line: a zone's cards or count, a resource, a card's fact."""
    p = player_index(line.player)
    who, zones = f"P{p + 1}", s.players[p].zones
    if isinstance(line, sn.ScCards):
        zone = line.zone.value
        actual, want = [s.cards[c].name for c in zones[zone]], cards(line.entries)
        return [] if actual == want else [f"{where}: {who} {zone} is {_names(actual)}; expected {_names(want)}"]
    if isinstance(line, sn.ScCount):
        return _count(s, where, p, line.zone.value, line.card.value if line.card else None, value(line.value))
    if isinstance(line, sn.ScSlot):
        held = zones[line.zone.value]
        index = value(line.index)
        if not 1 <= index <= len(held):
            return [f"{where}: {who} {line.zone.value} has no card {index} (it has {len(held)})"]
        return _card(s, where, held[index - 1], line.fact)
    key, have = line.key.value, s.players[p].resources[line.key.value]
    return [] if have == value(line.value) else [f"{where}: {who} {key} is {have}, expected {line.value.text}"]


def _names(names: list[str]) -> str:
    return ", ".join(names) or "-"


def _count(s: State, where: str, p: int, zone: str, name: str | None, want: int) -> list[str]:
    """Return a failure unless a zone holds want cards (of one name, when a name is given)."""
    held = [s.cards[c].name for c in s.players[p].zones[zone]]
    if name is None:
        count = len(held)
        cards_word = "card" if count == 1 else "cards"
        return [] if count == want else [f"{where}: P{p + 1} {zone} has {count} {cards_word}, expected {want}"]
    count = held.count(name)
    return [] if count == want else [f"{where}: P{p + 1} {zone} has {count} {name}, expected {want}"]


def _card(s: State, where: str, cid: int, fact: sn.ScFact) -> list[str]:
    """Return the failures of one card expectation: a fact about the card, or one of its stats."""
    c, named = s.cards[cid], q.describe(s, cid)
    if isinstance(fact, sn.ScStat) and fact.printed:
        return _printed(s, where, cid, fact.stat.value, fact.value.text)
    if isinstance(fact, sn.ScStat):
        current = q.stat(s, cid, fact.stat.value)
        return [] if current == value(fact.value) else [
            f"{where}: {named} {fact.stat.value} is {current}, expected {fact.value.text}"]
    if isinstance(fact, sn.ScFace):
        side = "down" if c.face_down else "up"
        return [] if side == fact.side else [f"{where}: {named} is face {side}, expected face {fact.side}"]
    if isinstance(fact, sn.ScStatus):
        name = fact.status.value
        have, want = elements.total(s, cid, name), value(fact.stacks) if fact.stacks else 1
        return [] if have == want else [f"{where}: {named} has {have} {name}, expected {want}"]
    if isinstance(fact, sn.ScChanges):
        mine = q.instances(s, cid)
        shown = ", ".join(elements.shown(s, x) for x in mine) or "none"
        return [] if len(mine) == value(fact.count) else [
            f"{where}: {named} has {len(mine)} state changes ({shown}), expected {fact.count.text}"]
    if isinstance(fact, sn.ScIs):
        return [] if c.name == fact.card.value else [f"{where}: the card there is {named}, expected {fact.card.value}"]
    if isinstance(fact, sn.ScLine) and fact.square is not None:
        at = grid.name(s, grid.code_of(s, c.id)) if c.line < len(s.game.ruleset.lines) else "behind the grid"
        wanted = f"{fact.line.value} {fact.square.text}"
        return [] if at == wanted else [f"{where}: {named} stands in {at}, expected {wanted}"]
    if isinstance(fact, sn.ScLine):
        line = s.game.ruleset.lines[c.line] if c.line < len(s.game.ruleset.lines) else str(c.line)
        return [] if line == fact.line.value else [f"{where}: {named} stands in the {line} line, expected "
                                                   f"{fact.line.value}"]
    if isinstance(fact, sn.ScHolds):
        held, listed = [s.cards[a].name for a in c.attached], cards(fact.entries)
        return [] if held == listed else [f"{where}: {named} holds {', '.join(held) or '-'}, expected "
                                          f"{', '.join(listed) or '-'}"]
    flag, present = CARD_STATES[fact.phrase]
    return [] if (flag in c.flags) == present else [f"{where}: {named} is not {fact.phrase}"]


def _printed(s: State, where: str, cid: int, stat: str, written: str) -> list[str]:
    cdef = s.game.cards[s.cards[cid].name]
    named = q.describe(s, cid)
    if stat != "cost" and stat not in cdef.stats and stat not in cdef.level_stats:
        return [f"{where}: {named} has no printed {stat}, expected {written}"]
    have = sum(cdef.cost.values()) if stat == "cost" else q.printed_stat(s, cid, stat)
    return [] if have == int(written) else [f"{where}: {named} printed {stat} is {have}, expected {written}"]
