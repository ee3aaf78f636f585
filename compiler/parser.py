"""Stage 1: card text -> AST. The only module that imports Lark.

Public entry point: `parse(text, path) -> nodes.File`, raising CompileError with located
diagnostics for any text that is not in the language. This module holds the parser, the recovery
after a syntax error (with compiler/recovery.py) and its messages, and the one Transformer, which
is assembled from one class of callbacks per part of the language, each in a module that does not
import Lark: compiler/ast_cards.py (cards, abilities, keywords, statuses, enchantments),
compiler/ast_effects.py (effects and objects), compiler/ast_terms.py (expressions, conditions),
compiler/ast_rulesets.py and compiler/ast_battles.py (automatic battles), with the helpers they
share in compiler/ast_common.py.
"""

from __future__ import annotations

import hashlib
import sys
from dataclasses import replace
from functools import lru_cache, partial
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark import __version__ as LARK_VERSION
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.lark import PostLex

from compiler import limits, planned, recovery, sheet_lines
from compiler import nodes as n
from compiler import sheet_nodes as sn
from compiler.ast_battles import BattleParts
from compiler.ast_cards import CardParts
from compiler.ast_common import number_errors
from compiler.ast_effects import EffectParts
from compiler.ast_replays import ReplayParts
from compiler.ast_rulesets import RulesetParts
from compiler.ast_scenarios import BattleScenarioParts, ScenarioParts, TeamParts
from compiler.ast_sheets import SheetParts
from compiler.ast_terms import TermParts
from compiler.diagnostics import CompileError, Diagnostic, did_you_mean, quoted_list
from compiler.table_cache import cached

GRAMMAR = Path(__file__).resolve().parent.parent / "grammar" / "cards.lark"
# the card parser's tables, beside the grammar as Python keeps compiled modules (compiler/table_cache.py)
CACHE = GRAMMAR.parent / "__pycache__" / f"{GRAMMAR.name}.tables"
SHEETS = GRAMMAR.parent / "sheets.lark"  # the line-based files: deck lists


class _WholeWords(PostLex):
    """Keeps NAME in every state of the contextual lexer, so a keyword is only ever a whole word:
    'whenthis' is one (unexpected) name, never 'when' followed by 'this'."""

    always_accept = ("NAME",)

    def process(self, stream):
        return stream


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """Return the one parser, made once per process (and inherited by the build's worker processes)."""
    return card_parser(CACHE)


def prepare() -> None:
    """Make the card parser now: worker processes forked after this inherit it instead of each loading it."""
    _lark()


def card_parser(cache: Path | None) -> Lark:
    """Return the parser of card files: strict LALR with positions, its tables loaded from `cache` when that
    file holds them for this grammar, Lark and Python (computing them takes seconds, loading them a tenth)."""
    text = GRAMMAR.read_text(encoding="utf-8")
    options = {"parser": "lalr", "strict": True, "propagate_positions": True, "maybe_placeholders": False}
    build = partial(Lark, text, postlex=_WholeWords(), **options)
    if cache is None:
        return build()
    key = hashlib.sha256(f"{text}\0{LARK_VERSION}\0{sys.version}\0{sorted(options.items())}".encode())
    return cached(cache, key.hexdigest(), build, Lark.save, Lark.load)


def parse(text: str, path: str = "<text>") -> n.File:
    """Return the AST of one file, or raise CompileError with every syntax error (or every number past
    MAX_NUMBER) located."""
    _refuse_if_too_large(text, path)
    try:
        tree = _lark().parse(text)
    except UnexpectedInput:
        raise CompileError(_all_syntax_errors(text, path)) from None
    # iter_subtrees_topdown, unlike scan_values, does not recurse (a tree may be deeply nested)
    numbers = (c for t in tree.iter_subtrees_topdown() for c in t.children
               if isinstance(c, Token) and c.type in ("INT", "DICE"))
    too_large = number_errors(numbers, path)
    if too_large:  # before the Transformer reads each number with int()
        raise CompileError(too_large)
    try:
        items = _ToAst().transform(tree)
    except (RecursionError, VisitError) as err:
        if isinstance(err, VisitError) and not isinstance(err.orig_exc, RecursionError):
            raise
        raise CompileError([Diagnostic("E004", "expression nested too deeply", path, 1, 1)]) from None
    return n.File(n.Loc(1, 1), path, tuple(items))


# ---------------------------------------------------------------- recovery after a syntax error

_SYNC = frozenset({"DOT", "COLON", "LBRACE", "RBRACE"})  # a checkpoint of the parser is kept after each
MAX_ERRORS = 25  # per file: past this many, more messages about the same file help nobody
MAX_TRIALS = 200  # resume attempts per error before the rest of the file is given up


def _all_syntax_errors(text: str, path: str) -> list[Diagnostic]:
    """Return every syntax error of a text that does not parse, in source order.

    The parser keeps a copy of itself after each '.', ':', '{' and '}'. After an error it resumes
    from the latest copy that fits the next resume point (recovery.py), skipping the text between;
    an error right after a resume is therefore a real one, not a consequence of the first.
    """
    marks, stray, abandoned = recovery.scan(text), set[int](), set[int]()
    parser = _lark().parse_interactive(text)
    checkpoints = [(0, parser.copy(deepcopy_values=False))]
    found: dict[tuple[int, int], Diagnostic] = {}
    while len(found) < MAX_ERRORS:
        try:
            _run(parser, checkpoints, text)
            break
        except UnexpectedInput as err:
            if isinstance(err, UnexpectedToken) and err.interactive_parser is None:
                err.interactive_parser = parser
            diagnostic, skip_to = _diagnostic(err, text, path)
            if _error_pos(err) not in abandoned:  # the '}' of a block given up on is no new error
                found.setdefault((diagnostic.line, diagnostic.col), diagnostic)
            resumed = _resume(err, text, marks, checkpoints, stray, skip_to)
            if resumed is None:
                break
            parser, start, at = resumed
            abandoned |= recovery.closers(marks, start, at, frozenset(stray))
    return list(found.values())


def _run(parser, checkpoints: list, text: str) -> None:
    """Feed the rest of the text to the parser, keeping a checkpoint after each sync token."""
    token = None
    for token in parser.lexer_thread.lex(parser.parser_state):
        parser.feed_token(token)
        if token.type in _SYNC:
            checkpoints.append((token.end_pos, parser.copy(deepcopy_values=False)))
    parser.feed_eof(token if token is not None else _end_token(text))


def _diagnostic(err: UnexpectedInput, text: str, path: str) -> tuple[Diagnostic, int | None]:
    """Return the diagnostic of a syntax error, and where a planned construct it is on ends (or None)."""
    syntax_error = _syntax_error(err, path)
    found = planned.recognise(text, _error_pos(err))
    if found is None:
        return syntax_error, None
    item, first, last = found
    return planned.planned_error(text, item, first, syntax_error), last


def _error_pos(err: UnexpectedInput) -> int:
    """Return the offset in the text where a syntax error was found."""
    token = getattr(err, "token", None)
    if token is not None and token.type != "$END" and token.start_pos is not None:
        return token.start_pos
    return err.pos_in_stream if err.pos_in_stream is not None else -1


def _resume(err: UnexpectedInput, text: str, marks: recovery.Marks, checkpoints: list, stray: set,
            skip_to: int | None):
    """Return a parser positioned to go on after an error (and past `skip_to`, the end of a planned
    construct), with the offsets of its checkpoint and of where it goes on; None when nothing fits."""
    token = getattr(err, "token", None)
    if token is not None and token.type == "$END":
        return None
    pos = _error_pos(err)
    # an unexpected brace opens or closes nothing, unless the parser resumes at it (a '}' that came
    # too soon closes the block whose last sentence it cut short)
    brace = token is not None and token.type in ("LBRACE", "RBRACE")
    trials = 0
    for at, strong, outward in _candidates(err, marks, pos, skip_to):
        ignored = frozenset(stray | ({pos} if brace and at != pos else set()))
        fitting = [(start, c) for start, c in reversed(checkpoints)
                   if start <= pos and recovery.same_block(marks, start, at, ignored, outward)]
        # first a checkpoint that reads the next word as the grammar's keyword, if it is one
        for exact, (start, checkpoint) in [(True, c) for c in fitting] + [(False, c) for c in fitting]:
            trials += 1
            if trials > MAX_TRIALS:
                return None
            if _fits(checkpoint, text, at, 1 if strong else 3, exact):
                stray.update(ignored)
                return _seek(checkpoint, text, at), start, at
    return None


def _candidates(err: UnexpectedInput, marks: recovery.Marks, pos: int, skip_to: int | None) -> list:
    """Return (offset, strong, outward) for each place to try resuming at, nearest first.

    The unexpected token itself comes first (a block may have been left open before it), unless
    the error is a planned construct, which is skipped whole.
    """
    found = [(r, strong, not strong) for r, strong in recovery.resume_points(marks, max(pos, skip_to or 0))]
    if isinstance(err, UnexpectedToken) and skip_to is None:
        found.insert(0, (pos, False, True))
    return found


def _seek(checkpoint, text: str, at: int):
    """Return a copy of a checkpoint whose lexer goes on at offset `at` of the text."""
    parser = checkpoint.copy(deepcopy_values=False)
    counter = parser.lexer_thread.state.line_ctr
    counter.char_pos = at
    counter.line = text.count("\n", 0, at) + 1
    counter.line_start_pos = text.rfind("\n", 0, at) + 1
    counter.column = at - counter.line_start_pos + 1
    return parser


def _fits(checkpoint, text: str, at: int, need: int, exact: bool) -> bool:
    """Return whether the text at `at` parses from a checkpoint for `need` tokens (or to a sync token).

    With `exact`, a keyword of the language must be read as that keyword, not as a name.
    """
    parser = _seek(checkpoint, text, at)
    shifted = 0
    try:
        for token in parser.lexer_thread.lex(parser.parser_state):
            if exact and shifted == 0 and token.type == "NAME" and str(token) in _keywords():
                return False
            parser.feed_token(token)
            shifted += 1
            if shifted >= need or token.type in _SYNC:
                return True
        parser.feed_eof(_end_token(text))
    except UnexpectedInput:
        return False
    return True


@lru_cache(maxsize=1)
def _keywords() -> frozenset[str]:
    """Return the words the grammar spells out (which a contextual lexer may still read as names)."""
    return frozenset(t.pattern.value for t in _lark().terminals
                     if t.pattern.type == "str" and t.pattern.value[:1].isalpha())


def _end_token(text: str) -> Token:
    """Return an end-of-file token placed just past the last character that is not a space."""
    end = len(text.rstrip())
    line = text.count("\n", 0, end) + 1
    col = end - (text.rfind("\n", 0, end) + 1) + 1
    return Token("$END", "", end, line, col, line, col, end)


# ---------------------------------------------------------------- messages

DESCRIBED = {"NAME": "a name", "INT": "a number", "STRING": "a quoted string", "$END": "the end of the file",
             "COMPARE": "a comparison"}


def _expected(terminals) -> str:
    """Return 'a name, a number, or one of 'a', 'all', ...' for a set of expected terminals."""
    described = sorted({DESCRIBED[t] for t in terminals if t in DESCRIBED})
    words = [_pretty_terminal(t) for t in terminals if t not in DESCRIBED]
    parts = described + ([f"one of {quoted_list(words)}" if len(set(words)) > 1 else f"'{words[0]}'"]
                         if words else [])
    return ", ".join(parts[:-1]) + (" or " if len(parts) > 1 else "") + parts[-1] if parts else "nothing"


def _pretty_terminal(name: str) -> str:
    """Return how a terminal is written in card text, e.g. 'when' for WHEN."""
    for term in _lark().terminals:
        if term.name == name:
            return term.pattern.value if term.pattern.type == "str" else name
    return name


def _syntax_error(err: UnexpectedInput, path: str) -> Diagnostic:
    """Return the diagnostic for a Lark syntax error: what was found, what was expected, where."""
    if isinstance(err, UnexpectedCharacters):
        if err.char == '"':
            msg = "string not closed: this '\"' has no closing '\"' on the same line"
        else:
            char = f"'{err.char}'" if err.char.isprintable() else f"U+{ord(err.char):04X}"
            msg = f"unexpected character {char}"
            if err.allowed:
                msg += f"; expected {_expected(err.allowed)}"
        return Diagnostic("E002", msg, path, err.line, err.column)
    assert isinstance(err, (UnexpectedToken, UnexpectedEOF))
    token = err.token
    # The contextual lexer reports the terminals it could lex (keywords folded into NAME); the
    # parser's own view of what could come next is exact.
    parser_state = getattr(err, "interactive_parser", None)
    expected = set(parser_state.accepts()) if parser_state is not None else set(err.expected)
    if token.type == "$END" or isinstance(err, UnexpectedEOF):
        line, col = _end_position(err)
        if "RBRACE" in expected:
            return Diagnostic("E003", "unexpected end of file: a block opened with '{' is not closed with '}'",
                              path, line, col)
        return Diagnostic("E003", f"unexpected end of file; expected {_expected(expected)}", path, line, col)
    words = [_pretty_terminal(t) for t in expected if t not in DESCRIBED]
    hint = did_you_mean(str(token), [w for w in words if w.isalpha()]) if token.type == "NAME" else ""
    msg = f"unexpected '{token}'; expected {_expected(expected)}{hint}"
    return Diagnostic("E001", msg, path, token.line or 1, token.column or 1)


def _end_position(err: UnexpectedInput) -> tuple[int, int]:
    """Return the line and column just past the last token of a file that ended too soon."""
    token = getattr(err, "token", None)
    if token is not None and token.end_line is not None:
        return token.end_line, token.end_column
    return max(err.line, 1), max(err.column, 1)


# ---------------------------------------------------------------- the Transformer

@v_args(meta=True)
class _ToAst(CardParts, EffectParts, TermParts, RulesetParts, BattleParts, Transformer):
    """The one Transformer: each callback builds the AST node its grammar alias names. The parts of
    the language hold the callbacks; the rules that are plain words, found in every part, are here."""

    def start(self, meta, c):
        return c

    def _words(self, meta, c):
        return " ".join(str(t) for t in c)

    article = event_words = whose = sign = side = restriction = side_most = player_word = used_word = _words
    hook_event = early_late = other = _words
    control = possessive = rounding = more_less = quantity = zone_flag = kind_trait = chooser = _words
    choice_count = _words
    stacking = consumed = player_order = seat = outcome = heal_when = updown = card_state = place_end = _words


def _take_callbacks(cls: type, *parts: type) -> None:
    """Put the callbacks of each part into `cls`, wrapped as @v_args(meta=True) wraps those of a class.

    The class decorator wraps only what the class itself defines, skipping inherited methods (see
    lark.visitors._Decoratable._apply_v_args); wrapped here, they get (meta, children) as before.
    Names starting with '_' are helpers, not callbacks, and are inherited as they are.
    """
    for part in parts:
        for rule, callback in vars(part).items():
            if not rule.startswith("_"):
                setattr(cls, rule, v_args(meta=True)(callback))


_take_callbacks(_ToAst, CardParts, EffectParts, TermParts, RulesetParts, BattleParts)


def _refuse_if_too_large(text: str, path: str) -> None:
    """Raise CompileError if a text is past a size limit (compiler/limits.py), before any parsing."""
    problem = limits.size_problem(text, path)
    if problem is not None:
        raise CompileError([problem])


# ---------------------------------------------------------------- line-based files


@lru_cache(maxsize=1)
def _sheets() -> Lark:
    """Return the parser of grammar/sheets.lark, one start rule per file format, built once per process."""
    return Lark(SHEETS.read_text(encoding="utf-8"), parser="lalr", start=["deck", "party"], strict=True,
                propagate_positions=True, maybe_placeholders=False)


@v_args(meta=True)
class _SheetsToAst(SheetParts, Transformer):
    """The Transformer of the line-based files."""


_take_callbacks(_SheetsToAst, SheetParts)


def parse_deck(text: str, path: str = "<deck>") -> tuple[sn.DeckFile, list[Diagnostic]]:
    """Return the AST of a deck file's lines that parse, and a syntax error for each line that does not."""
    deck, errors = _parse_sheet(text, path, "deck")
    assert isinstance(deck, sn.DeckFile)
    return deck, errors


def parse_party(text: str, path: str = "<party>") -> tuple[sn.PartyFile, list[Diagnostic]]:
    """Return the AST of a party file's lines that parse, and a syntax error for each line that does not."""
    party, errors = _parse_sheet(text, path, "party")
    assert isinstance(party, sn.PartyFile)
    return party, errors


def _parse_sheet(text: str, path: str, start: str) -> tuple[n.Node, list[Diagnostic]]:
    """Return the AST of a deck or party file and its syntax errors; a line that does not parse is left out."""
    return _parse_lines_with(_sheets(), _SheetsToAst(), text, path, start)


def _parse_lines_with(lark: Lark, to_ast: Transformer, text: str, path: str,
                      start: str) -> tuple[n.Node, list[Diagnostic]]:
    """Return the AST of a line-based file and a syntax error for each line that does not parse (left out)."""
    _refuse_if_too_large(text, path)
    tree, errors = sheet_lines.parse_lines(lambda t: lark.parse(t, start=start), UnexpectedInput, lark.terminals,
                                           text, path, start)
    return replace(to_ast.transform(tree), path=path), errors


# ---------------------------------------------------------------- scenario files


@lru_cache(maxsize=1)
def _scenarios() -> Lark:
    """Return the parser of scenario and battle-scenario files (grammar/sheets.lark with the line postlex of
    compiler/sheet_lines.py, which makes indentation tokens), built once per process."""
    return Lark(SHEETS.read_text(encoding="utf-8"), parser="lalr", start=["scenario", "battle_scenario", "team"],
                strict=True, propagate_positions=True, maybe_placeholders=False, postlex=sheet_lines.Lines())


@v_args(meta=True)
class _ScenariosToAst(ScenarioParts, BattleScenarioParts, TeamParts, SheetParts, Transformer):
    """The Transformer of scenario and team files (card lists are deck entries)."""


_take_callbacks(_ScenariosToAst, ScenarioParts, BattleScenarioParts, TeamParts, SheetParts)


def parse_scenario(text: str, path: str = "<scenario>") -> tuple[sn.ScenarioFile, list[Diagnostic]]:
    """Return the AST of a scenario file's lines that parse, and a syntax error for each line that does not;
    the text of its 'cards:' blocks goes through the card parser, located in the scenario file."""
    rest, cards = sheet_lines.card_blocks(text)
    scenario, errors = _parse_lines(rest, path, "scenario")
    assert isinstance(scenario, sn.ScenarioFile)
    if cards is None:
        return scenario, errors
    try:
        defs = parse(cards, path)
    except CompileError as err:
        return scenario, sorted(errors + err.diagnostics, key=lambda d: (d.line, d.col))
    heads = [item.loc.line for item in scenario.items if isinstance(item, sn.ScCardBlock)]
    items = tuple(replace(item, file=replace(defs, items=tuple(d for d in defs.items if _under(d, item, heads))))
                  if isinstance(item, sn.ScCardBlock) else item for item in scenario.items)
    return replace(scenario, items=items), errors


def _under(definition: n.Node, block: sn.ScCardBlock, heads: list[int]) -> bool:
    """Return whether a definition of a scenario's card text is written under this 'cards:' line (the last
    one above it)."""
    return max(h for h in heads if h < definition.loc.line) == block.loc.line


def parse_battle_scenario(text: str, path: str = "<battle>") -> tuple[sn.BattleFile, list[Diagnostic]]:
    """Return the AST of a battle scenario's lines that parse, and a syntax error for each line that does not."""
    battle, errors = _parse_lines(text, path, "battle_scenario")
    assert isinstance(battle, sn.BattleFile)
    return battle, errors


def parse_team(text: str, path: str = "<team>") -> tuple[sn.TeamFile, list[Diagnostic]]:
    """Return the AST of a team file's lines that parse, and a syntax error for each line that does not."""
    team, errors = _parse_lines(text, path, "team")
    assert isinstance(team, sn.TeamFile)
    return team, errors


def _parse_lines(text: str, path: str, start: str) -> tuple[n.Node, list[Diagnostic]]:
    """Return the AST of a scenario file and its syntax errors; a line that does not parse is left out."""
    return _parse_lines_with(_scenarios(), _ScenariosToAst(), text, path, start)


def sheet_tokens(text: str, start: str) -> list[Token]:
    """Return every token of a line-based file that parses, in order, indentation tokens included (for fmt)."""
    lark = _scenarios() if start in ("scenario", "battle_scenario", "team") else _sheets()
    return list(lark.parse_interactive(text, start=start).iter_parse())


# ---------------------------------------------------------------- replay files (JSON)


@lru_cache(maxsize=1)
def _replays() -> Lark:
    """Return the parser of replay files (start `replay` of grammar/sheets.lark), built once per process."""
    return Lark(SHEETS.read_text(encoding="utf-8"), parser="lalr", start=["replay"], strict=True,
                propagate_positions=True, maybe_placeholders=False, postlex=sheet_lines.JsonSpace())


@v_args(meta=True)
class _ReplaysToAst(ReplayParts, Transformer):
    """The Transformer of replay files."""


_take_callbacks(_ReplaysToAst, ReplayParts)


def parse_replay(text: str, path: str = "<replay>") -> tuple[sn.JValue | None, list[Diagnostic]]:
    """Return the JSON value of a replay file, or None and its one syntax error (a JSON file gets no recovery)."""
    lark = _replays()
    try:
        tree = lark.parse(text)
    except UnexpectedInput as err:
        return None, [sheet_lines.json_diagnostic(err, lark.terminals, path)]
    problem = sheet_lines.json_problem(text, tree, path)  # a form feed, or nesting past MAX_DEPTH
    return (None, [problem]) if problem else (_ReplaysToAst().transform(tree), [])


# ---------------------------------------------------------------- completion (the language server)


def expected_at(text: str, offset: int, start: str = "start") -> list[str]:
    """Return what the grammar accepts at an offset of a text: each literal terminal as it is written
    ('when', '{'), each other terminal by its name ('NAME', 'STRING', 'INT'); [] if the text before the
    offset does not parse. `start` is 'start' (card files) or a start rule of grammar/sheets.lark."""
    lark = _lark() if start == "start" else _scenarios() if start in ("scenario", "battle_scenario", "team") \
        else _sheets()
    kwargs = {} if start == "start" else {"start": start}
    parser = lark.parse_interactive(text[:offset], **kwargs)
    try:
        for token in parser.lexer_thread.lex(parser.parser_state):
            parser.feed_token(token)
    except UnexpectedInput:
        return []
    spelled = {t.name: t.pattern.value for t in lark.terminals if t.pattern.type == "str"}
    return sorted({spelled.get(name, name) for name in parser.accepts() if name != "$END"})
