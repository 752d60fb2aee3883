"""What the JAX Kuhn and Leduc engines share (``kuhn.py``, ``leduc.py``): dealing, the step, reset options.

The twin of the numpy ``vector/_small.py``. A game writes four kernels over every table at once: ``fresh``
(the state of new hands), ``_apply`` (one legal action per table), ``mask`` and ``encode``; each mirrors the
numpy engine's kernel of the same name with ``jnp.where`` over every table where numpy writes to selected rows,
so both engines give the same masks, observations and rewards for the same deals and actions. Neither game has
a button: ``start`` ignores the buttons it is given. See ``poker_envs.vector.functional`` for the contract.

An illegal action (out of range, or masked) is played as the lowest legal id: pass in Kuhn; in Leduc fold
when facing a raise, check otherwise (fold is masked then); ``state.illegal`` marks those tables.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from poker_envs.vector.base import VectorStep, check_reset_options
from poker_envs.vector.holdem_reads import seat_values
from poker_envs.vector.jax import _holdem_kernels as j
from poker_envs.vector.jax.base import end_step, init_without_button, select, start_without_button
from poker_envs.vector.sampling import check_decks, deal_cards


class JaxSmallGame:
    """What the two games share: dealing, the step (auto-reset, ``active``, illegal actions), reset options."""

    num_players = 2
    twin: type  # the numpy engine of the game (names, encoders, deck size, deal size)
    max_game_length: int

    def __init__(self, obs_encoder: str = "default") -> None:
        twin = self.twin
        if obs_encoder not in twin.encoders:
            raise ValueError(
                f"obs_encoder {obs_encoder!r} has no batched form for {twin.name}; choose one of {list(twin.encoders)}"
            )
        self.name = twin.name
        self.num_actions = twin.num_actions
        self.num_cards = twin.num_cards
        self.deal_size = twin.deal_size
        self.deck = np.arange(self.num_cards)  # card ids dealt
        self.obs_encoder = "infostate" if obs_encoder == "default" else obs_encoder

    # The functional contract -----------------------------------------------------------------
    @partial(jax.jit, static_argnums=(0, 2))  # one compiled program per game and table count
    def init(self, key: jax.Array, num_envs: int) -> tuple[Any, VectorStep]:
        """``num_envs`` tables dealt from ``key``; (state, first output)."""
        return init_without_button(self, key, num_envs)

    def start(self, key: jax.Array, buttons: jax.Array, decks: jax.Array) -> tuple[Any, VectorStep]:
        """New hands with the deals ``decks`` (B, deal_size); ``buttons`` is ignored (no button); keeps ``key``."""
        return start_without_button(self, key, decks)

    def step(self, state: Any, actions: jax.Array, active: jax.Array | None = None) -> tuple[Any, VectorStep]:
        """One action per table for its seat to act; finished hands are paid and the next one dealt.

        An illegal action is played as the lowest legal id (see the module doc) and flagged in
        ``state.illegal``. With ``active`` (B,) bool only those tables advance (zero rewards elsewhere).
        """
        b = state.player.shape[0]
        mask = self.mask(state)
        actions = jnp.asarray(actions).astype(jnp.int32)
        clipped = jnp.clip(actions, 0, self.num_actions - 1)
        legal = (actions >= 0) & (actions < self.num_actions) & (seat_values(mask, clipped) == 1)
        acts = jnp.where(legal, actions, jnp.argmax(mask, axis=1).astype(jnp.int32))
        s, result, ended = self._apply(state, acts)
        rewards = jnp.where(ended[:, None], jnp.stack([result, -result], axis=1), 0.0).astype(jnp.float32)
        key, sub = jax.random.split(state.key)
        s = select(ended, self.fresh(j.deal(sub, b, self.deck, self.deal_size)), s)  # auto-reset
        s, rewards, ended, _ = end_step(state, s, key, legal, rewards, ended, active)
        return s, self.observe(s, rewards, ended)

    def observe(self, s: Any, rewards: jax.Array, terminated: jax.Array) -> VectorStep:
        """The output of every table for its seat to act (observation, mask, seat) with ``rewards``/``terminated``."""
        return VectorStep(self.encode(s), self.mask(s), s.player, rewards, terminated)

    # Host side: what reset's seed and options decide -----------------------------------------
    def reset_arrays(self, rng: np.random.Generator, num_envs: int, seed: int | None, options: dict[str, Any],
                     last: Any | None) -> tuple[np.ndarray, np.ndarray]:
        """(buttons (zeros), deals) of a reset, drawn from ``rng`` as the numpy engine draws them (same seed, same
        first hands); ``options`` checked as the numpy engine checks them (``buttons`` refused)."""
        check_reset_options(options, self.name, has_button=False)
        cards = deal_cards(rng, num_envs, self.num_cards, self.deal_size)
        if options.get("decks") is not None:
            cards = check_decks(options["decks"], num_envs, self.num_cards, self.deal_size)
        return np.zeros(num_envs, dtype=np.int64), cards

    # Kernels of each game --------------------------------------------------------------------
    def fresh(self, cards: jax.Array) -> Any:
        """A state of new hands with ``cards`` (key and illegal left as placeholders)."""
        raise NotImplementedError

    def _apply(self, s: Any, a: jax.Array) -> tuple[Any, jax.Array, jax.Array]:
        """Play one legal action per table: (state, seat 0's chips where the hand ended, ended)."""
        raise NotImplementedError

    def mask(self, s: Any) -> jax.Array:
        """(B, num_actions) int8 legal ids of the seat to act."""
        raise NotImplementedError

    def encode(self, s: Any) -> jax.Array:
        """(B, *observation_shape) float32 observations of the seat to act."""
        raise NotImplementedError
