"""MaskablePPO on hundreds of batched tables, timed against the same learner on the single-table Gymnasium env.

    python examples/vector_ppo.py                                   # heads-up no-limit, 256 tables, 200k steps
    python examples/vector_ppo.py --game leduc --steps 100000
    python examples/vector_ppo.py --tables 1024 --n-steps 8

The learner holds one seat per table (rotating each hand) against the random opponent. Phase 1 trains
on ``--tables`` tables of ``poker_envs.vector`` through ``wrappers.vector_env.VectorSingleAgentEnv`` and
``wrappers.vector_sb3.SB3VectorEnv``; phase 2 trains a fresh learner with the same hyperparameters and
the same rollout size (``--tables`` x ``--n-steps`` decisions per update) on the single-table
``gymnasium.make("poker_envs/...-v0")`` view for ``--single-steps``. Both print training steps per
second of the whole loop (acting, stepping, PPO updates); their ratio is what batching buys here.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from agent_zoo import cli
from poker_envs import catalog

GAMES = tuple(catalog.keys(vector=True))  # catalog keys (the --game of every tool) of the games with a batched engine


def progress_callback(total: int, label: str, show: bool) -> Any:
    """An SB3 callback that moves a tqdm bar by the steps taken and keeps the mean reward per hand of
    the first and the last rollout."""
    from stable_baselines3.common.callbacks import BaseCallback
    from tqdm import tqdm

    class Progress(BaseCallback):
        def _on_training_start(self) -> None:
            # learn() runs whole rollouts: the steps it takes are ``total`` rounded up to a rollout's multiple
            rollout = self.model.n_steps * self.training_env.num_envs
            self.bar = tqdm(total=-(-total // rollout) * rollout, desc=label, unit="step", disable=not show, leave=False)
            self.rollouts: list[tuple[float, int]] = []

        def _on_rollout_start(self) -> None:
            self.rollouts.append((0.0, 0))

        def _on_step(self) -> bool:
            done = np.asarray(self.locals["dones"], dtype=bool)
            chips, hands = self.rollouts[-1]
            self.rollouts[-1] = (chips + float(np.asarray(self.locals["rewards"])[done].sum()), hands + int(done.sum()))
            self.bar.update(self.training_env.num_envs)
            return True

        def _on_training_end(self) -> None:
            self.bar.close()

        def mean_reward(self, which: int) -> float:
            chips, hands = self.rollouts[which]
            return chips / hands if hands else float("nan")

    return Progress()


def train(env: Any, steps: int, n_steps: int, batch_size: int, seed: int, label: str, show: bool) -> dict[str, float]:
    """MaskablePPO for ``steps`` steps on ``env``; steps per second of the whole ``learn`` call."""
    from sb3_contrib import MaskablePPO

    model = MaskablePPO("MlpPolicy", env, n_steps=n_steps, batch_size=batch_size, n_epochs=4, seed=seed, verbose=0)
    callback = progress_callback(steps, label, show)
    start = time.perf_counter()
    model.learn(total_timesteps=steps, callback=callback)
    elapsed = time.perf_counter() - start
    return {
        "steps": float(model.num_timesteps),
        "seconds": elapsed,
        "steps_per_s": model.num_timesteps / elapsed,
        "first_rollout_reward": callback.mean_reward(0),
        "last_rollout_reward": callback.mean_reward(-1),
    }


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = cli.parser("examples/vector_ppo.py", __doc__.split("\n\n")[0])
    parser.add_argument("--game", default="nolimit", choices=GAMES, help="which game")
    parser.add_argument("--tables", type=int, default=256, help="batched tables (SB3 sub-environments)")
    parser.add_argument("--steps", type=int, default=200_000, help="learner decisions to train on the batched tables")
    parser.add_argument("--n-steps", type=int, default=16, help="decisions per table per PPO rollout")
    parser.add_argument("--single-steps", type=int, default=0, help="steps on the single-table env (0: one rollout)")
    cli.add_seed(parser)
    cli.add_threads(parser)
    cli.add_progress(parser)
    args = parser.parse_args(argv)
    for name in ("tables", "steps", "n_steps", "threads"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.single_steps < 0:
        parser.error("--single-steps must be >= 0")

    import gymnasium
    import torch
    from stable_baselines3.common.vec_env import DummyVecEnv

    import poker_envs  # noqa: F401  (registers the poker_envs/... Gymnasium ids)
    from wrappers.vector_env import VectorSingleAgentEnv
    from wrappers.vector_sb3 import SB3VectorEnv

    torch.set_num_threads(args.threads)
    config = dict(catalog.game(args.game).heads_up)  # heads-up, as the catalog seats a match
    rollout = args.tables * args.n_steps
    batch_size = min(rollout, 1024)
    show = not args.no_progress

    vec_env = SB3VectorEnv(VectorSingleAgentEnv(args.game, args.tables, seat="rotate", seed=args.seed, **config))
    batched = train(vec_env, args.steps, args.n_steps, batch_size, args.seed, f"{args.tables} tables", show)

    gymnasium_id = catalog.game(args.game).gymnasium_id
    single_env = DummyVecEnv([lambda: gymnasium.make(gymnasium_id, opponent="random", seat="rotate", **config)])
    single_steps = args.single_steps or rollout
    single = train(single_env, single_steps, rollout, batch_size, args.seed, "1 table", show)

    print(f"MaskablePPO on {args.game}, learner vs random, {rollout} decisions per update:")
    for label, r in ((f"{args.tables} batched tables", batched), ("single-table Gymnasium env", single)):
        print(
            f"  {label:<28} {r['steps']:>9.0f} steps in {r['seconds']:7.1f} s = {r['steps_per_s']:>9.0f} steps/s"
            f"   reward/hand first rollout {r['first_rollout_reward']:+.3f}, last {r['last_rollout_reward']:+.3f}"
        )
    speedup = batched["steps_per_s"] / single["steps_per_s"]
    print(f"  batched / single: {speedup:.1f}x training steps per second")
    return {"batched": batched, "single": single, "speedup": speedup}


if __name__ == "__main__":
    main()
