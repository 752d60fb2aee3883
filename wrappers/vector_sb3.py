"""A batched game's single-agent view (``VectorSingleAgentEnv``) as a Stable-Baselines3 ``VecEnv``.

``MaskablePPO("MlpPolicy", SB3VectorEnv(VectorSingleAgentEnv("leduc", 256)))`` trains on 256
tables stepped together; sb3-contrib finds the masks through ``env_method("action_masks")``.
SB3's per-env conventions are kept: ``seed(s)`` seeds the next ``reset``, ``infos`` is a list of
dicts (with ``action_mask`` and ``seat``, plus the skipped-hand counts where a hand was skipped).
Episodes end by termination only (a hand), so no ``terminal_observation`` is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices, VecEnvStepReturn

from wrappers.vector_env import VectorSingleAgentEnv


class SB3VectorEnv(VecEnv):
    """One SB3 sub-environment per table; attribute reads and method calls go to the one batched env."""

    def __init__(self, env: VectorSingleAgentEnv) -> None:
        if not isinstance(env, VectorSingleAgentEnv):
            raise TypeError(f"env must be a VectorSingleAgentEnv, not {type(env).__name__}")
        self.env = env
        self._actions: np.ndarray | None = None
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)

    def reset(self) -> np.ndarray:
        seed = self._seeds[0]
        options = self._options[0] or None
        obs, info = self.env.reset(seed=seed, options=options)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = self._infos(info)
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> VecEnvStepReturn:
        if self._actions is None:
            raise RuntimeError("step_wait() called without step_async()")
        obs, rewards, terminated, truncated, info = self.env.step(self._actions)
        self._actions = None
        return obs, rewards, terminated | truncated, self._infos(info)

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seeds the next ``reset`` (one engine, so one seed: the same for every index, as returned)."""
        self._seeds = [seed] * self.num_envs
        return self._seeds

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()

    def close(self) -> None:
        self.env.close()

    # Attribute and method access: the batched env answers once for all tables -----------------
    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return self._per_index(getattr(self.env, attr_name), indices)

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        if indices is not None and list(self._get_indices(indices)) != list(range(self.num_envs)):
            raise ValueError("set_attr applies to every table of the batched env at once; give indices=None")
        setattr(self.env, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any) -> list[Any]:
        """Calls the batched env's method once; a (num_envs, ...) array result is split per table."""
        return self._per_index(getattr(self.env, method_name)(*method_args, **method_kwargs), indices)

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False] * len(list(self._get_indices(indices)))

    def _per_index(self, value: Any, indices: VecEnvIndices) -> list[Any]:
        idx = list(self._get_indices(indices))
        if isinstance(value, np.ndarray) and value.ndim >= 1 and value.shape[0] == self.num_envs:
            return [value[i] for i in idx]
        return [value] * len(idx)

    def _infos(self, info: dict[str, Any]) -> list[dict[str, Any]]:
        masks, seats = info["action_mask"], info["seat"]
        infos = [{"action_mask": masks[i], "seat": int(seats[i])} for i in range(self.num_envs)]
        for i in np.flatnonzero(info["skipped_hands"]):
            infos[i]["skipped_hands"] = int(info["skipped_hands"][i])
            infos[i]["skipped_reward"] = float(info["skipped_reward"][i])
        return infos
