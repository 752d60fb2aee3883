"""Self-play PPO on heads-up no-limit hold'em that never leaves the device: tables and learner in one jitted update.

    python examples/jax_ppo.py                                  # 2M steps on 1,024 tables (GPU if JAX has one)
    python examples/jax_ppo.py --steps 200000 --out runs/nl     # with checkpoints; the same command resumes
    python -m agent_zoo.tournament --game nolimit --agents random jax:runs/nl/checkpoint_<N>.npz --hands 2000

The full trainer and its options: ``python -m agent_zoo.jax_ppo train --help``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agent_zoo import cli


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = cli.parser("examples/jax_ppo.py", __doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=cli.positive_int, default=2_000_000, help="environment decisions (all seats; rounded up to whole updates, as the output says)")
    parser.add_argument("--num-envs", type=cli.positive_int, default=1024, help="tables stepped together")
    cli.add_seed(parser)
    cli.add_out(parser, None, "checkpoints (default: none)")
    cli.add_progress(parser)
    args = parser.parse_args(argv)

    import jax

    from agent_zoo.jax_ppo.config import PPOConfig
    from agent_zoo.jax_ppo.train import train

    config = PPOConfig(game="nolimit", num_envs=args.num_envs, total_steps=args.steps, seed=args.seed)
    if config.rounding_note():
        print(config.rounding_note(), flush=True)
    result = train(config, out=args.out, progress=not args.no_progress)
    rate = result["steps_per_second"] or 0.0
    print(f"{result['steps']:,} steps on {jax.devices()[0].platform}: {rate:,.0f} steps/s "
          f"(compile {result['compile_seconds']:.0f} s); vs random: {result['final']['reward_vs_random']:+.2f} bb/hand")
    return result


if __name__ == "__main__":
    main()
