"""Playing hands through a PettingZoo AEC environment and packing them as padded (T, B) arrays.

The learner sees only what the environment API gives: each acting player's observation vector and
action mask, the action taken with its probability, and the rewards every player received after it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from pettingzoo import AECEnv

# (observation vector, legal mask) -> action probabilities over all actions
PolicyFn = Callable[[np.ndarray, np.ndarray], np.ndarray]


@dataclass
class Trajectories:
    """K hands padded to the longest: (T, B, ...) arrays; ``valid`` is 0 on padding."""

    obs: np.ndarray  # (T, B, D) float32
    legal: np.ndarray  # (T, B, A) float32
    player: np.ndarray  # (T, B) int64, seat that acted
    action: np.ndarray  # (T, B) int64
    mu: np.ndarray  # (T, B) probability of the action under the acting policy
    rewards: np.ndarray  # (T, B, P) rewards each seat received after the step
    valid: np.ndarray  # (T, B) float64


def play_hand(
    env: AECEnv, policy: PolicyFn, rng: np.random.Generator, max_decisions: int
) -> list[tuple[np.ndarray, np.ndarray, int, int, float, list[float]]]:
    """One hand, every seat playing ``policy``; the env is reset with a seed drawn from ``rng``.

    Stops after ``max_decisions`` decisions (the rest of the hand is dropped, as OpenSpiel's R-NaD does).
    """
    env.reset(seed=int(rng.integers(2**62)))
    agents = env.possible_agents
    seat = {a: i for i, a in enumerate(agents)}
    steps = []
    while len(steps) < max_decisions:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        ob = env.observe(agent)
        obs = np.asarray(ob["observation"], dtype=np.float32)
        mask = ob["action_mask"]
        probs = policy(obs, mask)
        action = int(np.searchsorted(np.cumsum(probs), rng.random() * probs.sum(), side="right"))
        action = min(action, probs.size - 1)
        if not mask[action]:  # only reachable through round-off at the edge of a zero-probability action
            action = int(np.flatnonzero(mask)[np.argmax(probs[mask > 0])])
        env.step(action)
        rewards = [float(env.rewards[a]) for a in agents]
        steps.append((obs, mask, seat[agent], action, float(probs[action]), rewards))
    return steps


def collect(env: AECEnv, policy: PolicyFn, rng: np.random.Generator, num_hands: int, max_decisions: int) -> Trajectories:
    """``num_hands`` hands of self-play packed into padded arrays."""
    hands = [play_hand(env, policy, rng, max_decisions) for _ in range(num_hands)]
    t_len = max(len(h) for h in hands)
    obs_dim = hands[0][0][0].size
    num_actions = hands[0][0][1].size
    num_players = len(hands[0][0][5])
    obs = np.zeros((t_len, num_hands, obs_dim), dtype=np.float32)
    legal = np.zeros((t_len, num_hands, num_actions), dtype=np.float32)
    legal[..., 0] = 1.0  # padding rows get a harmless legal action
    player = np.zeros((t_len, num_hands), dtype=np.int64)
    action = np.zeros((t_len, num_hands), dtype=np.int64)
    mu = np.ones((t_len, num_hands))
    rewards = np.zeros((t_len, num_hands, num_players))
    valid = np.zeros((t_len, num_hands))
    for b, hand in enumerate(hands):
        for t, (o, m, p, a, prob, r) in enumerate(hand):
            obs[t, b] = o
            legal[t, b] = m
            player[t, b], action[t, b], mu[t, b] = p, a, prob
            rewards[t, b] = r
            valid[t, b] = 1.0
    return Trajectories(obs, legal, player, action, mu, rewards, valid)
