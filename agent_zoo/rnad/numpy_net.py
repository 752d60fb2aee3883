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
