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

from dataclasses import dataclass
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
    per_card = reach @ xp.asarray(tables.incidence)  # (..., 52)
    padded = xp.concatenate([reach, xp.zeros(reach.shape[:-1] + (1,))], axis=-1)
    a, b = tables.hero_cards[:, 0], tables.hero_cards[:, 1]
    return reach.sum(axis=-1, keepdims=True) - per_card[..., a] - per_card[..., b] + padded[..., tables.same]


@dataclass(frozen=True)
class ShowdownTables:
    """Per board, the other player's holdings sorted by strength and the hero's place among them, as flat indices
    (one ``np.take`` each: gathers along one axis are much faster than broadcast fancy indexing)."""

    boards: int  # B
    sort: np.ndarray  # (B * H_o,) into reach (B * H_o): the other's holdings, weakest first, board by board
    rank: np.ndarray  # (2, B * H_h) into the prefix sums (B * (H_o + 1)): holdings strictly weaker, not stronger
    card_sort: np.ndarray  # (B * 52 * L,) into padded reach (B * (H_o + 1)): per card, its holders weakest first
    card_rank: np.ndarray  # (6, B * H_h) into the card prefix sums (B * 52 * (L + 1)): per hero card, weaker,
    #                        not stronger, and all holders of that card
    width: int  # L: the longest list of holders of one card


def showdown_tables(hero: np.ndarray, other: np.ndarray, boards: np.ndarray) -> ShowdownTables:
    """Tables for showdowns on every board in ``boards`` (B, 5). Holdings that collide with a board get strength -1;
    their reach is 0 there, so where they sort does not matter."""
    nb, h_o, h_h = len(boards), len(other), len(hero)
    strength_h = evaluate_cross(COMBOS[hero], boards, check=False).T.astype(np.int64)  # (B, H_h)
    strength_o = evaluate_cross(COMBOS[other], boards, check=False).T.astype(np.int64)  # (B, H_o)
    order = np.argsort(strength_o, axis=1, kind="stable")
    ranked = np.take_along_axis(strength_o, order, axis=1)
    below = np.stack([np.searchsorted(row, s, side="left") for row, s in zip(ranked, strength_h)])
    not_above = np.stack([np.searchsorted(row, s, side="right") for row, s in zip(ranked, strength_h)])
    # Per card: the other's holdings that hold it, padded to the longest list with index H_o (zero reach).
    holders = [np.flatnonzero((COMBOS[other] == c).any(axis=1)) for c in range(NUM_CARDS)]
    width = max(1, max(len(h) for h in holders))
    lists = np.full((NUM_CARDS, width), h_o, dtype=np.int64)
    for c, h in enumerate(holders):
        lists[c, : len(h)] = h
    padded = np.concatenate([strength_o, np.full((nb, 1), np.iinfo(np.int64).max)], axis=1)
    list_strength = padded[:, lists]  # (B, 52, L)
    sort = np.argsort(list_strength, axis=2, kind="stable")
    card_order = np.take_along_axis(np.broadcast_to(lists, list_strength.shape), sort, axis=2)
    sorted_strength = np.take_along_axis(list_strength, sort, axis=2)
    cards = COMBOS[hero].astype(np.int64)  # (H_h, 2)
    mine = sorted_strength[:, cards, :]  # (B, H_h, 2, L)
    s = strength_h[:, :, None, None]
    card_below, card_not_above = (mine < s).sum(axis=3), (mine <= s).sum(axis=3)  # (B, H_h, 2)
    b = np.arange(nb)[:, None]
    rank = np.stack([b * (h_o + 1) + below, b * (h_o + 1) + not_above]).reshape(2, -1)
    start = b[:, :, None] * (NUM_CARDS * (width + 1)) + cards[None] * (width + 1)  # (B, H_h, 2)
    card_rank = np.concatenate([
        np.moveaxis(start + card_below, 2, 0), np.moveaxis(start + card_not_above, 2, 0),
        np.moveaxis(start + width, 2, 0),
    ]).reshape(6, -1)
    return ShowdownTables(nb, (b * h_o + order).ravel(), rank, (b[:, :, None] * (h_o + 1) + card_order).ravel(),
                          card_rank, width)


def _prefix(xp: Any, values: Any, groups: int) -> Any:
    """Cumulative sums within each of ``groups`` equal runs of the last axis, each with a leading 0."""
    n = values.shape[0]
    runs = xp.cumsum(values.reshape(n, groups, -1), axis=2)
    return xp.concatenate([xp.zeros((n, groups, 1)), runs], axis=2).reshape(n, -1)


def showdown_margin(reach: Any, tables: ShowdownTables) -> Any:
    """(N, B, H_h): reach of the other's holdings each hero holding beats minus the reach of those that beat it,
    over the holdings it can face. ``reach``: (N, B, H_o), the other's reach on each board at N showdowns (numpy
    or JAX)."""
    xp = reach.__array_namespace__()
    n, nb, h_o = reach.shape
    flat = reach.reshape(n, -1)
    cum = _prefix(xp, xp.take(flat, tables.sort, axis=1), nb)  # (N, B * (H_o + 1))
    total = cum.reshape(n, nb, -1)[:, :, -1:]
    # Beaten minus beating = below + not_above - total, over all holdings...
    ranks = xp.take(cum, tables.rank.ravel(), axis=1).reshape(n, 2, nb, -1)
    margin = ranks[:, 0] + ranks[:, 1] - total
    # ... less the same over the holdings that share the hero's first card, and its second.
    padded = xp.concatenate([reach, xp.zeros((n, nb, 1))], axis=2).reshape(n, -1)
    card_cum = _prefix(xp, xp.take(padded, tables.card_sort, axis=1), nb * NUM_CARDS)
    parts = xp.take(card_cum, tables.card_rank.ravel(), axis=1).reshape(n, 3, 2, nb, -1).sum(axis=2)
    return margin - (parts[:, 0] + parts[:, 1] - parts[:, 2])
