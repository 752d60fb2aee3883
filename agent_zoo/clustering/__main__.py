"""Run one of the thesis' experiments and update the clustering results page.

    python -m agent_zoo.clustering functions|pluribus [--quick] [--seed 0] [--threads 1] [--out out]
    python -m agent_zoo.clustering agents|prospect|study [--quick] [--seeds 0 1 2] [--threads 1] [--out out]
    python -m agent_zoo.clustering study --full [--experiments agents-full agents-thesis] [--seeds 0 1 2]

The page goes to ``OUT/clustering.md`` (``--out docs/results`` updates the project's results page); its sections, figures and the per-seed JSON results of agents,
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
    parser.add_argument("--quick", action="store_true", help="small scale (minutes on a laptop core; not for study)")
    parser.add_argument("--full", action="store_true",
                        help="study only: our full scale (20,000 hands per agent experiment, 8,192 decisions per prospect "
                             "agent) in its own section, study_full")
    parser.add_argument("--experiments", nargs="+", default=None, metavar="NAME",
                        help="study only: which of agents-full, agents-thesis, prospect, prospect-hands (default: all)")
    cli.add_seed(parser)
    cli.add_threads(parser)
    cli.add_out(parser, "out", "the results page clustering.md, its sections and figures")
    parser.add_argument("--cache", metavar="DIR", default="runs/clustering", help="folder for the play logs and trained cluster agents")
    parser.add_argument("--data", type=Path, default=None,
                        help="pluribus only: folder of the Pluribus .phh files (default: ../shared/data/phh/pluribus beside the repository)")
    cli.add_progress(parser)
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.experiment != "study" and (args.full or args.experiments):
        parser.error(f"--full and --experiments are options of study, not of {args.experiment}")
    if args.experiment == "study" and args.quick:
        parser.error("study has no --quick scale (its default is already reduced); use --full for the full scale")
    cli.set_threads(args.threads)
    from agent_zoo.clustering import report
    from agent_zoo.clustering.study import EXPERIMENTS

    if args.experiments and sorted(set(args.experiments) - set(EXPERIMENTS)):
        parser.error(f"--experiments: unknown {sorted(set(args.experiments) - set(EXPERIMENTS))}; choose from {', '.join(EXPERIMENTS)}")
    report.configure(Path(args.out), Path(args.cache), progress=not args.no_progress)
    start = time.perf_counter()
    if args.experiment == "study":
        from agent_zoo.clustering.study import FULL_SCALE, FULL_TITLE, StudyScale, run_study

        experiments = tuple(args.experiments or EXPERIMENTS)
        flags = " --full" * args.full + (f" --experiments {' '.join(experiments)}" if args.experiments else "")
        section = "study_full" if args.full else "study"
        run_study(args.seeds, report.FIGURES / section, FULL_SCALE if args.full else StudyScale(), experiments, section,
                  FULL_TITLE if args.full else None, flags)
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
