"""The Poker-CNN tensor of 000_15d38e321f106268.txt (its Table 2 plus the pot plane).

33 planes, each a 13x4 grid (row = rank 2..A, column = suit c, d, h, s, so the cell of card ``c``
is cell ``c`` in row-major order), zero-padded to 17x17 with the grid at rows 2..14, columns 6..9.

======  =====================================================================================
planes  meaning
======  =====================================================================================
0, 1    own hole cards, one per plane, in the order dealt
2, 3, 4 community cards by round: flop (three cards), turn, river
5       every card the player sees (hole cards and board)
6       pot: all chips put in so far this hand (antes, blinds, bets of every street), fill code
7-9     rounds remaining after this one (3 pre-flop .. 0 on the river): the first r planes all 1
10      position in this street's acting order: fraction f (0 first .. 1 last) fills round(52 f)
        cells, so heads-up it is all 0 for the first to act and all 1 for the second
11-15   types of the last 5 actions of this street, latest first (fill code: 1 fold, 2 check,
        3 call, 4 bet, 5 raise; 0 no action); blinds and antes are not actions
16-20   chips each of those actions put in, fill code
21-25   types of the last 5 actions of the previous street, latest first
26-30   chips each of those put in
31, 32  candidate action: type and chips it puts in (zero in environment observations)
======  =====================================================================================

Fill code (the paper's): an amount of v small blinds sets the first v cells (4 small blinds fill
the first rank row of 4 suits), 52 or more set every cell. A fractional amount sets the next
cell to its fractional part (float32) or is truncated to whole small blinds (uint8).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from poker_envs.encoders._holdem import (
    action_added,
    check_player,
    holdem_reason,
    position_fraction,
    street_records,
    unit,
)
from poker_envs.encoders.base import Encoder
from poker_envs.games.base import Game

NUM_PLANES = 33
SIDE = 17
ROW0, COL0 = 2, 6  # top-left corner of the 13x4 grid inside the 17x17 plane
NUM_CELLS = 52
HISTORY = 5  # actions kept per street

HOLE, FLOP, TURN, RIVER, VISIBLE, POT = 0, 2, 3, 4, 5, 6
ROUNDS, POSITION = 7, 10
CUR_TYPES, CUR_AMOUNTS, PREV_TYPES, PREV_AMOUNTS = 11, 16, 21, 26
ACTION_TYPE, ACTION_AMOUNT = 31, 32
NO_ACTION = 0  # type code of an empty history slot; an action of kind k has code k + 1

# The fill-coded planes whose values a state sets, in the order of the value vector of _state_cells.
_FILL_PLANES = np.array([POT, POSITION, *range(CUR_TYPES, ACTION_TYPE)], dtype=np.intp)
_ARANGE = np.arange(NUM_CELLS, dtype=np.float64)


def fill_code(values: np.ndarray | Sequence[float], dtype: np.dtype | type = np.float32) -> np.ndarray:
    """The paper's number code: ``values`` (in small blinds) of shape S -> cells of shape S + (52,).

    Cell i is ``clip(v - i, 0, 1)``: whole units fill whole cells in card order (rank row by rank
    row), a fraction part fills the next cell partly; uint8 keeps whole units only.
    """
    v = np.asarray(values, dtype=np.float64)[..., None]
    if np.dtype(dtype) == np.uint8:
        return (_ARANGE < np.floor(v)).astype(np.uint8)
    return np.clip(v - _ARANGE, 0.0, 1.0).astype(dtype)


def to_planes(cells: np.ndarray) -> np.ndarray:
    """(..., 52) cell values -> (..., 17, 17) planes with the 13x4 grid at rows 2..14, columns 6..9."""
    out = np.zeros(cells.shape[:-1] + (SIDE, SIDE), dtype=cells.dtype)
    out[..., ROW0 : ROW0 + 13, COL0 : COL0 + 4] = cells.reshape(cells.shape[:-1] + (13, 4))
    return out


class PokerCNNEncoder(Encoder):
    """33x17x17 Poker-CNN tensor of one player's view; candidate-action planes via ``encode_actions``."""

    name = "poker_cnn"

    def __init__(self, game: Game, dtype: str | np.dtype | type = np.float32) -> None:
        """``dtype``: float32 (default) or uint8 (a quarter of the memory; fractions truncated)."""
        dt = np.dtype(dtype)
        if dt not in (np.dtype(np.float32), np.dtype(np.uint8)):
            raise ValueError(f"dtype must be float32 or uint8, got {dt}")
        super().__init__(game)
        self.dtype = dt
        self.observation_space = spaces.Box(0, 1, shape=(NUM_PLANES, SIDE, SIDE), dtype=dt)

    def unsupported_reason(self, game: Game) -> str | None:
        return holdem_reason(game, "the Poker-CNN tensor")

    # ---------------------------------------------------------------------------------------
    def _state_cells(self, state: Any, player: int, out: np.ndarray) -> None:
        """Write the state's 33x52 cells (candidate planes left as they are) into ``out``."""
        check_player(state, player)
        sb = unit(state)
        hole = state.hole[player] if player < len(state.hole) else []
        board = state.board
        for i, card in enumerate(hole[:2]):
            out[HOLE + i, card] = 1
        if board:
            out[FLOP, board[:3]] = 1
            if len(board) > 3:
                out[TURN, board[3]] = 1
                if len(board) > 4:
                    out[RIVER, board[4]] = 1
            out[VISIBLE, board] = 1
        if hole:
            out[VISIBLE, hole] = 1
        street = state.street
        remaining = 3 - street
        if remaining > 0:
            out[ROUNDS : ROUNDS + remaining] = 1
        values = [0.0] * len(_FILL_PLANES)
        values[0] = sum(state.contributed) / sb
        values[1] = float(int(NUM_CELLS * position_fraction(state, player) + 0.5))
        for base, st in ((2, street), (2 + 2 * HISTORY, street - 1)):
            recs = street_records(state, st)
            for j, rec in enumerate(reversed(recs[-HISTORY:])):
                values[base + j] = rec.kind + 1
                values[base + HISTORY + j] = rec.added / sb
        out[_FILL_PLANES] = fill_code(values, self.dtype)

    def _candidates(self, state: Any, player: int, actions: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """(kinds FOLD=0..RAISE=4, chips each puts in) of candidate discrete actions of the player to act."""
        to_act = state.current_player()
        if player != to_act:
            raise ValueError(f"candidate actions are for the player to act ({to_act}), not player {player}")
        legal = set(state.legal_actions())
        bad = [int(a) for a in actions if int(a) not in legal]
        if bad:
            raise ValueError(f"actions {bad} are not legal here; legal actions: {sorted(legal)}")
        kinds = np.empty(len(actions), dtype=np.float64)
        added = np.empty(len(actions), dtype=np.float64)
        for i, a in enumerate(actions):
            kind, raise_to = state.action_to_chips(int(a))
            kinds[i] = kind
            added[i] = action_added(state, player, kind, raise_to)
        return kinds, added

    # ---------------------------------------------------------------------------------------
    def encode(self, state: Any, player: int) -> np.ndarray:
        cells = np.zeros((NUM_PLANES, NUM_CELLS), dtype=self.dtype)
        self._state_cells(state, player, cells)
        return to_planes(cells)

    def encode_with_action(self, state: Any, player: int, action: int) -> np.ndarray:
        """The tensor of ``state`` with the candidate ``action`` (a discrete id) in planes 31-32."""
        return self.encode_actions(state, player, [action])[0]

    def encode_actions(self, state: Any, player: int, actions: Sequence[int]) -> np.ndarray:
        """(K, 33, 17, 17): one state with each of K candidate actions; state planes built once."""
        kinds, added = self._candidates(state, player, actions)
        return self.encode_kinds(state, player, kinds, added)

    def encode_kinds(
        self, state: Any, player: int, kinds: np.ndarray | Sequence[int], added: np.ndarray | Sequence[float]
    ) -> np.ndarray:
        """(K, 33, 17, 17) from candidate action kinds (FOLD=0..RAISE=4) and the chips each puts in.

        For callers that know the actions in chips rather than discrete ids (hand-history replay).
        """
        kinds = np.asarray(kinds, dtype=np.float64)
        added = np.asarray(added, dtype=np.float64)
        if kinds.shape != added.shape or kinds.ndim != 1:
            raise ValueError(f"kinds and added must be 1-D of one length, got {kinds.shape} and {added.shape}")
        if np.any((kinds < 0) | (kinds > 4)) or np.any(added < 0):
            raise ValueError("kinds must be in 0..4 (fold, check, call, bet, raise) and added chips >= 0")
        cells = np.zeros((NUM_PLANES, NUM_CELLS), dtype=self.dtype)
        self._state_cells(state, player, cells)
        base = to_planes(cells)
        out = np.empty((len(kinds), NUM_PLANES, SIDE, SIDE), dtype=self.dtype)
        out[:] = base
        rows, cols = slice(ROW0, ROW0 + 13), slice(COL0, COL0 + 4)
        out[:, ACTION_TYPE, rows, cols] = fill_code(kinds + 1, self.dtype).reshape(-1, 13, 4)
        out[:, ACTION_AMOUNT, rows, cols] = fill_code(added / unit(state), self.dtype).reshape(-1, 13, 4)
        return out

    def encode_batch(
        self, states: Sequence[Any], players: Sequence[int], actions: Sequence[int] | None = None
    ) -> np.ndarray:
        """(N, 33, 17, 17) for N (state, player) pairs, each optionally with its candidate action id."""
        if len(players) != len(states) or (actions is not None and len(actions) != len(states)):
            raise ValueError(
                f"states, players and actions must have one length, got {len(states)}, {len(players)}, "
                f"{None if actions is None else len(actions)}"
            )
        cells = np.zeros((len(states), NUM_PLANES, NUM_CELLS), dtype=self.dtype)
        if actions is not None:
            values = np.empty((len(states), 2), dtype=np.float64)
        for i, (state, player) in enumerate(zip(states, players)):
            self._state_cells(state, player, cells[i])
            if actions is not None:
                kinds, added = self._candidates(state, player, [actions[i]])
                values[i] = kinds[0] + 1, added[0] / unit(state)
        if actions is not None:
            cells[:, ACTION_TYPE : ACTION_AMOUNT + 1] = fill_code(values, self.dtype)
        return to_planes(cells)
