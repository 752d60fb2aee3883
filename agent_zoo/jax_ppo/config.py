"""The one configuration of a JAX self-play PPO run, checked when it is built.

Defaults follow Stable-Baselines3's PPO where the two overlap (Adam 3e-4, clip 0.2, GAE lambda 0.95,
value coefficient 0.5, gradient norm 0.5, two tanh layers of 64 for the policy and for the value
network), so ``benchmarks/jax_ppo_speed.py`` compares like with like; gamma is 1 because a hand is a
short episode whose chips are the only reward (returns never cross hands anyway).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agent_zoo.jax_common.config import GAMES, RunLength
from agent_zoo.jax_common.league import config_of

# GAMES (jax_common.config): the catalog keys this trainer plays (no-limit: 2 to 10 seats; others: heads-up)
OPPONENTS = ("frozen", "random", "self")  # opponent kinds of the mix, in the order of ``PPOConfig.mix``


@dataclass(frozen=True)
class PPOConfig(RunLength):
    """Hyper-parameters of one run; ``PPOConfig(...)`` raises ``ValueError`` naming the bad field."""

    # Game (catalog key): "nolimit" (abstract bet sizing, default encoder, rewards in big blinds), "leduc", "kuhn".
    game: str = "nolimit"
    # Seats per table (only no-limit takes more than 2).
    num_players: int = 2
    # Tables stepped together on the device.
    num_envs: int = 256
    # Decisions per table (every seat's, learner or not) in one rollout; one update per rollout.
    rollout_length: int = 32
    # Environment decisions to train for (all tables, all seats); rounded up to whole updates (``steps_run``).
    total_steps: int = 1_000_000
    # Adam learning rate.
    learning_rate: float = 3e-4
    # Discount inside a hand (1: chips are chips); values never cross hands.
    gamma: float = 1.0
    # GAE lambda.
    gae_lambda: float = 0.95
    # PPO ratio clip epsilon.
    clip_eps: float = 0.2
    # Weight of the entropy bonus.
    ent_coef: float = 0.01
    # Weight of the value loss (mean squared error).
    vf_coef: float = 0.5
    # Global gradient norm clip.
    max_grad_norm: float = 0.5
    # Passes over each rollout.
    epochs: int = 4
    # Pieces each pass cuts a rollout's decisions (all seats', num_envs x rollout_length) into, the known
    # learner decisions first in random order; pieces without one are skipped, so PPO trains on about
    # learner decisions / (num_envs x rollout_length / minibatches) minibatches per pass.
    minibatches: int = 8
    # Hidden layer widths of the policy network and, separately, of the value network (tanh).
    hidden_sizes: tuple[int, ...] = (64, 64)
    # Weights of the opponent kinds of a table, drawn anew for every hand: a frozen copy of the learner,
    # uniform random legal actions, the learner itself (every seat learns). Normalised; any may be 0.
    mix: tuple[float, float, float] = (0.5, 0.25, 0.25)
    # Updates between two refreshes of the frozen copy (self-play against frozen copies).
    snapshot_interval: int = 10
    # League (``jax_common.league``): N frozen snapshots replace the frozen copy; a table whose opponent kind is
    # "frozen" plays a member drawn per hand by PFSP. 0: no league (the single frozen copy above).
    league: int = 0
    # Updates between two admissions of the learner into the league.
    league_interval: int = 10
    # PFSP weighting of x = P[learner beats member]: "hard" (1 - x)^league_power, "var" x(1 - x), "uniform".
    league_weighting: str = "hard"
    # p of the "hard" weighting.
    league_power: float = 2.0
    # The member a new snapshot replaces: "beaten" (the one the learner beats most) or "oldest".
    league_retire: str = "beaten"
    # Pseudo-hands at a win rate of 1/2 in each estimate of x.
    league_prior: float = 1.0
    # Updates between two checkpoints (the last update is always saved).
    checkpoint_interval: int = 50
    # Devices the tables (num_envs, a multiple of it) are split over, the learner's batch too (0: all that
    # jax.devices() lists); the same seed gives the same run on any number of devices, up to float sums' order.
    devices: int = 0
    # Seed of everything: parameters, deals, seats, opponents, actions, minibatches.
    seed: int = 0

    def __post_init__(self) -> None:
        def fail(name: str, why: str) -> None:
            raise ValueError(f"PPOConfig.{name} {why}, got {getattr(self, name)!r}")

        if self.game not in GAMES:
            fail("game", f"must be one of {list(GAMES)}")
        for name in ("num_players", "num_envs", "rollout_length", "total_steps", "epochs", "minibatches",
                     "snapshot_interval", "checkpoint_interval"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                fail(name, "must be a positive integer")
        if self.game == "nolimit" and not 2 <= self.num_players <= 10:
            fail("num_players", "must be from 2 to 10 for no-limit")
        if self.game != "nolimit" and self.num_players != 2:
            fail("num_players", f"must be 2 ({self.game} is heads-up)")
        if isinstance(self.devices, bool) or not isinstance(self.devices, int) or self.devices < 0:
            fail("devices", "must be a non-negative integer (0: all devices)")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            fail("seed", "must be a non-negative integer")
        for name in ("learning_rate", "clip_eps", "max_grad_norm"):
            if not _number(getattr(self, name)) or not getattr(self, name) > 0:
                fail(name, "must be a number > 0")
        for name in ("gamma", "gae_lambda"):
            if not _number(getattr(self, name)) or not 0 <= getattr(self, name) <= 1:
                fail(name, "must lie in [0, 1]")
        for name in ("ent_coef", "vf_coef"):
            if not _number(getattr(self, name)) or getattr(self, name) < 0:
                fail(name, "must be a number >= 0")
        sizes = self.hidden_sizes
        if not isinstance(sizes, tuple) or not sizes or not all(isinstance(h, int) and not isinstance(h, bool) and h > 0 for h in sizes):
            fail("hidden_sizes", "must be a non-empty tuple of positive integers")
        mix = self.mix
        if not isinstance(mix, tuple) or len(mix) != len(OPPONENTS) or not all(_number(w) and w >= 0 for w in mix) or sum(mix) <= 0:
            fail("mix", f"must be {len(OPPONENTS)} weights >= 0 for {OPPONENTS}, not all 0")
        if self.num_envs * self.rollout_length < self.minibatches:
            fail("minibatches", f"must not exceed the decisions of a rollout ({self.num_envs * self.rollout_length})")
        config_of(self)  # the league's fields
        if self.league and not self.mix[0] > 0:
            fail("league", "needs mix's frozen weight > 0 (the league plays the frozen opponent's tables)")

    @property
    def steps_per_update(self) -> int:
        """Environment decisions of one rollout (all tables, all seats)."""
        return self.num_envs * self.rollout_length

    def rounding_note(self) -> str | None:
        """One line saying how ``total_steps`` was rounded up to whole updates (None when it is a multiple)."""
        if self.steps_run == self.total_steps:
            return None
        return (f"{self.total_steps:,} steps asked: rounded up to {self.num_updates} whole updates of {self.num_envs} tables "
                f"x {self.rollout_length} decisions = {self.steps_run:,} steps (a multiple of {self.steps_per_update:,} runs exactly)")


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
