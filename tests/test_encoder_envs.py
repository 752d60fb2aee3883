"""Encoders inside environments: chosen by name or passed as objects, observations in their spaces."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium import spaces

from poker_envs import push_fold_v0, threshold_v0
from poker_envs.encoders.base import Encoder
from poker_envs.encoders.catalog import HOLDEM_ENCODERS
from poker_envs.encoders.poker_cnn import PokerCNNEncoder
from poker_envs.games.push_fold import PushFoldConfig, PushFoldGame


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
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            assert env.observation_space(agent).contains(obs), (agent, obs)
            if term or trunc:
                env.step(None)
                continue
            seen.append(obs)
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
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
