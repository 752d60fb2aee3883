"""CLI: ``python -m agent_zoo.rnad train|experiment|summary|tabular ...`` (see ``--help``)."""

from __future__ import annotations

import argparse
import csv
import sys
from typing import Any

from agent_zoo import cli
from agent_zoo.rnad.config import VARIANTS, RNaDConfig
from agent_zoo.rnad.tabular import PRESETS
from poker_envs import catalog


LOG = "docs/results/rnad/fast_100k/fig3_part0of1.csv"  # an experiment log committed with the docs
EXAMPLES = {  # the end of each --help: commands to copy (the arguments after python -m agent_zoo.rnad)
    "": ("train --steps 2000 --variant two-stage-ema --seed 0", "experiment --figure 3 --steps 20000 --workers 3",
         "tabular --algo mmd --game kuhn --iterations 1000"),
    "train": ("train --steps 2000 --variant two-stage-ema --json", "train --steps 20000 --variant rnad --set eta=0.1 --out out/rnad_eta"),
    "experiment": ("experiment --figure 3 --steps 20000 --workers 3",
                   "experiment --figure 1 --steps 5000 --eval-every 250 --out out/rnad_fig1"),
    "summary": (f"summary {LOG} --steps 50000 100000", f"summary {LOG} --range 10000 100000 10000"),
    "tabular": ("tabular --algo rnad --game kuhn --iterations 1000",
                "tabular --algo mmd --game leduc --iterations 2000 --preset leduc-omd --json"),
}


def build_parser() -> argparse.ArgumentParser:
    def examples(command: str) -> str:
        return cli.examples("rnad", *EXAMPLES[command])

    parser = cli.parser("rnad", "R-NaD / two-stage averaging on Leduc", epilog=examples(""))
    sub = cli.subparsers(parser)
    tr = sub.add_parser("train", help="one run; prints final exploitability, nash_conv, seconds", epilog=examples("train"))
    tr.add_argument("--steps", type=cli.positive_int, required=True, help="learner steps")
    tr.add_argument("--variant", choices=sorted(VARIANTS), default="rnad", help="which averaging / regularisation")
    cli.add_seed(tr)
    cli.add_json(tr, "the final figures")
    cli.add_out(tr, None, "the log CSV, checkpoint and the policy .npz (default: nothing written)")
    ex = sub.add_parser("experiment", help="a figure's variants x seeds 0,1,2; CSV, summary JSON and PNG",
                        epilog=examples("experiment"))
    ex.add_argument("--figure", type=int, choices=(1, 3, 4, 5), required=True, help="which figure of the paper")
    ex.add_argument("--steps", type=cli.positive_int, default=20_000, help="learner steps per run")
    cli.add_out(ex, "out/rnad", "the CSV logs, checkpoints, summary JSON and PNG")
    cli.add_workers(ex, what=" (each trains its share of the runs together)")
    ex.add_argument("--checkpoint-every", type=cli.positive_int, default=5000,
                    help="learner steps between checkpoints (an interrupted run resumes from the last one)")
    su = sub.add_parser("summary", help="a finished log read at shorter budgets T (final and last fifth taken up to T)",
                        epilog=examples("summary"))
    su.add_argument("csv", nargs="+", help="experiment CSV log(s) of one figure")
    su.add_argument("--steps", type=cli.positive_int, nargs="+", default=[], help="budgets T, each at most the logged steps")
    su.add_argument("--range", type=int, nargs=3, metavar=("FIRST", "LAST", "EVERY"),
                    help="also: at how many budgets FIRST, FIRST + EVERY, ..., LAST the goal holds (R-NaD vs two-stage EMA)")
    columns = ("exploitability", "pp_exploitability", "target_exploitability", "played_exploitability")
    su.add_argument("--column", default="exploitability", choices=columns,
                    help="which logged exploitability: the reg policy (default), pp_: it post-processed, target_: the target "
                    "policy, played_: the target policy post-processed (what OpenSpiel's R-NaD played)")
    ta = sub.add_parser("tabular", help="exact tabular R-NaD or MMD on the compiled game tree; prints exploitability, nash_conv, seconds",
                        epilog=examples("tabular"))
    ta.add_argument("--algo", choices=("rnad", "mmd"), required=True, help="tabular R-NaD or magnetic mirror descent")
    ta.add_argument("--game", choices=catalog.keys(solver="rnad"), required=True, help="which game (catalog key)")
    ta.add_argument("--iterations", type=cli.positive_int, required=True, help="iterations (both players updated in each)")
    cli.add_json(ta, "the last iterate's exploitability, nash_conv and the seconds")
    cli.add_out(ta, None, "the exploitability curve, CSV and PNG (default: nothing written)")
    ta.add_argument("--preset", choices=sorted(PRESETS), default=None,
                    help="named settings (leduc-omd: optimistic chance-weighted sequence-form MMD; --algo must be mmd)")
    ta.add_argument("--set", action="extend", nargs="+", default=[], metavar="FIELD=VALUE", help="override TabularConfig fields (repeatable)")
    for p in (tr, ex):
        p.add_argument("--eval-every", type=cli.positive_int, default=500, help="learner steps between exact evaluations")
        cli.add_threads(p)
        cli.add_progress(p)
        p.add_argument("--set", action="extend", nargs="+", default=[], metavar="FIELD=VALUE", help="override RNaDConfig fields (repeatable)")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "tabular":
        from agent_zoo.rnad.tabular_run import run_tabular

        return run_tabular(args, parser)
    if args.command == "summary":
        from agent_zoo.rnad.experiment import curves, goal_met, summarize

        rows = _summary_rows(parser, args.csv)
        if any(not r.get(args.column) for r in rows):
            parser.error(f"--column {args.column}: not in every row of {args.csv} (older logs lack pp_exploitability and played_exploitability)")
        variants = list(dict.fromkeys(r["variant"] for r in rows))
        last = max(int(r["step"]) for r in rows)
        if args.range and args.range[2] < 1:
            parser.error(f"--range EVERY must be >= 1, got {args.range[2]}")
        budgets = list(args.steps) + (list(range(args.range[0], args.range[1] + 1, args.range[2])) if args.range else [])
        if not budgets:
            parser.error("give --steps T ... and/or --range FIRST LAST EVERY")
        if any(not 1 <= t <= last for t in budgets):
            parser.error(f"budgets must be in [1, {last}] (the logged steps), got {min(budgets)}..{max(budgets)}")
        if args.range and not {"rnad", "two-stage-ema"} <= set(variants):
            parser.error(f"--range compares two-stage-ema with rnad; the log has {variants}")
        data = curves(rows, args.column)
        for steps in args.steps:
            print(f"T = {steps}")
            print_summary(summarize(data, variants, steps))
        if args.range:
            verdicts = [goal_met(summarize(data, variants, t)) for t in budgets[len(args.steps):]]
            n = len(verdicts)
            below, half = sum(v[0] for v in verdicts), sum(v[1] for v in verdicts)
            both = sum(v[0] and v[1] for v in verdicts)
            print(f"budgets T = {args.range[0]}..{args.range[1]} every {args.range[2]} ({n}): two-stage-ema final below rnad's in "
                  f"all seeds at {below}, last-fifth std <= half of rnad's in all seeds at {half}, both at {both} ({both / n:.0%})")
        return 0
    cli.set_threads(args.threads)
    overrides = cli.parse_overrides(parser, args.set, RNaDConfig().to_dict())
    try:
        return _train_or_experiment(args, overrides)
    except (TypeError, ValueError) as exc:  # a configuration the learner refuses: one line, no traceback
        parser.exit(2, f"{parser.prog}: error: {exc}\n")


def _summary_rows(parser: argparse.ArgumentParser, paths: list[str]) -> list[dict[str, Any]]:
    """The rows of the experiment logs ``paths``; a file that is missing or is not such a log is an argparse error."""
    from pathlib import Path

    from agent_zoo.rnad.experiment import read_logs

    need = ("step", "variant", "seed")
    rows: list[dict[str, Any]] = []
    for path in paths:
        if not Path(path).is_file():
            parser.error(f"argument csv: no file {path}")
        try:
            found = read_logs([path])
        except (UnicodeDecodeError, csv.Error) as exc:
            parser.error(f"argument csv: {path} is not a CSV log ({exc})")
        if not found or any(k not in found[0] or not found[0][k] for k in need):
            parser.error(f"argument csv: {path} is not an experiment log: it needs a header with columns {', '.join(need)} "
                         "and at least one row (the fig<N>_part<K>of<M>.csv that `experiment` writes)")
        try:
            [int(r["step"]) for r in found]
        except (TypeError, ValueError):
            parser.error(f"argument csv: {path} has a step that is not a whole number")
        rows.extend(found)
    return rows


def _train_or_experiment(args: argparse.Namespace, overrides: dict[str, Any]) -> int:
    """The ``train`` and ``experiment`` commands."""
    if args.command == "train":
        from agent_zoo.rnad.experiment import train_one

        progress = not args.no_progress and args.json != cli.STDOUT
        res = train_one(args.variant, args.steps, args.seed, args.out, args.eval_every, progress=progress, **overrides)
        if not cli.emit_json(res, args.json):
            print(f"exploitability {res['exploitability']:.6f}  nash_conv {res['nash_conv']:.6f}  "
                  f"played_exploitability {res['played_exploitability']:.6f}  seconds {res['seconds']:.1f}")
        return 0
    from agent_zoo.rnad.experiment import run_figure

    summary = run_figure(args.figure, args.steps, args.out, args.workers, args.eval_every, args.checkpoint_every,
                         threads=args.threads, progress=not args.no_progress, **overrides)
    print_summary(summary)
    if "post_processed" in summary:
        print("post-processed as OpenSpiel's R-NaD evaluated its policies (threshold 0.03, 1/32 steps):")
        print_summary(summary["post_processed"])
    if "played" in summary:
        print("OpenSpiel's played policy (the target policy, post-processed):")
        print_summary(summary["played"])
    return 0


def print_summary(summary: dict[str, Any]) -> None:
    """One line per variant (finals and last-fifth stds per seed), plus the goal check against R-NaD."""
    for name, v in summary["variants"].items():
        finals = ", ".join(f"{d['final']:.3f}" for d in v["seeds"].values())
        stds = ", ".join(f"{d['last_fifth_std']:.3f}" for d in v["seeds"].values())
        print(f"{name:26s} final [{finals}]  last-fifth std [{stds}]")
        if "vs_rnad" in v:
            below = ", ".join(str(d["final_below"]) for d in v["vs_rnad"].values())
            ratio = ", ".join(f"{d['std_ratio']:.2f}" for d in v["vs_rnad"].values())
            print(f"{'':26s} vs rnad: final below [{below}]  std / rnad std [{ratio}]")


if __name__ == "__main__":
    sys.exit(main())
