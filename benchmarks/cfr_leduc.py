"""Speed of our CFR, CFR+ and DCFR on Leduc, side by side with OpenSpiel's C++ CFR+ in the same run.

    python benchmarks/cfr_leduc.py [--max-seconds 60] [--no-openspiel] [--png docs/results/cfr_leduc.png]

Takes about 2 + 1 + 60 s for ours (vanilla CFR does not reach 1e-4 in a minute) and 30-80 s for OpenSpiel.

Exploitability is OpenSpiel's definition (NashConv / 2, chips per game) of the average policy.
Ours is evaluated exactly after EVERY iteration, so the first iteration below each target is
exact; "wall" counts iterations plus those evaluations, "iter-only" the iterations alone.
OpenSpiel's C++ exploitability costs far more than its iteration, so its solver is evaluated
every ``--openspiel-eval-every`` iterations with the clock stopped: its crossing iteration is
rounded up to that grid and its time counts iterations only (in OpenSpiel's favour).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field

import numpy as np

from agent_zoo.cfr import GameTree, make_solver
from poker_envs.games.leduc import LeducGame

TARGETS = (1e-3, 1e-4)


@dataclass
class Run:
    name: str
    iterations: int = 0
    iter_seconds: float = 0.0  # time spent in iterations only
    wall_seconds: float = 0.0  # iterations + exploitability evaluations
    eval_seconds: float = 0.0
    evaluations: int = 0
    hits: dict[float, tuple[int, float, float]] = field(default_factory=dict)  # target -> (iter, wall, iter-only)
    curve: list[tuple[float, float]] = field(default_factory=list)  # (wall seconds, exploitability)


def run_ours(tree: GameTree, algo: str, max_seconds: float) -> Run:
    solver = make_solver(tree, algo)
    run = Run(f"ours {algo}")
    while run.wall_seconds < max_seconds and len(run.hits) < len(TARGETS):
        t0 = time.perf_counter()
        solver.iterate(1)
        t1 = time.perf_counter()
        expl = solver.exploitability().exploitability
        t2 = time.perf_counter()
        run.iter_seconds += t1 - t0
        run.eval_seconds += t2 - t1
        run.evaluations += 1
        run.wall_seconds += t2 - t0
        run.iterations = solver.iteration
        run.curve.append((run.wall_seconds, expl))
        for target in TARGETS:
            if expl < target and target not in run.hits:
                run.hits[target] = (run.iterations, run.wall_seconds, run.iter_seconds)
    return run


def run_openspiel(max_seconds: float, eval_every: int) -> Run | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("leduc_poker")
    solver = pyspiel.CFRPlusSolver(game)
    run = Run("OpenSpiel C++ CFRPlusSolver")
    while run.iter_seconds < max_seconds and len(run.hits) < len(TARGETS):
        t0 = time.perf_counter()
        for _ in range(eval_every):
            solver.evaluate_and_update_policy()
        t1 = time.perf_counter()
        expl = pyspiel.exploitability(game, solver.average_policy())
        t2 = time.perf_counter()
        run.iterations += eval_every
        run.iter_seconds += t1 - t0
        run.eval_seconds += t2 - t1
        run.evaluations += 1
        run.wall_seconds = run.iter_seconds
        run.curve.append((run.iter_seconds, expl))
        for target in TARGETS:
            if expl < target and target not in run.hits:
                run.hits[target] = (run.iterations, run.iter_seconds, run.iter_seconds)
    return run


def _fmt_hit(run: Run, target: float) -> str:
    if target not in run.hits:
        return f"not reached in {run.iterations} it"
    it, wall, only = run.hits[target]
    return f"{it} it, {wall:.2f} s wall ({only:.2f} s iter-only)"


def report(runs: list[Run], reference: Run | None) -> str:
    lines = [
        "| solver | ms / iteration | ms / exploitability eval | to 1e-3 | to 1e-4 |",
        "|---|---|---|---|---|",
    ]
    for r in runs + ([reference] if reference else []):
        per_it = 1e3 * r.iter_seconds / max(r.iterations, 1)
        per_eval = 1e3 * r.eval_seconds / max(r.evaluations, 1)
        lines.append(f"| {r.name} | {per_it:.3f} | {per_eval:.3f} | {_fmt_hit(r, 1e-3)} | {_fmt_hit(r, 1e-4)} |")
    if reference is not None and 1e-4 in reference.hits:
        ref = reference.hits[1e-4][2]
        lines.append("")
        for r in runs:
            if 1e-4 in r.hits:
                _, wall, only = r.hits[1e-4]
                lines.append(f"- {r.name}: reaches 1e-4 {ref / wall:.1f}x sooner than OpenSpiel C++ CFR+ "
                             f"counting our evaluations ({ref / only:.1f}x iterations only)")
    return "\n".join(lines)


def plot(runs: list[Run], path: str) -> None:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(9, 4.5))
    ax = fig.subplots()
    for r in runs:
        xs, ys = zip(*r.curve)
        ax.loglog(np.maximum(xs, 1e-4), ys, label=r.name)
    for target in TARGETS:
        ax.axhline(target, color="grey", lw=0.6, ls="--")
    ax.set_xlabel("seconds (ours: with an exact evaluation per iteration; OpenSpiel: iterations only)")
    ax.set_ylabel("exploitability (NashConv / 2), chips per game")
    ax.set_title("Leduc hold'em: CFR family")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))  # beside the axes: no curve is ever covered
    fig.tight_layout()
    from agent_zoo.figures import save_figure
    save_figure(fig, path, dpi=120)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--max-seconds", type=float, default=60.0, help="budget per solver of ours")
    p.add_argument("--openspiel-max-seconds", type=float, default=180.0, help="iteration-time budget of OpenSpiel")
    p.add_argument("--algos", nargs="+", default=["cfr+", "dcfr", "cfr"], choices=["cfr", "cfr+", "dcfr"])
    p.add_argument("--no-openspiel", action="store_true")
    p.add_argument("--openspiel-eval-every", type=int, default=10)
    p.add_argument("--png", help="save exploitability-vs-time curves here")
    args = p.parse_args()

    t0 = time.perf_counter()
    tree = GameTree.build(LeducGame())
    print(f"Leduc compiled in {time.perf_counter() - t0:.3f} s: {tree.num_infosets} infosets, "
          f"{tree.num_terminals} terminals, {tree.num_histories} histories")
    runs = []
    for algo in args.algos:
        runs.append(run_ours(tree, algo, args.max_seconds))
        print(f"{runs[-1].name}: done ({runs[-1].iterations} iterations)", flush=True)
    reference = None if args.no_openspiel else run_openspiel(args.openspiel_max_seconds, args.openspiel_eval_every)
    if reference is None and not args.no_openspiel:
        print("pyspiel is not installed: no OpenSpiel reference")
    print(report(runs, reference))
    if args.png:
        plot(runs + ([reference] if reference else []), args.png)
        print(f"curves saved to {args.png}")


if __name__ == "__main__":
    main()
