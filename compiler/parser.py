"""Stage 1: card text -> AST. The only module that imports Lark.

Public entry point: `parse(text, path) -> nodes.File`, raising CompileError with located
diagnostics for any text that is not in the language.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.lark import PostLex

from compiler import nodes as n
from compiler import planned, recovery
from compiler.diagnostics import CompileError, Diagnostic, did_you_mean, quoted_list

GRAMMAR = Path(__file__).resolve().parent.parent / "grammar" / "cards.lark"


class _WholeWords(PostLex):
    """Keeps NAME in every state of the contextual lexer, so a keyword is only ever a whole word:
    'whenthis' is one (unexpected) name, never 'when' followed by 'this'."""

    always_accept = ("NAME",)

    def process(self, stream):
        return stream


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """Return the one parser: strict LALR with positions, built once per process."""
    return Lark(
        GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        postlex=_WholeWords(),
        strict=True,
        propagate_positions=True,
        maybe_placeholders=False,
    )


def parse(text: str, path: str = "<text>") -> n.File:
    """Return the AST of one file, or raise CompileError with every syntax error located."""
    try:
        tree = _lark().parse(text)
    except UnexpectedInput:
        raise CompileError(_all_syntax_errors(text, path)) from None
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


def _loc(meta: Any) -> n.Loc:
    """Return the location of a tree node from its Lark meta."""
    return n.Loc(meta.line, meta.column) if not meta.empty else n.NOWHERE


def _tloc(tok: Token) -> n.Loc:
    return n.Loc(tok.line or 0, tok.column or 0)


def _name(tok: Token) -> n.Name:
    return n.Name(_tloc(tok), str(tok))


def _string(tok: Token) -> str:
    """Return the value of a STRING token: quotes removed, backslash escapes resolved."""
    body = str(tok)[1:-1]
    out, i = [], 0
    while i < len(body):
        if body[i] == "\\" and i + 1 < len(body):
            out.append({"n": "\n", "t": "\t"}.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(body[i])
            i += 1
    return "".join(out)


def _split(children: list, kind: type | tuple[type, ...]) -> tuple[list, list]:
    """Return (children of the given node kind, the others), both in order."""
    yes = [c for c in children if isinstance(c, kind)]
    return yes, [c for c in children if not isinstance(c, kind)]


_ABILITY = (n.Triggered, n.Timed, n.Static, n.SpellEffect)
_OBJECT = (n.This, n.It, n.EventObject, n.Attacker, n.Blocker, n.Winner, n.Target, n.TargetPlayer, n.Each,
           n.Extreme, n.RandomOne, n.PlayerRef, n.BattleRef, n.FirstSword, n.SwordsOf)
_COND = (n.Compare, n.AtBound, n.StatBound, n.Has, n.HasSelf, n.Lacks, n.Controls, n.SeatIs, n.InState, n.WonBattle,
         n.EnteredThisTurn, n.OptionIs, n.AllOf, n.AnyOf, n.Negation, n.IsType, n.HasClass, n.WithAttribute)


@v_args(meta=True)
class _ToAst(Transformer):
    """The one Transformer: each method builds the AST node its grammar alias names."""

    def start(self, meta, c):
        return c

    def _words(self, meta, c):
        return " ".join(str(t) for t in c)

    article = event_words = whose = sign = side = restriction = side_most = player_word = used_word = _words
    hook_event = early_late = other = _words
    control = possessive = rounding = more_less = quantity = zone_flag = kind_trait = chooser = _words
    choice_count = _words
    stacking = consumed = player_order = seat = outcome = heal_when = updown = card_state = _words

    # cards
    def card(self, meta, c):
        abilities, parts = _split(c[1:], _ABILITY)
        return n.Card(_loc(meta), _string(c[0]), tuple(parts), tuple(abilities))

    def kind_decl(self, meta, c):
        return n.KindDecl(_loc(meta), _name(c[0]))

    def cost_decl(self, meta, c):
        return n.CostDecl(_loc(meta), tuple(c))

    def cost_item(self, meta, c):
        return n.CostItem(_loc(meta), int(c[0]), _name(c[1]))

    def stats_decl(self, meta, c):
        return n.StatsDecl(_loc(meta), tuple(c))

    def stat_item(self, meta, c):
        return n.StatItem(_loc(meta), _name(c[0]), c[1], tuple(c[2:]))

    def signed_int(self, meta, c):
        return int(c[0])

    def negative_int(self, meta, c):
        return -int(c[0])

    def attrs_decl(self, meta, c):
        return n.AttrsDecl(_loc(meta), tuple(c))

    def attr_item(self, meta, c):
        return n.AttrItem(_loc(meta), _name(c[0]), _name(c[1]))

    def keywords_decl(self, meta, c):
        return n.KeywordsDecl(_loc(meta), tuple(c))

    def keyword_use(self, meta, c):
        return n.KeywordUse(_loc(meta), _name(c[0]), tuple(int(x) for x in c[1:]))

    def text_decl(self, meta, c):
        return n.TextDecl(_loc(meta), _string(c[0]))

    def token_decl(self, meta, c):
        return n.TokenDecl(_loc(meta))

    def names_decl(self, meta, c):
        return n.NamesDecl(_loc(meta), tuple(_string(t) for t in c))

    def subtarget_decl(self, meta, c):
        return n.SubtargetDecl(_loc(meta))

    def swords_decl(self, meta, c):
        return n.SwordsDecl(_loc(meta), tuple(_string(t) for t in c))

    # abilities
    def triggered(self, meta, c):
        (subject, event), cond, body = c[0], _cond_of(c), c[-1]
        return n.Triggered(_loc(meta), subject, event, cond, body)

    def timed(self, meta, c):
        (whose, phase), cond, body = c[0], _cond_of(c), c[-1]
        if phase == "end":
            return n.Timed(_loc(meta), whose, None, cond, body, at_end=True)
        return n.Timed(_loc(meta), whose, phase, cond, body)

    def turn_end_point(self, meta, c):
        return (c[0], "end")

    def static(self, meta, c):
        return n.Static(_loc(meta), c[0])

    def spell_effect(self, meta, c):
        return n.SpellEffect(_loc(meta), c[0])

    def repeated_effect(self, meta, c):
        return n.SpellEffect(_loc(meta), c[1], int(c[0]))

    def condition(self, meta, c):
        return ("condition", c[0])

    def event_pattern(self, meta, c):
        return (c[0], c[1])

    def subject_this(self, meta, c):
        return n.Subject(_loc(meta), "this", "this", None)

    def subject_player(self, meta, c):
        return n.Subject(_loc(meta), "player", c[0], None)

    def subject_filter(self, meta, c):
        return n.Subject(_loc(meta), "filter", c[0], c[1])

    def time_point(self, meta, c):
        return (c[0], _name(c[1]) if len(c) > 1 else None)

    def body(self, meta, c):
        return tuple(c)

    def _sentence(self, meta, c, mode):
        conds, effects = _split(c, _COND)
        return n.Sentence(_loc(meta), mode, conds[0] if conds else None, tuple(effects))

    def do(self, meta, c):
        return self._sentence(meta, c, "do")

    def may(self, meta, c):
        return self._sentence(meta, c, "may")

    def must_pay(self, meta, c):
        return self._sentence(meta, c, "must_pay")

    def if_you_do(self, meta, c):
        return self._sentence(meta, c, "if_you_do")

    def if_you_dont(self, meta, c):
        return self._sentence(meta, c, "if_you_dont")

    def tight(self, meta, c):
        return self._sentence(meta, c, "tight")

    def loose(self, meta, c):
        return self._sentence(meta, c, "loose")

    def independent(self, meta, c):
        return self._sentence(meta, c, "independent")

    def if_happened(self, meta, c):
        return self._sentence(meta, c, "if_happened")

    def ban(self, meta, c):
        return self._setting(meta, "ban", [_name(c[0])])

    def announce_turn(self, meta, c):
        return n.AnnounceTurn(_loc(meta))

    def skip_missing(self, meta, c):
        return self._setting(meta, "skip missing targets", [1])

    def interrupts(self, meta, c):
        return self._setting(meta, "interrupts", ["sentence"])

    # effects
    def deal_damage(self, meta, c):
        return n.DealDamage(_loc(meta), c[0], c[1])

    def destroy(self, meta, c):
        return n.Destroy(_loc(meta), c[0])

    def delete(self, meta, c):
        return n.Delete(_loc(meta), c[0])

    def ready(self, meta, c):
        return n.Ready(_loc(meta), c[0])

    def exhaust(self, meta, c):
        return n.Exhaust(_loc(meta), c[0])

    def level_change(self, meta, c):
        return n.LevelChange(_loc(meta), c[0], c[1], c[2] if len(c) > 2 else None)

    def lift_restriction(self, meta, c):
        return n.LiftRestriction(_loc(meta), c[0])

    def blocked_by(self, meta, c):
        return n.BlockedBy(_loc(meta), c[0], c[1])

    def must_block(self, meta, c):
        return n.MustBlock(_loc(meta), c[0])

    def damage_floor(self, meta, c):
        return n.DamageFloor(_loc(meta), c[0], _name(c[1]))

    def take_actions(self, meta, c):
        return n.TakeActions(_loc(meta))

    def actions(self, meta, c):
        return n.Actions(_loc(meta), tuple(c))

    def action_item(self, meta, c):
        zone = next((_name(x) for x in c[1:] if isinstance(x, Token)), None)  # 'into' or 'from' a zone
        kind = next((x for x in c[1:] if isinstance(x, n.Name)), None)
        return n.ActionItem(_loc(meta), _name(c[0]), zone, _cond_of(c), kind)

    def action_kind(self, meta, c):
        return _name(c[0])

    def deal_jokers(self, meta, c):
        return n.DealJokers(_loc(meta))

    def jokers(self, meta, c):
        parts = dict(c[1:])
        return self._setting(meta, "jokers", [int(c[0]), parts.get("distinct", ""), parts.get("dealt", "")])

    def joker_distinct(self, meta, c):
        return ("distinct", _name(c[0]))

    def joker_dealt(self, meta, c):
        return ("dealt", _name(c[0]))

    def life_fill(self, meta, c):
        by_opponent = c[0] is True
        rest = c[1:] if by_opponent else c
        return self._setting(meta, "life fill", [int(rest[0]), _name(rest[1]), "opponent" if by_opponent else "any"])

    def by_opponent(self, meta, c):
        return True

    def matching(self, meta, c):
        return self._setting(meta, "matching attribute", [_name(c[0])])

    def set_resource(self, meta, c):
        return n.SetResource(_loc(meta), c[0], _name(c[1]), c[2])

    def draw(self, meta, c):
        player, rest = _player_first(c)
        return n.Draw(_loc(meta), player, rest[0])

    def gain(self, meta, c):
        player, rest = _player_first(c)
        return n.Gain(_loc(meta), player, rest[0], _name(rest[1]))

    def lose(self, meta, c):
        player, rest = _player_first(c)
        amount = None if rest[0] == "all" else rest[0]
        return n.Lose(_loc(meta), player, amount, _name(rest[1]))

    def all(self, meta, c):
        return "all"

    def pay(self, meta, c):
        return n.Pay(_loc(meta), c[0], _name(c[1]))

    def give(self, meta, c):
        return n.Give(_loc(meta), c[0], _name(c[1]), c[2] if len(c) > 2 else None)

    def put_status(self, meta, c):
        return n.PutStatus(_loc(meta), c[0], _name(c[1]), c[2], c[3] if len(c) > 3 else None)

    def remove(self, meta, c):
        amount = None if len(c) == 2 or c[0] == "all" else c[0]
        return n.Remove(_loc(meta), amount, _name(c[-2]), c[-1])

    def remove_damage(self, meta, c):
        return n.RemoveDamage(_loc(meta), c[0])

    def return_to_hand(self, meta, c):
        return n.ReturnToHand(_loc(meta), c[0])

    def move_to_end(self, meta, c):
        return n.MoveToEnd(_loc(meta), c[0], c[1])

    def create_token(self, meta, c):
        player, rest = _player_first(c)
        return n.CreateToken(_loc(meta), player, rest[0], _string(rest[1]))

    def discard(self, meta, c):
        player, rest = _player_first(c)
        return n.Discard(_loc(meta), player, rest[0], rest[1] if len(rest) > 1 else "")

    def choose(self, meta, c):
        player, (count, f) = _player_first(c)
        return n.Choose(_loc(meta), player, *_choice_count(count), f)

    def search(self, meta, c):
        player, (possessive, zone, count, f, *revealed) = _player_first(c)
        f = replace(f, zone=n.ZoneRef(_tloc(zone), possessive, _name(zone)))
        return n.Choose(_loc(meta), player, *_choice_count(count), f, searched=True, revealed=bool(revealed))

    def revealed(self, meta, c):
        return True

    def reveal(self, meta, c):
        return n.Reveal(_loc(meta), c[0])

    def put_into(self, meta, c):
        return n.PutInto(_loc(meta), c[0], c[1], _name(c[2]))

    def shuffle(self, meta, c):
        return n.Shuffle(_loc(meta), c[0], _name(c[1]))

    def chosen(self, meta, c):
        return n.Chosen(_loc(meta), _name(c[0]))

    def modify(self, meta, c):
        duration = c[4] if len(c) > 4 else None
        return n.Modify(_loc(meta), c[0], c[1], c[2], _name(c[3]), duration)

    def restrict(self, meta, c):
        return n.Restrict(_loc(meta), c[0], c[1], c[2] if len(c) > 2 else None)

    def grant(self, meta, c):
        return n.Grant(_loc(meta), c[0], _name(c[1]))

    def reduce_damage(self, meta, c):
        return n.ReduceDamage(_loc(meta), c[0], c[1])

    def stage(self, meta, c):
        return n.Stage(_loc(meta))

    def play_staged(self, meta, c):
        return n.PlayStaged(_loc(meta), tuple(_name(t) for t in c[:-1]), c[-1])

    def attack_all(self, meta, c):
        return n.AttackAll(_loc(meta), c[0], c[1])

    def until_end_of_turn(self, meta, c):
        return n.Duration(_loc(meta), "end of turn")

    def until_your_next_turn(self, meta, c):
        return n.Duration(_loc(meta), "your next turn")

    # objects
    def this(self, meta, c):
        return n.This(_loc(meta))

    def it(self, meta, c):
        return n.It(_loc(meta))

    def event_object(self, meta, c):
        return n.EventObject(_loc(meta), _name(c[0]))

    def attacker(self, meta, c):
        return n.Attacker(_loc(meta))

    def blocker(self, meta, c):
        return n.Blocker(_loc(meta))

    def winner(self, meta, c):
        return n.Winner(_loc(meta))

    def target(self, meta, c):
        count = int(c[0]) if len(c) > 1 else 1
        return n.Target(_loc(meta), count, False, c[-1])

    def target_up_to(self, meta, c):
        return n.Target(_loc(meta), int(c[0]), True, c[1])

    def another_target(self, meta, c):
        return n.Target(_loc(meta), 1, False, c[0], another=True)

    def event_player(self, meta, c):
        return n.EventObject(_loc(meta), n.Name(_loc(meta), "player"))

    def target_player(self, meta, c):
        return n.TargetPlayer(_loc(meta))

    def each(self, meta, c):
        return n.Each(_loc(meta), c[0])

    def extreme(self, meta, c):
        return n.Extreme(_loc(meta), c[0], c[1])

    def random_one(self, meta, c):
        return n.RandomOne(_loc(meta), c[0])

    def player_ref(self, meta, c):
        return n.PlayerRef(_loc(meta), c[0])

    def filter(self, meta, c):
        # [possessive] ['other'] NAME+ [control] [zone] with*: the last NAME is the kind, those before
        # it attribute values; words before the names are the prefix, a word after them the control.
        names = [x for x in c if isinstance(x, Token)]
        first = c.index(names[0])
        before, after = c[:first], c[first + len(names):]
        possessive = next((x for x in before if x != "other"), None)
        control = next((x for x in after if isinstance(x, str)), None)
        zone = next((x for x in after if isinstance(x, n.ZoneRef)), None)
        withs = tuple(x for x in after if not isinstance(x, (str, n.ZoneRef)))
        return n.Filter(_loc(meta), _name(names[-1]), control, zone, withs, possessive, "other" in before,
                        tuple(_name(t) for t in names[:-1]))

    def zone(self, meta, c):
        return n.ZoneRef(_loc(meta), c[0], _name(c[1]))

    def with_clause(self, meta, c):
        return c[0]

    def with_attribute(self, meta, c):
        return n.WithAttribute(_loc(meta), _name(c[0]), _name(c[1]))

    # expressions
    def number(self, meta, c):
        return n.Number(_loc(meta), int(c[0]))

    def param(self, meta, c):
        return n.Param(_loc(meta), _name(c[0]))

    def stat_of(self, meta, c):
        return n.StatOf(_loc(meta), _name(c[0]), c[1])

    def stat_own(self, meta, c):
        return n.StatOwn(_loc(meta), c[0], _name(c[1]))

    def count(self, meta, c):
        return n.Count(_loc(meta), c[0])

    def stacks(self, meta, c):
        return n.Stacks(_loc(meta), _name(c[0]), c[1])

    def event_amount(self, meta, c):
        return n.EventAmount(_loc(meta))

    def turn_number(self, meta, c):
        return n.TurnNumber(_loc(meta))

    def round_number(self, meta, c):
        return n.RoundNumber(_loc(meta))

    def by_round(self, meta, c):
        return n.ByRound(_loc(meta), tuple(int(x) for x in c))

    def own_turn_number(self, meta, c):
        return n.OwnTurnNumber(_loc(meta), c[0])

    def add(self, meta, c):
        return n.BinOp(_loc(meta), "+", c[0], c[1])

    def sub(self, meta, c):
        return n.BinOp(_loc(meta), "-", c[0], c[1])

    def mul(self, meta, c):
        return n.BinOp(_loc(meta), "*", c[0], c[1])

    def div(self, meta, c):
        return n.Div(_loc(meta), c[0], c[1], c[2])

    def neg(self, meta, c):
        return n.Neg(_loc(meta), c[0])

    def minimum(self, meta, c):
        return n.Call(_loc(meta), "min", (c[0], c[1]))

    def maximum(self, meta, c):
        return n.Call(_loc(meta), "max", (c[0], c[1]))

    def half(self, meta, c):
        return n.Half(_loc(meta), c[0], c[1])

    # conditions
    def compare(self, meta, c):
        return n.Compare(_loc(meta), c[0], str(c[1]), c[2])

    def at_bound(self, meta, c):
        return n.AtBound(_loc(meta), c[0], c[1], c[2])

    def stat_bound(self, meta, c):
        return n.StatBound(_loc(meta), _name(c[0]), int(c[1]), c[2])

    def has(self, meta, c):
        return n.Has(_loc(meta), c[0], _name(c[1]))

    def has_self(self, meta, c):
        return n.HasSelf(_loc(meta), _name(c[0]))

    def with_abilities(self, meta, c):
        return n.HasAbilities(_loc(meta), True)

    def without_abilities(self, meta, c):
        return n.HasAbilities(_loc(meta), False)

    def lacks(self, meta, c):
        return n.Lacks(_loc(meta), _name(c[0]))

    def controls(self, meta, c):
        return n.Controls(_loc(meta), c[0], c[1], c[2])

    def seat_is(self, meta, c):
        return n.SeatIs(_loc(meta), c[0], c[1])

    def entered_this_turn(self, meta, c):
        return n.EnteredThisTurn(_loc(meta), c[0])

    def won_battle(self, meta, c):
        return n.WonBattle(_loc(meta), c[0])

    def in_state(self, meta, c):
        return n.InState(_loc(meta), c[0], c[1])

    def option_is(self, meta, c):
        return n.OptionIs(_loc(meta), _name(c[0]), _name(c[1]))

    def any_of(self, meta, c):
        return n.AnyOf(_loc(meta), c[0], c[1])

    def all_of(self, meta, c):
        return n.AllOf(_loc(meta), c[0], c[1])

    def negation(self, meta, c):
        return n.Negation(_loc(meta), c[0])

    # keywords and statuses
    def keyword_def(self, meta, c):
        params = next((x for x in c[1:] if isinstance(x, tuple)), ())
        text = next((x.text for x in c[1:] if isinstance(x, n.TextDecl)), None)
        abilities = tuple(x for x in c[1:] if isinstance(x, _ABILITY))
        return n.KeywordDef(_loc(meta), _name(c[0]), params, text, abilities)

    def params(self, meta, c):
        return tuple(_name(t) for t in c)

    def status_def(self, meta, c):
        settings = tuple(tuple(x.split(" ", 1)) for x in c[1:] if isinstance(x, str))
        text = next((x.text for x in c[1:] if isinstance(x, n.TextDecl)), None)
        abilities = tuple(x for x in c[1:] if isinstance(x, _ABILITY))
        hooks = tuple(x for x in c[1:] if isinstance(x, n.Hook))
        return n.StatusDef(_loc(meta), _name(c[0]), settings, text, abilities, hooks)

    def status_class(self, meta, c):
        return f"class {c[0]}"

    def hook(self, meta, c):
        return n.Hook(_loc(meta), c[0], c[1])

    # enchantments: parts arrive as (field, value) pairs
    def enchantment_def(self, meta, c):
        parts = [x for x in c[1:] if isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str)]
        fields = {k: v for k, v in parts if k != "riders"}
        fields["riders"] = tuple(v for k, v in parts if k == "riders")
        params = next((x for x in c[1:] if isinstance(x, tuple) and x and isinstance(x[0], n.Name)), ())
        stacking = next((x.split(" ", 1)[1] for x in c[1:] if isinstance(x, str)), "stacks")
        text = next((x.text for x in c[1:] if isinstance(x, n.TextDecl)), None)
        return n.EnchantmentDef(_loc(meta), _name(c[0]), params, stacking, text, **fields)

    def launch_turn(self, meta, c):
        return ("launch", c[0])

    def launch_shift(self, meta, c):
        return ("shift", int(c[0]) * (-1 if c[1] == "earlier" else 1))

    def vanishes(self, meta, c):
        return ("vanishes", True)

    def executable_if(self, meta, c):
        return ("executable", c[0])

    def mp_cost(self, meta, c):
        return ("mp_cost", (c[0], _name(c[1])))

    def rider(self, meta, c):
        return ("riders", n.Rider(_loc(meta), _cond_of(c), c[-1]))

    def makes_whole(self, meta, c):
        return ("whole", True)

    def lasts_permanently(self, meta, c):
        return "lasts permanently"

    def lasts_until_end_of_turn(self, meta, c):
        return "lasts until end of turn"

    def lasts_turns(self, meta, c):
        return f"lasts {int(c[0])} turns"

    # rulesets
    def ruleset(self, meta, c):
        return n.Ruleset(_loc(meta), _name(c[0]), tuple(c[1:]))

    def _setting(self, meta, key, values):
        return n.Setting(_loc(meta), key, tuple(values))

    def title(self, meta, c):
        return self._setting(meta, "title", [_string(c[0])])

    def players(self, meta, c):
        return self._setting(meta, "players", [int(c[0])])

    def first_player(self, meta, c):
        return self._setting(meta, "first player", [c[0]])

    def deck_rule(self, meta, c):
        return self._setting(meta, "deck", [int(x) for x in c])

    def opening_hand(self, meta, c):
        return self._setting(meta, "opening hand", [int(x) for x in c])

    def kinds(self, meta, c):
        return self._setting(meta, "kinds", [_name(t) for t in c])

    def stats(self, meta, c):
        return self._setting(meta, "stats", [_name(t) for t in c])

    def resource(self, meta, c):
        bounds = [x for bound in c[2:] for x in bound]
        return self._setting(meta, "resource", [_name(c[0]), int(c[1]), *bounds])

    def bound(self, meta, c):
        return (str(c[0]), int(c[1]))

    def option(self, meta, c):
        return self._setting(meta, "option", [_name(t) for t in c])

    def variant(self, meta, c):
        return n.Variant(_loc(meta), _name(c[0]), _name(c[1]), c[2])

    def levels(self, meta, c):
        return self._setting(meta, "levels", [int(x) for x in c])

    def level_heal(self, meta, c):
        return self._setting(meta, "level heal", [c[0]])

    def damage_lowers(self, meta, c):
        return self._setting(meta, "damage lowers", [_name(c[0])])

    def short_deck(self, meta, c):
        return self._setting(meta, "short deck", [_name(t) for t in c])

    def all_lose(self, meta, c):
        return self._setting(meta, "all lose", [c[0]])

    def round_limit(self, meta, c):
        return self._setting(meta, "round limit", [int(c[0]), _name(c[1]), c[2]])

    def zone_decl(self, meta, c):
        limits = [x for x in c[1:] if isinstance(x, int)]
        flags = tuple(x for x in c[1:] if not isinstance(x, int))
        return n.ZoneDecl(_loc(meta), _name(c[0]), flags, limits[-1] if limits else None)

    def zone_max(self, meta, c):
        return int(c[0])

    def kind_rule(self, meta, c):
        return n.KindRule(_loc(meta), _name(c[0]), tuple(c[1:]))

    def turn(self, meta, c):
        phases, rest = _split(c, n.Phase)
        return n.Turn(_loc(meta), tuple(phases), rest[0] if rest else ())

    def phase(self, meta, c):
        steps, rest = _split(c[1:], n.Step)
        return n.Phase(_loc(meta), _name(c[0]), tuple(steps), rest[0] if rest else ())

    def step(self, meta, c):
        return n.Step(_loc(meta), _name(c[0]), c[1] if len(c) > 1 else ())

    def turn_end(self, meta, c):
        return c[0]

    def battle(self, meta, c):
        won = next((x for x in c[3:] if x[0] == "won"), ("won", None, ()))
        end = next((x[1] for x in c[3:] if x[0] == "end"), ())
        return n.Battle(_loc(meta), c[0], c[1], c[2], won[1], won[2], end)

    def chosen_blocker(self, meta, c):
        return n.ChosenBlocker(_loc(meta), c[0])

    def battle_won(self, meta, c):
        return ("won", _name(c[0]), c[1] if len(c) > 1 else ())

    def battle_end(self, meta, c):
        return ("end", c[0])

    def trigger_order(self, meta, c):
        return n.TriggerOrder(_loc(meta), tuple(c))

    def order(self, meta, c):
        return tuple(c)

    def by_stat_descending(self, meta, c):
        return n.OrderKey(_loc(meta), "stat", (_name(c[0]),))

    def by_kind(self, meta, c):
        return n.OrderKey(_loc(meta), "kind", tuple(_name(t) for t in c))

    def turn_player_first(self, meta, c):
        return n.OrderKey(_loc(meta), "turn_player", ())

    def left_to_right(self, meta, c):
        return n.OrderKey(_loc(meta), "position", ())

    def priority_levels(self, meta, c):
        return n.OrderKey(_loc(meta), "priority", ())

    def checks(self, meta, c):
        return n.Checks(_loc(meta), c[0])

    def lose_rule(self, meta, c):
        return n.LoseRule(_loc(meta), c[0], len(c) > 1)

    def at_once(self, meta, c):
        return True

    # automatic battles
    def automatic(self, meta, c):
        return self._setting(meta, "automatic", [int(c[0]), int(c[1])])

    def launch_default(self, meta, c):
        return self._setting(meta, "launch turn", [int(c[0])])

    def type_priority(self, meta, c):
        return self._setting(meta, "type priority", [_name(t) for t in c])

    def judge_first(self, meta, c):
        return self._setting(meta, "judge first", [_name(c[0])])

    def action_right(self, meta, c):
        return n.ActionRight(_loc(meta), tuple(c))

    def budget(self, meta, c):
        return n.Budget(_loc(meta), int(c[0]), tuple(c[1:]))

    def buy(self, meta, c):
        return (str(c[1]) if len(c) > 1 else "sword", int(c[0]))

    # battle effects
    def hit(self, meta, c):
        pool = next((x for x in c[2:] if isinstance(x, n.Name)), None)
        ignoring = next((x for x in c[2:] if isinstance(x, tuple)), ())
        return n.Hit(_loc(meta), c[0], c[1], pool, ignoring)

    def hit_pool(self, meta, c):
        return _name(c[0])

    def ignoring(self, meta, c):
        return tuple(_name(t) for t in c)

    def recover(self, meta, c):
        return n.Recover(_loc(meta), c[0], c[1], _name(c[2]))

    def set_value(self, meta, c):
        return n.SetValue(_loc(meta), _name(c[0]), c[1], c[2])

    def reset_stat(self, meta, c):
        return n.ResetStat(_loc(meta), _name(c[0]), c[1])

    def raise_turn(self, meta, c):
        return n.RaiseTurn(_loc(meta), c[0])

    def set_used(self, meta, c):
        return n.SetUsed(_loc(meta), c[0], c[1] == "used")

    def reverse_swords(self, meta, c):
        return n.ReverseSwords(_loc(meta), c[0])

    def move_sword(self, meta, c):
        return n.MoveSword(_loc(meta), c[0], c[1])

    def add_sword(self, meta, c):
        if isinstance(c[0], Token):
            return n.AddSword(_loc(meta), _string(c[0]), None, c[1])
        return n.AddSword(_loc(meta), None, c[0], c[1])

    def change_sword(self, meta, c):
        return n.ChangeSword(_loc(meta), c[0], c[1])

    def build(self, meta, c):
        return n.Build(_loc(meta), _string(c[0]))

    def skip_action(self, meta, c):
        return n.SkipAction(_loc(meta))

    def build_fails(self, meta, c):
        return n.BuildFails(_loc(meta))

    def redirect(self, meta, c):
        return n.Redirect(_loc(meta), c[0])

    def set_damage(self, meta, c):
        return n.SetDamage(_loc(meta), c[0])

    def remove_class(self, meta, c):
        return n.RemoveClass(_loc(meta), _name(c[1]), c[2])

    # battle objects and terms
    def the_target(self, meta, c):
        return n.BattleRef(_loc(meta), "target")

    def actor(self, meta, c):
        return n.BattleRef(_loc(meta), "actor")

    def subtarget(self, meta, c):
        return n.BattleRef(_loc(meta), "subtarget")

    def sender(self, meta, c):
        return n.BattleRef(_loc(meta), "sender")

    def this_sword(self, meta, c):
        return n.BattleRef(_loc(meta), "this sword")

    def first_sword(self, meta, c):
        return n.FirstSword(_loc(meta), c[0], False)

    def first_unused_sword(self, meta, c):
        return n.FirstSword(_loc(meta), c[0], True)

    def swords_of(self, meta, c):
        return n.SwordsOf(_loc(meta), c[0])

    def power(self, meta, c):
        return n.Power(_loc(meta), c[0], c[1])

    def hit_damage(self, meta, c):
        return n.HitDamage(_loc(meta))

    def is_type(self, meta, c):
        return n.IsType(_loc(meta), c[0], _name(c[2]))

    def has_class(self, meta, c):
        return n.HasClass(_loc(meta), c[0], _name(c[1]))


def _cond_of(c: list) -> Any:
    """Return the condition of an ability's children, or None."""
    found = [x[1] for x in c if isinstance(x, tuple) and len(x) == 2 and x[0] == "condition"]
    return found[0] if found else None


def _choice_count(words: str) -> tuple[int, bool]:
    """Return (count, up to) of 'a', 'an', '2' or 'up to 2'."""
    last = words.split()[-1]
    return (int(last) if last.isdigit() else 1), words.startswith("up to")


def _player_first(c: list) -> tuple[Any, list]:
    """Return (the optional leading player object, the remaining children)."""
    if c and isinstance(c[0], _OBJECT):
        return c[0], c[1:]
    return None, c
