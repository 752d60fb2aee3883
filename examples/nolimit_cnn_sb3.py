"""MaskablePPO on heads-up no-limit hold'em with the Poker-CNN observation and a custom CNN feature extractor.

    python examples/nolimit_cnn_sb3.py                       # 30,000 steps, several minutes on CPU
    python examples/nolimit_cnn_sb3.py --opponent heuristic  # against the 45/45/10 heuristic player

The environment gives the 33x17x17 tensor of Hwang & Kaneko (``obs_encoder="poker_cnn"``) and
the six abstract actions (fold, check/call, raise half pot, pot, 2 pots, all-in), masked. ``PokerCNN`` is
an SB3 ``BaseFeaturesExtractor`` (two 3x3 convolutions, pooling, a linear layer) that replaces the
default flattening; MaskablePPO then learns from masks given by ``SingleAgentEnv.action_masks()``.
Big blinds per hand against random and the heuristic (duplicate deals, 95% CI) before and after.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from agent_zoo import cli


ENV_CONFIG = {"obs_encoder": "poker_cnn", "bet_sizing": "abstract", "starting_stack": 100}  # 50 big blinds, as in Hwang & Kaneko


def make_extractor_class() -> type:
    """The feature extractor class (built in a function so that importing this file needs no torch)."""
    import torch
    from gymnasium import spaces
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

    class PokerCNN(BaseFeaturesExtractor):
        """Conv(33->32, 3x3) -> ReLU -> Conv(32->32, 3x3) -> ReLU -> MaxPool 2 -> Linear(features_dim) -> ReLU."""

        def __init__(self, observation_space: spaces.Box, features_dim: int = 128) -> None:
            super().__init__(observation_space, features_dim)
            channels = observation_space.shape[0]
            self.conv = torch.nn.Sequential(
                torch.nn.Conv2d(channels, 32, 3, padding=1),
                torch.nn.ReLU(),
                torch.nn.Conv2d(32, 32, 3, padding=1),
                torch.nn.ReLU(),
                torch.nn.MaxPool2d(2),
                torch.nn.Flatten(),
            )
            with torch.no_grad():
                n_flat = self.conv(torch.zeros(1, *observation_space.shape)).shape[1]
            self.head = torch.nn.Sequential(torch.nn.Linear(n_flat, features_dim), torch.nn.ReLU())

        def forward(self, observations: torch.Tensor) -> torch.Tensor:
            return self.head(self.conv(observations))

    return PokerCNN


def evaluate(model: Any, opponents: Sequence[str], hands: int, seed: int) -> dict[str, tuple[float, float]]:
    """Big blinds per hand of the (frozen) model against each opponent, duplicate deals."""
    from agent_zoo.tournament import TournamentConfig, run_tournament
    from wrappers.self_play import freeze

    learner = freeze(model)
    learner.name = "ppo_cnn"
    out = {}
    for opp in opponents:
        res = run_tournament(TournamentConfig(game="nolimit", agents=[learner, opp], hands=hands, seed=seed, env_config=ENV_CONFIG, progress=False, style=False))
        out[opp] = (float(res.mean[0, 1]), float(res.ci95[0, 1]))
    return out


def show(label: str, ev: dict[str, tuple[float, float]]) -> None:
    print(f"{label:<16}" + "  ".join(f"vs {k}: {m:+.2f} ± {c:.2f} bb/hand" for k, (m, c) in ev.items()))


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = cli.parser("examples/nolimit_cnn_sb3.py", __doc__.split("\n\n")[0])
    parser.add_argument("--timesteps", type=int, default=30_000, help="PPO steps")
    parser.add_argument("--opponent", default="random", help="training opponent (registry name)")
    parser.add_argument("--eval-hands", type=int, default=1000, help="hands per evaluation match")
    parser.add_argument("--n-steps", type=int, default=512, help="PPO rollout length")
    parser.add_argument("--epochs", type=int, default=10, help="PPO epochs per rollout")
    cli.add_seed(parser)
    cli.add_out(parser, "out/examples/nolimit_cnn", "the trained model, nolimit_cnn_ppo.zip")
    cli.add_threads(parser)
    cli.add_progress(parser)
    args = parser.parse_args(argv)

    import torch
    from sb3_contrib import MaskablePPO

    from wrappers import SingleAgentEnv

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    start = time.perf_counter()
    env = SingleAgentEnv("nolimit_holdem_v0", opponents=args.opponent, seat="rotate", illegal_action="raise", **ENV_CONFIG)
    print(f"observation {env.observation_space.shape}, actions {env.action_space.n} (masked), opponent {args.opponent}")
    model = MaskablePPO(
        "MlpPolicy",
        env,
        policy_kwargs={"features_extractor_class": make_extractor_class(), "features_extractor_kwargs": {"features_dim": 128}},
        n_steps=args.n_steps,
        batch_size=min(128, args.n_steps),
        n_epochs=args.epochs,
        learning_rate=3e-4,
        seed=args.seed,
        device="cpu",
    )
    opponents = ["random", "heuristic"]
    results = {"before": evaluate(model, opponents, args.eval_hands, args.seed)}
    show("before training", results["before"])
    model.learn(args.timesteps, callback=cli.sb3_progress(args.timesteps, not args.no_progress))
    results["after"] = evaluate(model, opponents, args.eval_hands, args.seed)
    show("after training", results["after"])
    path = cli.out_dir(args.out) / "nolimit_cnn_ppo.zip"
    model.save(path)
    print(f"saved {path}; {time.perf_counter() - start:.0f} s")
    return results


if __name__ == "__main__":
    main()
