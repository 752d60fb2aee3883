"""CLI: ``python -m agent_zoo.jax_ppo train|exploitability ...`` (see ``--help``).

    python -m agent_zoo.jax_ppo train --game leduc --steps 2000000 --seed 0 --out runs/leduc
    python -m agent_zoo.jax_ppo exploitability --out runs/leduc      # JSON + PNG curve of every checkpoint
    python -m agent_zoo.tournament --game leduc --agents random jax:runs/leduc/checkpoint_62.npz --hands 2000

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
from agent_zoo.jax_common.config import SOLVABLE
from agent_zoo.jax_ppo.config import GAMES, OPPONENTS, PPOConfig

FLAGS = {"game": "--game", "total_steps": "--steps", "seed": "--seed", "devices": "--devices", "num_envs": "--num-envs", "league": "--league"}  # config field -> its own flag


def settable() -> dict[str, Any]:
    """The ``PPOConfig`` fields ``--set`` may change (those with a flag of their own are set by the flag)."""
    return {k: v for k, v in PPOConfig().to_dict().items() if k not in FLAGS}


EXAMPLES = {  # the end of each --help: commands to copy (the arguments after python -m agent_zoo.jax_ppo); step
    # counts are whole updates of 256 tables x 32 decisions (8,192 steps), or of 1024 x 32 with --num-envs 1024
    "": ("train --game leduc --steps 2048000 --seed 0 --out runs/leduc", "exploitability --out runs/leduc",
         "train --game nolimit --steps 1048576 --num-envs 1024 --json"),
    "train": ("train --game kuhn --steps 204800 --out runs/kuhn --exploitability",
              "train --game nolimit --steps 1048576 --num-envs 1024 --set rollout_length=64 mix=0,1,0 --json"),
    "exploitability": ("exploitability --out runs/leduc", "exploitability --out runs/kuhn --json"),
}


def build_parser() -> argparse.ArgumentParser:
    def examples(command: str) -> str:
        return cli.examples("jax_ppo", *EXAMPLES[command])

    parser = cli.parser("jax_ppo", "Self-play PPO with the environment and the learner in one jitted JAX update",
                        epilog=examples(""))
    sub = cli.subparsers(parser)
    tr = sub.add_parser("train", help="train (or resume from --out's latest checkpoint); prints steps/s and the last metrics",
                        epilog=examples("train"))
    tr.add_argument("--game", choices=GAMES, default="nolimit", help="the game (no-limit: heads-up, abstract bet sizing)")
    tr.add_argument("--steps", type=cli.positive_int, required=True,
                    help="environment decisions (all tables, all seats); rounded up to whole updates of --num-envs x "
                         "rollout_length decisions, and the output says so")
    tr.add_argument("--num-envs", type=cli.positive_int, default=PPOConfig.num_envs, help="tables stepped together")
    tr.add_argument("--devices", type=cli.non_negative_int, default=PPOConfig.devices, metavar="N",
                    help="devices the tables are split over (data parallel: the same seed gives the same run on any "
                         "number, up to the order of float sums); must divide --num-envs; 0: all that jax.devices() lists")
    tr.add_argument("--set", action="extend", nargs="+", default=[], metavar="FIELD=VALUE",
                    help=f"other PPOConfig fields, e.g. rollout_length=64 hidden_sizes=128,128 mix=0,1,0 (weights of {','.join(OPPONENTS)})")
    tr.add_argument("--league", type=cli.non_negative_int, default=PPOConfig.league, metavar="N",
                    help="a league of N frozen snapshots plays the frozen opponent's tables, each hand's member drawn by PFSP "
                         "(--set league_interval=10 league_weighting=hard|var|uniform league_retire=beaten|oldest); "
                         "payoff.png in --out; 0: one frozen copy")
    tr.add_argument("--exploitability", action="store_true", help="then the exploitability curve of the checkpoints (leduc, kuhn; needs --out)")
    cli.add_seed(tr)
    cli.add_out(tr, None, "checkpoint_<update>.npz, latest.json, log.jsonl (default: nothing written)")
    cli.add_json(tr, "steps, updates, steps_per_second and the last update's metrics")
    cli.add_progress(tr)
    tr.set_defaults(parser=tr)
    ex = sub.add_parser("exploitability", help="exact exploitability of every checkpoint of a Leduc / Kuhn run; JSON and PNG",
                        epilog=examples("exploitability"))
    ex.add_argument("--out", metavar="DIR", required=True, help="the run's folder (train --out); exploitability.json/.png go there")
    cli.add_json(ex, "the curve")
    ex.set_defaults(parser=ex)
    return parser


def make_config(parser: argparse.ArgumentParser, args: argparse.Namespace) -> PPOConfig:
    """The run's configuration from the flags; a bad value is a one-line error naming its flag."""
    values = {"game": args.game, "total_steps": args.steps, "seed": args.seed, "devices": args.devices, "num_envs": args.num_envs, "league": args.league, **cli.parse_overrides(parser, args.set, settable())}
    return config_from_flags(parser, PPOConfig, values, FLAGS)


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    args = build_parser().parse_args(argv)
    parser = args.parser  # the sub-command's, so errors show its usage
    if args.command == "exploitability":
        return run_exploitability(parser, Path(args.out), args.json, "steps")

    config = make_config(parser, args)
    if args.exploitability and (args.out is None or config.game not in SOLVABLE):
        parser.error(f"argument --exploitability: needs --out and --game {' or '.join(SOLVABLE)}")
    from agent_zoo.jax_common.devices import device_count, speed_line
    from agent_zoo.jax_ppo.train import train

    try:
        device_count(config.devices, config.num_envs, "--num-envs")
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
    if args.exploitability:
        # the curve goes to --out (JSON, PNG) and is printed, unless this run's JSON goes to stdout
        quiet = str(Path(args.out) / "exploitability.json") if args.json == cli.STDOUT else None
        curve = run_exploitability(parser, Path(args.out), quiet, "steps")
        result["exploitability"] = curve["rows"][-1]["exploitability"]
        result["uniform_exploitability"] = curve["uniform_exploitability"]
    if not cli.emit_json(result, args.json):
        final = result["final"] or {}
        rate = result["steps_per_second"]
        asked = f" ({config.total_steps:,} asked)" if result["steps"] != config.total_steps else ""
        print(f"{config.game}: {result['steps']:,} steps{asked}, {result['updates']} updates"
              + (f", resumed from update {result['resumed_from']}" if result["resumed_from"] else "")
              + (f"; {rate:,.0f} steps/s (compile {result['compile_seconds']:.1f} s)" if rate else "; nothing left to train"))
        if speed_line(result):
            print(speed_line(result))
        if final:
            print("  last update: " + "  ".join(f"{k} {final[k]:+.3f}" for k in
                  ("reward_vs_random", "reward_vs_frozen", "entropy", "value_loss", "approx_kl") if k in final))
        if "exploitability" in result:
            print(f"  exploitability {result['exploitability']:.4f} (uniform random {result['uniform_exploitability']:.4f})")
    return result


if __name__ == "__main__":
    main()
