"""``gymnasium.make_vec(id, num_envs)`` with no other argument: same-step autoreset, never an all-zero mask."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import poker_envs  # noqa: F401  (registers the ids)
from wrappers.registration import make_vector_env
from wrappers.vector_env import VectorSingleAgentEnv


def _zero_mask_steps(envs: gymnasium.vector.VectorEnv, steps: int, seed: int) -> tuple[int, int]:
    """(steps whose returned mask is all zero, hands finished) over ``steps`` vector steps of random legal play."""
    _, info = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    zero = finished = 0
    for _ in range(steps):
        mask = np.asarray(info["action_mask"]).astype(bool)
        zero += int((~mask.any(axis=1)).sum())
        actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])
        _, _, terminated, truncated, info = envs.step(actions)
        finished += int(terminated.sum() + truncated.sum())
    zero += int((~np.asarray(info["action_mask"]).astype(bool).any(axis=1)).sum())
    return zero, finished


@pytest.mark.parametrize(("env_id", "kwargs"), [("poker_envs/LeducHoldem-v0", {}), ("poker_envs/NoLimitHoldem-v0", {"num_players": 6})])
def test_make_vec_defaults_never_give_an_all_zero_mask(env_id: str, kwargs: dict) -> None:
    envs = gymnasium.make_vec(env_id, num_envs=100, **kwargs)  # 100 tables x 100 steps = 10,000 steps
    assert isinstance(envs, VectorSingleAgentEnv)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    zero, finished = _zero_mask_steps(envs, 100, seed=0)
    assert finished > 2_000  # hands did end, and each one's step came back with the next hand's mask
    assert zero == 0


@pytest.mark.parametrize("env_id", ["poker_envs/Threshold-v0", "poker_envs/KuhnPoker-v0"])
def test_games_without_a_batched_engine_or_other_opponents_reset_in_the_same_step(env_id: str) -> None:
    envs = gymnasium.make_vec(env_id, num_envs=4, opponent="fold")  # "fold": no batched form, SingleAgentEnv copies
    assert isinstance(envs, gymnasium.vector.SyncVectorEnv)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    zero, finished = _zero_mask_steps(envs, 200, seed=1)
    assert finished > 100
    assert zero == 0


def test_explicit_sync_mode_keeps_gymnasiums_next_step_default() -> None:
    envs = gymnasium.make_vec("poker_envs/KuhnPoker-v0", num_envs=2, vectorization_mode="sync")
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    zero, _ = _zero_mask_steps(envs, 50, seed=2)
    assert zero > 0  # the finished hand's step: all-zero mask, and the next action is ignored


def test_make_vector_env_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        make_vector_env("leduc_holdem_v0", num_envs=0)
    with pytest.raises(ValueError, match="env_module"):
        make_vector_env("no_such_game_v0", num_envs=2)
