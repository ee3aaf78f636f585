"""Differential oracle for automatic battles: the compiled Marguerite ruleset (generated/marguerite/) and
the reference interpreter's (compiler/interpret_battle.py, walking cards/marguerite/) play the same battles
and must log exactly the same lines and end in the same state.

(a) random battles between random legal parties (tools/battle/fuzz.py), under the default options and
under every other value of each option; (b) every battle scenario (tests/battles/marguerite/*.battle);
(c) edge-case swords, states and enchantments the pool lacks (sentences written out of order, riders with
parameters, several hooks, powers, sword-list effects), compiled with the real pipeline into a temporary
project. A battle is deterministic: the same parties and options give the same battle.
"""

from __future__ import annotations

import random
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from compiler.build import KEY_LINE, build, compile_ruleset
from compiler.interpret_battle import interpret_battle_rules
from compiler.symbols import collect
from runtime.battle.parties import SwordsmanSpec
from runtime.battle.procedure import new_battle, run
from runtime.battle.rules import Rules, load_rules
from runtime.battle.state import Battle, Fighter
from runtime.defs import RulesetDef
from tests.conftest import ROOT, generated_package
from tests.test_differential import first_difference, parse_folder
from tools.battle.fuzz import random_party
from tools.battle.play import budget_of
from tools.battle.scenario import parse_scenario, run_scenario

FOLDER = ROOT / "cards" / "marguerite"
BATTLES = 200  # under the default options
PER_OPTION = 15  # under each other value of each option
EDGE_BATTLES = 60
SCENARIOS = sorted((ROOT / "tests" / "battles" / "marguerite").rglob("*.battle"))
Parties = tuple[list[SwordsmanSpec], list[SwordsmanSpec]]

# What the pool does not write: a tight sentence after a loose one and an independent one between them,
# repeats, an enchantment with a parameter in its launch turn, condition, cost and rider, a state with
# hooks for two steps, 'the damage' inside a hook, powers, pools, ignored classes, sword-list effects.
EDGE_CARDS = '''
enchantment EdgeCharge(x) {
    text "Launches at turn x - 1, while the actor has x mp or more; costs x mp; a hit of x or more slows."
    stacking stacks
    launch turn (x - 1)
    executable if mp of the actor >= x or the actor has a bad state
    costs x mp
    after each hit if the damage >= x: put 1 Slow on the target.
}

status EdgeStagger {
    class bad  stacking stacks  consumed on trigger
    text "Skips the next action; loses 1 HP in each states phase."
    whenever this would act: skip the action.
    whenever the states phase runs: deal 1 damage to this and put 1 Quick on this.
}

status EdgeWard {
    class protection  stacking once  consumed never
    text "Attack damage on the holder is 1 lower."
    whenever this takes attack damage: set the damage to (the damage - 1).
}

card "Edge Chain Sword" {
    kind attack
    keywords Fast
    text "Hits twice; each hit wards the target, then heals the actor by the damage. The actor gains MP."
    effect, 2 times: hit the target for (atk of the actor - def of the target).
        and then, if the damage >= 1, the actor recovers (the damage) hp.
        separately, put 1 Quick on the actor and the actor recovers 1 mp.
        furthermore, put 1 EdgeWard on the target.
}

card "Edge Power Sword" {
    kind attack
    keywords Fast, EdgeCharge(1)
    text "Hits MP for 2 ^ turn number."
    effect: hit the target for (2 ^ turn number - def of the target) to its mp, ignoring states of class protection.
        and then, put 1 EdgeStagger on the target.
        furthermore, if the actor has a bad state, remove all bad states from the actor.
}

card "Edge Twist Sword" {
    kind control
    keywords Fast
    text "Gives an attack or support next sword Stun-Giving, then reverses the actor's list."
    effect: if the target is an attack sword or the target is a support sword, put 1 StunGiving on the target.
        separately, reverse the sword list of the actor.
}

card "Edge Swap Sword" {
    kind support
    keywords Fast, Limited
    subtarget the next sword
    text "Turns the actor's first unused sword into the next one and adds a copy of it."
    effect: change the first unused sword of the actor into the subtarget.
        and then, add a copy of the subtarget to the end of the sword list of the actor.
        separately, make each sword of the actor unused.
}

card "Edge Grab Sword" {
    kind attack
    keywords Fast
    text "Hits for half ATK; a hit of 1 or more takes the target's first unused sword."
    effect: hit the target for (half of (atk of the actor) rounded up).
        furthermore, if the damage >= 1, move the first unused sword of the target to the end of the sword list of the actor.
        separately, set the reserve_ap of the actor to (min(2, stacks of Quick on the actor)).
}
'''

# ---------------------------------------------------------------- helpers


def interpreted(root: Path, folder: Path) -> Rules:
    files = parse_folder(root, folder)
    return interpret_battle_rules(files, collect(files))


def stale_code() -> list[str]:
    """Return the files of generated/marguerite/ whose code differs from a fresh compile (keys aside)."""
    out = []
    for o in compile_ruleset(ROOT, FOLDER, use_keys=False):
        path = ROOT / o.path
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        if KEY_LINE.sub("", old) != KEY_LINE.sub("", o.text or ""):
            out.append(o.path)
    return out


def snapshot(s: Battle) -> tuple:
    """Return everything a finished battle holds besides its log: result, turn, swordsmen, swords."""
    def fighter(f: Fighter) -> tuple:
        swords = [(w.id, w.card, w.used, w.given) for w in f.swords]
        return f.id, f.name, f.side, f.values, f.states, f.overkill, swords

    return (s.result, s.turn, s.turn_zero, s.actions, s.hits,
            [[fighter(f) for f in party] for party in s.parties + s.exited])


def outcome(rules: Rules, parties: Parties, options: dict[str, str]) -> tuple[list[str], tuple | None, str]:
    """Play one battle; return its log, its snapshot and the error its definitions raised ('' if none)."""
    s = new_battle(rules, parties, options)
    try:  # compiled code that fails must fail the same way when interpreted
        run(s)
    except Exception as err:
        return s.log, None, f"{type(err).__name__}: {err}"
    return s.log, snapshot(s), ""


def assert_same_battle(compiled: Rules, interp: Rules, parties: Parties, options: dict[str, str],
                       what: str) -> None:
    log, state, error = outcome(compiled, parties, options)
    log2, state2, error2 = outcome(interp, parties, options)
    assert log2 == log, f"{what}: {first_difference(log, log2)}"
    assert error2 == error, what
    assert state2 == state, what


def random_parties(rules: Rules, seed: int) -> Parties:
    rng = random.Random(seed)
    budget = budget_of(rules)
    assert budget is not None
    return random_party(rules, rng, budget), random_party(rules, rng, budget)


def other_values(rules: Rules) -> list[tuple[str, str]]:
    """Return (option, value) for every value of every option besides its default."""
    rs = rules.ruleset
    return [(o, x) for o, values in sorted(rs.option_values.items()) for x in values if x != rs.options[o]]


# ---------------------------------------------------------------- the definitions


@pytest.fixture(scope="module")
def rules_pair() -> tuple[Rules, Rules]:
    """The compiled Marguerite rules (generated/) and the interpreted ones (cards/marguerite/)."""
    stale = stale_code()
    assert not stale, f"generated/marguerite was not compiled from these cards; run `cardc build` ({stale})"
    return load_rules("marguerite"), interpreted(ROOT, FOLDER)


CARD_DATA = ("name", "where", "kind", "stats", "keywords", "names", "swords", "text", "token", "subtarget",
             "repeat")
ENCHANTMENT_DATA = ("name", "where", "params", "stacking", "text", "shift", "vanishes", "whole", "cost_value")
STATUS_DATA = ("name", "where", "klass", "stacking", "consumed", "text")


def test_interpreted_definitions_mirror_compiled_ones(rules_pair):
    compiled, interp = rules_pair
    for table, data in (("cards", CARD_DATA), ("enchantments", ENCHANTMENT_DATA), ("statuses", STATUS_DATA)):
        theirs, mine = getattr(compiled, table), getattr(interp, table)
        assert list(mine) == list(theirs), table
        for name, d in theirs.items():
            assert [getattr(mine[name], k) for k in data] == [getattr(d, k) for k in data], name
    assert {k: sorted(st.hooks) for k, st in interp.statuses.items()} == {
        k: sorted(st.hooks) for k, st in compiled.statuses.items()}
    assert (interp.state_order, interp.sword_kinds, interp.spellings) == (
        compiled.state_order, compiled.sword_kinds, compiled.spellings)
    for key, default in vars(RulesetDef).items():
        if not key.startswith("_") and not callable(default) and key != "action_right":
            assert getattr(interp.ruleset, key) == getattr(compiled.ruleset, key), key
    assert len(interp.ruleset.action_right) == len(compiled.ruleset.action_right)


# ---------------------------------------------------------------- (a) random battles


def test_random_battles_log_the_same(rules_pair):
    compiled, interp = rules_pair
    for seed in range(BATTLES):
        assert_same_battle(compiled, interp, random_parties(compiled, seed), {}, f"seed {seed}")


def test_random_battles_under_each_option_log_the_same(rules_pair):
    compiled, interp = rules_pair
    pairs = other_values(compiled)
    assert len(pairs) >= 6
    for option, choice in pairs:
        for seed in range(PER_OPTION):
            parties = random_parties(compiled, 10_000 + seed)
            assert_same_battle(compiled, interp, parties, {option: choice}, f"{option}={choice}, seed {seed}")


# ---------------------------------------------------------------- (b) scenarios


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_logs_the_same(rules_pair, path):
    compiled, interp = rules_pair
    text, name = path.read_text(encoding="utf-8"), str(path.relative_to(ROOT))
    theirs, failed = run_scenario(compiled, parse_scenario(text, name, compiled))
    mine, failures = run_scenario(interp, parse_scenario(text, name, interp))
    assert not failures, "\n".join(failures + ["log:"] + mine.log)
    assert failed == failures
    assert mine.log == theirs.log, first_difference(theirs.log, mine.log)
    assert snapshot(mine) == snapshot(theirs)


# ---------------------------------------------------------------- (c) edge cases


def project_with(tmp_path_factory, name: str, text: str) -> Path:
    """Return a project of the Marguerite cards plus one more card file, built with the real pipeline."""
    root = tmp_path_factory.mktemp(f"battle_differential_{name}")
    shutil.copytree(FOLDER, root / "cards" / "marguerite")
    (root / "cards" / "marguerite" / f"{name}.card").write_text(text, encoding="utf-8")
    build(root)
    return root


@pytest.fixture(scope="module")
def edge_project(tmp_path_factory) -> Path:
    return project_with(tmp_path_factory, "edge_cases", EDGE_CARDS)


def with_edge_swords(parties: Parties, edge: list[str], seed: int) -> Parties:
    """Give every swordsman two edge swords, each at a seeded place in its list."""
    rng = random.Random(seed)

    def armed(spec: SwordsmanSpec) -> SwordsmanSpec:
        swords = list(spec.swords)
        for name in rng.sample(edge, 2):
            swords.insert(rng.randint(0, len(swords)), name)
        return replace(spec, swords=tuple(swords))

    return [armed(x) for x in parties[0]], [armed(x) for x in parties[1]]


def test_edge_case_swords_log_the_same(edge_project):
    interp = interpreted(edge_project, edge_project / "cards" / "marguerite")
    edge = sorted(name for name in interp.cards if name.startswith("Edge "))
    assert len(edge) == 5
    with generated_package(edge_project, "marguerite") as module:
        compiled = Rules(module.RULESET, module.CARDS, module.STATUSES, module.ENCHANTMENTS)
        for seed in range(EDGE_BATTLES):
            parties = with_edge_swords(random_parties(compiled, 20_000 + seed), edge, seed)
            assert_same_battle(compiled, interp, parties, {}, f"edge seed {seed}")


# ---------------------------------------------------------------- discrepancies found and fixed

# Programs whose compiled code once departed from the AST (two riders, or two hooks for one step,
# each lowered to a method of the same name, the last one replacing the others); kept as regressions.
DISCREPANCY_CARDS = '''
enchantment TwoRiders {
    text "After each hit: the actor gets Quick; the target gets Slow."
    after each hit: put 1 Quick on the actor.
    after each hit: put 1 Slow on the target.
}

status Twice {
    class other  stacking stacks  consumed never
    text "In each states phase: 1 damage, then a Quick."
    whenever the states phase runs: deal 1 damage to this.
    whenever the states phase runs: put 1 Quick on this.
}

card "Rider Sword" {
    kind attack
    keywords Fast, TwoRiders
    text "Hits for 1."
    effect: hit the target for 1.
}

card "Twice Sword" {
    kind support
    keywords Fast, Limited
    text "Gives the actor Twice."
    effect: put 1 Twice on the target.
}
'''
DISCREPANCIES = {
    "Rider Sword": "both riders of one enchantment run after each hit, in file order",
    "Twice Sword": "both hooks of one state for one step run, in file order",
}


@pytest.fixture(scope="module")
def discrepancy_project(tmp_path_factory) -> Path:
    return project_with(tmp_path_factory, "discrepancies", DISCREPANCY_CARDS)


@pytest.mark.parametrize("sword", sorted(DISCREPANCIES))
def test_former_discrepancies(discrepancy_project, sword):
    interp = interpreted(discrepancy_project, discrepancy_project / "cards" / "marguerite")
    parties = ([SwordsmanSpec("Ann", 20, 1, 0, 1, (sword, "Slash Sword"), 1)],
               [SwordsmanSpec("Bob", 20, 1, 0, 1, ("Null Sword",), 1)])
    with generated_package(discrepancy_project, "marguerite") as module:
        compiled = Rules(module.RULESET, module.CARDS, module.STATUSES, module.ENCHANTMENTS)
        assert_same_battle(compiled, interp, parties, {}, DISCREPANCIES[sword])
