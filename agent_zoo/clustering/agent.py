"""A cluster's learner as a zoo agent: plays limit hold'em from its flat107 / flat56 observations.

``mode="sample"`` (default) draws the action from the learner's softmax over the legal actions, so the
agent keeps the mixture of actions its cluster showed; ``mode="argmax"`` plays the most likely legal
action, as the thesis' learners did (which drifts to the cluster's majority action: its Table 5.6).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch

from agent_zoo.agent import Agent, Observation
from agent_zoo.clustering.learners import Learner

MODES = ("sample", "argmax")


class ClusteredPolicyAgent(Agent):
    """Plays the action distribution a cluster's learner predicts, restricted to legal actions."""

    def __init__(self, learner: Learner, encoder: str, mode: str = "sample", name: str = "cluster") -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        if learner.spec.task != "classification":
            raise ValueError("a ClusteredPolicyAgent needs a classification learner (one output per action)")
        self.learner, self.encoder, self.mode, self.name = learner, encoder, mode, name
        self.obs_dim, self.num_actions = learner.spec.sizes[0], learner.spec.sizes[-1]

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        obs = np.asarray(observation["observation"], dtype=np.float32)
        if obs.shape != (self.obs_dim,):
            raise ValueError(f"{self.name}: expects {self.encoder} observations of {self.obs_dim} features, got shape {obs.shape}")
        mask = np.asarray(observation["action_mask"], dtype=np.float64)
        if mask.shape != (self.num_actions,) or mask.sum() == 0:
            raise ValueError(f"{self.name}: action_mask must be {self.num_actions} entries with a legal one, got {mask.tolist()}")
        probs = self.learner.probabilities(obs)[0] * mask
        if probs.sum() <= 0:
            return mask / mask.sum()
        if self.mode == "argmax":
            return np.eye(self.num_actions)[int(np.argmax(probs))]
        return probs / probs.sum()

    def act(self, observation: Observation, rng: np.random.Generator) -> int:
        probs = self.action_probabilities(observation)
        if self.mode == "argmax":
            return int(np.argmax(probs))
        return int(rng.choice(self.num_actions, p=probs))

    def save(self, path: str | Path, **meta: Any) -> None:
        """Write the learner, encoder name and mode (plus ``meta``) to ``path`` (torch.save)."""
        torch.save({"learner": self.learner.state(), "encoder": self.encoder, "mode": self.mode, "meta": meta}, Path(path))

    @classmethod
    def load(cls, path: str | Path, mode: str | None = None) -> ClusteredPolicyAgent:
        blob = torch.load(Path(path), weights_only=False)
        return cls(Learner.from_state(blob["learner"]), blob["encoder"], mode or blob["mode"], name=f"cluster:{path}")


def load_cluster_agent(path: str | Path, env: Any) -> ClusteredPolicyAgent:
    """Registry entry ``cluster:<path>``: checks that the env is limit hold'em with the policy's encoder size."""
    agent = ClusteredPolicyAgent.load(path)
    base = getattr(env, "unwrapped", env)
    game = getattr(getattr(base, "game", None), "name", None)
    if game != "limit_holdem":
        raise ValueError(f"agent cluster:{path} plays limit hold'em, not {game}")
    first = env.possible_agents[0]
    dim = int(np.prod(env.observation_space(first)["observation"].shape))
    if dim != agent.obs_dim:
        raise ValueError(
            f"agent cluster:{path} was trained on {agent.encoder} ({agent.obs_dim} features); this env gives {dim}: "
            f"create it with obs_encoder={agent.encoder!r}"
        )
    return agent
