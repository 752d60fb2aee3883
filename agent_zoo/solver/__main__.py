"""Solve a heads-up postflop spot written as a TexasSolver command file, print the exploitability as it falls.

    python -m agent_zoo.solver agent_zoo/solver/spots/river.txt
    python -m agent_zoo.solver agent_zoo/solver/spots/turn.txt --json result.json --grid root.png
    python -m agent_zoo.solver agent_zoo/solver/spots/small.txt --conventions texassolver --no-progress

The file's commands (``set_pot``, ``set_board``, ``set_range_oop``, ``set_bet_sizes``, ``set_accuracy``,
``set_max_iteration``, ``dump_result``, ...) are those of TexasSolver's console (github.com/bupticybee/TexasSolver);
``dump_result PATH`` writes the strategies and expected values of the first ``set_dump_rounds`` streets as JSON.
Exploitability is in percent of the starting pot, as TexasSolver prints it. ``--threads N`` (default: the
file's ``set_thread_num``) solves N runs of last-street boards at once with numpy (the same numbers as one thread;
it pays from the flop, where there is a run per turn card); numpy's matrix products also use the BLAS threads
``OPENBLAS_NUM_THREADS`` allows when Python starts. ``--conventions texassolver`` solves
the game TexasSolver solves (its bet rounding, no minimum raise, its chance weights); the default is the rules of
this package's environments.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from agent_zoo import cli
from agent_zoo.solver.commands import load_commands
from agent_zoo.solver.solve import solve, to_json
from agent_zoo.solver.ranges import NUM_COMBOS
from agent_zoo.solver.spot import Conventions


def build_parser() -> Any:
    p = cli.parser("solver", __doc__)
    p.add_argument("file", help="a TexasSolver console command file")
    p.add_argument("--conventions", choices=[c.value for c in Conventions], default=Conventions.RULES.value,
                   help="whose game to solve: this package's rules, or TexasSolver's conventions")
    p.add_argument("--accuracy", type=cli.positive_float, default=None,
                   help="target exploitability in percent of the pot (default: the file's set_accuracy)")
    p.add_argument("--max-iterations", type=cli.positive_int, default=None,
                   help="iteration cap (default: the file's set_max_iteration)")
    p.add_argument("--seconds", type=cli.positive_float, default=None,
                   help="stop after this many seconds of solving, whatever the exploitability (checked with it)")
    p.add_argument("--backend", choices=["numpy", "jax"], default=None,
                   help="array backend (default: numpy; jax runs on a GPU where JAX has one)")
    p.add_argument("--threads", type=cli.positive_int, default=None,
                   help="numpy: last-street runs of boards solved at once (default: the file's set_thread_num)")
    p.add_argument("--float32", action="store_true", help="numpy in float32: half the memory (JAX is float32 anyway)")
    p.add_argument("--grid", default=None, metavar="PNG", help="write the first decision's strategy as a 13x13 grid")
    cli.add_json(p, "the solve's summary (iterations, exploitability, seconds, value)")
    cli.add_progress(p)
    return p


def main(argv: list[str] | None = None) -> int:
    p = build_parser()
    args = p.parse_args(argv)
    try:
        commands = load_commands(args.file, conventions=Conventions(args.conventions))
    except (OSError, ValueError) as exc:
        p.error(str(exc))
    settings = commands.settings
    accuracy = settings.accuracy if args.accuracy is None else args.accuracy
    cap = settings.max_iterations if args.max_iterations is None else args.max_iterations
    quiet = args.json == cli.STDOUT
    bar = None if (args.no_progress or quiet) else _bar(cap)
    say = (lambda *_: None) if quiet else print

    def on_check(iteration: int, pct: float) -> None:
        if bar is not None:
            bar.update(iteration - bar.n)
            bar.set_postfix_str(f"exploitability {pct:.4f}% of pot")
        if iteration % settings.print_interval == 0 or pct <= accuracy:
            say(f"iteration {iteration}: exploitability {pct:.4f}% of the pot")

    backend = args.backend or settings.backend
    if backend == "jax" and args.threads not in (None, 1):
        p.error("--threads: the JAX backend runs on XLA's own threads; --threads applies to --backend numpy")
    cfr, log = solve(commands.spot, accuracy=accuracy, max_iterations=cap, check_every=settings.print_interval,
                     seconds=args.seconds,
                     algorithm=settings.algorithm, backend=backend,
                     dtype="float32" if args.float32 else "float64", on_check=on_check,
                     isomorphism=settings.use_isomorphism,
                     threads=1 if backend == "jax" else (args.threads or settings.threads))
    if bar is not None:
        bar.close()
    say(f"solved to {log.exploitability_pct:.4f}% of the pot in {log.iterations} iterations, {log.seconds:.2f} s "
        f"(+{log.build_seconds:.2f} s building); OOP's value {log.value_oop:+.3f} chips")
    for path in commands.dump:
        Path(path).write_text(json.dumps(to_json(cfr, log, commands.settings.dump_rounds)))
        say(f"wrote {path}")
    if args.grid:
        from agent_zoo.solver.grid import plot_range_grid  # matplotlib: only when a grid is asked for

        root = cfr.layout.tree.nodes[0]
        strategy = cfr.strategy(0)[:, 0]  # (A, H) on the spot's board
        full = np.zeros((len(root.actions), NUM_COMBOS))
        full[:, cfr.layout.holdings[root.player]] = strategy
        weights = np.zeros(NUM_COMBOS)
        weights[cfr.layout.holdings[root.player]] = cfr.layout.weights[root.player]
        plot_range_grid(args.grid, [str(a) for a in root.actions], full, weights,
                        f"{['OOP', 'IP'][root.player]} first decision")
        say(f"wrote {args.grid}")
    summary = {"iterations": log.iterations, "exploitability_pct": log.exploitability_pct, "seconds": log.seconds,
               "build_seconds": log.build_seconds, "value_oop": log.value_oop, "curve": log.curve,
               "conventions": args.conventions}
    cli.emit_json(summary, args.json)
    return 0


def _bar(total: int) -> Any:
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="it", desc="solve", file=sys.stderr, leave=False)


if __name__ == "__main__":
    sys.exit(main())
