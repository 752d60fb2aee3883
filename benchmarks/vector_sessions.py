"""Batched hold'em with sessions and the public state beside the plain engine: decisions per second, same run.

    python benchmarks/vector_sessions.py [--seconds 1.0] [--tables 1024] [--players 2 6]

Rows per table size: the plain engine (one-hand episodes), the plain engine with ``public=True``, a cash
session (``hands_per_episode=100, rebuy=True``) and a sit-and-go (blind levels every 10 hands, eliminations,
payouts 0.5/0.3/0.2 and ICM where the 200 hands run out); random legal actions drawn in batch from the
masks, the observations, masks (and public states) returned at every step. Compare figures of one run only.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from poker_envs import vector
from poker_envs.vector.sampling import random_legal_actions

SIT_AND_GO = dict(hands_per_episode=200, blind_levels=[(1, 2, 0), (2, 4, 0), (3, 6, 1), (5, 10, 1), (10, 20, 2), (20, 40, 5)],
                  hands_per_level=10, payouts=[0.5, 0.3, 0.2])
ROWS: dict[str, dict[str, Any]] = {
    "plain": {},
    "plain, public": {"public": True},
    "cash session": {"hands_per_episode": 100, "rebuy": True},
    "sit-and-go": SIT_AND_GO,
}


def rate(players: int, tables: int, config: dict[str, Any], seconds: float) -> tuple[float, float]:
    """(decisions per second, hands per second) of random play on ``tables`` tables for about ``seconds``."""
    payouts = config.get("payouts", ())
    cfg = dict(config)
    if payouts and len(payouts) > players:
        cfg["payouts"] = list(payouts[:players])
    venv = vector.make("nolimit_holdem", tables, seed=0, num_players=players, **cfg)
    rng = np.random.default_rng(0)
    out = venv.reset()
    for _ in range(20):  # warm up
        out = venv.step(random_legal_actions(out.action_mask, rng))
    steps = hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        out = venv.step(random_legal_actions(out.action_mask, rng))
        steps += 1
        hands += int((out.hand_over if out.hand_over is not None else out.terminated).sum())
    elapsed = time.perf_counter() - start
    return steps * tables / elapsed, hands / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per cell")
    parser.add_argument("--tables", type=int, nargs="+", default=[1024], help="num_envs values")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 6], help="seats")
    args = parser.parse_args()
    print(f"{'row':<16}{'seats':>6}{'tables':>8}{'decisions/s':>14}{'hands/s':>11}")
    for players in args.players:
        for tables in args.tables:
            for label, config in ROWS.items():
                decisions, hands = rate(players, tables, config, args.seconds)
                print(f"{label:<16}{players:>6}{tables:>8}{decisions:>14,.0f}{hands:>11,.0f}", flush=True)


if __name__ == "__main__":
    main()
