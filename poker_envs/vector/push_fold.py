"""Batched push-or-fold hold'em: ``num_envs`` tables of ``poker_envs.push_fold_v0`` stepped with numpy.

The rules are ``poker_envs.games.push_fold``'s: seats act in order from seat 0 (the last two are the
blinds), 0 = fold, 1 = all-in; the big blind acts only if somebody pushed; two or more all-in see a
five-card board and the pots are settled exactly (``settlement.settle_batch(exact=True)``, with the
rake). Rewards in big blinds, observations the ``push_fold`` encoder's (``encoders.small_games``),
masks always both actions. There is no button: ``reset``'s ``buttons`` option is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from poker_envs.core.cards import NUM_CARDS
from poker_envs.core.evaluator import evaluate_batch
from poker_envs.core.settlement import settle_batch
from poker_envs.encoders.small_games import (
    PF_ACTS, PF_ANTE, PF_CLASS, PF_MAX_PLAYERS, PF_NUM, PF_OWN, PF_POS, PF_POT, PF_STACKS, PUSH_FOLD_SIZE,
)
from poker_envs.games.push_fold import ALL_IN, FOLD, PushFoldConfig
from poker_envs.vector.base import VectorStep, check_reset_options, step_rows
from poker_envs.vector.sampling import Dealer

ENCODERS = ("default", "push_fold")  # one encoder under two names, as in the AEC env
NOT_ACTED = -1  # ``actions`` entry of a seat that has not acted yet


def hand_classes(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """``games.push_fold.hand_class`` of many pairs of cards at once."""
    hi, lo = 12 - (first >> 2), 12 - (second >> 2)
    hi, lo = np.minimum(hi, lo), np.maximum(hi, lo)
    upper = (hi == lo) | ((first & 3) == (second & 3))  # pairs and suited hands: row = higher rank
    return np.where(upper, hi * 13 + lo, lo * 13 + hi)


class VectorPushFold:
    """``num_envs`` push/fold tables of one configuration (see the module doc and ``poker_envs.vector.base``)."""

    num_actions = 2
    observation_shape = (PUSH_FOLD_SIZE,)
    observation_bounds = (0.0, np.inf)

    def __init__(self, num_envs: int, config: PushFoldConfig, *, seed: int | None = None, obs_encoder: str = "default") -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if obs_encoder not in ENCODERS:
            raise ValueError(f"obs_encoder {obs_encoder!r} has no batched form for push_fold; choose one of {list(ENCODERS)}")
        self.config = config
        self.num_envs = b = int(num_envs)
        self.num_players = n = config.num_players
        self.max_game_length = n
        self.obs_encoder = obs_encoder
        self._stacks = np.array(config.stacks, dtype=np.float64)
        self._posted = np.array([float(config.ante_bb) + x for x in config.blinds()])  # antes and blinds by seat
        self._button = np.full(b, 0 if n == 2 else n - 3)  # settlement's button: the seat before the small blind
        self._rake_cap = None if config.rake_cap_bb is None else float(config.rake_cap_bb)
        self._dealer = Dealer(np.arange(NUM_CARDS), 2 * n + 5)
        self._rng = np.random.default_rng(seed)
        self.cards = np.zeros((b, 2 * n + 5), dtype=np.int64)  # dealing order: hole cards round from seat 0 twice, board
        self.actions = np.full((b, n), NOT_ACTED, dtype=np.int8)  # FOLD, ALL_IN or NOT_ACTED by seat
        self.contributions = np.zeros((b, n))  # big blinds put in, antes and blinds included
        self.player = np.zeros(b, dtype=np.int64)  # seat to act
        self._mask = np.ones((b, 2), dtype=np.int8)
        self._obs = np.zeros((b, PUSH_FOLD_SIZE), dtype=np.float32)
        self._seat_rows = self._seat_features()
        self._started = False

    def _seat_features(self) -> np.ndarray:
        """(n, 259) the observation entries that depend only on the seat to act (position, players, stacks, ante)."""
        n, offset = self.num_players, PF_MAX_PLAYERS - self.num_players  # seat s sits at position slot s + offset
        rows = np.zeros((n, PUSH_FOLD_SIZE), dtype=np.float32)
        rows[np.arange(n), PF_POS + np.arange(n) + offset] = 1.0
        rows[:, PF_NUM + n - 2] = 1.0
        rows[:, PF_OWN] = self._stacks
        rows[:, PF_STACKS + offset : PF_STACKS + PF_MAX_PLAYERS] = self._stacks
        rows[:, PF_ANTE] = self.config.ante_bb
        return rows

    # The contract ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> VectorStep:
        """Deal a new hand at every table; ``options["decks"]`` (num_envs, k) card ids are dealt first."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        options = dict(options or {})
        check_reset_options(options, "push_fold", has_button=False)
        decks = self._dealer.check(options["decks"], self.num_envs) if "decks" in options else None
        rows = np.arange(self.num_envs)
        self._deal(rows, decks)
        self._encode(rows)
        self._started = True
        return self._output(np.zeros((self.num_envs, self.num_players)), np.zeros(self.num_envs, dtype=bool))

    def step(self, actions: np.ndarray, active: np.ndarray | None = None) -> VectorStep:
        """One action per table for its seat to act (only the ``active`` tables advance when given)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        acts, picked = step_rows(actions, self._mask, self.player, active, self.num_envs)
        rows = np.arange(self.num_envs) if picked is None else picked
        n = self.num_players
        p = self.player[rows]
        a = acts[rows]
        self.actions[rows, p] = a
        push = a == ALL_IN
        self.contributions[rows[push], p[push]] = self._stacks[p[push]]
        nxt = p + 1
        pushed = (self.actions[rows] == ALL_IN).any(1)
        over = (nxt >= n) | ((nxt == n - 1) & ~pushed)  # all acted, or folded round to the big blind
        self.player[rows] = nxt
        rewards = np.zeros((self.num_envs, n))
        terminated = np.zeros(self.num_envs, dtype=bool)
        ended = rows[over]
        if ended.size:
            rewards[ended] = self._settle(ended)
            terminated[ended] = True
            self._deal(ended, None)
        self._encode(rows)
        return self._output(rewards, terminated)

    # Kernels -----------------------------------------------------------------------------------
    def _settle(self, rows: np.ndarray) -> np.ndarray:
        """(R, n) big blinds won (+) or lost (-) at the finished ``rows``."""
        n = self.num_players
        live = self.actions[rows] != FOLD  # a seat that never had to act (the big blind) is live
        contributed = self.contributions[rows]
        strengths = np.zeros((len(rows), n), dtype=np.int64)
        show = live.sum(1) >= 2
        if show.any():
            cards = self.cards[rows[show]]
            seats = np.arange(n)
            hands = np.concatenate([
                cards[:, seats, None], cards[:, n + seats, None],
                np.broadcast_to(cards[:, None, 2 * n :], (len(cards), n, 5)),
            ], axis=2)
            strengths[show] = evaluate_batch(hands.reshape(-1, 7), check=False).reshape(-1, n)
        won = settle_batch(contributed, ~live, strengths, self._button[: len(rows)], exact=True,
                           rake=float(self.config.rake), rake_cap=self._rake_cap)
        return won - contributed

    def _deal(self, rows: np.ndarray, decks: np.ndarray | None) -> None:
        self.cards[rows] = self._dealer.deal(self._rng, len(rows), decks)
        self.actions[rows] = NOT_ACTED
        self.contributions[rows] = self._posted
        self.player[rows] = 0

    def _encode(self, rows: np.ndarray) -> None:
        """The ``push_fold`` observation of the seat to act at ``rows`` (``encoders.small_games.push_fold_vector``)."""
        n = self.num_players
        p = self.player[rows]
        cards = self.cards[rows]
        r = np.arange(len(rows))
        first, second = cards[r, p], cards[r, n + p]
        obs = self._seat_rows[p]
        obs[r, first] = 1.0
        obs[r, second] = 1.0
        obs[r, PF_CLASS + hand_classes(first, second)] = 1.0
        obs[:, PF_POT] = self.contributions[rows].sum(1)
        kind = self.actions[rows].astype(np.int64) + 1  # 0 not acted, 1 fold, 2 all-in
        slots = PF_ACTS + 3 * (np.arange(n) + PF_MAX_PLAYERS - n)
        obs[r[:, None], slots + kind] = 1.0
        self._obs[rows] = obs

    def _output(self, rewards: np.ndarray, terminated: np.ndarray) -> VectorStep:
        return VectorStep(self._obs.copy(), self._mask.copy(), self.player.copy(), rewards, terminated)


def make_push_fold(
    num_envs: int, seed: int | None = None, *, num_players: int = 2, stack_bb: float = 10.0, ante_bb: float = 0.0,
    rake: float = 0.0, rake_cap_bb: float | None = None, stacks_bb: Sequence[float] | None = None,
    obs_encoder: str = "default",
) -> VectorPushFold:
    """Batched ``push_fold_v0`` (same arguments as ``push_fold_v0.env``)."""
    config = PushFoldConfig(
        num_players=num_players, stack_bb=stack_bb, ante_bb=ante_bb, rake=rake, rake_cap_bb=rake_cap_bb,
        stacks_bb=None if stacks_bb is None else tuple(stacks_bb),
    )
    return VectorPushFold(num_envs, config, seed=seed, obs_encoder=obs_encoder)
