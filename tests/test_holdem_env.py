"""The hold'em AEC environments: PettingZoo's own API and seed tests, registration, config errors,
illegal actions, button rotation, fixed deals, rewards, encoders and rendering."""

from __future__ import annotations

import warnings

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, seed_test

import poker_envs
from poker_envs import limit_holdem_v0, nolimit_holdem_v0
from poker_envs.core.cards import cards_from_str

from conftest import play_random_hand

SIZINGS = ["abstract", "chips", (0.33, 0.75, 1.5)]


def play_random(env, seed: int, max_steps: int = 10_000) -> int:
    """Play one hand with uniform legal actions; return the number of player decisions."""
    env.reset(seed=seed)
    decisions: list[int] = []
    play_random_hand(env, np.random.default_rng(seed), max_steps,
                     on_step=lambda agent, obs, action: decisions.extend([] if action is None else [action]))
    return len(decisions)


@pytest.mark.parametrize("num_players", [2, 6])
@pytest.mark.parametrize("bet_sizing", SIZINGS, ids=str)
def test_nolimit_pettingzoo_api_and_seed(num_players: int, bet_sizing) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test resets with options={"options": 1}, which we warn about
        api_test(nolimit_holdem_v0.env(num_players=num_players, bet_sizing=bet_sizing), num_cycles=300)
        seed_test(lambda: nolimit_holdem_v0.env(num_players=num_players, bet_sizing=bet_sizing), num_cycles=300)


@pytest.mark.parametrize("num_players", [2, 6])
def test_limit_pettingzoo_api_and_seed(num_players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(limit_holdem_v0.env(num_players=num_players), num_cycles=300)
        seed_test(lambda: limit_holdem_v0.env(num_players=num_players), num_cycles=300)


def test_registered_in_pettingzoo() -> None:
    assert poker_envs.__name__ == "poker_envs"
    env = pettingzoo.make("aec", "poker_envs/nolimit_holdem-v0", num_players=6)
    env.reset(seed=0)
    assert env.possible_agents == [f"player_{i}" for i in range(6)]
    env = pettingzoo.make("aec", "poker_envs/limit_holdem-v0")
    env.reset(seed=0)
    assert env.action_space("player_0").n == 3


def test_illegal_action_in_raw_env_names_the_legal_ones() -> None:
    env = limit_holdem_v0.raw_env()
    env.reset(seed=0, options={"button": 0})
    # The button (seat 0) faces the big blind: fold, call, raise are all legal; after a call the big
    # blind may not fold (checking is free).
    env.step(1)
    with pytest.raises(ValueError, match=r"legal actions: \[1, 2\]"):
        env.step(0)


def test_illegal_action_in_wrapped_env_forfeits_the_hand_with_penalty() -> None:
    env = limit_holdem_v0.env()
    env.reset(seed=0, options={"button": 0})
    env.step(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(0)  # the big blind folds where checking is free: illegal, forfeited as a fold
    assert all(env.terminations.values())
    # It loses its big blind (1 BB) to the button and the penalty (1 BB) more.
    assert env.rewards == {"player_0": 1.0, "player_1": -2.0}


def test_illegal_move_in_a_hand_without_decisions_plays_the_pass_and_costs_the_penalty() -> None:
    """Both all-in on the blinds: nothing left to fold, so the illegal move is the pass plus the penalty."""
    env = nolimit_holdem_v0.env(num_players=2, starting_stack=1, reward_unit="chips")
    env.reset(seed=3, options={"hole": [cards_from_str("AcAd"), cards_from_str("2c7d")], "board": cards_from_str("KhQh9s5s3c")})
    with pytest.warns(UserWarning, match="illegal move 0"):
        env.step(0)  # player_0's only legal action is the pass (1)
    assert env.agent_selection == "player_1" and not any(env.terminations.values())
    env.step(1)
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 1.0 - 1.0, "player_1": -1.0}  # aces win the blind; the penalty is -1
    assert env.infos["player_0"].get("illegal_action") and not env.infos["player_1"].get("illegal_action")


@pytest.mark.parametrize(
    "module, kwargs, match",
    [
        (nolimit_holdem_v0, {"num_players": 11}, "num_players"),
        (nolimit_holdem_v0, {"num_players": 1}, "num_players"),
        (nolimit_holdem_v0, {"starting_stack": -5}, "starting_stack"),
        (nolimit_holdem_v0, {"starting_stack": [100, 0]}, r"starting_stack\[1\]"),
        (nolimit_holdem_v0, {"starting_stack": [100, 100, 100]}, "starting_stack"),
        (nolimit_holdem_v0, {"small_blind": 3, "big_blind": 2}, "big_blind"),
        (nolimit_holdem_v0, {"ante": -1}, "ante"),
        (nolimit_holdem_v0, {"bet_sizing": "pot"}, "bet_sizing"),
        (nolimit_holdem_v0, {"bet_sizing": (0.5, -1.0)}, "bet_sizing"),
        (nolimit_holdem_v0, {"reward_unit": "dollars"}, "reward_unit"),
        (nolimit_holdem_v0, {"obs_encoder": "nope"}, "obs_encoder"),
        (nolimit_holdem_v0, {"render_mode": "rgb"}, "render_mode"),
        (limit_holdem_v0, {"allow_fold_when_check": "yes"}, "allow_fold_when_check"),
        (nolimit_holdem_v0, {"allow_fold_when_check": "yes"}, "allow_fold_when_check"),
        (limit_holdem_v0, {"big_blind": 0}, "big_blind"),
    ],
)
def test_config_errors_name_the_argument(module, kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        module.raw_env(**kwargs)


def test_unknown_constructor_argument_is_refused() -> None:
    with pytest.raises(TypeError):
        nolimit_holdem_v0.raw_env(fold_when_check=True)  # the argument is allow_fold_when_check


def test_button_rotates_each_reset_and_options_fix_it() -> None:
    env = nolimit_holdem_v0.raw_env(num_players=3)
    buttons = []
    for k in range(4):
        env.reset(seed=1 if k == 0 else None)
        buttons.append(env.state.button)
    assert buttons == [0, 1, 2, 0]
    env.reset(options={"button": 2})
    assert env.state.button == 2
    env.reset()
    assert env.state.button == 0
    with pytest.raises(ValueError, match="button"):
        env.reset(options={"button": 3})
    with pytest.warns(UserWarning, match="cards"):
        env.reset(options={"cards": 1})


def test_fixed_deal_and_rewards_in_big_blinds_and_chips() -> None:
    hole = [cards_from_str("AsAh"), cards_from_str("7c2d")]
    board = cards_from_str("AdAc3s9h5d")
    for unit, scale in (("big_blinds", 0.5), ("chips", 1.0)):
        env = nolimit_holdem_v0.env(reward_unit=unit)
        env.reset(seed=0, options={"button": 1, "hole": hole, "board": board})
        # Seat 1 (button) shoves, seat 0 (quad aces) calls: seat 0 wins seat 1's 200 chips.
        assert env.agent_selection == "player_1"
        env.step(5)
        env.step(1)
        assert all(env.terminations.values())
        assert env.rewards == {"player_0": 200 * scale, "player_1": -200 * scale}


def test_deck_option_deals_in_documented_order() -> None:
    env = limit_holdem_v0.raw_env(num_players=3)
    deck = list(range(51, 40, -1))
    env.reset(options={"button": 0, "deck": deck})
    # Seat 1 (left of the button) gets deck[0] and deck[3], seat 2 deck[1], deck[4], seat 0 deck[2], deck[5].
    assert env.state.hole == [[49, 46], [51, 48], [50, 47]]


def test_hands_terminate_within_max_game_length() -> None:
    for module, kw in ((nolimit_holdem_v0, {"bet_sizing": "chips"}), (limit_holdem_v0, {})):
        env = module.env(num_players=6, **kw)
        longest = max(play_random(env, seed) for seed in range(40))
        assert longest <= env.unwrapped.game.max_game_length


@pytest.mark.parametrize("name", ["default", "poker_cnn", "flat107", "flat56"])
def test_encoders_by_name_give_observations_in_their_space(name: str) -> None:
    env = nolimit_holdem_v0.env(num_players=3, obs_encoder=name)
    env.reset(seed=3)
    space = env.observation_space("player_0")["observation"]
    for _ in range(5):
        obs, *_ = env.last()
        assert space.contains(obs["observation"]), name
        env.step(1)
        if all(env.terminations.values()):
            break


def test_default_observation_contents() -> None:
    env = nolimit_holdem_v0.raw_env(num_players=2)
    hole = [cards_from_str("AsKd"), cards_from_str("7c2d")]
    env.reset(options={"button": 0, "hole": hole, "board": cards_from_str("2c3c4c5c6c")})
    obs = env.observe("player_0")["observation"]
    assert obs.dtype == np.float32
    assert sorted(np.flatnonzero(obs[:52])) == sorted(hole[0])
    assert not obs[52:104].any() and obs[104] == 1  # no board yet, pre-flop
    assert obs[108] == 1  # seat 0 is the button
    seats = obs[110 : 110 + 10].reshape(2, 5)
    assert list(seats[0]) == [99.5, 0.5, 0.5, 0, 0] and list(seats[1]) == [99.0, 1.0, 1.0, 0, 0]
    # pot 1.5 BB, 0.5 BB to call, raise to 2..100 BB possible, both players in.
    assert list(obs[120:]) == [1.5, 0.5, 2.0, 100.0, 1.0, 1.0]
    # The opponent's observation holds his own cards only.
    other = env.observe("player_1")["observation"]
    assert sorted(np.flatnonzero(other[:52])) == sorted(hole[1])


def test_render_shows_table_and_result() -> None:
    env = nolimit_holdem_v0.env(num_players=2, render_mode="ansi")
    hole = [cards_from_str("AsAh"), cards_from_str("7c2d")]
    env.reset(options={"button": 1, "hole": hole, "board": cards_from_str("AdAc3s9h5d")})
    text = env.render()
    assert "seat 1 to act" in text and "AsAh" in text and "BTN" in text
    env.step(5)
    env.step(1)
    text = env.render()
    assert "hand over" in text and "seat 0 wins 400" in text and "seat 0 +200" in text and "AdAc3s9h5d" in text


@pytest.mark.parametrize("module", [nolimit_holdem_v0, limit_holdem_v0])
def test_episode_rewards_sum_to_zero_and_match_the_engine(module) -> None:
    env = module.env(num_players=5, starting_stack=[40, 200, 75, 13, 300])
    rng = np.random.default_rng(4)
    for hand in range(60):
        env.reset(seed=hand if hand % 10 == 0 else None)
        totals = play_random_hand(env, rng)
        chips = env.unwrapped.state.chip_returns()
        assert sum(chips) == 0
        assert [totals[a] for a in env.possible_agents] == [c / 2 for c in chips]  # big blind is 2 chips
