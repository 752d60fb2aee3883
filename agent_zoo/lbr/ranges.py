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
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from math import comb
from typing import Any

import numpy as np

from poker_envs.core.evaluator import cross_signs, evaluate_batch, evaluate_cross
from poker_envs.games.base import GameState
from poker_envs.games.leduc import NUM_CARDS as LEDUC_CARDS
from poker_envs.games.leduc import hand_strength

DECK = 52
BOARD = 5
_PAIRS = {k: np.triu_indices(k, 1) for k in range(1, BOARD + 1)}  # the card pairs of a board of k cards
_SPOTS_PER_PASS = 64  # spots whose boards are evaluated in one pass (64 x 64 boards at most)


@lru_cache(maxsize=None)
def _combinations(n: int, k: int) -> np.ndarray:
    """(C(n, k), k) the k-subsets of range(n), in itertools.combinations order."""
    return np.array(list(combinations(range(n), k)), dtype=np.int64).reshape(-1, k)


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
        self._holds = np.zeros((DECK, len(self.holdings)), dtype=bool)  # card -> the holdings holding it
        self._holds[self.holdings, np.arange(len(self.holdings))[:, None]] = True

    def possible(self, seen: list[int]) -> np.ndarray:
        return ~self._holds[np.asarray(seen, dtype=np.intp)].any(axis=0)

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
        return self.completions(np.array([hole], dtype=np.int64), [board], [rng])[0]

    def completions(self, holes: np.ndarray, boards: Sequence[Sequence[int]], rngs: Sequence[np.random.Generator]) -> np.ndarray:
        """(N, B, 5) ``boards`` for N spots whose boards have the same length, holes (N, 2): each spot's draws
        come from its own generator, as N calls of ``boards`` would make them."""
        seen_board = np.array(boards, dtype=np.int64).reshape(len(holes), -1)
        need = BOARD - seen_board.shape[1]
        if need == 0:
            return seen_board[:, None, :]
        unseen = np.ones((len(holes), DECK), dtype=bool)
        rows = np.arange(len(holes))[:, None]
        unseen[rows, holes] = False
        unseen[rows, seen_board] = False
        left_count = DECK - 2 - seen_board.shape[1]
        left = np.nonzero(unseen)[1].reshape(len(holes), left_count)  # each spot's unseen cards, ascending
        if comb(left_count, need) <= self.max_enumerate:
            extra = left[:, _combinations(left_count, need)]  # (N, C, need), in the order of itertools.combinations
        else:  # the ``need`` cards with the smallest keys, smallest first (argmin passes: cheaper than a
            # partition for at most five cards of about fifty)
            keys = np.stack([g.random((self.rollouts, left_count)) for g in rngs])
            picked = np.empty(keys.shape[:2] + (need,), dtype=np.intp)
            for j in range(need):
                picked[:, :, j] = keys.argmin(axis=2)
                np.put_along_axis(keys, picked[:, :, j : j + 1], np.inf, axis=2)
            extra = left[np.arange(len(holes))[:, None, None], picked]
        out = np.empty((len(holes), extra.shape[1], BOARD), dtype=np.int64)
        out[:, :, : seen_board.shape[1]] = seen_board[:, None, :]
        out[:, :, seen_board.shape[1] :] = extra
        return out

    def win_probability(self, hole: list[int], board: list[int], weights: np.ndarray, rng: np.random.Generator) -> float:
        return float(self.win_probabilities(np.array([hole], dtype=np.int64), [board], weights[None], [rng])[0])

    def win_probabilities(self, holes: np.ndarray, boards: Sequence[Sequence[int]], weights: np.ndarray,
                          rngs: Sequence[np.random.Generator]) -> np.ndarray:
        """(N,) ``win_probability`` of N spots at once (holes (N, 2), weights (N, H), a generator each): the
        same numbers, the boards of every spot on one street evaluated against every holding in one pass."""
        if len(holes) and not (weights > 0).any(axis=1).all():
            raise ValueError("win_probability: the range has no weight")
        out = np.empty(len(holes))
        lengths = np.array([len(b) for b in boards], dtype=np.int64)
        for length in np.unique(lengths).tolist():
            spots = np.flatnonzero(lengths == length)
            for start in range(0, len(spots), _SPOTS_PER_PASS):
                part = spots[start : start + _SPOTS_PER_PASS]
                completed = self.completions(holes[part], [boards[i] for i in part], [rngs[i] for i in part])
                out[part] = self._equities(holes[part], completed, weights[part])
        return out

    def _equities(self, holes: np.ndarray, boards: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """(N,) each hole's equity against its range on its boards (N, B, 5), holdings meeting a board left out."""
        n, b = boards.shape[:2]
        rows = np.flatnonzero((weights > 0).any(axis=0))  # the holdings some range holds
        flat = boards.reshape(n * b, BOARD)
        mine = evaluate_batch(np.concatenate([np.repeat(holes, b, axis=0), flat], axis=1), check=False)  # (N * B,)
        # Per holding: wins + ties / 2 over the boards (exact in float64). The signs of theirs - mine sum to
        # losses - wins, a holding that meets the board counting as a win (its -1 is lowest): taken off below.
        signs = cross_signs(self.holdings[rows], flat, mine, group=b, check=False)  # (R, N)
        met = self.boards_met(boards, rows)  # (N, R)
        # Each spot's live holdings, spot by spot; its sums in holding order (``np.add.reduceat`` sums each
        # spot's run alone, so a spot's equity does not depend on the other spots of the pass).
        spot, live = np.nonzero(weights[:, rows] > 0)
        invalid = met[spot, live]
        valid = (b - invalid).astype(np.float64)
        score = (b - signs[live, spot]) * 0.5 - invalid
        w = weights[spot, rows[live]] / valid.clip(min=1)
        starts = np.searchsorted(spot, np.arange(n))
        total = np.add.reduceat(w * valid, starts)
        if (total <= 0).any():
            raise ValueError("win_probability: every board collides with the range")
        return np.add.reduceat(w * score, starts) / total

    def boards_met(self, boards: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """(N, len(rows)) how many of each spot's ``boards`` (N, B, k) share a card with each holding
        ``holdings[rows]``: boards holding its first card, plus its second, less both (counts of cards and of
        card pairs over the spot's boards)."""
        n = len(boards)
        spot = np.arange(n)[:, None, None]
        single = np.bincount((spot * DECK + boards).ravel(), minlength=n * DECK).reshape(n, DECK)
        i, j = _PAIRS[boards.shape[2]]
        low, high = np.minimum(boards[:, :, i], boards[:, :, j]), np.maximum(boards[:, :, i], boards[:, :, j])
        pair = np.bincount((spot * DECK * DECK + low * DECK + high).ravel(), minlength=n * DECK * DECK).reshape(n, -1)
        a, c = self.holdings[rows, 0], self.holdings[rows, 1]  # a < c
        return single[:, a] + single[:, c] - pair[:, a * DECK + c]

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
