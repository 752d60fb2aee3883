"""Self-play: the learner plays against a frozen copy of its own policy, refreshed when asked.

The learner can be a Stable-Baselines3 / sb3-contrib model (anything with a ``.policy`` that has
``get_distribution``), a zoo ``Agent`` or a function ``obs -> action probabilities``. ``refresh()``
takes a deep copy, so later training does not move the opponent. The frozen copy samples its actions
with the environment's seeded generator (not torch's global one), so runs repeat exactly.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from agent_zoo.agent import Agent, Observation, RandomAgent, sample_from
from wrappers.single_agent import SeatSpec, SingleAgentEnv


def sb3_action_probabilities(policy: Any, observation: Observation, obs_mode: str = "observation") -> np.ndarray:
    """Action probabilities of an SB3 actor-critic policy at one observation, masked when it supports masks."""
    from wrappers.sb3 import masked_probabilities  # lazy: wrappers work without torch until an SB3 learner is used

    obs_tensor, _ = policy.obs_to_tensor(observation if obs_mode == "dict" else observation["observation"])
    return masked_probabilities(policy, obs_tensor, np.asarray(observation["action_mask"], dtype=bool)[None])[0]


class FrozenPolicyAgent(Agent):
    """An Agent that plays a fixed snapshot of a policy (SB3 policy, Agent or probability function)."""

    name = "frozen"

    def __init__(self, snapshot: Any, obs_mode: str = "observation") -> None:
        self.snapshot = snapshot
        self.obs_mode = obs_mode

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        snap = self.snapshot
        if isinstance(snap, Agent):
            probs = snap.action_probabilities(observation)
            if probs is None:
                raise TypeError(f"agent {snap.name!r} has no action_probabilities; use act()")
            return probs
        if hasattr(snap, "get_distribution"):
            return sb3_action_probabilities(snap, observation, self.obs_mode)
        return np.asarray(snap(observation), dtype=np.float64)

    def act(self, observation: Observation, rng: np.random.Generator) -> int:
        if isinstance(self.snapshot, Agent):  # its probabilities once per decision, or its own act() without them
            probs = self.snapshot.action_probabilities(observation)
            return self.snapshot.act(observation, rng) if probs is None else sample_from(probs, rng)
        return sample_from(self.action_probabilities(observation), rng)


def freeze(learner: Any, obs_mode: str = "observation") -> FrozenPolicyAgent:
    """A deep-copied, frozen opponent from an SB3 model (its ``.policy``), an Agent or a probability function."""
    source = learner.policy if hasattr(learner, "policy") and hasattr(learner.policy, "get_distribution") else learner
    if not (isinstance(source, Agent) or hasattr(source, "get_distribution") or callable(source)):
        raise TypeError(f"cannot freeze a {type(learner).__name__}: give an SB3 model, an Agent or a function obs -> probabilities")
    return FrozenPolicyAgent(_clone_policy(source) if hasattr(source, "_get_constructor_parameters") else copy.deepcopy(source), obs_mode)


def _clone_policy(policy: Any) -> Any:
    """A fresh SB3 policy with the same constructor arguments and a copy of the weights.

    (``copy.deepcopy`` fails on SB3 policies that cached a distribution holding non-leaf tensors.)
    """
    clone = type(policy)(**policy._get_constructor_parameters())
    clone.load_state_dict(policy.state_dict())
    clone.to(policy.device)
    clone.set_training_mode(False)
    return clone


class SelfPlayEnv(SingleAgentEnv):
    """A SingleAgentEnv whose every other seat is a frozen copy of ``learner``.

    Until ``set_learner`` is called (an SB3 model is usually built on this env first) the opponent is
    ``initial_opponent`` (random by default). ``refresh()`` re-freezes the current learner; call it between
    training phases (``vec_env.env_method("refresh")`` through a VecEnv). ``generation`` counts refreshes.
    """

    def __init__(
        self,
        env: Any,
        learner: Any = None,
        seat: SeatSpec = "rotate",
        initial_opponent: Agent | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(env, opponents=initial_opponent or RandomAgent(), seat=seat, **kwargs)
        self.learner = learner
        self.generation = 0
        if learner is not None:
            self.refresh()

    def set_learner(self, learner: Any, refresh: bool = True) -> None:
        self.learner = learner
        if refresh:
            self.refresh()

    def refresh(self) -> None:
        """Replace the opponent by a frozen copy of the learner as it is now."""
        if self.learner is None:
            raise RuntimeError("SelfPlayEnv has no learner yet; call set_learner(model) first")
        self.set_opponents(freeze(self.learner, self.obs_mode))
        self.generation += 1
