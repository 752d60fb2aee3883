"""Three-player push/fold: how range sizes move with the three-way table's size, from cached tables.

    python benchmarks/push_fold_pooled_tables.py --ante 0.125 --cache DIR --seeds 0,1,2 --seeds 1000003,1000004,1000005

Outcome counts of several seeds' tables add up to one table of their total deals (``three_way_counts``
is a sum over deals), so two disjoint groups of cached 40M-deal tables give two independent tables of
3x the deals without building anything. Each group is solved (class-level game, CFR+, no out-of-sample
check) and the range sizes are printed side by side with their spread. Tables missing from the cache
are built (and cached) first.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from agent_zoo.push_fold.class_game import three_way_counts  # noqa: E402
from agent_zoo.push_fold.multiway import MultiwayConfig, MultiwayPushFoldSolver  # noqa: E402
from poker_envs.core.evaluator import evaluate_batch  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stack", type=float, default=10.0)
    parser.add_argument("--ante", type=float, default=0.0)
    parser.add_argument("--table-deals", type=int, default=40_000_000, help="deals in each cached table")
    parser.add_argument("--seeds", action="append", required=True, help="comma-separated table seeds of one group (repeat)")
    parser.add_argument("--cache", required=True, help="the --table-cache folder")
    parser.add_argument("--iterations", type=int, default=1000)
    args = parser.parse_args()
    evaluate = functools.partial(evaluate_batch, check=False)
    rows = []
    for group in args.seeds:
        seeds = [int(s) for s in group.split(",")]
        counts = sum(three_way_counts(args.table_deals, s, evaluate, cache_dir=args.cache) for s in seeds)
        cfg = MultiwayConfig(3, args.stack, args.ante, iterations=args.iterations, check_every=args.iterations, eval_deals=0)
        result = MultiwayPushFoldSolver(cfg, evaluate, three_way=counts).solve()
        rows.append(result.ranges())
        print(f"seeds {group} ({len(seeds) * args.table_deals:,} deals): in-sample NashConv {result.nash_conv:.1e}, "
              f"CFR+ {result.solve_seconds:.0f} s", flush=True)  # fmt: skip
    for key in rows[0]:
        values = [r[key] for r in rows]
        print(f"  {key}: " + " | ".join(f"{v:6.2f}" for v in values) + f"  (spread {max(values) - min(values):.2f})")


if __name__ == "__main__":
    main()
