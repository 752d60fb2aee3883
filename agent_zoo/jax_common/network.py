"""The policy and value MLPs as plain functions of a dict of arrays, for JAX (training) and numpy (the agent).

``params`` holds ``pi_w0, pi_b0, ..., pi_wK, pi_bK`` (policy: observation -> one logit per action id) and
``v_w0, ..., v_bK`` (value: observation -> chips the seat to act expects to win this hand), tanh between
layers. Every function takes the array module ``xp`` (``numpy`` or ``jax.numpy``), so the saved agent needs
no JAX. Observations are multiplied by the run's fixed ``obs_scale`` (one over each feature's upper bound)
before the first layer. ``init_params`` (JAX, imported on first use) draws a fresh pair of networks.

Both JAX trainers use these networks: ``agent_zoo.jax_ppo`` and ``agent_zoo.jax_rnad``.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import numpy as np

Params = dict[str, Any]  # name -> array (numpy or JAX)
MASKED = -1e9  # logit of an illegal action: exp() is exactly 0, and no inf - inf NaNs anywhere


def layer_sizes(obs_dim: int, hidden_sizes: tuple[int, ...], outputs: int) -> list[tuple[int, int]]:
    """(fan_in, fan_out) of each dense layer of one MLP."""
    widths = [obs_dim, *hidden_sizes, outputs]
    return list(pairwise(widths))


def mlp(params: Params, prefix: str, x: Any, xp: Any = np) -> Any:
    """The MLP named ``prefix`` ("pi" or "v") on inputs ``x`` (..., D): tanh hidden layers, linear output."""
    depth = sum(1 for k in params if k.startswith(f"{prefix}_w"))
    for i in range(depth):
        x = x @ params[f"{prefix}_w{i}"] + params[f"{prefix}_b{i}"]
        if i < depth - 1:
            x = xp.tanh(x)
    return x


def policy_logits(params: Params, obs: Any, mask: Any, xp: Any = np) -> Any:
    """(..., A) logits of the legal actions, ``MASKED`` at illegal ones (``mask`` > 0 where legal)."""
    return xp.where(mask > 0, mlp(params, "pi", obs, xp), MASKED)


def value(params: Params, obs: Any, xp: Any = np) -> Any:
    """(...,) value of the seat to act."""
    return mlp(params, "v", obs, xp)[..., 0]


def probabilities(params: Params, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """(m, A) float64 masked soft-max policy, numpy only (illegal actions exactly 0, rows sum to 1)."""
    logits = policy_logits(params, np.asarray(obs, np.float32), np.asarray(mask)).astype(np.float64)
    logits -= logits.max(axis=-1, keepdims=True)
    p = np.exp(logits) * (np.asarray(mask) > 0)
    return p / p.sum(axis=-1, keepdims=True)


def init_params(key: Any, obs_dim: int, num_actions: int, hidden_sizes: tuple[int, ...]) -> Params:
    """Orthogonal weights (gain sqrt 2 hidden, 0.01 policy output: a near-uniform start, 1 value output), zero
    biases; JAX arrays drawn from the PRNG ``key``."""
    import jax
    import jax.numpy as jnp

    params: Params = {}
    for prefix, outputs, last_gain in (("pi", num_actions, 0.01), ("v", 1, 1.0)):
        sizes = layer_sizes(obs_dim, hidden_sizes, outputs)
        for i, (fan_in, fan_out) in enumerate(sizes):
            key, sub = jax.random.split(key)
            gain = last_gain if i == len(sizes) - 1 else float(np.sqrt(2.0))
            params[f"{prefix}_w{i}"] = jax.nn.initializers.orthogonal(gain)(sub, (fan_in, fan_out), jnp.float32)
            params[f"{prefix}_b{i}"] = jnp.zeros(fan_out, jnp.float32)
    return params
