"""Batched Kuhn poker: the rules of ``poker_envs.games.kuhn`` (OpenSpiel's ``kuhn_poker``) over arrays.

Same action ids (0 pass, 1 bet), chip rewards and observations (``kuhn_infostate_vector``, 11 floats)
as ``kuhn_poker_v0``. ``options["decks"]`` rows are the AEC env's ``deal``: (card of seat 0, card of
seat 1), 0 = J, 1 = Q, 2 = K.
"""

from __future__ import annotations

import numpy as np

from poker_envs.encoders.small_games import KUHN_SIZE
from poker_envs.games.kuhn import BET, NUM_CARDS, PASS
from poker_envs.vector._small import Rows, SmallVectorGame

_HISTORY = 2 + NUM_CARDS  # where the action slots start in the observation


class VectorKuhn(SmallVectorGame):
    """``num_envs`` Kuhn tables; public arrays: ``cards`` (num_envs, 2), ``player``, ``moves``, ``first``."""

    name = "kuhn_poker"
    num_actions = 2
    num_cards = NUM_CARDS
    deal_size = 2
    encoders = ("default", "infostate")
    observation_shape = (KUHN_SIZE,)

    def __init__(self, num_envs: int, seed: int | None = None, obs_encoder: str = "default") -> None:
        super().__init__(num_envs, seed=seed, obs_encoder=obs_encoder)
        n = self.num_envs
        self.moves = np.zeros(n, dtype=np.int8)  # actions so far
        self.first = np.zeros(n, dtype=np.int8)  # seat 0's first action
        self.history = np.zeros((n, 3 * 2), dtype=np.float32)  # one-hot action slots, as in the observation
        self._mask[:] = 1  # pass and bet are always legal

    def _new_hands(self, rows: Rows) -> None:
        self.player[rows] = 0
        self.moves[rows] = 0
        self.history[rows] = 0.0

    def _apply(self, rows: Rows, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        r = self._rows[rows]
        mv = self.moves[r].astype(np.int64)
        p = self.player[r]
        self.history[r, 2 * mv + actions] = 1.0
        first = np.where(mv == 0, actions, self.first[r])
        self.first[r] = first
        self.moves[r] = mv + 1
        self.player[r] = 1 - p
        # Ends after pass-pass, bet-bet, bet-pass, or pass-bet and either answer.
        ended = (mv == 2) | ((mv == 1) & ((first == BET) | (actions == PASS)))
        folded = (actions == PASS) & ((mv == 2) | (first == BET))  # a pass answering a bet
        cards = self.cards[r]
        stake = 1.0 + (actions == BET)
        showdown = np.where(cards[:, 0] > cards[:, 1], stake, -stake)
        result = np.where(folded, np.where(p == 0, -1.0, 1.0), showdown).astype(np.float32)
        return result, ended

    def _encode(self, rows: Rows) -> None:
        r = self._rows[rows]
        p = self.player[r].astype(np.int64)
        obs = self._obs
        obs[r] = 0.0
        obs[r, p] = 1.0
        obs[r, 2 + self.cards[r, p]] = 1.0
        obs[r, _HISTORY:] = self.history[r]


def make_kuhn(num_envs: int, seed: int | None = None, obs_encoder: str = "default") -> VectorKuhn:
    """``vector.make("kuhn_poker", ...)``: the AEC env's configuration is only ``obs_encoder``."""
    return VectorKuhn(num_envs, seed=seed, obs_encoder=obs_encoder)
