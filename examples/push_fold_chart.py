"""Solve heads-up push/fold (the push-or-fold blog post), show the chart, and play the chart in the environment.

    python examples/push_fold_chart.py --stack 10 --ante 0.125
    python -m agent_zoo.push_fold --stack 10 --ante 0.125 --out charts      # the solver's own command

1. The Nash chart for one stack and ante: 13x13 grids (pairs on the diagonal, suited above, offsuit
   below) for the small blind's pushes and the big blind's calls, as text and PNG.
2. How the ranges change with the stack (``--stacks``): push and call ranges in percent of hands.
3. A tournament on ``push_fold_v0`` at that stack: the chart, the chart solved for the wrong stack
   (``push_fold:20``) and random, big blinds per hand with 95% intervals (duplicate deals).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agent_zoo import cli


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = cli.parser("examples/push_fold_chart.py", __doc__.split("\n\n")[0])
    parser.add_argument("--stack", type=float, default=10.0, help="effective stack in big blinds")
    parser.add_argument("--ante", type=float, default=0.125, help="ante per player in big blinds")
    parser.add_argument("--stacks", type=float, nargs="*", default=[2, 4, 6, 8, 10, 12, 15, 20], help="stacks for the range table")
    parser.add_argument("--hands", type=int, default=4000, help="hands per tournament match (0: no tournament)")
    cli.add_seed(parser)
    cli.add_out(parser, "out/examples/push_fold", "the chart PNG")
    args = parser.parse_args(argv)

    from agent_zoo.push_fold.chart import chart_text, save_chart_png
    from agent_zoo.push_fold.solver import solve_push_fold
    from agent_zoo.tournament import TournamentConfig, run_tournament

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    result = solve_push_fold(args.stack, args.ante)
    print(chart_text(result))
    png = save_chart_png(result, out / f"push_fold_{args.stack:g}bb_ante{args.ante:g}.png")
    print(f"exploitability {result.exploitability:.1e} bb/hand (NashConv/2), solved in {result.seconds:.3f} s; chart: {png}")

    print(f"\nranges by stack (ante {args.ante:g} bb, percent of the 1,326 hands)\n{'stack':>6} {'SB push %':>10} {'BB call %':>10}")
    ranges = []
    for stack in args.stacks:
        r = solve_push_fold(stack, args.ante)
        ranges.append((stack, r.sb_push_pct, r.bb_call_pct))
        print(f"{stack:>6g} {r.sb_push_pct:>10.1f} {r.bb_call_pct:>10.1f}")

    tournament = None
    if args.hands > 0:
        config = {"stack_bb": args.stack, "ante_bb": args.ante}
        tournament = run_tournament(TournamentConfig(
            game="push_fold", agents=["push_fold", "push_fold:20", "random"], hands=args.hands, seed=args.seed, env_config=config, progress=False
        ))
        print("\n" + tournament.table())
    print(f"\n{time.perf_counter() - start:.1f} s")
    return {"result": result, "ranges": ranges, "tournament": tournament, "png": png}


if __name__ == "__main__":
    main()
