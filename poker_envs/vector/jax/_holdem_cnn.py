"""Poker-CNN tensors (33x17x17, ``encoders.poker_cnn``) in JAX: the numpy ``_holdem_cnn`` over a ``HoldemTables``.

Every plane is a fill code of one number per plane (cards aside): the number of cells to set, fractional
for chip amounts that are not whole small blinds. The numbers are those of ``_holdem_cnn.encode_poker_cnn``
(the position code in exact integer arithmetic); the cells come out in float32, as there.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from poker_envs.encoders.poker_cnn import (
    CELL, COL0, CUR_AMOUNTS, CUR_TYPES, FLOP, HISTORY, HOLE, NUM_CELLS, NUM_PLANES, PLANE_SIZE, POSITION, POT,
    PREV_AMOUNTS, PREV_TYPES, RIVER, ROUNDS, ROW0, SIDE, TURN, VISIBLE,
)
from poker_envs.vector.holdem import Rules
from poker_envs.vector.holdem_reads import seat_values
from poker_envs.vector.jax._holdem_kernels import HoldemTables

SHAPE = (NUM_PLANES, SIDE, SIDE)
_CELL = np.array(CELL, dtype=np.int32)  # card id -> flat cell inside a 17x17 plane
_BOARD_PLANES = np.array([FLOP, FLOP, FLOP, TURN, RIVER], dtype=np.int32) * PLANE_SIZE  # by board slot


def position_codes(s: HoldemTables, rules: Rules) -> jax.Array:
    """(B,) cells of the position plane: round(52 f), f the seat's place in this street's acting order."""
    n = rules.n
    p, button = s.player, s.button
    preflop = s.street == 0
    if n == 2:  # pre-flop the button acts first, later the big blind
        first = jnp.where(preflop, button, button + 1) % 2
        return jnp.where(p == first, 0, NUM_CELLS)
    first = jnp.where(preflop, button + 3, button + 1) % n
    order = (first[:, None] + jnp.arange(n)) % n
    inside = ~jnp.take_along_axis(s.folded_at_start, order, 1) | (order == p[:, None])
    place = (p - first) % n
    index = (inside & (jnp.arange(n) < place[:, None])).sum(1)
    gaps = jnp.maximum(inside.sum(1) - 1, 1)
    return jnp.where(inside.sum(1) >= 2, (2 * NUM_CELLS * index + gaps) // (2 * gaps), 0)  # floor(52 i / g + 1/2)


def encode_poker_cnn(s: HoldemTables, rules: Rules) -> jax.Array:
    """(B, 33, 17, 17) float32 Poker-CNN tensors of each table's seat to act (candidate planes zero)."""
    n = rules.n
    b = s.player.shape[0]
    sb = rules.small_blind
    street = s.street
    chips = jnp.concatenate([s.contributed.sum(1)[:, None], s.hist_added[:, 0], s.hist_added[:, 1]], axis=1)
    whole = jnp.zeros((b, NUM_PLANES), jnp.int32)  # cells set in full
    whole = whole.at[:, ROUNDS : ROUNDS + 3].set(jnp.where(jnp.arange(3) < (3 - street)[:, None], NUM_CELLS, 0))
    whole = whole.at[:, POSITION].set(position_codes(s, rules))
    whole = whole.at[:, CUR_TYPES : CUR_TYPES + HISTORY].set(s.hist_kind[:, 0])
    whole = whole.at[:, PREV_TYPES : PREV_TYPES + HISTORY].set(s.hist_kind[:, 1])
    amount_planes = np.concatenate([[POT], CUR_AMOUNTS + np.arange(HISTORY), PREV_AMOUNTS + np.arange(HISTORY)])
    whole = whole.at[:, amount_planes].set(chips // sb)
    part = jnp.zeros((b, NUM_PLANES), jnp.float32).at[:, amount_planes].set((chips % sb) / jnp.float32(sb))
    i = jnp.arange(NUM_CELLS)
    cells = jnp.where(i < whole[..., None], 1.0, jnp.where(i == whole[..., None], part[..., None], 0.0))  # (B, 33, 52)
    out = jnp.zeros((b, NUM_PLANES, SIDE, SIDE), jnp.float32)
    out = out.at[:, :, ROW0 : ROW0 + 13, COL0 : COL0 + 4].set(cells.reshape(b, NUM_PLANES, 13, 4))
    # Cards: hole cards (planes 0, 1), the board seen by slot (2-4), all of them (5); an unseen board card
    # repeats the first hole card's entry (set anyway).
    place = (s.player - s.button - 1) % n
    hole = jnp.stack([seat_values(s.deck, place), seat_values(s.deck, place + n)], axis=1)
    board = s.deck[:, 2 * n :]
    seen = jnp.arange(5) < jnp.asarray(rules.board_seen, dtype=jnp.int32)[street][:, None]
    cell = jnp.asarray(_CELL)
    first = HOLE * PLANE_SIZE + cell[hole[:, :1]]
    flat = jnp.concatenate([
        (HOLE + jnp.arange(2)) * PLANE_SIZE + cell[hole],
        VISIBLE * PLANE_SIZE + cell[hole],
        jnp.where(seen, jnp.asarray(_BOARD_PLANES) + cell[board], first),
        jnp.where(seen, VISIBLE * PLANE_SIZE + cell[board], first),
    ], axis=1)
    out = out.reshape(b, -1).at[jnp.arange(b)[:, None], flat].set(1.0)
    return out.reshape(b, *SHAPE)
