"""Self-play through PettingZoo AEC environments, several hands in lockstep, packed as (T, C) arrays.

The learner sees only what the environment API gives: each acting player's observation vector and
action mask, the action taken with its probability, and the rewards every player received after it.
Column ``c`` of a batch is hand ``c % K`` of run ``c // K``; run ``r`` draws all its randomness (env
reset seeds, action samples) from its own ``rngs[r]``, so a run does not depend on its neighbours.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from pettingzoo import AECEnv

# (obs (R, K, D), legal (R, K, A)) -> action probabilities (R, K, A)
BatchPolicy = Callable[[np.ndarray, np.ndarray], np.ndarray]


@dataclass
class Trajectories:
    """Hands padded to the longest: (T, C, ...) arrays; ``valid`` is 0 on padding."""

    obs: np.ndarray  # (T, C, D) float32
    legal: np.ndarray  # (T, C, A) float32
    player: np.ndarray  # (T, C) int64, seat that acted
    action: np.ndarray  # (T, C) int64
    mu: np.ndarray  # (T, C) probability of the action under the acting policy
    rewards: np.ndarray  # (T, C, P) rewards each seat received after the step
    valid: np.ndarray  # (T, C) float64


def sample_action(probs: np.ndarray, mask: np.ndarray, u: float) -> int:
    """Inverse-CDF draw from ``probs`` with uniform ``u``, never an illegal action."""
    action = int(np.searchsorted(np.cumsum(probs), u * probs.sum(), side="right"))
    if action >= probs.size or not mask[action]:  # round-off at the edges
        legal = np.flatnonzero(mask)
        action = int(legal[np.argmax(probs[legal])])
    return action


def collect(
    envs: Sequence[AECEnv], rngs: Sequence[np.random.Generator], policy: BatchPolicy, max_decisions: int
) -> Trajectories:
    """One hand per env (``len(envs) = R * K``), every seat playing its run's ``policy``.

    Hands longer than ``max_decisions`` are cut there (the rest is dropped, as OpenSpiel's R-NaD does).
    """
    num_runs = len(rngs)
    hands_per_run, rem = divmod(len(envs), num_runs)
    if rem:
        raise ValueError(f"envs ({len(envs)}) must be a multiple of rngs ({num_runs})")
    agents = envs[0].possible_agents
    seat = {a: i for i, a in enumerate(agents)}
    space = envs[0].observation_space(agents[0])
    obs_dim = int(np.prod(space["observation"].shape))
    num_actions = int(space["action_mask"].shape[0])
    for c, env in enumerate(envs):
        env.reset(seed=int(rngs[c // hands_per_run].integers(2**62)))
    records: list[list[tuple]] = [[] for _ in envs]
    obs_buf = np.zeros((num_runs, hands_per_run, obs_dim), dtype=np.float32)
    mask_buf = np.ones((num_runs, hands_per_run, num_actions), dtype=np.int8)
    for _ in range(max_decisions):
        active = []
        for c, env in enumerate(envs):
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                continue
            ob = env.observe(agent)
            r, k = divmod(c, hands_per_run)
            obs_buf[r, k] = ob["observation"]
            mask_buf[r, k] = ob["action_mask"]
            active.append((c, agent))
        if not active:
            break
        probs = policy(obs_buf, mask_buf)
        for c, agent in active:
            r, k = divmod(c, hands_per_run)
            p, m = probs[r, k], mask_buf[r, k]
            a = sample_action(p, m, rngs[r].random())
            env = envs[c]
            env.step(a)
            rewards = [float(env.rewards[x]) for x in agents]
            records[c].append((obs_buf[r, k].copy(), m.copy(), seat[agent], a, float(p[a]), rewards))
    return pack(records, obs_dim, num_actions, len(agents))


def pack(records: list[list[tuple]], obs_dim: int, num_actions: int, num_players: int) -> Trajectories:
    """Per-hand step records -> padded (T, C) arrays."""
    t_len = max(1, max(len(h) for h in records))
    cols = len(records)
    obs = np.zeros((t_len, cols, obs_dim), dtype=np.float32)
    legal = np.zeros((t_len, cols, num_actions), dtype=np.float32)
    legal[..., 0] = 1.0  # padding rows get a harmless legal action
    player = np.zeros((t_len, cols), dtype=np.int64)
    action = np.zeros((t_len, cols), dtype=np.int64)
    mu = np.ones((t_len, cols))
    rewards = np.zeros((t_len, cols, num_players))
    valid = np.zeros((t_len, cols))
    for c, hand in enumerate(records):
        for t, (o, m, p, a, prob, r) in enumerate(hand):
            obs[t, c] = o
            legal[t, c] = m
            player[t, c], action[t, c], mu[t, c] = p, a, prob
            rewards[t, c] = r
            valid[t, c] = 1.0
    return Trajectories(obs, legal, player, action, mu, rewards, valid)
