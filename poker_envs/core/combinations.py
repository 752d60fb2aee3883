"""All k-subsets of range(n) as one numpy array, for exhaustive enumeration (boards, census, equity).

Rows are in colexicographic order (sorted by largest element, then the next, ...), so the subsets of
range(m) are exactly the first comb(m, k) rows for every m <= n: one table serves every smaller deck.
"""

from __future__ import annotations

from collections.abc import Iterator
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


def combination_chunks(n: int, k: int) -> Iterator[np.ndarray]:
    """Every k-subset of range(n) (k >= 2), in chunks of shape (m, k) int8 that share one buffer.

    A chunk holds the subsets whose two lowest elements are a given pair (c0 < c1): the rest are the
    (k-2)-subsets of the elements above c1, read off one colex table. Chunks are yielded in order of
    (c0, c1), the largest has comb(n - 2, k - 2) rows, and each is overwritten by the next: copy a
    chunk to keep it. Used to enumerate all 133,784,560 seven-card hands in bounded memory.
    """
    if k < 2 or k > n:
        raise ValueError(f"k: expected 2 <= k <= n = {n}, got {k}")
    tails = colex_combinations(n - 2, k - 2)
    buffer = np.empty((len(tails), k), dtype=np.int8)
    for c0 in range(n):
        for c1 in range(c0 + 1, n):
            m = comb(n - 1 - c1, k - 2)
            if m == 0:
                continue
            chunk = buffer[:m]
            chunk[:, 0] = c0
            chunk[:, 1] = c1
            np.add(tails[:m], c1 + 1, out=chunk[:, 2:])
            yield chunk
