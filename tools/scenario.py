"""Scenario files: a board set-up, scripted choices, a stop point and expectations, as data.

A scenario is strict: a decision its script does not answer fails it, and so does a scripted
choice left unused. Format and examples: docs/scenarios.md. `--update` rewrites transcripts.
A file is read through the grammar (grammar/sheets.lark, compiler.parser.parse_scenario) and checked
in two stages (compiler/check_scenarios.py): what the file alone tells when it is read, what the game
tells before it runs. Every problem is a located Diagnostic; ScenarioError carries them all.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

from compiler import nodes as n
from compiler import sheet_nodes as sn
from compiler.build import read_source
from compiler.check_scenarios import SECTIONS, check_file, check_game, check_options, player_index, value
from compiler.diagnostics import CompileError, Diagnostic
from compiler.parser import parse_scenario
from compiler.scenario_cards import ruleset_files, with_cards
from runtime import engine, grid, turns
from runtime.agents import ScriptedAgent, ScriptError
from runtime.engine import Game
from runtime.load import load_game
from runtime.state import State, UnscriptedRoll
from runtime.vocabulary import CARD_STATES
from tools.scenario_expect import WHERE, ScenarioError, cards, check

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Scenario:
    path: str
    name: str = ""
    title: str = ""
    ruleset: str = ""
    seed: int = 1
    stop: str = "end"  # as written after 'stop: '
    has_transcript: bool = False  # a 'transcript:' header, even with no lines yet (for --update)
    options: dict[str, str] = field(default_factory=dict)  # ruleset options chosen ('option version = v1')
    # the lines of each section, as AST nodes: choices and transcript lines are Words
    sections: dict[str, list] = field(default_factory=lambda: {k: [] for k in SECTIONS})
    pause: list | None = None  # where the engine pauses for the stop point
    rolls: list[int] = field(default_factory=list)  # the faces dice show, in order; none scripted: no die
    rolls_line: int = 0  # the line of 'rolls:', 0 if none
    players: int = 0  # 'players N' (0: the ruleset's least)
    ast: sn.ScenarioFile | None = None  # the file as read, checked against the game before it runs
    source: str = ""  # the file's text, for the carets of its problems
    cards: n.File | None = None  # the 'cards:' section: cards, keywords and statuses of this scenario only
    exact_lines: bool = False  # compare the lines of where abilities are written ('(cards.card:12)') too
    root: Path = ROOT  # the project whose cards/ a 'cards:' section is checked with first (cardc --root)


def read_scenario(path: Path, root: Path = ROOT) -> Scenario:
    """Return the scenario a file describes, or raise ScenarioError with every problem its text shows."""
    try:
        text = read_source(path, str(path))
    except CompileError as err:  # bytes that are not UTF-8
        raise ScenarioError(err.diagnostics) from None
    sc = scenario_from_text(text, str(path), known_rulesets(path, root))
    sc.root = root
    return sc


def scenario_from_text(text: str, path: str, rulesets: Collection[str]) -> Scenario:
    """Return the scenario a file's text describes (naming one of `rulesets`), or raise ScenarioError."""
    text = text.removeprefix("\ufeff")
    try:
        ast, problems = parse_scenario(text, path)
    except CompileError as err:  # more syntax errors than are worth reading
        raise ScenarioError(err.diagnostics, text) from None
    problems = problems or check_file(ast, rulesets)  # a file that does not parse is not checked further
    if problems:
        raise ScenarioError(problems, text)
    return _scenario(ast, text)


def known_rulesets(path: Path, root: Path = ROOT) -> set[str]:
    """Return the rulesets a scenario may name: a folder of cards/ or generated/ of the project (root) or
    of a project the scenario file is in (a test ruleset's own scenarios)."""
    bases = [root, *Path(path).resolve().parents]
    return {d.name for base in bases for folder in ("cards", "generated") if (base / folder).is_dir()
            for d in (base / folder).iterdir() if d.is_dir() and d.name[:1] not in "_."}


def _scenario(ast: sn.ScenarioFile, text: str) -> Scenario:
    """Return the Scenario of a checked AST (each header line and section once, as check_file asks)."""
    sc = Scenario(ast.path, ast=ast, source=text)
    for item in reversed(ast.items):  # the first of each kind wins
        if isinstance(item, sn.ScTitle):
            sc.name, sc.title = item.id.text, item.title
        elif isinstance(item, sn.ScRuleset):
            sc.ruleset = item.name.value
        elif isinstance(item, sn.ScSeed):
            sc.seed = value(item.value)
        elif isinstance(item, sn.ScStop):
            sc.stop, sc.pause = _stop(item)
        elif isinstance(item, sn.ScOption):
            sc.options[item.name.value] = item.value.value
        elif isinstance(item, sn.ScRolls):
            sc.rolls, sc.rolls_line = [value(face) for face in item.faces], item.loc.line
        elif isinstance(item, sn.ScPlayers):
            sc.players = value(item.value)
        elif isinstance(item, sn.ScCardBlock):
            sc.cards = item.file
        elif isinstance(item, sn.ScSection):
            sc.sections[item.name] = list(item.lines)
            sc.has_transcript = sc.has_transcript or item.name == "transcript"
    return sc


def _stop(stop: sn.ScStop) -> tuple[str, list | None]:
    """Return a stop point as written ('after turn 3') and where the engine pauses for it."""
    if stop.kind == "after turn" and stop.turn:
        return f"after turn {stop.turn.text}", ["after_turn", value(stop.turn)]
    if stop.kind == "before phase" and stop.turn and stop.phase:
        return f"before phase {stop.phase.value} of turn {stop.turn.text}", \
            ["before_phase", stop.phase.value, value(stop.turn)]
    return stop.kind, None


# ---------------------------------------------------------------- set-up


def build_state(game: Game, sc: Scenario, pause: list | None = None) -> State:
    """Return the state a scenario's set-up describes, with the engine run to the first decision."""
    lines = sc.sections["setup"]
    head = lines[0] if lines else sn.ScNewGame(n.NOWHERE, None)
    registered: dict[str, dict[int, list[str]]] = {"deck": {}, "deck list": {}, "jokers": {}}
    rest = []
    for line in lines[1:]:
        if isinstance(line, sn.ScCards) and line.zone.value in registered:
            registered[line.zone.value][player_index(line.player)] = cards(line.entries)
        else:
            rest.append(line)
    decks = registered["deck"]
    if isinstance(head, sn.ScNewGame):
        first = player_index(head.first) if head.first else None
        players = sc.players or game.ruleset.players
        return game.new_game([decks.get(p, []) for p in range(players)], sc.seed, first, pause, list(sc.rolls))
    assert isinstance(head, sn.ScTurnStart), head
    s = game.empty_state(sc.seed, sc.players or None, list(sc.rolls))
    for p, names in registered["deck list"].items():
        s.players[p].deck_list = names
    for p, names in registered["jokers"].items():  # registered jokers (dealt later, under rules that deal them)
        s.players[p].jokers = names
    for p, deck in sorted(decks.items()):
        for name in deck:
            game.add_card(s, name, p, "deck")
    for line in rest:
        assert isinstance(line, (sn.ScCards, sn.ScSlot, sn.ScAmount)), line  # check_file: nothing else sets up
        _setup_line(game, s, sc, line)
    turn, active = value(head.turn), player_index(head.active)
    s.turn, s.active = turn - 1, (active - 1) % len(s.players)
    seats = len(s.players)
    s.first = (active - (turn - 1)) % seats
    for p in range(seats):  # the turns each seat took before this one, and this one for the active player
        before = sum(1 for k in range(turn - 1) if (s.first + k) % seats == p)
        s.players[p].turns_taken = s.players[p].turns_taken or before + (1 if p == active else 0)
    s.players[active].turns_taken -= 1  # begin_turn counts the turn that starts now
    if game.ruleset.actor_turns:  # the order: the active player's characters first, seat by seat, field order
        kind = game.ruleset.actor_turns[0]
        s.order = [cid for k in range(seats) for cid in s.players[(active + k) % seats].zones["field"]
                   if game.cards[s.cards[cid].name].kind == kind]
    turns.begin_turn(s, head.phase.value)
    s.pause = pause
    engine.run(s)
    return s


def _setup_line(game: Game, s: State, sc: Scenario, line: sn.ScCards | sn.ScSlot | sn.ScAmount) -> None:
    """Apply one set-up line to a game in progress: cards into a zone, a fact about a card, an amount."""
    p = player_index(line.player)
    if isinstance(line, sn.ScCards):
        zone = line.zone.value
        for name in cards(line.entries):
            cid = game.add_card(s, name, p, zone)
            traits = game.ruleset.kind_traits.get(game.cards[name].kind, ())
            s.own(cid).face_down = zone in ("field", "staging", game.ruleset.set_zone) and "face down" in traits
    elif isinstance(line, sn.ScSlot) and isinstance(line.fact, sn.ScHolds):
        holder = _slot(s, sc, line, p)
        for name in cards(line.fact.entries):
            game.attach(s, holder, name)
    elif isinstance(line, sn.ScSlot):
        _setup_fact(s, _slot(s, sc, line, p), line.fact)
    elif isinstance(line, sn.ScAmount) and line.key.value == "turns":
        s.players[p].turns_taken = value(line.value)
    elif isinstance(line, sn.ScAmount):
        s.players[p].resources[line.key.value] = value(line.value)


def _setup_fact(s: State, cid: int, fact: sn.ScFact) -> None:
    """Set a fact on a card: its damage or level, a card state, or stacks of a status."""
    card = s.own(cid)
    if isinstance(fact, sn.ScStat):
        setattr(card, fact.stat.value, value(fact.value))  # 'damage' or 'level' (check_file)
    elif isinstance(fact, sn.ScCardState):
        flag, present = CARD_STATES[fact.phrase]
        card.flags.pop(flag, None)
        if present:
            card.flags[flag] = None
    elif isinstance(fact, sn.ScStatus):  # a status that never merges gets one more instance a line
        name, amount = fact.status.value, value(fact.stacks) if fact.stacks else 1
        if s.game.statuses[name].stacking != "never":
            card.statuses[:] = [x for x in card.statuses if x[0] != name]
        card.statuses.append([name, amount, None, -1])
        s.touch()
    elif isinstance(fact, sn.ScFace):
        card.face_down = fact.side == "down"
    elif isinstance(fact, sn.ScLine) and fact.square is not None:
        grid.put(s, card.id, s.game.ruleset.lines.index(fact.line.value) * s.game.ruleset.squares + value(fact.square) - 1)
    elif isinstance(fact, sn.ScLine):
        card.line = s.game.ruleset.lines.index(fact.line.value)


def _slot(s: State, sc: Scenario, line: sn.ScSlot, p: int) -> int:
    """Return the card a set-up line's 'ZONE[i]' names, or raise ScenarioError if the zone has no such card."""
    held, index = s.players[p].zones.get(line.zone.value, []), value(line.index)
    if not 1 <= index <= len(held):
        raise ScenarioError([Diagnostic("E110", f"P{p + 1} {line.zone.value} has no card {index} (it has "
                                                f"{len(held)})", sc.path, line.index.loc.line, line.index.loc.col)],
                            sc.source)
    return held[index - 1]


# ---------------------------------------------------------------- running and expectations


def _pause(sc: Scenario) -> list | None:
    """Return where the engine pauses for the stop point (none for 'end' and 'at the next choice')."""
    return None if sc.stop in ("end", "at the next choice") else sc.pause


@dataclass
class Outcome:
    scenario: Scenario
    failures: list[str]
    state: State | None
    failed: list[n.Node] = field(default_factory=list)  # the expect: lines that failed, for the report's diffs
    transcript_failed: bool = False
    log: list[str] = field(default_factory=list)  # the game's log, also when the script failed (state None)

    @property
    def passed(self) -> bool:
        return not self.failures


def run_scenario(sc: Scenario, game: Game | None = None) -> Outcome:
    """Play a scenario to its stop point and return every expectation it failed; raise ScenarioError
    with every problem of its lines against the game (unknown zones, cards, players ...) first."""
    game = game or _load(sc)
    if sc.cards is not None:
        game = _with_cards(game, sc)
    if sc.ast is not None:
        _raise_if(check_options(sc.ast, game), sc)
        game = game.with_options(sc.options) if sc.options else game
        _raise_if(check_game(sc.ast, game), sc)
    name = Path(sc.path).name
    s, failures = _start(game, sc, name)
    if s is None:
        return Outcome(sc, failures, None)
    agent = ScriptedAgent([line.text for line in sc.sections["choices"]])
    failure = _play(s, sc, agent, name)
    if failure:
        return Outcome(sc, [failure], None, log=s.log)
    if agent.used < len(agent.choices):
        failures.append(f"{name}:{sc.sections['choices'][agent.used].loc.line}: {len(agent.choices) - agent.used} "
                        f"scripted choice(s) were not used: {', '.join(agent.choices[agent.used:])}")
    if s.rolls:
        failures.append(f"{_rolls_at(sc, name)}: {len(s.rolls)} scripted roll(s) were not used: "
                        f"{', '.join(map(str, s.rolls))}")
    failed = []
    for line in sc.sections["expect"]:
        found = check(s, f"{name}:{line.loc.line}", line, sc.exact_lines)
        failures += found
        failed += [line] if found else []
    transcript = _transcript(s, sc)
    return Outcome(sc, failures + transcript, s, failed, bool(transcript), s.log)


def _raise_if(problems: list[Diagnostic], sc: Scenario) -> None:
    if problems:
        raise ScenarioError(problems, sc.source)


def _with_cards(game: Game, sc: Scenario) -> Game:
    """Return the game with the scenario's own cards (compiler/scenario_cards.py), or raise ScenarioError."""
    assert sc.cards is not None
    try:
        return with_cards(game, ruleset_files(sc.ruleset, Path(sc.path), sc.root), sc.cards)
    except CompileError as err:
        raise ScenarioError(err.diagnostics, sc.source) from None


def _load(sc: Scenario) -> Game:
    """Return the compiled game a scenario names, or raise ScenarioError at its 'ruleset' line."""
    try:
        return load_game(sc.ruleset)
    except ModuleNotFoundError as err:  # a folder of cards/ that was never built
        if err.name not in ("generated", f"generated.{sc.ruleset}"):
            raise  # a module the compiled ruleset itself imports: a bug, not the scenario's
        line = next((i for i in sc.ast.items if isinstance(i, sn.ScRuleset)), None) if sc.ast else None
        where = (line.name.loc.line, line.name.loc.col) if line else (1, 1)
        raise ScenarioError([Diagnostic("E101", f"ruleset '{sc.ruleset}' is not compiled into generated/; run "
                                                "'cardc build'", sc.path, *where)], sc.source) from None


def _start(game: Game, sc: Scenario, name: str) -> tuple[State | None, list[str]]:
    """Return the state the set-up builds (None if refused) and the failures of 'error:' expectations."""
    errors = [(f"{name}:{line.loc.line}", line.text) for line in sc.sections["expect"] if isinstance(line, sn.ScError)]
    try:
        s = build_state(game, sc, _pause(sc))
    except UnscriptedRoll as err:
        return None, [f"{_rolls_at(sc, name)}: {err}"]
    except ValueError as err:  # a deck the ruleset refuses
        wrong = [f"{at}: the set-up was refused with '{err}', expected '{e}'" for at, e in errors if e not in str(err)]
        setup_at = f"{name}:{sc.sections['setup'][0].loc.line}" if sc.sections["setup"] else name
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
            at = f"{name}:{sc.sections['choices'][before].loc.line}" if agent.used > before else f"{name}"
            return f"{at}: {err}"
        except UnscriptedRoll as err:
            return f"{_rolls_at(sc, name)}: {err}"
    return ""


def _rolls_at(sc: Scenario, name: str) -> str:
    """Return where a failure about rolls is reported: the 'rolls:' line, or the file."""
    return f"{name}:{sc.rolls_line}" if sc.rolls_line else name


def _transcript(s: State, sc: Scenario) -> list[str]:
    """Return a failure naming the first transcript line that differs from the log, or nothing."""
    lines = sc.sections["transcript"]
    want = [line.text for line in lines]
    if not want or _unlined(want, sc) == _unlined(s.log, sc):
        return []
    name = Path(sc.path).name
    for i, (a, b) in enumerate(zip(want, s.log, strict=False)):
        if _unlined([a], sc) != _unlined([b], sc):
            return [f"{name}:{lines[i].loc.line}: transcript differs at line {i + 1}: expected '{a}', got '{b}'"]
    return [f"{name}:{lines[-1].loc.line}: transcript has {len(want)} lines, the game logged {len(s.log)}"]


def _unlined(log: list[str], sc: Scenario) -> list[str]:
    """Return log lines as a transcript compares them: without the lines of where abilities are written,
    unless the scenario is run with exact lines."""
    return log if sc.exact_lines else [WHERE.sub(r"(\1)", line) for line in log]


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
