"""Vector environments for parameter-shared learning through SuperSuit (optional: ``pip install supersuit``).

A PettingZoo parallel environment whose agents share spaces becomes a vector environment with one
slot per agent (``pettingzoo_env_to_vec_env_v1``), and ``copies`` of it are concatenated
(``concat_vec_envs_v1``); the dict observation is reduced to its ``observation`` array first
(``observation_lambda_v0``), since these games' masks are carried separately. With
``base_class="stable_baselines3"`` the result plugs straight into SB3's ``PPO``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces


def observation_only(parallel_env: Any) -> Any:
    """SuperSuit ``observation_lambda_v0``: keep the ``observation`` array of the dict observations."""
    import supersuit as ss

    return ss.observation_lambda_v0(
        parallel_env,
        lambda obs, obs_space, agent=None: np.asarray(obs["observation"], dtype=np.float32),
        lambda obs_space, agent=None: _observation_part(obs_space),
    )


def _observation_part(space: spaces.Space) -> spaces.Box:
    if not isinstance(space, spaces.Dict) or "observation" not in space.spaces:
        raise ValueError(f"expected a dict observation space with an 'observation' key, got {space}")
    box = space["observation"]
    return spaces.Box(box.low.astype(np.float32), box.high.astype(np.float32), dtype=np.float32)


def vec_env_from_parallel(parallel_env: Any, copies: int = 1, base_class: str = "gymnasium", num_cpus: int = 0) -> Any:
    """``copies`` x (agents) slots; every agent of every copy is one slot of the vector env."""
    import supersuit as ss

    if copies < 1:
        raise ValueError(f"copies must be >= 1, got {copies}")
    if base_class not in ("gymnasium", "stable_baselines3"):
        raise ValueError(f"base_class must be 'gymnasium' or 'stable_baselines3', got {base_class!r}")
    venv = ss.pettingzoo_env_to_vec_env_v1(observation_only(parallel_env))
    venv = ss.concat_vec_envs_v1(venv, copies, num_cpus=num_cpus, base_class="gymnasium")
    return _seeded_sb3(venv) if base_class == "stable_baselines3" else venv


def _seeded_sb3(venv: Any) -> Any:
    """SuperSuit's SB3 adapter with a working ``seed``: SB3 models call ``env.seed(seed)`` at construction,
    which SuperSuit 3.11's adapter forwards to a vector env that has no ``seed`` (AttributeError).
    Here the seed is kept for the next ``reset`` instead, as SB3's own vector envs do."""
    from supersuit.vector.sb3_vector_wrapper import SB3VecEnvWrapper

    class SeededSB3VecEnv(SB3VecEnvWrapper):
        _pending_seed: int | None = None

        def seed(self, seed: int | None = None) -> list[int | None]:
            self._pending_seed = seed
            return [seed] * self.num_envs

        def reset(self, seed: int | None = None, options: dict | None = None) -> np.ndarray:
            if seed is not None:
                self._pending_seed = seed
            observations, self.reset_infos = self.venv.reset(seed=self._pending_seed, options=options)
            self._pending_seed = None
            return observations

    return SeededSB3VecEnv(venv)


def threshold_vec_env(
    num_players: int = 2, alpha: float = 2.0, copies: int = 1, base_class: str = "gymnasium", num_cpus: int = 0
) -> Any:
    """The threshold game (simultaneous bet/fold) as a vector env: one slot per player per copy."""
    from poker_envs import threshold_v0

    return vec_env_from_parallel(threshold_v0.parallel_env(num_players=num_players, alpha=alpha), copies, base_class, num_cpus)
