"""Stage 1, what the Transformer's parts (compiler/ast_*.py) share: locations, tokens, child lists."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from compiler import nodes as n
from compiler.diagnostics import Diagnostic

# The largest number card text may write. Nine digits are far past any value a card prints (12000
# is the largest), keep products of two numbers within 64 bits, and are cheap to read: Python's
# int() refuses a string of more than 4,300 digits, leading zeros included.
MAX_NUMBER = 999_999_999


class _Token(Protocol):
    """A Lark token as the parts read it: a str that knows where it starts (Lark stays in parser.py)."""

    @property
    def line(self) -> int | None: ...

    @property
    def column(self) -> int | None: ...


def _is_token(x: object) -> bool:
    """Return whether a child is a token of the grammar (a NAME, a STRING...), not a str a callback built."""
    return isinstance(x, str) and hasattr(x, "type")


def _loc(meta: Any) -> n.Loc:
    """Return the location of a tree node from its Lark meta."""
    return n.Loc(meta.line, meta.column) if not meta.empty else n.NOWHERE


def _tloc(tok: _Token) -> n.Loc:
    return n.Loc(tok.line or 0, tok.column or 0)


def _int(tok: _Token) -> int:
    """Return the value of an INT token; parse() has refused those past MAX_NUMBER (number_errors)."""
    return int(str(tok).lstrip("0") or "0")


def number_errors(tokens: Iterable[_Token], path: str) -> list[Diagnostic]:
    """Return an E007 for each INT token (or number of a DICE token, '2D6') past MAX_NUMBER, read without
    int(), located at the token."""
    found = []
    for tok in tokens:
        for group in str(tok).split("D"):
            digits = group.lstrip("0") or "0"
            if len(digits) <= len(str(MAX_NUMBER)) and int(digits) <= MAX_NUMBER:
                continue
            shown = digits if len(digits) <= 20 else f"a number of {len(digits)} digits"
            found.append(Diagnostic("E007", f"a number must be at most {MAX_NUMBER}, found {shown}", path,
                                    tok.line or 1, tok.column or 1))
            break
    return found


def _name(tok: _Token) -> n.Name:
    return n.Name(_tloc(tok), str(tok))


def _string(tok: _Token) -> str:
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


def _setting(meta: Any, key: str, values: list) -> n.Setting:
    """Return a ruleset line that sets `key` (the setting lines of every part are built alike)."""
    return n.Setting(_loc(meta), key, tuple(values))


_ABILITY = (n.Triggered, n.Timed, n.Static, n.SpellEffect, n.Activated)
_OBJECT = (n.This, n.It, n.EventObject, n.Attacker, n.Blocker, n.Winner, n.Target, n.TargetPlayer, n.Each,
           n.Extreme, n.RandomOne, n.PlayerRef, n.BattleRef, n.FirstSword, n.SwordsOf)
_COND = (n.Compare, n.AtBound, n.StatBound, n.Has, n.HasSelf, n.Lacks, n.Controls, n.SeatIs, n.InState, n.WonBattle,
         n.EnteredThisTurn, n.OptionIs, n.AllOf, n.AnyOf, n.Negation, n.IsType, n.HasClass, n.WithAttribute,
         n.InFrontOf)


def _cond_of(c: list) -> Any:
    """Return the condition of an ability's children, or None."""
    found = [x[1] for x in c if isinstance(x, tuple) and len(x) == 2 and x[0] == "condition"]
    return found[0] if found else None


def _choice_count(words: str) -> tuple[int, bool]:
    """Return (count, up to) of 'a', 'an', '2' or 'up to 2'."""
    last = words.split()[-1]
    return (int(last.lstrip("0") or "0") if last.isdigit() else 1), words.startswith("up to")


def _player_first(c: list) -> tuple[Any, list]:
    """Return (the optional leading player object, the remaining children)."""
    if c and isinstance(c[0], _OBJECT):
        return c[0], c[1:]
    return None, c
