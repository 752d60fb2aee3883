"""What the batched Kuhn and Leduc engines share: dealing, reset options, stepping a subset, the output.

A subclass keeps its per-table state as arrays and writes three kernels over a set of rows
(``rows``: ``slice(None)`` for every table, or an index array): ``_new_hands`` (clear the state of
freshly dealt tables), ``_apply`` (play one action per row, return seat 0's chips for the hands that
ended) and ``_encode`` (observations and masks of the seat to act). Both games are two-player and
zero-sum, so a hand's result is one number per table.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from poker_envs.vector.base import VectorStep, check_reset_options, step_rows
from poker_envs.vector.sampling import check_decks, deal_cards

Rows = slice | np.ndarray


class SmallVectorGame:
    """Base of the two-player card games without a button (Kuhn, Leduc); see ``base.VectorGame``."""

    num_players = 2
    num_actions: int
    num_cards: int  # cards in the deck
    deal_size: int  # cards of one deal, in the AEC env's ``deal`` order (seat 0, seat 1, [public])
    encoders: tuple[str, ...]  # obs_encoder names this game batches
    observation_bounds = (0.0, 1.0)  # every observation entry lies in this range (one-hot encoders)
    name: str

    def __init__(self, num_envs: int, seed: int | None = None, obs_encoder: str = "default") -> None:
        if isinstance(num_envs, (bool, np.bool_)) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        if obs_encoder not in self.encoders:
            raise ValueError(
                f"obs_encoder {obs_encoder!r} has no batched form for {self.name}; choose one of {list(self.encoders)}"
            )
        self.num_envs = int(num_envs)
        self.obs_encoder = "infostate" if obs_encoder == "default" else obs_encoder
        self._rng = np.random.default_rng(seed)
        n = self.num_envs
        self.cards = np.zeros((n, self.deal_size), dtype=np.int8)  # this hand's deal, per table
        self.player = np.zeros(n, dtype=np.int8)  # seat to act
        self._rows = np.arange(n)
        self._obs = np.zeros((n, *self.observation_shape), dtype=np.float32)
        self._mask = np.zeros((n, self.num_actions), dtype=np.int8)
        self._started = False

    observation_shape: tuple[int, ...]

    # The contract ----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> VectorStep:
        """Deal a new hand at every table; ``options["decks"]`` (num_envs, deal_size) fixes these deals.

        ``options["buttons"]`` is refused: Kuhn and Leduc have no button (seat 0 always acts first).
        """
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        options = dict(options or {})
        check_reset_options(options, self.name, has_button=False)
        decks = options.get("decks")
        self._deal(slice(None))
        if decks is not None:
            self.cards[:] = self._check_decks(decks)
        self._new_hands(slice(None))
        self._encode(slice(None))
        self._started = True
        zeros = np.zeros((self.num_envs, 2), dtype=np.float32)
        return self._output(zeros, np.zeros(self.num_envs, dtype=bool))

    def step(self, actions: np.ndarray, active: np.ndarray | None = None) -> VectorStep:
        """One action per table for its seat to act (only the ``active`` tables advance when given)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        acts, picked = step_rows(actions, self._mask, self.player, active, self.num_envs)
        rows: Rows = slice(None) if picked is None else picked
        result, ended = self._apply(rows, acts[rows])
        rewards = np.zeros((self.num_envs, 2), dtype=np.float32)
        terminated = np.zeros(self.num_envs, dtype=bool)
        done = self._rows[rows][ended]
        rewards[done, 0] = result[ended]
        rewards[done, 1] = -result[ended]
        terminated[done] = True
        if done.size:
            self._deal(done)
            self._new_hands(done)
        self._encode(rows)
        return self._output(rewards, terminated)

    # Shared helpers --------------------------------------------------------------------------
    def _deal(self, rows: Rows) -> None:
        self.cards[rows] = deal_cards(self._rng, self._rows[rows].size, self.num_cards, self.deal_size)

    def _check_decks(self, decks: Any) -> np.ndarray:
        return check_decks(decks, self.num_envs, self.num_cards, self.deal_size).astype(np.int8)

    def _output(self, rewards: np.ndarray, terminated: np.ndarray) -> VectorStep:
        return VectorStep(self._obs.copy(), self._mask.copy(), self.player.astype(np.int64), rewards, terminated)

    # Kernels of each game --------------------------------------------------------------------
    def _new_hands(self, rows: Rows) -> None:
        raise NotImplementedError

    def _apply(self, rows: Rows, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError

    def _encode(self, rows: Rows) -> None:
        raise NotImplementedError
