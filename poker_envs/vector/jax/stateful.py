"""``vector.make(..., backend="jax")``: the batched engine's contract (``vector.base.VectorGame``) around a functional
game (built first, by ``functional.make``; kept as ``.game``).

It keeps one state pytree, steps it with the game's jitted ``step`` and checks every call on the host as the
numpy engine does (the same errors for bad actions, ``active`` and reset options). ``reset`` draws the
buttons and the dealing orders from the seed exactly as the numpy engine does, so both backends deal the
same first hands for the same seed; the next hands come from the state's JAX key. Outputs are JAX arrays
(``np.asarray`` reads them). Tables are sharded over the local devices (``jax.local_devices()``) when there
are several: ``num_envs`` must then be a multiple of their number, or pass ``shard=False``.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from poker_envs.vector.jax import functional  # noqa: F401  (registers VectorStep as a pytree)
from poker_envs.vector.base import VectorStep, check_actions, check_active


class JaxVectorGame:
    """``num_envs`` tables of a functional ``game`` behind the numpy engine's interface."""

    def __init__(self, game: Any, num_envs: int, seed: int | None = None, shard: bool = True) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if not isinstance(shard, bool):
            raise TypeError(f"shard must be True or False, got {shard!r}")
        self.game = game  # the functional form (init / step), for on-device loops
        self.num_envs = int(num_envs)
        self.num_players = game.num_players
        self.num_actions = game.num_actions
        self.observation_shape = game.observation_shape
        self.max_game_length = game.max_game_length
        self.deck = game.deck  # card ids dealt
        self.deal_size = game.deal_size  # cards one hand deals (the width of options["decks"])
        devices = jax.local_devices()
        self.sharding: NamedSharding | None = None
        if shard and len(devices) > 1:
            if self.num_envs % len(devices):
                raise ValueError(f"num_envs ({self.num_envs}) must be a multiple of the {len(devices)} local devices "
                                 "to shard the tables over them (or pass shard=False)")
            self.sharding = NamedSharding(Mesh(np.array(devices), ("tables",)), PartitionSpec("tables"))
        self._seed = seed
        self._rng = np.random.default_rng(seed)
        self._step = jax.jit(game.step)
        self._start = jax.jit(game.start)
        self.state: Any = None
        self._mask: np.ndarray | None = None
        self._player: np.ndarray | None = None
        self._snapshot: Any = None

    @property
    def tables(self) -> Any:
        """The state as numpy arrays (a copy read from the device, cached until the next step)."""
        if self._snapshot is None:
            self._snapshot = jax.device_get(self.state)
        return self._snapshot

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> VectorStep:
        """Deal a new hand at every table (seed and options as the numpy engine of the game takes them)."""
        last = None if self.state is None or seed is not None else self.tables  # None: a first or seeded reset
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self._seed = seed
        buttons, decks = self.game.reset_arrays(self._rng, self.num_envs, self._seed, dict(options or {}), last)
        key = jax.random.key(int(self._rng.integers(2**63)))
        state, out = self._start(key, jnp.asarray(buttons, jnp.int32), jnp.asarray(decks, jnp.int32))
        return self._keep(state, out)

    def step(self, actions: Any, active: Any = None) -> VectorStep:
        """One action per table for its seat to act (only the ``active`` tables advance when given)."""
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        if active is None:
            acts = check_actions(actions, self._mask, self._player)
            state, out = self._step(self.state, self._put(jnp.asarray(acts, jnp.int32)))
        else:
            flags = check_active(np.asarray(active), self.num_envs)
            acts = check_actions(actions, self._mask, self._player, active=flags)
            state, out = self._step(self.state, self._put(jnp.asarray(acts, jnp.int32)), self._put(jnp.asarray(flags)))
        return self._keep(state, out)

    def _put(self, x: jax.Array) -> jax.Array:
        return x if self.sharding is None else jax.device_put(x, self.sharding)

    def _keep(self, state: Any, out: VectorStep) -> VectorStep:
        if self.sharding is not None:  # the tables' arrays split over the devices (the key is replicated)
            b, where = self.num_envs, self.sharding
            state = jax.tree_util.tree_map(lambda x: jax.device_put(x, where) if x.ndim and x.shape[0] == b else x, state)
        self.state = state
        self._snapshot = None
        self._mask = np.asarray(out.action_mask)
        self._player = np.asarray(out.current_player)
        return out
