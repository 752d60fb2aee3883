"""Poker hand evaluator: best five of 5, 6 or 7 cards, scalar (for the engine) and batched (for equity work).

A card is ``rank * 4 + suit`` (see :mod:`poker_envs.core.cards`). ``evaluate`` returns an int where larger
means better and equal means a split; ``evaluate_batch`` gives identical values for arrays of hands.
Values are ``category << 20`` plus the deciding ranks, four bits each, so ``hand_category(value)`` is
``(value >> 20) & 15`` and :func:`describe` reads the ranks back. Both paths use additive per-card keys and
lookup tables built once by :mod:`poker_envs.core._eval_tables` (the dense arrays of the batched path on
first use).

Other rankings (:mod:`poker_envs.core.ranking`, e.g. short deck): ``scalar_evaluator(ranking)`` is the
scalar function of a ranking (``evaluate`` is the standard one) and the batched functions take
``ranking=``. Each ranking has its own tables; a reordering ranking adds the category's position in bits
24..27 (see :mod:`poker_envs.core._eval_tables`), so values of different rankings must not be compared.
Cards of a rank the ranking does not play (a deuce in short deck) are refused.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from poker_envs.core import _eval_tables as _t
from poker_envs.core.ranking import (  # the category numbers, defined once beside the rankings
    CATEGORY_NAMES, HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH,
    RANKINGS, STANDARD, HandRanking, get_ranking,
)

# Scalar keys: the batched key (rank-key sum in bits 0..22, four 3-bit suit counters in bits 23..34) plus a
# presence bit per card at 35 + 13 * suit + rank, which both catches repeated cards (a carry lowers the bit
# count) and hands the flush suit's rank mask over directly. Python ints take the 87 bits in their stride.
_PRESENCE_SHIFT = 35
_RANK_MASK = _t.RANK_MASK
_SUIT_SHIFT = _t.SUIT_SHIFT
_FLUSH_SUIT: list[int] = _t.FLUSH_SUIT.tolist()


def _make_scalar(ranking: HandRanking) -> Callable[[Sequence[int]], int]:
    """The scalar evaluator of ``ranking``: its tables are bound once as closure cells (as fast as globals)."""
    card_key: dict[int, int] = {  # only the cards of ranks in play: any other card is a KeyError
        c: int(_t.CARD_KEYS[c]) + (1 << (_PRESENCE_SHIFT + 13 * (c & 3) + (c >> 2))) for c in ranking.cards
    }
    flush_suit = _FLUSH_SUIT
    flush_value: list[int] = _t.flush_table(ranking).tolist()
    rank_dicts: dict[int, dict[int, int]] = {}  # hand size -> rank-key sum -> non-flush value, built on first use
    allowed = "0..51" if ranking.ranks[0] == 0 else f"{4 * ranking.ranks[0]}..51 ({ranking.name} ranking)"

    def evaluate(cards: Sequence[int]) -> int:
        """Value of the best five-card hand among 5, 6 or 7 distinct cards (larger is better)."""
        n = len(cards)
        k = card_key
        try:
            if n == 7:
                a, b, c, d, e, f, g = cards
                key = k[a] + k[b] + k[c] + k[d] + k[e] + k[f] + k[g]
            elif n == 6:
                a, b, c, d, e, f = cards
                key = k[a] + k[b] + k[c] + k[d] + k[e] + k[f]
            elif n == 5:
                a, b, c, d, e = cards
                key = k[a] + k[b] + k[c] + k[d] + k[e]
            else:
                raise ValueError(f"cards: expected 5, 6 or 7 cards, got {n}")
        except (KeyError, TypeError):
            bad = [c for c in cards if not isinstance(c, (int, np.integer)) or c not in k]
            raise ValueError(f"cards: {bad!r} are not card ids in {allowed}") from None
        present = key >> _PRESENCE_SHIFT
        if present.bit_count() != n:
            raise ValueError(f"cards: {list(cards)!r} holds a repeated card")
        suit = flush_suit[(key >> _SUIT_SHIFT) & 4095]
        if suit >= 0:
            return flush_value[(present >> (13 * suit)) & 8191]
        try:
            return rank_dicts[n][key & _RANK_MASK]
        except KeyError:
            rank_dicts[n] = _t.rank_dict(n, ranking)
            return rank_dicts[n][key & _RANK_MASK]

    evaluate.__qualname__ = evaluate.__name__ = "evaluate" if ranking == STANDARD else f"evaluate_{ranking.name}"
    return evaluate


evaluate = _make_scalar(STANDARD)


def scalar_evaluator(ranking: str | HandRanking = STANDARD) -> Callable[[Sequence[int]], int]:
    """``evaluate`` for another hand ranking (a name in ``RANKINGS`` or a HandRanking); built once per ranking.

    The evaluator of a ranking in ``RANKINGS`` is also this module's ``evaluate_<name>`` (so it pickles).
    """
    return _scalar_for(get_ranking(ranking))


@lru_cache(maxsize=None)
def _scalar_for(ranking: HandRanking) -> Callable[[Sequence[int]], int]:
    return evaluate if ranking == STANDARD else _make_scalar(ranking)


def __getattr__(name: str) -> Callable[[Sequence[int]], int]:
    """``evaluate_short_deck`` etc.: the scalar evaluator of each ranking of ``RANKINGS``, built on first use."""
    if name.startswith("evaluate_") and name[len("evaluate_") :] in RANKINGS:
        return scalar_evaluator(name[len("evaluate_") :])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_CHUNK = 1 << 14  # hands per pass: keeps the intermediates of a pass in cache
# One bit per card at 13 * suit + rank: the OR over a hand holds the rank mask of each suit.
_SUITED_BIT = np.array([1 << (13 * (c & 3) + (c >> 2)) for c in range(52)], dtype=np.int64)


def evaluate_batch(
    cards: np.ndarray, *, check: bool = True, ranking: str | HandRanking = STANDARD
) -> np.ndarray:
    """Values (int32, shape (N,)) of N hands given as an int array of shape (N, 5), (N, 6) or (N, 7).

    Values equal the scalar evaluator of ``ranking`` on each row. ``check=False`` skips the range and
    repeated-card checks (about a third of the time) for callers whose hands are valid by construction;
    invalid hands then give meaningless values or an IndexError.
    """
    rk = get_ranking(ranking)
    hands = np.asarray(cards)
    if hands.ndim != 2 or hands.shape[1] not in _t.HAND_SIZES:
        raise ValueError(f"cards: expected shape (N, 5), (N, 6) or (N, 7), got {hands.shape}")
    if hands.dtype.kind not in "iu":
        raise ValueError(f"cards: expected an integer array, got dtype {hands.dtype}")
    table = _t.rank_table(hands.shape[1], rk)
    flush_value = _t.flush_table(rk)
    out = np.empty(len(hands), dtype=np.int32)
    for start in range(0, len(hands), _CHUNK):
        chunk = hands[start : start + _CHUNK].astype(np.intp, copy=False)
        if check:
            _check_chunk(chunk, start, rk)
        out[start : start + _CHUNK] = _evaluate_chunk(chunk, table, flush_value)
    return out


class LookupTables(NamedTuple):
    """The arrays behind ``evaluate_batch`` for one ranking and hand size, for other array backends (JAX)."""

    rank_keys: np.ndarray  # (13,) int64 additive key of each rank; a hand's rank-key sum indexes ``rank_table``
    rank_table: np.ndarray  # (2**23,) int32 value of a non-flush hand by its rank-key sum
    flush_table: np.ndarray  # (8192,) int64 value of a flush by the 13-bit rank mask of its suit


def lookup_tables(size: int = 7, ranking: str | HandRanking = STANDARD) -> LookupTables:
    """The tables that evaluate hands of ``size`` cards (5, 6 or 7) under ``ranking``; built once, cached.

    A hand's value is ``flush_table[mask]`` when some suit holds five or more of its cards (``mask``: that
    suit's ranks as bits), else ``rank_table[sum(rank_keys[rank])]``: what ``evaluate_batch`` computes.
    """
    if size not in _t.HAND_SIZES:
        raise ValueError(f"size: expected one of {_t.HAND_SIZES} cards, got {size!r}")
    rk = get_ranking(ranking)
    return LookupTables(np.array(_t.RANK_KEYS, dtype=np.int64), _t.rank_table(size, rk), _t.flush_table(rk))


def evaluate_cross(
    holes: np.ndarray, boards: np.ndarray, *, check: bool = True, ranking: str | HandRanking = STANDARD
) -> np.ndarray:
    """Values (int32, shape (H, B)) of every hole-card set with every board; -1 where they share a card.

    ``values[i, j] == evaluate(holes[i] + boards[j])``. Hole sets (H, h) and boards (B, b) need
    5 <= h + b <= 7. Keys of holes and boards are summed once each, so a pair costs one add and two
    table lookups: the fast way to score every hand against every board for equity tables.
    ``check=False`` skips the range and repeated-card checks within each row. ``ranking``: as in
    :func:`evaluate_batch`.
    """
    rk = get_ranking(ranking)
    hole_arr, board_arr = np.asarray(holes), np.asarray(boards)
    for name, arr in (("holes", hole_arr), ("boards", board_arr)):
        if arr.ndim != 2 or arr.dtype.kind not in "iu":
            raise ValueError(f"{name}: expected a 2-d integer array, got shape {arr.shape}, dtype {arr.dtype}")
    size = hole_arr.shape[1] + board_arr.shape[1]
    if size not in _t.HAND_SIZES:
        raise ValueError(f"holes, boards: cards per hole set plus per board must be 5, 6 or 7, got {size}")
    hole_arr, board_arr = hole_arr.astype(np.intp, copy=False), board_arr.astype(np.intp, copy=False)
    if check:
        for arr in (hole_arr, board_arr):
            if len(arr) and arr.shape[1]:
                _check_chunk(arr, 0, rk)
    table = _t.rank_table(size, rk)
    flush_value = _t.flush_table(rk)
    hole_key = _t.CARD_KEYS[hole_arr].sum(axis=1)
    hole_bits = _SUITED_BIT[hole_arr].sum(axis=1)
    board_key = _t.CARD_KEYS[board_arr].sum(axis=1)
    board_bits = _SUITED_BIT[board_arr].sum(axis=1)
    out = np.empty((len(hole_arr), len(board_arr)), dtype=np.int32)
    step = max(1, _CHUNK // max(1, len(board_arr)))
    for start in range(0, len(hole_arr), step):
        rows = slice(start, start + step)
        key = hole_key[rows, None] + board_key[None, :]
        values = table[key & _RANK_MASK]
        suit = _t.FLUSH_SUIT[key >> _SUIT_SHIFT]
        bits_h, bits_b = hole_bits[rows, None], board_bits[None, :]
        flushed = np.nonzero(suit >= 0)
        if len(flushed[0]):
            present = bits_h[flushed[0], 0] | bits_b[0, flushed[1]]
            values[flushed] = flush_value[(present >> (13 * suit[flushed])) & 8191]
        values[(bits_h & bits_b) != 0] = -1
        out[rows] = values
    return out


def _evaluate_chunk(hands: np.ndarray, table: np.ndarray, flush_value: np.ndarray) -> np.ndarray:
    """Values of valid hands (intp array (M, n)): one rank-table lookup, flush rows redone by rank mask."""
    key = np.einsum("ij->i", _t.CARD_KEYS[hands])
    values = table[key & _RANK_MASK]
    suit = _t.FLUSH_SUIT[key >> _SUIT_SHIFT]
    flushed = np.flatnonzero(suit >= 0)
    if len(flushed):
        sub = hands[flushed]
        in_suit = (sub & 3) == suit[flushed, None]
        mask = np.einsum("ij->i", in_suit.astype(np.intp) << (sub >> 2))
        values[flushed] = flush_value[mask]
    return values


def _check_chunk(hands: np.ndarray, offset: int, ranking: HandRanking) -> None:
    low, high = hands.min(), hands.max()
    lowest = 4 * ranking.ranks[0]  # the ranks in play run up to the ace, so one bound suffices
    if low < lowest or high > 51:
        where = "" if lowest == 0 else f" ({ranking.name} ranking)"
        raise ValueError(f"cards: card ids must be in {lowest}..51{where}, found {low if low < lowest else high}")
    # A sum of distinct powers of two has one bit per term; a repeated card makes a carry and loses one.
    present = np.einsum("ij->i", _SUITED_BIT[hands])
    repeated = np.flatnonzero(_popcount64(present) != hands.shape[1])
    if len(repeated):
        row = int(repeated[0])
        raise ValueError(f"cards: hand {offset + row} ({hands[row].tolist()}) repeats a card")


def _popcount64(x: np.ndarray) -> np.ndarray:
    if hasattr(np, "bitwise_count"):  # numpy >= 2.0
        return np.bitwise_count(x)
    total = np.zeros(x.shape, dtype=np.int64)
    for shift in range(0, 52, 13):
        total += _t.POPCOUNT[(x >> shift) & 8191]
    return total


def hand_category(value: int) -> int:
    """Category of a hand value of any ranking: 0 high card .. 8 straight flush (see CATEGORY_NAMES)."""
    return (int(value) >> _t.CATEGORY_SHIFT) & 15


def hand_ranks(value: int) -> tuple[int, ...]:
    """The deciding ranks of a value (0 = deuce .. 12 = ace), most significant first, as stored."""
    count = (5, 4, 3, 3, 1, 5, 2, 2, 1)[hand_category(value)]
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
