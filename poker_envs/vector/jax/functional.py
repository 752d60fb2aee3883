"""The batched games as pure JAX functions, for loops that stay on the device (the ``[jax]`` extra).

Also importable under its short name, ``poker_envs.vector.functional``.

The contract, for every game ``g = functional.make(name, **config)`` (``config`` as ``vector.make``):

- ``state, out = g.init(key, num_envs)``: deal ``num_envs`` tables from a JAX PRNG key (buttons too).
- ``state, out = g.step(state, actions)``: one action per table (int array (num_envs,)) for its seat to act;
  finished hands are paid in ``out.rewards`` and the next hand is dealt at once (auto-reset), as in the
  numpy engine. ``g.step(state, actions, active)`` advances only the tables where ``active`` (bool) is set.
- ``out`` is a ``VectorStep`` (observation, action_mask, current_player, rewards, terminated), a pytree;
  hold'em built with ``public=True`` also fills ``out.public``, the public betting state (as numpy's).
- ``state`` is a pytree (a NamedTuple of arrays whose first axis is the table) that carries its own PRNG
  key (``state.key``); nothing else is kept anywhere, so ``init`` and ``step`` are pure: wrap them in
  ``jax.jit``, ``jax.lax.scan`` and ``jax.vmap`` (over a leading axis of states) as you like.
- Illegal actions cannot raise inside ``jit``: the pure step plays an illegal action (masked or out of range)
  as a legal substitute, so the hand stays valid, and sets ``state.illegal`` at that table. The substitute
  is a fold (hold'em: the pass of a pass turn; Leduc: a check where folding is not legal; Kuhn: a pass;
  push/fold: a fold). ``checked(g)`` is the step that raises instead, naming the table and the seat.
- ``random_actions(key, mask)`` draws a uniform legal action per row, jittable.

The arrays are those of the numpy engine of the same configuration (``vector.make(..., backend="numpy")``):
same action ids, masks, observations and rewards for the same deals and actions (float32 here, so
observations and rewards agree to about 1e-6). Example, 1,024 heads-up tables for 100 steps in one program::

    import jax
    from poker_envs.vector import functional

    game = functional.make("nolimit_holdem", num_players=2)

    def body(carry, _):
        state, out, key = carry
        key, sub = jax.random.split(key)
        state, out = game.step(state, functional.random_actions(sub, out.action_mask))
        return (state, out, key), out.rewards.sum()

    state, out = game.init(jax.random.key(0), 1024)
    (state, out, _), paid = jax.jit(lambda c: jax.lax.scan(body, c, length=100))((state, out, jax.random.key(1)))
"""

from __future__ import annotations

from typing import Any, Protocol

import jax
import jax.numpy as jnp
from jax.experimental import checkify

from poker_envs.vector import functional_game
from poker_envs.vector.base import VectorStep

jax.tree_util.register_pytree_node(
    VectorStep,
    lambda s: ((s.observation, s.action_mask, s.current_player, s.rewards, s.terminated, s.public, s.hand_over,
                s.eliminated), None),  # a field left None has no leaves
    lambda _, leaves: VectorStep(*leaves),
)


class FunctionalGame(Protocol):
    """What every game of ``make`` offers (see the module doc)."""

    num_players: int
    num_actions: int
    observation_shape: tuple[int, ...]
    max_game_length: int

    def init(self, key: jax.Array, num_envs: int) -> tuple[Any, VectorStep]: ...

    def step(self, state: Any, actions: jax.Array, active: jax.Array | None = None) -> tuple[Any, VectorStep]: ...


def make(game: str, **config: Any) -> FunctionalGame:
    """The functional form of a batched game (names and ``config`` as ``poker_envs.vector.make``)."""
    return functional_game(game, **config)  # the one table of names: the catalog's jax_factory


def random_actions(key: jax.Array, mask: jax.Array) -> jax.Array:
    """(B,) int32: one action per row of ``mask`` (B, A), uniform over the row's legal ids (jittable).

    A row with no legal id gets id 0 (the engines never produce one)."""
    keys = jax.random.uniform(key, (mask.shape[0] * mask.shape[1],)).reshape(mask.shape)  # 1-d: faster to compile
    return jnp.argmax(jnp.where(mask > 0, keys, -1.0), axis=1).astype(jnp.int32)


def checked(game: FunctionalGame) -> Any:
    """``game.step`` that raises on an illegal action: a jitted function of (state, actions[, active]) that
    returns (state, out) or raises ``checkify.JaxRuntimeError`` naming the first illegal table, its seat and
    the action; the check runs on the device, inside ``jit`` (``checkify``)."""

    def checked_step(state: Any, actions: jax.Array, active: jax.Array | None = None) -> tuple[Any, VectorStep]:
        new_state, out = game.step(state, actions, active)
        bad = new_state.illegal
        t = jnp.argmax(bad)
        checkify.check(
            ~bad.any(), "actions[{t}] = {a} is illegal for seat {s} at table {t}",
            t=t, a=jnp.asarray(actions)[t], s=state.player[t],
        )
        return new_state, out

    jitted = jax.jit(checkify.checkify(checked_step))

    def run(state: Any, actions: jax.Array, active: jax.Array | None = None) -> tuple[Any, VectorStep]:
        err, result = jitted(state, actions, active)
        err.throw()
        return result

    return run
