"""What `cardc scenario` prints under a failing scenario: for each failed expectation its diff (the line as
written against the line the game would make true; the `log in order:` block against the log lines it
spans; the transcript against the log), then the game log, its tail unless the whole is asked for.
Format and examples: docs/scenarios.md ("When a scenario fails").
"""

from __future__ import annotations

import difflib
from pathlib import Path

from compiler import nodes as n
from compiler import sheet_nodes as sn
from compiler.check_scenarios import player_index, value
from runtime import elements, engine, grid
from runtime import query as q
from runtime.agents import describe_action
from runtime.state import State
from runtime.view import observation
from runtime.vocabulary import CARD_STATES
from tools.scenario_expect import WHERE, result_text, strip_ids

TAIL = 20  # log lines shown under a failure without --full-log
WINDOW = 30  # log lines a 'log in order:' diff spans at most


def diffs(sc, out) -> dict[int, list[str]]:
    """Return, by the line of each failed expectation (0: the transcript), the diff that goes under its failure."""
    s: State | None = out.state
    if s is None:
        return {}
    name, source = Path(sc.path).name, sc.source.split("\n")
    found: dict[int, list[str]] = {}
    for node in out.failed:
        if isinstance(node, sn.ScLogOrder):
            found[node.loc.line] = _order_diff(s, node, f"{name}:{node.loc.line}", sc.exact_lines)
        else:  # one line against one line: no hunk heads
            found[node.loc.line] = [f"-{source[node.loc.line - 1].strip()}", f"+{actual(s, node, sc.exact_lines)}"]
    if out.transcript_failed:
        want = [w.text for w in sc.sections["transcript"]]
        unlined = (lambda x: x) if sc.exact_lines else (lambda x: WHERE.sub(r"(\1)", x))
        found[0] = _diff([unlined(x) for x in want], [unlined(x) for x in s.log], f"{name}: transcript",
                         "the game's log")
    return found


def report(sc, out, full_log: bool = False) -> list[str]:
    """Return what goes under a failed scenario: each failure with its diff under it, then the game log."""
    found, lines, name = diffs(sc, out), [], Path(sc.path).name
    for failure in out.failures:
        lines.append(failure)
        at = failure.removeprefix(f"{name}:").split(":", 1)[0]
        key = 0 if ": transcript " in failure else int(at) if at.isdigit() else -1
        lines += found.pop(key, [])
    return lines + (shown_log(out.log, full_log) if out.log else [])


def _diff(want: list[str], have: list[str], expected: str, got: str, start: int = 1) -> list[str]:
    """Return a unified diff of the expected lines against the actual ones, with its '---'/'+++' heads."""
    found = list(difflib.unified_diff(want, have, f"expected ({expected})", got, n=2, lineterm=""))
    if start != 1:  # the actual side's line numbers are those of the whole log
        found = [_shift(x, start - 1) if x.startswith("@@") else x for x in found]
    return found


def _shift(head: str, by: int) -> str:
    """Return a hunk head with the '+' side's first line moved by `by` ('@@ -1,3 +1,4 @@' -> '+41,4')."""
    minus, plus = head.split(" ")[1:3]
    first, _, count = plus[1:].partition(",")
    return f"@@ {minus} +{int(first) + by}{',' + count if count else ''} @@"


def _order_diff(s: State, node: sn.ScLogOrder, where: str, exact: bool) -> list[str]:
    """Return the diff of a 'log in order:' block against the log lines it spans: from the first to the last
    place one of its lines (or the line most like a missing one) is logged."""
    log = [strip_ids(x, exact) for x in s.log]
    block = [strip_ids(w.text, exact) for w in node.lines]
    places, at = [], 0
    for want in block:
        hit = next((i for i in range(at, len(log)) if log[i] == want), None)
        if hit is None:
            near = [want] if want in log else difflib.get_close_matches(want, log, n=1, cutoff=0.6)
            places += [log.index(near[0])] if near else []
        else:
            places.append(hit)
            at = hit + 1
    first = min(places, default=0)
    last = min(max(places, default=0) + 1, first + WINDOW)
    return _diff(block, log[first:last], where, f"log lines {first + 1}-{last}", first + 1)


def shown_log(log: list[str], full: bool) -> list[str]:
    """Return the game log under a failure: the last TAIL lines, or all with --full-log."""
    shown = log if full or len(log) <= TAIL else log[-TAIL:]
    lines = "line" if len(log) == 1 else "lines"
    head = (f"game log ({len(log)} {lines}):" if len(shown) == len(log) else
            f"game log (the last {TAIL} of {len(log)} lines; --full-log shows them all):")
    return [head] + [f"  {line}" for line in shown]


# ---------------------------------------------------------------- the line the game would make true


def actual(s: State, line: n.Node, exact: bool = False) -> str:
    """Return an expectation line as the state at the stop point would have it written."""
    if isinstance(line, sn.ScLog):
        return _log_actual(s, line, exact)
    if isinstance(line, sn.ScOffers):  # failed: the decision has the action if the line said it does not
        offered = ", ".join(strip_ids(describe_action(s, a)) for a in engine.legal_actions(s)) or "nothing"
        return f"does not offer: {line.action} (it offers: {offered})" if line.offered else f"offers: {line.action}"
    if isinstance(line, sn.ScResult):
        return f"result: {result_text(s.result)}"
    if isinstance(line, sn.ScSees):
        seen = line.text in observation(s, player_index(line.player))
        return f"{line.player.text} {'sees' if seen else 'does not see'}: {line.text}"
    p = player_index(line.player)  # type: ignore[attr-defined]
    zones = s.players[p].zones
    if isinstance(line, sn.ScCards):
        return f"P{p + 1} {line.zone.value}: {', '.join(s.cards[c].name for c in zones[line.zone.value]) or '-'}"
    if isinstance(line, sn.ScCount):
        held = [s.cards[c].name for c in zones[line.zone.value]]
        count = held.count(line.card.value) if line.card else len(held)
        return f"P{p + 1} {line.zone.value} count {line.card.value + ' ' if line.card else ''}{count}"
    if isinstance(line, sn.ScAmount):
        return f"P{p + 1} {line.key.value} {s.players[p].resources[line.key.value]}"
    assert isinstance(line, sn.ScSlot), line
    ids, index = zones[line.zone.value], value(line.index)
    if not 1 <= index <= len(ids):
        return f"P{p + 1} {line.zone.value} has {len(ids)} card(s)"
    return f"P{p + 1} {line.zone.value}[{index}] {_fact(s, ids[index - 1], line.fact)}"


def _log_actual(s: State, line: sn.ScLog, exact: bool) -> str:
    """Return what the log has for a log expectation: the line it names, or the closest one, or nothing."""
    log = [strip_ids(x, exact) for x in s.log]
    want = strip_ids(line.text, exact)
    if line.kind.startswith("no"):
        hit = next(x for x in log if (want in x if line.kind.endswith("contains") else want == x))
        return f"log: {hit}"
    near = [x for x in log if want in x][:1] or difflib.get_close_matches(want, log, n=1, cutoff=0.6)
    return f"log: {near[0]}" if near else "log: (no such line)"


def _fact(s: State, cid: int, fact: sn.ScFact) -> str:
    """Return a fact about a card as an expectation would state it now."""
    c = s.cards[cid]
    if isinstance(fact, sn.ScStat) and fact.printed:
        cdef = s.game.cards[c.name]
        if fact.stat.value not in ("cost", *cdef.stats, *cdef.level_stats):
            return f"(no printed {fact.stat.value})"
        have = sum(cdef.cost.values()) if fact.stat.value == "cost" else q.printed_stat(s, cid, fact.stat.value)
        return f"printed {fact.stat.value} {have}"
    if isinstance(fact, sn.ScStat):
        return f"{fact.stat.value} {q.stat(s, cid, fact.stat.value)}"
    if isinstance(fact, sn.ScFace):
        return f"face {'down' if c.face_down else 'up'}"
    if isinstance(fact, sn.ScStatus):
        return f"status {fact.status.value} {elements.total(s, cid, fact.status.value)}"
    if isinstance(fact, sn.ScChanges):
        return f"state changes {len(q.instances(s, cid))}"
    if isinstance(fact, sn.ScIs):
        return f"is {c.name}"
    if isinstance(fact, sn.ScLine) and fact.square is not None:
        return f"square {grid.name(s, grid.code_of(s, c.id))}" if c.line < len(s.game.ruleset.lines) else \
            "square behind the grid"
    if isinstance(fact, sn.ScLine):
        lines = s.game.ruleset.lines
        return f"line {lines[c.line] if c.line < len(lines) else c.line}"
    if isinstance(fact, sn.ScHolds):
        return f"holds: {', '.join(s.cards[a].name for a in c.attached) or '-'}"
    flag, present = CARD_STATES[fact.phrase]
    states = [phrase for phrase, (f, on) in CARD_STATES.items() if (f in c.flags) == on and f == flag]
    return states[0] if states else f"not {fact.phrase}"
