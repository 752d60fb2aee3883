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
    5 <= h + b <= 7. Without a flush a hand's value depends on its ranks alone, so each rank class of the holes
    (at most 169 for two-card holes) is looked up once per board and copied to the holes in it; flushes are
    looked up only for the (hole, board) pairs that can make one: the fast way to score every hand against
    every board for equity tables. ``check=False`` skips the range and repeated-card checks within each row.
    ``ranking``: as in :func:`evaluate_batch`.
    """
    cross = _Cross.build(holes, boards, check, ranking)
    out = cross.per_class[cross.of_class]
    out.ravel()[cross.flush_holes * cross.boards + cross.flush_boards] = cross.flush_values  # before -1 marks
    for start in range(0, cross.holes, cross.step):
        cross.mark_shared(out[start : start + cross.step], start)
    return out


def cross_signs(
    holes: np.ndarray, boards: np.ndarray, reference: np.ndarray, *, group: int = 1, check: bool = True,
    ranking: str | HandRanking = STANDARD,
) -> np.ndarray:
    """(H, B // group) int64: per hole set and per run of ``group`` consecutive boards, the sum over the run of
    ``sign(evaluate_cross(holes, boards) - reference)``: losses minus wins against ``reference`` (B,) (the value
    each board is compared with, >= 0), a hole sharing a card with the board counting as a win there (its -1).

    Equal to ``np.sign(evaluate_cross(holes, boards) - reference).reshape(H, -1, group).sum(axis=2)`` without
    the (H, B) matrix: rows are made and reduced a cache-sized block at a time (equity against ranges).
    """
    cross = _Cross.build(holes, boards, check, ranking)
    ref = np.asarray(reference)
    if ref.shape != (cross.boards,) or ref.dtype.kind not in "iu":
        raise ValueError(f"reference: expected an integer array of shape ({cross.boards},), got {ref.shape}, {ref.dtype}")
    if isinstance(group, bool) or not isinstance(group, int) or group < 1 or cross.boards % group:
        raise ValueError(f"group: expected a positive divisor of the {cross.boards} boards, got {group!r}")
    ref = ref.astype(np.int32)
    # Each rank class's sign on each board (no flush), one byte each; a hole takes its class's row, then -1
    # (every bit set) OR-ed in where it shares a card with the board: a few bytes moved per (hole, board).
    class_sign = np.sign(cross.per_class - ref).astype(np.int8)  # (U, B)
    out = np.empty((cross.holes, cross.boards // group), dtype=np.int64)
    step = 8 * cross.step  # int8 rows: blocks of twice the bytes of evaluate_cross's int32 ones (measured faster)
    for start in range(0, cross.holes, step):
        block = class_sign[cross.of_class[start : start + step]]
        cross.mark_shared(block, start)
        out[start : start + len(block)] = block.reshape(len(block), -1, group).sum(axis=2, dtype=np.int32)
    # The flushes: each pair's sign against its flush value replaces the one against its non-flush value.
    h, b = cross.flush_holes, cross.flush_boards
    change = np.sign(cross.flush_values - ref[b]) - class_sign.ravel()[cross.of_class[h] * cross.boards + b]
    change *= (cross.hole_bits[h] & cross.board_bits[b]) == 0  # a pair sharing a card stays -1
    groups = cross.boards // group
    out += np.bincount(h * groups + b // group, weights=change, minlength=out.size).astype(np.int64).reshape(out.shape)
    return out


class _Cross(NamedTuple):
    """Every hole set against every board, prepared once and made a block of rows at a time."""

    holes: int  # hole sets (H)
    boards: int  # boards (B)
    step: int  # rows per block (about 64k values: the block and its temporaries stay in cache)
    hole_cards: np.ndarray  # (H, h) intp
    per_class: np.ndarray  # (U, B) int32 non-flush value of each rank class with each board
    of_class: np.ndarray  # (H,) rank class of each hole set
    flush_holes: np.ndarray  # (F,) hole and board of each pair that holds a flush (or shares a card and
    flush_boards: np.ndarray  # (F,) counts a suit twice: such pairs are -1 all the same)
    flush_values: np.ndarray  # (F,) their flush values
    hole_bits: np.ndarray  # (H,) int64 one bit per card (13 * suit + rank)
    board_bits: np.ndarray  # (B,)
    on_board: np.ndarray  # (52, B) int8: -1 (every bit set) where a card lies on a board, else 0

    @staticmethod
    def build(holes: np.ndarray, boards: np.ndarray, check: bool, ranking: str | HandRanking) -> _Cross:
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
        table, flush_value = _t.rank_table(size, rk), _t.flush_table(rk)
        n_boards = len(board_arr)
        hole_key, hole_bits = _column_sum(_t.CARD_KEYS, hole_arr), _column_sum(_SUITED_BIT, hole_arr)
        board_key, board_bits = _column_sum(_t.CARD_KEYS, board_arr), _column_sum(_SUITED_BIT, board_arr)
        class_key, of_class = _rank_classes(hole_arr, hole_key & _RANK_MASK)
        per_class = table[(class_key[:, None] + board_key[None, :]) & _RANK_MASK]
        # Flushes: five or more cards of one suit between hole and board. A board with ``c`` cards of a suit
        # makes one with exactly the holes holding ``5 - c`` or more of it: listed per (board, suit) from the
        # holes sorted by their count of the suit, no pair looked at that holds none.
        shifts = _SUIT_SHIFT + 3 * np.arange(4)
        hole_counts, board_counts = (hole_key[:, None] >> shifts) & 7, (board_key[:, None] >> shifts) & 7
        size = hole_arr.shape[1]
        # (4, H) holes, most of the suit first (a stable sort of small ints: a radix sort)
        by_count = np.argsort((size - hole_counts).astype(np.int8), axis=0, kind="stable").T
        tally = np.bincount((np.arange(4) * (size + 1) + hole_counts).ravel(), minlength=4 * (size + 1))
        at_least = np.cumsum(tally.reshape(4, size + 1)[:, ::-1], axis=1)[:, ::-1]  # (4, size + 1) holes with >= n
        need = np.maximum(5 - board_counts, 0)
        b, suit = np.nonzero(need <= size)
        k = at_least[suit, need[b, suit]] if len(b) else np.zeros(0, dtype=np.intp)
        b, suit = np.repeat(b, k), np.repeat(suit, k)
        h = by_count.ravel()[suit * len(hole_arr) + np.arange(len(b)) - np.repeat(np.cumsum(k) - k, k)]
        flush_values = flush_value[((hole_bits[h] | board_bits[b]) >> (13 * suit)) & 8191].astype(np.int32)
        on_board = np.zeros((52, n_boards), dtype=np.int8)
        on_board[board_arr, np.arange(n_boards)[:, None]] = -1
        step = max(1, (1 << 17) // max(1, n_boards))
        return _Cross(len(hole_arr), n_boards, step, hole_arr, per_class, of_class, h, b, flush_values, hole_bits,
                      board_bits, on_board)

    def mark_shared(self, block: np.ndarray, start: int) -> None:
        """Set -1 (in place, an int8 or int32 block) where hole sets ``start : start + len(block)`` share a card
        with a board: the OR with -1 sets every bit."""
        for col in range(self.hole_cards.shape[1]):
            block |= self.on_board[self.hole_cards[start : start + len(block), col]]


def _column_sum(per_card: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """(N,) sum of ``per_card`` over each row of ``cards`` (N, k): k gathers, cheaper than one (N, k) reduce."""
    total = np.zeros(len(cards), dtype=per_card.dtype)
    for col in range(cards.shape[1]):
        total += per_card[cards[:, col]]
    return total


def _rank_classes(cards: np.ndarray, rank_key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rank-key sum of each class, class of each row) for hole sets ``cards`` (N, k), grouped by their ranks in
    order (a class may repeat a rank multiset: that only costs a lookup). Few cards: by a base-13 code; more:
    ``np.unique`` of the rank-key sums."""
    k = cards.shape[1]
    if 13**k > 4096:
        return np.unique(rank_key, return_inverse=True)
    code = np.zeros(len(cards), dtype=np.intp)
    for col in range(k):
        code = code * 13 + (cards[:, col] >> 2)
    slot = np.full(13**k, -1, dtype=np.intp)
    slot[code] = 0
    used = np.flatnonzero(slot == 0)
    slot[used] = np.arange(len(used))
    of_class = slot[code]
    class_key = np.empty(len(used), dtype=rank_key.dtype)
    class_key[of_class] = rank_key
    return class_key, of_class


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
