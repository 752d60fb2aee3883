"""The public betting state (``poker_envs.encoders.public``) of every table's seat to act, as one array.

``encode_public_batch`` writes the layout of ``encoders.public`` (14 scalars, then six blocks of one entry
per environment seat) for each table of a ``Tables``, equal to what the AEC environment puts in
``observation["public"]`` for the same hand: seats are the environment's, a seat eliminated from a session
has zeros and ``seated`` 0, and on a pass turn of a hand the forced bets decided nobody acts (``actor`` -1).
"""

from __future__ import annotations

import numpy as np

from poker_envs.encoders.public import NUM_SCALARS, SCALARS, SEAT_FIELDS, public_size
from poker_envs.vector._holdem_kernels import Tables

_AT = {name: i for i, name in enumerate(SCALARS)}


def encode_public_batch(
    t: Tables,
    can: np.ndarray,
    low: np.ndarray,
    high: np.ndarray,
    owe: np.ndarray,
    blinds: np.ndarray,
    hand_number: np.ndarray | int = 0,
    level: np.ndarray | int = 0,
    seated: np.ndarray | None = None,
) -> np.ndarray:
    """(B, 14 + 6n) float32 public vectors seen by each table's seat to act.

    ``can``, ``low``, ``high``, ``owe``: ``raise_range`` of the tables (``can`` already False on pass
    turns); ``blinds``: (3,) or (B, 3) small blind, big blind and ante of the hand; ``hand_number`` and
    ``level``: the session position (scalars or (B,)); ``seated``: (B, n) seats in play (None: all).
    """
    b, n = t.stacks.shape
    rows = np.arange(b)
    p = t.player.astype(np.int64)
    out = np.zeros((b, public_size(n)), dtype=np.float32)
    stack = t.stacks[rows, p]
    out[:, _AT["pot"]] = t.contributed.sum(1)
    out[:, _AT["to_call"]] = np.minimum(owe, stack)  # the seat to act never folded
    out[:, _AT["min_raise_to"]] = np.where(can, low, 0)
    out[:, _AT["max_raise_to"]] = np.where(can, high, 0)
    out[:, _AT["can_raise"]] = can
    out[:, _AT["street"]] = t.street
    out[:, _AT["button"]] = t.button
    out[:, _AT["actor"]] = np.where(t.passing, -1, p)
    out[:, _AT["observer"]] = p
    out[:, _AT["small_blind"] : _AT["ante"] + 1] = blinds
    out[:, _AT["hand_number"]] = hand_number
    out[:, _AT["level"]] = level
    block = out[:, NUM_SCALARS:].reshape(b, len(SEAT_FIELDS), n)
    block[:, 0] = t.stacks
    block[:, 1] = t.bets
    block[:, 2] = t.contributed
    block[:, 3] = t.folded
    block[:, 4] = (t.stacks == 0) & ~t.folded
    if seated is None:
        block[:, 5] = 1.0
    else:
        block *= seated[:, None, :]  # an eliminated seat (folded, no chips in the tables) is all zeros
        block[:, 5] = seated
    return out
