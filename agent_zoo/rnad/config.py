"""The one configuration of an R-NaD run (defaults: the two-stage averaging paper's Leduc experiments).

Defaults follow Hirano & Tsuruoka (K = 1, M = 500, gamma = 0.001 for both averaging stages) and,
for everything the paper leaves to its implementation, OpenSpiel's former ``rnad.py`` in its final
version (network, initialisation, Adam, eta, NeuRD and V-trace constants). ``LEGACY_FIDELITY`` holds
the field values that reproduce this project's runs from before it followed OpenSpiel's final fixes.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from agent_zoo.configs import config_from_dict

TARGET_AVERAGING = ("ema", "am")
TWO_STAGE = ("none", "am", "ema")
INITS = ("haiku", "torch")


@dataclass(frozen=True)
class RNaDConfig:
    """Hyper-parameters of R-NaD (Algorithm 1) and two-stage averaging R-NaD (Algorithm 2)."""

    # K: trajectories (hands) sampled with the current policy per learner step.
    batch_size: int = 1
    # M: learner steps between two regularisation-policy updates.
    reg_update_interval: int = 500
    # gamma of eq. (7): rate at which the target parameters follow the learned parameters.
    target_gamma: float = 0.001
    # How the target averages the learned parameters: "ema" (eq. 7) or "am" (eq. 9 over all steps, Fig. 5).
    target_averaging: str = "ema"
    # Second averaging stage (Algorithm 2): "none" = R-NaD (reg <- target), "am" (eq. 9) or "ema".
    two_stage: str = "none"
    # Rate of the second-stage EMA: reg <- reg + rate * (target - reg).
    reg_gamma: float = 0.001
    # Section 5.3 schedule for the second-stage EMA: rate_n = max(1 / (n + 1), reg_gamma) at update n.
    reg_gamma_schedule: bool = False
    # Hidden layer widths of the shared torso (policy and value heads sit on top).
    hidden_sizes: tuple[int, ...] = (256, 256)
    # Apply ReLU after the torso's last layer too (OpenSpiel's MLP torso has activate_final=True since
    # April 2023; False = the linear last torso layer of its first version and of this project before).
    torso_activate_final: bool = True
    # Parameter initialisation: "haiku" = hk.Linear's default (weights truncated normal in +-2 std with
    # std 1 / sqrt(fan_in), zero biases), as OpenSpiel; "torch" = torch.nn.Linear's default (weights and
    # biases uniform in +-1 / sqrt(fan_in)), what a plain PyTorch port would get.
    init: str = "haiku"
    # Adam learning rate.
    learning_rate: float = 5e-5
    # Adam first-moment decay (0: no momentum, as OpenSpiel).
    adam_b1: float = 0.0
    # Adam second-moment decay.
    adam_b2: float = 0.999
    # Adam epsilon (OpenSpiel writes 10e-8).
    adam_eps: float = 1e-7
    # Every gradient component is clipped to [-grad_clip, grad_clip].
    grad_clip: float = 10_000.0
    # eta of eq. (6): strength of the reward transformation (0 disables it: plain NeuRD).
    eta: float = 0.2
    # NeuRD threshold beta: a centred logit above +beta (below -beta) is not pushed further up (down).
    neurd_beta: float = 2.0
    # Centre the logits for the NeuRD threshold on the mean over the legal actions (True: OpenSpiel's final
    # version, since Dec 2023) or on the sum of legal logits over all action slots (False: its first version).
    neurd_centre_legal: bool = True
    # NeuRD advantages are clipped to [-neurd_clip, neurd_clip].
    neurd_clip: float = 10_000.0
    # V-trace trace-cutting constant c (rho is infinite and lambda 1, as OpenSpiel).
    vtrace_c: float = 1.0
    # Player decisions kept per trajectory; longer hands are cut (never happens in Leduc: at most 8).
    trajectory_max: int = 10
    # OpenSpiel's smooth switch: during the first half of each M steps the transform's reg policy is
    # interpolated (in log space) from the previous reg policy to the new one.
    reg_interpolation: bool = True
    # Start the target and the regularisation parameters as copies of the initial parameters (True: as
    # OpenSpiel since Nov 2022, which initialises all four parameter sets from one key) or as independent
    # random draws (False: OpenSpiel's first version).
    shared_init: bool = True

    def __post_init__(self) -> None:
        def need(cond: bool, name: str, what: str) -> None:
            if not cond:
                raise ValueError(f"{name} must be {what}, got {getattr(self, name)!r}")

        need(self.batch_size >= 1, "batch_size", ">= 1")
        need(self.reg_update_interval >= 1, "reg_update_interval", ">= 1")
        need(0.0 < self.target_gamma <= 1.0, "target_gamma", "in (0, 1]")
        need(self.target_averaging in TARGET_AVERAGING, "target_averaging", f"one of {TARGET_AVERAGING}")
        need(self.two_stage in TWO_STAGE, "two_stage", f"one of {TWO_STAGE}")
        need(0.0 < self.reg_gamma <= 1.0, "reg_gamma", "in (0, 1]")
        need(len(self.hidden_sizes) >= 1 and all(h >= 1 for h in self.hidden_sizes), "hidden_sizes", "non-empty, positive")
        need(self.init in INITS, "init", f"one of {INITS}")
        need(self.learning_rate > 0, "learning_rate", "> 0")
        need(0.0 <= self.adam_b1 < 1.0, "adam_b1", "in [0, 1)")
        need(0.0 <= self.adam_b2 < 1.0, "adam_b2", "in [0, 1)")
        need(self.adam_eps > 0, "adam_eps", "> 0")
        need(self.grad_clip > 0, "grad_clip", "> 0")
        need(self.eta >= 0, "eta", ">= 0")
        need(self.neurd_beta > 0, "neurd_beta", "> 0")
        need(self.neurd_clip > 0, "neurd_clip", "> 0")
        need(self.vtrace_c > 0, "vtrace_c", "> 0")
        need(self.trajectory_max >= 1, "trajectory_max", ">= 1")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RNaDConfig:
        """The config saved by ``to_dict`` (unknown keys refused by name).

        A saved config without ``neurd_centre_legal`` predates the field and so was trained with the
        all-slots centring: it is read as such, so that old checkpoints resume as what they were.
        """
        if isinstance(data, dict) and "neurd_centre_legal" not in data:
            data = {**data, "neurd_centre_legal": False}
        return config_from_dict(cls, data)


# This project's behaviour before it followed OpenSpiel's final version: linear last torso
# layer and NeuRD logits centred over all action slots. ``--set`` these to reproduce the earlier results.
LEGACY_FIDELITY: dict[str, Any] = {"torso_activate_final": False, "neurd_centre_legal": False}

# The variants of the CLI (``--variant``) as overrides of the defaults.
VARIANTS: dict[str, dict[str, Any]] = {
    "rnad": {},
    "two-stage-am": {"two_stage": "am"},
    "two-stage-ema": {"two_stage": "ema"},
}


def variant_config(variant: str, **overrides: Any) -> RNaDConfig:
    """The config of a named variant, with extra field overrides."""
    if variant not in VARIANTS:
        raise ValueError(f"variant {variant!r} is unknown; choose one of {sorted(VARIANTS)}")
    return RNaDConfig(**{**VARIANTS[variant], **overrides})
