"""The R-NaD update's math in JAX: reward transformation, V-trace, NeuRD, and the two averaging stages.

Shapes: ``T`` decisions by ``B`` hands (one hand per column, ``valid`` 0 after it ended), ``A`` actions, two
players. A hand interleaves both players' decisions, so V-trace for player ``p`` treats the opponent's
decisions as part of the environment: their rewards and importance weights are carried back to ``p``'s
previous decision (gamma = lambda = 1, rho infinite), as OpenSpiel's R-NaD and ``agent_zoo.rnad.vtrace``
(the plain-loop numpy version these functions are tested against) do. Everything here is jittable.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

Params = dict[str, Any]
MASKED = -1e9  # logit of an illegal action: exp() is exactly 0, and no inf anywhere (gradients stay finite)


def masked_log_policy(logits: jax.Array, legal: jax.Array) -> tuple[jax.Array, jax.Array]:
    """(policy, log policy) of the soft-max over the legal actions; both exactly 0 on illegal ones."""
    log_pi = jax.nn.log_softmax(jnp.where(legal > 0, logits, MASKED), axis=-1)
    log_pi = jnp.where(legal > 0, log_pi, 0.0)
    return jnp.where(legal > 0, jnp.exp(log_pi), 0.0), log_pi


def reward_transform(pi: jax.Array, log_ratio: jax.Array, player_id: jax.Array, valid: jax.Array, player: int,
                     eta: float) -> tuple[jax.Array, jax.Array]:
    """The reward transformation for ``player``'s returns: (reg_reward (T, B), reg_q (T, B, A)).

    ``log_ratio`` = log(pi / pi_reg) per action. ``reg_reward`` is the expected transformation of each step,
    -eta KL(pi || pi_reg) at ``player``'s decisions and +eta KL at the opponent's (the game stays zero-sum);
    ``reg_q`` the per-action term -eta log_ratio(a) (+ at the opponent's) that NeuRD's action values carry.
    """
    sign = jnp.where(player_id == player, 1.0, -1.0) * valid * eta
    kl = jnp.sum(pi * log_ratio, axis=-1)
    return -kl * sign, -log_ratio * sign[..., None]


def v_trace(v: jax.Array, valid: jax.Array, player_id: jax.Array, actions: jax.Array, mu_taken: jax.Array,
            pi_taken: jax.Array, rewards: jax.Array, reg_reward: jax.Array, reg_q: jax.Array, player: int,
            c: float) -> tuple[jax.Array, jax.Array, jax.Array]:
    """V-trace value targets and NeuRD action values of ``player``: (v_target, has_played, q).

    Inputs (T, B): values ``v``, ``valid``, the seat to act, the actions taken with their probability under
    the acting policy (``mu_taken``) and the current one (``pi_taken``); ``rewards`` (T, B, 2) paid after each
    step; ``reg_reward`` / ``reg_q`` from ``reward_transform``. ``q`` (T, B, A) is v + reg_q(a) + [a taken] /
    mu(a) * (r + carried IS * next v_target - v) at ``player``'s decisions, 0 elsewhere. A backward
    ``lax.scan`` carries, per column, the rewards and importance weights since ``player``'s next decision.
    """
    valid_b = valid > 0
    has_played = valid_b & (player_id == player)
    ratio = jnp.where(valid_b, pi_taken / jnp.where(valid_b, mu_taken, 1.0), 1.0)
    inv_mu = jnp.where(valid_b, 1.0 / jnp.where(valid_b, mu_taken, 1.0), 1.0)
    zeros = jnp.zeros(v.shape[1], v.dtype)
    init = (zeros, zeros, zeros, zeros, jnp.ones_like(zeros))  # acc_reward, acc_unc, next_v, next_vt, carried_is

    def back(carry: tuple[jax.Array, ...], x: tuple[jax.Array, ...]) -> tuple[tuple[jax.Array, ...], tuple[jax.Array, jax.Array]]:
        acc_reward, acc_unc, next_v, next_vt, carried_is = carry
        vt, ok, mine, cs, imu, r, regr = x
        unc = r + acc_unc + regr  # transformed return, no importance correction
        disc = r + acc_reward  # importance-corrected reward since this step
        w = cs * carried_is
        target = vt + w * (unc + next_v - vt) + jnp.minimum(c, w) * (next_vt - next_v)
        delta = imu * (disc + carried_is * next_vt - vt)
        own = ok & mine
        other = ok & ~mine
        new = (jnp.where(other, regr + cs * disc, 0.0), jnp.where(other, unc, 0.0),
               jnp.where(own, vt, jnp.where(other, next_v, 0.0)), jnp.where(own, target, jnp.where(other, next_vt, 0.0)),
               jnp.where(other, cs * carried_is, 1.0))
        return new, (jnp.where(own, target, 0.0), jnp.where(own, delta, 0.0))

    xs = (v, valid_b, player_id == player, ratio, inv_mu, rewards[..., player], reg_reward)
    _, (v_target, delta) = jax.lax.scan(back, init, xs, reverse=True)
    onehot = jax.nn.one_hot(actions, reg_q.shape[-1], dtype=v.dtype)
    q = (v[..., None] + reg_q + onehot * delta[..., None]) * has_played[..., None]
    return v_target, has_played, q


def player_weights(has_played: jax.Array) -> jax.Array:
    """(T, B) weights 1 / (the player's decisions in the batch) at that player's decisions, 0 elsewhere."""
    return has_played / jnp.maximum(has_played.sum(), 1)


def neurd_loss(logits: jax.Array, pi: jax.Array, q: jax.Array, legal: jax.Array, weight: jax.Array, beta: float,
               clip: float) -> jax.Array:
    """NeuRD: its gradient moves each legal logit along the clipped advantage q(a) - sum_b pi(b) q(b).

    Advantages are clipped to [-clip, clip] and constant; logits are centred on the mean of the legal logits,
    and a centred logit beyond +-beta is not pushed further out (so the gradient of a legal logit is
    -weight * (force(a) - mean of the legal forces)). ``weight`` (T, B) averages over each player's
    decisions. Minimise this.
    """
    adv = jax.lax.stop_gradient(jnp.clip(q - jnp.sum(pi * q, axis=-1, keepdims=True), -clip, clip))
    centred = logits - jnp.sum(logits * legal, axis=-1, keepdims=True) / jnp.sum(legal, axis=-1, keepdims=True)
    force = jax.lax.stop_gradient((centred > -beta) * jnp.minimum(adv, 0.0) + (centred < beta) * jnp.maximum(adv, 0.0))
    return -jnp.sum(weight * jnp.sum(legal * centred * force, axis=-1))


def value_loss(v: jax.Array, v_target: jax.Array, weight: jax.Array) -> jax.Array:
    """Squared error to the (constant) V-trace targets, averaged over each player's decisions."""
    return jnp.sum(weight * (v - jax.lax.stop_gradient(v_target)) ** 2)


def lerp(start: Params, end: Params, weight: jax.Array) -> Params:
    """start + weight * (end - start), leaf by leaf; a weight of 1 gives ``end`` exactly (as torch's lerp)."""
    def one(a: jax.Array, b: jax.Array) -> jax.Array:
        return jnp.where(weight >= 0.5, b - (b - a) * (1.0 - weight), a + weight * (b - a))

    return jax.tree_util.tree_map(one, start, end)


def target_rate(averaging: str, gamma: float, t: jax.Array) -> jax.Array:
    """Weight of theta_t+1 in the target after learner step ``t`` (1, 2, ...): gamma (EMA) or 1 / (t + 1) (AM)."""
    return jnp.asarray(gamma, jnp.float32) if averaging == "ema" else 1.0 / (t + 1.0)


def reg_rate(two_stage: str, reg_gamma: float, schedule: bool, n: jax.Array, decay: jax.Array | float = 1.0) -> jax.Array:
    """Weight of the target in the ``n``-th regularisation update (n = 1, 2, ...).

    R-NaD replaces the reg parameters (1); AM keeps the mean of the initial reg parameters and the ``n``
    targets so far (1 / (n + 1)); EMA uses ``reg_gamma``, or with the schedule max(1 / (n + 1), reg_gamma),
    where ``reg_gamma`` is first multiplied by ``decay`` (the learning rate's fraction, with reg_gamma_decay).
    """
    n = jnp.asarray(n, jnp.float32)
    if two_stage == "none":
        return jnp.ones_like(n)
    if two_stage == "am":
        return 1.0 / (n + 1.0)
    gamma = reg_gamma * jnp.asarray(decay, jnp.float32)
    return jnp.maximum(1.0 / (n + 1.0), gamma) if schedule else jnp.full_like(n, gamma)
