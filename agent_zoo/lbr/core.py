"""Local best response (LBR): a lower bound on an agent's exploitability, by play.

Lisý and Bowling, "Equilibrium approximation quality of current no-limit poker bots" (AAAI-17
Workshop on Computer Poker and Imperfect Information Games; arXiv:1612.07547). LBR plays hands
against the agent and, at each of its own decisions, acts greedily on a one-step look-ahead:

* It keeps the agent's *range*: a weight per holding the agent may have (card removal: none that
  shares a card with LBR's hole cards or the board). At every agent decision it asks the agent for
  its action probabilities *for every holding in the range at once* (the agent's observation is
  encoded from a clone of the rules state with the agent's hole cards replaced) and multiplies each
  holding's weight by the probability of the action the agent took (Bayes' rule).
* ``wp``: LBR's showdown equity against the range with the board so far (exact or rolled out).
* Utilities relative to folding now (fold = 0), with ``pot`` the chips in the pot and ``asked`` the
  amount to call: check/call ``wp * pot - (1 - wp) * asked``; a bet or raise that puts in ``d`` chips
  and leaves the agent ``c`` to call, against the range's fold probability ``fp`` (asked of the agent
  for every holding at the state after the raise):
  ``fp * pot + (1 - fp) * (wp * (pot + c) - (1 - wp) * d)``. LBR takes the best; it folds only when
  every other action is worth less than 0.

Multi-way (hold'em, 3 to 6 seats; one LBR seat, every other seat played by the agent): each opponent's
range is tracked separately from its own actions; ``wp`` becomes LBR's expected share of the pot at a
showdown against every opponent still in (``TwoCardFamily.showdown_share``: opponents' holdings
independent given the board); ``fp`` is the probability that *every* opponent folds to the raise, the
product along the order they answer of each one's fold probability asked at the state where the ones
before it folded; ``c`` the sum of their calls (if not all fold, all are taken to call). At two seats
this is the heads-up rule, number for number. ``docs/results/evaluation.md`` says what the value means.

The agent's own moves are drawn from the probabilities it gave for its real holding, so the agent
plays exactly the strategy it reports. Hand ``i`` of ``evaluate(hands, seed)`` draws everything (its
cards, dealt at its start, the agent's moves, LBR's rollouts) from ``numpy.random.default_rng([seed, i])``,
so the batched form (``agent_zoo.lbr.vector``) plays the same hands. LBR's value (mean winnings per hand,
seats rotating) is a lower bound on the best response's value against the agent, up to sampling error.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from agent_zoo.agent import Agent, sample_from, stack
from agent_zoo.cnn.heuristic import raise_tos
from agent_zoo.lbr.ranges import CardFamily, LeducFamily, TwoCardFamily
from poker_envs.encoders.history import encode_history, with_hole_cards
from poker_envs.encoders.public import encode_public
from poker_envs.games.base import CHANCE, AGGRESSIVE_KINDS, ActionKind, GameState, play_chance
from poker_envs.games.holdem import HoldemGame
from poker_envs.games.leduc import LeducGame
from poker_envs.games.push_fold import PushFoldGame


@dataclass(frozen=True)
class LBRConfig:
    """What LBR may do and how it estimates equity."""

    raise_fractions: tuple[float, ...] = (0.5, 1.0, 2.0)  # pot-fraction raises LBR considers (bet_sizing="chips"), plus all-in
    rollouts: int = 64  # boards sampled for wp when more completions remain than max_enumerate (hold'em flop and pre-flop)
    max_enumerate: int = 64  # enumerate the board completions exactly when at most this many remain (turn, river)
    # Hold'em: remember the agent's answers for every holding at pre-flop states (the same betting line
    # recurs hand after hand), up to this many states; 0 turns it off. Exact for an agent whose action
    # probabilities depend on its observation only (every zoo agent LBR accepts).
    preflop_memo: int = 256

    def __post_init__(self) -> None:
        if not self.raise_fractions or any(not f > 0 for f in self.raise_fractions):
            raise ValueError(f"raise_fractions must be positive pot fractions, got {self.raise_fractions!r}")
        if self.rollouts < 1 or self.max_enumerate < 1:
            raise ValueError(f"rollouts and max_enumerate must be >= 1, got {self.rollouts}, {self.max_enumerate}")
        if self.preflop_memo < 0:
            raise ValueError(f"preflop_memo must be >= 0 (0: off), got {self.preflop_memo}")


@dataclass(frozen=True)
class LBRResult:
    """LBR's winnings against one agent, per hand, in the env's reward unit."""

    mean: float  # mean winnings per hand (LBR's seat rotating: hand i in seat i % players)
    ci95: float  # half-width of the normal 95% confidence interval of the mean
    hands: int  # hands played
    per_seat: tuple[float, ...]  # mean winnings with LBR in seat 0, 1, ... (the button stays on seat 0)


MAX_PLAYERS = 6  # seats of the largest table LBR plays (hold'em; Leduc and push/fold: heads-up)


def _contributions(state: Any) -> list[float]:
    """Chips each seat has put in this hand (hold'em ``contributed``; Leduc, push/fold ``contributions``)."""
    return list(state.contributed if hasattr(state, "contributed") else state.contributions)


def card_family(game: Any, config: LBRConfig) -> CardFamily:
    """The card family of a game LBR can play; ValueError (naming the game or the seats) for any other."""
    n = game.num_players
    holdem = isinstance(game, HoldemGame) and len(game.deck) == 52 and game.config.hole_cards == 2
    if not (isinstance(game, (LeducGame, PushFoldGame)) or holdem):
        raise ValueError(f"LBR supports Leduc, push/fold and 52-card two-hole-card hold'em, not {game.name!r}")
    if n != 2 and not (holdem and 2 <= n <= MAX_PLAYERS):
        allowed = f"2 to {MAX_PLAYERS} players" if holdem else "heads-up only (2 players)"
        raise ValueError(f"players: LBR on {game.name!r} plays {allowed}; this table has {n} players")
    if isinstance(game, LeducGame):
        return LeducFamily()
    return TwoCardFamily(config.rollouts, config.max_enumerate)


def hand_rng(seed: int, hand: int) -> np.random.Generator:
    """The generator of hand ``hand`` of ``evaluate(hands, seed)`` (every engine: the same hands)."""
    return np.random.default_rng([seed, hand])


def deal_order(game: HoldemGame, rng: np.random.Generator) -> np.ndarray:
    """A hold'em hand's cards in dealing order (hole cards round the table, then the board), drawn at its start."""
    return rng.permutation(np.asarray(game.deck, dtype=np.int64))[: game.deal_size]


def range_shares(weights: np.ndarray) -> np.ndarray:
    """A range's weights (R,) normalised to sum 1."""
    return weights / weights.sum()


def fold_probability(shares: np.ndarray, probs: np.ndarray) -> float:
    """The range's probability of folding: its ``range_shares`` (R,) dotted with fold probabilities (R,)."""
    return float(np.dot(shares, np.ascontiguousarray(probs)))


def raise_value(pot: float, wp: float, put_in: float, fp: float, calls: float) -> float:
    """A raise's worth relative to folding: all opponents fold (``fp``) or all call ``calls`` to a showdown."""
    return fp * pot + (1 - fp) * (wp * (pot + calls) - (1 - wp) * put_in)


def finish(wins: np.ndarray, players: int) -> LBRResult:
    """The summary of per-hand winnings (hand i with LBR in seat i % players)."""
    ci = 1.96 * float(wins.std(ddof=1)) / math.sqrt(len(wins))
    return LBRResult(float(wins.mean()), ci, len(wins), tuple(float(wins[s::players].mean()) for s in range(players)))


class LocalBestResponse:
    """LBR against one agent in one environment (``env``: a poker_envs AEC env, one hand per episode); at a
    table of more than two seats the agent plays every seat but LBR's."""

    def __init__(self, env: Any, agent: Agent, config: LBRConfig | None = None) -> None:
        self.base = getattr(env, "unwrapped", env)
        if getattr(self.base, "session_config", None) is not None and self.base.session_config.is_session:
            raise ValueError("LBR plays one hand per episode; build the env without sessions (hands_per_episode=1)")
        self.game = self.base.game
        self.config = config or LBRConfig()
        self.family = card_family(self.game, self.config)
        self.players = self.game.num_players
        self.agent = agent
        self.scale = float(getattr(self.base, "_reward_scale", 1.0))  # env reward per chip
        self._public = "public" in self.base.observation_space(self.base.possible_agents[0]).spaces
        self._history = getattr(self.base, "history_layout", None)  # the env's history=True layout, or None
        # pre-flop state key -> (probabilities of every holding (H, A), which rows are filled (H,))
        self._memo: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self._check_capability()
    # Observations ---------------------------------------------------------------------------------
    def observe(self, state: GameState, seat: int) -> dict[str, np.ndarray]:
        """The observation dict ``seat`` gets at ``state`` (as the env's ``observe`` builds it, one hand)."""
        obs = {
            "observation": self.base.encoder.encode(state, seat),
            "action_mask": state.legal_actions_mask(self.game.num_distinct_actions),
        }
        if self._public:
            obs["public"] = encode_public(state, seat)
        if self._history is not None:  # an env built with history=True (one hand per episode: no earlier results)
            obs["history"] = encode_history(state, seat, self._history)
        return obs

    def range_probabilities(self, state: GameState, seat: int, rows: np.ndarray) -> np.ndarray:
        """(len(rows), A): the agent's action probabilities at ``state`` if it held each holding ``rows``.

        Hold'em pre-flop answers are memoised per betting line (``LBRConfig.preflop_memo``): only the
        holdings not asked before at that state are queried."""
        key = self._memo_key(state, seat)
        if key is None:
            return self._query(state, seat, rows)
        if key not in self._memo:
            if len(self._memo) >= self.config.preflop_memo:
                return self._query(state, seat, rows)
            self._memo[key] = (np.zeros((len(self.family.holdings), self.game.num_distinct_actions)),
                               np.zeros(len(self.family.holdings), dtype=bool))
        probs, filled = self._memo[key]
        missing = rows[~filled[rows]]
        if missing.size:
            probs[missing] = self._query(state, seat, missing)
            filled[missing] = True
        return probs[rows].copy()

    def _memo_key(self, state: GameState, seat: int) -> tuple | None:
        """The pre-flop hold'em betting line of ``state`` (all the agent's observation holds besides its
        cards, the table being fixed), or None where answers are not memoised."""
        if not self.config.preflop_memo or not isinstance(self.game, HoldemGame) or state.board:
            return None
        return (seat, state.button, tuple(tuple(street) for street in state.history))

    def _query(self, state: GameState, seat: int, rows: np.ndarray) -> np.ndarray:
        """(len(rows), A): ``range_probabilities`` asked of the agent, one batched query.

        One scratch clone gets each holding in turn; the mask and the public vector do not depend on
        the holding, so only the encoder's vector is made per holding (the history's differs only in the
        cards: ``with_hole_cards``); one batched query follows."""
        scratch = self.family.with_hole(state, seat, self.family.holdings[rows[0]])
        first = self.observe(scratch, seat)
        encoded = np.empty((len(rows), *np.shape(first["observation"])), dtype=np.asarray(first["observation"]).dtype)
        encoded[0] = first["observation"]
        per_holding = {"observation": encoded}
        if self._history is not None:
            per_holding["history"] = with_hole_cards(first["history"], self.family.holdings[rows], self._history)
        set_hole = self._hole_setter(scratch, seat)
        for k in range(1, len(rows)):
            set_hole(self.family.holdings[rows[k]])
            encoded[k] = self.base.encoder.encode(scratch, seat)
        batch = {key: np.repeat(np.asarray(v)[None], len(rows), axis=0) for key, v in first.items() if key not in per_holding}
        batch.update(per_holding)
        probs = self.agent.action_probabilities_batch(batch)
        if probs is None:
            raise ValueError(self._refusal())
        return np.asarray(probs, dtype=np.float64)

    def _hole_setter(self, scratch: GameState, seat: int) -> Callable[[np.ndarray], None]:
        if isinstance(self.family, LeducFamily):
            return lambda h: scratch.private.__setitem__(seat, int(h[0]))
        return lambda h: scratch.hole.__setitem__(seat, [int(c) for c in h])

    def _refusal(self) -> str:
        return (f"agent {self.agent.name!r} cannot give action probabilities for a hypothetical holding "
                "(action_probabilities returns None); local best response needs them to track its range")

    def _check_capability(self) -> None:
        state = self.new_hand()
        while state.current_player() == CHANCE:
            play_chance(state, np.random.default_rng(0))
        if self.agent.action_probabilities_batch(stack([self.observe(state, state.current_player())])) is None:
            raise ValueError(self._refusal())

    # Playing ----------------------------------------------------------------------------------------
    def new_hand(self, rng: np.random.Generator | None = None) -> GameState:
        """A new hand of the game LBR plays (hold'em: button on seat 0, LBR's seat rotates instead; with ``rng``
        its cards are drawn now, ``deal_order``): the root that range and value computations start from."""
        if isinstance(self.game, HoldemGame):
            deck = None if rng is None else deal_order(self.game, rng)
            return self.game.new_initial_state(button=0, deck=deck)
        return self.game.new_initial_state()

    def candidate_actions(self, state: GameState) -> list[int]:
        """LBR's actions here: fold, check/call, and its raises (all legal raise ids, or with
        ``bet_sizing="chips"`` the configured pot fractions and all-in)."""
        legal = state.legal_actions()
        if not (isinstance(self.game, HoldemGame) and self.game.chips_sizing):
            return legal
        rr = state.legal_raise_range()
        out = [a for a in legal if a < 2]
        if rr is not None:
            seat = state.current_player()
            tos = raise_tos(state.max_bet(), state.pot(), state.to_call(seat), rr[0], rr[1], np.array(self.config.raise_fractions))
            out += sorted({int(t) + 1 for t in tos} | {rr[1] + 1})
        return out

    def lbr_action(self, state: GameState, seat: int, weights: np.ndarray, rng: np.random.Generator) -> int:
        """LBR's choice at ``state`` (``seat`` to act) against the ranges ``weights`` (players, H) of the others."""
        folded = getattr(state, "folded", None)
        live = [j for j in range(self.players) if j != seat and not (folded is not None and folded[j])]
        hole, board = self.family.hole(state, seat), self.family.board(state)
        if len(live) == 1:
            wp = self.family.win_probability(hole, board, weights[live[0]], rng)
        else:
            wp = self.family.showdown_share(hole, board, [weights[j] for j in live], rng)
        pot = float(sum(_contributions(state)))
        mine = _contributions(state)[seat]
        best, best_value = None, -math.inf
        fold = None
        for a in self.candidate_actions(state):
            kind = state.action_kind(a)
            if kind == ActionKind.FOLD:
                fold = a
                continue
            if kind not in AGGRESSIVE_KINDS:
                value = wp * pot - (1 - wp) * float(state.amount_to_call())
            else:
                child = state.child(a)
                put_in = _contributions(child)[seat] - mine
                if child.current_player() not in live:  # nobody can answer: a showdown follows
                    value = wp * pot - (1 - wp) * put_in
                else:
                    fp, calls = self.all_fold(child, live, weights)
                    value = raise_value(pot, wp, put_in, fp, calls)
            if value > best_value:
                best, best_value = a, value
        if fold is not None and (best is None or best_value < 0):
            return fold
        assert best is not None
        return best

    def all_fold(self, child: GameState, live: list[int], weights: np.ndarray) -> tuple[float, float]:
        """(probability that every opponent in ``live`` folds to LBR's raise, the chips they owe together).

        The opponents answer in turn: each one's fold probability is asked at the state where the ones before
        it folded (the chain rule, exact for the ranges); one that cannot act (all-in) never folds."""
        fp, calls, asked = 1.0, 0.0, 0
        node = child
        while asked < len(live) and node.current_player() in live:
            j = node.current_player()
            calls += float(node.amount_to_call())
            rows = np.flatnonzero(weights[j] > 0)
            if 0 in node.legal_actions() and node.action_kind(0) == ActionKind.FOLD:
                fp *= fold_probability(range_shares(weights[j][rows]), self.range_probabilities(node, j, rows)[:, 0])
            else:
                fp = 0.0
            asked += 1
            if asked < len(live):
                if fp == 0.0:  # no need to walk on: count the others' calls at the raise
                    calls = sum(float(child.to_call(o)) for o in live)
                    break
                node = node.child(0)
        if asked < len(live):  # someone stays in without a decision (all-in): not every one folds
            fp = 0.0
            calls = sum(float(child.to_call(o)) for o in live)
        return fp, calls

    def play_hand(self, lbr_seat: int, rng: np.random.Generator) -> float:
        """One hand with LBR in ``lbr_seat``; LBR's winnings in the env's reward unit. Hold'em: the cards are
        drawn at the start (``deal_order``), then the agent's moves and LBR's rollouts, all from ``rng``."""
        state = self.new_hand(rng)
        for seat in range(self.players):
            if seat != lbr_seat:
                self.agent.begin_hand(seat)
        weights: np.ndarray | None = None  # (players, H): row j the range of seat j (LBR's own row unused)
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                play_chance(state, rng)
                if state.is_terminal() or state.current_player() == CHANCE:
                    continue
                seen = self.family.hole(state, lbr_seat) + self.family.board(state)
                possible = self.family.possible(seen).astype(np.float64)
                weights = np.tile(possible, (self.players, 1)) if weights is None else weights * possible
                continue
            assert weights is not None
            if player != lbr_seat:
                rows = np.flatnonzero(weights[player] > 0)
                probs = self.range_probabilities(state, player, rows)
                real = np.sort(np.array(self.family.hole(state, player)))
                p = probs[np.flatnonzero((self.family.holdings[rows] == real).all(axis=1))[0]]
                action = sample_from(p, rng)
                w = weights[player].copy()
                w[rows] *= probs[:, action]
                w /= w.sum()
                weights = weights.copy()
                weights[player] = w
            else:
                action = self.lbr_action(state, lbr_seat, weights, rng)
            state.apply(action)
        return float(state.returns()[lbr_seat]) * self.scale

    def evaluate(self, hands: int, seed: int, progress: Callable[[int], None] | None = None) -> LBRResult:
        """Play ``hands`` hands, hand ``i`` with LBR in seat ``i % players`` from ``hand_rng(seed, i)``."""
        if hands < self.players:
            raise ValueError(f"hands must be >= {self.players} (one per seat at least), got {hands}")
        wins = np.empty(hands)
        for i in range(hands):
            wins[i] = self.play_hand(i % self.players, hand_rng(seed, i))
            if progress is not None:
                progress(i + 1)
        return finish(wins, self.players)
