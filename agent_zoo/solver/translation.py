"""Action translation: an opponent's bet or raise of a size the solver's tree does not have, mapped onto the tree.

The pseudo-harmonic mapping of Ganzfried and Sandholm ("Action translation in extensive-form games with large
action spaces: axioms, paradoxes, and the pseudo-harmonic mapping", IJCAI 2013): with sizes measured as fractions
of the pot, a bet ``x`` between the tree's neighbouring sizes ``A < x < B`` is read as ``A`` with probability

    f(x) = ((B - x)(1 + A)) / ((B - A)(1 + x))

and as ``B`` otherwise. ``f(A) = 1``, ``f(B) = 0``, and ``f`` falls monotonically in between; it is the mapping
that the paper's axioms single out (derived from the equilibrium of a small game, close to the harmonic mean of
``A`` and ``B``: exploitable by neither very small nor very large bets). A size below the smallest of the tree
maps to the smallest, one above the largest to the largest.

Sizes here are those of ``agent_zoo.solver.spot``: a bet of ``x`` puts ``x`` times the pot in; a raise raises by
``x`` times the pot once the raiser has called (``raise_fraction``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def raise_fraction(to: float, max_bet: float, pot: float, to_call: float) -> float:
    """The pot fraction of a bet or raise to ``to`` chips on the street: ``(to - max_bet) / (pot + to_call)``, where
    ``pot`` counts every chip in the middle (this street's bets too) and ``to_call`` is what the bettor owed."""
    base = pot + to_call
    if base <= 0:
        raise ValueError(f"pot + to_call must be positive, got pot={pot}, to_call={to_call}")
    return (to - max_bet) / base


def pseudo_harmonic(x: float, a: float, b: float) -> float:
    """Probability of reading the size ``x`` as the smaller neighbour ``a`` (the rest goes to ``b``), for
    ``0 <= a < b``; clipped to 1 below ``a`` and to 0 above ``b``."""
    if not (0.0 <= a < b) or not np.isfinite(b):
        raise ValueError(f"pseudo_harmonic needs 0 <= a < b (pot fractions), got a={a}, b={b}")
    if x <= a:
        return 1.0
    if x >= b:
        return 0.0
    return ((b - x) * (1.0 + a)) / ((b - a) * (1.0 + x))


def translation_weights(x: float, sizes: Sequence[float]) -> np.ndarray:
    """The probability of reading the size ``x`` as each of ``sizes`` (pot fractions, any order, at least one): at
    most two neighbours get weight, by :func:`pseudo_harmonic`; equal sizes share nothing (the first takes it)."""
    s = np.asarray(sizes, dtype=np.float64)
    if s.ndim != 1 or s.size == 0 or not np.all(np.isfinite(s)):
        raise ValueError(f"sizes must be a non-empty list of finite pot fractions, got {list(sizes)}")
    out = np.zeros(s.size)
    order = np.argsort(s, kind="stable")
    ranked = s[order]
    if x <= ranked[0]:
        out[order[0]] = 1.0
        return out
    if x >= ranked[-1]:
        out[order[np.flatnonzero(ranked == ranked[-1])[0]]] = 1.0
        return out
    hi = int(np.searchsorted(ranked, x, side="left"))  # ranked[hi - 1] < x <= ranked[hi]
    lo = hi - 1
    if ranked[hi] == x:
        out[order[hi]] = 1.0
        return out
    p = pseudo_harmonic(x, float(ranked[lo]), float(ranked[hi]))
    out[order[lo]], out[order[hi]] = p, 1.0 - p
    return out


def translate(x: float, sizes: Sequence[float], rng: np.random.Generator) -> int:
    """The index in ``sizes`` the size ``x`` is read as: randomized between the two neighbours by the
    pseudo-harmonic mapping (one uniform draw from ``rng``)."""
    weights = translation_weights(x, sizes)
    nonzero = np.flatnonzero(weights)
    if nonzero.size == 1:
        return int(nonzero[0])
    return int(nonzero[0]) if rng.random() < weights[nonzero[0]] else int(nonzero[1])
