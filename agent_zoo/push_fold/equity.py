"""The heads-up all-in equity table of the 169 hand classes (package data, built by ``make_equity``).

``pair_counts[a, b]`` is the number of ordered pairs of combinations of classes a and b that share no
card, so ``pair_counts / pair_counts.sum()`` is the exact joint distribution of two dealt classes
(card removal included). ``win[a, b]`` and ``tie[a, b]`` are the probabilities that a hand of class a
beats / ties one of class b at showdown, averaged over those combination pairs and all boards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from agent_zoo.push_fold.hands import NUM_CLASSES, class_from_name, class_names

DATA_PATH = Path(__file__).resolve().parent.parent / "data" / "preflop_equity.npz"


@dataclass(frozen=True)
class EquityTable:
    """Class-pair showdown probabilities and combination counts (all arrays read-only, 169 x 169)."""

    pair_counts: np.ndarray = field(repr=False)  # ordered combination pairs sharing no card
    win: np.ndarray = field(repr=False)  # P(row class beats column class)
    tie: np.ndarray = field(repr=False)  # P(tie)
    method: str  # how the table was made (exact enumeration)

    @property
    def equity(self) -> np.ndarray:
        """Win probability plus half the tie probability."""
        return self.win + 0.5 * self.tie

    def equity_of(self, hero: str, villain: str) -> float:
        """All-in equity of one class name against another, e.g. ``equity_of("AA", "KK")``."""
        return float(self.equity[class_from_name(hero), class_from_name(villain)])


@lru_cache(maxsize=2)
def load_equity(path: Path | str = DATA_PATH) -> EquityTable:
    """Load the table once per process (cached)."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"equity table {path} is missing: build it with python -m agent_zoo.push_fold.make_equity --out {path.parent}")
    with np.load(path, allow_pickle=False) as data:
        counts = data["pair_counts"].astype(np.float64)
        boards = float(data["boards_per_pair"])
        win2, ties = data["win2"].astype(np.float64), data["ties"].astype(np.float64)
        method = str(data["method"])
        if tuple(data["class_names"]) != class_names():
            raise ValueError(f"equity table {path} lists the classes in another order than agent_zoo.push_fold.hands")
    denom = np.where(counts > 0, counts * boards, 1.0)
    tie = ties / denom
    win = (win2 - ties) / (2.0 * denom)
    arrays = [counts, win, tie]
    for a in arrays:
        if a.shape != (NUM_CLASSES, NUM_CLASSES):
            raise ValueError(f"equity table {path} has arrays of shape {a.shape}, expected 169 x 169")
        a.setflags(write=False)
    return EquityTable(counts, win, tie, method)
