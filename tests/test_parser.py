"""Unit tests of compiler.parser.parse: card text -> the AST of compiler/nodes.py.

Expected trees are built with location NOWHERE: locations never take part in equality, and the
location tests check them separately. The vocabulary tests drive the grammar from the tables of
runtime/vocabulary.py, so the two are checked against each other.
"""

from __future__ import annotations

import pytest

from compiler import nodes as n
from compiler.diagnostics import CompileError
from compiler.parser import _lark, parse
from runtime import vocabulary as v

L = n.NOWHERE


def N(value: str) -> n.Name:
    return n.Name(L, value)


def num(value: int) -> n.Number:
    return n.Number(L, value)


def filt(kind: str, control: str | None = None, zone: n.ZoneRef | None = None, withs=()) -> n.Filter:
    return n.Filter(L, N(kind), control, zone, tuple(withs))


YOU = n.PlayerRef(L, "you")


def card_of(text: str) -> n.Card:
    f = parse(text, "t.card")
    assert len(f.items) == 1
    card = f.items[0]
    assert isinstance(card, n.Card)
    return card


def body_of(sentences: str) -> tuple[n.Sentence, ...]:
    """Return the body of a spell effect made of the given sentences."""
    card = card_of(f'card "T" {{\n    kind spell\n    effect: {sentences}\n}}\n')
    [ability] = card.abilities
    assert isinstance(ability, n.SpellEffect)
    return ability.body


def effects_of(sentence: str) -> tuple[n.Effect, ...]:
    [s] = body_of(sentence)
    assert s.mode == "do" and s.condition is None
    return s.effects


def effect_of(sentence: str) -> n.Effect:
    [e] = effects_of(sentence)
    return e


def expr_of(text: str) -> n.Expr:
    e = effect_of(f"deal ({text}) damage to this.")
    assert isinstance(e, n.DealDamage)
    return e.amount


def cond_of(text: str) -> n.Cond:
    [s] = body_of(f"if {text}, draw 1 card.")
    assert s.condition is not None
    return s.condition


def obj_of(text: str) -> n.Object:
    e = effect_of(f"destroy {text}.")
    assert isinstance(e, n.Destroy)
    return e.target


def ability_of(text: str) -> n.Ability:
    [a] = card_of(f'card "T" {{ {text} }}').abilities
    return a


# ---------------------------------------------------------------- files and cards


def test_empty_file_and_comment_only_file_have_no_items():
    assert parse("") == n.File(L, "x", ())
    f = parse("# nothing here\n   # still nothing\n", "cards/x/a.card")
    assert f.items == () and f.path == "cards/x/a.card" and f.loc == n.Loc(1, 1)


def test_card_with_every_part():
    card = card_of(
        'card "Cinder Hound" {\n'
        "    kind creature\n"
        "    cost 2 mana, 1 gold\n"
        "    stats power 3, speed -1, luck +2\n"
        "    attributes color red, tribe hound\n"
        "    keywords Frenzy, Armor(1), Splash(2, 3)\n"
        '    text "Frenzy. Armor 1."\n'
        "    token\n"
        "}\n")
    assert card == n.Card(L, "Cinder Hound", (
        n.KindDecl(L, N("creature")),
        n.CostDecl(L, (n.CostItem(L, 2, N("mana")), n.CostItem(L, 1, N("gold")))),
        n.StatsDecl(L, (n.StatItem(L, N("power"), 3), n.StatItem(L, N("speed"), -1),
                        n.StatItem(L, N("luck"), 2))),
        n.AttrsDecl(L, (n.AttrItem(L, N("color"), N("red")), n.AttrItem(L, N("tribe"), N("hound")))),
        n.KeywordsDecl(L, (n.KeywordUse(L, N("Frenzy"), ()), n.KeywordUse(L, N("Armor"), (1,)),
                           n.KeywordUse(L, N("Splash"), (2, 3)))),
        n.TextDecl(L, "Frenzy. Armor 1."),
        n.TokenDecl(L),
    ), ())


def test_card_parts_keep_their_order_and_abilities_are_separated():
    card = card_of('card "A" { text "t" when this attacks: draw 1 card. kind creature '
                   "static: this has Frenzy. cost 1 mana }")
    assert [type(p) for p in card.parts] == [n.TextDecl, n.KindDecl, n.CostDecl]
    assert [type(a) for a in card.abilities] == [n.Triggered, n.Static]


def test_several_items_in_one_file_keep_their_order():
    f = parse('status Burn { } card "B" { kind spell } keyword Frenzy { } card "A" { kind spell }')
    assert [type(i) for i in f.items] == [n.StatusDef, n.Card, n.KeywordDef, n.Card]
    assert [i.name for i in f.items if isinstance(i, n.Card)] == ["B", "A"]


def test_names_may_hold_digits_underscores_apostrophes_and_hyphens():
    card = card_of("card \"X\" { kind keep-spell keywords Don't_Stop-2 }")
    assert card.parts == (n.KindDecl(L, N("keep-spell")),
                          n.KeywordsDecl(L, (n.KeywordUse(L, N("Don't_Stop-2"), ()),)))


def test_keyword_definition_with_parameters_text_and_abilities():
    f = parse('keyword Armor(n, m) {\n    text "Damage to this is reduced by n."\n'
              "    static: damage to this is reduced by n.\n"
              "    when this attacks: this gets +m power until end of turn.\n}\n")
    [kw] = f.items
    assert kw == n.KeywordDef(L, N("Armor"), (N("n"), N("m")), "Damage to this is reduced by n.", (
        n.Static(L, (n.Sentence(L, "do", None, (n.ReduceDamage(L, n.This(L), n.Param(L, N("n"))),)),)),
        n.Triggered(L, n.Subject(L, "this", "this", None), "attacks", None, (
            n.Sentence(L, "do", None, (
                n.Modify(L, n.This(L), "+", n.Param(L, N("m")), N("power"), n.Duration(L, "end of turn")),)),)),
    ))


def test_keyword_definition_without_parameters_or_text():
    [kw] = parse("keyword Frenzy { }").items
    assert kw == n.KeywordDef(L, N("Frenzy"), (), None, ())


def test_status_definition_settings():
    [st] = parse('status Burn {\n    stacking stacks\n    consumed on trigger\n    lasts 2 turns\n'
                 '    text "Hot."\n    at the start of your turn: deal 1 damage to this.\n}\n').items
    assert isinstance(st, n.StatusDef)
    assert st.name == N("Burn") and st.text == "Hot."
    assert st.settings == (("stacking", "stacks"), ("consumed", "on trigger"), ("lasts", "2 turns"))
    assert st.abilities == (n.Timed(L, "your", None, None, (
        n.Sentence(L, "do", None, (n.DealDamage(L, num(1), n.This(L)),)),)),)


@pytest.mark.parametrize("line, setting", [
    ("lasts permanently", ("lasts", "permanently")),
    ("lasts until end of turn", ("lasts", "until end of turn")),
    ("lasts 3 turns", ("lasts", "3 turns")),
    ("consumed never", ("consumed", "never")),
    ("stacking refresh", ("stacking", "refresh")),
])
def test_status_setting_words(line, setting):
    [st] = parse(f"status S {{ {line} }}").items
    assert st.settings == (setting,)


SMALL_RULESET = """\
ruleset mini {
    title "Mini Duel"
    players 2
    first player fixed
    deck 20 cards, at most 3 copies
    opening hand 4
    kinds creature, spell
    stats power, speed
    resource life starts at 10
    zone deck hidden ordered
    zone field public ordered
    kind creature: summoned, enters the field
    kind spell: resolves
    option tiebreak = draw
    turn {
        phase draw {
            you draw 1 card.
        }
        phase main {
            step summon {
                play staged creature, spell in order left to right.
            }
            step empty {
            }
        }
        phase battle {
            each creature you control attacks in order speed descending, turn player first.
        }
        phase end {
        }
        at turn end {
            you lose all life.
        }
    }
    battle {
        blocker: the rightmost creature the defending player controls.
        blocked {
            deal (power of the attacker) damage to the blocker.
        }
        unblocked {
            deal 1 damage to the defending player.
        }
    }
    trigger order: speed descending, kind creature > spell, turn player first, left to right.
    checks {
        destroy each creature with damage >= power.
    }
    a player loses when their life <= 0.
}
"""


def test_small_ruleset():
    [rs] = parse(SMALL_RULESET, "cards/mini/ruleset.card").items
    assert isinstance(rs, n.Ruleset) and rs.name == N("mini")
    creature_you_control = filt("creature", "you control")
    expected = (
        n.Setting(L, "title", ("Mini Duel",)),
        n.Setting(L, "players", (2,)),
        n.Setting(L, "first player", ("fixed",)),
        n.Setting(L, "deck", (20, 3)),
        n.Setting(L, "opening hand", (4,)),
        n.Setting(L, "kinds", (N("creature"), N("spell"))),
        n.Setting(L, "stats", (N("power"), N("speed"))),
        n.Setting(L, "resource", (N("life"), 10)),
        n.ZoneDecl(L, N("deck"), ("hidden", "ordered")),
        n.ZoneDecl(L, N("field"), ("public", "ordered")),
        n.KindRule(L, N("creature"), ("summoned", "enters the field")),
        n.KindRule(L, N("spell"), ("resolves",)),
        n.Setting(L, "option", (N("tiebreak"), N("draw"))),
        n.Turn(L, (
            n.Phase(L, N("draw"), (), (n.Sentence(L, "do", None, (n.Draw(L, YOU, num(1)),)),)),
            n.Phase(L, N("main"), (
                n.Step(L, N("summon"), (n.Sentence(L, "do", None, (
                    n.PlayStaged(L, (N("creature"), N("spell")), (n.OrderKey(L, "position", ()),)),)),)),
                n.Step(L, N("empty"), ()),
            ), ()),
            n.Phase(L, N("battle"), (), (n.Sentence(L, "do", None, (
                n.AttackAll(L, creature_you_control, (n.OrderKey(L, "stat", (N("speed"),)),
                                                      n.OrderKey(L, "turn_player", ()))),)),)),
            n.Phase(L, N("end"), (), ()),
        ), (n.Sentence(L, "do", None, (n.Lose(L, YOU, None, N("life")),)),)),
        n.Battle(L, n.Extreme(L, "rightmost", filt("creature", "the defending player controls")),
                 (n.Sentence(L, "do", None, (
                     n.DealDamage(L, n.StatOf(L, N("power"), n.Attacker(L)), n.Blocker(L)),)),),
                 (n.Sentence(L, "do", None, (
                     n.DealDamage(L, num(1), n.PlayerRef(L, "the defending player")),)),)),
        n.TriggerOrder(L, (n.OrderKey(L, "stat", (N("speed"),)),
                           n.OrderKey(L, "kind", (N("creature"), N("spell"))),
                           n.OrderKey(L, "turn_player", ()), n.OrderKey(L, "position", ()))),
        n.Checks(L, (n.Sentence(L, "do", None, (n.Destroy(L, n.Each(L, filt("creature", withs=[
            n.Compare(L, n.Param(L, N("damage")), ">=", n.Param(L, N("power")))]))),)),)),
        n.LoseRule(L, n.Compare(L, n.StatOwn(L, "their", N("life")), "<=", num(0))),
    )
    assert rs.rules == expected


def test_ruleset_phase_with_empty_body_and_deck_without_copy_limit():
    [rs] = parse("ruleset r { deck 30 cards turn { phase only { } } }").items
    assert rs.rules == (n.Setting(L, "deck", (30,)), n.Turn(L, (n.Phase(L, N("only"), (), ()),), ()))


# ---------------------------------------------------------------- abilities and sentences


def test_triggered_ability_with_filter_subject_and_condition():
    a = ability_of("when a creature you control is destroyed if turn number > 2: draw 1 card.")
    assert a == n.Triggered(L, n.Subject(L, "filter", "a", filt("creature", "you control")), "is destroyed",
                            n.Compare(L, n.TurnNumber(L), ">", num(2)),
                            (n.Sentence(L, "do", None, (n.Draw(L, None, num(1)),)),))


def test_trigger_subject_words():
    assert ability_of("when any card is played: draw 1 card.").subject == n.Subject(L, "filter", "any", filt("card"))
    assert ability_of("when an opponent draws a card: draw 1 card.").subject == \
        n.Subject(L, "player", "an opponent", None)
    assert ability_of("when an opponent takes damage: draw 1 card.").event == "takes damage"


@pytest.mark.parametrize("text, whose, phase", [
    ("at the start of your turn: draw 1 card.", "your", None),
    ("at the start of each draw phase: draw 1 card.", "each", N("draw")),
    ("at the start of the opponent's end phase: draw 1 card.", "the opponent's", N("end")),
])
def test_timed_abilities(text, whose, phase):
    a = ability_of(text)
    assert a == n.Timed(L, whose, phase, None, (n.Sentence(L, "do", None, (n.Draw(L, None, num(1)),)),))


def test_timed_ability_with_condition():
    a = ability_of("at the start of your turn if turn number > 2: draw 1 card.")
    assert isinstance(a, n.Timed) and a.condition == n.Compare(L, n.TurnNumber(L), ">", num(2))


def test_static_and_spell_effect_abilities():
    assert ability_of("static: creatures you control get +1 power.") == n.Static(L, (n.Sentence(L, "do", None, (
        n.Modify(L, n.Each(L, filt("creatures", "you control")), "+", num(1), N("power"), None),)),))
    assert ability_of("effect: draw 1 card.") == n.SpellEffect(L, (n.Sentence(L, "do", None, (
        n.Draw(L, None, num(1)),)),))


def test_sentence_modes():
    body = body_of("you may pay 1 mana. if you do, draw 1 card. if you don't, you lose 1 life. "
                   "as a cost, discard 1 card at random. if turn number > 1, draw 2 cards and gain 1 life.")
    assert body == (
        n.Sentence(L, "may", None, (n.Pay(L, num(1), N("mana")),)),
        n.Sentence(L, "if_you_do", None, (n.Draw(L, None, num(1)),)),
        n.Sentence(L, "if_you_dont", None, (n.Lose(L, YOU, num(1), N("life")),)),
        n.Sentence(L, "must_pay", None, (n.Discard(L, None, num(1)),)),
        n.Sentence(L, "do", n.Compare(L, n.TurnNumber(L), ">", num(1)),
                   (n.Draw(L, None, num(2)), n.Gain(L, None, num(1), N("life")))),
    )


# ---------------------------------------------------------------- effects

TARGET_CREATURE = n.Target(L, 1, False, filt("creature"))


@pytest.mark.parametrize("sentence, expected", [
    ("deal 2 damage to target creature.", n.DealDamage(L, num(2), TARGET_CREATURE)),
    ("destroy it.", n.Destroy(L, n.It(L))),
    ("draw 2 cards.", n.Draw(L, None, num(2))),
    ("target player draws 1 card.", n.Draw(L, n.TargetPlayer(L), num(1))),
    ("the turn player gains 3 life.", n.Gain(L, n.PlayerRef(L, "the turn player"), num(3), N("life"))),
    ("each player loses 2 life.", n.Lose(L, n.PlayerRef(L, "each player"), num(2), N("life"))),
    ("lose all mana.", n.Lose(L, None, None, N("mana"))),
    ("pay 2 mana.", n.Pay(L, num(2), N("mana"))),
    ("give it Frenzy until your next turn.", n.Give(L, n.It(L), N("Frenzy"), n.Duration(L, "your next turn"))),
    ("give this Frenzy.", n.Give(L, n.This(L), N("Frenzy"), None)),
    ("put x Burn on the leftmost creature an opponent controls until end of turn.",
     n.PutStatus(L, n.Param(L, N("x")), N("Burn"), n.Extreme(L, "leftmost", filt("creature", "an opponent controls")),
                 n.Duration(L, "end of turn"))),
    ("remove 2 Burn from target creature.", n.Remove(L, num(2), N("Burn"), TARGET_CREATURE)),
    ("remove all Burn from it.", n.Remove(L, None, N("Burn"), n.It(L))),
    ("remove Burn from this.", n.Remove(L, None, N("Burn"), n.This(L))),
    ("remove damage from each creature.", n.RemoveDamage(L, n.Each(L, filt("creature")))),
    ("return it to its owner's hand.", n.ReturnToHand(L, n.It(L))),
    ("move it to the right end.", n.MoveToEnd(L, n.It(L), "right")),
    ('you create 2 "Goblin" tokens.', n.CreateToken(L, YOU, num(2), "Goblin")),
    ('create 1 "Goblin" token.', n.CreateToken(L, None, num(1), "Goblin")),
    ("the opponent discards 1 card at random.", n.Discard(L, n.PlayerRef(L, "the opponent"), num(1))),
    ("up to 2 target creatures get -1 speed.",
     n.Modify(L, n.Target(L, 2, True, filt("creatures")), "-", num(1), N("speed"), None)),
    ("a random creature can't be targeted.", n.Restrict(L, n.RandomOne(L, filt("creature")), "be targeted", None)),
    ("this cannot attack.", n.Restrict(L, n.This(L), "attack", None)),
    ("it can't block until end of turn.", n.Restrict(L, n.It(L), "block", n.Duration(L, "end of turn"))),
    ("deal 1 damage to that player.", n.DealDamage(L, n.Number(L, 1), n.EventObject(L, n.Name(L, "player")))),
    ("this has Frenzy.", n.Grant(L, n.This(L), N("Frenzy"))),
    ("creatures have Frenzy.", n.Grant(L, n.Each(L, filt("creatures")), N("Frenzy"))),
    ("damage to this is reduced by 1.", n.ReduceDamage(L, n.This(L), num(1))),
    ("stage cards from your hand.", n.Stage(L)),
])
def test_effects(sentence, expected):
    assert effect_of(sentence) == expected


def test_effects_joined_by_and_keep_their_order():
    assert effects_of("destroy that creature and deal 1 damage to that player and draw 1 card.") == (
        n.Destroy(L, n.EventObject(L, N("creature"))),
        n.DealDamage(L, num(1), n.EventObject(L, N("player"))),
        n.Draw(L, None, num(1)),
    )


# ---------------------------------------------------------------- objects and filters


@pytest.mark.parametrize("text, expected", [
    ("this", n.This(L)),
    ("it", n.It(L)),
    ("that creature", n.EventObject(L, N("creature"))),
    ("the attacker", n.Attacker(L)),
    ("the blocker", n.Blocker(L)),
    ("target creature", TARGET_CREATURE),
    ("2 target creatures", n.Target(L, 2, False, filt("creatures"))),
    ("up to 3 target cards", n.Target(L, 3, True, filt("cards"))),
    ("each creature", n.Each(L, filt("creature"))),
    ("all creatures", n.Each(L, filt("creatures"))),
    ("creatures", n.Each(L, filt("creatures"))),
    ("the leftmost creature", n.Extreme(L, "leftmost", filt("creature"))),
    ("a random creature", n.RandomOne(L, filt("creature"))),
    ("target player", n.TargetPlayer(L)),
    ("the opponent", n.PlayerRef(L, "the opponent")),
])
def test_objects(text, expected):
    assert obj_of(text) == expected


def test_filter_with_control_zone_and_with_clauses():
    assert obj_of("each creature an opponent controls in their graveyard with no Frenzy with Burn "
                  "with power 2 or more with speed > 1") == n.Each(L, filt(
                      "creature", "an opponent controls", n.ZoneRef(L, "their", N("graveyard")), [
                          n.Lacks(L, N("Frenzy")), n.HasSelf(L, N("Burn")),
                          n.StatBound(L, N("power"), 2, "more"),
                          n.Compare(L, n.Param(L, N("speed")), ">", num(1))]))


# ---------------------------------------------------------------- expressions and conditions


@pytest.mark.parametrize("text, expected", [
    ("7", num(7)),
    ("x", n.Param(L, N("x"))),
    ("1 + 2 * 3", n.BinOp(L, "+", num(1), n.BinOp(L, "*", num(2), num(3)))),
    ("(1 + 2) * 3", n.BinOp(L, "*", n.BinOp(L, "+", num(1), num(2)), num(3))),
    ("10 - 3 - 2", n.BinOp(L, "-", n.BinOp(L, "-", num(10), num(3)), num(2))),
    ("- 1 - -2", n.BinOp(L, "-", n.Neg(L, num(1)), n.Neg(L, num(2)))),
    ("(power of this) / 2 rounded down", n.Div(L, n.StatOf(L, N("power"), n.This(L)), num(2), "down")),
    ("half of 5 rounded up", n.Half(L, num(5), "up")),
    ("min(1, max(2, 3))", n.Call(L, "min", (num(1), n.Call(L, "max", (num(2), num(3)))))),
    ("power of it", n.StatOf(L, N("power"), n.It(L))),
    ("life of you", n.StatOf(L, N("life"), YOU)),
    ("its owner's power", n.StatOwn(L, "its owner's", N("power"))),
    ("your life", n.StatOwn(L, "your", N("life"))),
    ("number of creature you control in your field",
     n.Count(L, filt("creature", "you control", n.ZoneRef(L, "your", N("field"))))),
    ("stacks of Burn on it", n.Stacks(L, N("Burn"), n.It(L))),
    ("the amount", n.EventAmount(L)),
    ("turn number", n.TurnNumber(L)),
    ("the opponent's turn number", n.OwnTurnNumber(L, "the opponent's")),
])
def test_expressions(text, expected):
    assert expr_of(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("turn number >= 3", n.Compare(L, n.TurnNumber(L), ">=", num(3))),
    ("(power of it) is 3 or more", n.AtBound(L, n.StatOf(L, N("power"), n.It(L)), num(3), "more")),
    ("this has Frenzy", n.Has(L, n.This(L), N("Frenzy"))),
    ("you control a creature", n.Controls(L, YOU, "a", filt("creature"))),
    ("the opponent controls no creature in your hand",
     n.Controls(L, n.PlayerRef(L, "the opponent"), "no", filt("creature", None, n.ZoneRef(L, "your", N("hand"))))),
    ("not this has Frenzy and turn number > 1 or turn number == 1",
     n.AnyOf(L, n.AllOf(L, n.Negation(L, n.Has(L, n.This(L), N("Frenzy"))),
                        n.Compare(L, n.TurnNumber(L), ">", num(1))),
             n.Compare(L, n.TurnNumber(L), "==", num(1)))),
    ("turn number == 1 or (turn number != 2 and turn number < 9)",
     n.AnyOf(L, n.Compare(L, n.TurnNumber(L), "==", num(1)),
             n.AllOf(L, n.Compare(L, n.TurnNumber(L), "!=", num(2)),
                     n.Compare(L, n.TurnNumber(L), "<", num(9))))),
])
def test_conditions(text, expected):
    assert cond_of(text) == expected


# ---------------------------------------------------------------- locations

LOCATED = """\
# a comment on line 1
card "Cinder Hound" {
    kind creature
    stats power 3, speed 4
    when this is summoned: deal 1 damage to target creature an opponent controls.
}
keyword Armor(n) {
\tstatic: damage to this is reduced by n.
}
"""


def test_locations_of_nodes():
    f = parse(LOCATED, "cards/x/a.card")
    card, kw = f.items
    assert f.loc == n.Loc(1, 1)
    assert card.loc == n.Loc(2, 1)
    kind, stats = card.parts
    assert kind.loc == n.Loc(3, 5) and kind.kind.loc == n.Loc(3, 10)
    assert stats.loc == n.Loc(4, 5)
    assert [i.loc for i in stats.items] == [n.Loc(4, 11), n.Loc(4, 20)]
    assert [i.stat.loc for i in stats.items] == [n.Loc(4, 11), n.Loc(4, 20)]
    [trig] = card.abilities
    assert trig.loc == n.Loc(5, 5)
    assert trig.subject.loc == n.Loc(5, 10)
    [sentence] = trig.body
    assert sentence.loc == n.Loc(5, 28)
    [deal] = sentence.effects
    assert deal.loc == n.Loc(5, 28)
    assert deal.amount.loc == n.Loc(5, 33)
    assert deal.target.loc == n.Loc(5, 45)
    assert deal.target.filter.loc == n.Loc(5, 52)
    assert deal.target.filter.kind.loc == n.Loc(5, 52)
    # a tab counts as one column
    assert kw.loc == n.Loc(7, 1) and kw.name.loc == n.Loc(7, 9) and kw.params[0].loc == n.Loc(7, 15)
    [static] = kw.abilities
    assert static.loc == n.Loc(8, 2)
    [reduce] = static.body[0].effects
    assert reduce.loc == n.Loc(8, 10) and reduce.target.loc == n.Loc(8, 20)
    assert reduce.amount.loc == n.Loc(8, 39) and reduce.amount.name.loc == n.Loc(8, 39)


def test_columns_count_characters_not_bytes():
    text = 'card "Ωmega 名前" { kind creature }'
    [card] = parse(text).items
    assert card.parts[0].loc == n.Loc(1, text.index("kind") + 1)
    assert card.parts[0].kind.loc == n.Loc(1, text.index("creature") + 1)


def test_locations_after_a_multi_line_comment_block_and_crlf_line_ends():
    text = "# one\r\n# two\r\n\r\ncard \"A\" {\r\n  kind creature\r\n}\r\n"
    [card] = parse(text).items
    assert card.loc == n.Loc(4, 1) and card.parts[0].loc == n.Loc(5, 3)


def test_equality_ignores_locations_and_path():
    compact = 'card "A" { kind creature stats power 1 when this attacks: draw 1 card. }'
    spread = ('# header\n\ncard   "A"\n{\n\tkind   creature\n  stats\n power  1\n'
              '  when this attacks :\n     draw 1\n card .\n}\n')
    a, b = parse(compact, "a.card"), parse(spread, "b.card")
    assert a == b and hash(a) == hash(b)
    assert a.items[0].loc != b.items[0].loc
    assert repr(a.items[0]) == repr(b.items[0])
    assert "Loc" not in repr(a.items[0])
    assert parse(compact.replace("power 1", "power 2")) != a
    assert n.Name(n.Loc(1, 1), "x") == n.Name(n.Loc(9, 9), "x")
    assert n.Name(n.Loc(1, 1), "x") != n.Name(n.Loc(1, 1), "y")


def test_nodes_are_frozen():
    name = n.Name(L, "x")
    with pytest.raises(AttributeError):
        name.value = "y"  # type: ignore[misc]


# ---------------------------------------------------------------- strings and comments


@pytest.mark.parametrize("literal, value", [
    (r'"plain"', "plain"),
    (r'""', ""),
    (r'"say \"hi\""', 'say "hi"'),
    (r'"back\\slash"', "back\\slash"),
    (r'"ends with \\"', "ends with \\"),
    (r'"\\\""', '\\"'),
    (r'"\\n is not a newline"', "\\n is not a newline"),
    (r'"line\nbreak"', "line\nbreak"),
    (r'"tab\there"', "tab\there"),
    (r'"other \q escape"', "other q escape"),
    ('"# not a comment"', "# not a comment"),
    ('"unicode Ωmega 名前 \u2028 \u202e"', "unicode Ωmega 名前 \u2028 \u202e"),
])
def test_string_escapes(literal, value):
    card = card_of(f"card {literal} {{ text {literal} }}")
    assert card.name == value
    assert card.parts == (n.TextDecl(L, value),)


def test_a_string_cannot_span_lines():
    with pytest.raises(CompileError) as info:
        parse('card "two\nlines" { }')
    assert [d.code for d in info.value.diagnostics] == ["E002"]


def test_comments_are_ignored_everywhere():
    with_comments = ("# leading\ncard \"A\" { # after brace\n  kind creature#no space\n"
                     "  # own line with \"quotes\" and { braces }\n"
                     "  when this attacks: # inside an ability\n    draw 1 card. # after a sentence\n}\n"
                     "# trailing comment without newline")
    assert parse(with_comments) == parse('card "A" { kind creature when this attacks: draw 1 card. }')


def test_syntax_error_is_located_and_carries_the_path():
    with pytest.raises(CompileError) as info:
        parse('card "A" {\n    knd creature\n}\n', "cards/x/a.card")
    [d] = info.value.diagnostics
    assert (d.code, d.path, d.line, d.col) == ("E001", "cards/x/a.card", 2, 5)
    assert "did you mean 'kind'?" in d.message


# ---------------------------------------------------------------- grammar and vocabulary agree


def _grammar_phrases(rule: str) -> set[str]:
    """Return the phrases a `!rule` of the grammar accepts, as words joined by spaces."""
    parser = _lark()
    words = {t.name: t.pattern.value for t in parser.terminals} | {"NAME": "KIND"}
    return {" ".join(words[sym.name] for sym in r.expansion) for r in parser.rules if r.origin.name == rule}


@pytest.mark.parametrize("phrase", sorted(v.EVENT_PHRASES))
def test_every_event_phrase_parses_as_a_trigger(phrase):
    spec = v.EVENT_PHRASES[phrase]
    subject = "this" if spec.about == "card" else "you"
    [ability] = card_of(f'card "T" {{ when {subject} {phrase}: draw 1 card. }}').abilities
    assert isinstance(ability, n.Triggered)
    assert ability.event == phrase
    assert ability.subject == n.Subject(L, "this" if subject == "this" else "player", subject, None)


@pytest.mark.parametrize("phrase", sorted(p for p, s in v.EVENT_PHRASES.items() if s.about == "player"))
def test_player_event_phrases_also_parse_with_a_third_person_subject(phrase):
    [ability] = card_of(f'card "T" {{ when an opponent {phrase}: draw 1 card. }}').abilities
    assert ability.event == phrase and ability.subject == n.Subject(L, "player", "an opponent", None)


def test_grammar_event_words_are_exactly_the_vocabulary_event_phrases():
    assert _grammar_phrases("event_words") == set(v.EVENT_PHRASES)
    assert v.PLAYER_TAKES_DAMAGE in v.EVENT_PHRASES


def test_grammar_word_lists_are_exactly_the_vocabulary_tables():
    assert _grammar_phrases("player_word") == set(v.PLAYER_WORDS) == set(v.SUBJECT_PLAYERS)
    assert _grammar_phrases("control") == set(v.CONTROL_WORDS)
    assert _grammar_phrases("possessive") == set(v.POSSESSIVES)
    assert _grammar_phrases("whose") == set(v.WHOSE)
    assert _grammar_phrases("restriction") == set(v.RESTRICTIONS)
    assert _grammar_phrases("kind_trait") == set(v.KIND_TRAITS)


@pytest.mark.parametrize("word", sorted(v.PLAYER_WORDS))
def test_every_player_word_parses_as_an_object_and_a_trigger_subject(word):
    assert effect_of(f"deal 1 damage to {word}.") == n.DealDamage(L, num(1), n.PlayerRef(L, word))
    [ability] = card_of(f'card "T" {{ when {word} take damage: draw 1 card. }}').abilities
    assert ability.subject == n.Subject(L, "player", word, None)


@pytest.mark.parametrize("words", sorted(v.CONTROL_WORDS))
def test_every_control_phrase_parses_in_a_filter(words):
    assert obj_of(f"each creature {words}") == n.Each(L, filt("creature", words))


@pytest.mark.parametrize("words", sorted(v.POSSESSIVES))
def test_every_possessive_parses_in_a_zone(words):
    assert obj_of(f"each card in {words} hand") == n.Each(L, filt("card", None, n.ZoneRef(L, words, N("hand"))))


@pytest.mark.parametrize("words", sorted(v.WHOSE))
def test_every_whose_parses_in_a_timed_ability(words):
    assert ability_of(f"at the start of {words} turn: draw 1 card.").whose == words


@pytest.mark.parametrize("words", sorted(v.RESTRICTIONS))
def test_every_restriction_parses(words):
    assert effect_of(f"this can't {words}.") == n.Restrict(L, n.This(L), words, None)


@pytest.mark.parametrize("words", sorted(v.KIND_TRAITS))
def test_every_kind_trait_parses(words):
    [rs] = parse(f"ruleset r {{ kind creature: {words} }}").items
    assert rs.rules == (n.KindRule(L, N("creature"), (words,)),)


@pytest.mark.parametrize("words", sorted(v.DURATIONS))
def test_every_duration_parses(words):
    assert effect_of(f"this gets +1 power until {words}.") == \
        n.Modify(L, n.This(L), "+", num(1), N("power"), n.Duration(L, words))


@pytest.mark.parametrize("key, value", [(k, x) for k, values in sorted(v.STATUS_SETTINGS.items()) for x in values])
def test_every_status_setting_parses(key, value):
    [st] = parse(f"status S {{ {key} {value} }}").items
    assert st.settings == ((key, value),)


def test_every_effect_class_of_the_vocabulary_is_an_ast_node():
    for name in v.EFFECTS:
        assert issubclass(getattr(n, name), n.Node), name
