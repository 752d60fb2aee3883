"""CLI: ``python -m agent_zoo.jax_rnad train|exploitability ...`` (see ``--help``).

    python -m agent_zoo.jax_rnad train --game leduc --steps 200000 --seed 0 --out runs/rnad_leduc
    python -m agent_zoo.jax_rnad exploitability --out runs/rnad_leduc     # JSON + PNG curve of every checkpoint
    python -m agent_zoo.tournament --game leduc --agents random jax:runs/rnad_leduc/checkpoint_400.npz --hands 2000

Running the same ``train`` command again resumes from ``--out``'s latest checkpoint (a larger ``--steps``
trains on); the result is bit-identical to an uninterrupted run.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agent_zoo import cli
from agent_zoo.jax_common.cli import config_from_flags, run_exploitability
from agent_zoo.jax_rnad.config import GAMES, RNaDJaxConfig

FLAGS = {"game": "--game", "total_steps": "--steps", "seed": "--seed", "devices": "--devices", "batch_size": "--batch-size", "league": "--league"}  # field -> its own flag


def settable() -> dict[str, Any]:
    """The ``RNaDJaxConfig`` fields ``--set`` may change (those with a flag of their own are set by the flag)."""
    return {k: v for k, v in RNaDJaxConfig().to_dict().items() if k not in FLAGS}


EXAMPLES = {  # the end of each --help: commands to copy (the arguments after python -m agent_zoo.jax_rnad)
    "": ("train --game leduc --steps 200000 --seed 0 --out runs/rnad_leduc", "exploitability --out runs/rnad_leduc",
         "train --game kuhn --steps 20000 --json"),
    "train": ("train --game kuhn --steps 20000 --json", "train --game nolimit --steps 20000 --batch-size 256 --out runs/rnad_nolimit",
              "train --game leduc --steps 200000 --batch-size 64 --set two_stage=none learning_rate=0.0003 --out runs/rnad_k64"),
    "exploitability": ("exploitability --out runs/rnad_leduc", "exploitability --out runs/rnad_leduc --json"),
}


def build_parser() -> argparse.ArgumentParser:
    def examples(command: str) -> str:
        return cli.examples("jax_rnad", *EXAMPLES[command])

    parser = cli.parser("jax_rnad", "R-NaD with two-stage averaging, hands and learner in one jitted JAX update",
                        epilog=examples(""))
    sub = cli.subparsers(parser)
    tr = sub.add_parser("train", help="train (or resume from --out's latest checkpoint); prints steps/s and the exact exploitability",
                        epilog=examples("train"))
    tr.add_argument("--game", choices=GAMES, default=RNaDJaxConfig.game, help="the game, heads-up (leduc, kuhn: exact exploitability; nolimit: abstract bet sizing, rewards in big blinds)")
    tr.add_argument("--steps", type=cli.positive_int, default=RNaDJaxConfig.total_steps,
                    help="learner steps; rounded up to whole updates of steps_per_update, and the output says so")
    tr.add_argument("--batch-size", type=cli.positive_int, default=RNaDJaxConfig.batch_size,
                    help="K: hands per learner step (one per table, played in parallel)")
    tr.add_argument("--devices", type=cli.non_negative_int, default=RNaDJaxConfig.devices, metavar="N",
                    help="devices the tables are split over (data parallel: the same seed gives the same run on any "
                         "number, up to the order of float sums); must divide --batch-size; 0: all that jax.devices() lists")
    tr.add_argument("--league", type=cli.non_negative_int, default=RNaDJaxConfig.league, metavar="N",
                    help="a league of N frozen snapshots of theta: a share of the tables (--set league_fraction=0.5) plays a "
                         "member drawn by PFSP each learner step (league_interval, league_weighting, league_retire); payoff.png "
                         "in --out; 0: pure self-play")
    tr.add_argument("--set", action="extend", nargs="+", default=[], metavar="FIELD=VALUE",
                    help="other RNaDJaxConfig fields, e.g. two_stage=none eta=0.1 reg_update_interval=1000 hidden_sizes=128,128")
    cli.add_seed(tr)
    cli.add_out(tr, None, "checkpoint_<update>.npz, latest.json, log.jsonl (default: nothing written)")
    cli.add_json(tr, "steps, updates, steps_per_second, the last update's metrics and (Leduc, Kuhn) the exact exploitability")
    cli.add_progress(tr)
    tr.set_defaults(parser=tr)
    ex = sub.add_parser("exploitability", help="exact exploitability of every checkpoint of a run; JSON and PNG",
                        epilog=examples("exploitability"))
    ex.add_argument("--out", metavar="DIR", required=True, help="the run's folder (train --out); exploitability.json/.png go there")
    cli.add_json(ex, "the curve")
    ex.set_defaults(parser=ex)
    return parser


def make_config(parser: argparse.ArgumentParser, args: argparse.Namespace) -> RNaDJaxConfig:
    """The run's configuration from the flags; a bad value is a one-line error naming its flag."""
    values = {"game": args.game, "total_steps": args.steps, "seed": args.seed, "devices": args.devices, "batch_size": args.batch_size, "league": args.league,
              **cli.parse_overrides(parser, args.set, settable())}
    return config_from_flags(parser, RNaDJaxConfig, values, FLAGS)


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    args = build_parser().parse_args(argv)
    parser = args.parser  # the sub-command's, so errors show its usage
    if args.command == "exploitability":
        return run_exploitability(parser, Path(args.out), args.json, "learner steps")

    config = make_config(parser, args)
    from agent_zoo.jax_common.devices import device_count, speed_line
    from agent_zoo.jax_rnad.train import train

    try:
        device_count(config.devices, config.batch_size, "--batch-size")
    except ValueError as exc:
        parser.error(f"argument --devices: {exc}")

    note = config.rounding_note()
    if note and args.json != cli.STDOUT:
        print(note, flush=True)  # before the bar, so the user knows the bar's total at once
    try:
        result = train(config, args.out, progress=not args.no_progress)
    except ValueError as exc:  # --out holds another run
        parser.error(f"argument --out: {exc}")
    result.pop("state")
    result["steps_note"] = note
    if not cli.emit_json(result, args.json):
        rate = result["steps_per_second"]
        asked = f" ({config.total_steps:,} asked)" if result["steps"] != config.total_steps else ""
        print(f"{config.game}: {result['steps']:,} learner steps{asked} of {config.batch_size} hands, {result['updates']} updates"
              + (f", resumed from update {result['resumed_from']}" if result["resumed_from"] else "")
              + (f"; {rate:,.0f} learner steps/s, {result['decisions_per_second']:,.0f} decisions/s (compile "
                 f"{result['compile_seconds']:.1f} s)" if rate else "; nothing left to train"))
        if speed_line(result):
            print(speed_line(result))
        if "exploitability" in result:  # Leduc and Kuhn: exact
            print(f"  exploitability {result['exploitability']:.4f} (regularisation policy; post-processed "
                  f"{result['post_processed_exploitability']:.4f}; target {result['target_exploitability']:.4f}, "
                  f"uniform random {result['uniform_exploitability']:.4f})")
        else:
            print(f"  {result['final']['cut']:.2%} of the last update's decisions were in hands the window cut (learned at the next step)")
    return result


if __name__ == "__main__":
    main()
