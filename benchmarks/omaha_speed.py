"""Omaha beside hold'em, in the same run: showdown evaluations per second and batched decisions per second.

    python benchmarks/omaha_speed.py [--seconds 2] [--tables 1024] [--seed 0]

Evaluations: ``core.hand_rules.evaluate_hands`` on random deals of 4,096 hands, hold'em's best five of seven
beside Omaha's two-from-hand x three-from-board (4, 5 and 6 hole cards: 60, 100 and 150 combinations a
hand), numpy; and the JAX mirror (``vector.jax._showdown.evaluate_hands``) where JAX is installed (jit, after
compiling). Engine: ``vector.make`` at ``--tables`` six-handed tables of no-limit hold'em, pot-limit hold'em and
pot-limit Omaha (4 hole cards), random legal actions drawn from the masks, the default observation; numpy and,
with JAX, the JAX backend on the host. Compare figures of one run only (the machine's speed drifts).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from poker_envs import vector
from poker_envs.core.hand_rules import evaluate_hands
from poker_envs.vector.sampling import random_legal_actions


def rate(work: Callable[[], int], seconds: float) -> float:
    """Items per second of ``work`` (which returns the items it did), repeated for about ``seconds``."""
    work()  # warm-up (tables, compiles)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += work()
    return done / (time.perf_counter() - start)


def evaluations(seconds: float, rng: np.random.Generator) -> list[tuple[str, float, float | None]]:
    """(label, numpy hands/s, JAX hands/s or None) for hold'em and Omaha showdowns."""
    try:
        import jax

        from poker_envs.core.ranking import STANDARD
        from poker_envs.vector.jax._showdown import evaluate_hands as jax_evaluate
    except ImportError:
        jax = None
    rows = []
    for label, hole, rule in [("hold'em, best 5 of 7", 2, "best_five"), ("Omaha 4 cards", 4, "omaha"),
                              ("Omaha 5 cards", 5, "omaha"), ("Omaha 6 cards", 6, "omaha")]:
        cards = rng.random((4096, 52)).argsort(1)[:, : hole + 5]
        holes, boards = cards[:, :hole], cards[:, hole:]
        numpy_rate = rate(lambda: len(evaluate_hands(holes, boards, rule=rule, check=False)), seconds)
        jax_rate = None
        if jax is not None:
            fn = jax.jit(lambda h, b, rule=rule: jax_evaluate(h, b, STANDARD, rule))
            h, b = jax.numpy.asarray(holes, dtype=jax.numpy.int32), jax.numpy.asarray(boards, dtype=jax.numpy.int32)
            jax_rate = rate(lambda: len(fn(h, b).block_until_ready()), seconds)
        rows.append((label, numpy_rate, jax_rate))
    return rows


def engine(game: str, backend: str, tables: int, seconds: float, seed: int) -> float:
    """Decisions per second of ``tables`` six-handed tables of ``game``."""
    venv = vector.make(game, num_envs=tables, seed=seed, backend=backend, num_players=6)
    rng = np.random.default_rng(seed)
    out = venv.reset()
    state = {"out": out}

    def step() -> int:
        mask = np.asarray(state["out"].action_mask)
        state["out"] = venv.step(random_legal_actions(mask, rng))
        return tables

    return rate(step, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per cell (default 2)")
    parser.add_argument("--tables", type=int, default=1024, help="tables of the engine rows (default 1024)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and actions (default 0)")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    print("showdown evaluations (hands/s)")
    print(f"  {'hand':<24}{'numpy':>14}{'JAX (jit)':>14}")
    for label, numpy_rate, jax_rate in evaluations(args.seconds, rng):
        print(f"  {label:<24}{numpy_rate:>14,.0f}{(f'{jax_rate:,.0f}' if jax_rate else '-'):>14}")
    backends = ["numpy"]
    try:
        import jax  # noqa: F401

        backends.append("jax")
    except ImportError:
        pass
    print(f"\nbatched engine, six-handed, {args.tables} tables (decisions/s)")
    print(f"  {'game':<20}" + "".join(f"{b:>14}" for b in backends))
    for game in ("nolimit_holdem", "potlimit_holdem", "omaha"):
        cells = [engine(game, b, args.tables, args.seconds, args.seed) for b in backends]
        print(f"  {game:<20}" + "".join(f"{c:>14,.0f}" for c in cells))


if __name__ == "__main__":
    main()
