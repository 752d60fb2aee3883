"""Batched no-limit, limit and short-deck hold'em: ``num_envs`` tables stepped with vectorised numpy.

The same game as ``poker_envs.nolimit_holdem_v0`` / ``limit_holdem_v0`` / ``shortdeck_holdem_v0`` of the
same configuration (rules: ``poker_envs.games.holdem``; kernels: ``_holdem_kernels``): same action ids,
masks, rewards and default observations; cards are dealt from the configured deck and shown down
under the configured ranking. Every hand starts from the configured stacks; the button moves one seat
per hand; a finished table deals its next hand in the same call (auto-reset).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from poker_envs.encoders.catalog import available_encoders
from poker_envs.games.holdem_args import seeded_buttons
from poker_envs.encoders import flat56, flat107
from poker_envs.encoders.poker_cnn import HISTORY
from poker_envs.encoders.public import public_size
from poker_envs.games.holdem import HoldemConfig, HoldemGame
from poker_envs.vector import _holdem_kernels as k
from poker_envs.vector._holdem_kernels import Rules, hand_starts  # noqa: F401  (public here: the JAX twin reads them)
from poker_envs.vector._holdem_cnn import SHAPE as CNN_SHAPE, encode_poker_cnn
from poker_envs.vector._holdem_encode import default_size, encode_default, encode_flat56, encode_flat107
from poker_envs.vector._holdem_public import encode_public_batch
from poker_envs.vector.base import VectorStep, check_reset_options, spread, step_rows
from poker_envs.vector.sampling import Dealer

ENCODERS = ("default", "flat56", "flat107", "poker_cnn")  # the batched forms of these single-table encoders


class VectorHoldem:
    """``num_envs`` hold'em tables of one configuration (see the module doc and ``poker_envs.vector.base``)."""

    def __init__(
        self, num_envs: int, config: HoldemConfig, *, seed: int | None = None, reward_unit: str = "big_blinds",
        obs_encoder: str = "default", public: bool = False,
    ) -> None:
        """``public=True``: every output also carries the public betting state (``VectorStep.public``)."""
        if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        check_options(config, reward_unit, obs_encoder)
        if not isinstance(public, bool):
            raise ValueError(f"public must be True or False, got {public!r}")
        game = HoldemGame(config)
        self.config = config
        self.num_envs = int(num_envs)
        self.num_players = n = config.num_players
        self.num_actions = game.num_distinct_actions
        self.max_game_length = game.max_game_length
        self.obs_encoder = obs_encoder
        self.reward_unit = reward_unit
        self.public = public
        sizes = {"default": (default_size(n),), "flat56": (flat56.SIZE,), "flat107": (flat107.SIZE,), "poker_cnn": CNN_SHAPE}
        self.observation_shape = sizes[obs_encoder]
        # poker_cnn reads the last actions of the street and the one before: the tables keep them only then.
        self._rules = k.Rules.from_game(game, history=HISTORY if obs_encoder == "poker_cnn" else 0)
        self.deck = self._rules.deck  # the card ids dealt, ascending (36 of them in short deck)
        self.deal_size = self._rules.deal_size  # cards one hand deals (the width of options["decks"])
        self._dealer = Dealer(self.deck, self._rules.deal_size)
        self.reward_scale = 1.0 / config.big_blind if reward_unit == "big_blinds" else 1.0  # chips -> reward_unit
        self._start = k.hand_starts(self._rules)  # the hand's start, one row per button
        self._rng = np.random.default_rng(seed)
        self._seed = seed  # the buttons of the first reset come from it (None: fresh entropy)
        self._started = False
        self.tables = k.Tables.empty(self.num_envs, n, self._rules.history, self._rules.deal_size)
        self._mask = np.zeros((self.num_envs, self.num_actions), dtype=np.int8)
        self._targets = np.zeros((self.num_envs, 1), dtype=np.int64)
        self._obs = np.zeros((self.num_envs, *self.observation_shape), dtype=np.float32)
        self._public = np.zeros((self.num_envs, public_size(n)), dtype=np.float32) if public else None

    @property
    def rules(self) -> k.Rules:
        """The configuration as the kernels read it (numbers and arrays)."""
        return self._rules

    @property
    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(low, high) of every observation entry: the single-table encoder's finite Box bounds."""
        space = available_encoders()[self.obs_encoder](HoldemGame(self.config)).observation_space
        return space.low, space.high

    @property
    def bytes_per_table(self) -> float:
        """Bytes of state, mask and observation buffers per table."""
        obs = 4 * int(np.prod(self.observation_shape))
        return self.tables.nbytes() / self.num_envs + self.num_actions + self._targets.shape[1] * 8 + obs

    # The contract ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> VectorStep:
        """Deal a new hand at every table: after a seed (that of ``reset``, or at the first reset the
        constructor's) each table's button is drawn from it, as the AEC env draws its button (table 0 gets
        the AEC env's seat for that seed); else one seat on from each table's last hand; ``options["buttons"]``
        fixes them; dealing orders ``options["decks"]``. A seed never pins every button to one seat."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self._seed = seed
        b, n = self.num_envs, self.num_players
        last = None if seed is not None or not self._started else self.tables.button
        self._started = True
        buttons, decks = reset_hands(self._rng, self._dealer, b, n, self._seed, last, dict(options or {}))
        self._start_hands(self.tables, np.arange(b), buttons, decks)
        return self._observe(np.zeros((b, n)), np.zeros(b, dtype=bool))

    def step(self, actions: np.ndarray, active: np.ndarray | None = None) -> VectorStep:
        """One action per table for its seat to act; finished tables are dealt their next hand.

        With ``active`` (num_envs,) bool only those tables advance (``base.py``'s optional extension): the
        kernels run on a copy of their rows, which is written back; the others keep state and outputs.
        """
        acts, rows = step_rows(actions, self._mask, self.tables.player, active, self.num_envs)
        if rows is None:
            rewards, terminated = self._advance(self.tables, acts, self._targets)
            return self._observe(rewards, terminated)
        part = self.tables.take(rows)
        rewards, terminated = spread(rows, self.num_envs, *self._advance(part, acts[rows], self._targets[rows]))
        self.tables.put(rows, part)
        return self._observe(rewards, terminated, rows, part)

    # Helpers -----------------------------------------------------------------------------------
    def _advance(self, t: k.Tables, acts: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Play ``acts`` at every table of ``t``, deal where a hand ended; (rewards, terminated) of ``t``'s rows."""
        rules = self._rules
        k.apply_actions(t, rules, acts, targets)
        over = k.advance(t, rules)
        rewards = np.zeros((len(acts), self.num_players))
        terminated = np.zeros(len(acts), dtype=bool)
        if over.size:
            rewards[over] = k.settle(t, rules, over) * self.reward_scale
            terminated[over] = True
            buttons = (t.button[over].astype(np.int64) + 1) % self.num_players
            self._start_hands(t, over, buttons, self._dealer.deal(self._rng, len(over)))
        return rewards, terminated

    def _start_hands(self, t: k.Tables, rows: np.ndarray, buttons: np.ndarray, decks: np.ndarray) -> None:
        """Start a hand at ``rows`` of ``t`` with ``buttons`` and the dealing orders ``decks``."""
        t.deck[rows] = decks
        for name, value in vars(self._start).items():  # all but the cards: the hand's start for that button
            if name != "deck":
                getattr(t, name)[rows] = value[buttons]

    def _observe(
        self, rewards: np.ndarray, terminated: np.ndarray, rows: np.ndarray | None = None, t: k.Tables | None = None
    ) -> VectorStep:
        """The output: masks, raise targets and observations of every table, or only of ``rows`` (whose state
        is ``t``; the other tables' are those of the last output, copied)."""
        if t is None:
            t = self.tables
        (can, low, high, owe), mask, targets = k.decision(t, self._rules)
        obs = self._encode(t, rows, can, low, high, owe)
        public = self._encode_public(t, rows, can, low, high, owe) if self._public is not None else None
        if rows is not None:  # earlier outputs keep their arrays: write into copies
            full_obs, full_mask = self._obs.copy(), self._mask.copy()
            full_obs[rows] = obs
            full_mask[rows] = mask
            if not self._rules.chips:  # "chips" targets are the same at every table (a read-only broadcast)
                self._targets[rows] = targets
            obs, mask = full_obs, full_mask
            if public is not None:
                full_public = self._public.copy()
                full_public[rows] = public
                public = full_public
        else:
            self._targets = targets
        self._obs, self._mask = obs, mask
        if public is not None:
            self._public = public
        return VectorStep(obs, mask, self.tables.player.astype(np.int64), rewards, terminated, public)

    def _encode(
        self, t: k.Tables, rows: np.ndarray | None, can: np.ndarray, low: np.ndarray, high: np.ndarray, owe: np.ndarray
    ) -> np.ndarray:
        """Observations of the seat to act at each table of ``t`` (``rows``: which tables ``t`` holds, None: all)."""
        if self.obs_encoder == "default":
            return encode_default(t, self._rules, can, low, high, owe)
        if self.obs_encoder == "flat56":
            return encode_flat56(t, self._rules)
        if self.obs_encoder == "flat107":
            return encode_flat107(t, self._rules)
        return encode_poker_cnn(t, self._rules)

    def _encode_public(
        self, t: k.Tables, rows: np.ndarray | None, can: np.ndarray, low: np.ndarray, high: np.ndarray, owe: np.ndarray
    ) -> np.ndarray:
        """The public state seen by the seat to act at each table of ``t`` (``rows`` as in ``_encode``)."""
        r = self._rules
        return encode_public_batch(t, can, low, high, owe, np.array([r.small_blind, r.big_blind, r.ante]))


def check_options(config: HoldemConfig, reward_unit: str, obs_encoder: str) -> None:
    """The batched engines' own arguments (every backend); errors name the argument."""
    if reward_unit not in ("big_blinds", "chips"):
        raise ValueError(f"reward_unit must be 'big_blinds' or 'chips', got {reward_unit!r}")
    if obs_encoder not in ENCODERS:
        raise ValueError(f"obs_encoder {obs_encoder!r} has no batched form; choose one of {list(ENCODERS)}")
    if config.dead_chips:
        raise ValueError(f"dead_chips={config.dead_chips}: the batched engine plays hands whose pot only the seats pay")
    if sum(config.starting_stacks) >= 2**31:
        raise ValueError(f"starting_stack: the batched engine counts chips in int32; the stacks sum to "
                         f"{sum(config.starting_stacks)}, at most {2**31 - 1} allowed")
    largest = max(config.fractions, default=0) if config.betting != "limit" else 0  # limit sizes no fractions
    if sum(config.starting_stacks) * (1 + largest) >= 2**31:
        raise ValueError(f"bet_sizing: a raise of {largest} pots of {sum(config.starting_stacks)} chips would overflow the "
                         "batched engine's int32 chip counts; use smaller pot fractions or smaller stacks")
    available_encoders()[obs_encoder](HoldemGame(config))  # the single-table encoder refuses a game it does not fit


def reset_hands(
    rng: np.random.Generator, dealer: Dealer, num_envs: int, num_players: int, seed: int | None,
    last_buttons: np.ndarray | None, options: dict[str, Any],
) -> tuple[np.ndarray, np.ndarray]:
    """(buttons, dealing orders) of a reset, in every backend: buttons drawn from ``seed`` apart from the cards'
    stream (``last_buttons`` None: a seeded or first reset) or one seat on from ``last_buttons``;
    ``options["buttons"]`` fixes them; ``options["decks"]`` are dealt first, the rest from ``rng``."""
    check_reset_options(options, "holdem", has_button=True)
    if last_buttons is None:
        buttons = seeded_buttons(seed, num_players, num_envs).astype(np.int64)
    else:
        buttons = (np.asarray(last_buttons).astype(np.int64) + 1) % num_players
    if "buttons" in options:
        buttons = _check_int_array("buttons", options["buttons"], (num_envs,), 0, num_players - 1)
    decks = dealer.check(options["decks"], num_envs) if "decks" in options else None
    return buttons, dealer.deal(rng, num_envs, decks)


def _check_int_array(name: str, value: Any, shape: tuple[int, ...] | None, low: int, high: int) -> np.ndarray:
    arr = np.asarray(value)
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{name} must be an integer array, got dtype {arr.dtype}")
    if shape is not None and arr.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, got {arr.shape}")
    if arr.size and (arr.min() < low or arr.max() > high):
        raise ValueError(f"{name} must hold values {low}..{high}")
    return arr.astype(np.int64)
