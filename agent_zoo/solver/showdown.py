"""Counterfactual values at folds and showdowns, for every holding of one player against the other's reach.

For a holding ``h = (a, b)`` of the player whose values we want (the *hero*) and the other player's reach ``r``
over its holdings, only holdings that share no card with ``h`` can face it (card removal, or *blockers*):

    compatible(h) = sum(r) - sum(r over holdings with a) - sum(r over holdings with b) + r(h)

(the holding equal to ``h`` was taken away twice). A showdown needs the same sums restricted to the holdings
that are weaker, and to those that are stronger. Sorting the other player's holdings by strength once per board
turns each into a cumulative sum read at the hero's rank; the per-card sums come from the same sort restricted
to the at most 51 holdings that hold each card. Each showdown therefore costs O(holdings) per board, not the
O(holdings^2) of a payoff matrix.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from agent_zoo.solver.ranges import COMBOS
from poker_envs.core.cards import NUM_CARDS
from poker_envs.core.evaluator import evaluate_cross


@dataclass(frozen=True)
class Blockers:
    """Card-removal tables of one (hero, other) pair of holding lists."""

    incidence: np.ndarray  # (H_o, 52) float: 1 where the other's holding holds the card
    hero_cards: np.ndarray  # (H_h, 2) the hero's cards
    same: np.ndarray  # (H_h,) index of the same combo among the other's holdings, H_o when absent


def blockers(hero: np.ndarray, other: np.ndarray) -> Blockers:
    """``hero`` and ``other``: indices into COMBOS."""
    incidence = np.zeros((len(other), NUM_CARDS))
    incidence[np.arange(len(other))[:, None], COMBOS[other]] = 1.0
    where = np.full(len(COMBOS), len(other), dtype=np.int64)
    where[other] = np.arange(len(other))
    return Blockers(incidence, COMBOS[hero].astype(np.int64), where[hero])


def compatible_reach(reach: Any, tables: Blockers) -> Any:
    """(..., H_h): for each hero holding, the other's reach over the holdings it can face. ``reach``: (..., H_o),
    a numpy or a JAX array."""
    xp = reach.__array_namespace__()
    per_card = reach @ xp.asarray(tables.incidence, dtype=reach.dtype)  # (..., 52)
    padded = xp.concatenate([reach, xp.zeros(reach.shape[:-1] + (1,), dtype=reach.dtype)], axis=-1)
    a, b = tables.hero_cards[:, 0], tables.hero_cards[:, 1]
    return reach.sum(axis=-1, keepdims=True) - per_card[..., a] - per_card[..., b] + padded[..., tables.same]


@dataclass(frozen=True)
class ShowdownTables:
    """Per board, the other player's holdings sorted by strength and the hero's place among them, as flat indices
    (one ``take`` each: a gather along one axis is much faster than broadcast fancy indexing).

    The per-card lists sit end to end: the holders of card 0, then of card 1, ... (each holding twice, once per
    card). Which holdings hold a card does not depend on the board, so each card's segment starts at the same
    place on every board and only the order inside it changes."""

    # Sorted sums (None where the sign matrices are used):
    sort: np.ndarray | None  # (B * H_o,) into reach (B * H_o): the other's holdings, weakest first, board by board
    rank: np.ndarray | None  # (2, B * H_h) into the prefix sums (B * (H_o + 1)): strictly weaker, not stronger
    card_sort: np.ndarray | None  # (B * 2 H_o,) into reach (B * H_o): each card's holders, weakest first
    card_rank: np.ndarray | None  # (4, 2, B * H_h) into the card prefix sums (B * (2 H_o + 1)), per hero card:
    #                               weaker, not stronger, the end and the start of the card's segment
    # Sign matrices (None where the sorted sums are used):
    signs: np.ndarray | None = None  # (B, H_o, H_h) int8: the hero wins 1 / ties 0 / loses -1; 0: a shared card
    flip: bool = False  # signs holds the other player's matrices (B, H_h, H_o): this hero's are minus their transposes
    num_boards: int = 0  # B
    converted: dict = field(default_factory=dict, compare=False, repr=False)  # numpy: signs as floats, if small

    def boards(self, part: slice) -> ShowdownTables:
        """The tables of boards ``part`` (a contiguous range) alone, for solving a street a few boards at a time."""
        lo, hi, _ = part.indices(self.num_boards)
        if self.signs is not None:
            return replace(self, signs=self.signs[lo:hi], num_boards=hi - lo, converted={})
        assert self.sort is not None and self.rank is not None and self.card_sort is not None and self.card_rank is not None
        h_o = len(self.sort) // self.num_boards
        h_h = self.rank.shape[1] // self.num_boards
        return ShowdownTables(
            sort=self.sort[lo * h_o : hi * h_o] - lo * h_o,
            rank=self.rank[:, lo * h_h : hi * h_h] - lo * (h_o + 1),
            card_sort=self.card_sort[lo * 2 * h_o : hi * 2 * h_o] - lo * h_o,
            card_rank=self.card_rank[:, :, lo * h_h : hi * h_h] - lo * (2 * h_o + 1),
            num_boards=hi - lo,
        )


DENSE_LIMIT = 1 << 28  # sign-matrix entries (int8, all boards) up to which showdowns are matrix products (256 MB)
CHUNK_BYTES = 1 << 25  # numpy: the float copy of the sign matrices made per product (boards at a time)


def showdown_tables(hero: np.ndarray, other: np.ndarray, boards: np.ndarray, dense_limit: int = DENSE_LIMIT
                    ) -> ShowdownTables:
    """Tables for showdowns on every board in ``boards`` (B, 5). Holdings that collide with a board get strength -1;
    their reach is 0 there, so where they sort does not matter.

    Where the (board, other, hero) sign matrices have at most ``dense_limit`` entries (int8: up to 256 MB by
    default, which covers the flop spots of the benchmarks), showdowns are batched matrix products instead:
    quadratic in the holdings, but at a few hundred holdings BLAS does them several times faster than the sorted
    sums' gathers (measured: 3x on the turn spot). Larger spots, and ``dense_limit=0``, use the sorted sums,
    linear in the holdings."""
    if nb_entries(hero, other, boards) <= dense_limit:
        return _sign_tables(hero, other, boards)
    nb, h_o = len(boards), len(other)
    strength_h = evaluate_cross(COMBOS[hero], boards, check=False).T.astype(np.int64)  # (B, H_h)
    strength_o = evaluate_cross(COMBOS[other], boards, check=False).T.astype(np.int64)  # (B, H_o)
    order = np.argsort(strength_o, axis=1, kind="stable")
    ranked = np.take_along_axis(strength_o, order, axis=1)
    below = np.stack([np.searchsorted(row, s, side="left") for row, s in zip(ranked, strength_h)])
    not_above = np.stack([np.searchsorted(row, s, side="right") for row, s in zip(ranked, strength_h)])
    # The holders of each card, segment after segment; sort inside each segment by (card, strength).
    cards_o = COMBOS[other].astype(np.int64)
    member = np.concatenate([np.arange(h_o), np.arange(h_o)])  # each holding once per card
    card_of = np.concatenate([cards_o[:, 0], cards_o[:, 1]])
    segment = np.argsort(card_of, kind="stable")
    member, card_of = member[segment], card_of[segment]
    start = np.searchsorted(card_of, np.arange(NUM_CARDS), side="left")  # (52,)
    end = np.searchsorted(card_of, np.arange(NUM_CARDS), side="right")
    key = card_of[None, :] * (1 << 40) + strength_o[:, member] + 1  # (B, 2 H_o): card first, then strength
    inner = np.argsort(key, axis=1, kind="stable")
    sorted_key = np.take_along_axis(key, inner, axis=1)
    cards_h = COMBOS[hero].astype(np.int64)  # (H_h, 2)
    width = 2 * h_o + 1
    b = np.arange(nb)[:, None]
    parts = []
    for j in (0, 1):
        c = cards_h[:, j]
        target = c[None, :] * (1 << 40) + strength_h + 1  # (B, H_h)
        lo = np.stack([np.searchsorted(row, t, side="left") for row, t in zip(sorted_key, target)])
        hi = np.stack([np.searchsorted(row, t, side="right") for row, t in zip(sorted_key, target)])
        parts.append(np.stack([lo, hi, np.broadcast_to(end[c], lo.shape), np.broadcast_to(start[c], lo.shape)]) + b * width)
    card_rank = np.stack(parts, axis=1).reshape(4, 2, -1)
    return ShowdownTables(
        sort=(b * h_o + order).ravel(),
        rank=np.stack([b * (h_o + 1) + below, b * (h_o + 1) + not_above]).reshape(2, -1),
        card_sort=(b * h_o + member[inner]).ravel(),
        card_rank=card_rank,
        num_boards=nb,
    )


def nb_entries(hero: np.ndarray, other: np.ndarray, boards: np.ndarray) -> int:
    """Entries of the sign matrices of ``boards`` (B x H_other x H_hero)."""
    return len(boards) * len(hero) * len(other)


def shares_a_card(hero: np.ndarray, other: np.ndarray) -> np.ndarray:
    """(H_o, H_h) bool: whether the other's holding and the hero's (indices into COMBOS) hold a card in common."""
    return (COMBOS[other][:, None, :, None] == COMBOS[hero][None, :, None, :]).any(axis=(2, 3))


def _sign_tables(hero: np.ndarray, other: np.ndarray, boards: np.ndarray) -> ShowdownTables:
    shared = shares_a_card(hero, other)
    signs = np.empty((len(boards), len(other), len(hero)), dtype=np.int8)
    step = max(1, (1 << 24) // (len(hero) * len(other)))
    for start in range(0, len(boards), step):  # a few boards at a time: the int64 strengths stay small
        chunk = boards[start : start + step]
        strength_h = evaluate_cross(COMBOS[hero], chunk, check=False).T.astype(np.int64)  # (b, H_h)
        strength_o = evaluate_cross(COMBOS[other], chunk, check=False).T.astype(np.int64)  # (b, H_o)
        signs[start : start + step] = np.sign(strength_h[:, None, :] - strength_o[:, :, None]) * ~shared[None]
    return ShowdownTables(sort=None, rank=None, card_sort=None, card_rank=None, signs=signs, num_boards=len(boards))


def _prefix(xp: Any, values: Any, groups: int) -> Any:
    """Cumulative sums within each of ``groups`` equal runs of the last axis, each with a leading 0."""
    n = values.shape[0]
    runs = xp.cumsum(values.reshape(n, groups, -1), axis=2)
    return xp.concatenate([xp.zeros((n, groups, 1), dtype=values.dtype), runs], axis=2).reshape(n, -1)


def showdown_margin(reach: Any, tables: ShowdownTables) -> Any:
    """(N, B, H_h): reach of the other's holdings each hero holding beats minus the reach of those that beat it,
    over the holdings it can face. ``reach``: (N, B, H_o), the other's reach on each board at N showdowns (numpy
    or JAX)."""
    xp = reach.__array_namespace__()
    if tables.signs is not None:  # (B, N, H_o) @ (B, H_o, H_h): one product per board
        sign = -1.0 if tables.flip else 1.0
        if xp is not np:
            signs = xp.asarray(tables.signs, dtype=reach.dtype)
            signs = xp.swapaxes(signs, 1, 2) if tables.flip else signs
            return sign * xp.moveaxis(xp.matmul(xp.moveaxis(reach, 1, 0), signs), 0, 1)
        nb = tables.num_boards
        h_o, h_h = reach.shape[2], tables.signs.size // (nb * reach.shape[2])
        if tables.signs.size * reach.dtype.itemsize <= CHUNK_BYTES:  # small (river, turn): converted once, kept
            signs = tables.converted.get(reach.dtype.str)
            if signs is None:
                signs = sign * tables.signs.astype(reach.dtype)
                signs = tables.converted.setdefault(reach.dtype.str, np.ascontiguousarray(np.swapaxes(signs, 1, 2)) if tables.flip else signs)
            return np.moveaxis(np.matmul(np.moveaxis(reach, 1, 0), signs), 0, 1)
        out = np.empty((reach.shape[0], nb, h_h), dtype=reach.dtype)
        step = max(1, CHUNK_BYTES // (h_o * h_h * reach.dtype.itemsize))
        for start in range(0, nb, step):
            signs = tables.signs[start : start + step].astype(reach.dtype)
            signs = np.swapaxes(signs, 1, 2) if tables.flip else signs
            out[:, start : start + step] = np.moveaxis(np.matmul(np.moveaxis(reach[:, start : start + step], 1, 0), signs), 0, 1)
        return -out if tables.flip else out
    assert tables.sort is not None and tables.rank is not None and tables.card_sort is not None and tables.card_rank is not None
    n, nb, h_o = reach.shape
    flat = reach.reshape(n, -1)
    cum = _prefix(xp, xp.take(flat, tables.sort, axis=1), nb)  # (N, B * (H_o + 1))
    total = cum.reshape(n, nb, -1)[:, :, -1:]
    # Beaten minus beating = below + not_above - total, over all holdings...
    ranks = xp.take(cum, tables.rank.ravel(), axis=1).reshape(n, 2, nb, -1)
    margin = ranks[:, 0] + ranks[:, 1] - total
    # ... less the same over the holdings that share the hero's first card, and its second: within a card's
    # segment, (weaker - start) + (not stronger - start) - (end - start).
    card_cum = _prefix(xp, xp.take(flat, tables.card_sort, axis=1), nb)  # (N, B * (2 H_o + 1))
    parts = xp.take(card_cum, tables.card_rank.ravel(), axis=1).reshape(n, 4, 2, nb, -1).sum(axis=2)
    return margin - (parts[:, 0] + parts[:, 1] - parts[:, 2] - parts[:, 3])
