"""Play limit hold'em hands through ``limit_holdem_v0`` and record every decision as a log sample.

``play_hands`` seats agents drawn from a pool (8 of the 12 rule-based agents per hand in section 5.2;
a fixed pair in 5.3), plays the hands through the table runner on the raw AEC environment, and records
per pool member its observations, actions and chip results. Action counts give the thesis' style figures (eqs. 5.2, 5.3).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from agent_zoo.agent import Agent
from agent_zoo.runner import HandSpec, Turn, Watcher, play_aec
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


class TurnLog(Watcher):
    """Every turn of a runner call, kept per episode (``turns[hand]``: (seat, observation, action) in the
    order they were taken) so they can be filed in episode order whatever the order the tables finished in."""

    def __init__(self, episodes: int) -> None:
        self.turns: list[list[tuple[int, dict[str, np.ndarray], int]]] = [[] for _ in range(episodes)]

    def turn(self, turn: Turn) -> None:
        self.turns[turn.hand].append((turn.seat, turn.observation, turn.action))


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
    tables: int = 32,
    hands_per_episode: int = 1,
) -> list[PlayerRecord]:
    """Play ``hands`` hands; ``seat_draw(rng)`` gives the pool indices for seats 0..n-1 of each hand.

    ``record(observation)`` decides which decisions enter the logs (all by default); action counts
    always include every decision. Hands are played by ``agent_zoo.runner`` on ``tables`` tables in
    lockstep: hand h has the button on seat h % n and a deck drawn from a Generator seeded with ``seed``;
    seating comes from a Generator seeded with ``seed + 1`` and each seat's own randomness from
    ``SeedSequence(seed + 1)``'s h-th child, so the logs (kept in hand order) do not depend on ``tables``.

    ``hands_per_episode`` > 1 plays sessions (docs/holdem.md "Sessions"): the same seats for that many hands
    with stacks carried over (a session ends early when a seat is out of chips), so encoders that measure
    chips from the session's start (``flat56``) see the chips won in earlier hands; ``hands`` must then be
    a multiple of it, and a session's hands get consecutive decks of the same stream.
    """
    if hands_per_episode < 1 or hands % hands_per_episode:
        raise ValueError(f"hands_per_episode must be >= 1 and divide hands ({hands}), got {hands_per_episode}")
    per = hands_per_episode
    rng = np.random.default_rng(seed + 1)
    n = len(seat_draw(np.random.default_rng(seed)))  # table size from one draw of a throw-away generator
    cards = np.random.default_rng(seed)
    episodes = hands // per
    seat_seqs = np.random.SeedSequence(seed + 1).spawn(episodes)
    specs = []
    for h in range(episodes):
        seats = tuple(int(w) for w in seat_draw(rng))
        decks = [cards.permutation(52)[: 2 * n + 5].tolist() for _ in range(per)]
        options = {"deck": decks[0], "button": h % n} if per == 1 else {"decks": decks, "button": h % n}
        specs.append(HandSpec(seats, seat_seqs[h], options))
    session = {} if per == 1 else {"hands_per_episode": per}
    make = lambda: raw_env(num_players=n, obs_encoder=encoder, starting_stack=starting_stack, reward_unit="chips", **session)  # noqa: E731
    records = [PlayerRecord() for _ in pool]
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=episodes, desc="hands" if per == 1 else "sessions", leave=False)
    chunk = 64 * tables  # episodes per runner call: bounds the decisions held before they are filed
    for lo in range(0, episodes, chunk):
        part = specs[lo : lo + chunk]
        log = TurnLog(len(part))
        outcomes = play_aec(make, pool, part, tables=tables, watch=log)
        for spec, outcome, turns in zip(part, outcomes, log.turns, strict=True):
            for seat, observation, action in turns:
                rec = records[spec.seats[seat]]
                rec.counts[action] += 1
                if record is None or record(observation["observation"]):
                    rec.obs.append(observation["observation"])
                    rec.actions.append(action)
                    rec.masks.append(observation["action_mask"])
            for seat, r in enumerate(outcome.rewards):
                records[spec.seats[seat]].chips += float(r)
                records[spec.seats[seat]].hands += outcome.hands
        if bar is not None:
            bar.update(len(part))
    if bar is not None:
        bar.close()
    return records
