"""All k-subsets of range(n) as one numpy array, for exhaustive enumeration (boards, census, equity).

Rows are in colexicographic order (sorted by largest element, then the next, ...), so the subsets of
range(m) are exactly the first comb(m, k) rows for every m <= n: one table serves every smaller deck.
"""

from __future__ import annotations

from math import comb

import numpy as np


def colex_combinations(n: int, k: int, dtype: type = np.int8) -> np.ndarray:
    """Array of shape (comb(n, k), k): every increasing k-subset of range(n), in colex order."""
    if n < 0 or n > 127:
        raise ValueError(f"n: expected 0..127, got {n}")
    if k < 0:
        raise ValueError(f"k: expected k >= 0, got {k}")
    rows = np.zeros((1, 0), dtype=dtype)  # the one 0-subset
    for size in range(1, k + 1):
        # subsets of size `size` with largest element m = subsets of size-1 from range(m), then m
        blocks = [
            np.hstack([rows[: comb(m, size - 1)], np.full((comb(m, size - 1), 1), m, dtype=dtype)])
            for m in range(size - 1, n)
        ]
        rows = np.vstack(blocks) if blocks else np.zeros((0, size), dtype=dtype)
    return rows
