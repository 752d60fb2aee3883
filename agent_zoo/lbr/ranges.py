"""Holdings, card removal and showdown equity against a range, for local best response.

A *range* is a weight per possible private holding of the opponent (every two-card combination in
hold'em and push/fold, every card in Leduc). The card families below give: the holdings, which of
them are still possible given cards the responder can see (its own and the board), how to put a
holding into a cloned rules state (so the opponent's observation can be encoded as if it held it),
and the responder's probability of winning a showdown against the range with the board so far
(``wp`` of Lisý and Bowling, "Equilibrium approximation quality of current no-limit poker bots",
AAAI-17 Workshop on Computer Poker and Imperfect Information Games).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from itertools import combinations
from typing import Any

import numpy as np

from poker_envs.core.evaluator import evaluate_batch, evaluate_cross
from poker_envs.games.base import GameState
from poker_envs.games.leduc import NUM_CARDS as LEDUC_CARDS
from poker_envs.games.leduc import hand_strength

DECK = 52
BOARD = 5


class CardFamily(ABC):
    """How one game family deals private cards; ``holdings`` is an int array (H, cards per holding)."""

    holdings: np.ndarray

    @abstractmethod
    def hole(self, state: Any, seat: int) -> list[int]:
        """The private cards of ``seat`` in ``state``."""

    @abstractmethod
    def board(self, state: Any) -> list[int]:
        """The public cards dealt so far."""

    @abstractmethod
    def with_hole(self, state: Any, seat: int, holding: np.ndarray) -> GameState:
        """A clone of ``state`` in which ``seat`` holds ``holding`` (the rest of the state unchanged)."""

    @abstractmethod
    def win_probability(self, hole: list[int], board: list[int], weights: np.ndarray, rng: np.random.Generator) -> float:
        """Probability that ``hole`` wins (ties count half) a showdown against the range ``weights`` (H,)."""

    def possible(self, seen: list[int]) -> np.ndarray:
        """(H,) bool: holdings that share no card with ``seen`` (card removal)."""
        if not seen:
            return np.ones(len(self.holdings), dtype=bool)
        return ~np.isin(self.holdings, np.asarray(seen)).any(axis=1)


class TwoCardFamily(CardFamily):
    """Hold'em and push/fold with the standard 52-card deck: 1,326 holdings; ``state.hole``/``state.board``.

    Equity is exact when at most ``max_enumerate`` board completions remain (turn and river), otherwise
    the mean over ``rollouts`` completions drawn without the responder's cards (the same boards for
    every holding; boards that collide with a holding are left out of that holding's average)."""

    def __init__(self, rollouts: int = 64, max_enumerate: int = 64) -> None:
        if rollouts < 1 or max_enumerate < 1:
            raise ValueError(f"rollouts and max_enumerate must be >= 1, got {rollouts}, {max_enumerate}")
        self.holdings = np.array(list(combinations(range(DECK), 2)), dtype=np.int64)
        self.rollouts = rollouts
        self.max_enumerate = max_enumerate

    def hole(self, state: Any, seat: int) -> list[int]:
        return list(state.hole[seat])

    def board(self, state: Any) -> list[int]:
        return list(state.board)

    def with_hole(self, state: Any, seat: int, holding: np.ndarray) -> GameState:
        new = state.clone()
        new.hole[seat] = [int(c) for c in holding]
        return new

    def boards(self, hole: list[int], board: list[int], rng: np.random.Generator) -> np.ndarray:
        """Board completions (B, 5): all of them when few remain, else ``rollouts`` random ones."""
        need = BOARD - len(board)
        if need == 0:
            return np.array([board], dtype=np.int64)
        left = np.setdiff1d(np.arange(DECK), np.array(hole + board))
        count = 1
        for k in range(need):  # C(len(left), need) without building it
            count = count * (len(left) - k) // (k + 1)
        if count <= self.max_enumerate:
            extra = np.array(list(combinations(left.tolist(), need)), dtype=np.int64)
        else:
            keys = rng.random((self.rollouts, len(left)))
            extra = left[np.argsort(keys, axis=1)[:, :need]]
        return np.hstack([np.tile(np.array(board, dtype=np.int64), (len(extra), 1)), extra])

    def win_probability(self, hole: list[int], board: list[int], weights: np.ndarray, rng: np.random.Generator) -> float:
        live = np.flatnonzero(weights > 0)
        if live.size == 0:
            raise ValueError("win_probability: the range has no weight")
        boards = self.boards(hole, board, rng)
        mine = evaluate_batch(np.hstack([np.tile(np.array(hole, dtype=np.int64), (len(boards), 1)), boards]), check=False)
        theirs = evaluate_cross(self.holdings[live], boards, check=False)  # -1 where a holding meets the board
        # Per holding: boards it meets none of, and wins + ties / 2 on them, counted (exact in float64).
        invalid = np.count_nonzero(theirs < 0, axis=1)
        valid = (len(boards) - invalid).astype(np.float64)
        score = (np.count_nonzero(theirs < mine[None, :], axis=1) - invalid) + 0.5 * np.count_nonzero(theirs == mine[None, :], axis=1)
        w = weights[live] / valid.clip(min=1)
        total = float((w * valid).sum())
        if total <= 0:
            raise ValueError("win_probability: every board collides with the range")
        return float((w * score).sum() / total)

    def showdown_share(self, hole: list[int], board: list[int], ranges: list[np.ndarray], rng: np.random.Generator) -> float:
        """``hole``'s expected share of the pot at a showdown against several opponents, one range (H,) each.

        The model: given a board, each opponent's holding is drawn from its range alone (holdings that meet the
        board left out; opponents independent of one another, so two of them may be credited the same card), a
        holding ``h`` weighted ``w(h) / (completions valid for h)`` as in ``win_probability``; a board counts by
        the product over opponents of its weight under each range. On a board LBR gets 1 / (1 + t) of the pot
        when no opponent beats it and ``t`` tie it. With one range this is ``win_probability``."""
        if not ranges:
            raise ValueError("showdown_share: at least one opponent's range is needed")
        boards = self.boards(hole, board, rng)
        mine = evaluate_batch(np.hstack([np.tile(np.array(hole, dtype=np.int64), (len(boards), 1)), boards]), check=False)
        board_weight = np.ones(len(boards))
        poly = np.zeros((len(boards), len(ranges) + 1))  # coefficient t: P(no opponent ahead, exactly t tie)
        poly[:, 0] = 1.0
        for weights in ranges:
            live = np.flatnonzero(weights > 0)
            if live.size == 0:
                raise ValueError("showdown_share: a range has no weight")
            theirs = evaluate_cross(self.holdings[live], boards, check=False)
            valid = theirs >= 0
            mass = np.where(valid, (weights[live] / valid.sum(axis=1).clip(min=1))[:, None], 0.0)  # (L, B)
            per_board = mass.sum(axis=0)
            behind = (mass * (mine[None, :] > theirs)).sum(axis=0) / np.where(per_board > 0, per_board, 1.0)
            level = (mass * (mine[None, :] == theirs)).sum(axis=0) / np.where(per_board > 0, per_board, 1.0)
            board_weight *= per_board
            poly[:, 1:] = poly[:, 1:] * behind[:, None] + poly[:, :-1] * level[:, None]
            poly[:, 0] *= behind
        total = board_weight.sum()
        if total <= 0:
            raise ValueError("showdown_share: every board collides with some range")
        share = poly @ (1.0 / np.arange(1, len(ranges) + 2))
        return float((board_weight * share).sum() / total)


class LeducFamily(CardFamily):
    """Leduc hold'em: six holdings (one card each, J/Q/K in two suits); ``state.private``/``state.public``.

    Equity is exact: the public card, when not yet dealt, is enumerated over the cards left."""

    def __init__(self) -> None:
        self.holdings = np.arange(LEDUC_CARDS, dtype=np.int64)[:, None]

    def hole(self, state: Any, seat: int) -> list[int]:
        return [state.private[seat]]

    def board(self, state: Any) -> list[int]:
        return [state.public] if state.public >= 0 else []

    def with_hole(self, state: Any, seat: int, holding: np.ndarray) -> GameState:
        new = state.clone()
        new.private[seat] = int(holding[0])
        return new

    def win_probability(self, hole: list[int], board: list[int], weights: np.ndarray, rng: np.random.Generator) -> float:
        mine = hole[0]
        num = den = 0.0
        for h in np.flatnonzero(weights > 0):
            publics = board or [c for c in range(LEDUC_CARDS) if c not in (mine, h)]
            for pub in publics:
                a, b = hand_strength(mine, pub), hand_strength(int(h), pub)
                p = weights[h] / len(publics)
                num += p * ((a > b) + 0.5 * (a == b))
                den += p
        if den <= 0:
            raise ValueError("win_probability: the range has no weight")
        return num / den
