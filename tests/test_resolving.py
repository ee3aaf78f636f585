"""Resolving step by step: choices while an ability resolves, Pattern B targets chosen when reached,
interrupts between sentences (docs/language.md 2.2.2). The scenarios in
tests/scenarios/code_of_joker/resolving/ pin the behaviour; these tests prove that each of them fails
under the other reading, and that a game waiting inside a resolution is plain data."""

from __future__ import annotations

import dataclasses

import pytest

from runtime import engine
from runtime.defs import TargetSpec
from runtime.engine import Game
from runtime.load import load_game
from runtime.state import State
from tests.conftest import ROOT
from tools.scenario import read_scenario, run_scenario

RESOLVING = ROOT / "tests" / "scenarios" / "code_of_joker" / "resolving"


@pytest.fixture(scope="module")
def coj() -> Game:
    return load_game("code_of_joker")


def _with_ruleset(game: Game, **settings) -> Game:
    """Return the same cards under a ruleset whose settings differ (a planted reading)."""
    planted = type("Planted", (type(game.ruleset),), settings)()
    return Game(planted, game.cards, game.keywords, game.statuses, game.options)


def _outcome(game: Game, name: str):
    return run_scenario(read_scenario(RESOLVING / f"{name}.scenario"), game)


def test_the_scenarios_pass(coj):
    for path in sorted(RESOLVING.glob("*.scenario")):
        outcome = run_scenario(read_scenario(path), coj)
        assert outcome.passed, (path.name, outcome.failures)


def test_interrupts_after_the_whole_effect_fail_the_r_coj_112_scenario(coj):
    """The other reading of R-COJ-112 (the interrupt waits for the whole effect) counts the Marshal."""
    outcome = _outcome(_with_ruleset(coj, interrupts="effect"), "R-COJ-112-between-sentences")
    assert "R-COJ-112-between-sentences.scenario:32: P1 life is 81, expected 80" in outcome.failures


def _eager_targets(game: Game) -> Game:
    """Return the game with every Pattern B target chosen before resolution (the old behaviour)."""
    cards = dict(game.cards)
    card = cards["Gravetide Revenant"]
    abilities = []
    for ab in card.abilities:
        eager = tuple(dataclasses.replace(t, step=-1, at_resolution=False) for t in ab.targets)
        abilities.append(type(type(ab).__name__, (type(ab),), {"targets": eager})())
    cards["Gravetide Revenant"] = type(card.__name__, (card,), {"abilities": tuple(abilities)})
    return Game(game.ruleset, cards, game.keywords, game.statuses, game.options)


@pytest.mark.parametrize("name, failure", [
    ("pattern-b-target-not-asked", "pattern-b-target-not-asked.scenario:21: scripted choice 'end' is not offered; "
                                   "the game offers: target Kiln Warden#12, target Fernweaver#13"),
    ("pattern-b-target-when-reached", "pattern-b-target-when-reached.scenario:25: log has 'T3 action: P1 targets "
                                      "Kiln Warden#12 (Gravetide Revenant#11)' only before 'T3 action: Fernweaver#10 "
                                      "is destroyed' (line 4 of the ordered block)"),
])
def test_pattern_b_targets_chosen_up_front_fail_the_scenarios(coj, name, failure):
    assert any(t.step >= 0 for ab in coj.cards["Gravetide Revenant"].abilities for t in ab.targets)
    assert failure in _outcome(_eager_targets(coj), name).failures


def test_a_game_waiting_for_a_choice_inside_a_resolution_round_trips(coj):
    """Mid-resolution, the state is data: JSON and snapshot copies answer the choice identically."""
    sc = read_scenario(RESOLVING / "choose-opponent-discards.scenario")
    outcome = None
    sections = dict(sc.sections, choices=sc.sections["choices"][:1], expect=[])
    sc = dataclasses.replace(sc, sections=sections, stop="at the next choice")
    outcome = run_scenario(sc, coj)
    s = outcome.state
    assert s.decision is not None and s.decision["kind"] == "choose" and s.decision["player"] == 1
    assert s.resolving and s.resolving[0].step == 1
    copies = [State.from_json(s.to_json(), coj), s.snapshot(), s]
    for copy in copies:
        engine.apply_action(copy, ("choose", s.decision["options"][-1]))
    assert copies[0].to_json() == copies[1].to_json() == copies[2].to_json()
    assert not copies[0].resolving


def test_a_choice_with_one_candidate_asks_nobody(coj):
    outcome = _outcome(coj, "choose-forced")
    assert outcome.passed, outcome.failures
    assert not any(line.endswith("chooses Wailing Wisp#10 (Timing Drillmaster#11)") for line in outcome.state.log)


def test_target_spec_default_is_chosen_before_resolution():
    spec = TargetSpec(1, False, None)  # type: ignore[arg-type]
    assert spec.step == -1 and spec.at_resolution is False
