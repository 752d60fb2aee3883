"""CLI: ``python -m agent_zoo.cnn train --preset small --out DIR`` / ``evaluate --dir DIR [--out DIR2]`` /
``calibrate [--json PATH]`` / ``spread --evals DIR[,DIR] ... --out DIR``."""

from __future__ import annotations

import argparse
import time

from agent_zoo import cli
from agent_zoo.cnn.config import PRESETS
from agent_zoo.cnn.heuristic import RANDOM_READINGS, SIZINGS


SEEDS = "docs/results/cnn/by_seed"  # round robins committed with the docs, so the spread example runs as is
EXAMPLES = {  # the end of each --help: commands to copy (the arguments after python -m agent_zoo.cnn)
    "": ("train --preset small --out out/cnn", "evaluate --dir out/cnn --hands 2000",
         f"spread --evals {SEEDS}/s0 {SEEDS}/s1 {SEEDS}/s2 --out out/cnn_spread"),
    "train": ("train --preset tiny --out out/cnn_tiny", "train --preset small --out out/cnn --seed 1 --generations 2"),
    "evaluate": ("evaluate --dir out/cnn --hands 2000",
                 "evaluate --dir out/cnn --hands 10000 --candidates subset --out out/cnn_eval_subset"),
    "calibrate": ("calibrate --hands 2000 --selfplay-hands 2000", "calibrate --json out/cnn_calibration.json"),
    "spread": (f"spread --evals {SEEDS}/s0 {SEEDS}/s1 {SEEDS}/s2 --out out/cnn_spread",
               f"spread --evals {SEEDS}/s0,{SEEDS}/s0_b {SEEDS}/s1,{SEEDS}/s1_b --labels s0 s1 --out out/cnn_spread_pooled"),
}


def build_parser() -> argparse.ArgumentParser:
    def examples(command: str) -> str:
        return cli.examples("cnn", *EXAMPLES[command])

    parser = cli.parser("cnn", "CNN value players for no-limit hold'em", epilog=examples(""))
    sub = cli.subparsers(parser)
    tr = sub.add_parser("train", help="train generations (resumes from --out when run again)", epilog=examples("train"))
    tr.add_argument("--preset", choices=sorted(PRESETS), default="small", help="budget and network preset")
    tr.add_argument("--out", metavar="DIR", required=True, help="run folder (data, checkpoints, log)")
    tr.add_argument("--generations", type=cli.positive_int, default=None, help="train up to this generation (default: the preset's)")
    cli.add_seed(tr, default=None, what="the run (default: the preset's)")
    ev = sub.add_parser("evaluate", help="round robin of random, heuristic and the generations in --dir "
                        "(resumable; several processes with the same arguments share the pairs)", epilog=examples("evaluate"))
    ev.add_argument("--dir", metavar="DIR", required=True, help="the run folder that train wrote")
    ev.add_argument("--hands", type=int, default=2_000, help="hands per pair (even: deals x 2 seatings)")
    ev.add_argument("--candidates", choices=("full", "subset"), default="full", help="candidate actions CNN players score")
    cli.add_seed(ev, default=12345)
    ev.add_argument("--allin-ev", type=cli.non_negative_int, default=0, metavar="BOARDS",
                    help="score showdowns decided before the river by their equity (BOARDS random boards "
                         "pre-flop; 0: realized chips)")
    ev.add_argument("--heuristic-sizing", choices=SIZINGS, default=None,
                    help="judge against the heuristic with this raise size instead of the run's own")
    ev.add_argument("--random-player", choices=RANDOM_READINGS, default=None,
                    help="judge against this random player instead of the run's own")
    cli.add_out(ev, None, "results.json, table.md and the PNGs (default: DIR/eval)")
    ca = sub.add_parser("calibrate", help="heuristic vs random under every reading of the paper (Table 3: +6.82)",
                        epilog=examples("calibrate"))
    ca.add_argument("--hands", type=int, default=100_000, help="hands per pair (even: duplicate deals x 2 seatings)")
    ca.add_argument("--selfplay-hands", type=cli.positive_int, default=20_000,
                    help="heuristic v heuristic hands measuring actions per hand")
    cli.add_seed(ca, default=17)
    cli.add_json(ca, "the records")
    for p in (tr, ev, ca):
        cli.add_threads(p)
        cli.add_progress(p)
    sp = sub.add_parser("spread", help="round robins of several training seeds side by side, with their spread",
                        epilog=examples("spread"))
    sp.add_argument("--evals", nargs="+", required=True, metavar="DIR[,DIR]",
                    help="one per training seed: evaluate's output folder(s), comma-separated stages pooled")
    sp.add_argument("--labels", nargs="+", default=None, help="one per --evals entry (default: seed 0, seed 1, ...)")
    sp.add_argument("--reference", metavar="PATH", default=None, help="another results.json to show beside them")
    sp.add_argument("--reference-label", default="reference", help="its column title")
    sp.add_argument("--out", metavar="DIR", required=True, help="folder, created when missing, for spread.json, spread.md, spread.png")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)

    if hasattr(args, "threads"):  # spread runs no network
        cli.set_threads(args.threads)
    t0 = time.perf_counter()
    if args.command == "train":
        from dataclasses import replace

        from agent_zoo.cnn.train import Trainer

        cfg = PRESETS[args.preset]
        if args.seed is not None:
            cfg = replace(cfg, seed=args.seed)
        paths = Trainer(cfg, args.out, show_progress=not args.no_progress).run(args.generations)
        print(f"trained {len(paths)} generations in {args.out} ({time.perf_counter() - t0:.0f} s this session)")
    elif args.command == "calibrate":
        from agent_zoo.cnn.calibrate import calibrate, fold_free_rows, fold_free_table, records, table

        if args.hands < 2 or args.hands % 2:
            parser.error("--hands must be an even number >= 2 (each deal is played twice, seats swapped)")
        rows = calibrate(args.hands, args.seed, args.selfplay_hands, progress=not args.no_progress)
        free = fold_free_rows(args.hands, args.seed, args.selfplay_hands)
        if not cli.emit_json(records(rows, free, args.hands, args.seed), args.json):
            print(table(rows, args.hands, args.seed) + "\n\n" + fold_free_table(free, args.hands, args.seed))
            print(f"({time.perf_counter() - t0:.0f} s)")
    elif args.command == "spread":
        _spread(parser, args)
    else:
        from agent_zoo.cnn.evaluate import check_run_dir, evaluate_dir

        if args.hands < 2 or args.hands % 2:
            parser.error("--hands must be an even number >= 2 (each deal is played twice, seats swapped)")
        try:
            check_run_dir(args.dir)
        except ValueError as exc:
            parser.error(f"argument --dir: {exc}")
        result = evaluate_dir(args.dir, args.hands, args.candidates, args.seed, args.out,
                              show=not args.no_progress, allin_ev=args.allin_ev or None,
                              heuristic_sizing=args.heuristic_sizing, random_player=args.random_player)
        if result is None:
            print("this process's pairs are done; other processes still play the rest (the last one writes the table)")
            return 0
        print(result.table())
        print(f"({time.perf_counter() - t0:.0f} s)")
    return 0


def _spread(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``spread``: line up the seeds' round robins, write JSON, markdown and PNG, print the table."""
    import json
    from pathlib import Path

    from agent_zoo.cnn.spread import load_result, plot_spread, pool_stages, spread

    labels = args.labels or [f"seed {k}" for k in range(len(args.evals))]
    if len(labels) != len(args.evals):
        parser.error(f"--labels needs one label per --evals entry ({len(args.evals)}), got {len(labels)}")
    try:
        results = [pool_stages([load_result(d) for d in entry.split(",")]) for entry in args.evals]
    except ValueError as exc:
        parser.error(f"argument --evals: {exc}")
    try:
        ref = load_result(args.reference) if args.reference else None
    except ValueError as exc:
        parser.error(f"argument --reference: {exc}")
    sp = spread(results, labels)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "spread.json").write_text(json.dumps({**sp.to_dict(), "evals": args.evals}, indent=1))
    table = sp.markdown(ref, args.reference_label)
    (out / "spread.md").write_text(table + "\n")
    plot_spread(sp, out / "spread.png", ref, args.reference_label)
    print(table)


if __name__ == "__main__":
    raise SystemExit(main())
