"""Rules text, the small parts: how a card names itself, amounts, expressions and the polish of a sentence.

The card language reads as English already, so a sentence is printed by compiler/fmt.py after a rewrite of
its AST (`Words.rewrite`): 'this' becomes the card's name, a keyword's parameter its capital letter, and an
amount that is more than a number a letter X, Y, ... that a 'where X is ...' clause then explains.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from compiler import fmt
from compiler import nodes as n

LETTERS = "XYZWVU"  # the letters complex amounts take, in order, within one sentence
# the symbols of comparisons and sums, said in words (never inside a quoted card name)
SYMBOLS = ((" >= ", " is at least "), (" <= ", " is at most "), (" != ", " is not "), (" == ", " is "),
           (" = ", " is "), (" > ", " is more than "), (" < ", " is less than "), (" + ", " plus "),
           (" - ", " minus "), (" * ", " times "), (" ^ ", " to the power of "))
QUOTED = re.compile(r'("(?:[^"\\]|\\.)*")')
CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
NUMBER_WORDS = {1: "once", 2: "twice"}


def _simple(e: n.Expr) -> bool:
    """Return whether an amount reads well in place ('2', 'N', '1D')."""
    return isinstance(e, (n.Number, n.Param, n.Dice))


@dataclass
class Words:
    """How one item's text names things: itself ('Quillback Scout', 'this card') and its parameters."""

    me: str
    params: frozenset[str] = frozenset()
    letters: list[tuple[str, n.Expr]] = field(default_factory=list)

    def rewrite(self, node, amounts: bool = True):
        """Return a node with 'this' named, parameters in capitals and (with amounts) complex amounts lettered."""
        match node:
            case n.This():
                return n.PlayerRef(node.loc, self.me)
            case n.Param(name=name) if name.value in self.params:
                return n.Param(node.loc, n.Name(name.loc, name.value.upper()))
            case n.EventAmount() | n.HitDamage() if amounts:
                return n.Param(node.loc, n.Name(node.loc, "that much"))
            case n.Neg(operand=n.Number(value=value)) if amounts:
                return n.Number(node.loc, -value)
            case n.LevelChange(amount=None):  # one level, said
                return self.rewrite(dataclasses.replace(node, amount=n.Number(node.loc, 1)), amounts)
            case n.Name() | n.Loc():
                return node
            case tuple():
                return tuple(self.rewrite(x, amounts) for x in node)
        if not dataclasses.is_dataclass(node) or isinstance(node, type):
            return node
        changes = {}
        for f in dataclasses.fields(node):
            value = getattr(node, f.name)
            if amounts and f.name == "amount" and _is_expr(value) and not _simple(self.rewrite(value)):
                changes[f.name] = self.letter(value)
            elif dataclasses.is_dataclass(value) or isinstance(value, tuple):
                changes[f.name] = self.rewrite(value, amounts and f.name not in ("condition", "withs"))
        return dataclasses.replace(node, **changes) if changes else node

    def letter(self, e: n.Expr) -> n.Param:
        """Return the letter that stands for a complex amount, remembering what it stands for; a count
        stands as 1, said 'for each' after the effect ('gain 1 cp for each card in your hand')."""
        letter = "1" if isinstance(e, (n.Count, n.Stacks)) else LETTERS[len(self.letters) % len(LETTERS)]
        self.letters.append((letter, self.rewrite(e, amounts=False)))
        return n.Param(e.loc, n.Name(e.loc, letter))

    def where(self) -> str:
        """Return ', where X is ...' for the letters used since the last call, and forget them."""
        said = [f"{letter} is {expr(e)}" for letter, e in self.letters if letter != "1"]
        each = [_each(e) for letter, e in self.letters if letter == "1"]
        self.letters.clear()
        return "".join(each) + (f", where {' and '.join(said)}" if said else "")


def _each(e: n.Expr) -> str:
    """Return ' for each card in your hand' or ' for each Ashmark on this card' (a count as an amount)."""
    if isinstance(e, n.Stacks):
        return f" for each {e.status.value} on {fmt.obj(e.ref)}"
    assert isinstance(e, n.Count)
    return f" for each {fmt.filter_(e.filter)}"


def _is_expr(value: object) -> bool:
    return isinstance(value, n.Expr.__args__)  # type: ignore[attr-defined]


def expr(e: n.Expr) -> str:
    """Return an expression in words: 'the number of Ashmark on this card', 'half of X, rounded down'."""
    match e:
        case n.Stacks(status=st, ref=ref):
            return f"the number of {st.value} on {fmt.obj(ref)}"
        case n.Count(filter=f):
            return f"the number of {fmt.filter_(plural(f))}"
        case n.StatOf(stat=stat, ref=ref):
            return f"the {stat.value} of {fmt.obj(ref)}"
        case n.BinOp(op=op, left=left, right=right):
            word = {"+": "plus", "-": "minus", "*": "times"}[op]
            return f"{_grouped(left) if isinstance(left, n.Div) else expr(left)} {word} {_grouped(right)}"
        case n.Div(left=left, right=right, rounding=rounding):
            return f"{expr(left)} divided by {_grouped(right)}, rounded {rounding}"
        case n.Half(operand=operand, rounding=rounding):
            return f"half of {_grouped(operand)}, rounded {rounding}"
        case n.Neg(operand=operand):
            return f"minus {_grouped(operand)}"
        case n.Call(fn=fn, args=args):
            word = {"max": "the greater", "min": "the smaller"}.get(fn, f"the {fn}")
            return f"{word} of {' and '.join(_grouped(a) for a in args)}"
        case n.Power(left=left, right=right):
            return f"{_grouped(left)} to the power of {_grouped(right)}"
        case n.ByRound(values=values):
            return f"{', '.join(map(str, values[:-1]))} or {values[-1]} by round" if len(values) > 1 else str(values[0])
    return polish(fmt.expr(e))


def plural(f: n.Filter) -> n.Filter:
    """Return a filter with its kind in the plural ('cards in your hand')."""
    kind = f.kind.value
    return f if kind.endswith("s") else dataclasses.replace(f, kind=n.Name(f.kind.loc, kind + "s"))


def _grouped(e: n.Expr) -> str:
    """Return an operand in words, bracketed when it is itself a sum or a product."""
    return f"({expr(e)})" if isinstance(e, (n.BinOp, n.Div, n.Power)) else expr(e)


def polish(text: str) -> str:
    """Return printed card language as plain English: symbols in words, 'a card' for '1 card'."""
    parts = QUOTED.split(text)
    for i in range(0, len(parts), 2):  # the even parts lie outside quoted names
        for symbol, words in SYMBOLS:
            parts[i] = parts[i].replace(symbol, words)
        parts[i] = re.sub(r"(?<![\w+-])1 card\b", "a card", parts[i]).replace("_", " ")
    return "".join(parts)


def capital(text: str) -> str:
    """Return a text with its first letter in capitals."""
    return text[:1].upper() + text[1:]


def spaced(name: str) -> str:
    """Return a keyword's name in words: 'ShieldOfOrder' -> 'Shield Of Order'."""
    return CAMEL.sub(" ", name).replace("_", " ")


def times(count: int) -> str:
    """Return 'twice', '10 times'."""
    return NUMBER_WORDS.get(count, f"{count} times")
