"""The 169 starting-hand classes of hold'em, their 1,326 combinations and the 13x13 chart layout.

Class index = row * 13 + col on the chart people read: rows and columns run A, K, ..., 2; pairs sit on
the diagonal, suited hands above it (row = higher rank) and offsuit hands below it (col = higher rank).
So ``AKs`` is (0, 1), ``AKo`` is (1, 0) and ``22`` is (12, 12).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from poker_envs.core.cards import RANKS

NUM_CLASSES = 169
NUM_COMBOS = 1326
CHART_RANKS = RANKS[::-1]  # "AKQJT98765432": chart row/column order


def class_index(high: int, low: int, suited: bool) -> int:
    """Chart index of a class from its two ranks (0 = deuce .. 12 = ace) and suitedness."""
    if not (0 <= low <= 12 and 0 <= high <= 12):
        raise ValueError(f"ranks must be in 0..12, got {high}, {low}")
    if high < low:
        high, low = low, high
    if high == low and suited:
        raise ValueError("a pair cannot be suited")
    row_hi, row_lo = 12 - high, 12 - low
    return row_hi * 13 + row_lo if suited or high == low else row_lo * 13 + row_hi


@lru_cache(maxsize=1)
def class_names() -> tuple[str, ...]:
    """Names of the 169 classes in chart order ("AA", "AKs", ..., "AKo", ..., "22")."""
    names = []
    for row in range(13):
        for col in range(13):
            a, b = CHART_RANKS[row], CHART_RANKS[col]
            if row == col:
                names.append(a + b)
            elif row < col:
                names.append(a + b + "s")
            else:
                names.append(b + a + "o")
    return tuple(names)


def class_from_name(name: str) -> int:
    """Chart index of a class name such as "AA", "AKs", "T9o" (raises ValueError naming it otherwise)."""
    try:
        return class_names().index(name)
    except ValueError:
        raise ValueError(f"hand class {name!r} is not one of the 169 names like 'AA', 'AKs', 'T9o'") from None


def hand_class(card1: int, card2: int) -> int:
    """Chart index of the class of two hole cards (card = rank * 4 + suit)."""
    if card1 == card2 or not (0 <= card1 < 52 and 0 <= card2 < 52):
        raise ValueError(f"hole cards must be two distinct ids in 0..51, got {card1}, {card2}")
    return class_index(card1 >> 2, card2 >> 2, (card1 & 3) == (card2 & 3))


@lru_cache(maxsize=1)
def combos() -> tuple[np.ndarray, np.ndarray]:
    """All 1,326 two-card combinations sorted by class: ``(cards (1326, 2), class_of (1326,))``."""
    pairs = [(a, b) for a in range(52) for b in range(a + 1, 52)]
    cls = np.array([hand_class(a, b) for a, b in pairs], dtype=np.int64)
    order = np.argsort(cls, kind="stable")
    cards = np.array(pairs, dtype=np.int64)[order]
    cards.setflags(write=False)
    cls = cls[order]
    cls.setflags(write=False)
    return cards, cls


@lru_cache(maxsize=1)
def class_combo_counts() -> np.ndarray:
    """Combinations per class: 6 for pairs, 4 suited, 12 offsuit (chart order)."""
    counts = np.bincount(combos()[1], minlength=NUM_CLASSES)
    counts.setflags(write=False)
    return counts


def chart_grid(values: np.ndarray) -> np.ndarray:
    """A per-class vector (169,) as the 13x13 chart."""
    values = np.asarray(values)
    if values.shape != (NUM_CLASSES,):
        raise ValueError(f"values must have shape ({NUM_CLASSES},), got {values.shape}")
    return values.reshape(13, 13)
