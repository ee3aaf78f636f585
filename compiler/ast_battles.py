"""Stage 1, the Transformer's callbacks for automatic battles: ruleset lines, effects, objects, terms."""

from __future__ import annotations

from compiler import nodes as n
from compiler.ast_common import _int, _is_token, _loc, _name, _setting, _string


class BattleParts:
    """The callbacks of what only a ruleset saying 'battles are automatic' uses."""

    # automatic battles
    def automatic(self, meta, c):
        return _setting(meta, "automatic", [_int(c[0]), _int(c[1])])

    def launch_default(self, meta, c):
        return _setting(meta, "launch turn", [_int(c[0])])

    def type_priority(self, meta, c):
        return _setting(meta, "type priority", [_name(t) for t in c])

    def judge_first(self, meta, c):
        return _setting(meta, "judge first", [_name(c[0])])

    def action_right(self, meta, c):
        return n.ActionRight(_loc(meta), tuple(c))

    def budget(self, meta, c):
        return n.Budget(_loc(meta), _int(c[0]), tuple(c[1:]))

    def buy(self, meta, c):
        return (str(c[1]) if len(c) > 1 else "sword", _int(c[0]))

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
        if _is_token(c[0]):
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
