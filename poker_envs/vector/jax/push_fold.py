"""Push-or-fold hold'em in the functional form: ``init`` / ``step`` over a ``PushFoldTables`` pytree.

``functional.make("push_fold", **config)`` builds a ``JaxPushFold`` (``make_push_fold``) from the numpy
engine's configuration (``games.push_fold.PushFoldConfig``); ``vector.make(..., backend="jax")`` wraps it in
the stateful engine; see ``poker_envs.vector.functional`` for the contract. The step mirrors
``VectorPushFold.step`` with ``jnp.where`` over every table; showdowns use ``_showdown`` (``evaluate7``,
``settle_batch(exact=True)`` with the rake), so rewards (big blinds, float32) agree with the numpy engine's
float64 ones to about 1e-6 relative. There is no button: ``start`` ignores
the buttons it is given. Both actions are always legal; an out-of-range action is played as a fold and
flagged in ``state.illegal``.
"""

from __future__ import annotations

from functools import partial
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from poker_envs.core.cards import NUM_CARDS
from poker_envs.core.ranking import STANDARD
from poker_envs.encoders.small_games import (
    PF_ACTS, PF_ANTE, PF_CLASS, PF_MAX_PLAYERS, PF_NUM, PF_OWN, PF_POS, PF_POT, PF_STACKS, PUSH_FOLD_SIZE,
)
from poker_envs.games.push_fold import ALL_IN, FOLD, PushFoldConfig
from poker_envs.vector.jax import _holdem_kernels as j
from poker_envs.vector.jax._showdown import evaluate7, settle_batch
from poker_envs.vector.base import VectorStep, check_reset_options
from poker_envs.vector.jax.base import end_step, init_without_button, select, start_without_button
from poker_envs.vector.push_fold import ENCODERS, NOT_ACTED, VectorPushFold, hand_classes, make_push_fold as make_numpy
from poker_envs.vector.sampling import Dealer


class PushFoldTables(NamedTuple):
    """B push/fold tables (the numpy engine's arrays; chips float32 big blinds) and the dealing key."""

    cards: jax.Array  # (B, deal_size) dealing order: two hole cards round from seat 0, then the five-card board
    actions: jax.Array  # (B, n) FOLD, ALL_IN or NOT_ACTED (-1) by seat
    contributions: jax.Array  # (B, n) float32 big blinds put in, antes and blinds included
    player: jax.Array  # (B,) seat to act
    key: jax.Array  # PRNG key of the next deals
    illegal: jax.Array  # (B,) bool the last step's action at that table was out of range (played as a fold)



class JaxPushFold:
    """Push/fold of one configuration as pure functions (the arguments are ``VectorPushFold``'s)."""

    num_actions = 2
    observation_shape = (PUSH_FOLD_SIZE,)

    def __init__(self, config: PushFoldConfig, obs_encoder: str = "default") -> None:
        if obs_encoder not in ENCODERS:
            raise ValueError(f"obs_encoder {obs_encoder!r} has no batched form for push_fold; choose one of {list(ENCODERS)}")
        self.name = "push_fold"
        self.config = config
        self.num_players = n = config.num_players
        self.max_game_length = n
        self.obs_encoder = obs_encoder
        self.deck = np.arange(NUM_CARDS)
        self.deal_size = 2 * n + 5  # two hole cards a seat and a five-card board
        stacks = np.array(config.stacks, dtype=np.float64)
        self._stacks = jnp.asarray(stacks, jnp.float32)
        self._posted = jnp.asarray([float(config.ante_bb) + x for x in config.blinds()], jnp.float32)
        self._button = 0 if n == 2 else n - 3  # settlement's button: the seat before the small blind
        self._rake_cap = None if config.rake_cap_bb is None else float(config.rake_cap_bb)
        # Host tables: the observation entries fixed by the seat to act, and the hand class of every two cards.
        offset = PF_MAX_PLAYERS - n  # seat s sits at position slot s + offset
        rows = np.zeros((n, PUSH_FOLD_SIZE), dtype=np.float32)
        rows[np.arange(n), PF_POS + np.arange(n) + offset] = 1.0
        rows[:, PF_NUM + n - 2] = 1.0
        rows[:, PF_OWN] = stacks
        rows[:, PF_STACKS + offset : PF_STACKS + PF_MAX_PLAYERS] = stacks
        rows[:, PF_ANTE] = config.ante_bb
        self._seat_rows = jnp.asarray(rows)
        ids = np.arange(NUM_CARDS)
        self._classes = jnp.asarray(hand_classes(ids[:, None], ids[None, :]).astype(np.int32))
        self._act_slots = jnp.asarray(PF_ACTS + 3 * (np.arange(n) + offset), jnp.int32)

    # The functional contract -----------------------------------------------------------------
    @partial(jax.jit, static_argnums=(0, 2))  # one compiled program per game and table count
    def init(self, key: jax.Array, num_envs: int) -> tuple[PushFoldTables, VectorStep]:
        """``num_envs`` tables dealt from ``key``; (state, first output)."""
        return init_without_button(self, key, num_envs)

    def start(self, key: jax.Array, buttons: jax.Array, decks: jax.Array) -> tuple[PushFoldTables, VectorStep]:
        """New hands with dealing orders ``decks`` (B, ``deal_size``); ``buttons`` is ignored (no button); keeps ``key``."""
        return start_without_button(self, key, decks)

    def step(self, state: PushFoldTables, actions: jax.Array, active: jax.Array | None = None
             ) -> tuple[PushFoldTables, VectorStep]:
        """One action per table for its seat to act; finished hands are paid (big blinds) and the next one dealt.

        An out-of-range action is played as a fold and flagged in ``state.illegal``. With ``active`` (B,) bool
        only those tables advance; the others keep their state and get zero rewards.
        """
        n = self.num_players
        b = state.player.shape[0]
        actions = jnp.asarray(actions).astype(jnp.int32)
        legal = (actions >= 0) & (actions < self.num_actions)
        acts = jnp.where(legal, actions, FOLD)
        p = state.player
        seat = jnp.arange(n) == p[:, None]
        acted = jnp.where(seat, acts[:, None], state.actions)
        contributions = jnp.where(seat & (acts == ALL_IN)[:, None], self._stacks, state.contributions)
        nxt = p + 1
        pushed = (acted == ALL_IN).any(1)
        over = (nxt >= n) | ((nxt == n - 1) & ~pushed)  # all acted, or folded round to the big blind
        s = state._replace(actions=acted, contributions=contributions, player=nxt)
        rewards = jnp.where(over[:, None], self.settle(s), 0.0).astype(jnp.float32)
        key, sub = jax.random.split(state.key)
        s = select(over, self.fresh(j.deal(sub, b, self.deck, self.deal_size)), s)  # auto-reset
        s, rewards, over, _ = end_step(state, s, key, legal, rewards, over, active)
        return s, self.observe(s, rewards, over)

    def settle(self, s: PushFoldTables) -> jax.Array:
        """(B, n) big blinds won (+) or lost (-) if every table's hand ended now (as ``VectorPushFold._settle``)."""
        n = self.num_players
        live = s.actions != FOLD  # a seat that never had to act (the big blind) is live
        seats = np.arange(n)
        hands = jnp.concatenate([
            s.cards[:, seats, None], s.cards[:, n + seats, None],
            jnp.broadcast_to(s.cards[:, None, 2 * n :], (s.cards.shape[0], n, 5)),
        ], axis=2)
        show = live.sum(1) >= 2
        strengths = jnp.where(show[:, None], evaluate7(hands, STANDARD), 0)
        button = jnp.full(s.player.shape, self._button, jnp.int32)
        won = settle_batch(s.contributions, ~live, strengths, button, exact=True,
                     rake=float(self.config.rake), rake_cap=self._rake_cap)
        return won - s.contributions

    def observe(self, s: PushFoldTables, rewards: jax.Array, terminated: jax.Array) -> VectorStep:
        """The ``push_fold`` observation of every table's seat to act, all-ones masks, with ``rewards``/``terminated``."""
        n = self.num_players
        p = s.player
        rows = jnp.arange(p.shape[0])
        first, second = s.cards[rows, p], s.cards[rows, n + p]
        obs = self._seat_rows[p]
        obs = obs.at[rows, first].set(1.0).at[rows, second].set(1.0)
        obs = obs.at[rows, PF_CLASS + self._classes[first, second]].set(1.0)
        obs = obs.at[:, PF_POT].set(s.contributions.sum(1))
        kind = s.actions + 1  # 0 not acted, 1 fold, 2 all-in
        obs = obs.at[rows[:, None], self._act_slots + kind].set(1.0)
        mask = jnp.ones((p.shape[0], self.num_actions), jnp.int8)
        return VectorStep(obs, mask, p, rewards, terminated)

    # Host side: what reset's seed and options decide -----------------------------------------
    def reset_arrays(self, rng: np.random.Generator, num_envs: int, seed: int | None, options: dict[str, Any],
                     last: Any | None) -> tuple[np.ndarray, np.ndarray]:
        """(buttons (zeros), dealing orders) of a reset, drawn from ``rng`` as the numpy engine draws them (same
        seed, same first hands); ``options`` checked as the numpy engine checks them (``buttons`` refused)."""
        check_reset_options(options, "push_fold", has_button=False)
        dealer = Dealer(self.deck, self.deal_size)
        decks = dealer.check(options["decks"], num_envs) if "decks" in options else None
        return np.zeros(num_envs, dtype=np.int64), dealer.deal(rng, num_envs, decks)

    # Helpers ---------------------------------------------------------------------------------
    def fresh(self, cards: jax.Array) -> PushFoldTables:
        """New hands with ``cards``: nobody acted, antes and blinds posted, seat 0 to act (key, illegal unset)."""
        b, n = cards.shape[0], self.num_players
        return PushFoldTables(cards, jnp.full((b, n), NOT_ACTED, jnp.int32), jnp.broadcast_to(self._posted, (b, n)),
                             jnp.zeros(b, jnp.int32), None, None)


def make_push_fold(**config: Any) -> JaxPushFold:
    """The functional push/fold game: ``config`` as ``vector.push_fold.make_push_fold`` (checked there)."""
    engine: VectorPushFold = make_numpy(1, **config)
    return JaxPushFold(engine.config, engine.obs_encoder)
