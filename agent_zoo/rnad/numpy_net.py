"""Numpy forward pass of the R-NaD network (no torch): used by actors, the evaluator and the agent."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def numpy_forward(params: Sequence[tuple[np.ndarray, np.ndarray]], obs: np.ndarray, activate_final: bool) -> np.ndarray:
    """Head outputs (logits, then the value) for obs (R, N, D) with stacked params, or (N, D) with one net's.

    ``params`` holds (W, b) per layer with ``x @ W + b``; ReLU after every torso layer but the last
    (and after the last too if ``activate_final``); the final (head) layer is linear.
    """
    x = obs
    last = len(params) - 1
    for i, (w, b) in enumerate(params):
        x = np.matmul(x, w) + b
        if i < last - 1 or (i == last - 1 and activate_final):
            np.maximum(x, 0.0, out=x)
    return x


def numpy_policy(logits: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Soft-max over the legal actions (last axis); 0 on illegal ones."""
    masked = np.where(legal > 0, logits, -np.inf)
    masked = masked - masked.max(axis=-1, keepdims=True)
    e = np.exp(masked)
    return e / e.sum(axis=-1, keepdims=True)


def post_process_policy(policy: np.ndarray, threshold: float = 0.03, discretization: int = 32) -> np.ndarray:
    """OpenSpiel R-NaD's policy post-processing ("fine tuning"), on the last axis of ``policy``.

    OpenSpiel evaluated and played its R-NaD policies this way: a soft-max policy keeps a little mass
    on bad actions, so (1) actions below ``threshold`` are dropped and the rest renormalised (a row
    with every action below it is kept as is), then (2) each row is rounded to multiples of
    ``1 / discretization``: in descending order of probability each action gets its rounded-up share
    while the ``discretization`` units last, and any units left over go to the most likely action.
    A non-positive ``threshold`` or ``discretization`` skips that part. Illegal actions (0) stay 0.
    """
    p = np.asarray(policy, dtype=np.float64)
    if threshold > 0:
        keep = (p >= threshold) | (p.max(axis=-1, keepdims=True) < threshold)
        p = np.where(keep, p, 0.0)
        p = p / p.sum(axis=-1, keepdims=True)
    if discretization <= 0:
        return p
    order = np.argsort(-p, axis=-1, kind="stable")
    # Rounded-up units in descending order (the 1e-9 keeps exact multiples like 0.25 * 32 from rounding up).
    want = np.ceil(np.take_along_axis(p, order, axis=-1) * discretization - 1e-9)
    before = np.cumsum(want, axis=-1) - want
    units = np.clip(discretization - before, 0.0, want)  # what is left when each action's turn comes
    units[..., 0] += discretization - units.sum(axis=-1)
    out = np.empty_like(p)
    np.put_along_axis(out, order, units / discretization, axis=-1)
    return out
