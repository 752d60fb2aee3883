"""Which cards make a player's hand at showdown: the hand rule of a hold'em-family game.

* ``"best_five"`` (hold'em, short deck): the best five of all the player's cards and the board (5 to 7
  cards in all);
* ``"omaha"`` (Omaha, 4 to 6 hole cards): exactly two of the hole cards with exactly three of the board.

``hand_evaluator(ranking, rule)`` is the scalar function ``(hole, board) -> value`` of the rules core;
``evaluate_hands(hole, board, ...)`` gives identical values for arrays of hands (the batched engine's
showdowns): under ``"omaha"`` every 2-from-hand x 3-from-board combination of every row is looked up at
once, by summing the additive card keys of the hole pairs and of the board triples (one add and one table
lookup per combination; see :mod:`poker_envs.core._eval_tables`). Values compare as the evaluator's do.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np

from poker_envs.core import _eval_tables as _t
from poker_envs.core.evaluator import evaluate_batch, scalar_evaluator
from poker_envs.core.ranking import STANDARD, HandRanking, get_ranking

HAND_RULES = ("best_five", "omaha")
_CHUNK = 1 << 12  # rows per pass of the batched Omaha path
# One bit per card at 13 * suit + rank: the OR over five cards holds the rank mask of each suit.
_SUITED_BIT = np.array([1 << (13 * (c & 3) + (c >> 2)) for c in range(52)], dtype=np.int64)


def check_hand_rule(rule: object) -> str:
    """``rule`` if it names a hand rule; ValueError naming ``hand_rule`` and the choices otherwise."""
    if rule not in HAND_RULES:
        raise ValueError(f"hand_rule must be one of {HAND_RULES}, got {rule!r}")
    return str(rule)


def hand_evaluator(ranking: str | HandRanking = STANDARD, rule: str = "best_five") -> HandEvaluator:
    """The scalar value of a player's hand ``(hole, board) -> int`` under ``ranking`` and ``rule`` (one object
    per pair, so it pickles to the same object in a worker)."""
    return _hand_evaluator(get_ranking(ranking), check_hand_rule(rule))


class HandEvaluator:
    """``evaluator(hole, board)``: the value of a player's hand under a ranking and a hand rule."""

    def __init__(self, ranking: HandRanking, rule: str) -> None:
        self.ranking = ranking
        self.rule = rule
        self._evaluate = scalar_evaluator(ranking)

    def __call__(self, hole: Sequence[int], board: Sequence[int]) -> int:
        if self.rule == "best_five":
            return self._evaluate([*hole, *board])
        if len(hole) < 2 or len(board) < 3:
            raise ValueError(f"omaha: needs at least 2 hole cards and 3 board cards, got {len(hole)} and {len(board)}")
        evaluate = self._evaluate
        triples = list(itertools.combinations(board, 3))
        return max(evaluate([a, b, *t]) for a, b in itertools.combinations(hole, 2) for t in triples)

    def __reduce__(self) -> tuple[Callable[..., HandEvaluator], tuple[HandRanking, str]]:
        return hand_evaluator, (self.ranking, self.rule)

    def __repr__(self) -> str:
        return f"hand_evaluator({self.ranking.name!r}, {self.rule!r})"


@lru_cache(maxsize=None)
def _hand_evaluator(ranking: HandRanking, rule: str) -> HandEvaluator:
    return HandEvaluator(ranking, rule)


def evaluate_hands(
    hole: np.ndarray, board: np.ndarray, *, ranking: str | HandRanking = STANDARD, rule: str = "best_five",
    check: bool = True,
) -> np.ndarray:
    """Values (int32, shape (N,)) of N hands: hole cards (N, h) with boards (N, b), under ``rule``.

    Equal to ``hand_evaluator(ranking, rule)`` row by row. ``check=False`` skips the card checks (for
    callers whose cards are valid by construction).
    """
    rk = get_ranking(ranking)
    rule = check_hand_rule(rule)
    hole, board = np.asarray(hole), np.asarray(board)
    if hole.ndim != 2 or board.ndim != 2 or len(hole) != len(board):
        raise ValueError(f"hole, board: expected (N, h) and (N, b) arrays, got shapes {hole.shape} and {board.shape}")
    if rule == "best_five":
        return evaluate_batch(np.concatenate([hole, board], axis=1), check=check, ranking=rk)
    h, b = hole.shape[1], board.shape[1]
    if h < 2 or b < 3:
        raise ValueError(f"omaha: needs at least 2 hole cards and 3 board cards, got {h} and {b}")
    if check and len(hole):
        _check_cards(np.concatenate([hole, board], axis=1), rk)
    pairs = np.array(list(itertools.combinations(range(h), 2)), dtype=np.intp)  # (P, 2)
    triples = np.array(list(itertools.combinations(range(b), 3)), dtype=np.intp)  # (T, 3)
    table = _t.rank_table(5, rk)
    flush_value = _t.flush_table(rk)
    out = np.empty(len(hole), dtype=np.int32)
    for start in range(0, len(hole), _CHUNK):
        hc = hole[start : start + _CHUNK].astype(np.intp, copy=False)[:, pairs]  # (R, P, 2)
        bc = board[start : start + _CHUNK].astype(np.intp, copy=False)[:, triples]  # (R, T, 3)
        key = (_t.CARD_KEYS[hc].sum(2)[:, :, None] + _t.CARD_KEYS[bc].sum(2)[:, None, :])  # (R, P, T)
        values = table[key & _t.RANK_MASK]
        suit = _t.FLUSH_SUIT[key >> _t.SUIT_SHIFT]
        flushed = np.nonzero(suit >= 0)
        if len(flushed[0]):
            bits = _SUITED_BIT[hc].sum(2)[:, :, None] | _SUITED_BIT[bc].sum(2)[:, None, :]
            values[flushed] = flush_value[(bits[flushed] >> (13 * suit[flushed])) & 8191]
        out[start : start + _CHUNK] = values.reshape(len(hc), -1).max(1)
    return out


def _check_cards(cards: np.ndarray, ranking: HandRanking) -> None:
    """ValueError if a row holds a card id the ranking does not play or repeats a card."""
    low, high = int(cards.min()), int(cards.max())
    lowest = 4 * ranking.ranks[0]
    if low < lowest or high > 51:
        raise ValueError(f"cards: card ids must be in {lowest}..51 ({ranking.name} ranking), found {low if low < lowest else high}")
    ordered = np.sort(cards, axis=1)
    repeated = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(1))
    if len(repeated):
        row = int(repeated[0])
        raise ValueError(f"cards: hand {row} ({cards[row].tolist()}) repeats a card")
