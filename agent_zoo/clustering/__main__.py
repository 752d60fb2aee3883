"""Run one of the thesis' experiments and update the clustering results page.

    python -m agent_zoo.clustering functions|pluribus [--quick] [--seed 0] [--threads 1] [--out docs/results]
    python -m agent_zoo.clustering agents|prospect|study [--quick] [--seeds 0 1 2] [--threads 1] [--out docs/results]

The page goes to ``OUT/clustering.md``; its sections, figures and the per-seed JSON results of agents,
prospect and study to ``OUT/clustering/`` (a rerun reads those seeds back); the play logs and trained cluster
agents to ``--cache`` (a second run resumes from them).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from agent_zoo import cli


def build_parser() -> argparse.ArgumentParser:
    parser = cli.parser("clustering", __doc__)
    parser.add_argument("experiment", choices=["functions", "agents", "prospect", "pluribus", "study"], help="which experiment (study: every experiment for several seeds, held-out accuracy and cluster stability)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2], help="agents, prospect, study: one run per seed (the others take --seed)")
    parser.add_argument("--quick", action="store_true", help="small scale (minutes on a laptop core)")
    cli.add_seed(parser)
    cli.add_threads(parser)
    cli.add_out(parser, "docs/results", "the results page clustering.md, its sections and figures")
    parser.add_argument("--cache", metavar="DIR", default="runs/clustering", help="folder for the play logs and trained cluster agents")
    parser.add_argument("--data", type=Path, default=None,
                        help="pluribus only: folder of the Pluribus .phh files (default: ../shared/data/phh/pluribus beside the repository)")
    cli.add_progress(parser)
    return parser


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    cli.set_threads(args.threads)
    from agent_zoo.clustering import report

    report.configure(Path(args.out), Path(args.cache), progress=not args.no_progress)
    start = time.perf_counter()
    if args.experiment == "study":
        from agent_zoo.clustering.study import run_study

        run_study(args.seeds, report.FIGURES / "study")
    elif args.experiment == "pluribus":
        from agent_zoo.clustering.pluribus import PLURIBUS, run_pluribus

        run_pluribus(args.quick, args.seed, args.data or PLURIBUS)
    elif args.experiment in ("agents", "prospect"):
        from agent_zoo.clustering.full_runs import run_full

        run_full(args.experiment, args.quick, args.seeds)
    else:
        from agent_zoo.clustering import experiments

        experiments.run_functions(args.quick, args.seed)
    print(f"{args.experiment}: done in {time.perf_counter() - start:.0f} s; see {Path(args.out) / 'clustering.md'}")


if __name__ == "__main__":
    main()
