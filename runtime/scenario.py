"""Scenario files: a board set-up, scripted choices, a stop point and expectations, as data.

A scenario is strict: a decision its script does not answer fails it, and so does a scripted
choice left unused. Format and examples: docs/scenarios.md. `--update` rewrites transcripts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from runtime import engine, turns
from runtime import query as q
from runtime.agents import ScriptedAgent, ScriptError, describe_action
from runtime.engine import Game
from runtime.load import load_game
from runtime.state import State
from runtime.view import observation
from runtime.vocabulary import CARD_STATES

SECTIONS = ("setup", "choices", "expect", "transcript")
PLAYER = re.compile(r"^P(\d+)\b")
SLOT = re.compile(r"^P(\d+) (\w+)\[(\d+)\] (.+)$")


class ScenarioError(Exception):
    """A scenario file that cannot be read, located at path:line."""


@dataclass
class Scenario:
    path: str
    name: str = ""
    title: str = ""
    ruleset: str = ""
    seed: int = 1
    stop: str = "end"
    has_transcript: bool = False  # a 'transcript:' header, even with no lines yet (for --update)
    options: dict[str, str] = field(default_factory=dict)  # ruleset options chosen ('option version = v1')
    sections: dict[str, list[tuple[int, str]]] = field(default_factory=lambda: {k: [] for k in SECTIONS})


def read_scenario(path: Path) -> Scenario:
    """Return the scenario a file describes, or raise ScenarioError at the offending line."""
    sc = Scenario(str(path))
    current = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split(" #", 1)[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if not line.strip():
            continue
        if raw[0].isspace():
            if current is None:
                raise ScenarioError(f"{path}:{number}: an indented line outside a section")
            sc.sections[current].append((number, line.strip()))
            continue
        key, _, rest = line.partition(" ")
        current = None
        if line.endswith(":") and line[:-1] in SECTIONS:
            current = line[:-1]
            sc.has_transcript = sc.has_transcript or current == "transcript"
        elif key == "scenario":
            sc.name, _, sc.title = rest.partition(": ")
        elif key in ("ruleset", "seed", "stop:"):
            setattr(sc, key.rstrip(":"), int(rest) if key == "seed" else rest.strip())
        elif key == "option" and re.fullmatch(r"\w+ = \w+", rest.strip()):
            option, _, value = rest.strip().partition(" = ")
            sc.options[option] = value
        else:
            raise ScenarioError(f"{path}:{number}: unknown line '{line}'; expected scenario, ruleset, seed, "
                                "option, stop:, or a section (setup:, choices:, expect:, transcript:)")
    if not sc.name or not sc.ruleset:
        raise ScenarioError(f"{path}:1: a scenario needs a 'scenario ID: title' line and a 'ruleset' line")
    return sc


# ---------------------------------------------------------------- set-up


def _entries(text: str) -> list[str]:
    """Return card names from 'A, 2 B, C' (a count repeats a name); '-' is empty."""
    out: list[str] = []
    for part in [p.strip() for p in text.split(",") if p.strip() and p.strip() != "-"]:
        count, _, name = part.partition(" ")
        out += [name] * int(count) if count.isdigit() and name else [part]
    return out


def _player(text: str, sc: Scenario, number: int) -> tuple[int, str]:
    m = PLAYER.match(text)
    if not m:
        raise ScenarioError(f"{sc.path}:{number}: expected a player (P1, P2) at the start of '{text}'")
    return int(m.group(1)) - 1, text[m.end():].strip()


def build_state(game: Game, sc: Scenario, pause: list | None = None) -> State:
    """Return the state a scenario's set-up describes, with the engine run to the first decision."""
    lines = sc.sections["setup"]
    head = lines[0][1] if lines else "new game"
    decks: dict[int, list[str]] = {}
    lists: dict[int, list[str]] = {}
    jokers: dict[int, list[str]] = {}  # registered jokers (dealt later, under rules that deal them)
    rest = []
    for number, text in lines[1:] if lines else []:
        p, what = _player(text, sc, number)
        if what.startswith("deck:"):
            decks[p] = _entries(what[5:])
        elif what.startswith("deck list:"):
            lists[p] = _entries(what[10:])
        elif what.startswith("jokers:"):
            jokers[p] = _entries(what[7:])
        else:
            rest.append((number, p, what))
    if head.startswith("new game"):
        first = int(head.split("first P")[1]) - 1 if "first P" in head else None
        return game.new_game([decks.get(p, []) for p in range(game.ruleset.players)], sc.seed, first, pause)
    m = re.match(r"turn (\d+), P(\d+) active, phase (\w+)$", head)
    if not m:
        raise ScenarioError(f"{sc.path}:{lines[0][0]}: expected 'new game[, first P1]' or "
                            f"'turn N, P1 active, phase NAME', found '{head}'")
    s = game.empty_state(sc.seed)
    for p, names in lists.items():
        s.players[p].deck_list = names
    for p, names in jokers.items():
        s.players[p].jokers = names
    for p, deck in sorted(decks.items()):
        for name in deck:
            game.add_card(s, name, p, "deck")
    for number, p, what in rest:
        _setup_line(game, s, sc, number, p, what)
    turn, active = int(m.group(1)), int(m.group(2)) - 1
    s.turn, s.active = turn - 1, (active - 1) % len(s.players)
    s.first = (active - (turn - 1)) % len(s.players)
    for p in range(len(s.players)):
        s.players[p].turns_taken = s.players[p].turns_taken or (turn + (1 if p == active else 0)) // 2
    s.players[active].turns_taken -= 1  # begin_turn counts the turn that starts now
    turns.begin_turn(s, m.group(3))
    s.pause = pause
    engine.run(s)
    return s


def _setup_line(game: Game, s: State, sc: Scenario, number: int, p: int, what: str) -> None:
    zone, colon, names = what.partition(":")
    if colon and zone in game.ruleset.zones:
        for name in _entries(names):
            try:
                cid = game.add_card(s, name, p, zone)
            except ValueError as err:
                raise ScenarioError(f"{sc.path}:{number}: {err}") from None
            traits = game.ruleset.kind_traits.get(game.cards[name].kind, ())
            s.cards[cid].face_down = zone in ("field", "staging", game.ruleset.set_zone) and "face down" in traits
        return
    slot = SLOT.match(f"P{p + 1} {what}")
    if slot:
        cid = _slot(s, sc, number, p, slot.group(2), int(slot.group(3)))
        key, _, value = slot.group(4).partition(" ")
        if key == "damage":
            s.cards[cid].damage = int(value)
        elif key == "level":
            s.cards[cid].level = int(value)
        elif slot.group(4) in CARD_STATES:
            flag, present = CARD_STATES[slot.group(4)]
            s.cards[cid].flags.pop(flag, None)
            if present:
                s.cards[cid].flags[flag] = None
        elif key == "status":
            name, _, stacks = value.partition(" ")
            s.cards[cid].statuses[name] = [int(stacks or 1), None]
            s.touch()
        return
    key, _, value = what.partition(" ")
    if key == "turns":
        s.players[p].turns_taken = int(value)
    elif key in s.players[p].resources and value.lstrip("-").isdigit():
        s.players[p].resources[key] = int(value)
    else:
        raise ScenarioError(f"{sc.path}:{number}: cannot read set-up line 'P{p + 1} {what}'")


def _slot(s: State, sc: Scenario, number: int, p: int, zone: str, index: int) -> int:
    cards = s.players[p].zones.get(zone, [])
    if not 1 <= index <= len(cards):
        raise ScenarioError(f"{sc.path}:{number}: P{p + 1} {zone} has no card {index}")
    return cards[index - 1]


# ---------------------------------------------------------------- running and expectations


def _pause(sc: Scenario) -> list | None:
    m = re.match(r"after turn (\d+)$", sc.stop)
    if m:
        return ["after_turn", int(m.group(1))]
    m = re.match(r"before phase (\w+) of turn (\d+)$", sc.stop)
    if m:
        return ["before_phase", m.group(1), int(m.group(2))]
    if sc.stop in ("end", "at the next choice"):
        return None
    raise ScenarioError(f"{sc.path}: stop must be 'end', 'after turn N' or 'before phase NAME of turn N',"
                        f" found '{sc.stop}'")


@dataclass
class Outcome:
    scenario: Scenario
    failures: list[str]
    state: State | None

    @property
    def passed(self) -> bool:
        return not self.failures


def run_scenario(sc: Scenario, game: Game | None = None) -> Outcome:
    """Play a scenario to its stop point and return every expectation it failed."""
    game = game or load_game(sc.ruleset)
    try:
        game = game.with_options(sc.options) if sc.options else game
    except ValueError as err:
        raise ScenarioError(f"{sc.path}: {err}") from None
    pause = _pause(sc)
    agent = ScriptedAgent([text for _, text in sc.sections["choices"]])
    errors = [text.partition(": ")[2] for _, text in sc.sections["expect"] if text.startswith("error: ")]
    try:
        s = build_state(game, sc, pause)
    except ValueError as err:  # a deck the ruleset refuses
        wrong = [f"the set-up was refused with '{err}', expected '{e}'" for e in errors if e not in str(err)]
        return Outcome(sc, wrong if errors else [f"the set-up was refused: {err}"], None)
    if errors:
        return Outcome(sc, [f"the set-up was accepted, expected the error '{errors[0]}'"], None)
    try:
        while s.result is None and not engine.paused(s):
            if sc.stop == "at the next choice" and agent.used >= len(agent.choices):
                break  # 'offers:' lines look at this decision
            if s.decision is None:
                raise ScriptError("the game stopped without a decision")
            engine.apply_action(s, agent.choose(s, engine.legal_actions(s)))
    except ScriptError as err:
        return Outcome(sc, [str(err)], None)
    failures = []
    if agent.used < len(agent.choices):
        failures.append(f"{len(agent.choices) - agent.used} scripted choice(s) were not used: "
                        f"{', '.join(agent.choices[agent.used:])}")
    failures += [f for number, text in sc.sections["expect"] for f in _expect(s, sc, number, text)]
    failures += _transcript(s, sc)
    return Outcome(sc, failures, s)


def _strip_ids(text: str) -> str:
    return re.sub(r"#\d+", "", text)


def _expect(s: State, sc: Scenario, number: int, text: str) -> list[str]:
    """Return the failure of one expectation line, or nothing when it holds."""
    where = f"{Path(sc.path).name}:{number}"
    key, _, value = text.partition(": ")
    if key in ("log", "no log"):
        lines = [_strip_ids(line) for line in s.log]
        found = any(_strip_ids(value) in line for line in lines)
        if found != (key == "log"):
            return [f"{where}: log {'lacks' if key == 'log' else 'has'} a line with '{value}'"]
        return []
    if key in ("offers", "does not offer"):
        offered = [_strip_ids(describe_action(s, a)) for a in engine.legal_actions(s)]
        if (_strip_ids(value) in offered) != (key == "offers"):
            return [f"{where}: the decision {'lacks' if key == 'offers' else 'has'} '{value}'; it offers: "
                    f"{', '.join(offered) or 'nothing'}"]
        return []
    if key == "result":
        want = {"none": None, "draw": [0] * len(s.players), "all lose": [-1] * len(s.players)}.get(value)
        if value not in ("none", "draw", "all lose"):
            winner = int(value.split()[0][1:]) - 1
            want = [1 if p == winner else -1 for p in range(len(s.players))]
        return [] if s.result == want else [f"{where}: result is {s.result}, expected '{value}'"]
    p, what = _player(text, sc, number)
    if what.startswith("sees: ") or what.startswith("does not see: "):
        seen = what.split(": ", 1)[1] in observation(s, p)
        return [] if seen == what.startswith("sees") else [f"{where}: P{p + 1} {what.split(':')[0]} that"]
    return _expect_player(s, where, p, what)


def _expect_player(s: State, where: str, p: int, what: str) -> list[str]:
    zone, colon, names = what.partition(": ")
    zones = s.players[p].zones
    if colon and zone in zones:
        actual = [s.cards[c].name for c in zones[zone]]
        return [] if actual == _entries(names) else [f"{where}: P{p + 1} {zone} is {actual or '-'}"]
    m = re.match(r"(\w+) count (\d+)$", what)
    if m and m.group(1) in zones:
        n = len(zones[m.group(1)])
        return [] if n == int(m.group(2)) else [f"{where}: P{p + 1} {m.group(1)} has {n} cards"]
    m = re.match(r"(\w+)\[(\d+)\] (\S+)(?: (.+))?$", what)
    if m and m.group(1) in zones:
        cards = zones[m.group(1)]
        index = int(m.group(2))
        if not 1 <= index <= len(cards):
            return [f"{where}: P{p + 1} {m.group(1)} has no card {index}"]
        return _expect_card(s, where, cards[index - 1], m.group(3), m.group(4))
    key, _, value = what.partition(" ")
    if key in s.players[p].resources:
        have = s.players[p].resources[key]
        return [] if str(have) == value else [f"{where}: P{p + 1} {key} is {have}, expected {value}"]
    raise ScenarioError(f"{where}: cannot read expectation 'P{p + 1} {what}'")


def _expect_card(s: State, where: str, cid: int, key: str, value: str | None) -> list[str]:
    c = s.cards[cid]
    if key == "face" and value in ("down", "up"):
        ok = c.face_down == (value == "down")
        return [] if ok else [f"{where}: {q.describe(s, cid)} is face {'down' if c.face_down else 'up'}"]
    if key == "status":
        name, _, stacks = (value or "").partition(" ")
        have = c.statuses.get(name, [0])[0]
        return [] if have == int(stacks or 1) else [f"{where}: {q.describe(s, cid)} has {have} {name}"]
    if key == "is":
        return [] if c.name == value else [f"{where}: the card there is {c.name}"]
    phrase = f"{key} {value}" if value else key
    if phrase in CARD_STATES:
        flag, present = CARD_STATES[phrase]
        return [] if (flag in c.flags) == present else [f"{where}: {q.describe(s, cid)} is not {phrase}"]
    have = q.stat(s, cid, key)
    return [] if str(have) == value else [f"{where}: {q.describe(s, cid)} {key} is {have}, expected {value}"]


def _transcript(s: State, sc: Scenario) -> list[str]:
    want = [text for _, text in sc.sections["transcript"]]
    if not want or want == s.log:
        return []
    for i, (a, b) in enumerate(zip(want, s.log, strict=False)):
        if a != b:
            return [f"transcript differs at line {i + 1}: expected '{a}', got '{b}'"]
    return [f"transcript has {len(want)} lines, the game logged {len(s.log)}"]


def update_transcript(path: Path, log: list[str]) -> None:
    """Rewrite a scenario file's transcript section with a game's log."""
    from compiler.files import write_atomic

    lines = path.read_text(encoding="utf-8").splitlines()
    if "transcript:" in lines:
        lines = lines[:lines.index("transcript:")]
    while lines and not lines[-1].strip():
        lines.pop()
    write_atomic(path, "\n".join(lines + ["", "transcript:"] + [f"    {line}" for line in log]) + "\n")


def discover(root: Path, paths: list[Path]) -> list[Path]:
    """Return the scenario files named (folders searched recursively), sorted."""
    paths = paths or [root / "tests" / "scenarios"]
    found: list[Path] = []
    for p in paths:
        found += sorted(p.rglob("*.scenario")) if p.is_dir() else [p]
    return found


def run_paths(root: Path, paths: list[Path], update: bool = False) -> int:
    """Run scenario files, print one line per scenario and a summary; return the exit code."""
    games: dict[str, Game] = {}
    passed = failed = 0
    for path in discover(root, paths):
        try:
            sc = read_scenario(path)
            if sc.ruleset not in games:
                games[sc.ruleset] = load_game(sc.ruleset)
            if update and sc.has_transcript:
                sc.sections["transcript"] = []
                out = run_scenario(sc, games[sc.ruleset])
                if out.state is not None:
                    update_transcript(path, out.state.log)
            else:
                out = run_scenario(sc, games[sc.ruleset])
        except ScenarioError as err:
            print(f"ERROR {path}: {err}")
            failed += 1
            continue
        if out.passed:
            passed += 1
            print(f"ok    {sc.name}: {sc.title}")
        else:
            failed += 1
            print(f"FAIL  {sc.name}: {sc.title}")
            for f in out.failures:
                print(f"      {f}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0
