"""All-in equity: the expected showdown result over the board cards still to come.

When the last decision of a hand is taken before the river and the hand goes to showdown, no
decision depends on the cards dealt afterwards, so replacing the realized result by its average over
those cards (given both hole cards, known in self-play) keeps each training target's expectation
and removes the run-out's luck ("all-in adjustment"). Two cards or fewer to come are enumerated
(at most 990 boards); a pre-flop all-in averages ``samples`` random boards.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np

from poker_envs.core.evaluator import evaluate_batch, evaluate_cross

BOARD = 5


def runout_equity(hole0: Sequence[int], hole1: Sequence[int], board: Sequence[int],
                  rng: np.random.Generator, samples: int = 256) -> float:
    """P(seat 0 wins) + P(tie) / 2 when the board ``board`` is completed at random."""
    board = [int(c) for c in board]
    need = BOARD - len(board)
    if need < 0:
        raise ValueError(f"board has {len(board)} cards, at most 5 allowed")
    dead = set(hole0) | set(hole1) | set(board)
    left = np.array([c for c in range(52) if c not in dead], dtype=np.intp)
    if need == 0:
        boards = np.array([board], dtype=np.intp)
    elif need <= 2:
        rest = np.array(list(combinations(left.tolist(), need)), dtype=np.intp)
        boards = np.concatenate([np.tile(np.array(board, dtype=np.intp), (len(rest), 1)), rest], axis=1)
    else:
        picks = np.argsort(rng.random((samples, len(left))), axis=1)[:, :need]
        boards = np.concatenate([np.tile(np.array(board, dtype=np.intp), (samples, 1)), left[picks]], axis=1)
    values = evaluate_cross(np.array([hole0, hole1], dtype=np.intp), boards, check=False)
    return float(np.mean(values[0] > values[1]) + 0.5 * np.mean(values[0] == values[1]))


def allin_chips(equity: float, stake: int) -> tuple[float, float]:
    """Expected chips of seats 0 and 1 in a heads-up showdown where each put ``stake`` at risk (the
    smaller contribution; the rest was returned) and seat 0 wins with probability ``equity``."""
    won = stake * (2.0 * equity - 1.0)
    return won, -won


def blind_equity(hole: Sequence[int], board: Sequence[int], rng: np.random.Generator, samples: int = 256) -> float:
    """P(win) + P(tie) / 2 of ``hole`` against a uniformly random opponent holding, ``board`` completed at random.

    The right average when the opponent ignores its cards (heuristic, random): then nothing in the hand
    depends on its holding, and averaging over it keeps each target's expectation.
    """
    board = [int(c) for c in board]
    need = BOARD - len(board)
    dead = set(hole) | set(board)
    left = np.array([c for c in range(52) if c not in dead], dtype=np.intp)
    picks = left[np.argsort(rng.random((samples, len(left))), axis=1)[:, : 2 + need]]
    shared = np.concatenate([np.tile(np.array(board, dtype=np.intp), (samples, 1)), picks[:, 2:]], axis=1)
    mine = np.concatenate([np.tile(np.array(hole, dtype=np.intp), (samples, 1)), shared], axis=1)
    theirs = np.concatenate([picks[:, :2], shared], axis=1)
    a = evaluate_batch(mine, check=False)
    b = evaluate_batch(theirs, check=False)
    return float(np.mean(a > b) + 0.5 * np.mean(a == b))
