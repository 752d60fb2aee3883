"""Showdowns in JAX: the batched hand evaluator and the pot settlement (``settle_batch``), traced into the engines' ``step``.

Both follow the numpy functions they mirror, and the differential tests bind them: hand values are
``core.evaluator.evaluate_batch``'s (the same lookup tables, ``evaluator.lookup_tables``); chips are
``core.settlement.settle_batch``'s (the same layers, pots, odd-chip rules and rake). JAX runs without
64-bit types by default, so chips are int32 (the engines refuse stacks that sum to 2**31 or more),
hand values int32, and exact (fractional) shares float32.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import jax
import jax.numpy as jnp
import numpy as np

from poker_envs.core.evaluator import lookup_tables
from poker_envs.core.ranking import HandRanking

_LOWEST = np.iinfo(np.int32).min


@lru_cache(maxsize=None)
def _tables(ranking: HandRanking, size: int = 7) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    t = lookup_tables(size, ranking)
    return t.rank_keys.astype(np.int32), t.rank_table.astype(np.int32), t.flush_table.astype(np.int32)


def evaluate7(cards: jnp.ndarray, ranking: HandRanking) -> jnp.ndarray:
    """Values (int32, shape ``cards.shape[:-1]``) of hands ``cards`` (..., k) of 5 to 7 distinct card ids (the
    best five of them; the name is the hold'em case, k = 7)."""
    rank_keys, rank_table, flush_table = _tables(ranking, cards.shape[-1])
    ranks = cards >> 2
    suits = cards & 3
    key = jnp.asarray(rank_keys)[ranks].sum(-1)
    in_suit = suits[..., None] == jnp.arange(4)  # (..., k, 4)
    counts = in_suit.sum(-2)
    flush = counts >= 5  # at most one suit can hold five of seven cards
    suit = jnp.argmax(flush, axis=-1)
    mask = jnp.where(suits == suit[..., None], 1 << ranks, 0).sum(-1)  # distinct cards: the sum is an OR
    return jnp.where(flush.any(-1), jnp.asarray(flush_table)[mask], jnp.asarray(rank_table)[key])


def evaluate_hands(hole: jax.Array, board: jax.Array, ranking: HandRanking, rule: str) -> jax.Array:
    """Values (int32, shape ``hole.shape[:-1]``) of hole cards (..., h) with boards (..., b) under the hand rule
    (``core.hand_rules``): the best five of all (``"best_five"``), or of every two-from-hand x three-from-board
    combination (``"omaha"``), as ``hand_rules.evaluate_hands``."""
    if rule == "best_five":
        return evaluate7(jnp.concatenate([hole, board], axis=-1), ranking)
    pairs = np.array(list(itertools.combinations(range(hole.shape[-1]), 2)))
    triples = np.array(list(itertools.combinations(range(board.shape[-1]), 3)))
    two = hole[..., pairs]  # (..., P, 2)
    three = board[..., triples]  # (..., T, 3)
    lead = two.shape[:-2]
    five = jnp.concatenate([
        jnp.broadcast_to(two[..., :, None, :], (*lead, len(pairs), len(triples), 2)),
        jnp.broadcast_to(three[..., None, :, :], (*lead, len(pairs), len(triples), 3)),
    ], axis=-1)
    return evaluate7(five, ranking).reshape(*lead, -1).max(-1)


def sort_rows(x: jax.Array) -> jax.Array:
    """Each row of ``x`` (B, n) ascending, from every entry's rank (n**2 comparisons; XLA's sort is slow on CPU)."""
    seats = jnp.arange(x.shape[1])
    before = (x[:, None, :] < x[:, :, None]) | ((x[:, None, :] == x[:, :, None]) & (seats < seats[:, None]))
    rank = before.sum(2)  # (B, n): the place of each entry in ascending order (ties by seat)
    return (x[:, :, None] * (rank[:, :, None] == seats)).sum(1).astype(x.dtype)


def _winners(eligible: jnp.ndarray, strengths: jnp.ndarray) -> jnp.ndarray:
    masked = jnp.where(eligible, strengths, _LOWEST)
    return eligible & (masked == masked.max(axis=1, keepdims=True))


def _merge(layers: list[tuple[jnp.ndarray, jnp.ndarray]]) -> list[tuple[jnp.ndarray, jnp.ndarray]]:
    """Pool adjacent layers of the same eligible seats into pots; a row's pot that does not close at a
    layer is listed with amount 0 and the eligible seats of the pot still open (so it pools with it)."""
    amount, eligible = layers[0]
    pots = []
    for more, who in layers[1:]:
        changed = jnp.any(who != eligible, axis=1)
        pots.append((jnp.where(changed, amount, 0), eligible))
        amount = jnp.where(changed, more, amount + more)
        eligible = jnp.where(changed[:, None], who, eligible)
    pots.append((amount, eligible))
    return pots


def settle_batch(
    contributed: jnp.ndarray, folded: jnp.ndarray, strengths: jnp.ndarray, button: jnp.ndarray, *,
    odd_chips: str = "per_pot", exact: bool = False, rake: float = 0.0, rake_cap: float | None = None,
) -> jnp.ndarray:
    """Chips each seat collects (B, n), as ``settle_batch`` with the same arguments (no dead pot).

    ``contributed`` int32 (float32 with ``exact``); every table needs a live seat (not checked here).
    """
    b, n = contributed.shape
    live = ~folded
    levels = sort_rows(contributed)
    top_live = jnp.max(jnp.where(live, contributed, 0), axis=1)[:, None]  # the highest level a live seat reaches
    top_set = live & (contributed >= top_live)
    layers = []
    previous = jnp.zeros_like(levels[:, 0])
    for k in range(n):  # a repeated level makes an empty layer with the eligible seats of the one below
        level = levels[:, k]
        reach = contributed >= level[:, None]
        count = reach.sum(axis=1)
        eligible = jnp.where((count == 1)[:, None], reach, jnp.where(level[:, None] > top_live, top_set, reach & live))
        layers.append(((level - previous) * count.astype(levels.dtype), eligible))
        previous = level
    pots = _merge(layers)
    contested = [e.sum(axis=1) > 1 for _, e in pots]
    if odd_chips == "pooled":  # hands that win no pot are mucked; pots of the remaining hands pooled
        alive = jnp.zeros_like(live)
        for amount, eligible in pots:
            alive |= _winners(eligible, strengths) & (amount > 0)[:, None]
        pots = [(a, e & alive) for a, e in pots]
    won = jnp.zeros((b, n), dtype=contributed.dtype)
    if rake:
        raked = sum((jnp.where(c, a, 0) for (a, _), c in zip(pots, contested)), jnp.zeros(b, contributed.dtype))
        total = rake * raked if rake_cap is None else jnp.minimum(rake * raked, rake_cap)
        share = jnp.where(raked > 0, total / jnp.where(raked > 0, raked, 1), 0)
        pots = [(a - jnp.where(c, a * share, 0), e) for (a, e), c in zip(pots, contested)]
    if odd_chips == "pooled":
        pots = _merge(pots)
    seats = jnp.arange(n)
    order = (button[:, None] + 1 + seats) % n  # seats clockwise from the one left of the button
    place = (seats - button[:, None] - 1) % n  # each seat's index in ``order``
    for amount, eligible in pots:
        winners = _winners(eligible, strengths)
        count = jnp.maximum(winners.sum(axis=1), 1)  # empty only for pots of 0 chips
        if exact:
            won += winners * (amount / count)[:, None]
            continue
        share, odd = amount // count, amount % count
        won += winners * share[:, None]
        rank = jnp.cumsum(jnp.take_along_axis(winners, order, axis=1), axis=1)  # 1 = first winner clockwise
        bonus = (rank <= odd[:, None]) if odd_chips == "per_pot" else jnp.where(rank == 1, odd[:, None], 0)
        won += winners * jnp.take_along_axis(bonus.astype(won.dtype), place, axis=1)
    if exact and not rake:  # one live seat that put in the most takes the whole pot, as settle_batch pays it
        alone = (live.sum(1) == 1) & (jnp.where(live, contributed, -jnp.inf).max(1) == contributed.max(1))
        won = jnp.where(alone[:, None], live * contributed.sum(1)[:, None], won)
    return won
