"""Regret matching and the CFR-family regret update, written once for every solver in the zoo.

The full-width CFR / CFR+ / DCFR solver (``cfr/solvers.py``), external-sampling MCCFR (``cfr/mccfr.py``),
heads-up and multi-way push/fold (``push_fold/solver.py``, ``push_fold/multiway.py``) and the threshold
game's sampled regret matching (``threshold/solver.py``) all use these helpers, so the rules below exist
in one place:

* regret matching (Hart & Mas-Colell, "A simple adaptive procedure leading to correlated equilibrium",
  Econometrica 2000): play each action in proportion to its positive cumulative regret; with no
  positive regret, play the fallback (uniform over the legal actions);
* regret matching+ (Tammelin, "Solving large imperfect information games using CFR+", arXiv 2014):
  cumulative regrets are floored at 0 after every update;
* discounting (Brown & Sandholm, "Solving imperfect-information games via discounted regret
  minimization", AAAI 2019): after iteration ``t`` positive regrets are scaled by ``t^a / (t^a + 1)``,
  negative ones by ``t^b / (t^b + 1)``, and iteration ``t`` enters the average with weight ``t^gamma``.

The arithmetic is exactly what the solvers did before it moved here, operation for operation, so
their results are unchanged bit for bit (``tests/test_regret.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np


def normalize(weights: np.ndarray, fallback: np.ndarray | None = None, axis: int = -1) -> np.ndarray:
    """Non-negative ``weights`` made into probabilities along ``axis``; where they sum to 0, ``fallback``
    (broadcast to ``weights``' shape), or the uniform distribution over the axis when it is None."""
    total = weights.sum(axis=axis, keepdims=True)
    if fallback is None:
        out = np.full(weights.shape, 1.0 / weights.shape[axis])
    else:
        out = np.array(np.broadcast_to(fallback, weights.shape), dtype=np.float64)
    return np.divide(weights, total, out=out, where=total > 0.0)


def regret_matching(regrets: np.ndarray, fallback: np.ndarray | None = None, axis: int = -1) -> np.ndarray:
    """Policy proportional to positive regrets along ``axis``; ``fallback`` (default uniform) where none
    is positive. Illegal actions must carry zero regret and a zero fallback, so they get probability 0."""
    return normalize(np.maximum(regrets, 0.0), fallback, axis)


def regret_matching_list(regrets: list[float]) -> list[float]:
    """``regret_matching`` of one short vector in plain Python floats (same result, bit for bit): for
    sampling solvers that visit millions of nodes with 2-3 actions, where a numpy call costs more than
    the arithmetic."""
    pos = [r if r > 0.0 else 0.0 for r in regrets]
    total = sum(pos)
    return [r / total for r in pos] if total > 0.0 else [1.0 / len(regrets)] * len(regrets)


def binary_instant_regrets(prob: np.ndarray, gain: np.ndarray, axis: int = -1) -> np.ndarray:
    """Instantaneous regrets of a two-action choice (action 0, action 1), stacked along ``axis``.

    ``prob`` is the current probability of action 1 and ``gain`` the value of action 1 minus that of
    action 0, so the current policy's value is ``v0 + prob * gain`` and the regrets are
    ``(-prob * gain, (1 - prob) * gain)``.
    """
    return np.stack([-prob * gain, (1.0 - prob) * gain], axis=axis)


def discount_factor(t: int, power: float | None) -> float:
    """DCFR's ``t^power / (t^power + 1)``; 1 when ``power`` is None (no discounting)."""
    if power is None:
        return 1.0
    tp = float(t) ** power
    return tp / (tp + 1.0)


def updated_regrets(cumulative: Any, instant: Any, plus: bool = False, discount: tuple[Any, Any] | None = None) -> Any:
    """``cumulative + instant``, then positive / negative entries scaled by ``discount = (positive_factor,
    negative_factor)`` (DCFR) and floored at 0 (``plus``: CFR+): a new array, for numpy or ``jax.numpy`` alike
    (the JAX range solver's jitted update)."""
    xp = cumulative.__array_namespace__()
    out = cumulative + instant
    if discount is not None:
        out = out * xp.where(out > 0.0, discount[0], discount[1])
    if plus:
        out = xp.maximum(out, 0.0)
    return out


def update_regrets(
    cumulative: np.ndarray,
    instant: np.ndarray,
    plus: bool = False,
    discount: tuple[float, float] | None = None,
) -> np.ndarray:
    """:func:`updated_regrets` written into ``cumulative`` (a numpy array or a view of one). Returns ``cumulative``."""
    cumulative[...] = updated_regrets(cumulative, instant, plus, discount)
    return cumulative


def average_weight(t: int, power: float) -> float:
    """Weight of iteration ``t``'s policy in the average: ``t**power`` (0 = uniform, 1 = linear)."""
    return float(t) ** power
