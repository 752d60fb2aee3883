"""Batched Poker-CNN tensors (``poker_envs.encoders.poker_cnn``, 33x17x17) of each table's seat to act.

The planes, fill code and cell layout are the single-table encoder's (its module doc); the betting
history planes read the engine's per-table history (``Tables.hist_kind`` / ``hist_added``, kept when
``Rules.history`` is ``HISTORY``) and the position plane ``Tables.folded_at_start``. Values are
computed as the single-table encoder computes them (float64 fill code rounded to float32), so the
tensors are bit-identical; the candidate-action planes 31-32 are zero, as in environment observations.
"""

from __future__ import annotations

import numpy as np

from poker_envs.encoders.poker_cnn import (
    CELL, CUR_AMOUNTS, CUR_TYPES, FLOP, HISTORY, HOLE, NUM_CELLS, NUM_PLANES, PLANE_SIZE, POSITION, POT,
    PREV_AMOUNTS, PREV_TYPES, RIVER, ROUNDS, SIDE, TURN, VISIBLE, fill_code, to_planes,
)
from poker_envs.vector._holdem_kernels import Rules, Tables, rotations

SHAPE = (NUM_PLANES, SIDE, SIDE)
_CELL = np.array(CELL, dtype=np.int64)  # card id -> flat cell inside a 17x17 plane
_BOARD_PLANES = np.array([FLOP, FLOP, FLOP, TURN, RIVER], dtype=np.int64) * PLANE_SIZE  # by board slot
_TABLE = to_planes(fill_code(np.arange(NUM_CELLS + 1), np.float32))  # plane whose first v cells are set, v = 0..52
# Planes of the fill-coded chip amounts: the pot, then this street's and the last street's actions.
_AMOUNT_PLANES = np.concatenate([[POT], CUR_AMOUNTS + np.arange(HISTORY), PREV_AMOUNTS + np.arange(HISTORY)])


def position_codes(t: Tables, rules: Rules) -> np.ndarray:
    """(B,) cells set in the position plane: round(52 f), f = the seat's place in this street's acting order
    (0 first .. 1 last; ``encoders._holdem.position_fraction``)."""
    n = rules.n
    p = t.player.astype(np.int64)
    button = t.button.astype(np.int64)
    preflop = t.street == 0
    if n == 2:  # pre-flop the button acts first, later the big blind
        first = np.where(preflop, button, button + 1) % 2
        frac = np.where(p == first, 0.0, 1.0)
    else:  # the order runs from the first to act over the seats in when the street began, and the observer
        first = np.where(preflop, button + 3, button + 1) % n
        order = rotations(n)[first]
        rows = np.arange(len(p))[:, None]
        inside = ~t.folded_at_start[rows, order] | (order == p[:, None])
        place = (p - first) % n
        index = (inside & (np.arange(n) < place[:, None])).sum(1)
        length = inside.sum(1)
        frac = np.where(length >= 2, index / np.maximum(length - 1, 1), 0.0)
    return (NUM_CELLS * frac + 0.5).astype(np.int64)


def encode_poker_cnn(t: Tables, rules: Rules) -> np.ndarray:
    """(B, 33, 17, 17) float32 Poker-CNN tensors of each table's seat to act (candidate planes zero)."""
    n = rules.n
    b = len(t.player)
    rows = np.arange(b)
    sb = rules.small_blind
    street = t.street.astype(np.int64)
    codes = np.zeros((b, NUM_PLANES), dtype=np.int64)
    codes[:, ROUNDS : ROUNDS + 3] = np.where(np.arange(3) < (3 - street)[:, None], NUM_CELLS, 0)
    codes[:, POSITION] = position_codes(t, rules)
    codes[:, CUR_TYPES : CUR_TYPES + HISTORY] = t.hist_kind[:, 0]
    codes[:, PREV_TYPES : PREV_TYPES + HISTORY] = t.hist_kind[:, 1]
    chips = np.concatenate([t.contributed.sum(1, dtype=np.int64)[:, None], t.hist_added[:, 0], t.hist_added[:, 1]], 1)
    codes[:, _AMOUNT_PLANES] = np.minimum(chips // sb, NUM_CELLS)
    out = _TABLE.take(codes.reshape(-1), axis=0).reshape(b, *SHAPE)
    if sb != 1:  # amounts that are not whole small blinds fill their last cell in part
        r, j = np.nonzero(chips % sb)
        if r.size:
            out[r, _AMOUNT_PLANES[j]] = to_planes(fill_code(chips[r, j] / sb, np.float32))
    # Cards: the hole cards (planes 0, 1), the board seen by slot (2-4), all of them (5). An unseen board
    # card repeats the first hole card's entry (set anyway), so the write needs no mask.
    k = (t.player.astype(np.int64) - t.button - 1) % n  # the seat's place in the dealing order
    hole = np.stack([t.deck[rows, k], t.deck[rows, k + n]], axis=1).astype(np.int64)
    board = t.deck[:, 2 * n :].astype(np.int64)
    seen = np.arange(5) < rules.board_seen[street][:, None]
    first = HOLE * PLANE_SIZE + _CELL[hole[:, :1]]
    flat = np.concatenate([
        (HOLE + np.arange(2)) * PLANE_SIZE + _CELL[hole],
        VISIBLE * PLANE_SIZE + _CELL[hole],
        np.where(seen, _BOARD_PLANES + _CELL[board], first),
        np.where(seen, VISIBLE * PLANE_SIZE + _CELL[board], first),
    ], axis=1)
    out.reshape(-1)[(rows * (NUM_PLANES * PLANE_SIZE))[:, None] + flat] = 1.0
    return out
