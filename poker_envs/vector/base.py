"""The batched engine's contract: many tables of one game stepped together, arrays in and out.

A vector game holds ``num_envs`` tables as arrays (structure of arrays over tables) and advances
all of them with one ``step(actions)`` call: one action per table, for that table's seat to act.
Finished tables deal their next hand at once (auto-reset), so every table always has a seat to act.
It plays the same game as the AEC environment of the same configuration: same action ids, same
legality, same rewards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np


@dataclass(frozen=True)
class VectorStep:
    """What ``reset`` and ``step`` return; every array's first axis is the table."""

    observation: np.ndarray  # (num_envs, *obs_shape) for each table's seat to act
    action_mask: np.ndarray  # (num_envs, num_actions) int8, 1 where legal for that seat
    current_player: np.ndarray  # (num_envs,) int, the seat to act
    rewards: np.ndarray  # (num_envs, num_players) float; non-zero only where a hand ended in this call
    terminated: np.ndarray  # (num_envs,) bool: that table's episode (its hand, or its session) ended in this call (and it was reset)
    # Hold'em engines built with ``public=True`` (and every session): (num_envs, 14 + 6 n) float32, the public
    # betting state (``poker_envs.encoders.public``) seen by each table's seat to act; None otherwise.
    public: np.ndarray | None = None
    # Sessions (``hands_per_episode`` > 1 or ``payouts``; None otherwise): (num_envs,) bool, a hand ended at
    # that table in this call; (num_envs, num_players) bool, seats eliminated in this call (their agents are done).
    hand_over: np.ndarray | None = None
    eliminated: np.ndarray | None = None


class VectorGame(Protocol):
    """What every batched game offers (see ``poker_envs.vector.make``)."""

    num_envs: int
    num_players: int
    num_actions: int
    observation_shape: tuple[int, ...]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> VectorStep: ...

    def step(self, actions: np.ndarray) -> VectorStep: ...


# Engines may also take ``step(actions, active=None)``: ``active`` (num_envs,) bool advances only those
# tables (the others keep their state, their actions are not read; rewards 0, terminated False there).
# The single-agent view (``wrappers.vector_env``) needs it to let opponents act while learner tables wait.


BACKENDS = ("numpy", "jax")


def check_backend(backend: Any, shard: Any = None) -> None:
    """ValueError naming ``backend`` unless it is one of ``BACKENDS``; ImportError with the fix if JAX is missing.

    ``shard`` (None, True or False) splits the JAX engine's tables over the local devices; the numpy engine
    refuses it (it would not take effect)."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {list(BACKENDS)}, got {backend!r}")
    if shard is not None and not isinstance(shard, bool):
        raise TypeError(f"shard must be True or False, got {shard!r}")
    if backend == "numpy" and shard is not None:
        raise ValueError("shard splits the JAX engine's tables over devices: it needs backend='jax'")
    if backend == "jax":
        try:
            import jax  # noqa: F401
        except ImportError:
            raise ImportError("backend='jax' needs JAX: pip install 'poker-envs[jax]'") from None


def check_reset_options(options: dict[str, Any], game: str, has_button: bool) -> None:
    """ValueError naming an unknown reset option, or ``buttons`` for a game without a button (every backend)."""
    allowed = ["decks", "buttons"] if has_button else ["decks"]
    unknown = sorted(set(options) - {"decks", "buttons"})
    if unknown:
        raise ValueError(f"unknown reset options {unknown}; allowed: {allowed}")
    if not has_button and options.get("buttons") is not None:
        raise ValueError(f"options['buttons'] cannot be used: {game} has no button (seat 0 always acts first)")


def check_active(active: Any, num_envs: int) -> np.ndarray:
    """``active`` as a (num_envs,) bool array; ValueError/TypeError naming ``active`` otherwise."""
    arr = np.asarray(active)
    if arr.shape != (num_envs,):
        raise ValueError(f"active must have shape ({num_envs},) (one flag per table), got {arr.shape}")
    if arr.dtype != np.bool_:
        raise TypeError(f"active must be a bool array, got dtype {arr.dtype}")
    return arr


def check_actions(
    actions: Any, mask: np.ndarray, current_player: np.ndarray, active: np.ndarray | None = None
) -> np.ndarray:
    """``actions`` as an int64 array of one legal action per table; ValueError/TypeError otherwise.

    The error names ``actions`` for a wrong shape or dtype, and the table index, the seat, the
    action and the legal ids for an illegal action (nothing is clipped). With ``active`` (a bool
    array from ``check_active``) only those tables' actions must be legal.
    """
    arr = np.asarray(actions)
    num_envs, num_actions = mask.shape
    if arr.shape != (num_envs,):
        raise ValueError(f"actions must have shape ({num_envs},) (one action per table), got {arr.shape}")
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"actions must be an integer array, got dtype {arr.dtype}")
    arr = arr.astype(np.int64, copy=False)
    in_range = (arr >= 0) & (arr < num_actions)
    ok = in_range.copy()
    ok[in_range] = mask[np.flatnonzero(in_range), arr[in_range]] == 1
    if active is not None:
        ok |= ~active
    if not ok.all():
        t = int(np.flatnonzero(~ok)[0])
        legal = np.flatnonzero(mask[t]).tolist()
        raise ValueError(
            f"actions[{t}] = {int(arr[t])} is illegal for seat {int(current_player[t])} at table {t}; legal ids: {legal}"
        )
    return arr


def step_rows(
    actions: Any, mask: np.ndarray, current_player: np.ndarray, active: Any, num_envs: int
) -> tuple[np.ndarray, np.ndarray | None]:
    """The start of every numpy engine's ``step``: the checked actions (int64, one per table) and the tables the
    step advances, None for every table (``active`` None or all set) or else the indices of the ``active`` ones.
    Errors as ``check_active`` and ``check_actions`` give them (the JAX twin: ``vector.jax.base.end_step``)."""
    if active is None:
        return check_actions(actions, mask, current_player), None
    flags = check_active(active, num_envs)
    acts = check_actions(actions, mask, current_player, active=flags)
    return acts, None if flags.all() else np.flatnonzero(flags)


def spread(rows: np.ndarray | None, num_envs: int, *parts: np.ndarray) -> tuple[np.ndarray, ...]:
    """The end of a step over some tables: each part (R, ...) of the tables ``rows`` as a (num_envs, ...) array,
    zero (False) at the tables the step left alone (``active``: no rewards, no episode end); ``rows`` None: as is."""
    if rows is None:
        return parts
    full = []
    for part in parts:
        out = np.zeros((num_envs, *part.shape[1:]), dtype=part.dtype)
        out[rows] = part
        full.append(out)
    return tuple(full)
