"""The invariant checkers are proven: for each invariant, a real state or battle with exactly that one
breakage planted must make the checker report exactly that invariant, word for word, and nothing else.

The card-game states come from seeded random games of Code of Joker (v2, where registered jokers are
kept) and Simple Duel; the battles from the sample Marguerite parties. A table row is (invariant name,
the game it plants in, the plant, the expected message with the plant's values filled in); a test
checks that the table names every invariant of runtime/invariants.py, so a new invariant needs a row.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import replace

import pytest

from compiler.sheets import deck_rules, load_deck
from compiler.team_files import load_team
from runtime import engine, invariants
from runtime.agents import RandomAgent
from runtime.battle import invariants as battle_invariants
from runtime.battle.parties import SwordsmanSpec, format_swordsman
from runtime.battle.rules import Rules, load_rules
from runtime.battle.state import Battle
from runtime.load import load_game
from runtime.state import CardState, State
from tests.conftest import ROOT
from tools.battle import fuzz
from tools.battle.play import battle, read_party

Plant = Callable[[State], dict]


def _decks(game: engine.Game, ruleset: str) -> list[list[str]]:
    """Return the sample decks of a ruleset that its rules accept."""
    paths = sorted((ROOT / "cards" / ruleset / "decks").glob("*.deck"))
    lists = [load_deck(p, deck_rules(game)) for p in paths]
    return [d for d in lists if not game.check_deck(d)]


def _state_where(game: engine.Game, ruleset: str, wanted: Callable[[State], bool]) -> State:
    """Return the first state of seeded random games (seed 0, 1, ...) where `wanted` holds at a decision."""
    decks = _decks(game, ruleset)
    for seed in range(50):
        s = game.new_game([decks[seed % len(decks)], decks[(seed + 1) % len(decks)]], seed)
        agents = [RandomAgent(seed), RandomAgent(seed + 1)]
        while not engine.is_terminal(s):
            if wanted(s):
                return s
            engine.apply_action(s, agents[s.decision["player"]].choose(s, engine.legal_actions(s)))
    raise AssertionError(f"no {ruleset} game of seeds 0-49 reaches the wanted state")


@pytest.fixture(scope="module")
def states() -> dict[str, State]:
    """Return clean mid-game states: Code of Joker v2 with units on both fields, Simple Duel with a status held."""
    coj = load_game("code_of_joker").with_options({"version": "v2"})
    duel = load_game("simple_duel")
    return {
        "coj": _state_where(coj, "code_of_joker", lambda s: s.turn >= 4 and all(
            p.zones["field"] and p.zones["hand"] for p in s.players)),
        "duel": _state_where(duel, "simple_duel", lambda s: any(c.statuses for c in s.cards)),
        "wvn": _battle_where(lambda s: s.turn >= 3 and all(len(p.zones["field"]) >= 2 for p in s.players)),
        "su": _state_where(load_game("successor"), "successor", lambda s: len(s.players[0].zones["field"]) >= 3
                           and not any("summoning" in c.flags for c in s.cards)),
    }


def _battle_where(wanted: Callable[[State], bool]) -> State:
    """Return the first state of a seeded War Vortex Night battle (two sample teams) where wanted holds."""
    game = load_game("war_vortex_night")
    teams = [load_team(ROOT / "cards" / "war_vortex_night" / "teams" / f"{t}.team", game)
             for t in ("emberguard", "tidewardens")]
    s = game.new_game(teams, 1)
    agents = [RandomAgent(1), RandomAgent(2)]
    while not wanted(s):
        assert not engine.is_terminal(s)
        engine.apply_action(s, agents[s.decision["player"]].choose(s, engine.legal_actions(s)))
    return s


def _first(s: State, player: int, zone: str) -> int:
    """Return the id of the first card a player's zone lists."""
    return s.players[player].zones[zone][0]


def _move(s: State, cid: int, player: int, zone: str) -> None:
    """Move a card consistently (both its zone list and its own fields), as the engine does."""
    c = s.own(cid)
    s.players[c.controller].zones[c.zone].remove(cid)
    s.players[player].zones[zone].append(cid)
    c.controller, c.zone = player, zone


def twice_listed(s: State) -> dict:
    cid = _first(s, 0, "field")
    s.players[1].zones["graveyard"].append(cid)
    return {"cid": cid}


def zone_differs(s: State) -> dict:
    cid = _first(s, 0, "hand")
    s.own(cid).zone = "graveyard"
    return {"cid": cid}


def controller_differs(s: State) -> dict:
    cid = _first(s, 0, "field")
    s.own(cid).controller = 1
    return {"cid": cid}


def unlisted(s: State) -> dict:
    cid = s.players[1].zones["deck"].pop()
    return {"cid": cid}


def negative_damage(s: State) -> dict:
    cid = _first(s, 1, "field")
    s.own(cid).damage = -1000
    return {"cid": cid}


def expiring_in_hand(s: State) -> dict:
    cid = _first(s, 0, "hand")
    s.own(cid).mods.append(["bp", 1000, ["eot", s.turn]])  # as if an effect had changed a card in hand
    return {"cid": cid}


def empty_status(s: State) -> dict:
    c = s.own(next(c.id for c in s.cards if c.statuses))
    c.statuses[0][1] = 0  # the last stack went, the entry stayed
    return {"cid": c.id, "statuses": c.statuses}


def resource_below(s: State) -> dict:
    s.players[0].resources["cp"] = -1
    return {}


def resource_above(s: State) -> dict:
    high = s.game.ruleset.resource_bounds["gauge"][1] + 10
    s.players[1].resources["gauge"] = high
    return {"high": high}


def extra_deck_card(s: State) -> dict:
    player = s.players[0]
    cid = len(s.cards)  # a copy of a deck card made out of nothing
    s.add(CardState(cid, player.deck_list[0], 0, 0, "hand"))
    player.zones["hand"].append(cid)
    want = len(player.deck_list) * (1 + player.rebuilds)
    return {"owned": want + 1, "want": want}


def extra_joker(s: State) -> dict:
    player = s.players[0]
    cid = len(s.cards)  # a second copy of a kept joker, made out of nothing
    s.add(CardState(cid, player.jokers[0], 0, 0, "joker_zone"))
    player.zones["joker_zone"].append(cid)
    return {"owned": len(player.jokers) + 1, "want": len(player.jokers)}


def overfull_field(s: State) -> dict:
    limit = s.game.ruleset.zone_limits["field"]
    while len(s.players[0].zones["field"]) <= limit:
        _move(s, _first(s, 0, "deck"), 0, "field")
    return {"count": limit + 1, "limit": limit}


def over_with_decision(s: State) -> dict:
    s.result = [1, -1]
    return {}


def stuck(s: State) -> dict:
    s.decision = None
    return {}


def half_attached(s: State) -> dict:
    holder, card = s.players[0].zones["hand"][:2]
    s.own(holder).attached.append(card)  # the holder lists it, the card does not say so
    return {"card": card, "holder": holder}


def decides_after_leaving(s: State) -> dict:
    assert s.decision is not None
    s.out.append(s.decision["player"])
    return {"p": s.decision["player"] + 1}


def line_gap(s: State) -> dict:
    cid = _first(s, 0, "field")
    for other in s.players[0].zones["field"]:
        s.own(other).line = 0
    s.own(cid).line = 2  # the middle line is empty in front of it
    return {}


def shared_square(s: State) -> dict:
    # two successors standing in their squares (the ruler stands behind, last; a card being summoned or
    # destroyed and waiting to leave may share a square)
    a, b = [c for c in s.players[0].zones["field"] if not {"summoning", "destroyed"} & set(s.cards[c].flags)
            and s.game.cards[s.cards[c].name].kind not in s.game.ruleset.stands_behind][:2]
    s.own(b).line, s.own(b).square = s.cards[a].line, s.cards[a].square
    return {"line": s.cards[a].line, "square": s.cards[a].square}


def off_the_grid(s: State) -> dict:
    field = s.players[0].zones["field"]
    s.cards[field[-2]].square = 7  # the last successor stands past the 3 squares of its line
    return {"line": s.cards[field[-2]].line}


def order_twice(s: State) -> dict:
    s.order.append(s.order[0])
    return {"cid": s.order[0]}


PLANTS: list[tuple[str, str, Plant, str]] = [
    ("one zone", "coj", twice_listed, "card #{cid} is in both P1 field and P2 graveyard"),
    ("zone agrees", "coj", zone_differs, "card #{cid} is listed in P1 hand but says P1 graveyard"),
    ("zone agrees", "coj", controller_differs, "card #{cid} is listed in P1 field but says P2 field"),
    ("in a zone", "coj", unlisted, "cards in no zone: [{cid}]"),
    ("damage", "coj", negative_damage, "card #{cid} has negative damage -1000"),
    ("expiring changes", "coj", expiring_in_hand, "card #{cid} in P1 hand holds a change that expires"),
    ("stacks", "duel", empty_status, "card #{cid} holds a status with no stacks: {statuses}"),
    ("resources", "coj", resource_below, "P1 has -1 cp"),
    ("resources", "coj", resource_above, "P2 has {high} gauge"),
    ("deck cards", "coj", extra_deck_card, "P1 owns {owned} deck cards, expected {want}"),
    ("jokers", "coj", extra_joker, "P1 owns {owned} jokers, expected {want}"),
    ("zone limits", "coj", overfull_field, "P1 field holds {count} cards, more than {limit}"),
    ("over means closed", "coj", over_with_decision, "the game is over but a decision is still open"),
    ("waiting", "coj", stuck, "the game is neither over nor waiting for a decision"),
    ("left out", "coj", decides_after_leaving, "P{p} left the game but still plays"),
    ("attached", "duel", half_attached, "card #{card} is attached to #{holder} but says #-1"),
    ("lines", "wvn", line_gap, "P1's cards stand in lines [0, 2], not the first 2 of 3"),
    ("lines", "su", shared_square, "P1 has two cards in line {line} square {square}"),
    ("lines", "su", off_the_grid, "P1 has a card outside the grid (line {line}, square 7)"),
    ("order", "wvn", order_twice, "the turn order lists [{cid}] more than once"),
]


def test_the_clean_states_break_nothing(states: dict[str, State]) -> None:
    assert {key: invariants.broken(s) for key, s in states.items()} == {"coj": [], "duel": [], "wvn": [], "su": []}


@pytest.mark.parametrize(("name", "game", "plant", "expected"), PLANTS, ids=[p[2].__name__ for p in PLANTS])
def test_each_planted_breakage_is_reported_alone(states: dict[str, State], name: str, game: str,
                                                 plant: Plant, expected: str) -> None:
    s = states[game].snapshot()
    values = plant(s)
    assert invariants.broken(s) == [(name, expected.format(**values))]
    assert invariants.violations(s) == [expected.format(**values)]


def test_the_table_plants_every_invariant() -> None:
    assert sorted({name for name, *_ in PLANTS}) == sorted(name for name, _ in invariants.INVARIANTS)


def _negative_life(s: State) -> None:
    s.players[0].resources["life"] = -3  # life may go below 0: the lose rule ends the game, no invariant


def _full_hand(s: State) -> None:
    while len(s.players[0].zones["hand"]) <= s.game.ruleset.zone_limits["hand"]:
        _move(s, _first(s, 0, "deck"), 0, "hand")  # a card returned to the hand may pass the limit


@pytest.mark.parametrize("allowed", [_negative_life, _full_hand])
def test_what_the_rules_allow_is_no_violation(states: dict[str, State], allowed: Callable[[State], None]) -> None:
    s = states["coj"].snapshot()
    allowed(s)
    assert invariants.broken(s) == []


def test_a_game_at_its_pause_point_is_waiting() -> None:
    game = load_game("code_of_joker").with_options({"version": "v2"})
    s = game.new_game(_decks(game, "code_of_joker")[:2], 3, pause=["after_turn", 2])
    while s.decision is not None:
        engine.apply_action(s, engine.legal_actions(s)[0])
    assert (s.result, s.decision, engine.paused(s)) == (None, None, True)
    assert invariants.broken(s) == []
    s.pause = None  # the same state, no longer at a pause point: nothing would move it on
    assert invariants.broken(s) == [("waiting", "the game is neither over nor waiting for a decision")]


# ---------------------------------------------------------------- automatic battles

BattlePlant = Callable[[Battle], dict]


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules("marguerite")


def _party(rules: Rules, name: str) -> list[SwordsmanSpec]:
    return read_party(rules, ROOT / "cards" / "marguerite" / "parties" / f"{name}.sw")


@pytest.fixture(scope="module")
def finished(rules: Rules) -> Battle:
    """Return a finished battle where party A wins with two swordsmen left and party B's two have exited."""
    s = battle(rules, _party(rules, "twins"), _party(rules, "bulwark"), {})
    assert (s.result, [len(p) for p in s.parties], [len(p) for p in s.exited]) == ("A", [2, 0], [0, 2])
    return s


def _copy(s: Battle) -> Battle:
    """Return an independent copy of a finished battle (its compiled rules shared)."""
    return replace(copy.deepcopy(replace(s, defs=None)), defs=s.defs)


def no_result(s: Battle) -> dict:
    s.result = ""
    return {}


def late_turn(s: Battle) -> dict:
    line = f"T{s.defs.ruleset.last_turn + 1} turn starts"
    s.log.insert(-1, line)  # before the result line, which stays last
    return {"line": line, "last": s.defs.ruleset.last_turn}


def negative_ap(s: Battle) -> dict:
    f = s.parties[0][0]
    f.values["ap"] = -1
    return {"name": f.name, "reserve": f.values["reserve_ap"]}


def dead_left_in(s: Battle) -> dict:
    f = s.parties[0][1]
    f.values["hp"] = 0
    return {"name": f.name}


def negative_state(s: Battle) -> dict:
    f = s.parties[0][0]
    f.states[sorted(s.defs.statuses)[0]] = -1
    return {"name": f.name, "states": f.states}


def above_max(s: Battle) -> dict:
    f = s.parties[0][0]
    f.values["hp"] = f.values["max_hp"] + 1
    return {"name": f.name, "hp": f.hp, "max": f.values["max_hp"]}


def sword_twice(s: Battle) -> dict:
    holder, other = s.parties[0]
    other.swords.append(holder.swords[0])
    return {"id": holder.swords[0].id, "card": holder.swords[0].card}


def reordered(s: Battle) -> dict:
    s.parties[0].reverse()
    return {"names": ", ".join(f.name for f in s.parties[0])}


def alive_exit(s: Battle) -> dict:
    f = s.exited[1][0]
    f.overkill -= 1
    return {"name": f.name, "hp": f.hp, "overkill": f.overkill}


def line_after_result(s: Battle) -> dict:
    s.log.append(s.log[-2])
    return {}


BATTLE_PLANTS: list[tuple[str, BattlePlant, str]] = [
    ("result", no_result, "no result (result '')"),
    ("last turn", late_turn, "'{line}' comes after the last turn, {last}"),
    ("ap", negative_ap, "{name} has AP -1, reserve AP {reserve}"),
    ("dead in party", dead_left_in, "{name} is dead (HP 0) but still in its party after the end"),
    ("state counts", negative_state, "{name} has a negative state count: {states}"),
    ("max hp", above_max, "{name} has HP {hp} above its max HP {max}"),
    ("swords once", sword_twice, "sword {id} ({card}) is held twice"),
    ("party order", reordered, "party A is out of order: {names}"),
    ("exits", alive_exit, "{name} exited with HP {hp} and overkill {overkill}"),
    ("log end", line_after_result, "the log does not end with the result"),
]


def test_the_clean_battle_breaks_nothing(rules: Rules, finished: Battle) -> None:
    specs = _party(rules, "twins") + _party(rules, "bulwark")
    assert battle_invariants.broken(finished) == []
    assert fuzz.check(rules, _party(rules, "twins"), _party(rules, "bulwark"), {}) == []
    assert fuzz.read_back(rules, specs) == []


@pytest.mark.parametrize(("name", "plant", "expected"), BATTLE_PLANTS, ids=[p[1].__name__ for p in BATTLE_PLANTS])
def test_each_planted_battle_breakage_is_reported_alone(finished: Battle, name: str, plant: BattlePlant,
                                                        expected: str) -> None:
    s = _copy(finished)
    values = plant(s)
    assert battle_invariants.broken(s) == [(name, expected.format(**values))]
    assert fuzz.violations(s) == [expected.format(**values)]


def test_the_battle_table_plants_every_invariant() -> None:
    assert sorted({name for name, *_ in BATTLE_PLANTS}) == sorted(name for name, _ in battle_invariants.INVARIANTS)


def test_check_reports_a_battle_that_replays_differently(rules: Rules, finished: Battle,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    again = _copy(finished)
    again.log[5] += " (differently)"
    assert battle_invariants.replayed(finished, again) == ["the replay differs"]
    assert battle_invariants.replayed(finished, _copy(finished)) == []
    real, runs = fuzz.run, []

    def second_run_differs(s: Battle) -> Battle:  # a planted nondeterminism: the second play logs more
        runs.append(real(s))
        runs[-1].log[1:1] = ["T0 an extra line"] * (len(runs) - 1)
        return runs[-1]

    monkeypatch.setattr(fuzz, "run", second_run_differs)
    assert fuzz.check(rules, _party(rules, "twins"), _party(rules, "bulwark"), {}) == ["the replay differs"]


def test_check_reports_a_party_line_that_does_not_read_back(rules: Rules) -> None:
    twins = _party(rules, "twins")
    spaced = replace(twins[0], name=twins[0].name + " ")  # the line strips it: another name comes back
    hashed = replace(twins[1], name="Ed#da")  # the line reads as a comment after 'Ed': an error
    found = fuzz.check(rules, [spaced, hashed], _party(rules, "bulwark"), {})
    lines = [format_swordsman(spec) for spec in (spaced, hashed)]
    assert found == [f"the party line '{line}' does not read back as itself" for line in lines]


def test_check_reports_a_crash(rules: Rules) -> None:
    broken = [replace(_party(rules, "twins")[0], swords=("Sword Nobody Forged",))]
    assert fuzz.check(rules, broken, _party(rules, "bulwark"), {}) == ["exception KeyError: 'Sword Nobody Forged'"]


def test_docs_name_every_invariant() -> None:
    text = " ".join((ROOT / "docs" / "fuzzing.md").read_text(encoding="utf-8").split())
    paragraph = text[text.index("The invariants are named checks"):].split(" Each one is proven")[0]
    names = [name for name, _ in invariants.INVARIANTS + battle_invariants.INVARIANTS]
    assert [name for name in names if not re.search(rf"\b{re.escape(name)}\b", paragraph)] == []
