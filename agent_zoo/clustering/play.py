"""Play limit hold'em hands through ``limit_holdem_v0`` and record every decision as a log sample.

``play_hands`` seats agents drawn from a pool (8 of the 12 rule-based agents per hand in section 5.2;
a fixed pair in 5.3), steps the raw AEC environment, and records per pool member its observations,
actions and chip results. Action counts give the thesis' style figures (eqs. 5.2, 5.3).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from agent_zoo.agent import Agent
from poker_envs.games.base import TERMINAL
from poker_envs.limit_holdem_v0 import raw_env


@dataclass
class PlayerRecord:
    """Everything one pool member did: (observation, action) samples, action counts, chips won."""

    obs: list[np.ndarray] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)  # legal actions of each recorded decision
    counts: np.ndarray = field(default_factory=lambda: np.zeros(3, dtype=np.int64))  # fold, check+call, bet+raise
    chips: float = 0.0
    hands: int = 0

    def log(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(states (n, d) float32, actions (n,) int64, legal masks (n, 3) int8)."""
        x = np.asarray(self.obs, dtype=np.float32).reshape(len(self.obs), -1)
        return x, np.asarray(self.actions, dtype=np.int64), np.asarray(self.masks, dtype=np.int8).reshape(len(self.obs), 3)


def style(counts: np.ndarray) -> tuple[float, float]:
    """Looseness (5.2) = 1 - F / all, aggressiveness (5.3) = B+R / (C+C + B+R) of (F, C+C, B+R) counts."""
    f, c, r = (float(v) for v in counts)
    total = f + c + r
    return (1 - f / total if total else float("nan"), r / (c + r) if c + r else float("nan"))


def play_hands(
    pool: Sequence[Agent],
    hands: int,
    seat_draw: Callable[[np.random.Generator], Sequence[int]],
    encoder: str,
    seed: int,
    record: Callable[[np.ndarray], bool] | None = None,
    progress: bool = False,
    starting_stack: int = 200,
) -> list[PlayerRecord]:
    """Play ``hands`` hands; ``seat_draw(rng)`` gives the pool indices for seats 0..n-1 of each hand.

    ``record(observation)`` decides which decisions enter the logs (all by default); action counts
    always include every decision. Cards come from the env seeded with ``seed``; seating and agents'
    own randomness from a Generator seeded with ``seed + 1``.
    """
    rng = np.random.default_rng(seed + 1)
    n = len(seat_draw(np.random.default_rng(seed)))  # table size from one draw of a throw-away generator
    env = raw_env(num_players=n, obs_encoder=encoder, starting_stack=starting_stack, reward_unit="chips")
    env.reset(seed=seed)
    records = [PlayerRecord() for _ in pool]
    names = env.possible_agents
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=hands, desc="hands", leave=False)
    for h in range(hands):
        if h:
            env.reset()
        seats = list(seat_draw(rng))
        for seat, who in enumerate(seats):
            pool[who].begin_hand(seat)
        state = env.state
        while (player := state.current_player()) != TERMINAL:
            who = seats[player]
            observation = env.observe(names[player])
            action = pool[who].act(observation, rng)
            rec = records[who]
            rec.counts[action] += 1
            if record is None or record(observation["observation"]):
                rec.obs.append(observation["observation"])
                rec.actions.append(action)
                rec.masks.append(observation["action_mask"])
            env.step(action)
        for seat, r in enumerate(state.returns()):
            records[seats[seat]].chips += float(r)
            records[seats[seat]].hands += 1
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    return records
