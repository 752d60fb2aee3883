"""Leduc hold'em in the functional form: ``init`` / ``step`` over ``LeducTables`` (the twin of ``vector/leduc.py``).

``functional.make("leduc_holdem")`` builds a ``JaxLeduc`` (``make_leduc``); ``vector.make("leduc_holdem", ...,
backend="jax")`` wraps it in the stateful engine. The step is ``_small.JaxSmallGame``'s.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from poker_envs.encoders.small_games import LEDUC_SIZE
from poker_envs.games.leduc import ANTE, FOLD, MAX_ACTIONS_PER_ROUND, MAX_RAISES, NUM_SUITS, RAISE, RAISE_SIZES, LeducGame
from poker_envs.vector.holdem_reads import seat_values
from poker_envs.vector.jax._small import JaxSmallGame
from poker_envs.vector.leduc import RANK_CHIPS_SIZE, VectorLeduc

_SLOTS = 3 * MAX_ACTIONS_PER_ROUND  # action one-hots per round


class LeducTables(NamedTuple):
    """B Leduc tables (the numpy engine's arrays, int32) and the dealing key."""

    cards: jax.Array  # (B, 3) card of seat 0, of seat 1, public card (ids 0..5, rank = id // 2)
    player: jax.Array  # (B,) seat to act
    round: jax.Array  # (B,) 0 before the public card, 1 after
    contributions: jax.Array  # (B, 2) chips put in by each seat, antes included
    raises: jax.Array  # (B,) raises in the current round
    moves: jax.Array  # (B,) actions in the current round
    history: jax.Array  # (B, 24) float32 one-hot action slots, as in the observation
    key: jax.Array
    illegal: jax.Array  # (B,) bool (played as fold, or check where fold is masked)


class JaxLeduc(JaxSmallGame):
    """Leduc hold'em (``VectorLeduc``'s rules and encoders: infostate, rank_chips) as pure functions."""

    twin = VectorLeduc
    max_game_length = LeducGame.max_game_length

    def __init__(self, obs_encoder: str = "default") -> None:
        super().__init__(obs_encoder)
        self.observation_shape = (RANK_CHIPS_SIZE,) if obs_encoder == "rank_chips" else (LEDUC_SIZE,)
        self._raise_sizes = jnp.asarray(np.array(RAISE_SIZES, dtype=np.int32))

    def fresh(self, cards: jax.Array) -> LeducTables:
        b = cards.shape[0]
        zeros = jnp.zeros(b, jnp.int32)
        return LeducTables(cards, zeros, zeros, jnp.full((b, 2), ANTE, jnp.int32), zeros, zeros,
                          jnp.zeros((b, 2 * _SLOTS), jnp.float32), None, None)

    def _apply(self, s: LeducTables, a: jax.Array) -> tuple[LeducTables, jax.Array, jax.Array]:
        p, rd, mv = s.player, s.round, s.moves
        o = 1 - p
        history = s.history + jax.nn.one_hot(_SLOTS * rd + 3 * mv + a, 2 * _SLOTS, dtype=jnp.float32)
        mine, theirs = seat_values(s.contributions, p), seat_values(s.contributions, o)
        fold, raised = a == FOLD, a == RAISE
        called = ~fold & ~raised
        paid = jnp.where(raised, theirs + self._raise_sizes[rd], jnp.where(called, theirs, mine))
        contributions = jnp.where(jnp.arange(2) == p[:, None], paid[:, None], s.contributions)
        round_over = called & (mv >= 1)  # a call that follows another action
        next_round = round_over & (rd == 0)
        showdown = round_over & (rd == 1)
        s = s._replace(
            player=jnp.where(next_round, 0, o), round=rd + next_round, contributions=contributions,
            raises=jnp.where(next_round, 0, s.raises + raised), moves=jnp.where(next_round, 0, mv + 1), history=history,
        )
        # Seat 0's chips: a folder loses what it put in; at showdown the stronger hand wins the (equal) stake.
        ranks = s.cards[:, :2] // NUM_SUITS
        strength = ranks + 3 * (ranks == (s.cards[:, 2] // NUM_SUITS)[:, None])
        stake = contributions[:, 0].astype(jnp.float32)
        folded = jnp.where(p == 0, -mine, mine).astype(jnp.float32)
        result = jnp.where(fold, folded, jnp.sign(strength[:, 0] - strength[:, 1]) * stake)
        return s, result, fold | showdown

    def mask(self, s: LeducTables) -> jax.Array:
        owes = seat_values(s.contributions, s.player) < seat_values(s.contributions, 1 - s.player)
        can_raise = s.raises < MAX_RAISES
        return jnp.stack([owes, jnp.ones_like(owes), can_raise], axis=1).astype(jnp.int8)

    def encode(self, s: LeducTables) -> jax.Array:
        p = s.player
        own = seat_values(s.cards, p)
        dealt = (s.round == 1)[:, None]  # the public card is shown from round two on
        if self.obs_encoder == "rank_chips":
            chips = 15  # one-hot of 0..14 chips put in (at most 13)
            return jnp.concatenate([
                jax.nn.one_hot(own // NUM_SUITS, 3), dealt * jax.nn.one_hot(s.cards[:, 2] // NUM_SUITS, 3),
                jax.nn.one_hot(seat_values(s.contributions, p), chips), jax.nn.one_hot(seat_values(s.contributions, 1 - p), chips),
            ], axis=1)
        return jnp.concatenate([
            jax.nn.one_hot(p, 2), jax.nn.one_hot(own, self.num_cards),
            dealt * jax.nn.one_hot(s.cards[:, 2], self.num_cards), s.history,
        ], axis=1)


def make_leduc(obs_encoder: str = "default") -> JaxLeduc:
    """The functional Leduc hold'em: the AEC env's configuration is only ``obs_encoder``."""
    return JaxLeduc(obs_encoder)
