"""What one copy of the batched rules for numpy and JAX would cost the numpy engine: the numbers behind keeping
a function-by-function JAX mirror (``vector/jax/_holdem_kernels.py``) of the numpy kernels (``vector/_holdem_kernels.py``).

    python benchmarks/masked_kernels.py [--tables 1024] [--players 2 6] [--seconds 2]

Under ``jit`` shapes are fixed, so a kernel written once for both backends must settle, evaluate and deal
every table at every step and pick the finished ones with a mask, where the numpy engine does that work
only for the rows whose hand ended (about one table in four heads-up). This times the numpy engine's step
as it is, and the same step plus that masked work (``settle`` and a fresh deal of every table, results
discarded): a lower bound of what the shared form would cost, since the other kernels would also lose
their row selections. The JAX mirror is bound to the numpy engine by ``tests/test_vector_jax_holdem.py``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from poker_envs import vector
from poker_envs.vector import _holdem_kernels as k
from poker_envs.vector.sampling import Dealer, random_legal_actions


def rate(num_players: int, tables: int, seconds: float, masked: bool) -> float:
    """Decisions per second of ``tables`` no-limit tables, with (``masked``) or without the masked work."""
    venv = vector.make("nolimit_holdem", tables, seed=0, num_players=num_players)
    out = venv.reset()
    rng = np.random.default_rng(0)
    dealer = Dealer(venv.deck, 2 * num_players + 5)
    every = np.arange(tables)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start <= seconds:
        out = venv.step(random_legal_actions(out.action_mask, rng))
        if masked:
            k.settle(venv.tables, venv.rules, every)
            dealer.deal(rng, tables)
        steps += 1
    return steps * tables / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=1024, help="tables stepped together")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 6], help="seats per table")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per cell")
    args = parser.parse_args(argv)
    if args.tables < 1 or args.seconds <= 0 or min(args.players) < 2:
        parser.error("--tables and --seconds must be positive, --players at least 2")
    print(f"numpy no-limit engine, {args.tables} tables: decisions per second")
    print(f"{'players':>8}{'as is':>12}{'+ masked work':>15}{'loss':>8}")
    for n in args.players:
        plain, masked = rate(n, args.tables, args.seconds, False), rate(n, args.tables, args.seconds, True)
        print(f"{n:>8}{plain:>12,.0f}{masked:>15,.0f}{1 - masked / plain:>8.0%}", flush=True)


if __name__ == "__main__":
    main()
