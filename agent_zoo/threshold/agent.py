"""An agent that plays the threshold environment with the exact symmetric equilibrium."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from agent_zoo.agent import Agent, Observation, legal_actions, sample_from
from agent_zoo.threshold.solver import solve_threshold
from poker_envs.encoders.small_games import THRESHOLD_SIZE
from poker_envs.games.threshold import MIN_PLAYERS, NUM_CARDS


@lru_cache(maxsize=64)
def _equilibrium(num_players: int, alpha: float) -> np.ndarray:
    return solve_threshold(num_players, alpha).strategy


def decode_observation(observation: Observation) -> tuple[int, int, float]:
    """(own card, number of players, alpha) from the threshold env's default observation vector."""
    vec = np.asarray(observation["observation"])
    if vec.shape != (THRESHOLD_SIZE,):
        raise ValueError(f"observation must be the threshold env's default vector of {THRESHOLD_SIZE}, got {vec.shape}")
    cards = vec[1 : 1 + NUM_CARDS]
    if cards.max() != 1.0:
        raise ValueError("observation shows no own card")
    players = vec[1 + NUM_CARDS : -1]
    return int(np.argmax(cards)), int(np.argmax(players)) + MIN_PLAYERS, float(vec[-1])


class ThresholdAgent(Agent):
    """Bets with the equilibrium probability of its card for the table's n and alpha (read from the
    observation); ``strategy`` (bet probability per card) overrides the equilibrium if given."""

    name = "threshold_equilibrium"

    def __init__(self, strategy: np.ndarray | None = None) -> None:
        if strategy is not None:
            strategy = np.asarray(strategy, dtype=np.float64)
            if strategy.shape != (NUM_CARDS,) or np.any((strategy < 0) | (strategy > 1)):
                raise ValueError(f"strategy must be {NUM_CARDS} bet probabilities in [0, 1]")
        self.strategy = strategy

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        card, n, alpha = decode_observation(observation)
        table = self.strategy if self.strategy is not None else _equilibrium(n, alpha)
        probs = np.array([1.0 - table[card], table[card]])
        mask = np.asarray(observation["action_mask"], dtype=np.float64)
        if mask.sum() == 0:
            raise ValueError("observation's action_mask has no legal action (the agent is not to act)")
        return probs * mask / (probs * mask).sum() if (probs * mask).sum() > 0 else mask / mask.sum()

    def act(self, observation: Observation, rng: np.random.Generator) -> int:
        legal_actions(observation)
        return sample_from(self.action_probabilities(observation), rng)
