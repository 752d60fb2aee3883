"""Hand evaluator: hand-worked examples, scalar vs batched, pokerkit and a brute-force peer, 5-card census."""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import pytest

from poker_envs.core.cards import cards_from_str
from poker_envs.core import _eval_tables
from poker_envs.core.combinations import colex_combinations, combination_chunks
from poker_envs.core.evaluator import (
    cross_signs,
    CATEGORY_NAMES,
    describe,
    evaluate,
    evaluate_batch,
    evaluate_cross,
    hand_category,
)


def ev(text: str) -> int:
    return evaluate(cards_from_str(text))


def random_hands(rng: np.random.Generator, count: int, size: int = 7) -> np.ndarray:
    """``count`` hands of ``size`` distinct cards, uniformly drawn."""
    return np.argsort(rng.random((count, 52)), axis=1)[:, :size].astype(np.int64)


# --- hand-worked examples -------------------------------------------------------------------------

CATEGORY_EXAMPLES = [
    ("7s 5d 4c 3h 2c 9d Jh", 0, "high card, jack"),
    ("9c 9d 5h 3s 2c Td Jd", 1, "pair of nines"),
    ("Ah Ad Kc Ks 2c 2d 3h", 2, "two pair, aces and kings"),
    ("5s 5d 5c Ah 9d 2c 3h", 3, "three of a kind, fives"),
    ("Ts 9c 8d 7h 6s 2c 2d", 4, "straight, ten high"),
    ("As 2d 3c 4h 5s Kc Kd", 4, "straight, five high"),
    ("Ah 9h 5h 3h 2h Kd Kc", 5, "flush, ace high"),
    ("Kh Kd Kc 7s 7c 2d 2h", 6, "full house, kings over sevens"),
    ("Qh Qd Qc Qs 2c 3d 4h", 7, "four of a kind, queens"),
    ("9d 8d 7d 6d 5d Ad Kd", 8, "straight flush, nine high"),
    ("As Ks Qs Js Ts 2c 3d", 8, "royal flush"),
    ("Ah 2h 3h 4h 5h Kc Kd", 8, "straight flush, five high"),
]


@pytest.mark.parametrize(("text", "category", "words"), CATEGORY_EXAMPLES)
def test_every_category(text: str, category: int, words: str) -> None:
    value = ev(text)
    assert hand_category(value) == category
    assert CATEGORY_NAMES[category] in words or category == 8
    assert describe(value) == words


def test_categories_order() -> None:
    values = [ev(text) for text, _, _ in CATEGORY_EXAMPLES]
    categories = [c for _, c, _ in CATEGORY_EXAMPLES]
    for a, ca in zip(values, categories):
        for b, cb in zip(values, categories):
            if ca < cb:
                assert a < b


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("6s 5d 4c 3h 2c", "As 2d 3c 4h 5s"),  # six-high straight beats the wheel
        ("As 2d 3c 4h 5s", "Ah Kd Qc Jh 9s"),  # the wheel beats ace-high
        ("Ah Kd Qc Jh Ts", "Kh Qd Jc Th 9s"),  # broadway beats king-high straight
        ("2h 4h 6h 8h Th", "Ah Kd Qc Jh Ts"),  # any flush beats any straight
        ("Ah Kh Qh Jh Th", "Kd Qd Jd Td 9d"),  # royal beats king-high straight flush
        ("6h 5h 4h 3h 2h", "Ah 2h 3h 4h 5h"),  # six-high straight flush beats the steel wheel
        ("2c 2d 2h 2s 3c", "Ac Ad Ah Kc Kd"),  # smallest quads beat biggest full house
        ("3c 3d 3h 2c 2d", "Ah Kh Qh Jh 9h"),  # full house beats flush
        ("Ac Ad Ah 2c 2d", "Kc Kd Kh Ac Ad"),  # trips decide the full house
        ("9c 9d 9h Qc Qd", "9c 9d 9h Jc Jd"),  # then the pair
        ("Ac Ad Kh Ks 3c", "Ac Ad Qh Qs Kc"),  # two pair: second pair before the kicker
        ("Ac Ad 8h 8s Kc", "Ac Ad 8h 8s Qc"),  # two pair: kicker
        ("Tc Td Ah 9s 2c", "Tc Td Kh Qs Jc"),  # pair: first kicker
        ("Tc Td Ah Ks 3c", "Tc Td Ah Ks 2c"),  # pair: third kicker
        ("Ac Kd 9h 7s 3c", "Ac Kd 9h 7s 2c"),  # high card: fifth kicker
        ("Ah Th 8h 6h 3h", "Ah Th 8h 6h 2h"),  # flush: fifth card
        ("7c 7d 7h As 2c", "7c 7d 7h Ks Qc"),  # trips: kickers
        ("5c 5d 5h 5s Ac", "5c 5d 5h 5s Kc"),  # quads: kicker
    ],
)
def test_kickers(better: str, worse: str) -> None:
    assert ev(better) > ev(worse)


def test_seven_card_subtleties() -> None:
    # Three pairs: the best two pairs play and the third pair's rank is the kicker.
    assert ev("Ac Ad Kc Kd Qc Qd 2s") == ev("Ac Ad Kc Kd Qh 3s 2h")
    assert ev("Ac Ad Kc Kd 3c 3d Qs") == ev("Ac Ad Kc Kd Qh 3s 2h")
    # Two trips make a full house with the higher trips over the lower pair.
    assert describe(ev("Kh Kd Kc 7s 7c 7d 2h")) == "full house, kings over sevens"
    # Quads with a pair on the side: the higher of pair and single is the kicker.
    assert ev("4c 4d 4h 4s 9c 9d Ks") == ev("4c 4d 4h 4s Ks 2d 3h")
    # Six cards to a straight: the highest five play; a wheel with a six is a six-high straight.
    assert ev("As 2d 3c 4h 5s 6c Kd") == ev("2s 3d 4c 5h 6s")
    # A flush of six or seven cards keeps its best five.
    assert ev("Ah Kh 9h 7h 5h 3h 2h") == ev("Ah Kh 9h 7h 5h")
    # A straight and a flush on different cards: the flush wins, no straight flush.
    assert hand_category(ev("9h 8h 7h 6h 2h Tc 5d")) == 5
    # A straight flush hidden among seven cards beats the higher plain straight beside it.
    assert hand_category(ev("9h 8h 7h 6h 5h Tc Jd")) == 8


def test_board_plays_and_splits() -> None:
    board = cards_from_str("As Ks Qs Js Ts")
    a = evaluate(cards_from_str("2c 3d") + board)
    b = evaluate(cards_from_str("9c 9d") + board)
    assert a == b  # the board plays: split
    board = cards_from_str("Ac Ad Kh Kd 7s")
    assert evaluate(cards_from_str("2c 3c") + board) == evaluate(cards_from_str("2h 4h") + board)
    assert evaluate(cards_from_str("8c 2c") + board) > evaluate(cards_from_str("6c 5c") + board)
    # suits never break ties
    assert ev("Ac Kd 9h 7s 3c") == ev("Ad Kh 9s 7c 3d")


def test_five_six_seven_cards_agree_when_extra_cards_do_not_help() -> None:
    assert ev("Ah Kd 9c 7s 5h") == ev("Ah Kd 9c 7s 5h 3d") == ev("Ah Kd 9c 7s 5h 3d 2c")


def test_scalar_accepts_any_int_sequence() -> None:
    cards = cards_from_str("Ah Kd 9c 7s 5h 3d 2c")
    value = evaluate(cards)
    assert evaluate(tuple(cards)) == evaluate(np.array(cards)) == evaluate(np.array(cards, np.int8)) == value
    assert isinstance(evaluate(np.array(cards)), int)


@pytest.mark.parametrize(
    "bad",
    [[0, 1, 2, 3], [0, 1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 3, 52], [0, 1, 2, 3, -1], [0, 1, 2, 3, 3], [0, 1, 2, 3, "As"]],
)
def test_scalar_bad_input(bad: list) -> None:
    with pytest.raises(ValueError, match="cards"):
        evaluate(bad)


def test_batch_bad_input() -> None:
    for bad in (np.zeros((3, 4), int), np.zeros(7, int), np.arange(7.0)[None], [[0, 1, 2, 3, 4, 5, 52]]):
        with pytest.raises(ValueError, match="cards"):
            evaluate_batch(bad)
    with pytest.raises(ValueError, match="repeats a card"):
        evaluate_batch([[0, 1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4, 6, 6]])
    with pytest.raises(ValueError, match="-1"):
        evaluate_batch([[0, 1, 2, 3, 4, 5, -1]])
    with pytest.raises(ValueError, match="value"):
        describe(9 << 20)


# --- scalar vs batched ----------------------------------------------------------------------------


@pytest.mark.parametrize("size", [5, 6, 7])
def test_scalar_and_batched_agree(size: int) -> None:
    count = 100_000 if size == 7 else 20_000
    hands = random_hands(np.random.default_rng(size), count, size)
    batched = evaluate_batch(hands)
    assert batched.shape == (count,)
    scalar = np.array([evaluate(h) for h in hands.tolist()])
    assert np.array_equal(batched, scalar)
    for dtype in (np.int8, np.uint8, np.int32):
        assert np.array_equal(evaluate_batch(hands[:1000].astype(dtype)), batched[:1000])
    assert np.array_equal(evaluate_batch(hands, check=False), batched)
    assert evaluate_batch(np.zeros((0, size), int)).shape == (0,)


@pytest.mark.parametrize(("hole_size", "board_size", "boards"),
                         [(2, 5, 150), (2, 4, 50), (3, 3, 50), (2, 3, 50), (3, 4, 200), (4, 3, 200), (1, 5, 300)])
def test_cross_matches_batched(hole_size: int, board_size: int, boards: int) -> None:
    rng = np.random.default_rng(hole_size * 10 + board_size)
    holes = colex_combinations(52, 2) if hole_size == 2 else random_hands(rng, 500, hole_size)
    board_rows = random_hands(rng, boards, board_size)
    values = evaluate_cross(holes, board_rows)
    assert values.shape == (len(holes), boards) and values.dtype == np.int32
    hole_idx, board_idx = np.meshgrid(np.arange(len(holes)), np.arange(boards), indexing="ij")
    together = np.concatenate([holes[hole_idx.ravel()], board_rows[board_idx.ravel()]], axis=1).astype(np.int64)
    shares = np.array([len(set(row)) < len(row) for row in together.tolist()])
    expected = np.full(len(together), -1)
    expected[~shares] = evaluate_batch(together[~shares])
    assert np.array_equal(values.ravel(), expected)
    assert shares.any()  # the conflict marking was exercised
    flushes = np.array([evaluate(h) >> 20 & 15 in (5, 8) for h in together[~shares].tolist()])
    assert flushes.any()  # flushes (looked up apart from the rank classes) occurred


@pytest.mark.parametrize(("hole_size", "board_size", "group"), [(2, 5, 64), (2, 5, 1), (3, 4, 10), (2, 3, 5)])
def test_cross_signs_is_the_sum_of_signs(hole_size: int, board_size: int, group: int) -> None:
    """``cross_signs`` equals its definition on ``evaluate_cross``: shared cards, flushes and ties included."""
    rng = np.random.default_rng(hole_size * 100 + board_size + group)
    holes = colex_combinations(52, 2) if hole_size == 2 else random_hands(rng, 700, hole_size)
    board_rows = random_hands(rng, 4 * group if group > 1 else 90, board_size)
    values = evaluate_cross(holes, board_rows)
    # References drawn from the holes' own values on each board, so that ties occur often.
    reference = values[rng.integers(len(holes), size=len(board_rows)), np.arange(len(board_rows))].clip(min=0)
    signs = cross_signs(holes, board_rows, reference, group=group)
    expected = np.sign(values.astype(np.int64) - reference).reshape(len(holes), -1, group).sum(axis=2)
    assert signs.shape == expected.shape and np.array_equal(signs, expected)
    assert (values == reference).any() and (values < 0).any()  # ties and shared cards were exercised


def test_cross_signs_bad_input() -> None:
    holes, boards = np.array([[0, 1]]), np.array([[10, 11, 12, 13, 14], [20, 21, 22, 23, 24]])
    with pytest.raises(ValueError, match="reference"):
        cross_signs(holes, boards, np.zeros(3, dtype=np.int32))
    with pytest.raises(ValueError, match="reference"):
        cross_signs(holes, boards, np.zeros(2))
    with pytest.raises(ValueError, match="group"):
        cross_signs(holes, boards, np.zeros(2, dtype=np.int32), group=3)


def test_cross_bad_input() -> None:
    with pytest.raises(ValueError, match="holes, boards"):
        evaluate_cross(np.zeros((2, 2), int), np.zeros((2, 2), int))
    with pytest.raises(ValueError, match="holes"):
        evaluate_cross(np.zeros(2, int), np.zeros((2, 5), int))
    with pytest.raises(ValueError, match="repeats a card"):
        evaluate_cross(np.array([[3, 3]]), np.array([[10, 11, 12, 13, 14]]))
    with pytest.raises(ValueError, match="0..51"):
        evaluate_cross(np.array([[3, 4]]), np.array([[10, 11, 12, 13, 52]]))


# --- independent peers ----------------------------------------------------------------------------


def same_order(a: np.ndarray, b: np.ndarray) -> bool:
    """True when sorting by a and by b gives the same weak order (equal <-> equal, less <-> less)."""
    _, rank_a = np.unique(a, return_inverse=True)
    _, rank_b = np.unique(b, return_inverse=True)
    return bool(np.array_equal(rank_a, rank_b))


def brute_force_scores(hands: np.ndarray) -> np.ndarray:
    """Independent peer: the best of all five-card subsets, each scored with plain category logic.

    Vectorised over hands, but method-wise the textbook one: sort ranks, count repeats, read the category
    from the repeat pattern, straight = five consecutive ranks (or A-5-4-3-2), flush = one suit.
    """
    best = np.full(len(hands), -1, dtype=np.int64)
    for subset in combinations(range(hands.shape[1]), 5):
        five = hands[:, subset]
        ranks, suits = five >> 2, five & 3
        repeats = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)  # copies of each card's rank
        order = np.argsort(-(repeats * 16 + ranks), axis=1, kind="stable")  # by (copies, rank) descending
        ranked = np.take_along_axis(ranks, order, axis=1)
        pattern = np.take_along_axis(repeats, order, axis=1)
        desc = -np.sort(-ranks, axis=1)
        distinct = pattern[:, 0] == 1
        wheel = distinct & (desc[:, 0] == 12) & (desc[:, 1] == 3) & (desc[:, 4] == 0)
        straight = distinct & ((desc[:, 0] - desc[:, 4] == 4) | wheel)
        flush = (suits == suits[:, :1]).all(axis=1)
        category = np.select(
            [
                straight & flush,
                pattern[:, 0] == 4,
                (pattern[:, 0] == 3) & (pattern[:, 3] == 2),
                flush,
                straight,
                pattern[:, 0] == 3,
                (pattern[:, 0] == 2) & (pattern[:, 2] == 2),
                pattern[:, 0] == 2,
            ],
            [8, 7, 6, 5, 4, 3, 2, 1],
            default=0,
        )
        ranked = np.where(wheel[:, None], np.array([3, 2, 1, 0, -1]), ranked)  # the ace plays low
        score = category
        for i in range(5):
            score = score * 16 + ranked[:, i] + 1
        best = np.maximum(best, score)
    return best


def test_brute_force_peer_on_hand_worked_examples() -> None:
    texts = [t for t, _, _ in CATEGORY_EXAMPLES]
    hands = np.array([cards_from_str(t) for t in texts])
    scores = brute_force_scores(hands)
    assert [int(s) // 16**5 for s in scores] == [c for _, c, _ in CATEGORY_EXAMPLES]


def test_against_brute_force_on_100k_random_hands() -> None:
    hands = random_hands(np.random.default_rng(2024), 100_000)
    assert same_order(evaluate_batch(hands), brute_force_scores(hands))


def test_against_pokerkit_on_random_hands() -> None:
    import pokerkit
    hands = random_hands(np.random.default_rng(7), 4_000)
    texts = ["".join("23456789TJQKA"[c >> 2] + "cdhs"[c & 3] for c in h) for h in hands.tolist()]
    theirs = [pokerkit.StandardHighHand.from_game(t[:4], t[4:]) for t in texts]
    ours = evaluate_batch(hands)
    order = sorted(range(len(hands)), key=lambda i: theirs[i])
    for a, b in zip(order, order[1:]):
        if theirs[a] == theirs[b]:
            assert ours[a] == ours[b], (texts[a], texts[b])
        else:
            assert ours[a] < ours[b], (texts[a], texts[b])


# --- exhaustive five-card census --------------------------------------------------------------------

FIVE_CARD_COUNTS = [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]


def test_five_card_census() -> None:
    hands = colex_combinations(52, 5)
    assert len(hands) == 2_598_960
    categories = evaluate_batch(hands, check=False) >> 20
    assert np.bincount(categories, minlength=9).tolist() == FIVE_CARD_COUNTS
    # 7,462 distinct five-card hand values is the known number of equivalence classes
    assert len(np.unique(evaluate_batch(hands, check=False))) == 7_462


SEVEN_CARD_COUNTS = [23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184, 224_848, 41_584]


@pytest.mark.slow
def test_seven_card_census() -> None:
    """All 133,784,560 seven-card hands: known category counts and 4,824 distinct values (~5 CPU-seconds)."""
    counts = np.zeros(9, dtype=np.int64)
    seen = np.zeros(9 << 20, dtype=bool)
    for hands in combination_chunks(52, 7):
        values = evaluate_batch(hands, check=False)
        counts += np.bincount(values >> 20, minlength=9)
        seen[values] = True
    assert counts.tolist() == SEVEN_CARD_COUNTS
    assert int(seen.sum()) == 4_824


# --- building blocks ------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "multisets"), [(5, 6_175), (6, 18_395), (7, 49_205)])
def test_rank_keys_separate_every_rank_multiset(size: int, multisets: int) -> None:
    keys, _ = _eval_tables.rank_keys_and_values(size)
    assert len(keys) == multisets  # known numbers of rank multisets (at most 4 of a rank)
    assert len(np.unique(keys)) == multisets
    assert keys.max() < 1 << _eval_tables.RANK_BITS


@pytest.mark.parametrize(("n", "k"), [(7, 3), (9, 4), (6, 0), (3, 5), (10, 10)])
def test_colex_combinations(n: int, k: int) -> None:
    rows = colex_combinations(n, k)
    assert rows.shape == (comb(n, k), k)
    assert sorted(map(tuple, rows.tolist())) == list(combinations(range(n), k))
    maxima = rows.max(axis=1) if k else np.zeros(len(rows))
    assert (np.diff(maxima) >= 0).all()  # colex: subsets of range(m) come first


@pytest.mark.parametrize(("n", "k"), [(9, 4), (10, 2), (8, 8), (12, 7)])
def test_combination_chunks_cover_each_subset_once(n: int, k: int) -> None:
    rows = np.vstack([chunk.copy() for chunk in combination_chunks(n, k)])
    assert sorted(map(tuple, rows.tolist())) == list(combinations(range(n), k))
    with pytest.raises(ValueError, match="k"):
        next(combination_chunks(5, 1))


def test_hand_ranks_lists_every_deciding_rank() -> None:
    """High card keeps five ranks, a pair its rank and three kickers (worked by hand)."""
    from poker_envs.core.cards import cards_from_str
    from poker_envs.core.evaluator import evaluate, hand_ranks

    assert hand_ranks(evaluate(cards_from_str("AsKd9h7c3s2d4h"))) == (12, 11, 7, 5, 2)
    assert hand_ranks(evaluate(cards_from_str("AsAd9h7c3s2dQh"))) == (12, 10, 7, 5)
    assert hand_ranks(evaluate(cards_from_str("AsAdKhKc3s2d4h"))) == (12, 11, 2)
