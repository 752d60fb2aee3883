"""The one configuration of an on-device R-NaD run, checked when it is built.

Defaults follow Hirano & Tsuruoka's Leduc experiments where they give a value (K = 1 hand per learner step,
M = 500 learner steps per regularisation policy, gamma = 0.001 for the target's EMA and for the second
averaging stage, whose EMA form is their proposal) and, for everything they leave to OpenSpiel's R-NaD,
that implementation's defaults as ``agent_zoo.rnad`` records them (eta 0.2, Adam without momentum at
5e-5, NeuRD beta 2, V-trace c 1, two hidden layers of 256). The networks are the zoo's JAX MLPs
(``agent_zoo.jax_common.network``: separate policy and value networks, tanh), not OpenSpiel's shared ReLU
torso.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agent_zoo.jax_common.config import GAMES, RunLength
from agent_zoo.jax_common.league import config_of

# GAMES (jax_common.config): the catalog keys R-NaD learns on the device, heads-up (those of agent_zoo.jax_ppo;
# Leduc and Kuhn with exact exploitability, no-limit with abstract bet sizing and rewards in big blinds)
# hand_window's default cap: the decisions a table plays per learner step when the game's longest hand is longer
# (no-limit's abstract raises allow 824 decisions, a heads-up hand of self-play rarely takes 20; Leduc's 8 and
# Kuhn's 3 stay whole)
LONG_HAND_WINDOW = 48
TARGET_AVERAGING = ("ema", "am")
TWO_STAGE = ("none", "am", "ema")
LR_SCHEDULES = ("constant", "linear")
LR_END_FRACTION = 0.01  # lr_end_fraction's default (a run with lr_schedule="constant" must leave it so)


@dataclass(frozen=True)
class RNaDJaxConfig(RunLength):
    """Hyper-parameters of one run; ``RNaDJaxConfig(...)`` raises ``ValueError`` naming the bad field."""

    # Game (catalog key): "leduc" or "kuhn" (heads-up, exact exploitability).
    game: str = "leduc"
    # K: hands (trajectories) played with the current policy per learner step, one per table; every seat is
    # the current policy. 1 as the document; raise it on an accelerator (the tables run in parallel).
    batch_size: int = 1
    # Decisions each table plays per learner step (0: the game's longest hand, capped at LONG_HAND_WINDOW). A hand
    # still running at the window's end is left out of that step's loss (it has no reward yet) and finished at the
    # next step, which learns from its decisions from there to the end; the metric ``cut`` is the share of
    # decisions left out. With a league, the member drawn at the next step plays the rest of such a hand.
    hand_window: int = 0
    # Learner steps to train for; rounded up to whole updates (``steps_run``).
    total_steps: int = 100_000
    # Learner steps one jitted update runs (a ``lax.scan``); the host logs and checkpoints between updates.
    steps_per_update: int = 500
    # M: learner steps between two regularisation-policy updates (one fixed-point iteration).
    reg_update_interval: int = 500
    # gamma of the target's EMA: target <- target + gamma * (theta - target) after every learner step.
    target_gamma: float = 0.001
    # How the target averages the learned parameters: "ema" (gamma above) or "am" (the mean of all of them).
    target_averaging: str = "ema"
    # Second averaging stage, every M steps: "none" (R-NaD: reg <- target), "am" (reg is the mean of the initial
    # reg and every target so far) or "ema" (two-stage averaging: reg <- reg + reg_gamma * (target - reg)).
    two_stage: str = "ema"
    # Rate of the second stage's EMA.
    reg_gamma: float = 0.001
    # Second-stage EMA rate max(1 / (n + 1), reg_gamma) at the n-th update (the document's proposed schedule:
    # the arithmetic mean first, the EMA once 1 / (n + 1) < reg_gamma).
    reg_gamma_schedule: bool = False
    # With two_stage="ema" and lr_schedule="linear": the second stage's EMA rate falls with the learning rate
    # (reg_gamma times the same linear fraction, from 1 to lr_end_fraction), so the outer averaging slows as the
    # inner steps do instead of pulling the regularisation policy to a target frozen by a vanishing step size.
    reg_gamma_decay: bool = False
    # eta of the reward transformation: -eta log(pi / pi_reg) at one's own decisions, + at the opponent's.
    eta: float = 0.2
    # Hidden layer widths of the policy network and, separately, of the value network (tanh).
    hidden_sizes: tuple[int, ...] = (256, 256)
    # Adam learning rate (the first step's, when it decays).
    learning_rate: float = 5e-5
    # "constant", or "linear": the rate falls linearly over the run's steps (steps_run learner steps) from
    # learning_rate to learning_rate * lr_end_fraction (a resumed run keeps the schedule of its total_steps).
    lr_schedule: str = "constant"
    # The last step's rate as a share of learning_rate, with lr_schedule="linear".
    lr_end_fraction: float = LR_END_FRACTION
    # Within each fixed-point iteration the rate also falls linearly, from the schedule's rate at the iteration's
    # first step to this share of it at its last, and starts high again at the next (1: no fall). Theta then ends
    # each iteration near the regularised game's fixed point instead of at the noise level of a large step.
    lr_iteration_end: float = 1.0
    # Adam first-moment decay (0: no momentum, as OpenSpiel's R-NaD).
    adam_b1: float = 0.0
    # Adam second-moment decay.
    adam_b2: float = 0.999
    # Adam epsilon.
    adam_eps: float = 1e-7
    # Every gradient component is clipped to [-grad_clip, grad_clip].
    grad_clip: float = 10_000.0
    # NeuRD threshold beta: a centred logit above +beta (below -beta) is not pushed further up (down).
    neurd_beta: float = 2.0
    # NeuRD advantages are clipped to [-neurd_clip, neurd_clip].
    neurd_clip: float = 10_000.0
    # V-trace trace-cutting constant c (rho infinite, lambda 1, as OpenSpiel's R-NaD).
    vtrace_c: float = 1.0
    # epsilon: theta's seats sample from (1 - epsilon) pi + epsilon uniform over the legal actions (V-trace and
    # NeuRD correct with pi / mu). 0 (OpenSpiel's R-NaD): on-policy. A floor on mu bounds the 1 / mu factor of a
    # rarely taken action's sampled advantage, which a wide NeuRD threshold (logits near +-beta) makes huge.
    exploration: float = 0.0
    # OpenSpiel's smooth switch: in the first half of each M steps the transformation's reg policy moves (in log
    # space) from the previous reg policy to the new one.
    reg_interpolation: bool = True
    # League (``jax_common.league``): N frozen snapshots of theta; at a share ``league_fraction`` of the tables,
    # drawn anew each learner step, one seat is a member drawn by PFSP and theta learns from the other seat
    # only. 0: no league (every seat theta).
    league: int = 0
    # Share of the tables that play a league member in each learner step.
    league_fraction: float = 0.5
    # Updates between two admissions of theta into the league.
    league_interval: int = 1
    # PFSP weighting of x = P[theta beats member]: "hard" (1 - x)^league_power, "var" x(1 - x), "uniform".
    league_weighting: str = "hard"
    # p of the "hard" weighting.
    league_power: float = 2.0
    # The member a new snapshot replaces: "beaten" (the one theta beats most) or "oldest".
    league_retire: str = "beaten"
    # Pseudo-hands at a win rate of 1/2 in each estimate of x.
    league_prior: float = 1.0
    # Updates between two checkpoints (the last update is always saved).
    checkpoint_interval: int = 20
    # Devices the tables (batch_size, a multiple of it) are split over, the learner's batch too (0: all that
    # jax.devices() lists); the same seed gives the same run on any number of devices, up to float sums' order.
    devices: int = 0
    # Seed of everything: parameters, deals, actions.
    seed: int = 0

    def __post_init__(self) -> None:
        def fail(name: str, why: str) -> None:
            raise ValueError(f"RNaDJaxConfig.{name} {why}, got {getattr(self, name)!r}")

        if self.game not in GAMES:
            fail("game", f"must be one of {list(GAMES)}")
        for name in ("batch_size", "total_steps", "steps_per_update", "reg_update_interval", "checkpoint_interval"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                fail(name, "must be a positive integer")
        if isinstance(self.hand_window, bool) or not isinstance(self.hand_window, int) or self.hand_window < 0:
            fail("hand_window", "must be a non-negative integer (0: the game's longest hand)")
        if isinstance(self.devices, bool) or not isinstance(self.devices, int) or self.devices < 0:
            fail("devices", "must be a non-negative integer (0: all devices)")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            fail("seed", "must be a non-negative integer")
        for name in ("target_gamma", "reg_gamma"):
            if not _number(getattr(self, name)) or not 0 < getattr(self, name) <= 1:
                fail(name, "must lie in (0, 1]")
        for name in ("learning_rate", "adam_eps", "grad_clip", "neurd_beta", "neurd_clip", "vtrace_c"):
            if not _number(getattr(self, name)) or not getattr(self, name) > 0:
                fail(name, "must be a number > 0")
        for name in ("adam_b1", "adam_b2"):
            if not _number(getattr(self, name)) or not 0 <= getattr(self, name) < 1:
                fail(name, "must lie in [0, 1)")
        if self.lr_schedule not in LR_SCHEDULES:
            fail("lr_schedule", f"must be one of {list(LR_SCHEDULES)}")
        if not _number(self.lr_end_fraction) or not 0 <= self.lr_end_fraction <= 1:
            fail("lr_end_fraction", "must lie in [0, 1]")
        if not _number(self.lr_iteration_end) or not 0 < self.lr_iteration_end <= 1:
            fail("lr_iteration_end", "must lie in (0, 1]")
        if self.lr_schedule == "constant" and self.lr_end_fraction != LR_END_FRACTION:
            fail("lr_end_fraction", "takes effect only with lr_schedule='linear'; set both or neither")
        if not _number(self.exploration) or not 0 <= self.exploration < 1:
            fail("exploration", "must lie in [0, 1)")
        if not _number(self.eta) or self.eta < 0:
            fail("eta", "must be a number >= 0")
        if self.target_averaging not in TARGET_AVERAGING:
            fail("target_averaging", f"must be one of {list(TARGET_AVERAGING)}")
        if self.two_stage not in TWO_STAGE:
            fail("two_stage", f"must be one of {list(TWO_STAGE)}")
        for name in ("reg_gamma_schedule", "reg_interpolation", "reg_gamma_decay"):
            if not isinstance(getattr(self, name), bool):
                fail(name, "must be true or false")
        if self.reg_gamma_decay and (self.two_stage != "ema" or self.lr_schedule != "linear"):
            fail("reg_gamma_decay", "needs two_stage='ema' and lr_schedule='linear' (it follows the learning rate's decay)")
        sizes = self.hidden_sizes
        if not isinstance(sizes, tuple) or not sizes or not all(isinstance(h, int) and not isinstance(h, bool) and h > 0 for h in sizes):
            fail("hidden_sizes", "must be a non-empty tuple of positive integers")
        config_of(self)  # the league's fields
        if not _number(self.league_fraction) or not 0 < self.league_fraction <= 1:
            fail("league_fraction", "must lie in (0, 1]")

    def window(self, longest_hand: int) -> int:
        """Decisions per table and learner step, given the game's longest hand."""
        return min(self.hand_window or LONG_HAND_WINDOW, longest_hand)

    @property
    def num_players(self) -> int:
        """Seats per table: R-NaD here is for two-player zero-sum games."""
        return 2

    def rounding_note(self) -> str | None:
        """One line saying how ``total_steps`` was rounded up to whole updates (None when it is a multiple)."""
        if self.steps_run == self.total_steps:
            return None
        return (f"{self.total_steps:,} learner steps asked: rounded up to {self.num_updates} whole updates of "
                f"{self.steps_per_update} = {self.steps_run:,} steps (a multiple of {self.steps_per_update:,} runs exactly)")


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
