"""PettingZoo's turn-based Parallel API over any AEC environment of this package (``<game>_v0.parallel_env()``).

Every live agent gets an observation each step; only the agent to act (``infos[agent]["active_agent"]``, the
one whose ``action_mask`` has a legal move) is played: its entry of ``step(actions)`` is required, the others
are ignored and may be left out. Rewards are each step's (a hand's result arrives at the step that ends it);
an agent leaves ``agents`` at the step that terminates it (the end of the hand, or its elimination from a
session) with that step's observation. Built on ``env()``, so an illegal move forfeits the hand as in the
AEC env (``infos[agent]["illegal_action"]``). Libraries that take only the Parallel API (PufferLib's
emulation and others) use it; ``parallel_api_test`` passes on every game.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv, ParallelEnv
from gymnasium import spaces


class TurnBasedParallelEnv(ParallelEnv):
    """A turn-based ``ParallelEnv`` playing the AEC env ``aec`` (see the module doc)."""

    def __init__(self, aec: AECEnv) -> None:
        if not isinstance(aec, AECEnv):
            raise TypeError(f"aec must be a PettingZoo AECEnv, not {type(aec).__name__}")
        self.aec = aec
        self.possible_agents = list(aec.possible_agents)
        self.metadata = {**aec.metadata, "is_parallelizable": True}
        self.render_mode = getattr(aec, "render_mode", None)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space:
        return self.aec.action_space(agent)

    @property
    def unwrapped(self) -> TurnBasedParallelEnv:
        return self

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, dict]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.aec.agents)
        return {a: self.aec.observe(a) for a in self.agents}, self._infos(self.agents)

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        if not self.agents:
            raise ValueError("every agent is done: call reset() before step()")
        aec = self.aec
        actor = aec.agent_selection
        if actor not in actions:
            raise ValueError(f"actions has no entry for {actor}, the agent to act (infos[agent]['active_agent'])")
        live = self.agents
        aec.step(actions[actor])
        rewards = {a: float(aec.rewards.get(a, 0.0)) for a in live}
        terminations = {a: bool(aec.terminations.get(a, False)) for a in live}
        truncations = {a: bool(aec.truncations.get(a, False)) for a in live}
        observations = {a: aec.observe(a) for a in live}
        infos = self._infos(live)
        while aec.agents and (aec.terminations[aec.agent_selection] or aec.truncations[aec.agent_selection]):
            aec.step(None)  # a done agent leaves the AEC env; the parallel step already reported it
        self.agents = [a for a in live if not (terminations[a] or truncations[a])]
        for a in self.agents:
            infos[a]["active_agent"] = aec.agent_selection
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _infos(self, agents: list[str]) -> dict[str, dict]:
        actor = self.aec.agent_selection if self.aec.agents else None
        return {a: {**self.aec.infos.get(a, {}), "active_agent": actor} for a in agents}

    def render(self) -> str | None:
        return self.aec.render()

    def state(self) -> Any:
        return self.aec.state()

    def close(self) -> None:
        self.aec.close()


def turn_based_parallel(aec: AECEnv) -> TurnBasedParallelEnv:
    """``aec`` under PettingZoo's turn-based Parallel API (see the module doc)."""
    return TurnBasedParallelEnv(aec)
