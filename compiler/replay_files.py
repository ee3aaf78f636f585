"""Replay files through the grammar: read (grammar/sheets.lark `replay` via compiler/parser.py), then every
field checked against the replay format (docs/fuzzing.md) and against the game, every problem located at
the value that is wrong, in source order, before any game starts.

Two stages, as `cardc replay` works. `read_replay` needs the file alone (and the names of the rulesets):
strict JSON, strings (escapes, no raw control characters), keys (unknown, twice, missing), the kind of
each value, the format marker, every number, the ruleset's name and the extra card file's name.
`check_game` needs the game the ruleset compiles to: the options, and that each deck can start a game.

Codes: E001/E002 a text that is not JSON, E004 arrays nested past 32, E005 bytes that are not UTF-8 (the
caller's read_source), E101 an unknown key, ruleset or option, E103 a missing key, E104 a key given twice,
E201 a deck the game refuses, E202 an unknown card, E209 a value of the wrong kind (or not a replay at
all), E210 a bad number, E301 a name that would lead a write out of the temporary copy.
"""

from __future__ import annotations

import json
import keyword
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field

from compiler import nodes as n
from compiler import sheet_nodes as sn
from compiler.build import SAFE_NAME
from compiler.check_scenarios import MAX_NUMBER, MAX_SEED, Problems, option
from compiler.diagnostics import CompileError, Diagnostic, did_you_mean, quoted_list
from compiler.parser import parse_replay
from compiler.sheets import deck_rules
from compiler.team_files import read_team, team_text
from runtime.defs import Entry
from runtime.engine import Game

FORMAT = "cardc-replay/1"
# key -> required; the keys tools/fuzzing.py writes. 'found' and 'shrink' say how the failure was found:
# nothing replays them, so only their kind is checked.
KEYS = {"format": True, "ruleset": True, "options": False, "target": False, "extra_cards": False, "seed": True,
        "decks": True, "choices": True, "choice_indices": False, "violation": False, "log": False,
        "found": False, "shrink": False}
EXTRA_KEYS = {"file": True, "text": True}
ESCAPES = '"\\/bfnrt'
BAD_ESCAPE = "expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t, or \\u and 4 hex digits"


@dataclass
class Replay:
    """The values of a replay file that replay reads, with the nodes stage two places its problems at."""

    path: str
    ruleset: str = ""
    options: dict[str, str] = field(default_factory=dict)
    extra_cards: dict[str, str] | None = None
    seed: int = 0
    decks: list[list] = field(default_factory=list)  # card names, or a team's entries
    choices: list[tuple[str, int]] = field(default_factory=list)
    violation: str = ""
    option_nodes: list[tuple[sn.JString, sn.JString]] = field(default_factory=list)
    deck_nodes: sn.JArray | None = None
    ruleset_node: sn.JString | None = None


class _Problems(Problems):
    number_code = "E210"


# ---------------------------------------------------------------- strings


def _strings(value: sn.JValue) -> Iterator[sn.JString]:
    """Return every string of a JSON value, keys included, in file order (without recursion)."""
    stack: list[sn.JValue] = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, sn.JString):
            yield node
        elif isinstance(node, sn.JArray):
            stack += reversed(node.items)
        elif isinstance(node, sn.JObject):
            stack += [x for pair in reversed(node.pairs) for x in reversed(pair)]


def _string_problems(node: sn.JString, out: Problems) -> None:
    """Add the first flaw of a string as written: a raw control character, a bad escape, half a surrogate."""
    raw, i = node.raw, 1
    while i < len(raw) - 1:
        at = sn.Word(n.Loc(node.loc.line, node.loc.col + i), "")
        if ord(raw[i]) < 0x20:
            out.add(at, "E002", f"unexpected character U+{ord(raw[i]):04X} in a string; write it as an escape "
                                f"(\\u{ord(raw[i]):04x})")
            return
        if raw[i] == "\\":
            if not (raw[i + 1] in ESCAPES or re.match(r"u[0-9a-fA-F]{4}", raw[i + 1:i + 6])):
                out.add(at, "E002", f"invalid escape '{_shown(raw[i:i + 2])}' in a string; {BAD_ESCAPE}")
                return
            i += 1
        i += 1
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in json.loads(raw)):
        out.add(node, "E002", "a string holds half of a UTF-16 surrogate pair (\\ud800 to \\udfff) without "
                              "the other half: no character")


def _text(node: sn.JString) -> str:
    """Return the value of a string whose flaws were checked."""
    return str(json.loads(node.raw))


def _shown(text: str) -> str:
    """Return a text as a message quotes it: characters that print differently as \\u escapes, cut at 40."""
    text = text if len(text) <= 40 else text[:40] + "..."
    return "".join(ch if ch.isprintable() else f"\\u{ord(ch):04x}" for ch in text)


# ---------------------------------------------------------------- kinds of values


def _kind(value: sn.JValue) -> str:
    """Return what a JSON value is, as a message names it."""
    if isinstance(value, sn.JLiteral):
        return value.word
    return {sn.JObject: "an object", sn.JArray: "an array", sn.JString: "a string",
            sn.JNumber: "a number"}[type(value)]


def _is(value: sn.JValue, kind: type, what: str, expected: str, out: Problems) -> bool:
    """Return whether a value is of a kind; if not, add 'WHAT must be EXPECTED, found ...'."""
    if isinstance(value, kind):
        return True
    out.add(value, "E209", f"{what} must be {expected}, found {_kind(value)}")
    return False


def _null(value: sn.JValue) -> bool:
    return isinstance(value, sn.JLiteral) and value.word == "null"


def _members(obj: sn.JObject, keys: dict[str, bool], what: str, out: Problems) -> dict[str, sn.JValue]:
    """Return an object's values by key; add each unknown key, key given twice and missing key."""
    seen: dict[str, sn.JString] = {}
    values: dict[str, sn.JValue] = {}
    for key, value in obj.pairs:
        name = _text(key)
        if name in seen:
            first = seen[name].loc
            out.add(key, "E104", f"key '{_shown(name)}' is given twice; first at {out.path}:{first.line}:{first.col}")
        elif name not in keys:
            hint = did_you_mean(name, keys) or f"; known: {quoted_list(keys, 20)}"
            out.add(key, "E101", f"unknown key '{_shown(name)}' in {what}{hint}")
        else:
            seen[name], values[name] = key, value
    for name in (k for k, required in keys.items() if required and k not in values):
        out.add(obj, "E103", f"{what} has no key '{name}'")
    return values


def _number(value: sn.JValue, what: str, out: Problems, low: int = 0, high: int = MAX_NUMBER) -> int | None:
    """Return a whole number from low to high (ASCII digits, read once its length is known), or None."""
    if not _is(value, sn.JNumber, what, "a whole number", out):
        return None
    assert isinstance(value, sn.JNumber)
    return out.number(sn.Word(value.loc, value.text), what, low, high)


def _string(value: sn.JValue, what: str, out: Problems) -> str | None:
    return _text(value) if _is(value, sn.JString, what, "a string", out) else None  # type: ignore[arg-type]


def _array(value: sn.JValue, what: str, out: Problems) -> tuple[sn.JValue, ...]:
    return value.items if _is(value, sn.JArray, what, "an array", out) else ()  # type: ignore[union-attr]


# ---------------------------------------------------------------- the fields


def _format(value: sn.JValue, out: Problems) -> None:
    found = _string(value, "'format'", out)
    if found is not None and found != FORMAT:
        out.add(value, "E209", f"not a replay file: 'format' is '{_shown(found)}'; expected '{FORMAT}'")


def _ruleset(value: sn.JValue, rulesets: Collection[str], out: Problems) -> str:
    name = _string(value, "'ruleset'", out)
    if name is None:
        return ""
    if not SAFE_NAME.match(name):
        out.add(value, "E301", f"ruleset {json.dumps(name)} is not a ruleset name; expected the name of a folder "
                               "of cards/ (lowercase letters, digits and '_', starting with a letter)")
    elif name not in rulesets:
        out.known(n.Name(value.loc, name), "ruleset", sorted(rulesets))
    return name


def _options(value: sn.JValue, replay: Replay, out: Problems) -> None:
    if _null(value) or not _is(value, sn.JObject, "'options'", "null or an object of option values", out):
        return
    assert isinstance(value, sn.JObject)
    for key, chosen in value.pairs:
        if _text(key) in (_text(k) for k, _ in replay.option_nodes):
            out.add(key, "E104", f"option '{_shown(_text(key))}' is given twice")
        elif _string(chosen, f"option '{_shown(_text(key))}'", out) is not None:
            replay.option_nodes.append((key, chosen))  # type: ignore[arg-type]


def _extra_cards(value: sn.JValue, out: Problems) -> dict[str, str] | None:
    if _null(value) or not _is(value, sn.JObject, "'extra_cards'", "null or an object", out):
        return None
    assert isinstance(value, sn.JObject)
    members = _members(value, EXTRA_KEYS, "'extra_cards'", out)
    file = _string(members["file"], "'extra_cards' 'file'", out) if "file" in members else None
    text = _string(members["text"], "'extra_cards' 'text'", out) if "text" in members else None
    why = card_file_problem(file) if file is not None else None
    if why is not None:
        out.add(members["file"], "E301", f"extra_cards file {why}")
    return {"file": file, "text": text} if file is not None and text is not None else None


def card_file_problem(name: object) -> str | None:
    """Return why a name cannot be an extra card file written into a ruleset folder's copy (None if it can):
    only a plain file name (compiler/build.py SAFE_NAME, then '.card') stays inside that folder."""
    stem = name[:-len(".card")] if isinstance(name, str) and name.endswith(".card") else ""
    if SAFE_NAME.match(stem) and not keyword.iskeyword(stem):
        return None
    return (f"{json.dumps(name)} is not a plain card file name; expected lowercase letters, digits and '_', "
            "starting with a letter, then '.card' (such as \"fuzz_sprouts.card\"): the file is written only "
            "inside a temporary copy of the ruleset folder")


def _decks(value: sn.JValue, out: Problems) -> list[list]:
    """Return the decks: card names, or for a team, entries [character, line number, [its table]]."""
    decks = []
    for p, deck in enumerate(_array(value, "'decks'", out), 1):
        items = [_entry(card, p, out) if isinstance(card, sn.JArray) else _string(card, f"a card of deck {p}", out)
                 for card in _array(deck, f"deck {p}", out)]
        decks.append([x for x in items if x is not None])
    return decks


def _entry(value: sn.JArray, p: int, out: Problems) -> Entry | None:
    """Return a team's character: [name, line (0: the front), [the cards of its table by face]]."""
    if len(value.items) != 3:
        out.add(value, "E209", f"a character of team {p} is [name, line, [table]], found {len(value.items)} value(s)")
        return None
    name, line, table = value.items
    cards = [_string(c, f"a card of team {p}'s table", out) for c in _array(table, f"a table of team {p}", out)]
    what, at = _string(name, f"a character of team {p}", out), _number(line, f"a line of team {p}", out, 0, 9)
    if what is None or at is None or None in cards:
        return None
    return Entry(what, tuple(c for c in cards if c is not None), at)


def _choices(value: sn.JValue, out: Problems) -> list[tuple[str, int]]:
    choices = []
    for k, pair in enumerate(_array(value, "'choices'", out), 1):
        items = _array(pair, f"choice {k}", out)
        if isinstance(pair, sn.JArray) and len(items) != 2:
            out.add(pair, "E209", f"choice {k} must be a pair [kind, value], found {len(items)} value(s)")
        elif items:
            kind = _string(items[0], f"the kind of choice {k}", out)
            amount = _number(items[1], f"the value of choice {k}", out, -MAX_NUMBER)
            choices += [(kind, amount)] if kind is not None and amount is not None else []
    return choices


def _other(key: str, value: sn.JValue, out: Problems) -> None:
    """Check a field replay does not play from: its kind, and the numbers of its lists."""
    if key == "target":
        _string(value, "'target'", out)
    elif key == "violation" and not _null(value):
        _string(value, "'violation'", out)
    elif key == "log":
        for line in _array(value, "'log'", out):
            _string(line, "a line of 'log'", out)
    elif key == "choice_indices":
        for k, index in enumerate(_array(value, "'choice_indices'", out), 1):
            _number(index, f"choice index {k}", out)
    elif key in ("found", "shrink"):
        _is(value, sn.JObject, f"'{key}'", "an object", out)


def _fields(top: sn.JObject, path: str, rulesets: Collection[str], out: Problems) -> Replay:
    """Return the values of a replay's object, adding the problem of each field."""
    replay = Replay(path)
    for key, value in _members(top, KEYS, "a replay file", out).items():
        if key == "format":
            _format(value, out)
        elif key == "ruleset":
            replay.ruleset, replay.ruleset_node = _ruleset(value, rulesets, out), value  # type: ignore[assignment]
        elif key == "options":
            _options(value, replay, out)
        elif key == "extra_cards":
            replay.extra_cards = _extra_cards(value, out)
        elif key == "seed":
            replay.seed = _number(value, "a seed", out, 0, MAX_SEED) or 0
        elif key == "decks":
            replay.decks, replay.deck_nodes = _decks(value, out), value  # type: ignore[assignment]
        elif key == "choices":
            replay.choices = _choices(value, out)
        else:
            _other(key, value, out)
    violation = next((v for k, v in top.pairs if _text(k) == "violation" and isinstance(v, sn.JString)), None)
    replay.violation = _text(violation) if violation is not None else ""
    replay.options = {_text(k): _text(v) for k, v in replay.option_nodes}
    return replay


def read_replay(text: str, path: str, rulesets: Collection[str]) -> Replay:
    """Return the values of a replay file's text, or raise CompileError with every problem located (the
    first syntax error alone: a JSON file has no lines to go on at)."""
    value, syntax = parse_replay(text.removeprefix("\ufeff"), path)
    if value is None:
        raise CompileError(syntax)
    out = _Problems(path)
    for string in _strings(value):
        _string_problems(string, out)
    if out.found:  # a string's value is not known: the fields would only repeat it
        raise CompileError(out.found)
    if not _is(value, sn.JObject, "a replay file", f"an object with \"format\": \"{FORMAT}\"", out):
        raise CompileError(out.found)
    assert isinstance(value, sn.JObject)
    replay = _fields(value, path, rulesets, out)
    if out.found:
        raise CompileError(out.found)
    return replay


# ---------------------------------------------------------------- against the game


def check_game(replay: Replay, game: Game) -> list[Diagnostic]:
    """Return the problems of a replay against its ruleset's game: options, and decks that start a game."""
    out = _Problems(replay.path)
    if game.declared.automatic:  # its fuzz findings are two party files, played again with `cardc play`
        out.add(replay.ruleset_node or replay.deck_nodes or sn.JLiteral(n.Loc(1, 1), ""), "E209",
                f"ruleset '{game.declared.name}' plays automatic battles, which no replay file records; a battle is "
                "played again from its party files with 'cardc play'")
        return out.found
    for key, value in replay.option_nodes:
        line = sn.ScOption(key.loc, n.Name(key.loc, _text(key)), n.Name(value.loc, _text(value)))
        option(line, game.declared.name, game.declared.option_values, out)
    if out.found or replay.deck_nodes is None:
        return out.found
    game = game.with_options(replay.options)
    decks, players, most = replay.deck_nodes, game.ruleset.players, max(game.ruleset.max_players, game.ruleset.players)
    if not players <= len(decks.items) <= most:
        by = f"{players} to {most}" if most > players else f"{players}"
        out.add(decks, "E209", f"'decks' holds {len(decks.items)} deck(s); ruleset '{game.declared.name}' is "
                               f"played by {by}")
    if game.ruleset.table_rules is not None:
        _check_teams(replay, game, out)
        return out.found
    known = deck_rules(game).known
    for p, (node, names) in enumerate(zip(decks.items, replay.decks, strict=True), 1):
        cards = node.items if isinstance(node, sn.JArray) else ()  # stage one found each to be an array
        unknown = [card for card in cards if isinstance(card, sn.JString) and _text(card) not in known]
        for card in unknown:  # as in deck files: a close name, never the whole pool
            out.add(card, "E202", f"unknown card '{_shown(_text(card))}'{did_you_mean(_text(card), known)}")
        problems = [] if unknown else game.check_deck(names)
        if problems:
            out.add(node, "E201", f"deck {p} cannot start a game: {'; '.join(problems)}")
    return out.found


def _check_teams(replay: Replay, game: Game, out: Problems) -> None:
    """Add a problem at each team that cannot start a game: the checks of a team file (compiler/team_files.py)."""
    assert replay.deck_nodes is not None
    for p, (node, team) in enumerate(zip(replay.deck_nodes.items, replay.decks, strict=True), 1):
        if not all(isinstance(e, Entry) for e in team) or any(e.line >= len(game.ruleset.lines) for e in team):
            out.add(node, "E201", f"team {p} cannot start a game: a team is a list of [character, line, [table]], "
                                  f"its lines 0 to {len(game.ruleset.lines) - 1}")
            continue
        try:
            read_team(team_text(team, game.ruleset.lines), f"team {p}", game)
        except CompileError as err:
            said = "; ".join(d.message for d in err.diagnostics)
            out.add(node, "E201", f"team {p} cannot start a game: {said}")
