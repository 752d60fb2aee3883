"""The 169 starting-hand classes of hold'em, their 1,326 combinations and the 13x13 chart layout.

The class index and names are the rules module's (``poker_envs.games.push_fold.hand_class``), so the
environments' observations and the solver's tables use one definition.

Class index = row * 13 + col on the chart people read: rows and columns run A, K, ..., 2; pairs sit on
the diagonal, suited hands above it (row = higher rank) and offsuit hands below it (col = higher rank).
So ``AKs`` is (0, 1), ``AKo`` is (1, 0) and ``22`` is (12, 12).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from poker_envs.core.cards import RANKS
from poker_envs.games.push_fold import hand_class as _rules_hand_class
from poker_envs.games.push_fold import hand_class_name

NUM_CLASSES = 169
NUM_COMBOS = 1326
CHART_RANKS = RANKS[::-1]  # "AKQJT98765432": chart row/column order


@lru_cache(maxsize=1)
def class_names() -> tuple[str, ...]:
    """Names of the 169 classes in chart order ("AA", "AKs", ..., "AKo", ..., "22")."""
    return tuple(hand_class_name(i) for i in range(NUM_CLASSES))


def class_from_name(name: str) -> int:
    """Chart index of a class name such as "AA", "AKs", "T9o" (raises ValueError naming it otherwise)."""
    try:
        return class_names().index(name)
    except ValueError:
        raise ValueError(f"hand class {name!r} is not one of the 169 names like 'AA', 'AKs', 'T9o'") from None


def hand_class(card1: int, card2: int) -> int:
    """Chart index of the class of two hole cards (the rules module's ``hand_class``, checked)."""
    if card1 == card2 or not (0 <= card1 < 52 and 0 <= card2 < 52):
        raise ValueError(f"hole cards must be two distinct ids in 0..51, got {card1}, {card2}")
    return _rules_hand_class(card1, card2)


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
def class_lookup() -> np.ndarray:
    """(52, 52) table of the rules' ``hand_class`` (the diagonal, an impossible pair, is -1)."""
    cards, cls = combos()
    table = np.full((52, 52), -1, dtype=np.int64)
    table[cards[:, 0], cards[:, 1]] = cls
    table[cards[:, 1], cards[:, 0]] = cls
    table.setflags(write=False)
    return table


def hand_classes(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Vectorised ``hand_class``: chart index of every pair of hole cards (a table look-up)."""
    return class_lookup()[first, second]


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
