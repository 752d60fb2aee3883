"""What every JAX engine's step shares: choosing tables between two states, and the step's ending.

The twin of the numpy engines' shared step code (``vector.base.step_rows`` / ``spread``). A state is a
NamedTuple of arrays whose first axis is the table, plus ``key`` (the PRNG key of the next deals) and
``illegal`` (B,) bool; a session's state holds these two in its ``hand``. Written once here:

- auto-reset: ``select(ended, fresh, state)`` takes the next hands' tables where a hand ended;
- ``end_step``: flags illegal actions and, with ``active``, keeps the other tables as they were (zero
  rewards, no episode end), as the numpy engines do.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from poker_envs.vector.base import VectorStep
from poker_envs.vector.jax._holdem_kernels import deal

FLAGS = ("key", "illegal")  # the fields that are not per-table state (``select`` keeps the old ones)


def select(rows: jax.Array, new: Any, old: Any) -> Any:
    """``old`` with every table field taken from ``new`` where ``rows`` (B,) bool is set; nested states (a
    session's ``hand``) field by field; ``key`` and ``illegal`` stay ``old``'s (``new`` may leave them None)."""
    fields = {}
    for name in type(old)._fields:
        if name in FLAGS:
            continue
        a, b = getattr(new, name), getattr(old, name)
        if isinstance(b, tuple):
            fields[name] = select(rows, a, b)
        else:
            fields[name] = jnp.where(rows.reshape(rows.shape + (1,) * (b.ndim - 1)), a, b)
    return old._replace(**fields)


def with_flags(state: Any, key: jax.Array, illegal: jax.Array) -> Any:
    """``state`` with the PRNG ``key`` and the ``illegal`` flags given (a session's are its ``hand``'s)."""
    if "hand" in type(state)._fields:
        return state._replace(hand=state.hand._replace(key=key, illegal=illegal))
    return state._replace(key=key, illegal=illegal)


def end_step(old: Any, new: Any, key: jax.Array, legal: jax.Array, rewards: jax.Array, terminated: jax.Array,
             active: jax.Array | None, *flags: jax.Array) -> tuple[Any, jax.Array, jax.Array, tuple[jax.Array, ...]]:
    """The end of every engine's ``step``: ``new`` is ``old`` after one action per table, its finished hands paid
    (``rewards`` (B, n), ``terminated`` (B,)) and the next ones dealt; ``key`` the key of the next deals;
    ``legal`` (B,) whether each action was legal (``illegal`` marks the others). With ``active`` (B,) bool only
    those tables take ``new``: the others keep ``old``, get zero rewards and False ``terminated`` and
    ``flags`` (per-table bool arrays, e.g. a session's hand ends). (state, rewards, terminated, flags)."""
    if active is None:
        return with_flags(new, key, ~legal), rewards, terminated, flags
    state = with_flags(select(active, new, old), key, ~legal & active)
    rewards = jnp.where(active[:, None], rewards, 0.0)
    flags = tuple(f & active.reshape(active.shape + (1,) * (f.ndim - 1)) for f in flags)
    return state, rewards, terminated & active, flags


def init_without_button(game: Any, key: jax.Array, num_envs: int) -> tuple[Any, VectorStep]:
    """``game.init`` of a game without a button (seat 0 acts first): deal ``num_envs`` tables from ``key``."""
    k_deal, k_state = jax.random.split(key)
    decks = deal(k_deal, num_envs, game.deck, game.deal_size)
    return game.start(k_state, jnp.zeros(num_envs, jnp.int32), decks)


def start_without_button(game: Any, key: jax.Array, decks: jax.Array) -> tuple[Any, VectorStep]:
    """``game.start`` of a game without a button: fresh hands (``game.fresh``) with ``decks``, keeping ``key``."""
    decks = jnp.asarray(decks, jnp.int32)
    b = decks.shape[0]
    state = with_flags(game.fresh(decks), key, jnp.zeros(b, bool))
    return state, game.observe(state, jnp.zeros((b, game.num_players), jnp.float32), jnp.zeros(b, bool))
