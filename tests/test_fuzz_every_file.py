"""`cardc fuzz` on every card file of every ruleset: a short campaign each, legal decks and parties only.

The files are found by globbing cards/*/*.card and tests/rulesets/*/cards/*/*.card, so a new card file
is fuzzed with no Python edit. A card game's file is fuzzed under each value of its ruleset's
`version` option (Code of Joker: v1 and v2); a battle ruleset's file (Marguerite) plays battles
between random legal parties carrying the swords that are, or use, what the file defines. Every deck
a campaign draws passes Game.check_deck, every party passes the party-file check with the budget.
CI plays 1-2 games a file and version (CARDC_PROFILE=long: 20 times as many).
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.party_files import parse_party
from runtime import jokers
from runtime.battle.parties import format_swordsman
from runtime.defs import entry_names
from tests.conftest import ROOT
from tools import deckgen, fuzz_targets, fuzzing
from tools.battle.fuzz import random_party
from tools.battle.play import budget_of
from tools.battle.targets import around_file
from tools.cli import main

LONG = os.environ.get("CARDC_PROFILE") == "long"
PROJECTS = [ROOT] + sorted(p for p in (ROOT / "tests" / "rulesets").iterdir() if (p / "cards").is_dir())
FILES = [(root, path) for root in PROJECTS for path in sorted((root / "cards").glob("*/*.card"))]


def _ruleset_text(folder: Path) -> str:
    """Return the text of the folder's card files that declare a ruleset (whatever their names)."""
    texts = (p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.card")))
    return "\n".join(t for t in texts if re.search(r"^ruleset \w+ \{", t, re.M))


def _automatic(root: Path, ruleset: str) -> bool:
    return "battles are automatic" in _ruleset_text(root / "cards" / ruleset)


CARD_GAME_FILES = [(r, p) for r, p in FILES if not _automatic(r, p.parent.name)]
BATTLE_FILES = [(r, p) for r, p in FILES if _automatic(r, p.parent.name)]


def _id(pair: tuple[Path, Path]) -> str:
    return pair[1].relative_to(ROOT).as_posix()


def test_the_glob_finds_every_ruleset():
    rulesets = {p.parent.name for _, p in FILES}
    assert {"code_of_joker", "simple_duel", "marguerite", "quick_duel"} <= rulesets
    assert len(BATTLE_FILES) >= 7 and len(CARD_GAME_FILES) >= 17


def _versions(root: Path, path: Path) -> list[str | None]:
    """Return the values of the ruleset's 'version' option, read from its ruleset's text ([None] if none)."""
    found = re.search(r"option version = \w+ \(([^)]*)\)", _ruleset_text(path.parent))
    return [v.strip() for v in found.group(1).split(",")] if found else [None]


@pytest.mark.parametrize("pair", CARD_GAME_FILES, ids=[_id(x) for x in CARD_GAME_FILES])
def test_every_card_game_file_plays_a_short_legal_campaign(pair):
    root, path = pair
    versions = _versions(root, path)
    assert versions == (["v1", "v2"] if path.parent.name == "code_of_joker" else [None])
    for version in versions:
        games = 20 if LONG else 1  # one game per file and version in CI: a campaign per card file adds up
        target = fuzz_targets.resolve_target(root, path, options={"version": version} if version else None)
        try:
            game, rng = target.pool.game, random.Random(3)
            for _ in range(games):
                _, decks = fuzzing.random_inputs(target, rng)
                for deck in decks:  # a team's characters and tables count as its cards
                    assert game.check_deck(entry_names(deck)) == [], (path, version, deck)
                    if target.mode == "cards":
                        assert set(target.focus) & set(entry_names(deck)), (path, version)
            outcome = fuzzing.campaign(target, games, 3, None, shrink_seconds=5)
        finally:
            target.pool.close()
        found = outcome.failure
        assert found is None, f"{path} under {version}: seed {found.seed}, decks {found.decks}\n{found.violation}"
        assert outcome.games == games


DECK_FILES = [(root, path) for root in PROJECTS for path in sorted((root / "cards").glob("*/decks/*.deck"))]


@pytest.mark.parametrize("pair", DECK_FILES, ids=[_id(x) for x in DECK_FILES])
def test_every_deck_file_plays_against_legal_decks_under_the_versions_it_is_legal_in(pair):
    root, path = pair
    accepted = []
    for version in _versions(root, path.parent):
        try:
            target = fuzz_targets.resolve_target(root, path, options={"version": version} if version else None)
        except fuzzing.UsageError as err:
            assert f"{path} is not a legal deck under these rules" in str(err)
            continue
        try:
            assert target.pool.game.check_deck(target.deck) == []
            rng = random.Random(7)
            for _ in range(10):
                _, decks = fuzzing.random_inputs(target, rng)
                assert decks[0] == target.deck and all(target.pool.game.check_deck(d) == [] for d in decks)
        finally:
            target.pool.close()
        accepted.append(version)
    assert len(accepted) == 1, accepted  # a Code of Joker deck holds one joker (v1) or two (v2)
    if accepted[0]:
        assert path.name.startswith(accepted[0] + "_")  # Code of Joker names its decks by version


@pytest.mark.parametrize("pair", BATTLE_FILES, ids=[_id(x) for x in BATTLE_FILES])
def test_every_battle_file_plays_legal_parties_carrying_its_swords(pair, capsys):
    root, path = pair
    rules, focus = around_file(root, path, path.parent.name, inside=True)
    budget = budget_of(rules)
    assert budget is not None
    others = {n: c.kind for n, c in rules.cards.items() if c.kind not in rules.sword_kinds}
    rng = random.Random(5)
    for _ in range(20):
        party = random_party(rules, rng, budget, focus=tuple(focus))
        text = "".join(format_swordsman(x) + "\n" for x in party)
        assert len(parse_party(text, "drawn.sw", rules.spellings, others, budget)) == len(party)  # legal
        assert not focus or set(focus) & {w for x in party for w in x.swords}, (path, text)
    battles = 200 if LONG else 10
    assert main(["--root", str(root), "fuzz", str(path), "--games", str(battles), "--seed", "6"]) == 0
    assert f"no violation in {battles} battles" in capsys.readouterr().out


def test_a_battle_file_campaign_finds_and_shrinks_around_its_swords(monkeypatch, tmp_path, capsys):
    # Planted: a battle breaks when someone carries Shield Sword, which puts Guard: states.card's campaign
    # must draw it (the sword reaches a state of the file) and shrink to it alone.
    from tools.battle import fuzz
    from tools.battle.play import read_party

    monkeypatch.setattr(fuzz, "violations", lambda s: ["planted"] if any(
        "Shield Sword" in line for line in s.log if not line.startswith("T")) else [])
    path = ROOT / "cards" / "marguerite" / "states.card"
    assert main(["--root", str(ROOT), "fuzz", str(path), "--games", "50", "--out", str(tmp_path / "f")]) == 1
    rules, _ = around_file(ROOT, path, "marguerite", inside=True)
    parties = [read_party(rules, tmp_path / f"f-{side}.sw") for side in "AB"]
    assert [w for p in parties for x in p for w in x.swords] == ["Shield Sword"]
    assert "  planted" in capsys.readouterr().out


def test_an_outside_battle_file_is_compiled_beside_the_pool(tmp_path, capsys):
    card = tmp_path / "my_swords.card"
    card.write_text('status Dazed {\n    class bad  stacking stacks  consumed on trigger\n    text "Skips."\n'
                    '    whenever this would act: skip the action.\n}\n\ncard "Fuzz Daze Sword" {\n    kind attack\n'
                    '    keywords Fast\n    text "Hits and dazes."\n    effect: hit the target for 1.\n'
                    '        furthermore, if the damage >= 1, put 1 Dazed on the target.\n}\n', encoding="utf-8")
    args = ["--root", str(ROOT), "fuzz", str(card), "--ruleset", "marguerite", "--games", "10"]
    assert main(args) == 0
    captured = capsys.readouterr()
    assert f"carrying swords that are or use what {card} defines (1 in all)" in captured.err
    assert "no violation in 10 battles" in captured.out
    lonely = tmp_path / "lonely.card"
    lonely.write_text('status Lonely {\n    class other  stacking stacks  consumed never\n    text "No one."\n}\n',
                      encoding="utf-8")
    assert main(["--root", str(ROOT), "fuzz", str(lonely), "--ruleset", "marguerite", "--games", "1"]) == 2
    assert (f"cardc fuzz: {lonely}: no sword of 'marguerite' is, carries, gives or builds anything this file "
            "defines (Lonely); there is nothing to fuzz around it") in capsys.readouterr().err
    assert main(["--root", str(ROOT), "fuzz", str(card), "--ruleset", "marguerite", "--option", "crisis=often"]) == 2
    assert "cardc fuzz: option 'crisis' is one of exact, rounded_up, not 'often'" in capsys.readouterr().err


# ---------------------------------------------------------------- the deck rules fuzzing keeps


@pytest.fixture(scope="module")
def coj_v2():
    target = fuzz_targets.resolve_target(ROOT, ROOT / "cards" / "code_of_joker", options={"version": "v2"})
    yield target.pool.game
    target.pool.close()


def test_a_banned_keyword_keeps_a_card_out_and_a_file_of_them_is_refused(tmp_path, capsys):
    card = tmp_path / "rotten.card"
    card.write_text('card "Fuzz Rotting Sapling" {\n    kind unit\n    cost 1 cp\n    stats bp 1000 / 2000 / 3000\n'
                    '    attributes colour green\n    keywords Decay\n    text "Decay."\n}\n', encoding="utf-8")
    args = ["--root", str(ROOT), "fuzz", str(card), "--ruleset", "code_of_joker", "--games", "1"]
    assert main(args + ["--rules", "v2"]) == 2
    err = capsys.readouterr().err
    assert (f"cardc fuzz: {card}: no card of this file can be in a deck under these rules (option version = v2) "
            "('Fuzz Rotting Sapling': it has Decay, which these rules do not allow)") in err
    assert main(args + ["--rules", "v1"]) == 0
    assert "decks mixing 1 card(s)" in capsys.readouterr().err


def test_the_cards_a_version_bans_are_left_out_and_named(coj_v2, capsys):
    path = ROOT / "cards" / "code_of_joker" / "units.card"
    decayed = sorted(x for x, c in coj_v2.cards.items() if c.where.startswith("units.card:")
                     and any(k == "Decay" for k, _ in c.keywords))
    assert decayed
    assert main(["--root", str(ROOT), "fuzz", str(path), "--games", "1", "--rules", "v2"]) == 0
    listed = ", ".join(f"'{x}'" for x in decayed)
    assert f"; left out, as each has Decay, which these rules do not allow: {listed}," in capsys.readouterr().err
    assert main(["--root", str(ROOT), "fuzz", str(path), "--games", "1", "--rules", "v1"]) == 0
    assert "left out" not in capsys.readouterr().err


def test_a_deck_file_of_the_other_version_is_a_usage_error(capsys):
    deck = ROOT / "cards" / "code_of_joker" / "decks" / "v1_roots_and_tides.deck"
    assert main(["--root", str(ROOT), "fuzz", str(deck), "--games", "1", "--rules", "v2"]) == 2
    err = capsys.readouterr().err
    assert f"cardc fuzz: {deck} is not a legal deck under these rules (option version = v2): " in err
    assert "it must have exactly 2" in err


def test_a_pool_too_small_for_a_deck_is_a_usage_error(tmp_path, capsys):
    folder = tmp_path / "cards" / "tiny"
    folder.mkdir(parents=True)
    ruleset = (ROOT / "cards" / "simple_duel" / "ruleset.card").read_text(encoding="utf-8")
    (folder / "ruleset.card").write_text(ruleset.replace("ruleset simple_duel", "ruleset tiny").replace(
        "deck 30 cards", "deck 30 cards, at most 2 copies"), encoding="utf-8")
    (folder / "cards.card").write_text('card "Lone Pebble" {\n    kind creature\n    cost 1 mana\n'
                                       '    stats power 1, speed 1\n    text "A pebble."\n}\n', encoding="utf-8")
    assert main(["--root", str(tmp_path), "fuzz", str(folder), "--games", "1"]) == 2
    assert (f"cardc fuzz: {folder}: no legal deck can be built from ruleset 'tiny': only 1 card(s) may be in a "
            "deck under these rules, at most 2 copies each; a deck needs 30") in capsys.readouterr().err


def test_why_not_in_a_deck_follows_the_rules(coj_v2, simple_duel):
    v1 = coj_v2.with_options({"version": "v1"})
    decayed = next(n for n, c in coj_v2.cards.items() if any(k == "Decay" for k, _ in c.keywords) and not c.token)
    assert deckgen.why_not_in_a_deck(coj_v2, decayed) == "it has Decay, which these rules do not allow"
    assert deckgen.why_not_in_a_deck(v1, decayed) is None
    token = next(n for n, c in simple_duel.cards.items() if c.token)
    assert deckgen.why_not_in_a_deck(simple_duel, token) == "it is a token"
    assert token not in deckgen.candidates(simple_duel, sorted(simple_duel.cards)).main
    joker = sorted(jokers.names(coj_v2))[0]
    assert deckgen.why_not_in_a_deck(coj_v2, joker) is None and joker in deckgen.candidates(coj_v2, [joker]).jokers


def test_too_few_different_jokers_is_a_deck_problem(coj_v2):
    cands = deckgen.candidates(coj_v2, sorted(coj_v2.cards))
    one = deckgen.Candidates(cands.main, cands.jokers[:1])
    assert deckgen.problem(coj_v2, one) == ("a deck needs 2 joker(s) each with a different character; "
                                            "these cards offer 1")
    assert deckgen.problem(coj_v2, cands) is None
    assert deckgen.problem(coj_v2, deckgen.Candidates(cands.main[:13], cands.jokers)) == (
        "only 13 card(s) may be in a deck under these rules, at most 3 copies each; a deck needs 40")


@settings(max_examples=200 if LONG else 30)
@given(st.lists(st.integers(0, 10**6), min_size=42, max_size=42), st.sampled_from(["v1", "v2"]))
def test_any_indices_decode_to_a_legal_deck_and_back(coj_v2, indices, version):
    game = coj_v2.with_options({"version": version})
    cands = deckgen.candidates(game, sorted(game.cards))
    slots = [False] * game.ruleset.deck_size + [True] * deckgen.joker_count(game)
    drawn = iter(indices)
    deck = deckgen.decode_deck(game, cands, slots, lambda k: next(drawn) % k)
    assert deck is not None and game.check_deck(deck) == []
    encoded = iter(deckgen.encode_deck(game, cands, deck))
    assert deckgen.decode_deck(game, cands, slots, lambda k: next(encoded)) == deck


def test_a_code_of_joker_violation_shrinks_to_legal_decks(monkeypatch, tmp_path, capsys):
    import json

    from runtime import invariants

    real = invariants.violations
    monkeypatch.setattr(invariants, "violations", lambda s: real(s) + (
        ["planted: 3 actions taken"] if s.actions_taken >= 3 else []))
    out = tmp_path / "found.json"
    path = ROOT / "cards" / "code_of_joker" / "jokers.card"
    assert main(["--root", str(ROOT), "fuzz", str(path), "--rules", "v2", "--games", "2", "--seed", "1",
                 "--out", str(out), "--shrink-seconds", "4"]) == 1
    data = json.loads(out.read_text(encoding="utf-8"))
    target = fuzz_targets.resolve_target(ROOT, path, options={"version": "v2"})
    try:
        for deck in data["decks"] + data["shrink"]["original"]["decks"]:
            assert target.pool.game.check_deck(deck) == []
    finally:
        target.pool.close()
    assert data["shrink"]["tries"] > 1 and data["violation"].endswith("planted: 3 actions taken")
    capsys.readouterr()
