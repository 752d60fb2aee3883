"""R-NaD learner (Algorithm 1) with optional two-stage averaging (Algorithm 2), in PyTorch.

One ``step()``: play K hands with the current policy through the environment, transform rewards
against the regularisation policy (eq. 6), estimate values with V-trace, move the logits along
q - v with NeuRD (eq. 5) through Adam, update the target parameters (eq. 7 or eq. 9) and, every M
steps, the regularisation parameters: replaced by the target (R-NaD) or averaged with it (AM, EMA).
The policy the algorithm returns is the regularisation policy.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from pettingzoo import AECEnv

from agent_zoo.rnad.config import RNaDConfig
from agent_zoo.rnad.network import PolicyValueNet, masked_log_policy, numpy_forward, numpy_params, numpy_policy
from agent_zoo.rnad.rollout import Trajectories, collect
from agent_zoo.rnad.vtrace import neurd_loss, player_weights, reward_transform, v_trace, value_loss


def lerp_(dst: torch.nn.Module, src: torch.nn.Module, weight: float) -> None:
    """dst <- dst + weight * (src - dst), parameter-wise, in place."""
    with torch.no_grad():
        torch._foreach_lerp_(list(dst.parameters()), list(src.parameters()), weight)


def reg_update_rate(config: RNaDConfig, n: int) -> float:
    """Weight of the target in the ``n``-th regularisation update (n = 1, 2, ...).

    R-NaD replaces the reg parameters (1); AM keeps the mean of the initial reg parameters and the
    ``n`` targets so far (eq. 9: 1 / (n + 1)); EMA uses ``reg_gamma``, or with the section 5.3
    schedule max(1 / (n + 1), reg_gamma): arithmetic mean first, EMA once 1 / (n + 1) < reg_gamma.
    """
    if n < 1:
        raise ValueError(f"n counts regularisation updates from 1, got {n}")
    if config.two_stage == "none":
        return 1.0
    if config.two_stage == "am":
        return 1.0 / (n + 1)
    return max(1.0 / (n + 1), config.reg_gamma) if config.reg_gamma_schedule else config.reg_gamma


class RNaDSolver:
    """Learns a Leduc (or any small two-player poker) policy by self-play through an AEC env."""

    def __init__(self, env: AECEnv, config: RNaDConfig, seed: int) -> None:
        self.env = env
        self.config = config
        self.seed = int(seed)
        agent = env.possible_agents[0]
        self.obs_dim = int(np.prod(env.observation_space(agent)["observation"].shape))
        self.num_actions = int(env.action_space(agent).n)
        self.num_players = len(env.possible_agents)
        if self.num_players != 2:
            raise ValueError(f"R-NaD here is for two-player zero-sum games; env has {self.num_players} players")
        gen = torch.Generator().manual_seed(self.seed)
        self.rng = np.random.default_rng(self.seed)

        def new_net(init_from: PolicyValueNet | None = None) -> PolicyValueNet:
            net = PolicyValueNet(self.obs_dim, self.num_actions, config.hidden_sizes, config.torso_activate_final)
            net.reset_parameters(gen)
            if init_from is not None:
                net.load_state_dict(init_from.state_dict())
            net.requires_grad_(init_from is None)
            return net

        self.net = new_net()  # theta
        copy = self.net if config.shared_init else None
        self.target = new_net(copy)  # theta_target
        self.reg = new_net(copy)  # theta_reg,m
        self.reg_prev = new_net(copy)  # theta_reg,m-1 (for the smooth switch)
        self.optimizer = torch.optim.Adam(
            self.net.parameters(),
            lr=config.learning_rate,
            betas=(config.adam_b1, config.adam_b2),
            eps=config.adam_eps,
            foreach=True,
        )
        self.learner_steps = 0
        self.reg_updates = 0
        self._actor_params = numpy_params(self.net)  # views: follow the optimiser's in-place updates

    # Acting ------------------------------------------------------------------------------------
    def _act_policy(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = numpy_forward(self._actor_params, obs, self.config.torso_activate_final)
        return numpy_policy(logits, mask)

    def collect(self) -> Trajectories:
        return collect(self.env, self._act_policy, self.rng, self.config.batch_size, self.config.trajectory_max)

    # Learning ----------------------------------------------------------------------------------
    def reg_alpha(self) -> float:
        """Weight of the current reg policy (vs the previous) in the transform at this step."""
        if not self.config.reg_interpolation:
            return 1.0
        j = self.learner_steps % self.config.reg_update_interval
        return min(2.0 * j / self.config.reg_update_interval, 1.0)

    def loss(self, traj: Trajectories) -> tuple[torch.Tensor, dict[str, float]]:
        """The R-NaD loss of a batch of trajectories (value + NeuRD)."""
        t_len, batch = traj.valid.shape
        obs = torch.from_numpy(traj.obs.reshape(t_len * batch, -1))
        legal = torch.from_numpy(traj.legal.reshape(t_len * batch, -1))
        logits, v = self.net(obs)
        pi, log_pi = masked_log_policy(logits, legal)
        with torch.no_grad():
            _, v_tgt = self.target(obs)
            _, log_reg = masked_log_policy(self.reg(obs)[0], legal)
            alpha = self.reg_alpha()
            if alpha < 1.0:
                _, log_reg_prev = masked_log_policy(self.reg_prev(obs)[0], legal)
                log_reg = alpha * log_reg + (1.0 - alpha) * log_reg_prev
            log_ratio = (log_pi - log_reg).reshape(t_len, batch, -1).double().numpy()
            pi_np = pi.reshape(t_len, batch, -1).double().numpy()
        v_np = v_tgt.reshape(t_len, batch).double().numpy()
        pi_taken = np.take_along_axis(pi_np, traj.action[..., None], axis=-1)[..., 0]
        v_target = np.zeros((t_len, batch))
        q = np.zeros(pi_np.shape)
        masks = []
        for p in range(self.num_players):
            reg_reward, reg_q = reward_transform(pi_np, log_ratio, traj.player, traj.valid, p, self.config.eta)
            vt, has, qp = v_trace(
                v_np, traj.valid, traj.player, traj.action, traj.mu, pi_taken,
                traj.rewards, reg_reward, reg_q, p, self.config.vtrace_c,
            )  # fmt: skip
            v_target += vt * has
            q += qp
            masks.append(has)
        w = torch.from_numpy(player_weights(masks).reshape(-1)).float()
        loss_v = value_loss(v, torch.from_numpy(v_target.reshape(-1)).float(), w)
        loss_pi = neurd_loss(
            logits, pi.detach(), torch.from_numpy(q.reshape(t_len * batch, -1)).float(), legal, w,
            self.config.neurd_beta, self.config.neurd_clip,
        )  # fmt: skip
        return loss_v + loss_pi, {"loss_v": float(loss_v), "loss_pi": float(loss_pi)}

    def step(self) -> dict[str, float]:
        """One learner step (lines 5-13 of Algorithms 1 and 2)."""
        traj = self.collect()
        loss, logs = self.loss(traj)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_value_(self.net.parameters(), self.config.grad_clip)
        self.optimizer.step()
        self.learner_steps += 1
        cfg = self.config
        if cfg.target_averaging == "ema":
            lerp_(self.target, self.net, cfg.target_gamma)
        else:  # running arithmetic mean of every theta so far (the initial target counts as the first)
            lerp_(self.target, self.net, 1.0 / (self.learner_steps + 1))
        if self.learner_steps % cfg.reg_update_interval == 0:
            self.update_reg()
        return logs

    def update_reg(self) -> None:
        """theta_reg,m+1 from theta_reg,m and the target (line 12)."""
        self.reg_updates += 1
        self.reg_prev.load_state_dict(self.reg.state_dict())
        rate = reg_update_rate(self.config, self.reg_updates)
        if rate == 1.0:
            self.reg.load_state_dict(self.target.state_dict())
        else:
            lerp_(self.reg, self.target, rate)

    # Inspection / persistence --------------------------------------------------------------------
    def policy_of(self, which: str, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """Policy of ``which`` in {"reg", "target", "current"} on a batch of observations (one pass)."""
        net = {"reg": self.reg, "target": self.target, "current": self.net}[which]
        with torch.no_grad():
            logits, _ = net(torch.as_tensor(obs, dtype=torch.float32))
        return numpy_policy(logits.double().numpy(), legal)

    def state_dict(self) -> dict[str, Any]:
        return {
            "config": self.config.to_dict(),
            "seed": self.seed,
            "learner_steps": self.learner_steps,
            "reg_updates": self.reg_updates,
            "rng": self.rng.bit_generator.state,
            "net": self.net.state_dict(),
            "target": self.target.state_dict(),
            "reg": self.reg.state_dict(),
            "reg_prev": self.reg_prev.state_dict(),
            "optimizer": self.optimizer.state_dict(),
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        if RNaDConfig.from_dict(state["config"]) != self.config:
            raise ValueError("checkpoint was written with a different RNaDConfig")
        self.learner_steps = int(state["learner_steps"])
        self.reg_updates = int(state["reg_updates"])
        self.rng.bit_generator.state = state["rng"]
        for name in ("net", "target", "reg", "reg_prev"):
            getattr(self, name).load_state_dict(state[name])  # in place: actor views stay valid
        self.optimizer.load_state_dict(state["optimizer"])
