"""An agent that plays the push/fold environment from its observations with a solved Nash chart.

Heads-up only for the exact charts: the small blind pushes with its class's push frequency, the big
blind calls a push with its call frequency. The stack and ante are read from the observation (default
encoder), so one agent serves any table; charts are solved on first use (milliseconds) and cached.
Rake and cap are not in the observation: give them to the agent (``make_push_fold_agent`` reads them
from the env). For three or more seats the agent uses a multi-way CFR strategy if one is given.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from agent_zoo.agent import Agent, Observation, Rngs, batch_masks, legal_actions, sample_from, sample_rows
from agent_zoo.push_fold.solver import PushFoldResult, PushFoldSolver, PushFoldSolverConfig
from poker_envs.encoders.small_games import PF_ACTS, PF_ANTE, PF_CLASS, PF_NUM, PF_POS, PF_STACKS, PUSH_FOLD_SIZE

SB_SLOT, BB_SLOT = 4, 5  # position one-hot slots counted back from the big blind


@lru_cache(maxsize=256)
def _solve(stack_bb: float, ante_bb: float, rake: float, rake_cap_bb: float | None, gamma: float) -> PushFoldResult:
    return PushFoldSolver(PushFoldSolverConfig(stack_bb, ante_bb, rake, rake_cap_bb, gamma)).solve()


def decode_observations(vectors: np.ndarray) -> dict[str, np.ndarray]:
    """Per row of ``vectors`` (m, PUSH_FOLD_SIZE): hand class, position slot (5 = big blind, 4 = small
    blind), players, effective stack (the smallest starting stack at the table: nobody can win or
    lose more) and ante."""
    vec = np.asarray(vectors)
    if vec.ndim != 2 or vec.shape[1] != PUSH_FOLD_SIZE:
        raise ValueError(f"observations must be the push/fold env's default vectors of {PUSH_FOLD_SIZE}, got shape {vec.shape}")
    classes = vec[:, PF_CLASS : PF_CLASS + 169]
    if np.any(classes.max(axis=1) != 1.0):
        raise ValueError("observation shows no hole cards")
    num_players = np.argmax(vec[:, PF_NUM : PF_NUM + 5], axis=1) + 2
    stacks = vec[:, PF_STACKS : PF_STACKS + 6].astype(np.float64)
    seated = np.arange(6)[None, :] >= 6 - num_players[:, None]  # the last n slots hold the table's stacks
    return {
        "hand_class": np.argmax(classes, axis=1),
        "position": np.argmax(vec[:, PF_POS : PF_POS + 6], axis=1),
        "num_players": num_players,
        "stack_bb": np.where(seated, stacks, np.inf).min(axis=1),
        "ante_bb": vec[:, PF_ANTE].astype(np.float64),
    }


def decode_observation(observation: Observation) -> dict[str, float | int]:
    """``decode_observations`` of one observation dict, as Python numbers."""
    vec = np.asarray(observation["observation"])
    if vec.shape != (PUSH_FOLD_SIZE,):
        raise ValueError(f"observation must be the push/fold env's default vector of {PUSH_FOLD_SIZE}, got {vec.shape}")
    info = decode_observations(vec[None])
    return {k: (float(v[0]) if k in ("stack_bb", "ante_bb") else int(v[0])) for k, v in info.items()}


class PushFoldAgent(Agent):
    """Plays the heads-up Nash chart of the table's stack and ante (or a fixed ``result``)."""

    name = "push_fold_nash"

    def __init__(
        self, result: PushFoldResult | None = None, rake: float = 0.0, rake_cap_bb: float | None = None, gamma: float = 0.0
    ) -> None:
        self.result = result
        self.rake, self.rake_cap_bb, self.gamma = rake, rake_cap_bb, gamma

    def chart_for(self, stack_bb: float, ante_bb: float) -> PushFoldResult:
        if self.result is not None:
            return self.result
        # float32 observations: round to the 1/1024 BB grid so 10.0 and 0.125 come back exact.
        return _solve(round(stack_bb * 1024) / 1024, round(ante_bb * 1024) / 1024, self.rake, self.rake_cap_bb, self.gamma)

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        legal_actions(observation)
        info = decode_observation(observation)
        if info["num_players"] != 2:
            raise ValueError(f"PushFoldAgent plays heads-up tables only, this one has {info['num_players']} players")
        chart = self.chart_for(info["stack_bb"], info["ante_bb"])
        table = chart.sb_push if info["position"] == SB_SLOT else chart.bb_call
        p = float(table[info["hand_class"]])
        probs = np.array([1.0 - p, p]) * np.asarray(observation["action_mask"], dtype=np.float64)
        return probs / probs.sum()

    def act(self, observation: Observation, rng: np.random.Generator) -> int:
        return sample_from(self.action_probabilities(observation), rng)

    def act_batch(self, observations: Observation, rng: Rngs) -> np.ndarray:
        """Charts looked up once per distinct (stack, ante) of the batch; push probabilities vectorised."""
        return sample_rows(self.action_probabilities_batch(observations), rng)

    def action_probabilities_batch(self, observations: Observation) -> np.ndarray:
        """``action_probabilities`` of every row, vectorised (local best response asks for 1,326 at once)."""
        mask = batch_masks(observations).astype(np.float64)
        info = decode_observations(np.asarray(observations["observation"]))
        if np.any(info["num_players"] != 2):
            raise ValueError("PushFoldAgent plays heads-up tables only; some rows have more players")
        p = np.empty(len(mask))
        sb = info["position"] == SB_SLOT
        pairs = np.stack([info["stack_bb"], info["ante_bb"]], axis=1)
        for stack_bb, ante_bb in np.unique(pairs, axis=0):
            rows = np.all(pairs == (stack_bb, ante_bb), axis=1)
            chart = self.chart_for(float(stack_bb), float(ante_bb))
            p[rows] = np.where(sb[rows], chart.sb_push[info["hand_class"][rows]], chart.bb_call[info["hand_class"][rows]])
        probs = np.stack([1.0 - p, p], axis=1) * mask[:, :2]
        return probs / probs.sum(axis=1, keepdims=True)


def make_push_fold_agent(env: Any, arg: str | None = None) -> PushFoldAgent:
    """Registry hook: the env's rake settings; ``arg`` "STACK" or "STACK,ANTE" fixes one chart instead."""
    config = env.unwrapped.game.config
    if config.num_players != 2:
        raise ValueError(f"agent push_fold plays heads-up push/fold; this table has {config.num_players} players")
    if arg is None:
        return PushFoldAgent(rake=config.rake, rake_cap_bb=config.rake_cap_bb)
    try:
        parts = [float(x) for x in arg.split(",")]
    except ValueError:
        raise ValueError(f"agent push_fold:{arg}: expected STACK or STACK,ANTE in big blinds, e.g. 10,0.125") from None
    if len(parts) not in (1, 2):
        raise ValueError(f"agent push_fold:{arg}: expected STACK or STACK,ANTE in big blinds, e.g. 10,0.125")
    result = _solve(parts[0], parts[1] if len(parts) == 2 else 0.0, config.rake, config.rake_cap_bb, 0.0)
    return PushFoldAgent(result=result)


class MultiwayPushFoldAgent(Agent):
    """Plays a multi-way CFR+ strategy (``multiway.MultiwayResult``) for its table size, stack and ante:
    the information set is (seat, the earlier seats' fold / all-in, own hand class), read from the
    observation's per-position action flags."""

    name = "push_fold_multiway_cfr"

    def __init__(self, result: Any) -> None:
        self.result = result
        self.n = result.config.num_players

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        legal_actions(observation)
        info = decode_observation(observation)
        if info["num_players"] != self.n:
            raise ValueError(f"this strategy is for {self.n} players, the table has {info['num_players']}")
        vec = np.asarray(observation["observation"])
        offset = 6 - self.n
        seat = info["position"] - offset
        flags = vec[PF_ACTS : PF_ACTS + 18].reshape(6, 3)[offset:]
        prefix = sum(1 << t for t in range(seat) if flags[t, 2] == 1.0)
        p = float(self.result.strategy[seat][prefix, info["hand_class"]])
        probs = np.array([1.0 - p, p]) * np.asarray(observation["action_mask"], dtype=np.float64)
        return probs / probs.sum()

    def act(self, observation: Observation, rng: np.random.Generator) -> int:
        return sample_from(self.action_probabilities(observation), rng)
