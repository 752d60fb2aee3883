"""The threshold game (``poker_envs.games.threshold``) as PettingZoo environments: Parallel and AEC.

``parallel_env(num_players=2, alpha=2.0)``: every agent declares at once (0 = fold, 1 = bet) in one
``step``; ``env(...)``: the same game as an AEC environment where ``player_0`` .. ``player_{n-1}``
declare in turn without seeing earlier declarations (observations show only the own card).
Rewards are the table's units (a folder loses 1, a bettor risks ``alpha``). Reset option
``deal`` (one distinct card 0..100 per seat) fixes the cards.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from poker_envs.aec import (DealOptionAECEnv, action_id, aec_metadata, classic_env, render_table, warn_no_render_mode,
                            warn_unknown_options)
from poker_envs.encoders.base import Encoder, EncoderSpec, resolve_encoder
from poker_envs.encoders.small_games import THRESHOLD_ENCODERS
from poker_envs.games.base import play_chance
from poker_envs.games.threshold import ThresholdConfig, ThresholdGame, ThresholdState
from poker_envs.render.small_games import render_threshold

NAME = "threshold_v0"


def available_encoders() -> dict[str, type[Encoder]]:
    """The ``obs_encoder`` names this environment offers."""
    return dict(THRESHOLD_ENCODERS)


class raw_env(DealOptionAECEnv):
    """AEC form: seats declare one after another; nobody's observation shows another's declaration.

    (Not marked parallelizable: only the seat to act has a non-empty action mask here; use ``parallel_env``.)
    """

    metadata = aec_metadata(NAME)

    def __init__(
        self,
        num_players: int = 2,
        alpha: float = 2.0,
        obs_encoder: EncoderSpec = "default",
        render_mode: str | None = None,
    ) -> None:
        game = ThresholdGame(ThresholdConfig(num_players=num_players, alpha=alpha))
        super().__init__(game, resolve_encoder(obs_encoder, game, available_encoders()), render_threshold, render_mode)


env = classic_env(raw_env)


class parallel_env(ParallelEnv):
    """Parallel form: one ``step({agent: action})`` with every agent's declaration ends the game."""

    metadata = {**aec_metadata(NAME), "is_parallelizable": True}

    def __init__(
        self,
        num_players: int = 2,
        alpha: float = 2.0,
        obs_encoder: EncoderSpec = "default",
        render_mode: str | None = None,
    ) -> None:
        aec = raw_env(num_players, alpha, obs_encoder, render_mode)  # the AEC form's checks, game, encoder and spaces
        self.game = aec.game
        self.encoder = aec.encoder
        self.render_mode = render_mode
        self.possible_agents = aec.possible_agents[:]
        self.agents: list[str] = []
        self._obs_space = aec.observation_space(self.possible_agents[0])
        self._act_space = aec.action_space(self.possible_agents[0])
        self._rng = np.random.default_rng()
        self.state: ThresholdState | None = None

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    def _observe(self, seat: int, mask: np.ndarray) -> dict[str, np.ndarray]:
        return {"observation": self.encoder.encode(self.state, seat), "action_mask": mask.copy()}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        options = dict(options or {})
        warn_unknown_options(options, ("deal",), NAME)
        self.state = self.game.new_initial_state(deal=options.get("deal"))
        play_chance(self.state, self._rng)
        self.agents = self.possible_agents[:]
        legal = np.ones(2, dtype=np.int8)
        obs = {a: self._observe(i, legal) for i, a in enumerate(self.agents)}
        return obs, {a: {} for a in self.agents}

    def step(self, actions: dict[str, int]):
        if not self.agents:
            raise ValueError("the game is over: call reset() before step()")
        missing = [a for a in self.agents if a not in actions]
        if missing:
            raise ValueError(f"every agent declares at once; actions missing for {missing}")
        chosen = [action_id(actions[agent], agent, 2) for agent in self.possible_agents]  # all checked first
        for agent, action in zip(self.possible_agents, chosen):
            if action not in (0, 1):
                raise ValueError(f"action {action!r} of {agent} is illegal; legal: [0, 1] (0 = fold, 1 = bet)")
        for action in chosen:
            self.state.apply(action)
        returns = self.state.returns()
        done = np.zeros(2, dtype=np.int8)
        obs = {a: self._observe(i, done) for i, a in enumerate(self.agents)}
        rewards = {a: float(returns[i]) for i, a in enumerate(self.agents)}
        terminations = dict.fromkeys(self.agents, True)
        truncations = dict.fromkeys(self.agents, False)
        infos = {a: {} for a in self.agents}
        self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terminations, truncations, infos

    def render(self) -> str | np.ndarray | None:
        """The table: text ("ansi"; "human" prints it) or its picture ("rgb_array"); None before ``reset``."""
        if self.render_mode is None:
            warn_no_render_mode()
            return None
        if self.state is None:
            return None
        return render_table(render_threshold, self.state, self.possible_agents, self.render_mode)

    def close(self) -> None:
        pass
