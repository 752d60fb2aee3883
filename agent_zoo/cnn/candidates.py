"""The actions a CNN player scores and their de-duplicated encodings, read from the public betting state.

One code path for the agent (``agent.CNNAgent``, which reads the public state from its observation) and for
the rules-state scorer used by the tests (``selfplay.cnn_scores``): the candidate ids, the (kind, chips added)
of each, and the exact value of a fold are functions of the public state and the legal ids alone.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agent_zoo.cnn.config import CANDIDATE_SETS
from agent_zoo.cnn.heuristic import pot_raise_to
from poker_envs.encoders.poker_cnn import NUM_CELLS
from poker_envs.encoders.public import PublicState
from poker_envs.games.holdem import BET, CALL, CHECK, FOLD, RAISE

A_FOLD, A_CALL = 0, 1


def candidate_actions(legal: Sequence[int], public: PublicState, candidates: str = "full",
                      fractions: Sequence[float] = (0.5, 1.0, 2.0)) -> list[int]:
    """Legal action ids a CNN player scores: all of ``legal`` ("full") or fold, check/call, the minimum
    raise, raises of ``fractions`` of the pot (after calling) and all-in ("subset"); ``public`` is the
    public betting state of the seat to act."""
    legal = [int(a) for a in legal]
    if candidates == "full":
        return legal
    if candidates != "subset":
        raise ValueError(f"candidates must be one of {CANDIDATE_SETS}, got {candidates!r}")
    out = [a for a in legal if a < 2]
    if public.can_raise:
        tos = {int(public.min_raise_to), int(public.max_raise_to), *(pot_raise_to(public, f) for f in fractions)}
        out.extend(sorted(to + 1 for to in tos))
    return out


def distinct_candidates(public: PublicState, actions: Sequence[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(kinds, chips added, index into ``actions`` of each distinct encoding's first action).

    ``public``: the public betting state of the seat to act; ``actions``: its legal ids of
    ``bet_sizing="chips"`` (a raise to r chips is id r + 1), ascending. The Poker-CNN tensor fill-codes
    amounts up to 52 small blinds, so every raise adding 52 small blinds or more encodes identically;
    scoring each distinct tensor once changes no score.
    """
    bet = public.bets[public.observer]
    max_bet = max(public.bets)
    acts = np.asarray(actions, dtype=np.int64)
    raises = acts > A_CALL
    call_kind, call_added = (CALL, public.to_call) if max_bet > bet else (CHECK, 0)
    kinds = np.where(raises, RAISE if max_bet > 0 else BET, np.where(acts == A_CALL, call_kind, FOLD))
    added = np.where(raises, acts - 1 - bet, np.where(acts == A_CALL, call_added, 0)).astype(np.float64)
    saturated = raises & (added >= NUM_CELLS * public.small_blind)
    first = np.flatnonzero(~saturated | (np.cumsum(saturated) == 1))  # keep the first saturated raise
    return kinds[first], added[first], first


def expand_scores(actions: Sequence[int], values: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Scores of every action in ``actions`` from the scores of its distinct encodings.

    Repeated encodings are the saturated raises, which come last in ascending id order: each action
    takes the score of the last distinct encoding at or before it. ``values`` may have leading axes
    (rows sharing ``actions``); the last one indexes the distinct encodings."""
    at = np.searchsorted(first, np.arange(len(actions)), side="right") - 1
    return np.asarray(values, dtype=np.float32)[..., at]  # (..., distinct) -> (..., actions)


def fold_value(public: PublicState, actions: Sequence[int], values: np.ndarray) -> None:
    """Set a legal fold's score (the first entry of ``values``' last axis) to its exact value: the chips
    already put in are lost, divided by the stack the seat started the hand with (the buy-in of a one-hand
    episode)."""
    if len(actions) and actions[0] == A_FOLD:
        seat = public.observer
        values[..., 0] = -public.contributed[seat] / (public.stacks[seat] + public.contributed[seat])
