"""Training steps per second: JAX self-play PPO (``agent_zoo.jax_ppo``) vs SB3 MaskablePPO on the batched numpy
engine (``examples/vector_ppo.py``), same game, same networks, same machine, in one run.

    python benchmarks/jax_ppo_speed.py                                  # heads-up no-limit and Leduc
    python benchmarks/jax_ppo_speed.py --games leduc --sb3-steps 50000 --jax-steps 2000000

Both learners play one seat per table against uniform random opponents (the SB3 baseline's setting;
``mix=0,1,0`` for JAX) with two tanh layers of 64 for the policy and for the value network (SB3's
``MlpPolicy`` default), 4 epochs, minibatches of 1,024 learner decisions (JAX: pieces of 1,024 rows, learner decisions first). SB3 counts learner
decisions (the opponents move inside its env); the JAX trainer counts every seat's decision, so its
rollouts are ``2 x --n-steps`` long for as many learner decisions per update, and the ratio compares
learner decisions per second of the whole training loop (acting, stepping, learning). JAX's compile
time is shown apart. ``--threads``: torch's CPU threads; JAX uses what XLA takes.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agent_zoo import cli
from poker_envs import catalog

GAMES = {key: catalog.game(key).vector_name for key in catalog.keys(solver="jax_ppo")}  # catalog key -> engine name


def vector_ppo() -> Any:
    """``examples/vector_ppo.py`` as a module (its ``train`` and game tables are the SB3 baseline)."""
    name = "vector_ppo"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).resolve().parents[1] / "examples" / f"{name}.py")
        module = sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return sys.modules[name]


def sb3_rate(game: str, tables: int, n_steps: int, steps: int, seed: int, show: bool) -> dict[str, float]:
    """MaskablePPO on ``tables`` batched numpy tables vs random, through the example's ``train``."""
    from wrappers.vector_env import VectorSingleAgentEnv
    from wrappers.vector_sb3 import SB3VectorEnv

    vp = vector_ppo()
    name = GAMES[game]
    config = dict(catalog.game(game).heads_up)
    env = SB3VectorEnv(VectorSingleAgentEnv(name, tables, seat="rotate", seed=seed, **config))
    r = vp.train(env, steps, n_steps, min(tables * n_steps, 1024), seed, f"SB3 {game}", show)
    return {"learner_steps_per_second": r["steps_per_s"], "steps_per_second": None, "steps": r["steps"],
            "seconds": r["seconds"], "compile_seconds": 0.0}


def jax_rate(game: str, tables: int, n_steps: int, steps: int, seed: int, show: bool) -> dict[str, float]:
    """The JAX trainer with the same sizes, against random opponents only."""
    from agent_zoo.jax_ppo.config import PPOConfig
    from agent_zoo.jax_ppo.train import train

    config = PPOConfig(game=game, num_envs=tables, rollout_length=2 * n_steps, total_steps=steps, epochs=4,
                       minibatches=max(1, 2 * tables * n_steps // 1024), hidden_sizes=(64, 64), mix=(0.0, 1.0, 0.0), seed=seed,
                       devices=1)  # one device, as the SB3 learner
    r = train(config, out=None, progress=show)
    return {"learner_steps_per_second": r["learner_steps_per_second"], "steps_per_second": r["steps_per_second"],
            "steps": r["steps"], "seconds": r["seconds"], "compile_seconds": r["compile_seconds"]}


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = cli.parser("benchmarks/jax_ppo_speed.py", __doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", choices=sorted(GAMES), default=["nolimit", "leduc"], help="games to time")
    parser.add_argument("--tables", type=cli.positive_int, default=256, help="tables of both trainers")
    parser.add_argument("--jax-tables", type=cli.positive_int, nargs="+", default=None,
                        help="table counts of the JAX trainer (default: --tables); each is a row beside the one SB3 row")
    parser.add_argument("--n-steps", type=cli.positive_int, default=16, help="learner decisions per table per rollout (SB3 n_steps)")
    parser.add_argument("--sb3-steps", type=cli.positive_int, default=30_000, help="SB3 learner decisions to time")
    parser.add_argument("--jax-steps", type=cli.positive_int, default=1_000_000, help="JAX environment decisions (all seats) to time")
    cli.add_seed(parser)
    cli.add_threads(parser)
    cli.add_json(parser, "the figures")
    cli.add_progress(parser)
    args = parser.parse_args(argv)
    cli.set_threads(args.threads)
    show = not args.no_progress

    rows = []
    for game in args.games:
        sb3 = sb3_rate(game, args.tables, args.n_steps, args.sb3_steps, args.seed, show)
        for tables in args.jax_tables or [args.tables]:
            jx = jax_rate(game, tables, args.n_steps, args.jax_steps, args.seed, show) | {"tables": tables}
            rows.append({"game": game, "sb3": sb3, "jax": jx, "ratio": jx["learner_steps_per_second"] / sb3["learner_steps_per_second"]})
    result = {"tables": args.tables, "n_steps": args.n_steps, "threads": args.threads, "rows": rows}
    if cli.emit_json(result, args.json):
        return result
    print(f"PPO training speed, {args.tables} tables, learner vs random, networks 64x64 (policy) + 64x64 (value):")
    print(f"  {'game':<8} {'trainer':<22} {'steps':>10} {'seconds':>8} {'learner dec/s':>14} {'all dec/s':>10} {'compile s':>9}")
    for r in rows:
        for label, x in (("SB3 MaskablePPO, numpy", r["sb3"]), (f"JAX PPO, {r['jax']['tables']} tables", r["jax"])):
            every = f"{x['steps_per_second']:>10,.0f}" if x["steps_per_second"] else f"{'-':>10}"
            print(f"  {r['game']:<8} {label:<22} {x['steps']:>10,.0f} {x['seconds']:>8.1f} {x['learner_steps_per_second']:>14,.0f} {every} {x['compile_seconds']:>9.1f}")
        print(f"  {r['game']:<8} {'JAX / SB3':<22} {r['ratio']:>55.1f}x learner decisions per second")
    return result


if __name__ == "__main__":
    main()
