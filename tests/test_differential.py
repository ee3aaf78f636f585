"""Differential oracle: compiled cards and the reference interpreter (compiler/interpret.py) play the
same seeded games with the same choices and must log exactly the same lines.

(a) random games of the real Simple Duel pool (the committed generated/ package against the
interpreted cards/simple_duel/); (b) every scenario file; (c) edge-case cards and the golden cards,
compiled with the real pipeline into a temporary project; (d) cards drawn by compiler/gen.py's
`valid_cards` strategy, when that module exists.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from compiler import nodes as n
from compiler.build import KEY_LINE, build, compile_project, read_source
from compiler.interpret import interpret_ruleset
from compiler.parser import parse
from compiler.sheets import deck_rules, load_deck
from compiler.symbols import collect
from runtime import engine
from runtime.agents import RandomAgent
from runtime.defs import RulesetDef
from runtime.engine import Game
from runtime.load import load_game
from tests.conftest import ROOT, compiled_game
from tools.scenario import read_scenario, run_scenario

SEEDS = 60
BATCHES = 4
SCENARIOS = sorted((ROOT / "tests" / "scenarios").rglob("*.scenario"))

# Cards where lowering fixes an order or a number: targets inside amounts and conditions, 'it',
# optional costs with 'if you do' / 'if you don't', non-cost 'you may', costs with targets and
# targets chosen after them, keyword parameters in filters, short-circuit conditions, statics with
# conditions and grants, statuses with settings, player triggers, tokens, random choices.
EDGE_CARDS = '''
keyword Quake(n) {
    text "When this attacks, deal N damage to each creature an opponent controls with power <= N."
    when this attacks: deal n damage to each creature an opponent controls with power <= n.
}

status Chill {
    stacking refresh
    consumed on trigger
    lasts until end of turn
    text "When this attacks, it gets -1 power until end of turn."
    when this attacks: this gets -1 power until end of turn.
}

card "Edge Hydra" {
    kind creature
    cost 2 mana
    stats power 3, speed 3
    keywords Quake(2)
    when this is summoned if (number of creatures you control) >= 2 or your life < 15:
        you may pay 1 mana.
        if you do, deal (power of it + 1) damage to target creature an opponent controls and put 1 Chill on it.
        if you don't, you draw 1 card.
    static: if your life <= 10, creatures you control get +1 power.
    static: creatures an opponent controls with Chill can't block.
}

card "Edge Oracle" {
    kind spell
    cost 1 mana
    stats speed 3
    effect:
        if target creature has Chill and not (the opponent controls no creature), deal 2 damage to each creature with Chill.
        you may draw 1 card.
        if you don't, target player loses 1 life.
        deal (half of (number of card in your hand) rounded down) damage to a random creature an opponent controls.
}

card "Edge Tithe" {
    kind spell
    cost 2 mana
    stats speed 2
    effect:
        as a cost, destroy target creature you control and discard 1 card at random.
        if you do, deal (power of it) damage to up to 2 target creatures an opponent controls.
        if you don't, you gain 3 life.
}

card "Edge Warden" {
    kind keep-spell
    cost 1 mana
    stats speed 2
    when a creature an opponent controls attacks if (power of it) >= 3: it gets -2 power until end of turn and you gain (max(1, stacks of Chill on it)) life.
    when an opponent loses life: deal 1 damage to the leftmost creature the opponent controls.
    at the start of your battle phase: put 1 Chill on the rightmost creature an opponent controls.
    static: creatures you control have Forefront.
}

card "Edge Leech" {
    kind creature
    cost 3 mana
    stats power 2, speed 4
    when this deals damage: you gain (the amount) life.
    when a player takes damage if the amount >= 2: that player draws 1 card.
}

card "Edge Calculus" {
    kind spell
    cost 1 mana
    stats speed 1
    effect: deal ((turn number * 2 - your turn number) / 3 rounded up + -1) damage to each creature with power > speed and you draw (min(2, number of card in your graveyard)) cards.
}

card "Edge Sprout" {
    kind creature
    token
    stats power 1, speed 1
}

card "Edge Gardener" {
    kind creature
    cost 2 mana
    stats power 1, speed 2
    when this is summoned: you create 2 "Edge Sprout" tokens and give target creature you control Chill until your next turn.
    when this leaves the field: return the leftmost creature you control to its owner's hand.
    when this blocks: move the attacker to the right end and the attacker can't attack until end of turn.
}
'''

# ---------------------------------------------------------------- helpers


def parse_folder(root: Path, folder: Path) -> list[n.File]:
    """Parse a card folder the way the build does: sorted files, paths relative to the project."""
    rels = [p.relative_to(root).as_posix() for p in sorted(folder.glob("*.card"))]
    return [parse(read_source(root / rel, rel), rel) for rel in rels]


def stale_code(root: Path) -> list[str]:
    """Return the generated files whose code differs from a fresh build, key lines aside (any edit
    under compiler/, this interpreter's included, changes every key but no code)."""
    out = []
    for o in compile_project(root, use_keys=False):
        path = root / o.path
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        if KEY_LINE.sub("", old) != KEY_LINE.sub("", o.text or ""):
            out.append(o.path)
    return out


def interpreted(root: Path, folder: Path) -> Game:
    files = parse_folder(root, folder)
    return interpret_ruleset(files, collect(files))





def play(game: Game, decks: list[list[str]], seed: int) -> tuple:
    """Play a random game; return (state or None, choices, error raised by card code or None)."""
    agents = [RandomAgent(seed * 2 + k) for k in range(len(decks))]
    choices: list = []
    s = None
    try:  # generated code that fails must fail the same way when interpreted
        s = game.new_game(decks, seed)
        while not engine.is_terminal(s):
            assert s.actions_taken < 20_000, "game did not end"
            action = agents[s.decision["player"]].choose(s, engine.legal_actions(s))
            choices.append(action)
            engine.apply_action(s, action)
    except AssertionError:
        raise
    except Exception as err:
        return s, choices, err
    return s, choices, None


def replay(game: Game, decks: list[list[str]], seed: int, choices: list, expected: list[str]) -> tuple:
    """Replay recorded choices; return (state or None, error or None). An illegal choice is a divergence."""
    s = None
    try:
        s = game.new_game(decks, seed)
        for i, action in enumerate(choices):
            assert action in engine.legal_actions(s), (
                f"seed {seed}: choice {i} {action} is not legal in the interpreted game; "
                f"{first_difference(expected, s.log)}")
            engine.apply_action(s, action)
    except AssertionError:
        raise
    except Exception as err:
        return s, err
    return s, None


def first_difference(a: list[str], b: list[str]) -> str:
    """Describe where two logs part, for assertion messages."""
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"line {i + 1}: compiled {x!r} != interpreted {y!r}"
    return f"compiled logged {len(a)} lines, interpreted {len(b)}; last: {b[-3:]!r}"


def assert_same_game(compiled_game: Game, interp_game: Game, decks: list[list[str]], seed: int) -> None:
    """Play compiled with random choices, replay on interpreted; logs, results and states agree."""
    s, choices, error = play(compiled_game, decks, seed)
    r, error2 = replay(interp_game, decks, seed, choices, s.log if s else [])
    assert (r is None) == (s is None), f"seed {seed}: {error!r} != {error2!r}"
    if s is not None and r is not None:
        assert r.log == s.log, f"seed {seed}: {first_difference(s.log, r.log)}"
        assert r.result == s.result
        assert r.to_json() == s.to_json()
    assert type(error) is type(error2) and str(error) == str(error2), f"seed {seed}: {error!r} != {error2!r}"


def deck_pair(decks: list[list[str]], seed: int) -> list[list[str]]:
    return [decks[seed % len(decks)], decks[(seed // len(decks) + 1) % len(decks)]]


def legal_decks(game: Game, folder: Path) -> list[list[str]]:
    return [load_deck(p, deck_rules(game))
            for p in sorted((folder / "decks").glob("*.deck"))]


def mixed_decks(decks: list[list[str]], extra: list[str]) -> list[list[str]]:
    """Put two copies of each extra card at the front of every deck, keeping its size."""
    front = [name for name in extra for _ in range(2)]
    return [(front + d)[:len(d)] for d in decks]


# ---------------------------------------------------------------- (a) and (b): Simple Duel


@pytest.fixture(scope="session")
def duel_pair():
    """The compiled Simple Duel game (generated/) and the interpreted one (cards/simple_duel/)."""
    stale = stale_code(ROOT)
    assert not stale, f"generated/ was not compiled from these cards; run `cardc build` ({stale})"
    return load_game("simple_duel"), interpreted(ROOT, ROOT / "cards" / "simple_duel")


def test_interpreted_definitions_mirror_compiled_ones(duel_pair):
    compiled, interp = duel_pair
    assert list(interp.cards) == list(compiled.cards)
    assert list(interp.keywords) == list(compiled.keywords)
    assert list(interp.statuses) == list(compiled.statuses)
    for table in ("cards", "keywords", "statuses"):
        for name, d in getattr(compiled, table).items():
            mine = getattr(interp, table)[name]
            assert mine.where == d.where
            assert [(a.kind, a.event, a.phase, a.where, a.has_condition, len(a.targets), len(a.mays), len(a.statics))
                    for a in mine.abilities] == [
                (a.kind, a.event, a.phase, a.where, a.has_condition, len(a.targets), len(a.mays), len(a.statics))
                for a in d.abilities]
    assert_same_settings(compiled.ruleset, interp.ruleset)


def assert_same_settings(rs, mine_rs) -> None:
    """Every data setting of a compiled ruleset equals the interpreted one (functions excepted)."""
    for key, value in vars(RulesetDef).items():
        if key.startswith("_") or callable(value) or key in ("phases", "turn_end", "checks", "lose_rules"):
            continue
        mine, theirs = getattr(mine_rs, key), getattr(rs, key)
        if key == "actions":  # (name, zone, condition function): the functions differ by nature
            mine, theirs = [(*a[:2], a[2] is None, a[3]) for a in mine], [(*a[:2], a[2] is None, a[3]) for a in theirs]
        assert mine == theirs, key


@pytest.fixture(scope="session")
def joker_pair():
    """The compiled Code of Joker game (generated/) and the interpreted one (cards/code_of_joker/)."""
    return load_game("code_of_joker"), interpreted(ROOT, ROOT / "cards" / "code_of_joker")


def test_interpreted_code_of_joker_settings_mirror_compiled_ones(joker_pair):
    compiled, interp = joker_pair
    assert list(interp.cards) == list(compiled.cards)
    assert_same_settings(compiled.ruleset, interp.ruleset)


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_random_code_of_joker_games_log_the_same(joker_pair, version):
    compiled, interp = (g.with_options({"version": version}) for g in joker_pair)
    decks = [d for d in legal_decks(compiled, ROOT / "cards" / "code_of_joker") if not compiled.check_deck(d)]
    assert len(decks) >= 2
    for seed in range(SEEDS // 4):
        assert_same_game(compiled, interp, deck_pair(decks, seed), seed)


@pytest.mark.parametrize("batch", range(BATCHES))
def test_random_simple_duel_games_log_the_same(duel_pair, batch):
    compiled, interp = duel_pair
    decks = legal_decks(compiled, ROOT / "cards" / "simple_duel")
    for seed in range(batch, SEEDS, BATCHES):
        assert_same_game(compiled, interp, deck_pair(decks, seed), seed)


@pytest.fixture(scope="module")
def vortex_pair():
    """The compiled War Vortex Night game (generated/) and the interpreted one (cards/war_vortex_night/)."""
    return load_game("war_vortex_night"), interpreted(ROOT, ROOT / "cards" / "war_vortex_night")


@pytest.fixture(scope="module")
def successor_pair():
    """The compiled Successor game (generated/) and the interpreted one (cards/successor/)."""
    return load_game("successor"), interpreted(ROOT, ROOT / "cards" / "successor")


def test_random_successor_games_log_the_same(successor_pair):
    compiled, interp = successor_pair
    assert list(interp.cards) == list(compiled.cards)
    assert_same_settings(compiled.ruleset, interp.ruleset)
    decks = legal_decks(compiled, ROOT / "cards" / "successor")
    assert len(decks) >= 2
    for seed in range(SEEDS // 4):
        assert_same_game(compiled, interp, deck_pair(decks, seed), seed)


def test_scenarios_log_the_same(duel_pair, joker_pair, vortex_pair, successor_pair):
    pairs = {"simple_duel": duel_pair, "code_of_joker": joker_pair, "war_vortex_night": vortex_pair,
             "successor": successor_pair}
    assert SCENARIOS
    for path in SCENARIOS:
        sc = read_scenario(path)
        compiled, interp = pairs[sc.ruleset]
        a = run_scenario(sc, compiled)
        b = run_scenario(read_scenario(path), interp)
        assert b.failures == a.failures, path.name
        assert (a.state is None) == (b.state is None), path.name
        if a.state is not None and b.state is not None:
            assert b.state.log == a.state.log, f"{path.name}: {first_difference(a.state.log, b.state.log)}"
            assert b.state.to_json() == a.state.to_json(), path.name


# ---------------------------------------------------------------- (c): edge cases and golden cards


@pytest.fixture(scope="module")
def edge_project(tmp_path_factory, cards_snapshot: Path) -> Path:
    """A project of the Simple Duel cards plus EDGE_CARDS, built with the real pipeline."""
    root = tmp_path_factory.mktemp("differential_edge")
    shutil.copytree(cards_snapshot / "simple_duel", root / "cards" / "simple_duel")
    (root / "cards" / "simple_duel" / "edge_cases.card").write_text(EDGE_CARDS, encoding="utf-8")
    build(root)
    return root


def test_edge_case_cards_log_the_same(edge_project):
    folder = edge_project / "cards" / "simple_duel"
    interp = interpreted(edge_project, folder)
    edge = [name for name, card in interp.cards.items() if name.startswith("Edge ") and not card.token]
    with compiled_game(edge_project, "simple_duel") as compiled:
        decks = mixed_decks(legal_decks(compiled, folder), edge)
        for seed in range(25):
            assert_same_game(compiled, interp, deck_pair(decks, seed), seed)


def test_golden_cards_log_the_same(tmp_path):
    shutil.copytree(ROOT / "tests" / "golden" / "cards", tmp_path / "cards")
    build(tmp_path)
    interp = interpreted(tmp_path, tmp_path / "cards" / "golden")
    playable = sorted(name for name, card in interp.cards.items() if not card.token)
    deck = [playable[i % len(playable)] for i in range(interp.ruleset.deck_size)]
    with compiled_game(tmp_path, "golden") as compiled:
        for seed in range(15):
            assert_same_game(compiled, interp, [deck, deck[::-1]], seed)


# ---------------------------------------------------------------- (d): generated cards (compiler/gen.py)


def test_generated_cards_log_the_same(tmp_path_factory, cards_snapshot: Path):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from compiler import gen
    from compiler.fmt import format_file

    root = tmp_path_factory.mktemp("differential_generated")
    shutil.copytree(cards_snapshot / "simple_duel", root / "cards" / "simple_duel")  # the cards it draws are Simple Duel's
    folder = root / "cards" / "simple_duel"
    build(root)  # once: each example's build then renders only its own card file and the registry
    symbols = collect(parse_folder(root, folder))
    cards = st.lists(gen.valid_cards(symbols, exclude=gen.KNOWN_BUGS), min_size=1, max_size=3,
                     unique_by=lambda c: c.name)

    @settings(max_examples=max(1, settings.default.max_examples // 5), deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(cards)
    def check(drawn: list[n.Card]) -> None:
        path = folder / "generated_cards.card"
        path.write_text(format_file(n.File(n.NOWHERE, path.name, tuple(drawn))), encoding="utf-8")
        try:
            build(root)
            interp = interpreted(root, folder)
            new = [c.name for c in drawn if not interp.cards[c.name].token]
            with compiled_game(root, "simple_duel") as compiled:
                decks = mixed_decks(legal_decks(compiled, folder), new)
                for seed in range(3):
                    assert_same_game(compiled, interp, deck_pair(decks, seed), seed)
        finally:
            path.unlink()

    check()
