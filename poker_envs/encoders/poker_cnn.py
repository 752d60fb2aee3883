"""The Poker-CNN tensor of Hwang & Kaneko (its Table 2 plus the pot plane).

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
    view,
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

PLANE_SIZE = SIDE * SIDE
# Flat position of card c's cell inside a 17x17 plane.
CELL = [(ROW0 + c // 4) * SIDE + COL0 + c % 4 for c in range(NUM_CELLS)]
_ARANGE = np.arange(NUM_CELLS, dtype=np.float64)
# _CARD_INDEX[plane][c]: flat index of card c's cell in a (33, 17, 17) tensor.
_CARD_INDEX = [[plane * PLANE_SIZE + CELL[c] for c in range(NUM_CELLS)] for plane in range(NUM_PLANES)]
_BOARD_INDEX = [_CARD_INDEX[plane] for plane in (FLOP, FLOP, FLOP, TURN, RIVER)]  # by board slot
_ALL_SET = [NUM_CELLS] * 3


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
        try:
            dt = np.dtype(dtype)
        except TypeError:
            dt = None
        if dt not in (np.dtype(np.float32), np.dtype(np.uint8)):
            raise ValueError(f"dtype must be float32 or uint8, got {dtype!r}")
        super().__init__(game)
        self.dtype = dt
        self._uint8 = dt == np.uint8
        self.observation_space = spaces.Box(0, 1, shape=(NUM_PLANES, SIDE, SIDE), dtype=dt)
        # _table[v] is the 17x17 plane whose first v cells are set (v = 0..52): every whole-unit
        # fill code, so a state's 33 planes are one gather from it.
        self._table = to_planes(fill_code(np.arange(NUM_CELLS + 1), dt))

    def unsupported_reason(self, game: Game) -> str | None:
        return holdem_reason(game, "the Poker-CNN tensor")

    # ---------------------------------------------------------------------------------------
    def _codes(
        self, state: Any, player: int, candidate: tuple[int, float] | None = None
    ) -> tuple[list[int], list[int], list[tuple[int, float]]]:
        """The state's planes as (whole fill count per plane, flat indices of card cells set to 1,
        (plane, value) of the few fill-coded values that are not whole small blinds); ``candidate``
        (kind, chips put in) fills planes 31-32."""
        check_player(state, player)
        sb = state.config.small_blind
        codes = [0] * NUM_PLANES
        hole = state.hole[player]
        board = state.board
        visible = _CARD_INDEX[VISIBLE]
        flat = [_CARD_INDEX[i][c] for i, c in enumerate(hole)]
        flat += [_BOARD_INDEX[j][c] for j, c in enumerate(board)]
        flat += [visible[c] for c in hole]
        flat += [visible[c] for c in board]
        street = state.street
        if street < 3:
            codes[ROUNDS : ROUNDS + 3 - street] = _ALL_SET[: 3 - street]
        codes[POSITION] = int(NUM_CELLS * position_fraction(state, player) + 0.5)
        amounts = [(POT, sum(state.contributed))]
        history = state.history
        for types, st in ((CUR_TYPES, street), (PREV_TYPES, street - 1)):
            if 0 <= st < len(history):
                for j, rec in enumerate(reversed(history[st][-HISTORY:])):
                    codes[types + j] = rec.kind + 1
                    if rec.added:
                        amounts.append((types + HISTORY + j, rec.added))
        if candidate is not None:
            codes[ACTION_TYPE] = candidate[0] + 1
            amounts.append((ACTION_AMOUNT, candidate[1]))
        fracs: list[tuple[int, float]] = []
        whole = sb == 1 or self._uint8  # every amount is a whole fill count (the usual case)
        for plane, chips in amounts:
            if whole or chips % sb == 0:
                v = int(chips // sb)
                codes[plane] = v if v < NUM_CELLS else NUM_CELLS
            else:
                fracs.append((plane, chips / sb))
        return codes, flat, fracs

    def _state_planes(self, state: Any, player: int) -> np.ndarray:
        """(33, 17, 17) planes of the state, candidate planes zero."""
        codes, flat, fracs = self._codes(state, player)
        # take/put: several times cheaper than fancy indexing with lists of ints
        out = self._table.take(codes, axis=0)
        out.reshape(-1).put(flat, 1)
        for plane, value in fracs:
            out[plane] = to_planes(fill_code(value, self.dtype))
        return out

    def _amount_planes(self, chips: np.ndarray, sb: int) -> np.ndarray:
        """(K, 17, 17) fill-coded planes of K chip amounts."""
        if sb == 1 or self._uint8 or not np.any(chips % sb):
            return self._table[np.minimum(chips // sb, NUM_CELLS).astype(np.intp)]
        return to_planes(fill_code(chips / sb, self.dtype))

    def _candidates(self, state: Any, player: int, actions: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """(kinds FOLD=0..RAISE=4, chips each puts in) of candidate discrete actions of the player to act."""
        to_act = state.current_player()
        if player != to_act:
            raise ValueError(f"candidate actions are for the player to act ({to_act}), not player {player}")
        legal = set(state.legal_actions())
        bad = [int(a) for a in actions if int(a) not in legal]
        if bad:
            raise ValueError(f"actions {bad} are not legal here; legal actions: {sorted(legal)}")
        kinds: list[int] = []
        added: list[float] = []
        for a in actions:
            kind, raise_to = state.action_to_chips(int(a))
            kinds.append(kind)
            added.append(action_added(state, player, kind, raise_to))
        return np.array(kinds, dtype=np.float64), np.array(added, dtype=np.float64)

    # ---------------------------------------------------------------------------------------
    def encode(self, state: Any, player: int) -> np.ndarray:
        return self._state_planes(view(state), player)

    def encode_with_action(self, state: Any, player: int, action: int) -> np.ndarray:
        """The tensor of ``state`` with the candidate ``action`` (a discrete id) in planes 31-32."""
        return self.encode_actions(state, player, [action])[0]

    def encode_actions(self, state: Any, player: int, actions: Sequence[int]) -> np.ndarray:
        """(K, 33, 17, 17): one state with each of K candidate actions; state planes built once."""
        state = view(state)
        kinds, added = self._candidates(state, player, actions)
        return self._with_candidates(state, player, kinds, added)

    def encode_kinds(
        self, state: Any, player: int, kinds: np.ndarray | Sequence[int], added: np.ndarray | Sequence[float]
    ) -> np.ndarray:
        """(K, 33, 17, 17) from candidate action kinds (FOLD=0..RAISE=4) and the chips each puts in.

        For callers that know the actions in chips rather than discrete ids (hand-history replay).
        """
        state = view(state)
        kinds = np.asarray(kinds, dtype=np.float64)
        added = np.asarray(added, dtype=np.float64)
        if kinds.shape != added.shape or kinds.ndim != 1:
            raise ValueError(f"kinds and added must be 1-D of one length, got {kinds.shape} and {added.shape}")
        if np.any((kinds < 0) | (kinds > 4)) or np.any(added < 0):
            raise ValueError("kinds must be in 0..4 (fold, check, call, bet, raise) and added chips >= 0")
        return self._with_candidates(state, player, kinds, added)

    def _with_candidates(self, state: Any, player: int, kinds: np.ndarray, added: np.ndarray) -> np.ndarray:
        """State planes built once, broadcast to K copies; only planes 31-32 differ."""
        sb = state.config.small_blind
        out = np.empty((len(kinds), NUM_PLANES, SIDE, SIDE), dtype=self.dtype)
        out[:] = self._state_planes(state, player)
        out[:, ACTION_TYPE] = self._table[kinds.astype(np.intp) + 1]
        out[:, ACTION_AMOUNT] = self._amount_planes(added, sb)
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
        n = len(states)
        codes = np.zeros((n, NUM_PLANES), dtype=np.intp)
        flat: list[int] = []
        fracs: list[tuple[int, int, float]] = []
        for i, (state, player) in enumerate(zip(states, players)):
            state = view(state)
            candidate = None
            if actions is not None:
                kinds, added = self._candidates(state, player, [actions[i]])
                candidate = (int(kinds[0]), float(added[0]))
            c, f, fr = self._codes(state, player, candidate)
            codes[i] = c
            offset = i * NUM_PLANES * PLANE_SIZE
            flat.extend(offset + x for x in f)
            fracs.extend((i, plane, v) for plane, v in fr)
        out = self._table.take(codes.reshape(-1), axis=0).reshape(n, NUM_PLANES, SIDE, SIDE)
        out.reshape(-1).put(flat, 1)
        for i, plane, value in fracs:
            out[i, plane] = to_planes(fill_code(value, self.dtype))
        return out


def add_candidates(
    observation: np.ndarray, kinds: np.ndarray | Sequence[int], amounts: np.ndarray | Sequence[float]
) -> np.ndarray:
    """(K, 33, 17, 17) from one environment observation and K candidates, without the game state.

    ``kinds``: FOLD=0, CHECK=1, CALL=2, BET=3, RAISE=4; ``amounts``: chips each candidate puts in,
    in small blinds. For agents that see only observations but know their candidates' chips.
    """
    obs = np.asarray(observation)
    if obs.shape != (NUM_PLANES, SIDE, SIDE):
        raise ValueError(f"observation must have shape {(NUM_PLANES, SIDE, SIDE)}, got {obs.shape}")
    kinds = np.asarray(kinds, dtype=np.float64)
    amounts = np.asarray(amounts, dtype=np.float64)
    if kinds.shape != amounts.shape or kinds.ndim != 1:
        raise ValueError(f"kinds and amounts must be 1-D of one length, got {kinds.shape} and {amounts.shape}")
    if np.any((kinds < 0) | (kinds > 4)) or np.any(amounts < 0):
        raise ValueError("kinds must be in 0..4 (fold, check, call, bet, raise) and amounts >= 0")
    out = np.empty((len(kinds),) + obs.shape, dtype=obs.dtype)
    out[:] = obs
    out[:, ACTION_TYPE :] = candidate_planes(kinds, amounts, obs.dtype)
    return out


def candidate_planes(
    kinds: np.ndarray | Sequence[int], amounts: np.ndarray | Sequence[float], dtype: np.dtype | type = np.float32
) -> np.ndarray:
    """(K, 2, 17, 17): planes 31-32 of K candidates (``kinds`` FOLD=0..RAISE=4, ``amounts`` in small
    blinds), as ``add_candidates`` writes them; for scorers that keep state and candidate planes apart."""
    kinds = np.asarray(kinds, dtype=np.float64)
    amounts = np.asarray(amounts, dtype=np.float64)
    return to_planes(np.stack([fill_code(kinds + 1, dtype), fill_code(amounts, dtype)], axis=1))
