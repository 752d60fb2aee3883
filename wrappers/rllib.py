"""Any poker_envs AEC environment as an RLlib ``MultiAgentEnv`` (RLlib's new API stack).

``PokerMultiAgentEnv`` plays one hand per episode, turn by turn: the observation dict of ``reset`` and of
every ``step`` holds only the agent to act next, and ``step`` takes an action for that agent alone.
Rewards are the AEC env's: zero while the hand runs, the results for every seat when it ends; then every
agent that acted gets its last observation, and ``terminateds["__all__"]`` is True (RLlib drops the seats
that never acted, such as a big blind everybody folded to). In a session of many hands, each hand's results
are paid as it ends and a seat eliminated mid-session leaves then, with its own last observation.

Observations are ``{"observations": ..., "action_mask": ...}`` (float32 mask), the layout of RLlib's
action-masking example module, which ``wrappers.rllib_masking.MaskedPPOTorchRLModule`` reads (the same masking
on RLlib's current PPO module); any other key of the env's observation dict (the hold'em family's ``"public"``
betting state) is dropped. ``masked_module_spec`` builds that module.
An illegal action raises ValueError naming the legal ones: a masked policy never plays one, so one is a bug.

Agents keep the env's names (``player_0`` .. ``player_{n-1}``, seat order); ``policy_by_seat`` maps seats
to policies for ``AlgorithmConfig.multi_agent(policy_mapping_fn=...)``. Needs ``pip install
'poker-envs[rllib]'``; see docs/rllib.md and the README's RLlib recipe.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

try:
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("wrappers.rllib needs RLlib: pip install 'poker-envs[rllib]'") from exc

from poker_envs import catalog
from poker_envs.aec import action_id
from wrappers.single_agent import make_aec

OBS_KEY = "observations"  # the key the action-masking module reads the encoder's array from
MASK_KEY = "action_mask"  # the key of the legal-action mask (1.0 legal, 0.0 illegal)


class PokerMultiAgentEnv(MultiAgentEnv):
    """A poker env as a turn-based RLlib multi-agent env: one episode is one of its episodes (a hand, or a session).

    Args:
        config: RLlib's ``env_config``: ``"env"`` (required) is a catalog key, an env module name, an AEC
            env instance or a factory; every other key configures the env when it is built here (e.g.
            ``num_players=6``). ``PokerMultiAgentEnv({"env": "nolimit", "num_players": 6})``.
    """

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        if "env" not in config:
            raise ValueError(
                "config needs 'env': a catalog key (" + ", ".join(catalog.keys()) + "), an env module name, an AECEnv or a factory"
            )
        self.aec = make_aec(config.pop("env"), **config)  # names build raw_env: illegal actions raise
        self.possible_agents = list(self.aec.possible_agents)
        self.agents: list[str] = []
        self.observation_spaces = {a: self._rllib_space(a) for a in self.possible_agents}
        self.action_spaces = {a: self.aec.action_space(a) for a in self.possible_agents}
        self.actions_played = 0  # actions the AEC env received (each one checked legal first)
        self._acted: set[str] = set()  # agents that acted in the current episode
        self._mask: np.ndarray | None = None  # the legal-action mask of the agent to act

    def _rllib_space(self, agent: str) -> spaces.Dict:
        space = self.aec.observation_space(agent)
        if not isinstance(space, spaces.Dict) or "observation" not in space.spaces or MASK_KEY not in space.spaces:
            raise ValueError(f"env observations of {agent} must be a Dict with 'observation' and 'action_mask', got {space}")
        n = space[MASK_KEY].shape[0]
        return spaces.Dict({OBS_KEY: space["observation"], MASK_KEY: spaces.Box(0.0, 1.0, (n,), np.float32)})

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = self.aec.observe(agent)
        return {OBS_KEY: obs["observation"], MASK_KEY: np.asarray(obs[MASK_KEY], dtype=np.float32)}

    def _next_turn(self) -> dict[str, dict[str, np.ndarray]]:
        """The observation dict of the agent to act (its mask kept to check its action)."""
        agent = self.aec.agent_selection
        obs = self._observe(agent)
        self._mask = obs[MASK_KEY]
        return {agent: obs}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.aec.agents)
        self._acted = set()
        obs = self._next_turn()
        return obs, {agent: {} for agent in obs}

    def step(self, action_dict: Mapping[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        if not self.agents:
            raise ValueError("step() after the episode is over; call reset()")
        agent = self.aec.agent_selection
        if set(action_dict) != {agent}:
            raise ValueError(f"action_dict must hold an action for {agent} (the agent to act) only, got agents {sorted(action_dict)}")
        n = len(self._mask)
        a = action_id(action_dict[agent], agent, n)
        if not 0 <= a < n or self._mask[a] != 1.0:
            legal = np.flatnonzero(self._mask).tolist()
            raise ValueError(f"illegal action {a} of {agent}: legal actions are {legal}")
        self.aec.step(a)
        self.actions_played += 1
        self._acted.add(agent)
        rewards = {other: float(r) for other, r in self.aec.rewards.items() if r or other == agent}
        rewards.setdefault(agent, 0.0)  # RLlib wants a reward for every agent that acted
        return self._after_step(rewards)

    def _after_step(self, rewards: dict[str, float]) -> tuple[dict, dict, dict, dict, dict]:
        """Agents whose play is over leave (their last observation if they acted), then the next turn; the
        episode ends when no agent is left (the hand's end, or a session's: eliminated seats leave earlier)."""
        aec = self.aec
        obs: dict[str, dict[str, np.ndarray]] = {}
        terminateds: dict[str, bool] = {}
        truncateds: dict[str, bool] = {}
        while aec.agents and (aec.terminations[aec.agent_selection] or aec.truncations[aec.agent_selection]):
            agent = aec.agent_selection
            if agent in self._acted:
                obs[agent] = self._observe(agent)
            terminateds[agent], truncateds[agent] = bool(aec.terminations[agent]), bool(aec.truncations[agent])
            rewards.setdefault(agent, 0.0)
            aec.step(None)  # the PettingZoo convention: a finished agent steps None once, then leaves
        self.agents = list(aec.agents)
        if self.agents:
            obs.update(self._next_turn())
            terminateds["__all__"] = truncateds["__all__"] = False
        else:
            truncated = any(truncateds.values())
            terminateds["__all__"], truncateds["__all__"] = not truncated, truncated
        return obs, rewards, terminateds, truncateds, {a: {} for a in obs}

    def render(self) -> Any:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


def policy_by_seat(policies: Mapping[str, Iterable[int]]) -> Callable[..., str]:
    """A ``policy_mapping_fn`` giving seat ``i`` (agent ``player_i``) the policy whose seats hold ``i``.

    ``policy_by_seat({"A": [0, 2, 4], "B": [1, 3, 5]})``; a seat in two lists or an agent in none raises.
    """
    seat_policy: dict[int, str] = {}
    for policy, seats in policies.items():
        for seat in seats:
            if seat in seat_policy:
                raise ValueError(f"seat {seat} is given to both {seat_policy[seat]!r} and {policy!r}")
            seat_policy[int(seat)] = policy

    def mapping(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
        seat = int(agent_id.rsplit("_", 1)[1])
        if seat not in seat_policy:
            raise ValueError(f"agent {agent_id}: seat {seat} has no policy; seats with one: {sorted(seat_policy)}")
        return seat_policy[seat]

    return mapping


def masked_module_spec(model_config: Mapping[str, Any] | None = None) -> Any:
    """An ``RLModuleSpec`` of the action-masking PPO module (torch, ``wrappers.rllib_masking``): illegal logits
    are pushed to the float minimum.

    ``model_config``: RLlib's ``DefaultModelConfig`` keys, e.g. ``{"fcnet_hiddens": [64, 64]}``.
    """
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from wrappers.rllib_masking import MaskedPPOTorchRLModule

    return RLModuleSpec(module_class=MaskedPPOTorchRLModule, model_config=dict(model_config or {}))
