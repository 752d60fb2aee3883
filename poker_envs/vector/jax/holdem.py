"""Hold'em (no-limit, limit, short deck) in the functional form: ``init`` / ``step`` over a ``HoldemTables`` pytree.

``functional.make(game, **config)`` builds a ``JaxHoldem`` (or, with session arguments, a ``JaxHoldemSession``)
from the same arguments as the numpy engine, checked by the numpy engine's own factories (``make_nolimit`` etc.
below); ``vector.make(..., backend="jax")`` wraps it in the stateful engine (``stateful.JaxVectorGame``). See
``poker_envs.vector.functional`` for the contract.
"""

from __future__ import annotations

from functools import partial

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from poker_envs.vector.jax import _holdem_kernels as j
from poker_envs.vector.jax._holdem_cnn import encode_poker_cnn
from poker_envs.vector import holdem, holdem_games
from poker_envs.vector.base import VectorStep
from poker_envs.vector.jax.base import end_step, select
from poker_envs.vector.jax.holdem_session import JaxHoldemSession
from poker_envs.vector.sampling import Dealer


class JaxHoldem:
    """Hold'em of one configuration as pure functions, configured as the numpy ``engine`` it is built from (its
    rules, action ids, encoder, observation shape, reward unit: derived and checked once, there)."""

    def __init__(self, engine: holdem.VectorHoldem) -> None:
        self.name = "holdem"
        self.config = engine.config
        self.num_players = engine.num_players
        self.num_actions = engine.num_actions
        self.max_game_length = engine.max_game_length
        self.obs_encoder = engine.obs_encoder
        self.observation_shape = engine.observation_shape
        self.rules = engine.rules
        self.deck = self.rules.deck  # card ids dealt (36 in short deck)
        self.deal_size = self.rules.deal_size
        self._scale = engine.reward_scale
        self.public = engine.public  # outputs carry ``VectorStep.public`` (``_holdem_kernels.encode_public``)
        self._start = j.start_rows(self.rules)
        self._dealer = Dealer(self.deck, self.deal_size)

    # The functional contract -----------------------------------------------------------------
    @partial(jax.jit, static_argnums=(0, 2))  # one compiled program per game and table count
    def init(self, key: jax.Array, num_envs: int) -> tuple[j.HoldemTables, VectorStep]:
        """``num_envs`` tables, buttons and cards drawn from ``key``; (state, first output)."""
        k_button, k_deal, k_state = jax.random.split(key, 3)
        buttons = jax.random.randint(k_button, (num_envs,), 0, self.num_players, dtype=jnp.int32)
        return self.start(k_state, buttons, j.deal(k_deal, num_envs, self.deck, self.deal_size))

    def start(self, key: jax.Array, buttons: jax.Array, decks: jax.Array) -> tuple[j.HoldemTables, VectorStep]:
        """New hands at every table for ``buttons`` (B,) with dealing orders ``decks`` (B, ``deal_size``: hole cards x
        seats + board, from the configuration); the state keeps ``key``."""
        buttons = jnp.asarray(buttons, jnp.int32)
        fields = {name: value[buttons] for name, value in self._start.items()}
        fields["deck"] = jnp.asarray(decks, jnp.int32)
        state = j.HoldemTables(**fields, key=key, illegal=jnp.zeros(buttons.shape[0], bool))
        b = buttons.shape[0]
        return state, self.observe(state, jnp.zeros((b, self.num_players), jnp.float32), jnp.zeros(b, bool))

    def step(self, state: j.HoldemTables, actions: jax.Array, active: jax.Array | None = None
             ) -> tuple[j.HoldemTables, VectorStep]:
        """One action per table for its seat to act; finished hands are paid and the next one dealt.

        An illegal action (out of range or masked) is played as a fold, or as the pass of a pass turn, and
        ``state.illegal`` marks that table (``functional.checked`` raises instead). With ``active`` (B,) bool,
        only those tables advance; the others keep their state and get zero rewards.
        """
        rules = self.rules
        b = state.player.shape[0]
        s, legal = j.play(state, rules, actions)
        s, over = j.advance(s, rules)
        key, sub = jax.random.split(s.key)
        won, decks = j.showdowns(s, rules, over, sub, self.deck, self._capacity(b))
        rewards = won.astype(jnp.float32) * jnp.float32(self._scale)
        s = self._next_hands(s, over, decks)  # auto-reset
        s, rewards, over, _ = end_step(state, s, key, legal, rewards, over, active)
        return s, self.observe(s, rewards, over)

    def observe(self, s: j.HoldemTables, rewards: jax.Array, terminated: jax.Array) -> VectorStep:
        """The output of every table for its seat to act (observation, mask, seat; the public state when built
        with ``public=True``) with ``rewards``/``terminated``."""
        can, low, high, owe = j.raise_range(s, self.rules)
        mask, _ = j.action_mask(s, self.rules, can, low, high, owe)
        if self.obs_encoder == "default":
            obs = j.encode_default(s, self.rules, can, low, high, owe)
        elif self.obs_encoder == "flat56":
            obs = j.encode_flat56(s, self.rules)
        elif self.obs_encoder == "flat107":
            obs = j.encode_flat107(s, self.rules)
        else:
            obs = encode_poker_cnn(s, self.rules)
        public = j.encode_public(s, self.rules, can, low, high, owe) if self.public else None
        return VectorStep(obs, mask, s.player, rewards, terminated, public)

    # Host side: what reset's seed and options decide -----------------------------------------
    def reset_arrays(self, rng: np.random.Generator, num_envs: int, seed: int | None, options: dict[str, Any],
                     last: Any | None) -> tuple[np.ndarray, np.ndarray]:
        """(buttons, decks) of a reset, as the numpy engine draws them from its Generator ``rng`` (same seed,
        same first hands in both backends); ``options`` checked as the numpy engine checks them; ``last``: the
        previous state (buttons move on from it), None after a first or seeded reset (buttons from ``seed``)."""
        last_buttons = None if last is None else last.button  # None: buttons drawn from the seed
        return holdem.reset_hands(rng, self._dealer, num_envs, self.num_players, seed, last_buttons, options)

    # Helpers ---------------------------------------------------------------------------------
    def _next_hands(self, s: j.HoldemTables, over: jax.Array, decks: jax.Array) -> j.HoldemTables:
        """Start the next hand where ``over`` (button one seat on) with the dealing orders ``decks``."""
        buttons = (s.button + 1) % self.num_players
        fresh = s._replace(**{name: value[buttons] for name, value in self._start.items()})  # button included
        return select(over, fresh, s)._replace(deck=decks)

    def _capacity(self, num_envs: int) -> int:
        """Rows a step settles and deals at most before it does every table. Multi-way hands last ten or more
        decisions, so a quarter of the tables suffices and gathering them pays (1.5x to 2.4x the decisions/s
        six-handed, one CPU core, 1,024 to 65,536 tables); heads-up it gained nothing, so every table is done."""
        return num_envs if self.num_players == 2 else max(1, num_envs // 4)


def from_numpy(engine: holdem.VectorHoldem) -> JaxHoldem | JaxHoldemSession:
    """The functional game of a numpy engine's configuration (rules, reward unit, encoder); a numpy session engine
    (``VectorHoldemSession``) gives the JAX session engine (``holdem_session.JaxHoldemSession``)."""
    if getattr(engine, "session_config", None) is not None:
        return JaxHoldemSession(engine)
    return JaxHoldem(engine)


def make_nolimit(**config: Any) -> JaxHoldem | JaxHoldemSession:
    """Functional no-limit hold'em: ``config`` as ``vector.holdem_games.make_nolimit`` (checked there)."""
    return from_numpy(holdem_games.make_nolimit(1, **config))


def make_limit(**config: Any) -> JaxHoldem | JaxHoldemSession:
    """Functional limit hold'em: ``config`` as ``vector.holdem_games.make_limit`` (checked there)."""
    return from_numpy(holdem_games.make_limit(1, **config))


def make_shortdeck(**config: Any) -> JaxHoldem | JaxHoldemSession:
    """Functional short-deck hold'em: ``config`` as ``vector.holdem_games.make_shortdeck`` (checked there)."""
    return from_numpy(holdem_games.make_shortdeck(1, **config))


def make_potlimit(**config: Any) -> JaxHoldem | JaxHoldemSession:
    """Functional pot-limit hold'em: ``config`` as ``vector.holdem_games.make_potlimit`` (checked there)."""
    return from_numpy(holdem_games.make_potlimit(1, **config))


def make_omaha(**config: Any) -> JaxHoldem | JaxHoldemSession:
    """Functional pot-limit Omaha: ``config`` as ``vector.holdem_games.make_omaha`` (checked there)."""
    return from_numpy(holdem_games.make_omaha(1, **config))
