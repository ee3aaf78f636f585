"""The RL adapters (tools/rl; docs/api.md, "Reinforcement learning adapters") under their libraries' checks.

PettingZoo's api_test and seed_test pass for every ruleset's AEC environment, Gymnasium's check_env for
the single-seat environment; seeded resets repeat a game exactly; masked random games end with rewards
that are the game's returns (summing to zero for two players); an agent sees only its own view; the move
cap truncates; illegal actions raise (AEC) or lose (Gymnasium, by default); the example runs.
"""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from tests.conftest import ROOT
from tools import api
from tools.rl import CardcAECEnv, CardcGymEnv, IllegalActionError, aec
from tools.rl.example import masked_choice, play_aec

CONFIGS = [("simple_duel", None), ("code_of_joker", "v1"), ("code_of_joker", "v2"), ("successor", None),
           ("war_vortex_night", None)]
IDS = [f"{r}-{v}" if v else r for r, v in CONFIGS]
CYCLES = 60  # api_test's play test: this many rounds of every agent (a game's start and middle)
# What api_test says of every environment whose observation is PettingZoo's dict of view and action mask
DICT_CONVENTION = {"Observation space for each agent probably should be gymnasium.spaces.box or "
                   "gymnasium.spaces.discrete", "Observation is not a NumPy array"}


def _messages(caught: list[warnings.WarningMessage]) -> set[str]:
    """Return the texts of caught warnings."""
    return {str(w.message) for w in caught}


@pytest.mark.parametrize(("ruleset", "rules"), CONFIGS, ids=IDS)
def test_pettingzoo_api_test_passes(ruleset, rules):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(CardcAECEnv(ruleset, rules=rules, seed=3), num_cycles=CYCLES)
    assert _messages(caught) <= DICT_CONVENTION


def test_pettingzoo_api_test_passes_for_four_teams():
    teams = api.load("war_vortex_night").sample_decks()[:4]
    env = CardcAECEnv("war_vortex_night", decks=teams, seed=1)
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=20)
    assert _messages(caught) <= DICT_CONVENTION


@pytest.mark.parametrize(("ruleset", "rules"), CONFIGS[:2], ids=IDS[:2])
def test_pettingzoo_seed_test_passes(ruleset, rules):
    seed_test(lambda: CardcAECEnv(ruleset, rules=rules), num_cycles=40)


@pytest.mark.parametrize(("ruleset", "rules"), CONFIGS, ids=IDS)
def test_gymnasium_check_env_passes(ruleset, rules):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(CardcGymEnv(ruleset, rules=rules, seed=5), skip_render_check=True)
    assert _messages(caught) == set()


def test_gymnasium_check_env_passes_on_the_second_seat_against_greedy():
    check_env(CardcGymEnv("simple_duel", opponent="greedy", seat=1, seed=2), skip_render_check=True)


def _aec_trace(env: CardcAECEnv, seed: int | None, moves: int = 80) -> list[tuple[str, bytes, int | None]]:
    """Return the agents, observations and masked random actions of a game's first moves."""
    env.reset(seed=seed)
    rng, trace = np.random.default_rng(0), []
    for agent in env.agent_iter(moves):
        observation, _, terminated, truncated, _ = env.last()
        action = None if terminated or truncated else masked_choice(rng, observation["action_mask"])
        trace.append((agent, observation["observation"].tobytes(), action))
        env.step(action)
    return trace


def test_a_seeded_reset_repeats_the_game_and_another_seed_does_not():
    one, two = CardcAECEnv("simple_duel"), CardcAECEnv("simple_duel")
    assert _aec_trace(one, 11) == _aec_trace(two, 11)
    assert _aec_trace(one, 11) != _aec_trace(one, 12)


def test_resets_without_a_seed_follow_the_sequence_the_seed_started():
    one, two = CardcAECEnv("simple_duel", seed=4), CardcAECEnv("simple_duel")
    assert _aec_trace(one, None) == _aec_trace(two, 4)  # the constructor's seed deals the first game
    assert _aec_trace(one, None) == _aec_trace(two, None)
    assert _aec_trace(one, None) != _aec_trace(one, None)


def test_a_seeded_gym_reset_repeats_observations_and_masks():
    env = CardcGymEnv("successor")
    first, info = env.reset(seed=9)
    again, info_again = env.reset(seed=9)
    assert np.array_equal(first, again) and np.array_equal(info["action_mask"], info_again["action_mask"])
    assert not np.array_equal(first, env.reset(seed=10)[0])


@pytest.mark.parametrize(("ruleset", "rules"), CONFIGS, ids=IDS)
def test_masked_random_games_end_with_the_returns_as_rewards(ruleset, rules):
    env = CardcAECEnv(ruleset, rules=rules, seed=21)
    rng = np.random.default_rng(1)
    for _ in range(2):
        totals = play_aec(env, rng)
        assert env.agents == [] and env.state.is_terminal()
        assert totals == env.state.returns() and sum(totals) == 0
        assert set(totals) <= {-1.0, 0.0, 1.0}


def _view_problems(env: CardcAECEnv) -> list[str]:
    """Return how an environment's observations differ from each seat's own view and legal actions."""
    state, problems = env.state, []
    for seat, agent in enumerate(env.agents):
        seen = env.observe(agent)
        if seen["observation"].tolist() != state.observation_tensor(seat):
            problems.append(f"{agent} does not see its own view")
        legal = state.legal_actions() if seat == state.current_player else []
        if np.flatnonzero(seen["action_mask"]).tolist() != legal:
            problems.append(f"{agent}'s mask is not its legal actions")
    return problems


def test_an_agent_observes_only_its_own_view():
    env = CardcAECEnv("simple_duel", seed=2)
    env.reset()
    acting, waiting = env.observe("player_0"), env.observe("player_1")
    assert not np.array_equal(acting["observation"], waiting["observation"])
    rng = np.random.default_rng(3)
    for agent in env.agent_iter(15):  # the game's first decisions, before the end
        assert _view_problems(env) == [] and not env.terminations[agent]
        env.step(masked_choice(rng, env.observe(agent)["action_mask"]))


@pytest.mark.parametrize("leak", ["deciders_view", "mask_for_all"])
def test_a_planted_view_leak_is_caught(monkeypatch, leak):
    real_view, real_mask = aec.observation_array, aec.mask_array
    if leak == "deciders_view":
        monkeypatch.setattr(aec, "observation_array", lambda state, seat: real_view(state, state.current_player))
    else:
        monkeypatch.setattr(aec, "mask_array", lambda state, seat: real_mask(state, state.current_player))
    env = CardcAECEnv("simple_duel", seed=2)
    env.reset()
    assert _view_problems(env) != []


def test_the_move_cap_truncates_every_agent_with_no_reward():
    env = CardcAECEnv("code_of_joker", rules="v2", seed=1, max_moves=7)
    rng = np.random.default_rng(0)
    totals = play_aec(env, rng)
    assert env.moves == 7
    assert not env.state.is_terminal() and totals == [0.0, 0.0] and env.agents == []
    gym = CardcGymEnv("code_of_joker", rules="v2", seed=1, max_moves=3)
    _, info = gym.reset()
    while True:
        _, reward, terminated, truncated, info = gym.step(masked_choice(rng, info["action_mask"]))
        if terminated or truncated:
            break
    assert truncated and not terminated and reward == 0.0 and info["moves"] >= 3


def test_an_illegal_aec_action_raises_a_clear_error_and_changes_nothing():
    env = CardcAECEnv("simple_duel", seed=3)
    env.reset()
    before = env.state.serialize()
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=rf"action {illegal} \(.*\) is not legal now; choose one"):
        env.step(illegal)
    with pytest.raises(IllegalActionError, match=r"action 99999 is not in the action space \[0, 5320\)"):
        env.step(99999)
    with pytest.raises(IllegalActionError, match="an action is an integer, not 'done'"):
        env.step("done")
    assert env.state.serialize() == before and isinstance(IllegalActionError("x"), ValueError)


def test_an_illegal_gym_action_loses_by_default_and_raises_when_asked():
    env = CardcGymEnv("simple_duel", seed=3)
    _, info = env.reset()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(api.ApiError, match=r"the game is over; call reset\(\)"):
        env.step(0)
    strict = CardcGymEnv("simple_duel", seed=3, illegal="raise")
    strict.reset()
    with pytest.raises(IllegalActionError, match="is not legal now"):
        strict.step(illegal)
    with pytest.raises(IllegalActionError, match=r"action -1 is not in the action space"):
        strict.step(-1)


def test_the_opponent_plays_only_the_other_seats():
    seen: list[int] = []

    def last_action(state: api.State) -> int:
        seen.append(state.current_player)
        return state.legal_actions()[-1]

    env = CardcGymEnv("simple_duel", opponent=last_action, seat=1, seed=6)
    _, info = env.reset()
    assert env.state.current_player == 1
    rng = np.random.default_rng(2)
    for _ in range(30):
        _, _, terminated, truncated, info = env.step(masked_choice(rng, info["action_mask"]))
        assert terminated or env.state.current_player == 1
        if terminated or truncated:
            break
    assert seen and set(seen) == {0}


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"opponent": "clever"}, "opponent is 'random', 'greedy' or a callable (state -> action), not 'clever'"),
    ({"seat": 2}, "seat is one of 0 to 1, not 2"),
    ({"illegal": "ignore"}, "illegal is one of lose, raise, not 'ignore'"),
    ({"render_mode": "rgb_array"}, "render_mode is one of ['human', 'ansi'], not 'rgb_array'"),
])
def test_bad_gym_arguments_are_clear_errors(kwargs, message):
    with pytest.raises(api.ApiError) as err:
        CardcGymEnv("simple_duel", **kwargs).reset()
    assert str(err.value) == message


def test_render_writes_the_board_as_text(capsys):
    env = CardcAECEnv("simple_duel", seed=1, render_mode="ansi")
    env.reset()
    text = env.render()
    assert text == str(env.state) and text.strip()
    human = CardcGymEnv("simple_duel", seed=1, render_mode="human")
    human.reset()
    assert human.render() is None
    assert capsys.readouterr().out == human.state.observation_string(0) + "\n"


def test_using_an_environment_before_reset_is_a_clear_error():
    with pytest.raises(api.ApiError, match=r"call reset\(\) before using the environment"):
        CardcAECEnv("simple_duel").observe("player_0")


def test_the_example_plays_games_through_each_adapter():
    run = subprocess.run([sys.executable, "-m", "tools.rl.example", "--games", "5"], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    lines = run.stdout.splitlines()
    heads = ["pettingzoo AEC", "gymnasium vs random", "AEC reward sums all zero"]
    assert [line.split(":")[0] for line in lines] == heads
    assert "5 games in" in lines[0] and "games/s" in lines[1] and lines[2].startswith(f"{heads[2]}: True")


def test_the_example_refuses_a_bad_ruleset_without_a_traceback():
    run = subprocess.run([sys.executable, "-m", "tools.rl.example", "--ruleset", "nowhere"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 2 and "no compiled ruleset 'nowhere'" in run.stderr
    assert "Traceback" not in run.stderr


def test_without_the_extra_the_import_says_what_to_install():
    code = "import sys; sys.modules['pettingzoo'] = None\nimport tools.rl"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert "tools.rl needs the optional extra [rl]: pip install -e '.[rl]'" in run.stderr
