"""Batched hold'em observations for each table's seat to act, equal to the single-table encoders'.

``encode_default`` writes the layout of ``poker_envs.encoders.holdem_default`` (see its module doc)
for every table at once; values are computed in float64 and rounded to float32 exactly as the
single-table encoder does, so the arrays are bit-identical.
"""

from __future__ import annotations

import numpy as np

from poker_envs.encoders import flat56, flat107, holdem_default
from poker_envs.vector._holdem_kernels import Rules, Tables, rotations


default_size = holdem_default.size  # length of the default observation for n seats


def card_entries(t: Tables, rules: Rules, hole_at: int, board_at: int) -> np.ndarray:
    """(B, hole + board) entries of a one-hot write of the hole cards (at ``hole_at + card``) and the board
    cards seen (at ``board_at + card``) of each table's seat to act; an unseen board card repeats the first
    hole card's entry (1 anyway), so the write needs no mask."""
    n, h = rules.n, rules.hole
    rows = np.arange(len(t.player))
    k = (t.player.astype(np.int64) - t.button - 1) % n  # the seat's place in the dealing order
    hole = np.stack([t.deck[rows, k + i * n] for i in range(h)], axis=1).astype(np.int64) + hole_at
    board_cards = t.deck[:, n * h :]
    seen = np.arange(board_cards.shape[1]) < rules.board_seen[t.street][:, None]
    board = np.where(seen, board_cards.astype(np.int64) + board_at, hole[:, :1])
    return np.concatenate([hole, board], axis=1)


def encode_flat56(t: Tables, rules: Rules) -> np.ndarray:
    """(B, 56) float32 ``flat56`` observations (``poker_envs.encoders.flat56``) of each table's seat to act."""
    b = len(t.player)
    rows = np.arange(b)
    p = t.player.astype(np.int64)
    sb = float(rules.small_blind)
    obs = np.zeros((b, flat56.SIZE), dtype=np.float32)
    bets = t.bets
    others = bets.copy()
    others[rows, p] = np.iinfo(np.int32).min
    obs[:, flat56.STACK] = (t.stacks[rows, p] - rules.stacks[p]) / sb
    obs[:, flat56.POT] = (t.contributed.sum(1) - bets.sum(1)) / sb
    obs[:, flat56.OWN_BET] = bets[rows, p] / sb
    obs[:, flat56.OPP_BET] = others.max(1) / sb
    obs.reshape(-1)[(rows * flat56.SIZE)[:, None] + card_entries(t, rules, flat56.CARDS, flat56.CARDS)] = 1.0
    return obs


def encode_flat107(t: Tables, rules: Rules) -> np.ndarray:
    """(B, 107) float32 ``flat107`` observations (``poker_envs.encoders.flat107``) of each table's seat to act."""
    b = len(t.player)
    rows = np.arange(b)
    obs = np.zeros((b, flat107.SIZE), dtype=np.float32)
    obs[:, flat107.BET] = t.bets.max(1) / float(rules.small_blind)
    obs[:, flat107.ACTIVE] = rules.n - t.folded.sum(1)
    obs[:, flat107.ACTIVE_AT_START] = t.active_at_start
    obs.reshape(-1)[(rows * flat107.SIZE)[:, None] + card_entries(t, rules, flat107.HOLE, flat107.BOARD)] = 1.0
    return obs


def encode_default(
    t: Tables, rules: Rules, can: np.ndarray, low: np.ndarray, high: np.ndarray, owe: np.ndarray
) -> np.ndarray:
    """(B, 108 + 6n + 6) float32 default observations of each table's seat to act.

    ``can``, ``low``, ``high``, ``owe`` are the raise range and chips owed of ``raise_range``.
    """
    n = rules.n
    b = len(t.player)
    inv = 1.0 / rules.big_blind
    size = default_size(n)
    obs = np.zeros((b, size), dtype=np.float32)
    rows = np.arange(b)
    p = t.player.astype(np.int64)
    button = t.button.astype(np.int64)
    street = t.street.astype(np.int64)
    d = holdem_default
    hot = np.concatenate(
        [card_entries(t, rules, 0, d.BOARD), (d.STREET + street)[:, None], (d.POSITION + (p - button) % n)[:, None]], axis=1
    )
    obs.reshape(-1)[(rows * size)[:, None] + hot] = 1.0
    r, order = rows[:, None], rotations(n)[p]  # observer first, clockwise
    stacks = t.stacks[r, order]
    folded = t.folded[r, order]
    seats = np.empty((b, n, d.SEAT_FIELDS), dtype=np.float64)
    seats[:, :, 0] = stacks * inv
    seats[:, :, 1] = t.bets[r, order] * inv
    seats[:, :, 2] = t.contributed[r, order] * inv
    seats[:, :, 3] = folded
    seats[:, :, 4] = (stacks == 0) & ~folded
    start = d.POSITION + n
    obs[:, start : start + d.SEAT_FIELDS * n] = seats.reshape(b, d.SEAT_FIELDS * n)
    stack = t.stacks[rows, p]
    tail = np.empty((b, d.TAIL), dtype=np.float64)
    tail[:, 0] = t.contributed.sum(1) * inv
    tail[:, 1] = np.minimum(owe, stack) * inv
    tail[:, 2] = np.where(can, low * inv, 0.0)
    tail[:, 3] = np.where(can, high * inv, 0.0)
    tail[:, 4] = can
    tail[:, 5] = (n - t.folded.sum(1)) / n
    obs[:, start + d.SEAT_FIELDS * n :] = tail
    return obs
