"""Kuhn poker and Leduc hold'em in the functional form: ``init`` / ``step`` over a state pytree.

``vector.make("kuhn_poker" | "leduc_holdem", ..., backend="jax")`` and ``vector.functional.make`` build a
``JaxKuhn`` / ``JaxLeduc``; see ``poker_envs.vector.functional`` for the contract. Each function mirrors the
numpy engine's kernel of the same name (``vector.kuhn`` / ``vector.leduc``) with ``jnp.where`` over every
table where numpy writes to selected rows, so both engines give the same masks, observations and rewards
for the same deals and actions. Neither game has a button: ``start`` ignores the buttons it is given.

An illegal action (out of range, or masked) is played as the lowest legal id: pass in Kuhn; in Leduc fold
when facing a raise, check otherwise (fold is masked then); ``state.illegal`` marks those tables.
"""

from __future__ import annotations

from functools import partial
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from poker_envs.encoders.small_games import LEDUC_SIZE
from poker_envs.games.kuhn import BET, PASS, KuhnGame
from poker_envs.games.leduc import ANTE, FOLD, MAX_ACTIONS_PER_ROUND, MAX_RAISES, NUM_SUITS, RAISE, RAISE_SIZES, LeducGame
from poker_envs.vector.jax import _holdem_kernels as j
from poker_envs.vector.sampling import check_decks, deal_cards
from poker_envs.vector.base import VectorStep, check_reset_options
from poker_envs.vector.jax.stateful import JaxVectorGame
from poker_envs.vector.kuhn import VectorKuhn
from poker_envs.vector.leduc import RANK_CHIPS_SIZE, VectorLeduc

_SLOTS = 3 * MAX_ACTIONS_PER_ROUND  # Leduc action one-hots per round


class KuhnTables(NamedTuple):
    """B Kuhn tables (the numpy engine's arrays, int32) and the dealing key."""

    cards: jax.Array  # (B, 2) card of seat 0, of seat 1 (0 = J .. 2 = K)
    player: jax.Array  # (B,) seat to act
    moves: jax.Array  # (B,) actions so far
    first: jax.Array  # (B,) seat 0's first action
    history: jax.Array  # (B, 6) float32 one-hot action slots, as in the observation
    key: jax.Array  # PRNG key of the next deals
    illegal: jax.Array  # (B,) bool the last step's action at that table was illegal (played as a pass)


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
        legal = (actions >= 0) & (actions < self.num_actions) & (j._at(mask, clipped) == 1)
        acts = jnp.where(legal, actions, jnp.argmax(mask, axis=1).astype(jnp.int32))
        s, result, ended = self._apply(state, acts)
        rewards = jnp.where(ended[:, None], jnp.stack([result, -result], axis=1), 0.0).astype(jnp.float32)
        key, sub = jax.random.split(state.key)
        fresh = self.fresh(j.deal(sub, b, self.deck, self.deal_size))
        s = _select_fields(ended, fresh, s)._replace(key=key, illegal=~legal)
        if active is not None:
            s = _select_fields(active, s, state)._replace(key=s.key, illegal=s.illegal & active)
            rewards = jnp.where(active[:, None], rewards, 0.0)
            ended = ended & active
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
        own = j._at(s.cards, s.player)
        return jnp.concatenate([jax.nn.one_hot(s.player, 2), jax.nn.one_hot(own, self.num_cards), s.history], axis=1)


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
        mine, theirs = j._at(s.contributions, p), j._at(s.contributions, o)
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
        owes = j._at(s.contributions, s.player) < j._at(s.contributions, 1 - s.player)
        can_raise = s.raises < MAX_RAISES
        return jnp.stack([owes, jnp.ones_like(owes), can_raise], axis=1).astype(jnp.int8)

    def encode(self, s: LeducTables) -> jax.Array:
        p = s.player
        own = j._at(s.cards, p)
        dealt = (s.round == 1)[:, None]  # the public card is shown from round two on
        if self.obs_encoder == "rank_chips":
            chips = 15  # one-hot of 0..14 chips put in (at most 13)
            return jnp.concatenate([
                jax.nn.one_hot(own // NUM_SUITS, 3), dealt * jax.nn.one_hot(s.cards[:, 2] // NUM_SUITS, 3),
                jax.nn.one_hot(j._at(s.contributions, p), chips), jax.nn.one_hot(j._at(s.contributions, 1 - p), chips),
            ], axis=1)
        return jnp.concatenate([
            jax.nn.one_hot(p, 2), jax.nn.one_hot(own, self.num_cards),
            dealt * jax.nn.one_hot(s.cards[:, 2], self.num_cards), s.history,
        ], axis=1)


def init_without_button(game: Any, key: jax.Array, num_envs: int) -> tuple[Any, VectorStep]:
    """``game.init`` of a game without a button (seat 0 acts first): deal ``num_envs`` tables from ``key``."""
    k_deal, k_state = jax.random.split(key)
    decks = j.deal(k_deal, num_envs, game.deck, game.deal_size)
    return game.start(k_state, jnp.zeros(num_envs, jnp.int32), decks)


def start_without_button(game: Any, key: jax.Array, decks: jax.Array) -> tuple[Any, VectorStep]:
    """``game.start`` of a game without a button: fresh hands (``game.fresh``) with ``decks``, keeping ``key``."""
    decks = jnp.asarray(decks, jnp.int32)
    b = decks.shape[0]
    state = game.fresh(decks)._replace(key=key, illegal=jnp.zeros(b, bool))
    return state, game.observe(state, jnp.zeros((b, game.num_players), jnp.float32), jnp.zeros(b, bool))


def _select_fields(rows: jax.Array, new: Any, old: Any) -> Any:
    """``old`` with every table field (all but ``key`` and ``illegal``) taken from ``new`` where ``rows``."""
    fields = {}
    for name in type(old)._fields:
        if name in ("key", "illegal"):
            continue
        a, b = getattr(new, name), getattr(old, name)
        fields[name] = jnp.where(rows.reshape(rows.shape + (1,) * (b.ndim - 1)), a, b)
    return old._replace(**fields)


def make_kuhn(num_envs: int, seed: int | None = None, *, shard: bool | None = None, obs_encoder: str = "default"
              ) -> JaxVectorGame:
    """``vector.make("kuhn_poker", ..., backend="jax")``: the AEC env's configuration is only ``obs_encoder``."""
    return JaxVectorGame(JaxKuhn(obs_encoder), num_envs, seed, shard=shard is not False)


def make_leduc(num_envs: int, seed: int | None = None, *, shard: bool | None = None, obs_encoder: str = "default"
               ) -> JaxVectorGame:
    """``vector.make("leduc_holdem", ..., backend="jax")``: the AEC env's configuration is only ``obs_encoder``."""
    return JaxVectorGame(JaxLeduc(obs_encoder), num_envs, seed, shard=shard is not False)
