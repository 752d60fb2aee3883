"""Batched sampling: actions over masks (one draw per row, no Python loop over rows) and dealing orders.

Used by the batched opponents of the vector wrappers, the self-play loop, the benchmarks and the
engines' dealing (``Dealer``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from poker_envs.core.cards import NUM_CARDS, card_to_str, deck_name


def random_legal_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per row of ``mask`` (m, A), uniform over that row's legal ids; int64 (m,).

    A row without a legal action is refused (a ValueError naming the row), never filled in.
    """
    mask = np.asarray(mask)
    counts = np.count_nonzero(mask, axis=1)
    if (counts == 0).any():
        raise ValueError(f"mask row {int(np.flatnonzero(counts == 0)[0])} has no legal action")
    k = (rng.random(counts.shape[0]) * counts).astype(np.int64)  # which legal id, 0 .. count - 1
    return np.argmax(np.cumsum(mask != 0, axis=1) > k[:, None], axis=1)


def sample_actions(probs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per row of ``probs`` (m, A), drawn with those (unnormalised, non-negative) weights; int64 (m,)."""
    probs = np.asarray(probs, dtype=np.float64)
    cdf = np.cumsum(probs, axis=1)
    total = cdf[:, -1]
    if not (total > 0).all():
        raise ValueError(f"probs row {int(np.flatnonzero(~(total > 0))[0])} has no positive weight")
    u = rng.random(probs.shape[0]) * total
    # The first id whose cumulative weight exceeds u (ids of zero weight are never chosen); u rounded
    # up to the total falls back to the last id of positive weight.
    idx = np.count_nonzero(cdf <= u[:, None], axis=1)
    last = probs.shape[1] - 1 - np.argmax(probs[:, ::-1] > 0, axis=1)
    return np.minimum(idx, last)


def distinct_cards(rng: np.random.Generator, count: int, size: int) -> np.ndarray:
    """(count, size) card ids 0..51, distinct within each row and each row uniform: a partial Fisher-Yates
    shuffle per row (``size`` vectorised swaps; about three times faster than sorting 52 random keys per
    row, which ``Dealer.deal`` does because it must also place given cards first)."""
    deck = np.broadcast_to(np.arange(NUM_CARDS, dtype=np.int8), (count, NUM_CARDS)).copy()
    rows = np.arange(count)
    for i in range(size):
        j = rng.integers(i, NUM_CARDS, size=count)
        picked = deck[rows, j]
        deck[rows, j] = deck[:, i]
        deck[:, i] = picked
    return deck[:, :size].astype(np.intp)


class Dealer:
    """Dealing orders of a deck for many tables at once: given cards first (reset's ``decks``), the rest at random."""

    def __init__(self, deck: np.ndarray, size: int) -> None:
        self.deck = np.asarray(deck, dtype=np.int64)  # the card ids dealt, ascending
        self.size = size  # cards one hand deals
        self.index = np.full(NUM_CARDS, -1, dtype=np.int64)  # card id -> place in ``deck`` (-1: not in it)
        self.index[self.deck] = np.arange(len(self.deck))

    def check(self, decks: Any, num_envs: int) -> np.ndarray:
        """``decks`` as int64 (num_envs, k) of distinct cards of the deck; errors name ``decks`` (and the table)."""
        arr = np.asarray(decks)
        if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
            raise TypeError(f"decks must be an integer array, got dtype {arr.dtype}")
        if arr.ndim != 2 or arr.shape[0] != num_envs:
            raise ValueError(f"decks must have shape ({num_envs}, k) (one dealing order per table), got {arr.shape}")
        arr = arr.astype(np.int64)
        if arr.size and (arr.min() < 0 or arr.max() >= NUM_CARDS):
            raise ValueError(f"decks must hold values 0..{NUM_CARDS - 1}")
        stray = self.index[arr] < 0
        if stray.any():
            t = int(np.flatnonzero(stray.any(1))[0])
            card = int(arr[t][stray[t]][0])
            raise ValueError(
                f"decks[{t}] deals card {card}, not in the game's deck ({card_to_str(card)}; the deck is "
                f"{deck_name(self.deck.tolist())})"
            )
        srt = np.sort(arr, axis=1)
        repeated = (srt[:, 1:] == srt[:, :-1]).any(1)
        if repeated.any():
            raise ValueError(f"decks[{int(np.flatnonzero(repeated)[0])}] deals a card twice")
        return arr

    def deal(self, rng: np.random.Generator, count: int, decks: np.ndarray | None = None) -> np.ndarray:
        """(count, size) int64 dealing orders: each row of ``decks`` (from ``check``) first, in order, then
        the other cards of the deck in an order drawn from ``rng`` (one uniform key per card)."""
        keys = rng.random((count, len(self.deck)))
        if decks is not None:
            fixed = self.index[decks[:, : self.size]]
            keys[np.arange(count)[:, None], fixed] = np.arange(fixed.shape[1]) - fixed.shape[1]  # first, in order
        return self.deck[np.argsort(keys, axis=1)[:, : self.size]]


def deal_cards(rng: np.random.Generator, count: int, num_cards: int, deal_size: int) -> np.ndarray:
    """(count, deal_size) deals: a fresh shuffle of ``num_cards`` cards per table, its first ``deal_size`` kept
    (every backend's reset of Kuhn and Leduc deals this way, so a seed deals the same first hands in each)."""
    return rng.random((count, num_cards)).argsort(axis=1)[:, :deal_size]


def check_decks(decks: Any, num_envs: int, num_cards: int, deal_size: int) -> np.ndarray:
    """``options["decks"]`` as int64 (num_envs, deal_size) distinct card ids; errors name the option and the table."""
    arr = np.asarray(decks)
    want = (num_envs, deal_size)
    if arr.shape != want:
        raise ValueError(f"options['decks'] must have shape {want} (one deal per table), got {arr.shape}")
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"options['decks'] must be an integer array, got dtype {arr.dtype}")
    srt = np.sort(arr, axis=1)
    bad = ((arr < 0) | (arr >= num_cards)).any(axis=1) | (srt[:, 1:] == srt[:, :-1]).any(axis=1)
    if bad.any():
        t = int(np.flatnonzero(bad)[0])
        raise ValueError(f"options['decks'][{t}] = {arr[t].tolist()} must be {deal_size} distinct cards in 0..{num_cards - 1}")
    return arr.astype(np.int64)
