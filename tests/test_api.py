"""The game API (tools/api, docs/api.md) on every card-game ruleset: seeded random games, OpenSpiel style.

Each game checks at every step: the legal actions lie in the action space, sorted, and match the mask;
a clone serializes equal and plays on identically; a serialized state comes back equal and plays on
identically; an observation does not change when only cards the player cannot see change (while the state
does); returns lie in [-1, 1], sum to zero for two players, and are zero until the end; the game ends.
A planted leak makes the hidden-card check fail. Every ```python block of docs/api.md runs.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys

import pytest

from runtime import engine
from runtime import query as q
from tests.conftest import ROOT
from tools import api
from tools.api import observe

CONFIGS = [("simple_duel", None), ("code_of_joker", "v1"), ("code_of_joker", "v2"), ("successor", None),
           ("war_vortex_night", None)]
SEEDS = range(3)
CHECKED_MOVES = 300  # the full checks run on the first moves of each game; the game is then played out
MAX_MOVES = 5_000  # a game still running after this many actions fails the length check
DOC = ROOT / "docs" / "api.md"


@pytest.fixture(scope="module", params=CONFIGS, ids=[f"{r}-{v}" if v else r for r, v in CONFIGS])
def game(request) -> api.Game:
    ruleset, version = request.param
    return api.load(ruleset, rules=version)


def _hidden(s, viewer: int, cid: int) -> bool:
    """Return whether the rules hide a card from the viewer (docs/api.md, Observations): in a deck, in another
    player's hidden zone, or face down under another player's control. Written apart from tools/api."""
    c, flags = s.cards[cid], s.game.ruleset.zones.get(s.cards[cid].zone, ())
    theirs = c.controller != viewer
    return c.zone == "deck" or ("hidden" in flags and theirs) or (c.face_down and theirs)


def _may_be(s, cid: int, name: str) -> bool:
    """Return whether a hidden card could be a card of another name: any, in a hand; on the field, face down,
    one of its kind (a face-down card's kind lays it face down, and its static abilities still apply)."""
    kind = s.game.cards[s.cards[cid].name].kind
    public = "hidden" not in s.game.ruleset.zones.get(s.cards[cid].zone, ())
    return name != s.cards[cid].name and (not public or s.game.cards[name].kind == kind)


def _hidden_variants(state: api.State, viewer: int) -> list[api.State]:
    """Return copies of a state that differ from it only in cards the viewer cannot see: a hidden card's
    identity swapped with a deck card's that it could be, and each deck (the viewer's own too) in reverse order."""
    out = []
    s = state.raw
    for p, player in enumerate(s.players):
        deck = player.zones.get("deck", [])
        if len(deck) >= 2 and len({s.cards[c].name for c in deck}) > 1:
            copy = state.clone()
            copy.raw.players[p].zones["deck"].reverse()
            out.append(copy)
        unseen = {c.zone: c.id for c in reversed(s.cards)  # the first card of each zone the viewer cannot see
                  if c.controller == p and c.zone != "deck" and _hidden(s, viewer, c.id)}
        for cid in unseen.values():
            other = next((d for d in deck if _may_be(s, cid, s.cards[d].name)), None)
            if other is not None:
                copy = state.clone()
                a, b = copy.raw.own(cid), copy.raw.own(other)  # a clone shares records until written
                a.name, b.name = b.name, a.name
                copy.raw.touch()
                out.append(copy)
    return out


def hidden_leaks(state: api.State) -> list[str]:
    """Return where a player's observation changed with cards that player cannot see."""
    problems = []
    for viewer in range(len(state.raw.players)):
        seen, flat = state.observation(viewer), state.observation_tensor(viewer)
        for variant in _hidden_variants(state, viewer):
            assert (variant.raw.cards, variant.raw.players) != (state.raw.cards, state.raw.players)  # it differs
            if variant.observation(viewer) != seen or variant.observation_tensor(viewer) != flat:
                problems.append(f"P{viewer + 1} sees a change in hidden cards at turn {state.raw.turn}")
    return problems


def _check_step(game: api.Game, state: api.State, rng: random.Random) -> None:
    """Check one state of a game: actions, mask, clone, round trip, hidden cards, returns."""
    legal = state.legal_actions()
    assert legal == sorted(set(legal)) and all(0 <= a < game.num_actions for a in legal)
    mask = state.legal_action_mask()
    assert len(mask) == game.num_actions and [a for a, m in enumerate(mask) if m] == legal
    assert all(state.action_to_string(a) for a in legal)
    assert [state.string_to_action(state.action_to_string(a)) for a in legal] == legal
    clone, restored = state.clone(), api.deserialize(state.serialize())
    assert clone.serialize() == state.serialize() == restored.serialize()
    for player in range(len(state.raw.players)):
        assert len(state.observation_tensor(player)) == game.observation_size
    assert hidden_leaks(state) == []
    s = state.raw
    assert all(observe.sees(s, v, c.id) != _hidden(s, v, c.id) for v in range(len(s.players)) for c in s.cards)
    assert state.returns() == [0.0] * len(state.raw.players)
    action = rng.choice(legal)
    for copy in (clone, restored):
        copy.apply_action(action)
    state.apply_action(action)
    assert clone.serialize() == state.serialize() == restored.serialize()


def _play(game: api.Game, seed: int, decks: list | None = None, checked: int = CHECKED_MOVES) -> api.State:
    """Play a seeded random game to its end, checking its first `checked` states in full."""
    state, rng = game.new_state(decks, seed=seed), random.Random(seed)
    moves = 0
    while not state.is_terminal():
        assert moves < MAX_MOVES, "the game did not end"
        assert state.current_player in range(len(state.raw.players))
        if moves < checked:
            _check_step(game, state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        moves += 1
    return state


def _check_end(state: api.State) -> None:
    """Check a finished game: no actions, no decider, returns in bounds (zero-sum for two players)."""
    assert state.legal_actions() == [] and sum(state.legal_action_mask()) == 0
    assert state.current_player == api.TERMINAL
    returns = state.returns()
    assert all(-1.0 <= r <= 1.0 for r in returns)
    if len(returns) == 2:
        assert sum(returns) == 0.0
    assert state.raw.turn <= engine.MAX_TURNS


@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_keep_the_api_contract(game, seed):
    _check_end(_play(game, seed))


def test_four_teams_play_to_an_end_with_returns_in_bounds():
    game = api.load("war_vortex_night")
    teams = game.sample_decks()[:4]
    state = _play(game, 5, teams, checked=40)
    assert len(state.returns()) == 4 and len(state.observation_tensor(3)) == game.observation_size
    _check_end(state)


def _face_down_state() -> api.State:
    """Return a Code of Joker state where a card lies face down on the field (set into the trigger zone)."""
    state, rng = api.load("code_of_joker", rules="v1").new_state(seed=0), random.Random(0)
    while not any(c.face_down and c.zone != "deck" for c in state.raw.cards):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _sees_all(s, viewer, cid):
    return True


def _sees_face_down(s, viewer, cid):
    return q.sees(s, viewer, cid)  # forgets that a face-down card hides from the other players


def _sees_own_deck(s, viewer, cid):
    return q.sees(s, viewer, cid) or (s.cards[cid].zone == "deck" and s.cards[cid].controller == viewer)


@pytest.mark.parametrize("leak", [_sees_all, _sees_face_down, _sees_own_deck])
def test_a_planted_leak_is_caught(monkeypatch, leak):
    state = _face_down_state()
    assert hidden_leaks(state) == []
    monkeypatch.setattr(observe, "sees", leak)
    monkeypatch.setattr(observe, "in_view", leak)
    assert hidden_leaks(state)


def test_the_leak_check_checks_something_wherever_cards_are_hidden(game):
    state = game.new_state(seed=0)
    for viewer in range(len(state.raw.players)):
        hidden = [c.id for c in state.raw.cards if _hidden(state.raw, viewer, c.id)]
        assert bool(_hidden_variants(state, viewer)) == bool(hidden)  # War of the Vortex Night hides nothing


def test_the_action_space_is_fixed_by_the_rules_not_the_state(game):
    other = api.load(game.name, options=game.options)
    assert other.num_actions == game.num_actions and other.observation_size == game.observation_size
    state = game.new_state(seed=1)
    for a in state.legal_actions():
        assert game.space.encode(game.space.decode(a)) == a


def test_a_clone_reseeded_and_written_leaves_its_state_as_it_was(game):
    state = game.new_state(seed=2)
    before = state.serialize()
    copy = state.clone()
    copy.raw.rng.seed(99)  # as docs/api.md says, for other outcomes from the same position
    copy.raw.own(0).damage += 1
    copy.apply_action(copy.legal_actions()[0])
    assert state.serialize() == before and copy.serialize() != before


def test_marguerite_is_refused_naming_the_card_games():
    with pytest.raises(api.ApiError, match="automatic battles.*simple_duel"):
        api.load("marguerite")


@pytest.mark.parametrize("call, message", [
    (lambda: api.load("no_such_rules"), "no compiled ruleset 'no_such_rules'"),
    (lambda: api.load("../x"), "no compiled ruleset"),
    (lambda: api.load("code_of_joker", rules="v9"), "option 'version' is one of v1, v2, not 'v9'"),
    (lambda: api.load("simple_duel", options={"speed": "fast"}), "has no option 'speed'"),
    (lambda: api.load("simple_duel").new_state(["no_such_deck"]), "no deck or team 'no_such_deck'"),
    (lambda: api.load("simple_duel").new_state([["Nothing Card"]] * 2), "unknown card 'Nothing Card'"),
    (lambda: api.load("simple_duel").new_state(seed=1).apply_action(-1), "not legal now"),
    (lambda: api.load("simple_duel").new_state(seed=1).apply_action("done"), "action 'done' is not legal now"),
    (lambda: api.load("simple_duel").new_state(seed=1).observation(2), "no player 2"),
    (lambda: api.deserialize("{}"), "not a serialized state"),
    (lambda: api.deserialize("nonsense"), "not a serialized state"),
    (lambda: api.load("successor").deserialize(api.load("simple_duel").new_state(seed=1).serialize()),
     "the state is of simple_duel"),
])
def test_bad_requests_are_clear_errors(call, message):
    with pytest.raises(api.ApiError, match=re.escape(message)):
        call()


def test_an_action_beyond_the_space_is_refused():
    space = api.load("simple_duel").space
    with pytest.raises(api.ActionSpaceError, match="beyond"):
        space.encode(("target", space.card_slots))
    with pytest.raises(api.ActionSpaceError, match="not in"):
        space.decode(space.size)


def python_blocks() -> list[tuple[int, str]]:
    """Return each ```python block of docs/api.md with the line it starts on."""
    blocks, body, start = [], [], 0
    for number, line in enumerate(DOC.read_text(encoding="utf-8").splitlines(), 1):
        if start == 0 and line.strip() == "```python":
            start, body = number + 1, []
        elif start and line.strip() == "```":
            blocks.append((start, "\n".join(body) + "\n"))
            start = 0
        elif start:
            body.append(line)
    return blocks


def test_every_example_of_the_api_page_runs():
    blocks = python_blocks()
    assert len(blocks) >= 5
    namespace: dict = {}
    for line, code in blocks:  # in order, in one namespace: later examples go on with earlier names
        exec(compile(code, f"{DOC}:{line}", "exec"), namespace)


def test_the_readme_example_plays_a_game_and_prints_what_it_says(capsys: pytest.CaptureFixture[str]) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Game API"):readme.index("## Balance tournaments")]
    code = re.search(r"```python\n(.*?)```", section, flags=re.S)
    said = re.search(r"It prints `([^`]+)`", section)
    assert code and said and len(code.group(1).splitlines()) <= 10
    exec(compile(code.group(1), "README.md", "exec"), {})
    assert capsys.readouterr().out == said.group(1) + "\n"


def test_the_api_page_names_every_public_name():
    text = DOC.read_text(encoding="utf-8")
    public = [n for n in dir(api.State) + dir(api.Game) if not n.startswith("_")] + api.__all__
    assert [n for n in sorted(set(public)) if f"`{n}" not in text and f".{n}" not in text] == []


def test_the_table_of_sizes_is_the_games_own():
    rows = re.findall(r"^\| `(\w+)`(?:, `rules=\"(\w+)\"`)? \| (\d+) \| (\d+) × (\d+) \| (\d+) \|$",
                      DOC.read_text(encoding="utf-8"), re.M)
    assert [(r, v or None) for r, v, *_ in rows] == CONFIGS
    for ruleset, version, actions, kinds, width, observed in rows:
        game = api.load(ruleset, rules=version or None)
        assert (game.num_actions, len(game.space.kinds), game.space.width, game.observation_size) == (
            int(actions), int(kinds), int(width), int(observed))


def test_a_stale_build_is_refused(tmp_path):
    for folder in ("cards", "generated", "compiler", "runtime", "tools", "grammar"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    ruleset = tmp_path / "cards" / "simple_duel" / "ruleset.card"
    ruleset.write_text(ruleset.read_text(encoding="utf-8").replace("starts at 20", "starts at 7"), encoding="utf-8")
    code = "from tools import api\ntry:\n    api.load('simple_duel')\nexcept api.ApiError as err:\n    print(err)\n"
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.stdout == "generated/ is stale (cards/simple_duel/ruleset.card changed); run `cardc build`\n"
