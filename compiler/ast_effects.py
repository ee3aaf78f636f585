"""Stage 1, the Transformer's callbacks for a card game's effects and the objects they act on."""

from __future__ import annotations

from dataclasses import replace

from compiler import nodes as n
from compiler.ast_common import (
    _choice_count,
    _cond_of,
    _int,
    _is_token,
    _loc,
    _name,
    _player_first,
    _setting,
    _string,
    _tloc,
)


class EffectParts:
    """The callbacks of a card game's effects and of the objects they name."""

    # effects
    def deal_damage(self, meta, c):
        return n.DealDamage(_loc(meta), c[0], c[-1], len(c) > 2)

    def deal_from(self, meta, c):
        return n.DealDamage(_loc(meta), c[1], c[-1], len(c) > 3, c[0])

    def unpreventable(self, meta, c):
        return "unpreventable"

    def range_shift(self, meta, c):
        return n.RangeShift(_loc(meta), c[3], c[5] == "increased", c[7])

    def counts_as(self, meta, c):
        return n.CountsAs(_loc(meta), c[0], _name(c[1]), _name(c[2]))

    def distance_as(self, meta, c):
        return n.DistanceAs(_loc(meta), c[0], c[1])

    def pierce(self, meta, c):
        return n.Pierce(_loc(meta), c[0])

    def destroy(self, meta, c):
        return n.Destroy(_loc(meta), c[0])

    def delete(self, meta, c):
        return n.Delete(_loc(meta), c[0])

    def summon(self, meta, c):
        return n.Summon(_loc(meta), c[0])

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
        zone = next((_name(x) for x in c[1:] if _is_token(x)), None)  # 'into' or 'from' a zone
        kind = next((x for x in c[1:] if isinstance(x, n.Name)), None)
        return n.ActionItem(_loc(meta), _name(c[0]), zone, _cond_of(c), kind)

    def action_kind(self, meta, c):
        return _name(c[0])

    def deal_jokers(self, meta, c):
        return n.DealJokers(_loc(meta))

    def jokers(self, meta, c):
        parts = dict(c[1:])
        return _setting(meta, "jokers", [_int(c[0]), parts.get("distinct", ""), parts.get("dealt", "")])

    def joker_distinct(self, meta, c):
        return ("distinct", _name(c[0]))

    def joker_dealt(self, meta, c):
        return ("dealt", _name(c[0]))

    def life_fill(self, meta, c):
        by_opponent = c[0] is True
        rest = c[1:] if by_opponent else c
        return _setting(meta, "life fill", [_int(rest[0]), _name(rest[1]), "opponent" if by_opponent else "any"])

    def by_opponent(self, meta, c):
        return True

    def matching(self, meta, c):
        return _setting(meta, "matching attribute", [_name(c[0])])

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

    def perform_rolled(self, meta, c):
        count, _, sides = str(c[0]).partition("D")
        return n.PerformRolled(_loc(meta), n.Dice(_tloc(c[0]), _int(count), _int(sides) if sides else 6))

    def normal_move(self, meta, c):
        return n.NormalMove(_loc(meta))

    def move_lines(self, meta, c):
        return n.MoveLines(_loc(meta), c[0], _int(c[2]), c[1])

    def move_way(self, meta, c):
        return str(c[0])

    def reduce_directly(self, meta, c):
        return n.ReduceDirectly(_loc(meta), _name(c[0]), c[1], c[2])

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

    def increase_damage(self, meta, c):
        return n.ReduceDamage(_loc(meta), c[0], c[1], increased=True)

    def damage_dealt_by(self, meta, c):
        return n.DamageDealtBy(_loc(meta), c[3], c[5] == "increased", c[7])

    def grant_status(self, meta, c):
        return n.GrantStatus(_loc(meta), c[0], c[1], _name(c[2]))

    def refuse_changes(self, meta, c):
        return n.RefuseChanges(_loc(meta), c[0], _int(c[1]))

    def place(self, meta, c):
        return n.Place(_loc(meta), _string(c[0]), _name(c[1]))

    def remove_changes(self, meta, c):
        return n.RemoveChanges(_loc(meta), None if c[0] == "all" else c[0], c[-1])

    def holder(self, meta, c):
        return n.Holder(_loc(meta))

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

    def for_own_turns(self, meta, c):
        return n.Duration(_loc(meta), f"{_int(c[0])} of its own turns")

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
        count = _int(c[0]) if len(c) > 1 else 1
        return n.Target(_loc(meta), count, False, c[-1])

    def target_up_to(self, meta, c):
        return n.Target(_loc(meta), _int(c[0]), True, c[1])

    def another_target(self, meta, c):
        return n.Target(_loc(meta), 1, False, c[0], another=True)

    def event_player(self, meta, c):
        return n.EventObject(_loc(meta), n.Name(_loc(meta), "player"))

    def target_player(self, meta, c):
        return n.TargetPlayer(_loc(meta))

    def each(self, meta, c):
        return n.Each(_loc(meta), c[0])

    def the_one(self, meta, c):
        return n.Each(_loc(meta), c[0], "the")

    def extreme(self, meta, c):
        return n.Extreme(_loc(meta), c[0], c[1])

    def random_one(self, meta, c):
        return n.RandomOne(_loc(meta), c[0])

    def player_ref(self, meta, c):
        return n.PlayerRef(_loc(meta), c[0])

    def filter(self, meta, c):
        # [possessive] ['other'] NAME+ [control] [zone] with*: the last NAME is the kind, those before
        # it attribute values; words before the names are the prefix, a word after them the control.
        names = [x for x in c if _is_token(x)]
        first = c.index(names[0])
        before, after = c[:first], c[first + len(names):]
        possessive = next((x for x in before if x != "other"), None)
        control = next((x for x in after if isinstance(x, str)), None)
        zone = next((x for x in after if isinstance(x, n.ZoneRef)), None)
        places = next((x for x in after if isinstance(x, n.Places)), None)
        withs = tuple(x for x in after if not isinstance(x, (str, n.ZoneRef, n.Places)))
        return n.Filter(_loc(meta), _name(names[-1]), control, zone, withs, possessive, "other" in before,
                        tuple(_name(t) for t in names[:-1]), places)

    def places_each(self, meta, c):
        return n.Places(_loc(meta), True, tuple(c))

    def places_total(self, meta, c):
        return n.Places(_loc(meta), False, tuple(c))

    def choice_place(self, meta, c):
        end = c[0] if len(c) == 3 else ""
        return n.ChoicePlace(_loc(meta), end, c[-2], _name(c[-1]))

    def zone(self, meta, c):
        return n.ZoneRef(_loc(meta), c[0], _name(c[1]))

    def with_clause(self, meta, c):
        return c[0]

    def with_attribute(self, meta, c):
        return n.WithAttribute(_loc(meta), _name(c[0]), _name(c[1]))
