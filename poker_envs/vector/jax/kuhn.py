"""Kuhn poker in the functional form: ``init`` / ``step`` over ``KuhnTables`` (the twin of ``vector/kuhn.py``).

``functional.make("kuhn_poker")`` builds a ``JaxKuhn`` (``make_kuhn``); ``vector.make("kuhn_poker", ...,
backend="jax")`` wraps it in the stateful engine. The step is ``_small.JaxSmallGame``'s.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp

from poker_envs.games.kuhn import BET, PASS, KuhnGame
from poker_envs.vector.holdem_reads import seat_values
from poker_envs.vector.jax._small import JaxSmallGame
from poker_envs.vector.kuhn import VectorKuhn


class KuhnTables(NamedTuple):
    """B Kuhn tables (the numpy engine's arrays, int32) and the dealing key."""

    cards: jax.Array  # (B, 2) card of seat 0, of seat 1 (0 = J .. 2 = K)
    player: jax.Array  # (B,) seat to act
    moves: jax.Array  # (B,) actions so far
    first: jax.Array  # (B,) seat 0's first action
    history: jax.Array  # (B, 6) float32 one-hot action slots, as in the observation
    key: jax.Array  # PRNG key of the next deals
    illegal: jax.Array  # (B,) bool the last step's action at that table was illegal (played as a pass)


class JaxKuhn(JaxSmallGame):
    """Kuhn poker (``VectorKuhn``'s rules and encoders) as pure functions."""

    twin = VectorKuhn
    max_game_length = KuhnGame.max_game_length

    def __init__(self, obs_encoder: str = "default") -> None:
        super().__init__(obs_encoder)
        self.observation_shape = VectorKuhn.observation_shape

    def fresh(self, cards: jax.Array) -> KuhnTables:
        zeros = jnp.zeros(cards.shape[0], jnp.int32)
        return KuhnTables(cards, zeros, zeros, zeros, jnp.zeros((cards.shape[0], 6), jnp.float32), None, None)

    def _apply(self, s: KuhnTables, a: jax.Array) -> tuple[KuhnTables, jax.Array, jax.Array]:
        mv, p = s.moves, s.player
        history = s.history + jax.nn.one_hot(2 * mv + a, 6, dtype=jnp.float32)
        first = jnp.where(mv == 0, a, s.first)
        # Ends after pass-pass, bet-bet, bet-pass, or pass-bet and either answer.
        ended = (mv == 2) | ((mv == 1) & ((first == BET) | (a == PASS)))
        folded = (a == PASS) & ((mv == 2) | (first == BET))  # a pass answering a bet
        stake = 1.0 + (a == BET)
        showdown = jnp.where(s.cards[:, 0] > s.cards[:, 1], stake, -stake)
        result = jnp.where(folded, jnp.where(p == 0, -1.0, 1.0), showdown).astype(jnp.float32)
        return s._replace(player=1 - p, moves=mv + 1, first=first, history=history), result, ended

    def mask(self, s: KuhnTables) -> jax.Array:
        return jnp.ones((s.player.shape[0], 2), jnp.int8)  # pass and bet are always legal

    def encode(self, s: KuhnTables) -> jax.Array:
        own = seat_values(s.cards, s.player)
        return jnp.concatenate([jax.nn.one_hot(s.player, 2), jax.nn.one_hot(own, self.num_cards), s.history], axis=1)


def make_kuhn(obs_encoder: str = "default") -> JaxKuhn:
    """The functional Kuhn poker: the AEC env's configuration is only ``obs_encoder``."""
    return JaxKuhn(obs_encoder)
