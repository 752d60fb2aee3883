"""Poker-CNN value players on no-limit hold'em (Hwang & Kaneko): a few generations, then a round robin.

    python examples/cnn_generations.py                          # small budget, a few minutes on CPU
    python -m agent_zoo.cnn train --preset small --out runs/cnn  # the documented run (about an hour)
    python -m agent_zoo.cnn evaluate --dir runs/cnn              # its round robin

Generation 1 learns the chip result of (state, action) from heuristic-vs-heuristic hands; generation
k+1 from hands of every pairing among the heuristic and generations 1..k (``agent_zoo.cnn``). The
generations then meet random and the heuristic in the zoo tournament (``cnn:<checkpoint>`` agents),
heads-up at 50 big blinds with one action id per chip amount, duplicate deals, 95% intervals.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from agent_zoo import cli

# 50 big blinds of 2 chips, as the document; the CNN agents read the Poker-CNN planes of their observations
ENV_CONFIG = {"bet_sizing": "chips", "starting_stack": 100, "obs_encoder": "poker_cnn"}


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = cli.parser("examples/cnn_generations.py", __doc__.split("\n\n")[0])
    parser.add_argument("--generations", type=int, default=2, help="generations to train")
    parser.add_argument("--heuristic-hands", type=int, default=600, help="heuristic-vs-heuristic hands for generation 1")
    parser.add_argument("--hands-per-pairing", type=int, default=150, help="hands per pairing for later generations")
    parser.add_argument("--hands", type=int, default=400, help="hands per tournament match")
    cli.add_seed(parser)
    cli.add_out(parser, "out/examples/cnn_generations", "the run: data, checkpoints, log (a second run resumes)")
    parser.add_argument("--preset", default="tiny", help="agent_zoo.cnn preset the budget above is applied to")
    cli.add_threads(parser)
    cli.add_progress(parser)
    args = parser.parse_args(argv)

    import torch

    from agent_zoo.cnn.config import PRESETS
    from agent_zoo.cnn.train import Trainer
    from agent_zoo.tournament import TournamentConfig, run_tournament

    torch.set_num_threads(args.threads)
    start = time.perf_counter()
    cfg = replace(
        PRESETS[args.preset],
        heuristic_hands=args.heuristic_hands,
        hands_per_pairing=args.hands_per_pairing,
        generations=args.generations,
        seed=args.seed,
    )
    paths = Trainer(cfg, cli.out_dir(args.out), show_progress=not args.no_progress).run(args.generations)
    print(f"{len(paths)} generations in {args.out} ({time.perf_counter() - start:.0f} s)")
    agents = ["random", "heuristic"] + [f"cnn:{p}" for p in paths]
    result = run_tournament(TournamentConfig(game="nolimit", agents=agents, hands=args.hands, seed=args.seed, env_config=ENV_CONFIG, progress=False))
    print(result.table())
    print(f"{time.perf_counter() - start:.0f} s in all")
    return {"checkpoints": paths, "tournament": result}


if __name__ == "__main__":
    main()
