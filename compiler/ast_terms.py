"""Stage 1, the Transformer's callbacks for expressions and conditions."""

from __future__ import annotations

from compiler import nodes as n
from compiler.ast_common import _int, _loc, _name


class TermParts:
    """The callbacks of numbers, arithmetic and the conditions that compare or test them."""

    # expressions
    def number(self, meta, c):
        return n.Number(_loc(meta), _int(c[0]))

    def negative_number(self, meta, c):
        return n.Number(_loc(meta), -_int(c[0]))

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

    def dice(self, meta, c):
        count, _, sides = str(c[0]).partition("D")
        return n.Dice(_loc(meta), _int(count), _int(sides) if sides else 6)

    def dice_plus(self, meta, c):
        return n.BinOp(_loc(meta), "+", self.dice(meta, c[:1]), n.Number(_loc(meta), _int(c[1])))

    def dice_minus(self, meta, c):
        return n.BinOp(_loc(meta), "-", self.dice(meta, c[:1]), n.Number(_loc(meta), _int(c[1])))

    def dice_times(self, meta, c):
        return n.BinOp(_loc(meta), "*", self.dice(meta, c[:1]), n.Number(_loc(meta), _int(c[1])))

    def the_roll(self, meta, c):
        return n.TheRoll(_loc(meta))

    def turn_number(self, meta, c):
        return n.TurnNumber(_loc(meta))

    def round_number(self, meta, c):
        return n.RoundNumber(_loc(meta))

    def by_round(self, meta, c):
        return n.ByRound(_loc(meta), tuple(_int(x) for x in c))

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
        return n.StatBound(_loc(meta), _name(c[0]), _int(c[1]), c[2])

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

    def in_front(self, meta, c):
        return n.InFrontOf(_loc(meta), c[0])

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
