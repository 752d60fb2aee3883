"""Print the threshold game's symmetric equilibrium thresholds (exact), optionally beside sampled RM.

    python -m agent_zoo.threshold [--players 2 3 ...] [--alphas 2 3 4] [--json [PATH]] [--sampled DEALS --seed S]

The threshold t means: bet with card c >= t, fold below. ``nash_conv`` is the sum of the n players'
best-response gains, ``exploitability`` is NashConv / n (OpenSpiel's definition); both are exact.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from agent_zoo import cli
from agent_zoo.threshold.solver import sampled_regret_matching, solve_threshold

# The source document's table (see docs/references.md), estimated there by sampled regret matching.
DOCUMENT_TABLE = {
    2: (49, 65, 72), 3: (57, 70, 77), 4: (64, 74, 79), 5: (68, 76, 81), 6: (71, 78, 83),
    7: (73, 80, 84), 8: (75, 82, 85), 9: (77, 83, 86), 10: (79, 84, 87),
}  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    parser = cli.parser("threshold", __doc__)
    parser.add_argument("--players", type=int, nargs="+", default=list(range(2, 11)), help="values of n (>= 2)")
    parser.add_argument("--alphas", type=float, nargs="+", default=[2.0, 3.0, 4.0], help="odds (> 1)")
    cli.add_json(parser, "a list of {n, alpha, threshold, ...}")
    parser.add_argument("--sampled", type=int, default=0, metavar="DEALS", help="also run sampled RM this long (0: not)")
    parser.add_argument("--batch", type=int, default=None,
                        help="deals per sampled RM update, with --sampled (1 = the document; default: 100)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the sampled RM, with --sampled (default: 0)")
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    for n in args.players:
        if n < 2:
            parser.error(f"--players: n must be >= 2, got {n}")
    for a in args.alphas:
        if not a > 1:
            parser.error(f"--alphas: alpha must be > 1, got {a}")
    if args.sampled < 0:
        parser.error(f"argument --sampled: must be >= 0, got {args.sampled}")
    if not args.sampled:  # the exact table draws nothing: options of the sampled run cannot take effect
        for flag, value in (("--batch", args.batch), ("--seed", args.seed)):
            if value is not None:
                parser.error(f"argument {flag}: only with --sampled DEALS (the exact table is not sampled)")
    args.batch = 100 if args.batch is None else args.batch
    args.seed = 0 if args.seed is None else args.seed
    if args.batch < 1:
        parser.error(f"argument --batch: must be >= 1, got {args.batch}")
    rng = np.random.default_rng(args.seed)
    rows = []
    started = time.perf_counter()
    for n in args.players:
        for a in args.alphas:
            res = solve_threshold(n, a)
            row = {"n": n, "alpha": a, "threshold": res.threshold, "nash_conv": res.nash_conv,
                   "exploitability": res.exploitability}  # fmt: skip
            if args.sampled:
                s = sampled_regret_matching(n, a, args.sampled, rng, batch=args.batch)
                row["sampled_threshold"] = s.threshold
                row["sampled_exploitability"] = s.exploitability
            rows.append(row)
    if cli.emit_json(rows, args.json):
        return
    by = {(r["n"], r["alpha"]): r for r in rows}
    head = "  n | " + " | ".join(f"alpha={a:g}" for a in args.alphas)
    if all(a in (2.0, 3.0, 4.0) for a in args.alphas):
        head += " | document (alpha=" + ",".join(f"{a:g}" for a in args.alphas) + ")"
    print("Exact symmetric equilibrium: bet with card >= threshold (cards 0..100)")
    print(head)
    for n in args.players:
        cells = []
        for a in args.alphas:
            r = by[(n, a)]
            cell = f"{r['threshold']:g}"
            if args.sampled:
                cell += f" (RM {r['sampled_threshold']:.1f})"
            cells.append(f"{cell:>7}")
        line = f"{n:>3} | " + " | ".join(cells)
        if n in DOCUMENT_TABLE and all(a in (2.0, 3.0, 4.0) for a in args.alphas):
            line += " | " + ", ".join(str(DOCUMENT_TABLE[n][int(a) - 2]) for a in args.alphas)
        print(line)
    worst = max(r["nash_conv"] for r in rows)
    print(f"largest NashConv (sum of best-response gains) over the table: {worst:.3g}; "
          f"exploitability (NashConv / n) likewise <= {worst / min(args.players):.3g}; "
          f"{time.perf_counter() - started:.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
