"""Solve Kuhn or Leduc with CFR / CFR+ / DCFR and print how far the average policy is from equilibrium.

    python -m agent_zoo.cfr --game leduc --algo cfr+ --target-exploitability 1e-4 --json
    python -m agent_zoo.cfr --game kuhn --algo dcfr --iterations 1000 --out policies   # policies/kuhn_dcfr.npz
    python -m agent_zoo.cfr --game kuhn --algo mccfr --seed 0 --iterations 20000

Printed figures (chips per game, of the average policy):
  exploitability  OpenSpiel's definition: NashConv / number of players
  nash_conv       sum over players of best-response gains (Zinkevich et al., NeurIPS 2007)
  value_p0        expected chips of player 0 when both play the average policy
``seconds`` counts the iterations and exploitability evaluations, not compiling the tree
(``build_seconds``). With ``--checkpoint FILE`` a run resumes from FILE and saves to it as it goes.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from agent_zoo import cli
from agent_zoo.cfr.policy_io import save_policy
from agent_zoo.cfr.best_response import ExploitabilityResult, exploitability
from agent_zoo.cfr.mccfr import ExternalSamplingMCCFR
from agent_zoo.cfr.solvers import ALGORITHMS, make_solver
from agent_zoo.cfr.tree import GameTree
from poker_envs import catalog
from poker_envs.encoders.base import Encoder
from poker_envs.games.base import Game


def game_and_encoder(name: str) -> tuple[Game, Encoder]:
    """The rules and the environment's default encoder of a catalog short name the CFR solvers accept."""
    entry = catalog.game(name, solver="cfr")
    game = entry.rules()
    return game, importlib.import_module(entry.module_path).available_encoders()["default"](game)


def build_parser() -> argparse.ArgumentParser:
    p = cli.parser("cfr", __doc__)
    p.add_argument("--game", choices=catalog.keys("cfr"), required=True, help="the game to solve")
    p.add_argument("--algo", choices=[*sorted(ALGORITHMS), "mccfr"], default="cfr+",
                   help="full-width cfr / cfr+ / dcfr, or external-sampling mccfr (judged exactly on the tree)")
    p.add_argument("--seed", type=int, default=None, help="seed of mccfr's sampling (mccfr only; default: 0)")
    stop = p.add_mutually_exclusive_group(required=True)
    stop.add_argument("--target-exploitability", type=cli.positive_float, help="stop once exploitability (NashConv/n) is below this")
    stop.add_argument("--iterations", type=cli.positive_int, help="run exactly this many iterations (in total, with --checkpoint)")
    p.add_argument("--max-iterations", type=cli.positive_int, default=None,
                   help="give up on a target after this many (with --target-exploitability only; default: 1000000)")
    p.add_argument("--eval-every", type=cli.positive_int, help="iterations between exploitability checks "
                   "(with --target-exploitability only; default 1, 1000 for mccfr)")
    p.add_argument("--checkpoint", type=Path, help="resume from / save solver state to this .npz")
    cli.add_out(p, None, "the average policy, <game>_<algo>.npz with the env's default observations (default: not saved)")
    cli.add_json(p, "the printed figures")
    cli.add_progress(p)
    return p


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Parse ``argv``; options that cannot take effect with the others are an argparse ``error:`` (exit 2)."""
    p = build_parser()
    args = p.parse_args(argv)
    if args.seed is not None and args.algo != "mccfr":
        p.error(f"argument --seed: only mccfr samples; --algo {args.algo} is deterministic (drop --seed)")
    if args.target_exploitability is None:
        for flag, value in (("--max-iterations", args.max_iterations), ("--eval-every", args.eval_every)):
            if value is not None:
                p.error(f"argument {flag}: only with --target-exploitability (--iterations runs exactly that many)")
    args.seed = 0 if args.seed is None else args.seed
    args.max_iterations = 1_000_000 if args.max_iterations is None else args.max_iterations
    return args


class _FullWidth:
    """CLI view of a ``CFRSolver``."""

    def __init__(self, tree: GameTree, algo: str) -> None:
        self.solver = make_solver(tree, algo)

    @property
    def iteration(self) -> int:
        return self.solver.iteration

    def iterate(self, n: int) -> None:
        self.solver.iterate(n)

    def exploitability(self) -> ExploitabilityResult:
        return self.solver.exploitability()

    def average_policy(self) -> np.ndarray:
        return self.solver.average_policy()

    def load(self, path: Path) -> None:
        with np.load(path) as data:
            self.solver.load_state_dict(dict(data))

    def save(self, path: Path) -> None:
        with open(path, "wb") as f:
            np.savez(f, **self.solver.state_dict())


class _Sampled:
    """CLI view of ``ExternalSamplingMCCFR``, judged exactly on the compiled tree."""

    def __init__(self, tree: GameTree, game: Game, seed: int) -> None:
        self.tree = tree
        self.solver = ExternalSamplingMCCFR(game, np.random.default_rng(seed))

    @property
    def iteration(self) -> int:
        return self.solver.iteration

    def iterate(self, n: int) -> None:
        self.solver.iterate(n)

    def exploitability(self) -> ExploitabilityResult:
        return exploitability(self.tree, self.average_policy())

    def average_policy(self) -> np.ndarray:
        return self.solver.average_policy_array(self.tree)

    def load(self, path: Path) -> None:
        self.solver.load(str(path))

    def save(self, path: Path) -> None:
        with open(path, "wb") as f:
            self.solver.save(f)


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Solve as ``args`` says and return the printed figures."""
    game, encoder = game_and_encoder(args.game)
    t0 = time.perf_counter()
    tree = GameTree.build(game)
    build_seconds = time.perf_counter() - t0
    solver = _Sampled(tree, game, args.seed) if args.algo == "mccfr" else _FullWidth(tree, args.algo)
    if args.checkpoint is not None and args.checkpoint.exists():
        solver.load(args.checkpoint)
    eval_every = args.eval_every or (1000 if args.algo == "mccfr" else 1)
    start = time.perf_counter()
    last_save = start
    goal = args.iterations if args.iterations is not None else args.max_iterations
    target_mode = args.target_exploitability is not None
    # With a target the number of iterations is not known in advance: the bar counts them (no total, no ETA)
    # and shows the exploitability against the target.
    bar = _progress(None if target_mode else goal, solver.iteration, quiet=args.no_progress or args.json == cli.STDOUT,
                    desc=f"to {args.target_exploitability:.0e}" if target_mode else None)
    while solver.iteration < goal:
        step = min(eval_every if target_mode else 1000, goal - solver.iteration)
        solver.iterate(step)
        if target_mode:
            res = solver.exploitability()
        if bar is not None:
            bar.update(step)
            bar.set_postfix(exploitability=f"{res.exploitability:.2e}" if target_mode else "-", refresh=False)
        if args.checkpoint is not None and time.perf_counter() - last_save > 10.0:
            _save_checkpoint(solver, args.checkpoint)
            last_save = time.perf_counter()
        if target_mode and res.exploitability < args.target_exploitability:
            break
    seconds = time.perf_counter() - start
    if bar is not None:
        bar.close()
    res = solver.exploitability()
    if args.checkpoint is not None:
        _save_checkpoint(solver, args.checkpoint)
    out = {
        "game": game.name,
        "algo": args.algo,
        "iterations": solver.iteration,
        "seconds": round(seconds, 4),
        "build_seconds": round(build_seconds, 4),
        "exploitability": res.exploitability,
        "nash_conv": res.nash_conv,
        "value_p0": float(res.policy_values[0]),
        "reached_target": None if args.target_exploitability is None else bool(res.exploitability < args.target_exploitability),
    }
    if args.out is not None:
        out["policy"] = str(cli.out_dir(args.out) / f"{args.game}_{args.algo}.npz")
        save_policy(out["policy"], tree, solver.average_policy(), encoder,
                    meta={k: out[k] for k in ("algo", "iterations", "exploitability", "nash_conv", "value_p0")})
    return out


def _save_checkpoint(solver: _FullWidth | _Sampled, path: Path) -> None:
    """Write to a temporary file first, so an interrupted save never destroys the last checkpoint."""
    tmp = path.with_name(path.name + ".tmp")
    solver.save(tmp)
    tmp.replace(path)


def _progress(total: int | None, initial: int, quiet: bool, desc: str | None = None) -> Any:
    """A tqdm bar of iterations on stderr (``total`` None: a counter without ETA); None when quiet or without tqdm."""
    if quiet:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, initial=initial, unit="it", desc=desc, file=sys.stderr, leave=False)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    out = run(args)
    if cli.emit_json(out, args.json):
        return
    print(f"{out['game']} {out['algo']}: {out['iterations']} iterations in {out['seconds']:.3f} s "
          f"(tree compiled in {out['build_seconds']:.3f} s)")
    print(f"exploitability (OpenSpiel: NashConv / 2) {out['exploitability']:.3e} chips/game")
    print(f"nash_conv (eq. 3: sum of best-response gains) {out['nash_conv']:.3e} chips/game")
    print(f"value_p0 (player 0, average policy) {out['value_p0']:.6f} chips/game")
    if out["reached_target"] is False:
        print(f"target not reached within --max-iterations {args.max_iterations}")
    if args.out is not None:
        print(f"average policy saved to {out['policy']}")


if __name__ == "__main__":
    main()
