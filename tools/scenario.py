"""Scenario files: a board set-up, scripted choices, a stop point and expectations, as data.

A scenario is strict: a decision its script does not answer fails it, and so does a scripted
choice left unused. Format and examples: docs/scenarios.md. `--update` rewrites transcripts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from runtime import engine, turns
from runtime.agents import ScriptedAgent, ScriptError
from runtime.engine import Game
from runtime.load import load_game
from runtime.state import State
from runtime.vocabulary import CARD_STATES
from tools.scenario_expect import ScenarioError, check, entries, player

SECTIONS = ("setup", "choices", "expect", "transcript")
BLOCKS = ("log in order:",)  # expectations followed by a block of lines indented further
SLOT = re.compile(r"^P(\d+) (\w+)\[(\d+)\] (.+)$")


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
    blocks: dict[int, list[str]] = field(default_factory=dict)  # expect line number -> the lines indented under it


def read_scenario(path: Path) -> Scenario:
    """Return the scenario a file describes, or raise ScenarioError at the offending line."""
    sc = Scenario(str(path))
    current = None
    block: tuple[int, int] | None = None  # (indent, line) of an open 'log in order:' block
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split(" #", 1)[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if not line.strip():
            continue
        if raw[0].isspace():
            if current is None:
                raise ScenarioError(f"{path}:{number}: an indented line outside a section")
            block = _section_line(sc, path, current, number, line, block)
            continue
        _end_block(sc, path, block)
        block = None
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
    _end_block(sc, path, block)
    if not sc.name or not sc.ruleset:
        raise ScenarioError(f"{path}:1: a scenario needs a 'scenario ID: title' line and a 'ruleset' line")
    return sc


def _section_line(sc: Scenario, path: Path, current: str, number: int, line: str,
                  block: tuple[int, int] | None) -> tuple[int, int] | None:
    """Add an indented line to its section (or to the open block above it); return the open block."""
    indent = len(line) - len(line.lstrip())
    if block and indent > block[0]:
        sc.blocks[block[1]].append(line.strip())
        return block
    _end_block(sc, path, block)
    block = (indent, number) if current == "expect" and line.strip() in BLOCKS else None
    if block:
        sc.blocks[number] = []
    sc.sections[current].append((number, line.strip()))
    return block


def _end_block(sc: Scenario, path: Path, block: tuple[int, int] | None) -> None:
    """Raise ScenarioError if a block expectation that just ended has no lines under it."""
    if block and not sc.blocks[block[1]]:
        raise ScenarioError(f"{path}:{block[1]}: 'log in order:' needs the log lines it orders below it, "
                            "indented further")


# ---------------------------------------------------------------- set-up


def build_state(game: Game, sc: Scenario, pause: list | None = None) -> State:
    """Return the state a scenario's set-up describes, with the engine run to the first decision."""
    lines = sc.sections["setup"]
    head = lines[0][1] if lines else "new game"
    decks: dict[int, list[str]] = {}
    lists: dict[int, list[str]] = {}
    jokers: dict[int, list[str]] = {}  # registered jokers (dealt later, under rules that deal them)
    rest = []
    for number, text in lines[1:] if lines else []:
        p, what = player(text, f"{sc.path}:{number}")
        if what.startswith("deck:"):
            decks[p] = entries(what[5:])
        elif what.startswith("deck list:"):
            lists[p] = entries(what[10:])
        elif what.startswith("jokers:"):
            jokers[p] = entries(what[7:])
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
        for name in entries(names):
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
    name = Path(sc.path).name
    s, failures = _start(game, sc, name)
    if s is None:
        return Outcome(sc, failures, None)
    agent = ScriptedAgent([text for _, text in sc.sections["choices"]])
    failure = _play(s, sc, agent, name)
    if failure:
        return Outcome(sc, [failure], None)
    if agent.used < len(agent.choices):
        failures.append(f"{name}:{sc.sections['choices'][agent.used][0]}: {len(agent.choices) - agent.used} "
                        f"scripted choice(s) were not used: {', '.join(agent.choices[agent.used:])}")
    for number, text in sc.sections["expect"]:
        failures += check(s, f"{name}:{number}", text, sc.blocks.get(number, []))
    failures += _transcript(s, sc)
    return Outcome(sc, failures, s)


def _start(game: Game, sc: Scenario, name: str) -> tuple[State | None, list[str]]:
    """Return the state the set-up builds (None if refused) and the failures of 'error:' expectations."""
    errors = [(f"{name}:{n}", text.partition(": ")[2]) for n, text in sc.sections["expect"]
              if text.startswith("error: ")]
    try:
        s = build_state(game, sc, _pause(sc))
    except ValueError as err:  # a deck the ruleset refuses
        wrong = [f"{at}: the set-up was refused with '{err}', expected '{e}'" for at, e in errors if e not in str(err)]
        setup_at = f"{name}:{sc.sections['setup'][0][0]}" if sc.sections["setup"] else name
        return None, wrong if errors else [f"{setup_at}: the set-up was refused: {err}"]
    if errors:
        return None, [f"{errors[0][0]}: the set-up was accepted, expected the error '{errors[0][1]}'"]
    return s, []


def _play(s: State, sc: Scenario, agent: ScriptedAgent, name: str) -> str:
    """Apply the scripted choices up to the stop point; return why the script failed, or ''."""
    while s.result is None and not engine.paused(s):
        if sc.stop == "at the next choice" and agent.used >= len(agent.choices):
            break  # 'offers:' lines look at this decision
        if s.decision is None:
            return f"{name}: the game stopped without a decision"
        before = agent.used
        try:
            engine.apply_action(s, agent.choose(s, engine.legal_actions(s)))
        except ScriptError as err:  # a choice not offered (it was read) or no choice left to read
            at = f"{name}:{sc.sections['choices'][before][0]}" if agent.used > before else f"{name}"
            return f"{at}: {err}"
    return ""


def _transcript(s: State, sc: Scenario) -> list[str]:
    """Return a failure naming the first transcript line that differs from the log, or nothing."""
    lines = sc.sections["transcript"]
    want = [text for _, text in lines]
    if not want or want == s.log:
        return []
    name = Path(sc.path).name
    for i, (a, b) in enumerate(zip(want, s.log, strict=False)):
        if a != b:
            return [f"{name}:{lines[i][0]}: transcript differs at line {i + 1}: expected '{a}', got '{b}'"]
    return [f"{name}:{lines[-1][0]}: transcript has {len(want)} lines, the game logged {len(s.log)}"]


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
            print(f"ERROR {err}" if str(err).startswith(str(path)) else f"ERROR {path}: {err}")
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
