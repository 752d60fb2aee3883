"""Hold'em sessions in the functional form: ``init`` / ``step`` over a ``SessionTables`` pytree.

``functional.make(game, ...)`` (and ``vector.make(game, ..., backend="jax")``, which wraps it) with session
arguments (``hands_per_episode``, ``rebuy``, ``blind_levels`` / ``hands_per_level``, ``payouts``) builds a ``JaxHoldemSession`` from the numpy session
engine of the same arguments (``VectorHoldemSession``, which checks them) and plays the same sessions: the same
outputs (``VectorStep`` with ``public``, ``hand_over`` and ``eliminated``) and rewards for the same decks,
buttons and actions, ICM included (computed on the device, ``_holdem_session_kernels.icm``). The functions are in
``_holdem_session_kernels``; tests: ``tests/test_vector_jax_sessions.py``.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from poker_envs.vector.holdem import Rules
from poker_envs.vector.holdem_reads import seat_values
from poker_envs.vector.jax import _holdem_kernels as j
from poker_envs.vector.jax import _holdem_session_kernels as js
from poker_envs.vector.jax.base import end_step
from poker_envs.vector.base import VectorStep
from poker_envs.vector.holdem import reset_hands
from poker_envs.vector.holdem_session import VectorHoldemSession, deal_shape
from poker_envs.vector.sampling import Dealer


class JaxHoldemSession:
    """Hold'em sessions of one configuration as pure functions, configured as the numpy session ``engine`` it is
    built from (rules, action ids, encoder, observation shape, reward unit, session arguments)."""

    def __init__(self, engine: VectorHoldemSession) -> None:
        self.name = "holdem_session"
        self.config = engine.config
        self.session_config = engine.session_config
        self.num_players = engine.num_players
        self.num_actions = engine.num_actions
        self.max_game_length = engine.max_game_length
        self.obs_encoder = engine.obs_encoder
        self.observation_shape = engine.observation_shape
        self.rules = engine.rules
        self.deck = self.rules.deck
        self.deal_size = self.rules.deal_size
        self.public = True  # sessions always carry the public state
        sc = engine.session_config
        self.session = js.Session(
            start_stacks=engine._start_stacks.astype(np.int32), levels=engine._levels.astype(np.int32),
            hands_per_level=sc.hands_per_level if sc.blind_levels else 0, hands_per_episode=sc.hands_per_episode,
            rebuy=sc.rebuy, payouts=tuple(sc.payouts), hole=deal_shape(engine.start_config), scale=engine.reward_scale,
        )
        self._dealer = Dealer(self.deck, self.deal_size)

    # The functional contract -----------------------------------------------------------------
    @partial(jax.jit, static_argnums=(0, 2))
    def init(self, key: jax.Array, num_envs: int) -> tuple[js.SessionTables, VectorStep]:
        """``num_envs`` tables starting sessions, first buttons and cards drawn from ``key``; (state, first output)."""
        k_button, k_deal, k_state = jax.random.split(key, 3)
        buttons = jax.random.randint(k_button, (num_envs,), 0, self.num_players, dtype=jnp.int32)
        return self.start(k_state, buttons, j.deal(k_deal, num_envs, self.deck, self.deal_size)[:, None, :])

    def start(self, key: jax.Array, buttons: jax.Array, decks: jax.Array) -> tuple[js.SessionTables, VectorStep]:
        """New sessions at every table with first ``buttons`` (B,); ``decks`` (B, H, k) deal each table's first
        H hands (H >= 1); later hands are dealt from ``key``, which the state keeps."""
        buttons = jnp.asarray(buttons, jnp.int32)
        decks = jnp.asarray(decks, jnp.int32)
        b, n = buttons.shape[0], self.num_players
        cfg = self.session
        zn = jnp.zeros((b, n), jnp.int32)
        stacks = jnp.broadcast_to(jnp.asarray(cfg.start_stacks, jnp.int32), (b, n))
        seated = jnp.ones((b, n), bool)
        blinds = jnp.broadcast_to(jnp.asarray(cfg.levels[0], jnp.int32), (b, 3))
        hand = js.post_forced_bets(self.rules, buttons, stacks, seated, blinds, decks[:, 0], key)
        s = js.SessionTables(
            hand=hand, stacks=stacks, results=zn, seated=seated, place=zn, hand_number=jnp.zeros(b, jnp.int32),
            level=jnp.zeros(b, jnp.int32), blinds=blinds, hand_start=stacks, first_button=buttons, hand_decks=decks[:, 0],
            final_places=zn, given=decks, given_hands=jnp.full(b, decks.shape[1], jnp.int32),
        )
        everything = jnp.ones(b, bool)
        s = js.start_hands(js.new_sessions(s, cfg, everything, buttons), self.rules, cfg, everything, decks[:, 0])
        z = jnp.zeros(b, bool)
        return s, self.observe(s, jnp.zeros((b, n), jnp.float32), z, z, jnp.zeros((b, n), bool))

    def step(self, state: js.SessionTables, actions: jax.Array, active: jax.Array | None = None
             ) -> tuple[js.SessionTables, VectorStep]:
        """One action per table for its seat to act; finished hands are paid, the sessions' bookkeeping done and
        the next hand (or session) dealt. Illegal actions and ``active`` as in ``JaxHoldem.step``."""
        rules, n, cfg = self.rules, self.num_players, self.session
        h = state.hand
        b = h.player.shape[0]
        s, legal = j.play(h, rules, actions)
        street = s.street
        s, over = j.advance(s, rules)
        p = s.player
        passing = s.passing & (p >= 0)  # a decided hand passes the seats in play only, in seat order
        later = state.seated & (jnp.arange(n) >= p[:, None])
        nxt = jnp.where(later.any(1), jnp.argmax(later, 1), -1).astype(p.dtype)
        player = jnp.where(passing, nxt, p)
        over = over | (passing & (nxt < 0))
        moved = (s.street != street) & (player >= 0) & ~s.passing  # a new street's minimum raise: the hand's big blind
        bb = state.blinds[:, 1]
        full = jnp.where(rules.limit & (s.street >= 2), 2 * bb, bb)
        s = s._replace(player=player, full_raise=jnp.where(moved, full, s.full_raise))
        key, sub = jax.random.split(s.key)
        capacity = b if n == 2 else max(1, b // 4)  # rows settled at a time (as JaxHoldem._capacity)
        won, fresh = js.showdowns(s, rules, over, sub, self.deck, capacity)
        new = state._replace(hand=s._replace(key=key))
        new, rewards, out, ended = js.between_hands(new, cfg, over, won)
        new = js.start_hands(new, rules, cfg, over, fresh)  # auto-reset: the next hand, or the next session
        new, rewards, ended, (over, out) = end_step(state, new, key, legal, rewards, ended, active, over, out)
        return new, self.observe(new, rewards, ended, over, out)

    def observe(self, s: js.SessionTables, rewards: jax.Array, terminated: jax.Array, hand_over: jax.Array,
                eliminated: jax.Array) -> VectorStep:
        """The output of every table for its seat to act (observation, mask, seat, public state) with
        ``rewards``, ``terminated`` (sessions ended), ``hand_over`` and ``eliminated``."""
        h, rules = s.hand, self.rules
        can, low, high, owe = j.raise_range(h, rules)
        mask, _ = j.action_mask(h, rules, can, low, high, owe)
        sb = s.blinds[:, 0].astype(jnp.float32)
        if self.obs_encoder == "default":
            obs = j.encode_default(h, rules, can, low, high, owe)
        elif self.obs_encoder == "flat56":
            obs = encode_flat56_session(h, rules, sb, s.hand_start, s.results)
        else:
            obs = encode_flat107_session(h, rules, sb)
        public = j.encode_public(h, rules, can, low, high, owe, s.blinds, s.hand_number, s.level, s.seated)
        return VectorStep(obs, mask, h.player, rewards, terminated, public, hand_over, eliminated)

    # Host side: what reset's seed and options decide -----------------------------------------
    def reset_arrays(self, rng: np.random.Generator, num_envs: int, seed: int | None, options: dict[str, Any],
                     last: Any | None) -> tuple[np.ndarray, np.ndarray]:
        """(first buttons (B,), decks (B, H, k)) of a reset, drawn from ``rng`` as the numpy session engine draws
        them; ``options["decks"]`` (num_envs, hands, k) deals each table's first hands (else one random hand);
        ``last``: the previous state (the first buttons move one seat on), None after a first or seeded reset."""
        options = dict(options)
        given = options.pop("decks", None)
        last_buttons = None if last is None else last.first_button
        buttons, _ = reset_hands(rng, self._dealer, num_envs, self.num_players, seed, last_buttons, options)
        raw = self._dealer.deal(rng, num_envs)[:, None, :]
        if given is not None:
            arr = np.asarray(given)
            if arr.ndim != 3 or arr.shape[0] != num_envs:
                raise ValueError(f"decks must have shape ({num_envs}, hands, k) (the dealing order of each table's "
                                 f"first hands), got {arr.shape}")
            arr = self._dealer.check(arr.reshape(-1, arr.shape[2]), num_envs * arr.shape[1]).reshape(arr.shape)
            if arr.shape[1]:
                raw = np.stack([self._dealer.deal(rng, num_envs, arr[:, i]) for i in range(arr.shape[1])], 1)
        return buttons, raw


def encode_flat56_session(h: j.HoldemTables, rules: Rules, sb: jax.Array, hand_start: jax.Array, results: jax.Array
                          ) -> jax.Array:
    """(B, 56) float32 ``holdem_session.encode_flat56_session``: amounts in the hand's small blinds ``sb`` (B,),
    feature 0 counted from the session's start."""
    p = h.player
    seat = jnp.arange(rules.n) == p[:, None]
    own, board = j.seen_cards(h, rules)
    change = (seat_values(h.stacks, p) - seat_values(hand_start, p)) / sb + seat_values(results, p) / sb
    return j._floats(change, (h.contributed.sum(1) - h.bets.sum(1)) / sb, seat_values(h.bets, p) / sb,
                     jnp.where(seat, jnp.iinfo(jnp.int32).min, h.bets).max(1) / sb, own | board)


def encode_flat107_session(h: j.HoldemTables, rules: Rules, sb: jax.Array) -> jax.Array:
    """(B, 107) float32 ``holdem_session.encode_flat107_session``: the current bet in the hand's small blinds."""
    own, board = j.seen_cards(h, rules)
    return j._floats(h.bets.max(1) / sb, rules.n - h.folded.sum(1), h.active_at_start, board, own)
