"""Encoders inside environments: chosen by name or passed as objects, observations in their spaces."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium import spaces

from poker_envs import limit_holdem_v0, nolimit_holdem_v0, push_fold_v0, threshold_v0
from poker_envs.encoders.base import Encoder
from poker_envs.encoders.catalog import HOLDEM_ENCODERS
from poker_envs.encoders.poker_cnn import PokerCNNEncoder, add_candidates
from poker_envs.games.holdem import HoldemConfig, HoldemGame
from poker_envs.games.push_fold import PushFoldConfig, PushFoldGame

from conftest import play_random_hand


class OwnCardsAndPot(Encoder):
    """A user's encoder: own two card ids and the chips put in so far (push/fold: big blinds)."""

    name = "own_cards_and_pot"

    def __init__(self, game) -> None:
        super().__init__(game)
        self.observation_space = spaces.Box(0, 1000, shape=(3,), dtype=np.float32)

    def encode(self, state, player: int) -> np.ndarray:
        hole = state.hole[player]
        pot = sum(state.contributions) if hasattr(state, "contributions") else state.pot()
        return np.array([*hole, pot] if len(hole) == 2 else [0, 0, pot], dtype=np.float32)


def play_random(env, hands: int, seed: int) -> list[dict]:
    """Play random legal actions; return every observation seen by an agent to act, checked against its space."""
    rng = np.random.default_rng(seed)
    seen = []
    for hand in range(hands):
        env.reset(seed=seed + hand)

        def check(agent: str, obs: dict, action: int | None) -> None:
            assert env.observation_space(agent).contains(obs), (agent, obs)
            if action is not None:
                seen.append(obs)

        play_random_hand(env, rng, on_step=check)
    return seen


@pytest.mark.parametrize("name", sorted(HOLDEM_ENCODERS))
def test_holdem_encoders_by_name_in_push_fold(name):
    env = push_fold_v0.env(num_players=3, stack_bb=8.0, ante_bb=0.25, obs_encoder=name)
    seen = play_random(env, 60, seed=4)
    assert len(seen) >= 60
    assert seen[0]["observation"].shape == HOLDEM_ENCODERS[name](PushFoldGame(PushFoldConfig(num_players=3))).observation_space.shape


def test_user_encoder_class_and_object_in_push_fold():
    env = push_fold_v0.env(obs_encoder=OwnCardsAndPot)
    seen = play_random(env, 20, seed=5)
    first = seen[0]["observation"]  # the small blind, before anyone acted: blinds 0.5 + 1
    assert first.shape == (3,) and first[2] == 1.5 and first[0] != first[1]
    game = PushFoldGame(PushFoldConfig(num_players=2, stack_bb=10.0))
    env = push_fold_v0.env(obs_encoder=OwnCardsAndPot(game))
    env.reset(seed=1, options={"deck": [51, 22, 45, 0, 8, 17, 26, 35, 44]})
    obs, *_ = env.last()
    np.testing.assert_array_equal(obs["observation"], [51, 45, 1.5])


def test_encoder_object_for_another_game_is_refused():
    game = PushFoldGame(PushFoldConfig(num_players=3))
    with pytest.raises(ValueError, match="obs_encoder was built for game 'push_fold_3p'"):
        push_fold_v0.env(num_players=2, obs_encoder=OwnCardsAndPot(game))


def test_poker_cnn_refused_by_the_threshold_game():
    with pytest.raises(ValueError, match="poker_cnn.*does not fit game 'threshold'.*not hold'em"):
        threshold_v0.env(num_players=3, obs_encoder=PokerCNNEncoder)


HOLDEM_ENVS = [
    (nolimit_holdem_v0, {"num_players": 2, "bet_sizing": "chips", "starting_stack": [40, 70]}),
    (nolimit_holdem_v0, {"num_players": 6, "ante": 1}),
    (limit_holdem_v0, {"num_players": 3}),
]


@pytest.mark.parametrize("name", sorted(HOLDEM_ENCODERS))
@pytest.mark.parametrize("module,kwargs", HOLDEM_ENVS, ids=lambda x: getattr(x, "__name__", str(x)).split(".")[-1])
def test_holdem_encoders_by_name_in_holdem_envs(module, kwargs, name):
    env = module.env(obs_encoder=name, **kwargs)
    env.reset(seed=0)
    space = env.observation_space("player_0")["observation"]
    assert space.shape == {"poker_cnn": (33, 17, 17), "flat107": (107,), "flat56": (56,)}[name]
    seen = play_random(env, 25, seed=6)
    assert len(seen) >= 50


class PotOnly(Encoder):
    """The example of docs/encoders.md."""

    name = "pot_only"

    def __init__(self, game) -> None:
        super().__init__(game)
        self.observation_space = spaces.Box(0, np.inf, shape=(1,), dtype=np.float32)

    def encode(self, state, player: int) -> np.ndarray:
        return np.array([state.pot()], dtype=np.float32)


def test_user_encoder_in_nolimit_holdem():
    env = nolimit_holdem_v0.env(obs_encoder=PotOnly)
    env.reset(seed=0)
    obs, *_ = env.last()
    np.testing.assert_array_equal(obs["observation"], [3.0])  # blinds 1 + 2 chips
    env.step(1)  # the button calls
    obs, *_ = env.last()
    np.testing.assert_array_equal(obs["observation"], [4.0])
    play_random(env, 10, seed=7)
    game = HoldemGame(HoldemConfig(num_players=2))
    env = nolimit_holdem_v0.env(obs_encoder=PotOnly(game))
    env.reset(seed=0)
    assert env.last()[0]["observation"][0] == 3.0
    with pytest.raises(ValueError, match="built for game 'nolimit_holdem', not 'limit_holdem'"):
        limit_holdem_v0.env(obs_encoder=PotOnly(game))


def test_poker_cnn_in_env_leaves_candidate_planes_zero_and_batches_legal_actions():
    env = nolimit_holdem_v0.raw_env(num_players=2, bet_sizing="chips", obs_encoder="poker_cnn")
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)
    assert not obs["observation"][31:].any()
    legal = np.flatnonzero(obs["action_mask"])
    xs = env.encoder.encode_actions(env.state, env.state.current_player(), legal)
    assert xs.shape == (len(legal), 33, 17, 17)
    np.testing.assert_array_equal(xs[:, :31], np.broadcast_to(obs["observation"][:31], (len(legal), 31, 17, 17)))
    # every raise-to amount is its own candidate: the amount plane grows with the id (2 .. 52+ SB)
    amounts = xs[:, 32].sum(axis=(1, 2))
    assert amounts[0] == 0 and amounts[1] == 1  # fold 0 chips; the button calls 1 more chip
    assert list(amounts[2:6]) == [3, 4, 5, 6]  # raise to 4, 5, 6, 7 chips: 3, 4, 5, 6 more
    # An agent that sees only the observation adds the same candidate planes from kinds and chips (in SB).
    kinds = [env.state.action_to_chips(int(a))[0] for a in legal]
    sb_amounts = [0, 1] + [int(a) - 1 - 1 for a in legal[2:]]  # raise to a - 1 chips; the button had 1 in
    np.testing.assert_array_equal(add_candidates(obs["observation"], kinds, sb_amounts), xs)


def test_uint8_poker_cnn_object_in_the_env():
    game = HoldemGame(HoldemConfig(num_players=2, bet_sizing="chips", starting_stacks=(100, 100)))
    env = nolimit_holdem_v0.env(bet_sizing="chips", starting_stack=100, obs_encoder=PokerCNNEncoder(game, dtype=np.uint8))
    seen = play_random(env, 10, seed=8)
    assert seen[0]["observation"].dtype == np.uint8


# PettingZoo's API test resets with options={"options": 1} only to see that reset takes options; the env reports an
# option it does not use, as it should for a user's typo, so exactly that probe is quieted here.
@pytest.mark.filterwarnings(r"ignore:.*reset options \['options'\] are not used")
@pytest.mark.parametrize("name", sorted(HOLDEM_ENCODERS))
def test_pettingzoo_api_test_with_each_encoder(name):
    from pettingzoo.test import api_test

    api_test(nolimit_holdem_v0.env(obs_encoder=name, num_players=3), num_cycles=200)
    api_test(limit_holdem_v0.env(obs_encoder=name), num_cycles=100)
    api_test(push_fold_v0.env(obs_encoder=name), num_cycles=100)
