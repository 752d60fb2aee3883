"""A JAX trainer's checkpoint as a zoo ``Agent`` (spec ``jax:<checkpoint.npz>``): numpy only, no JAX import.

It reads the parameter set the checkpoint's header names as its policy (``params/pi_w0`` ... for
``agent_zoo.jax_ppo``'s learner, ``reg/pi_w0`` ... for ``agent_zoo.jax_rnad``'s regularisation policy),
the run's ``obs_scale`` and the JSON header from a ``checkpoint_<update>.npz`` of either trainer, and plays
the masked soft-max policy of the policy network from ``observation["observation"]`` and
``observation["action_mask"]`` alone; with ``post_process`` (spec ``jax_pp:<checkpoint.npz>``) that policy
post-processed as OpenSpiel's R-NaD played its policies (``agent_zoo.rnad.numpy_net.post_process_policy``:
actions under 3% dropped, probabilities rounded to 1/32), which removes the little mass a soft-max keeps on
bad actions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from agent_zoo.agent import (
    Agent,
    Observation,
    Rngs,
    batch_masks,
    legal_actions,
    sample_from,
    sample_rows,
)
from agent_zoo.jax_common import network as net
from agent_zoo.jax_common.checkpoint import read_header
from agent_zoo.rnad.numpy_net import post_process_policy


class JaxAgent(Agent):
    """Samples from the policy network's soft-max over the legal actions (``rng`` draws, nothing else), or
    from its post-processed form (``post_process``)."""

    name = "jax"

    def __init__(self, params: dict[str, np.ndarray], obs_scale: np.ndarray, info: dict[str, Any] | None = None,
                 post_process: bool = False) -> None:
        self.params = {k: np.asarray(v, np.float32) for k, v in params.items()}
        self.obs_scale = np.asarray(obs_scale, np.float32).ravel()
        self.obs_dim = int(self.obs_scale.size)
        depth = sum(1 for k in self.params if k.startswith("pi_w"))
        self.num_actions = int(self.params[f"pi_w{depth - 1}"].shape[1])
        if self.params["pi_w0"].shape[0] != self.obs_dim:
            raise ValueError(f"policy network takes {self.params['pi_w0'].shape[0]} features, obs_scale has {self.obs_dim}")
        self.info = dict(info or {})  # header: game (rules name), update, config, trainer
        self.post_process = bool(post_process)

    @classmethod
    def load(cls, path: str | Path, post_process: bool = False, parameters: str | None = None) -> JaxAgent:
        """The policy of checkpoint ``path`` (the parameter set its header names, or ``parameters``: another set
        the checkpoint holds, e.g. R-NaD's "target" or "params"), post-processed or not."""
        header = read_header(path)
        prefix = (parameters or header["policy"]) + "/"
        with np.load(Path(path), allow_pickle=False) as data:
            params = {k.removeprefix(prefix): data[k] for k in data.files if k.startswith(prefix) and "/" not in k.removeprefix(prefix)}
            scale = data["obs_scale"]
        if not params:
            raise ValueError(f"parameters: checkpoint {path} holds no parameter set {parameters!r}")
        return cls(params, scale, {"game": header["game"], "update": header["update"], "config": header["config"],
                                   "trainer": header["trainer"]}, post_process)

    def policy(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """(m, A) action probabilities of stacked observations (m, D) and legal masks (m, A)."""
        obs = np.asarray(obs, np.float32).reshape(len(mask), -1)
        if obs.shape[1] != self.obs_dim:
            raise ValueError(f"observation has {obs.shape[1]} features; this policy was trained on {self.obs_dim}")
        probs = net.probabilities(self.params, obs * self.obs_scale, mask)
        return post_process_policy(probs) if self.post_process else probs

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        legal_actions(observation)  # raises if the agent is not to act
        mask = np.asarray(observation["action_mask"])[None]
        return self.policy(np.ravel(observation["observation"])[None], mask)[0]

    def action_probabilities_batch(self, observations: Observation) -> np.ndarray:
        mask = batch_masks(observations)
        return self.policy(np.asarray(observations["observation"]), mask.astype(np.int8))

    def act(self, observation: Observation, rng: np.random.Generator) -> int:
        return sample_from(self.action_probabilities(observation), rng)

    def act_batch(self, observations: Observation, rng: Rngs) -> np.ndarray:
        """One forward pass for all rows, then each row sampled with its generator."""
        return sample_rows(self.action_probabilities_batch(observations), rng)
