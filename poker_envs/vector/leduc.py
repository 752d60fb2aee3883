"""Batched Leduc hold'em: the rules of ``poker_envs.games.leduc`` (OpenSpiel's ``leduc_poker``) over arrays.

Same action ids (0 fold, 1 call/check, 2 raise), legality, chip rewards and observations as
``leduc_holdem_v0``: ``obs_encoder`` "default"/"infostate" is ``leduc_infostate_vector`` (38 floats),
"rank_chips" the suit-blind summary of ``LeducRankChipsEncoder`` (36). ``options["decks"]`` rows are
the AEC env's ``deal``: (card of seat 0, card of seat 1, public card), ids 0..5 (rank = id // 2).
"""

from __future__ import annotations

import numpy as np

from poker_envs.encoders.small_games import LEDUC_SIZE
from poker_envs.games.leduc import ANTE, FOLD, MAX_ACTIONS_PER_ROUND, MAX_RAISES, NUM_CARDS, NUM_SUITS, RAISE, RAISE_SIZES
from poker_envs.vector._small import Rows, SmallVectorGame

_RAISE_SIZES = np.array(RAISE_SIZES, dtype=np.int16)
_HISTORY = 2 + 2 * NUM_CARDS  # where the action slots start in the infostate vector
_SLOTS = 3 * MAX_ACTIONS_PER_ROUND  # action one-hots per round
RANK_CHIPS_SIZE = 36


class VectorLeduc(SmallVectorGame):
    """``num_envs`` Leduc tables; public arrays: ``cards`` (num_envs, 3), ``player``, ``round``, ``contributions``."""

    name = "leduc_holdem"
    num_actions = 3
    num_cards = NUM_CARDS
    deal_size = 3
    encoders = ("default", "infostate", "rank_chips")

    def __init__(self, num_envs: int, seed: int | None = None, obs_encoder: str = "default") -> None:
        self.observation_shape = (RANK_CHIPS_SIZE,) if obs_encoder == "rank_chips" else (LEDUC_SIZE,)
        super().__init__(num_envs, seed=seed, obs_encoder=obs_encoder)
        n = self.num_envs
        self.round = np.zeros(n, dtype=np.int8)  # 0 before the public card, 1 after
        self.contributions = np.zeros((n, 2), dtype=np.int16)  # chips put in by each seat, antes included
        self.raises = np.zeros(n, dtype=np.int8)  # raises in the current round
        self.moves = np.zeros(n, dtype=np.int8)  # actions in the current round
        self.history = np.zeros((n, 2 * _SLOTS), dtype=np.float32)  # one-hot action slots, as in the observation

    def _new_hands(self, rows: Rows) -> None:
        self.player[rows] = 0
        self.round[rows] = 0
        self.contributions[rows] = ANTE
        self.raises[rows] = 0
        self.moves[rows] = 0
        self.history[rows] = 0.0

    def _apply(self, rows: Rows, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        r = self._rows[rows]
        p = self.player[r].astype(np.int64)
        o = 1 - p
        rd = self.round[r].astype(np.int64)
        mv = self.moves[r].astype(np.int64)
        self.history[r, _SLOTS * rd + 3 * mv + actions] = 1.0
        mine = self.contributions[r, p]
        theirs = self.contributions[r, o]
        fold = actions == FOLD
        raised = actions == RAISE
        called = ~fold & ~raised
        self.contributions[r, p] = np.where(raised, theirs + _RAISE_SIZES[rd], np.where(called, theirs, mine))
        round_over = called & (mv >= 1)  # a call that follows another action
        next_round = round_over & (rd == 0)
        showdown = round_over & (rd == 1)
        self.player[r] = np.where(next_round, 0, o)
        self.round[r] = rd + next_round
        self.raises[r] = np.where(next_round, 0, self.raises[r] + raised)
        self.moves[r] = np.where(next_round, 0, mv + 1)
        # Seat 0's chips: a folder loses what it put in; at showdown the stronger hand wins the (equal) stake.
        cards = self.cards[r].astype(np.int64)
        public_rank = cards[:, 2] // NUM_SUITS
        ranks = cards[:, :2] // NUM_SUITS
        strength = ranks + 3 * (ranks == public_rank[:, None])
        stake = self.contributions[r, 0].astype(np.float32)
        folded = np.where(p == 0, -mine, mine).astype(np.float32)
        result = np.where(fold, folded, np.sign(strength[:, 0] - strength[:, 1]) * stake)
        return result, fold | showdown

    def _encode(self, rows: Rows) -> None:
        r = self._rows[rows]
        p = self.player[r].astype(np.int64)
        owes = self.contributions[r, p] < self.contributions[r, 1 - p]
        self._mask[r, FOLD] = owes
        self._mask[r, 1] = 1
        self._mask[r, RAISE] = self.raises[r] < MAX_RAISES
        cards = self.cards[r].astype(np.int64)
        dealt = self.round[r] == 1  # the public card is shown from round two on
        own = cards[np.arange(r.size), p]
        obs = self._obs
        obs[r] = 0.0
        if self.obs_encoder == "rank_chips":
            obs[r, own // NUM_SUITS] = 1.0
            obs[r[dealt], 3 + cards[dealt, 2] // NUM_SUITS] = 1.0
            obs[r, 6 + self.contributions[r, p]] = 1.0
            obs[r, 21 + self.contributions[r, 1 - p]] = 1.0
            return
        obs[r, p] = 1.0
        obs[r, 2 + own] = 1.0
        obs[r[dealt], 2 + NUM_CARDS + cards[dealt, 2]] = 1.0
        obs[r, _HISTORY:] = self.history[r]


def make_leduc(num_envs: int, seed: int | None = None, obs_encoder: str = "default") -> VectorLeduc:
    """``vector.make("leduc_holdem", ...)``: the AEC env's configuration is only ``obs_encoder``."""
    return VectorLeduc(num_envs, seed=seed, obs_encoder=obs_encoder)
