"""The ``tabular`` subcommand of ``python -m agent_zoo.rnad`` (curve CSV and PNG), and the comparison figure.

``python -m agent_zoo.rnad.tabular_run --tabular A.csv B.csv --network LOG.csv ... --png FIG.png`` draws the
tabular solvers' last-iterate curves (x = iterations) next to the network runs' logged curves
(x = learner steps), as in ``docs/results/rnad_tabular.png``.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from agent_zoo import cli
from agent_zoo.rnad.tabular import PRESETS, TabularConfig, config_defaults, solve

CURVE_FIELDS = ("algo", "game", "iteration", "exploitability", "average_exploitability")
LOG_POINTS = 200  # evaluations on the curve, log-spaced in the iteration number


def run_tabular(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Solve, print the last iterate's exploitability (JSON or text), and write the curve under ``--out``."""
    try:
        preset = PRESETS[args.preset] if args.preset else {}
        if preset and preset["algo"] != args.algo:
            parser.error(f"--preset {args.preset} is for --algo {preset['algo']}, got --algo {args.algo}")
        overrides = cli.parse_overrides(parser, args.set, config_defaults())
        config = TabularConfig(**{**preset, **overrides, "algo": args.algo})
    except ValueError as err:
        parser.error(f"--set: {err}")
    solver, curve, seconds = solve(args.game, config, args.iterations, LOG_POINTS if args.out else 0)
    last, avg = solver.exploitability(), solver.average_exploitability()
    result: dict[str, Any] = {
        "algo": args.algo, "game": args.game, "iterations": args.iterations,
        "exploitability": last.exploitability, "nash_conv": last.nash_conv,
        "average_exploitability": avg.exploitability, "seconds": seconds,
        "iterations_per_second": args.iterations / seconds if seconds > 0 else None,
        "reg_updates": solver.reg_updates, "config": asdict(config),
    }  # fmt: skip
    if args.out:
        stem = cli.out_dir(args.out) / f"tabular_{args.algo}_{args.game}"
        write_curve(stem.with_suffix(".csv"), args.algo, args.game, curve)
        plot_curves({f"{args.algo} ({args.game})": curve}, stem.with_suffix(".png"))
    if not cli.emit_json(result, args.json):
        print(f"exploitability {last.exploitability:.3e} (last iterate; average {avg.exploitability:.3e})  "
              f"nash_conv {last.nash_conv:.3e}  seconds {seconds:.1f}")  # fmt: skip
    return 0


def write_curve(path: Path, algo: str, game: str, curve: Sequence[dict[str, float]]) -> None:
    """The curve as CSV (one row per evaluation)."""
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=CURVE_FIELDS)
        writer.writeheader()
        for row in curve:
            writer.writerow({"algo": algo, "game": game, **row})


def read_curve(path: str | Path) -> dict[str, np.ndarray]:
    """A curve CSV back as arrays (iteration, exploitability, average_exploitability) plus its label."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise ValueError(f"{path} has no rows")
    out = {k: np.array([float(r[k]) for r in rows]) for k in CURVE_FIELDS[2:]}
    out["label"] = np.array(f"{rows[0]['algo']} ({rows[0]['game']})")
    return out


def plot_curves(curves: dict[str, Sequence[dict[str, float]]], path: Path) -> None:
    """Last-iterate (solid) and average (dashed) exploitability per curve, log-log."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 4))
    ax = fig.subplots()
    for label, curve in curves.items():
        x = [r["iteration"] for r in curve]
        (line,) = ax.loglog(x, [r["exploitability"] for r in curve], label=f"{label}, last iterate")
        ax.loglog(x, [r["average_exploitability"] for r in curve], ls="--", color=line.get_color(), label=f"{label}, average")
    _finish(ax, "iterations")
    fig.tight_layout()
    from agent_zoo.figures import save_figure
    save_figure(fig, path, dpi=120)


def _finish(ax: Any, xlabel: str) -> None:
    ax.set_xlabel(xlabel)
    ax.set_ylabel("exploitability (NashConv / 2, chips)")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7)


def plot_comparison(tabular: Sequence[str | Path], network: Sequence[str | Path], path: str | Path) -> None:
    """Left: tabular curves (x = iterations); right: network R-NaD runs (x = learner steps, mean over seeds)."""
    from matplotlib.figure import Figure

    from agent_zoo.rnad.experiment import curves, read_logs

    fig = Figure(figsize=(11, 4.2))
    left, right = fig.subplots(1, 2)
    for p in tabular:
        c = read_curve(p)
        (line,) = left.loglog(c["iteration"], c["exploitability"], label=f"{c['label']}, last iterate")
        left.loglog(c["iteration"], c["average_exploitability"], ls="--", color=line.get_color(), label=f"{c['label']}, average")
    left.set_title("tabular, exact values (Leduc)", fontsize=9)
    _finish(left, "iterations")
    for p in network:
        data = curves(read_logs([p]))
        for variant, seeds in data.items():
            n = min(len(x) for x, _ in seeds.values())
            x = next(iter(seeds.values()))[0][:n]
            y = np.array([v[:n] for _, v in seeds.values()])
            keep = x > 0
            (line,) = right.loglog(x[keep], y.mean(0)[keep], label=f"{variant} [{Path(p).parent.name}]", lw=1.2)
            right.fill_between(x[keep], y.min(0)[keep], y.max(0)[keep], color=line.get_color(), alpha=0.15, lw=0)
    right.set_title("network R-NaD (reg policy, mean and min-max over seeds 0-2)", fontsize=9)
    _finish(right, "learner steps")
    fig.tight_layout()
    from agent_zoo.figures import save_figure
    save_figure(fig, path, dpi=120)


def build_parser() -> argparse.ArgumentParser:
    """The figure command's parser."""
    parser = cli.parser("rnad.tabular_run", "the tabular solvers' curves next to the network runs' (one PNG)")
    parser.add_argument("--tabular", nargs="+", required=True, help="curve CSVs written by the tabular subcommand's --out")
    parser.add_argument("--network", nargs="+", required=True, help="experiment CSV logs of the network runs")
    parser.add_argument("--png", required=True, help="path of the PNG to write")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    plot_comparison(args.tabular, args.network, args.png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
