"""AIVAT: control variates that remove luck from a played hand's result (the tournament's ``--variance-reduction``).

Burch, Schmid, Moravčík, Morrill and Bowling, "AIVAT: A New Variance Reduction Technique for Agent Evaluation
in Imperfect Information Games", AAAI 2018. After a hand is over, its result ``r`` (chips per seat) is
corrected with a value function ``u(h)`` of the full history (every card may be seen: it runs after the hand):

    corrected = r - sum over chance events  [u(after the outcome) - E_outcome u(after it)]
                  - sum over known decisions [u(after the action)  - E_{a ~ policy} u(after a)]

Every bracket has expectation 0 given the history before it, so ``E[corrected] = E[r]`` for any ``u``; a ``u``
close to the true value removes most of the card luck and of the known policies' own sampling noise. A
decision's term needs the acting agent's policy (``Agent.action_probabilities``); agents without one (None)
get no decision terms, never a guessed policy. Chance events are always corrected.

Value functions (both are martingales over chance: ``u(h) = E_c u(h c)`` at a chance node, so a chance
event's expectation is ``u`` just before it):

* ``EquityValue`` (hold'em family, push/fold): each seat's share of the pots as they stand if the hand went to
  showdown now, by all-in equity over the board cards still to come, minus what it put in. Shares are settled
  by ``poker_envs.core.settlement`` with the exact (fractional) split; hand strengths come from the batched
  evaluator (``evaluate_cross``; Omaha through ``evaluate_hands``). Boards are enumerated when there are at
  most ``exact_boards`` of them (every flop and turn state), else ``sampled_boards`` are drawn (uniformly, with
  replacement) with a Generator independent of the deck (pre-flop: ``u`` is then an unbiased estimate of the equity, which keeps every
  term's expectation 0). Before the deal ``u`` is the equal split of the pots: dealing is exchangeable.
* ``TreeValue`` (Kuhn, Leduc and other small games): the exact expected result if every seat played
  uniformly at random from ``h`` on, by walking the rules' tree (memoised).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

import numpy as np

from poker_envs.core.evaluator import evaluate_cross
from poker_envs.core.hand_rules import evaluate_hands
from poker_envs.core.settlement import settle_batch
from poker_envs.games.base import CHANCE, TERMINAL, GameState

__all__ = ["Decision", "EquityValue", "TreeValue", "ValueFunction", "aivat_terms", "corrected_returns", "value_function"]

VARIANCE_REDUCTIONS = ("none", "aivat")


@dataclass(frozen=True)
class Decision:
    """One decision of a played hand, as the table host saw it."""

    state: GameState  # the rules' state before the action (a copy)
    action: int  # the action taken
    probs: np.ndarray | None  # the acting agent's policy over all action ids here; None: unknown (no term)


class ValueFunction(Protocol):
    """``u(h)`` per seat for any state of one game; ``root(state)`` the state before anything was dealt."""

    def __call__(self, state: GameState) -> np.ndarray: ...

    def batch(self, states: Sequence[GameState]) -> np.ndarray:
        """``u`` of several states, (k, num_players)."""
        ...

    def root(self, state: GameState) -> GameState: ...


def aivat_terms(value: ValueFunction, decisions: Sequence[Decision], final: GameState,
                chance: bool = True, actions: bool = True) -> np.ndarray:
    """The summed control-variate terms of one hand, shape (num_players,): chance terms (``chance``) and the
    decision terms of the decisions whose policy is known (``actions``). Subtract them from the result."""
    total = np.zeros(final.num_players)
    before = value(value.root(decisions[0].state if decisions else final))  # E over the deal
    for d in decisions:
        if chance:
            total += value(d.state) - before  # cards dealt since the last action (0 when none)
        after = value(d.state.child(d.action))
        if actions and d.probs is not None:
            legal = d.state.legal_actions()
            probs = np.asarray(d.probs, dtype=np.float64)[legal]
            if not np.isclose(probs.sum(), 1.0, atol=1e-6):
                raise ValueError(f"policy probabilities over the legal actions {legal} sum to {probs.sum()}, not 1")
            total += after - probs @ value.batch([d.state.child(a) for a in legal])
        before = after
    if chance:
        total += value(final) - before  # the cards dealt after the last action
    return total


def corrected_returns(value: ValueFunction, decisions: Sequence[Decision], final: GameState,
                      chance: bool = True, actions: bool = True) -> np.ndarray:
    """The hand's AIVAT-corrected result per seat: ``final.returns() - aivat_terms(...)``."""
    return final.returns() - aivat_terms(value, decisions, final, chance, actions)


# ---- hold'em family ------------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _board_index(cards: int, k: int) -> np.ndarray:
    """Every k-subset of ``cards`` positions, (C(cards, k), k) int8 (built once per size: 1.7M rows pre-flop)."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.int8)
    return np.array(list(itertools.combinations(range(cards), k)), dtype=np.int8)


def _dense_patterns(strengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct orders of the seats' strengths (M, L) -> (patterns (P, L) of ranks, probabilities (P,))."""
    ranks = (strengths[:, None, :] < strengths[:, :, None]).sum(axis=2)  # seats each one beats: order, ties kept
    patterns, counts = np.unique(ranks, axis=0, return_counts=True)
    return patterns, counts / counts.sum()


class EquityValue:
    """Pot shares by all-in equity minus chips put in (module doc), for ``HoldemGame`` and ``PushFoldGame``."""

    def __init__(self, game: Any, rng: np.random.Generator | None = None, exact_boards: int = 20_000,
                 sampled_boards: int = 10_000) -> None:
        from poker_envs.games.holdem import HoldemGame

        self.game = game
        self.holdem = isinstance(game, HoldemGame)
        if self.holdem:
            self.deck = np.asarray(game.deck, dtype=np.int64)
            self.board_size = int(game.board_after[-1])
            self.ranking = game.evaluate_hand.ranking
            self.rule = game.evaluate_hand.rule
        else:  # push/fold: 52 cards, five board cards, best five of seven
            self.deck = np.arange(52)
            self.board_size = 5
            self.ranking = None
            self.rule = "best_five"
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.exact_boards = exact_boards
        self.sampled_boards = sampled_boards
        self._patterns: dict[tuple[Any, ...], tuple[np.ndarray, np.ndarray]] = {}

    def reseed(self, rng: np.random.Generator) -> None:
        """A new hand: boards sampled from ``rng`` (independent of the deck) and a fresh cache."""
        self.rng = rng
        self._patterns.clear()

    def root(self, state: GameState) -> GameState:
        return self.game.new_initial_state(button=state.button) if self.holdem else self.game.new_initial_state()

    def _money(self, state: Any) -> tuple[np.ndarray, np.ndarray, int, float, float, float | None]:
        """(contributed, folded, button, dead chips, rake, rake cap) as the settlement takes them."""
        if self.holdem:
            return (np.asarray(state.contributed, dtype=np.float64), np.asarray(state.folded, dtype=bool), state.button,
                    float(state.config.dead_chips), 0.0, None)
        cfg = state.config
        return (np.asarray(state.contributions, dtype=np.float64), ~np.asarray(state.live(), dtype=bool),
                cfg.button, 0.0, float(cfg.rake), None if cfg.rake_cap_bb is None else float(cfg.rake_cap_bb))

    def _strength_patterns(self, state: Any, live: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Orders of the live seats' hands over the boards still to come, with their probabilities (cached)."""
        holes = [tuple(h) for h in state.hole]
        board = tuple(state.board)
        key = (tuple(holes), board, tuple(live.tolist()))
        if key in self._patterns:
            return self._patterns[key]
        dealt = {c for h in holes for c in h} | set(board)
        left = np.array([c for c in self.deck.tolist() if c not in dealt], dtype=np.int64)
        k = self.board_size - len(board)
        every = _board_index(left.size, k)
        if len(every) <= self.exact_boards:
            runs = left[every]
        else:  # boards drawn uniformly (with replacement) from all of them
            runs = left[every[self.rng.integers(len(every), size=self.sampled_boards)]]
        boards = np.concatenate([np.broadcast_to(np.asarray(board, dtype=np.int64), (len(runs), len(board))), runs], axis=1)
        seats = np.flatnonzero(live)
        hole_arr = np.array([holes[s] for s in seats], dtype=np.int64)
        if self.rule == "best_five":
            kw = {} if self.ranking is None else {"ranking": self.ranking}
            strengths = evaluate_cross(hole_arr, boards, check=False, **kw).T  # (M, L)
        else:
            strengths = np.stack([evaluate_hands(np.broadcast_to(h, (len(boards), h.size)), boards, ranking=self.ranking,
                                                 rule=self.rule, check=False) for h in hole_arr], axis=1)
        result = _dense_patterns(strengths)
        self._patterns[key] = result
        return result

    def __call__(self, state: Any) -> np.ndarray:
        return self.batch([state])[0]

    def batch(self, states: Sequence[Any]) -> np.ndarray:
        """``u`` of several states of one hand, settled in one ``settle_batch`` call (a row per order of hands)."""
        parts = []
        rake, cap = 0.0, None
        for state in states:
            contributed, folded, button, dead, rake, cap = self._money(state)
            n = contributed.size
            live = ~folded
            if live.sum() <= 1 or not all(len(h) for h in state.hole):
                # one seat left, or before the deal: every order of the hands is as likely, the equal split of each pot
                patterns, probs = np.zeros((1, n), dtype=np.int64), np.ones(1)
            else:
                ranks, probs = self._strength_patterns(state, live)
                patterns = np.zeros((len(ranks), n), dtype=np.int64)
                patterns[:, live] = ranks
            parts.append((contributed, folded, button, dead, patterns, probs))
        sizes = [len(p[4]) for p in parts]
        won = settle_batch(np.concatenate([np.broadcast_to(p[0], (k, p[0].size)) for p, k in zip(parts, sizes, strict=True)]),
                           np.concatenate([np.broadcast_to(p[1], (k, p[1].size)) for p, k in zip(parts, sizes, strict=True)]),
                           np.concatenate([p[4] for p in parts]),
                           np.concatenate([np.full(k, p[2], dtype=np.int64) for p, k in zip(parts, sizes, strict=True)]),
                           exact=True, rake=rake, rake_cap=cap,
                           dead=np.concatenate([np.full(k, p[3]) for p, k in zip(parts, sizes, strict=True)]))
        out = np.empty((len(parts), parts[0][0].size))
        start = 0
        for i, (p, k) in enumerate(zip(parts, sizes, strict=True)):
            out[i] = p[5] @ won[start : start + k] - p[0]
            start += k
        return out


# ---- small games ---------------------------------------------------------------------------------


class TreeValue:
    """Exact expected result under uniform random play of every seat from the state on (small games)."""

    def __init__(self, game: Any, max_nodes: int = 2_000_000) -> None:
        self.game = game
        self.max_nodes = max_nodes  # refuse games whose tree is too large to walk (threshold with many players)
        self._memo: dict[tuple[str, ...], np.ndarray] = {}

    def root(self, state: GameState) -> GameState:
        return self.game.new_initial_state()

    def reseed(self, rng: np.random.Generator) -> None:
        """Nothing is sampled here (the interface of ``EquityValue``)."""

    def batch(self, states: Sequence[GameState]) -> np.ndarray:
        """``u`` of several states, (k, num_players)."""
        return np.stack([self(s) for s in states])

    def __call__(self, state: GameState) -> np.ndarray:
        s = state.clone()
        if getattr(s, "deal", None) is not None:
            s.deal = None  # the fixed deal is the environment's; chance here is the rules' own distribution
        return self._value(s)

    def _value(self, state: GameState) -> np.ndarray:
        player = state.current_player()
        if player == TERMINAL:
            return state.returns()
        key = (str(player), *(state.information_state_string(p) for p in range(state.num_players)))
        if key in self._memo:
            return self._memo[key]
        if player == CHANCE:
            v = sum(p * self._value(state.child(c)) for c, p in state.chance_outcomes())
        else:
            legal = state.legal_actions()
            v = sum(self._value(state.child(a)) for a in legal) / len(legal)
        if len(self._memo) >= self.max_nodes:
            raise ValueError(f"variance_reduction 'aivat': the tree of {getattr(self.game, 'name', 'this game')} has over "
                             f"{self.max_nodes} nodes, too many for the exact uniform-play value; use 'none'")
        self._memo[key] = np.asarray(v, dtype=np.float64)
        return self._memo[key]


def value_function(game: Any) -> EquityValue | TreeValue:
    """The value function AIVAT uses for ``game`` (module doc)."""
    from poker_envs.games.holdem import HoldemGame
    from poker_envs.games.push_fold import PushFoldGame

    if isinstance(game, HoldemGame | PushFoldGame):
        return EquityValue(game)
    return TreeValue(game)
