"""R-NaD on Leduc, plain and with two-stage averaging (Hirano & Tsuruoka), then a tournament.

    python examples/rnad_leduc.py                    # 3,000 learner steps per variant, a few minutes on CPU
    python -m agent_zoo.rnad experiment --figure 3   # the document's figure, 20,000 steps x 3 seeds (long)

Each variant trains with ``agent_zoo.rnad`` and reports its exact exploitability (NashConv / 2, chips per
game); the saved policies then play random and a CFR+ policy in the zoo tournament (duplicate deals).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agent_zoo import cli


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = cli.parser("examples/rnad_leduc.py", __doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=3000, help="R-NaD learner steps per variant")
    parser.add_argument("--variants", nargs="+", default=["rnad", "two-stage-ema"], help="agent_zoo.rnad variants to train")
    parser.add_argument("--hands", type=int, default=4000, help="hands per tournament match")
    cli.add_seed(parser)
    cli.add_out(parser, "out/examples/rnad_leduc", "the runs and the CFR+ reference policy")
    cli.add_threads(parser)
    cli.add_progress(parser)
    args = parser.parse_args(argv)

    import torch

    from agent_zoo.rnad.experiment import train_one
    from agent_zoo.showcase import solve_cfr_policy
    from agent_zoo.tournament import TournamentConfig, run_tournament

    torch.set_num_threads(args.threads)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    trained: dict[str, Any] = {}
    for variant in args.variants:
        # A finished run in --out is reused, an interrupted one resumes (agent_zoo.rnad checkpoints).
        res = train_one(variant, args.steps, args.seed, out / variant, eval_every=max(1, args.steps // 10), progress=not args.no_progress)
        trained[variant] = res
        print(f"{variant:<15} {args.steps} steps: exploitability {res['exploitability']:.4f} chips/game (NashConv/2)")

    cfr_path, cfr_expl = solve_cfr_policy("leduc", out, 1000)
    print(f"CFR+ reference: exploitability {cfr_expl:.1e}")
    agents = ["random", f"cfr:{cfr_path}"] + [f"rnad:{out / v / f'{v}_seed{args.seed}.npz'}" for v in args.variants]
    result = run_tournament(TournamentConfig(game="leduc", agents=agents, hands=args.hands, seed=args.seed, progress=False))
    print(result.table())
    print(f"{time.perf_counter() - start:.0f} s")
    return {"trained": trained, "tournament": result}


if __name__ == "__main__":
    main()
