"""Issue 11 language holes: attribute values and 'other' in filters, 'another', 'is not blocked',
'its owner', and 'can't be targeted by the opponent's effects' (docs/language.md 2.1.5, 2.3.6, 2.5.8,
2.8.12, 2.8.13). Parsing to the AST, printing back, and the runtime tests of a filter; the scenarios
(tests/scenarios/*/LANG-*, simple_duel/cards/) show them in games, tests/errors/cases.txt the errors."""

from __future__ import annotations

from dataclasses import replace

import pytest

from compiler import nodes as n
from compiler.fmt import format_text
from compiler.parser import parse
from runtime import query as q
from runtime import turns
from runtime import vocabulary as v
from runtime.defs import Filter
from runtime.load import load_game
from runtime.state import Ctx
from tests.conftest import ROOT
from tests.test_parser import YOU, N, ability_of, cond_of, effect_of, filt, obj_of
from tools.scenario import read_scenario, run_scenario

L = n.NOWHERE


def test_values_before_the_kind_other_and_your_are_parts_of_the_filter():
    red = n.Filter(L, N("units"), None, None, (), "your", True, (N("red"),))
    assert effect_of("your other red units get +1000 bp.") == n.Modify(L, n.Each(L, red), "+", n.Number(L, 1000),
                                                                      N("bp"), None)
    two = n.Filter(L, N("dragon"), "you control", None, (), None, False, (N("big"), N("red")))
    assert obj_of("each big red dragon you control") == n.Each(L, two)


def test_with_an_attribute_and_a_value_is_a_condition_of_its_own():
    f = filt("unit", None, None, [n.WithAttribute(L, N("colour"), N("blue"))])
    assert obj_of("each unit with colour blue") == n.Each(L, f)
    # one name after 'with' is still a keyword or status the candidate has
    assert obj_of("each unit with Flying") == n.Each(L, filt("unit", None, None, [n.HasSelf(L, N("Flying"))]))


def test_another_target_another_subject_and_controls_another():
    assert obj_of("another target unit") == n.Target(L, 1, False, filt("unit"), another=True)
    assert obj_of("target other unit") == n.Target(L, 1, False, n.Filter(L, N("unit"), None, None, (), None, True))
    ability = ability_of("when another unit you control is destroyed: you draw 1 card.")
    assert isinstance(ability, n.Triggered)
    assert ability.subject == n.Subject(L, "filter", "another", filt("unit", "you control"))
    assert cond_of("you control another unit") == n.Controls(L, YOU, "another", filt("unit"))


def test_give_keeps_its_keyword_after_a_filter():
    give = effect_of("give target unit with Flying Silence until end of turn.")
    assert give == n.Give(L, n.Target(L, 1, False, filt("unit", None, None, [n.HasSelf(L, N("Flying"))])),
                          N("Silence"), n.Duration(L, "end of turn"))
    assert effect_of("give your other units Braced.") == n.Give(
        L, n.Each(L, n.Filter(L, N("units"), None, None, (), "your", True)), N("Braced"), None)


def test_not_blocked_its_owner_and_targeting_by_the_opponent_are_vocabulary():
    assert v.EVENT_PHRASES["is not blocked"] == v.EventSpec("unblocked", "card")
    assert v.PLAYER_WORDS["its owner"] == "event_owner"
    assert v.RESTRICTIONS["be targeted by the opponent's effects"] == "untargetable_by_opponent"
    ability = ability_of("when a creature is not blocked: its owner draws 1 card.")
    assert isinstance(ability, n.Triggered) and ability.event == "is not blocked"
    assert effect_of("this can't be targeted by the opponent's effects.") == n.Restrict(
        L, n.This(L), "be targeted by the opponent's effects", None)


@pytest.mark.parametrize("line", [
    "static: your other red units get +1000 bp.",
    "static: the opponent's blue units get -1000 bp.",
    "static: each other unit you control with colour blue gets +1000 bp.",
    "when another unit you control enters the field if you control another unit: draw 1 card.",
    "when this enters the field: deal 1 damage to target unit and deal 1 damage to another target unit.",
    "when a unit is not blocked: its controller loses 1 life and its owner draws 1 card.",
    "static: this can't be targeted by the opponent's effects.",
    "effect: give up to 2 target other units you control Braced.",
])
def test_fmt_prints_them_back_to_the_same_ast(line):
    text = f'card "T" {{\n    kind unit\n    {line}\n}}\n'
    assert parse(format_text(text, "t.card"), "t.card") == parse(text, "t.card")


# ---------------------------------------------------------------- the runtime side of a filter


@pytest.fixture(scope="module")
def joker_state():
    """A Code of Joker state with a red and a blue unit for P1 and a red unit for P2 on the field."""
    game = load_game("code_of_joker")
    s = game.empty_state(seed=1)
    cards = ((0, "Lang Ember Marshal"), (0, "Lang Red Recruit"), (0, "Lang Blue Recruit"), (1, "Lang Red Recruit"))
    return s, [game.add_card(s, name, p, "field") for p, name in cards]


def test_other_leaves_out_the_source_and_attrs_test_the_printed_attributes(joker_state):
    s, (marshal, red, blue, their_red) = joker_state
    ctx = Ctx(marshal, 0, ["card", "Lang Ember Marshal", 0])
    ab = s.game.cards["Lang Ember Marshal"].abilities[0]
    mine_red_others = Filter("unit", "you", other=True, attrs=(("colour", "red"),))
    assert q.select(s, ab, ctx, mine_red_others) == [red]
    assert [q.matches(s, ab, ctx, mine_red_others, c) for c in (marshal, red, blue, their_red)] == [
        False, True, False, False]
    assert q.select(s, ab, ctx, Filter("unit", None, attrs=(("colour", "red"),))) == [marshal, red, their_red]
    assert q.select(s, ab, ctx, Filter("card", "you", other=True)) == [red, blue]


def test_targetable_refuses_only_the_opponents_abilities(joker_state):
    s, (marshal, red, _, their_red) = joker_state
    s.own(their_red).flags["untargetable_by_opponent"] = None
    try:
        assert not q.targetable(s, Ctx(marshal, 0, ["card", "x", 0]), their_red)
        assert q.targetable(s, Ctx(their_red, 1, ["card", "x", 0]), their_red)
        assert q.targetable(s, Ctx(marshal, 0, ["card", "x", 0]), red)
    finally:
        del s.own(their_red).flags["untargetable_by_opponent"]


# ---------------------------------------------------------------- the scenarios can fail


SCENARIOS = ROOT / "tests" / "scenarios"
MINE = sorted(SCENARIOS.rglob("LANG-*.scenario")) + [
    SCENARIOS / "simple_duel" / "cards" / f"{name}.scenario"
    for name in ("tripwire_hex", "tripwire_hex_blocked", "open_gate_tithe", "ferrymans_lantern", "mistcloak_heron",
                 "veiled")]


def _failing() -> set[str]:
    return {p.stem for p in MINE if run_scenario(read_scenario(p)).failures}


def _plant_filter(monkeypatch, **changes) -> None:
    """Make every runtime filter forget a part ('other', 'attrs') when it is tested."""
    original = q._card_passes
    monkeypatch.setattr(q, "_card_passes", lambda s, ab, ctx, f, c: original(s, ab, ctx, replace(f, **changes), c))


def _plant_targetable(monkeypatch, refuses_own: bool) -> None:
    """Targeting: ignore 'by the opponent's effects', or apply it to the card's own controller too."""
    def planted(s, ctx, cid):
        opponent_only = q.has_flag(s, cid, "untargetable_by_opponent")
        return not q.has_flag(s, cid, "untargetable") and not (refuses_own and opponent_only)
    monkeypatch.setattr(q, "targetable", planted)


def _plant_players(monkeypatch) -> None:
    """Read 'its controller' and 'its owner' as the ability's controller."""
    original = q.players_of
    monkeypatch.setattr(q, "players_of", lambda s, ctx, who: original(
        s, ctx, "you" if who in ("event_controller", "event_owner") else who))


def _plant_not_distinct(monkeypatch) -> None:
    """Let 'another target' name what the first target named."""
    ability = type(load_game("code_of_joker").cards["Lang Twin Lancer"].abilities[0])
    monkeypatch.setattr(ability, "targets", tuple(replace(t, distinct=False) for t in ability.targets))


PLANTED = {
    "other ignored": (lambda mp: _plant_filter(mp, other=False),
                      {"LANG-other-attribute", "LANG-another-subject", "LANG-veiled-own", "LANG-veiled-opponent"}),
    "attributes ignored": (lambda mp: _plant_filter(mp, attrs=()), {"LANG-other-attribute", "LANG-another-subject"}),
    "opponent's effects may target": (lambda mp: _plant_targetable(mp, refuses_own=False),
                                      {"LANG-veiled-own", "LANG-veiled-opponent", "mistcloak_heron"}),
    "own effects may not target": (lambda mp: _plant_targetable(mp, refuses_own=True), {"LANG-veiled-own", "veiled"}),
    "no 'is not blocked' event": (lambda mp: mp.setattr(turns, "_not_blocked", lambda s: None),
                                  {"tripwire_hex", "open_gate_tithe"}),
    "its owner/controller read as you": (_plant_players, {"ferrymans_lantern", "open_gate_tithe"}),
    "another target not distinct": (_plant_not_distinct, {"LANG-another-target", "LANG-another-target-one"}),
}


def test_the_scenarios_pass():
    assert _failing() == set()


@pytest.mark.parametrize("bug", sorted(PLANTED))
def test_a_planted_bug_fails_the_scenarios_that_pin_it(monkeypatch, bug):
    plant, expected = PLANTED[bug]
    plant(monkeypatch)
    assert _failing() == expected
