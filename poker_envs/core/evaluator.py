"""Poker hand evaluator: best five of 5, 6 or 7 cards, scalar (for the engine) and batched (for equity work).

A card is ``rank * 4 + suit`` (see :mod:`poker_envs.core.cards`). ``evaluate`` returns an int where larger
means better and equal means a split; ``evaluate_batch`` gives identical values for arrays of hands.
Values are ``category << 20`` plus the deciding ranks, four bits each, so ``hand_category(value)`` is
``value >> 20`` and :func:`describe` reads the ranks back. Both paths use additive per-card keys and lookup
tables built once by :mod:`poker_envs.core._eval_tables` (the dense arrays of the batched path on first use).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from poker_envs.core import _eval_tables as _t

CATEGORY_NAMES = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

_CARD_KEY = {c: int(k) for c, k in enumerate(_t.CARD_KEYS)}
_RANK_MASK = _t.RANK_MASK
_SUIT_SHIFT = _t.SUIT_SHIFT
_FLUSH_SUIT: list[int] = _t.FLUSH_SUIT.tolist()
_FLUSH_VALUE: list[int] = _t.FLUSH_VALUE.tolist()
_RANK_DICT: dict[int, dict[int, int]] = {}  # hand size -> rank-key sum -> non-flush value, built on first use


def evaluate(cards: Sequence[int]) -> int:
    """Value of the best five-card hand among 5, 6 or 7 distinct cards (larger is better)."""
    rank_dict = _RANK_DICT.get(len(cards))
    if rank_dict is None:
        if len(cards) not in _t.HAND_SIZES:
            raise ValueError(f"cards: expected 5, 6 or 7 cards, got {len(cards)}")
        rank_dict = _RANK_DICT[len(cards)] = _t.rank_dict(len(cards))
    try:
        key = sum(map(_CARD_KEY.__getitem__, cards))
    except (KeyError, TypeError):
        bad = [c for c in cards if c not in _CARD_KEY]
        raise ValueError(f"cards: {bad!r} are not card ids in 0..51") from None
    if len(set(cards)) != len(cards):
        raise ValueError(f"cards: {list(cards)!r} holds a repeated card")
    suit = _FLUSH_SUIT[key >> _SUIT_SHIFT]
    if suit < 0:
        return rank_dict[key & _RANK_MASK]
    mask = 0
    for c in cards:
        if c & 3 == suit:
            mask |= 1 << (c >> 2)
    return _FLUSH_VALUE[mask]


def evaluate_batch(cards: np.ndarray, *, check: bool = True) -> np.ndarray:
    """Values (int32, shape (N,)) of N hands given as an int array of shape (N, 5), (N, 6) or (N, 7).

    ``check=False`` skips the range and repeated-card checks (about a fifth of the time) for callers
    whose hands are valid by construction; invalid hands then give meaningless values.
    """
    hands = np.asarray(cards)
    if hands.ndim != 2 or hands.shape[1] not in _t.HAND_SIZES:
        raise ValueError(f"cards: expected shape (N, 5), (N, 6) or (N, 7), got {hands.shape}")
    if hands.dtype.kind not in "iu":
        raise ValueError(f"cards: expected an integer array, got dtype {hands.dtype}")
    if check and len(hands):
        _check_batch(hands)
    table = _t.rank_table(hands.shape[1])
    cols = _t.CARD_KEYS[hands.T]  # (n, N): one row of keys per card position
    key = cols[0].copy()
    for row in cols[1:]:
        key += row
    values = table[key & _RANK_MASK]
    suit = _t.FLUSH_SUIT[key >> _SUIT_SHIFT]
    flushed = np.flatnonzero(suit >= 0)
    if len(flushed):
        sub = hands[flushed]
        in_suit = (sub & 3) == suit[flushed, None]
        mask = (in_suit.astype(np.int64) << (sub >> 2)).sum(axis=1)
        values[flushed] = _t.FLUSH_VALUE[mask]
    return values


def _check_batch(hands: np.ndarray) -> None:
    low, high = hands.min(), hands.max()
    if low < 0 or high > 51:
        raise ValueError(f"cards: card ids must be in 0..51, found {low if low < 0 else high}")
    seen = np.zeros(len(hands), dtype=np.uint64)
    for col in hands.T:
        seen |= np.uint64(1) << col.astype(np.uint64)
    repeated = np.flatnonzero(_popcount64(seen) != hands.shape[1])
    if len(repeated):
        raise ValueError(f"cards: hand {int(repeated[0])} ({hands[repeated[0]].tolist()}) repeats a card")


def _popcount64(x: np.ndarray) -> np.ndarray:
    if hasattr(np, "bitwise_count"):  # numpy >= 2.0
        return np.bitwise_count(x)
    total = np.zeros(x.shape, dtype=np.int64)
    for shift in range(0, 52, 13):
        total += _t.POPCOUNT[((x >> np.uint64(shift)) & np.uint64(8191)).astype(np.int64)]
    return total


def hand_category(value: int) -> int:
    """Category of a hand value: 0 high card .. 8 straight flush (see CATEGORY_NAMES)."""
    return int(value) >> _t.CATEGORY_SHIFT


def hand_ranks(value: int) -> tuple[int, ...]:
    """The deciding ranks of a value (0 = deuce .. 12 = ace), most significant first, as stored."""
    count = (1, 2, 3, 3, 1, 5, 2, 2, 1)[hand_category(value)]
    return tuple((int(value) >> (16 - 4 * i)) & 15 for i in range(count))


_SINGULAR = ("deuce", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
_PLURAL = tuple(name + ("es" if name == "six" else "s") for name in _SINGULAR)


def describe(value: int) -> str:
    """Words for a hand value, e.g. "full house, kings over sevens" or "straight, five high"."""
    category = hand_category(value)
    if not 0 <= category <= STRAIGHT_FLUSH:
        raise ValueError(f"value: {value} is not a hand value")
    r = hand_ranks(value)
    if category == STRAIGHT_FLUSH:
        return "royal flush" if r[0] == 12 else f"straight flush, {_SINGULAR[r[0]]} high"
    if category == QUADS:
        return f"four of a kind, {_PLURAL[r[0]]}"
    if category == FULL_HOUSE:
        return f"full house, {_PLURAL[r[0]]} over {_PLURAL[r[1]]}"
    if category in (FLUSH, STRAIGHT):
        return f"{CATEGORY_NAMES[category]}, {_SINGULAR[r[0]]} high"
    if category == TRIPS:
        return f"three of a kind, {_PLURAL[r[0]]}"
    if category == TWO_PAIR:
        return f"two pair, {_PLURAL[r[0]]} and {_PLURAL[r[1]]}"
    if category == PAIR:
        return f"pair of {_PLURAL[r[0]]}"
    return f"high card, {_SINGULAR[r[0]]}"
