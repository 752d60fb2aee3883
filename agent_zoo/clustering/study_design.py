"""The clustering study's design, fixed before any result was seen: its experiments, its budget per seed
(``StudyScale``), the thesis' reference tables and agents, and the measures the runs and the report share
(adjusted Rand index, the thesis' numbering of our learners).

``study`` runs the experiments, ``study_report`` writes the results section and ``full_runs`` the
full-scale runs; all three read this module, which imports none of them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agent_zoo.clustering.prospect import prospect_grid

EXPERIMENTS = ("agents-full", "agents-thesis", "prospect", "prospect-hands")
THESIS_LETTERS = ("A", "B", "C")  # the agents whose rules the thesis states (C only as "never bets or raises")


@dataclass(frozen=True)
class StudyScale:
    """The budget of one seed of the study (fixed before any result was looked at)."""

    hands: int = 5000  # hands of the 8-handed agent experiments (thesis: not stated; our full scale 20000)
    samples: int = 2048  # late-street (state, action) pairs per prospect agent (thesis: 8192)
    session_hands: int = 20  # hands per heads-up session (thesis: not stated)
    epochs: int = 3  # passes over a cluster's data per round
    max_rounds: int = 10  # cap on train/reassign rounds
    final_epochs: int = 4  # extra passes on the settled clusters (agent experiments only; 0 for prospect, as the thesis)
    holdout: float = 0.25  # share of each log's samples no learner trains on
    probe_draws: int = 300  # random 7-card draws per probe row (Tables 5.10, 5.11)
    k: int = 4  # learners (the thesis' four)


# The agent experiments at our full scale (sections 2 and 3's 20,000 hands) and the thesis' 8,192 prospect
# decisions, everything else as the study: `python -m agent_zoo.clustering study --full` (section ``study_full``).
FULL_SCALE = StudyScale(hands=20_000, samples=8_192)


# Thesis Tables 5.10 (its learner 3) and 5.11 (its learner 1): (stack, pot, own bet, opp. bet) -> F, C, R shares.
THESIS_5_10 = {
    (-10, 4, 0, 4): (0.0, 0.0, 1.0), (-6, 4, 0, 4): (0.0, 0.0, 1.0), (-5, 4, 0, 4): (0.0, 0.001, 0.999),
    (-4, 4, 0, 4): (0.0, 0.098, 0.902), (-3, 4, 0, 4): (0.0, 0.914, 0.086), (-2, 4, 0, 4): (0.0, 1.0, 0.0),
    (5, 4, 0, 4): (0.0, 1.0, 0.0), (-50, 36, 12, 16): (0.0, 0.0, 1.0), (-38, 36, 12, 16): (0.0, 0.0, 1.0),
    (-37, 36, 12, 16): (0.0, 0.011, 0.989), (-36, 36, 12, 16): (0.0, 0.998, 0.002),
    (-35, 36, 12, 16): (0.0, 1.0, 0.0), (0, 36, 12, 16): (0.0, 1.0, 0.0),
}
THESIS_5_11 = {
    (-10, 4, 0, 4): (0.0, 0.0, 1.0), (-3, 4, 0, 4): (0.0, 0.0, 1.0), (-2, 4, 0, 4): (0.0, 0.229, 0.771),
    (-1, 4, 0, 4): (0.0, 0.975, 0.025), (0, 4, 0, 4): (0.0, 0.412, 0.588), (1, 4, 0, 4): (0.0, 0.0, 1.0),
    (10, 4, 0, 4): (0.0, 0.0, 1.0), (-10, 36, 12, 16): (0.0, 0.0, 1.0), (-3, 36, 12, 16): (0.0, 0.0, 1.0),
    (-2, 36, 12, 16): (0.0, 0.047, 0.953), (-1, 36, 12, 16): (0.0, 0.974, 0.026), (0, 36, 12, 16): (0.0, 1.0, 0.0),
    (1, 36, 12, 16): (0.0, 0.017, 0.983), (2, 36, 12, 16): (0.0, 0.0, 1.0), (10, 36, 12, 16): (0.0, 0.0, 1.0),
}


def adjusted_rand_index(a: np.ndarray, b: np.ndarray) -> float:
    """Hubert and Arabie's adjusted Rand index of two labelings of the same items (1: the same partition,
    about 0: as alike as chance). Both partitions one single cluster (or all singletons) gives 1."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"labelings must be 1-d and of one length, got shapes {a.shape} and {b.shape}")
    _, ia = np.unique(a, return_inverse=True)
    _, ib = np.unique(b, return_inverse=True)
    table = np.zeros((ia.max() + 1, ib.max() + 1), dtype=np.int64)
    np.add.at(table, (ia, ib), 1)

    def pairs(n: np.ndarray) -> float:
        return float((n * (n - 1) // 2).sum())

    index, rows, cols = pairs(table), pairs(table.sum(1)), pairs(table.sum(0))
    total = pairs(np.array([len(a)]))
    expected = rows * cols / total if total else 0.0
    maximum = (rows + cols) / 2
    if maximum == expected:
        return 1.0
    return (index - expected) / (maximum - expected)


def thesis_numbering(labels: np.ndarray) -> dict[int, int]:
    """Our learner index -> the thesis' cluster number for Figure 5.5: 3 = the cluster of smallest mean
    alpha, 2 = of the rest the one of largest mean alpha - beta, 1 = the largest remaining one; others 4."""
    grid = np.array(prospect_grid())
    used = sorted(set(labels.tolist()))
    alpha = {j: grid[labels == j, 0].mean() for j in used}
    gap = {j: (grid[labels == j, 0] - grid[labels == j, 1]).mean() for j in used}
    out: dict[int, int] = {}
    three = min(used, key=alpha.__getitem__)
    out[three] = 3
    rest = [j for j in used if j != three]
    if rest:
        two = max(rest, key=gap.__getitem__)
        out[two] = 2
        rest = [j for j in rest if j != two]
    if rest:
        one = max(rest, key=lambda j: int((labels == j).sum()))
        out[one] = 1
        rest = [j for j in rest if j != one]
    for j in rest:
        out[j] = 4
    return out


__all__ = [
    "EXPERIMENTS", "FULL_SCALE", "THESIS_5_10", "THESIS_5_11", "THESIS_LETTERS", "StudyScale", "adjusted_rand_index",
    "thesis_numbering",
]
