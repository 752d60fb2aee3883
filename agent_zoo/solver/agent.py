"""``ResolveAgent`` (spec ``resolve``): heads-up no-limit hold'em by re-solving the postflop subgame at each decision.

What it keeps: both players' *ranges*, a weight per two-card holding (the 1,326 of ``agent_zoo.solver.ranges``), as
the public sees them, updated by Bayes' rule after every action of the hand:

* At the start both are uniform; the opponent's excludes the agent's own two cards, the agent's own (the range the
  opponent must fear) excludes nothing. Board cards are removed from both as they are dealt.
* Pre-flop both play (the opponent by assumption) the average strategy of the abstract pre-flop game
  (``agent_zoo.solver.preflop_game``: CFR+ over the 169 classes, equity at the flop, solved once per table), the
  opponent's sizes read onto its tree by the translation below; each action multiplies the actor's range by the
  strategy's probability of it for every holding. Where the hand leaves that tree (antes, a raise past its cap),
  and throughout with ``preflop="chart"`` (spec ``resolve:preflop=chart``), both play the equity chart of
  ``agent_zoo.solver.preflop`` (fold, check/call or raise by all-in equity against the other's range).
* Postflop, each action multiplies the actor's range by the probability that the last solve's strategy gave it,
  holding by holding: the agent's own action by its solve's root, the opponent's answer by the strategy at the
  node after the agent's action in the same solve. Where no solve holds the opponent's decision (the first action
  of a street when the agent is in position) the agent solves the spot the opponent faced (a *catch-up* solve).
  A bet or raise of a size the tree lacks is read as one of the tree's two neighbouring sizes by the pseudo-harmonic
  mapping (``agent_zoo.solver.translation``), drawn at random.
* Every update mixes the strategy with the uniform one, ``(1 - epsilon) p + epsilon / actions``, so an action the
  model calls impossible (a random player's) never wipes a range out.

At each of its postflop decisions it builds a :class:`~agent_zoo.solver.spot.Spot` from the public state (pot
without this street's bets, the effective stack at the street's start, the street's bets, who acts, the raises so
far, the board), the two ranges and the bet-size plan below, solves it by CFR within the time budget, and samples
its action from the root strategy of its actual holding. With ``bet_sizing="chips"`` (what the registry asks the
environment for) every size of the tree is one action id; with pot fractions the nearest legal raise is taken.

The bet-size plan (``PLANS``; all-in always allowed; a bet or raise that would commit more than 2/3 of the stack
becomes all-in), with the cost of one CFR iteration measured on one core (numpy), ranges of 300 to 600 holdings:

* river: bets 1/3 and 3/4 pot, raises of 1 pot, raise limit 3: 57 nodes, 1-2 ms per iteration;
* turn: bets 3/4 pot, raises all-in only; the river of the tree all-in or check: 52 nodes, 25-60 ms per iteration
  (a second bet size on the turn doubles it, a 3/4-pot bet on the river of the tree multiplies it by 7);
* flop: a flop subgame played to the river is out of reach (2,352 turn-river runouts: 1.6 s per iteration with
  only checks after the flop and 300 holdings a side). So the flop is solved on ``flop_samples`` turn cards drawn
  at random (chance sampling, as Monte Carlo CFR samples chance; default one): each a turn-sized subgame in which
  the flop's betting (bets 1/2 pot, raises all-in only, raise limit 2) is followed by one all-in-or-check street,
  and the agent plays the average of their root strategies. This treats the flop as if one card were to come,
  not two, and as if that card were known: an approximation, said here so nobody reads the flop play as a solved
  strategy. Two samples halve the sampling noise but, at 0.3 s a decision, leave each subgame 5 iterations
  instead of 24 (exploitability of the sampled subgames 350% of the pot instead of 16%).

Ranges are cut down for speed before each solve: holdings under ``prune`` of the range's largest weight are left
out, and a range of more than ``max_holdings`` holdings (default 200) is thinned to about that many by sampling
proportional to weight, re-weighted by the inverse inclusion probability (:func:`thin_range`: an unbiased estimate
of the range). The agent's own holding is always kept; holdings left out of a solve are updated with the range's
mean strategy. Fewer holdings buy iterations: at 0.3 s a decision against the heuristic (a tournament of 600 hands,
two workers on two cores) the defaults ran about 24 iterations on the flop, 20 on the turn and 500 on the river,
leaving the solved subgames exploitable for 16%, 9% and 0.07% of the pot; ranges of 500 holdings get one or two
iterations on the flop and turn in that time (hundreds of percent).

Public solves (``public=True``, spec ``resolve:public=1``): by default the agent's solves condition on its own cards
(the opponent's range without them, its own holding always kept in its thinned range, the flop's turn samples
avoiding them), so the strategy of another holding would need another solve. With ``public`` nothing before the
strategy is read depends on its cards: the hand's cache key, the ranges, the sampled turn cards and the thinning draws
come from the public history alone, its own range enters every solve whole (``max_holdings`` thins the opponent's
only), and one solve per public state gives the strategy of every holding it may hold. That is what local best
response asks for (``agent_zoo.lbr``: the agent's action probabilities for every holding in its range); each
iteration costs several times the default's (a range of up to 1,326 holdings instead of about 200). A sampled turn
card that is one of the agent's own cards leaves that holding out of the subgame, so it plays the range's mean
strategy there.

Reproducibility: the agent acts from the observation alone (``history=True`` gives the hand so far), and caches
what it computed for a hand (ranges after each action, solves) keyed by the public history, so acting on an
observation out of order, or on a pickled copy, gives the same result as acting in order. Its own random choices
in tracking ranges (turn samples, translation draws) come from Generators seeded by its ``seed`` and the history;
the action is drawn from the ``rng`` it is handed. A time budget (``seconds``) makes the number of iterations, and
so the play, depend on the machine's speed; ``seconds=None`` runs exactly ``max_iterations`` per solve and plays
the same actions on every run (spec ``resolve:iterations=N``).
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import numpy as np

from agent_zoo.agent import Agent, Observation, sample_from
from agent_zoo.observe import public_state
from agent_zoo.solver.agent_config import (
    ALLIN_THRESHOLD,
    AGGRESSIVE_ACTS,
    BOARD_AFTER,
    PLANS,
    ResolveConfig,
    parse_resolve_arg,
)
from agent_zoo.solver.cfr import RangeCFR
from agent_zoo.solver.preflop import AGGRESSIVE, FOLD, PASSIVE
from agent_zoo.solver.preflop_game import SolvedPreflop, solved_preflop
from agent_zoo.solver.range_tracking import Moment, bayes_update, board_mask, replay, thin_range
from agent_zoo.solver.ranges import COMBO_INDEX, NUM_COMBOS
from agent_zoo.solver.solve import exploitability_pct
from agent_zoo.solver.spot import STREETS, Spot
from agent_zoo.solver.translation import raise_fraction, translate
from agent_zoo.solver.tree import Act, Action, Kind, build_tree
from poker_envs.core.sizing import fraction_raise_to
from poker_envs.encoders.history import (
    ActionEntry,
    HandHistory,
    HistoryLayout,
    decode_history,
)
from poker_envs.encoders.public import PublicState
from poker_envs.games.holdem import (
    ABSTRACT_FRACTIONS,
    CALL,
    CHECK,
    HoldemGame,
)


# ---- the public history, replayed ----------------------------------------------------------------------------



# ---- solves --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NodePolicy:
    """One player's decision in a solved tree: its actions, their pot fractions (NaN for fold, check, call) and the
    probability of each for every holding (A, 1326); holdings the solve left out get the range's mean strategy."""

    player: int
    street: int  # the hand's street of the decision
    actions: tuple[Action, ...]
    sizes: tuple[float, ...]
    probs: np.ndarray


@dataclass(frozen=True)
class Solved:
    """A solve at a decision: the root's policy, the other player's policy after each root action (None where the
    street ends or the hand does), the iterations run (per subgame, mean) and the exploitability (percent of the
    pot; NaN when not measured)."""

    root: NodePolicy
    children: tuple[NodePolicy | None, ...]
    iterations: float
    exploitability_pct: float
    subgames: int


@dataclass(frozen=True)
class Track:
    """What the agent knows after a prefix of the hand: the two ranges (2, 1326) and, when the next action is the
    opponent's answer to the agent's own, the opponent's policy there; pre-flop, the node of the solved pre-flop
    game (``ResolveConfig.preflop``) the actions so far lead to."""

    ranges: np.ndarray
    pending: NodePolicy | None = None
    preflop_node: int = 0  # the node of the solved pre-flop game reached (-1: off its tree, or the chart plays)


def _node_fractions(pot_before: int, node_committed: tuple[int, int], player: int, actions: Sequence[Action]) -> tuple[float, ...]:
    """Pot fraction of each aggressive action at a first-street node (its street bets are its ``committed``, the
    pot before them ``pot_before``)."""
    pot = pot_before + node_committed[0] + node_committed[1]
    max_bet = max(node_committed)
    owe = max_bet - node_committed[player]
    return tuple(raise_fraction(a.to, max_bet, pot, owe) if a.kind in AGGRESSIVE_ACTS else float("nan") for a in actions)


def _kind(act: Act) -> int:
    """The env-facing kind of a tree action: fold, check/call (passive) or bet/raise/all-in (aggressive)."""
    return FOLD if act == Act.FOLD else PASSIVE if act in (Act.CHECK, Act.CALL) else AGGRESSIVE


def _preflop_policy(solved: SolvedPreflop, at: int) -> NodePolicy:
    """Node ``at`` of the solved pre-flop game as a policy the range tracking reads (its moves as tree actions)."""
    node = solved.nodes[at]
    actions = tuple(Action(m.kind, m.to) for m in node.moves)
    return NodePolicy(node.player, 0, actions, _node_fractions(0, node.committed, node.player, actions), solved.probs[at])


def _spread(cfr: RangeCFR, node_id: int) -> np.ndarray:
    """(A, 1326): the average strategy at first-street ``node_id`` per holding, NaN for holdings not in the solve."""
    node = cfr.layout.tree.nodes[node_id]
    strategy = cfr.strategy(node_id)[:, 0, :]  # (A, H): the first street has one board
    out = np.full((len(node.actions), NUM_COMBOS), np.nan)
    out[:, cfr.layout.holdings[node.player]] = strategy
    return out


def _combine(parts: Sequence[np.ndarray], weights: np.ndarray) -> np.ndarray:
    """Mean of per-subgame (A, 1326) strategies where each is known; elsewhere the range-weighted mean strategy."""
    stacked = np.stack(parts)  # (K, A, 1326)
    known = ~np.isnan(stacked[:, 0, :])  # (K, 1326)
    count = known.sum(axis=0)
    total = np.where(known[:, None, :], stacked, 0.0).sum(axis=0)
    out = np.divide(total, count, out=np.zeros_like(total), where=count > 0)
    have = count > 0
    w = weights * have
    if w.sum() > 0:
        mean = (out * w).sum(axis=1) / w.sum()
    else:
        mean = np.full(out.shape[0], 1.0 / out.shape[0])
    out[:, ~have] = mean[:, None]
    return out



def _digest(*parts: Any) -> int:
    """A stable 64-bit number of ``parts`` (their repr), for seeding: the same on every run and process."""
    return int.from_bytes(hashlib.blake2b(repr(parts).encode(), digest_size=8).digest(), "little")


# ---- the agent -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _View:
    """One observation read: the public state, the history, the moments replayed, the hand's key, the ranges so
    far, the agent's player number and its holding (index into COMBOS)."""

    public: PublicState
    history: HandHistory
    moments: list[Moment]
    base: tuple
    track: Track
    me: int
    hero: int



class ResolveAgent(Agent):
    """Heads-up no-limit hold'em by range tracking and re-solving (module doc). Build it with :meth:`for_env`."""

    name = "resolve"

    def __init__(self, layout: HistoryLayout, sizing: str | tuple[Fraction, ...], config: ResolveConfig | None = None) -> None:
        self.layout = layout
        self.sizing = sizing  # "chips" or the pot fractions of the raise ids
        self.config = config or ResolveConfig()
        self.env_options = MappingProxyType({"history": True, **({"bet_sizing": "chips"} if sizing == "chips" else {})})
        self._cache: OrderedDict[tuple, Any] = OrderedDict()
        self._counts: dict[str, float] = {}
        self._deadline: float | None = None
        self._started = 0.0

    @staticmethod
    def for_env(env: Any, config: ResolveConfig | None = None, name: str = "resolve") -> ResolveAgent:
        """The agent for ``env`` (read for its configuration only): refuses all but heads-up no-limit hold'em, and
        an env built without ``history=True``."""
        from agent_zoo.registry import env_game

        game = env_game(env)
        plays = "heads-up no-limit hold'em (nolimit with 2 players)"
        if not isinstance(game, HoldemGame) or game.config.betting != "nolimit":
            raise ValueError(f"agent {name!r} plays {plays} only, not {game.name}")
        cfg = game.config
        if cfg.num_players != 2:
            raise ValueError(f"agent {name!r} plays {plays} only; this table has {cfg.num_players} players")
        if game.name != "nolimit_holdem":  # short deck, Omaha, other boards: the solver knows 52-card hold'em only
            raise ValueError(f"agent {name!r} plays {plays} only, not {game.name}")
        layout = getattr(getattr(env, "unwrapped", env), "history_layout", None)
        if layout is None:
            raise ValueError(f"agent {name!r} reads the hand so far from observation['history']: build the env with "
                             "history=True (the tournament does, from the agent's env_options)")
        sizing = "chips" if cfg.bet_sizing == "chips" else tuple(cfg.fractions or ABSTRACT_FRACTIONS)
        agent = ResolveAgent(layout, sizing, config)
        agent.name = name
        return agent

    # pickling: the cache and the clock stay behind (they are rebuilt exactly from observations)
    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.update(_cache=OrderedDict(), _deadline=None)
        state["env_options"] = dict(self.env_options)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state["env_options"] = MappingProxyType(state["env_options"])
        self.__dict__.update(state)

    # ---- the Agent interface -------------------------------------------------------------------------------

    def act(self, observation: Observation, rng: np.random.Generator) -> int:
        probs = self.action_probabilities(observation)
        self._count("decisions")
        return sample_from(probs, rng)

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        """The agent's mixed strategy over the action ids at this decision (computed once per decision, cached)."""
        mask = np.asarray(observation["action_mask"])
        view = self._view(observation)
        public, now, track, hero = view.public, view.moments[-1], view.track, view.hero
        probs = np.zeros(mask.size)
        solved_preflop = self._preflop_game(view.history) if public.street == 0 and track.preflop_node >= 0 else None
        node = solved_preflop.nodes[track.preflop_node] if solved_preflop is not None else None
        if solved_preflop is not None and node is not None and node.player == view.me:
            big_blind = round(max(view.history.blinds))
            for move, p in zip(node.moves, solved_preflop.probs[track.preflop_node][:, hero]):
                kind = _kind(move.kind)
                to = move.real_to(round(max(public.bets)), big_blind, round(public.max_raise_to)) if kind == AGGRESSIVE else 0
                probs[self._kind_id(kind, to, public, mask)] += p
        elif public.street == 0:
            chart = self.config.chart
            kinds = chart.kind_probabilities(track.ranges[1 - view.me], now.to_call, now.pot, public.can_raise)[:, hero]
            raise_to = chart.raise_to(max(public.bets), public.min_raise_to, public.max_raise_to,
                                      public.stacks[public.observer] + public.bets[public.observer])
            for kind, p in zip((FOLD, PASSIVE, AGGRESSIVE), kinds):
                probs[self._kind_id(kind, raise_to, public, mask)] += p
        else:
            solved = self._decision_solve(view)
            for action, p in zip(solved.root.actions, solved.root.probs[:, hero]):
                probs[self._kind_id(_kind(action.kind), action.to, public, mask)] += p
        probs = np.where(mask > 0, probs, 0.0)
        if not probs.sum() > 0:  # cannot happen with a legal check/call; kept as a guard against a bad mask
            self._count("fallbacks")
            probs = mask.astype(np.float64)
        return probs / probs.sum()

    def ranges(self, observation: Observation) -> np.ndarray:
        """(2, 1326): both players' ranges (out of position first) after every action in the observation's history,
        the board removed; each scaled to a largest weight of 1."""
        return self._view(observation).track.ranges.copy()

    def solved(self, observation: Observation) -> Solved:
        """The solve of the postflop decision the observation asks for (the one the agent acts from)."""
        view = self._view(observation)
        if view.public.street == 0:
            raise ValueError("agent 'resolve' solves postflop decisions only; this observation is pre-flop")
        return self._decision_solve(view)

    def _view(self, observation: Observation) -> _View:
        """Read an observation and bring the range tracking up to it; starts the decision's clock."""
        public = public_state(observation, "agent 'resolve'")
        if "history" not in observation:
            raise ValueError("agent 'resolve' reads the hand so far from observation['history'], which this observation "
                             "lacks: build the env with history=True (observations made outside the env, such as local "
                             "best response's, carry no history, so that tool cannot evaluate this agent)")
        if public.actor != public.observer:
            raise ValueError(f"agent 'resolve' acts for the seat to act; this observation is seat {public.observer}'s "
                             f"while seat {public.actor} acts")
        history = decode_history(observation["history"], self.layout)
        if len(history.hole) != 2:
            raise ValueError(f"agent 'resolve' needs its two hole cards in observation['history'], got {history.hole}")
        self._started = time.perf_counter()
        self._deadline = None if self.config.seconds is None else self._started + self.config.seconds
        me = 1 if public.observer == public.button else 0
        moments = replay(history, public.button, public.street, me)
        base = self._base_key(public, history)
        track = self._track(base, history, moments, me, public.street)
        hero = int(COMBO_INDEX[history.hole[0], history.hole[1]])
        return _View(public, history, moments, base, track, me, hero)

    def _decision_solve(self, view: _View) -> Solved:
        key = self._key(view.base, view.history, len(view.history.actions))
        return self._solved(key, view.history, view.moments[-1], view.track, view.me, view.hero, current=True)

    def begin_block(self, log: Any, hands: Sequence[Mapping[str, int]] = (), **tags: Any) -> None:
        self._counts = {}

    def finish_block(self) -> dict[str, float]:
        """Summable counters: ``decisions`` (acts), ``postflop_decisions`` (decisions solved), ``solves`` (subgames
        solved, catch-ups and sampled turn cards too), ``iterations`` (summed over solves), ``exploitability_pct``
        (summed over the measured decisions, ``measured``), ``solve_s``; per street (``_flop``, ``_turn``,
        ``_river``): ``decisions_``, ``iterations_`` (mean over a decision's subgames, summed), ``exploitability_pct_``
        and ``decision_s_`` (wall time of the decision: tracking, catch-ups, the solve and its measurement); and
        ``fallbacks``, ``untracked_actions`` when they happen. :func:`summarize` turns them into means."""
        out, self._counts = dict(self._counts), {}
        return out

    # ---- counters ------------------------------------------------------------------------------------------

    def _count(self, key: str, value: float = 1.0) -> None:
        self._counts[key] = self._counts.get(key, 0.0) + value

    # ---- env ids -------------------------------------------------------------------------------------------

    def _kind_id(self, kind: int, to: float, public: PublicState, mask: np.ndarray) -> int:
        """The action id of a fold, check/call or bet/raise to ``to`` street chips (nearest legal amount)."""
        if kind == FOLD:
            return 0 if mask[0] else 1
        if kind == PASSIVE or not public.can_raise or not mask[2:].any():
            return 1
        ids = np.flatnonzero(mask[2:]) + 2
        me = public.observer
        target = min(max(to, public.min_raise_to), public.max_raise_to)
        if self.sizing == "chips":
            amounts = ids - 1.0
        else:
            fractions = self.sizing
            assert isinstance(fractions, tuple)
            max_bet = round(max(public.bets))
            owe = max_bet - round(public.bets[me])
            low, high = round(public.min_raise_to), round(public.max_raise_to)
            amounts = np.array([high if i - 2 >= len(fractions) else
                                fraction_raise_to(max_bet, round(public.pot) + owe, fractions[i - 2], low) for i in ids], dtype=np.float64)
        return int(ids[int(np.argmin(np.abs(amounts - target)))])

    # ---- keys and the cache --------------------------------------------------------------------------------

    def _base_key(self, public: PublicState, history: HandHistory) -> tuple:
        """The hand's key: the table, the seat, the stacks and (unless the agent solves from public information) the
        agent's cards."""
        hole = () if self.config.public else tuple(history.hole)
        return (public.observer, public.button, public.hand_number, public.small_blind, public.big_blind, public.ante,
                hole, tuple(history.start_stacks), tuple(history.antes), tuple(history.blinds))

    @staticmethod
    def _key(base: tuple, history: HandHistory, n: int) -> tuple:
        """The key of the hand's first ``n`` actions (with the board dealt before action ``n`` or now)."""
        actions = history.actions[:n]
        street = history.actions[n].street if n < len(history.actions) else (len(history.board) and BOARD_AFTER.index(len(history.board)))
        return (base, tuple(tuple(a) for a in actions), tuple(history.board[: BOARD_AFTER[street]]))

    def _get(self, key: tuple) -> Any:
        value = self._cache.get(key)
        if value is not None:
            self._cache.move_to_end(key)
        return value

    def _put(self, key: tuple, value: Any) -> None:
        self._cache[key] = value
        self._cache.move_to_end(key)
        while len(self._cache) > self.config.cache_size:
            self._cache.popitem(last=False)

    # ---- range tracking ------------------------------------------------------------------------------------

    def _track(self, base: tuple, history: HandHistory, moments: list[Moment], me: int, now_street: int) -> Track:
        """The ranges (and pending opponent policy) after every action so far, from the longest cached prefix."""
        n_actions = len(history.actions)
        start, track = 0, None
        for n in range(n_actions, -1, -1):
            track = self._get(("track", self._key(base, history, n)))
            if track is not None:
                start = n
                break
        if track is None:
            ranges = np.ones((2, NUM_COMBOS))
            if not self.config.public:
                ranges[1 - me] *= board_mask(history.hole)  # the opponent cannot hold the agent's cards
            track = Track(ranges)
            self._put(("track", self._key(base, history, 0)), track)
        hero = int(COMBO_INDEX[history.hole[0], history.hole[1]])
        for i in range(start, n_actions):
            track = self._step(base, history, moments[i], history.actions[i], track, me, hero, i)
            self._put(("track", self._key(base, history, i + 1)), track)
        if now_street > 0:
            board = history.board[: BOARD_AFTER[now_street]]
            track = replace(track, ranges=track.ranges * board_mask(board))
        return track

    def _step(self, base: tuple, history: HandHistory, m: Moment, entry: ActionEntry, track: Track, me: int, hero: int,
              i: int) -> Track:
        """The track after action ``i`` (``entry``, taken at moment ``m``)."""
        eps = self.config.epsilon
        p = m.actor
        ranges = track.ranges.copy()
        if m.street == 0:
            solved_preflop = self._preflop_game(history) if track.preflop_node >= 0 else None
            if solved_preflop is not None and solved_preflop.nodes[track.preflop_node].player == p:
                at = track.preflop_node
                policy = _preflop_policy(solved_preflop, at)
                rng = np.random.default_rng(np.random.SeedSequence([self.config.seed, 2, _digest(self._key(base, history, i + 1))]))
                index = self._tree_index(policy, entry, m, rng)
                if index is not None:
                    ranges[p] = bayes_update(ranges[p], policy.probs[index], eps, len(policy.actions))
                    return Track(ranges, preflop_node=solved_preflop.nodes[at].children[index])
                self._count("untracked_actions")  # off the solved game's tree: the chart reads the rest of the street
            kind = FOLD if entry.kind == 0 else PASSIVE if entry.kind in (CHECK, CALL) else AGGRESSIVE
            kinds = self.config.chart.kind_probabilities(ranges[1 - p], m.to_call, m.pot, m.can_raise)
            available = 1 + (m.to_call > 0) + m.can_raise
            ranges[p] = bayes_update(ranges[p], kinds[kind], eps, available)
            return Track(ranges, preflop_node=-1)
        ranges *= board_mask(history.board[: BOARD_AFTER[m.street]])
        children: tuple[NodePolicy | None, ...] = ()
        if p == me:
            solved = self._solved(self._key(base, history, i), history, m, Track(ranges), me, hero, current=False)
            policy = solved.root
            children = solved.children
        elif track.pending is not None and track.pending.player == p and track.pending.street == m.street:
            policy = track.pending
        else:
            policy = self._solved(self._key(base, history, i), history, m, Track(ranges), me, hero, current=False).root
        rng = np.random.default_rng(np.random.SeedSequence([self.config.seed, 1, _digest(self._key(base, history, i + 1))]))
        index = self._tree_index(policy, entry, m, rng)
        if index is None:  # the tree has no action of that kind here (e.g. a raise past its raise limit): no update
            self._count("untracked_actions")
            return Track(ranges)
        ranges[p] = bayes_update(ranges[p], policy.probs[index], eps, len(policy.actions))
        pending = children[index] if p == me else None
        return Track(ranges, pending)

    def _preflop_game(self, history: HandHistory) -> SolvedPreflop | None:
        """The solved pre-flop game of this hand's table (blinds, the shorter starting stack; a table seen for the
        first time costs a solve of a few seconds, then it is cached), or None when the agent plays the chart."""
        if self.config.preflop != "solved":
            return None
        blinds = sorted(round(b) for b in history.blinds)
        stack = round(min(history.start_stacks))
        if any(history.antes) or not 0 < blinds[0] <= blinds[1] < stack:
            return None  # the abstract game has no antes and needs chips past the big blind: the chart plays
        return solved_preflop(stack, blinds[0], blinds[1], self.config.preflop_plan, self.config.preflop_iterations)

    @staticmethod
    def _tree_index(policy: NodePolicy, entry: ActionEntry, m: Moment, rng: np.random.Generator) -> int | None:
        """The tree action an observed action is read as (pseudo-harmonic translation for bet and raise sizes)."""
        kinds = [a.kind for a in policy.actions]
        if entry.kind == 0:
            return kinds.index(Act.FOLD) if Act.FOLD in kinds else None
        if entry.kind in (CHECK, CALL):
            for k in (Act.CHECK, Act.CALL):
                if k in kinds:
                    return kinds.index(k)
            return None
        aggressive = [i for i, k in enumerate(kinds) if k in AGGRESSIVE_ACTS]
        if not aggressive:
            return None
        eff = m.effective
        to = min(round(entry.total), eff)
        bets = (min(m.bets[0], eff), min(m.bets[1], eff))
        pot = m.pot - (m.bets[0] + m.bets[1]) + bets[0] + bets[1]
        x = raise_fraction(to, max(bets), pot, max(bets) - bets[m.actor])
        return aggressive[translate(x, [policy.sizes[i] for i in aggressive], rng)]

    # ---- solving -------------------------------------------------------------------------------------------

    def _spot_ranges(self, ranges: np.ndarray, board: Sequence[int], keep: tuple[int, int] | None,
                     rng: np.random.Generator, whole: int | None = None) -> np.ndarray:
        """The ranges a solve gets: board removed, holdings under ``prune`` of the largest weight dropped, ranges of
        more than ``max_holdings`` thinned by :func:`thin_range` (player ``whole``'s never), each scaled to a largest
        weight of 1; ``keep`` = (player, holding) is always in."""
        cfg = self.config
        out = ranges * board_mask(board)
        for p in (0, 1):
            top = out[p].max()
            if not top > 0:
                raise ValueError(f"player {p}'s range has no holding left on the board {board}")
            w = out[p] / top
            w[w < cfg.prune] = 0.0
            forced = keep[1] if keep is not None and keep[0] == p else None
            if forced is not None:
                w[forced] = max(w[forced], cfg.prune)
            if p != whole:
                w = thin_range(w, cfg.max_holdings, rng, forced)
            out[p] = w / w.max()
        return out

    def _spots(self, key: tuple, history: HandHistory, m: Moment, ranges: np.ndarray) -> list[Spot]:
        """The subgame(s) of moment ``m``: one Spot, or on the flop one per sampled turn card."""
        plan = PLANS[m.street]
        eff = m.effective
        b0, b1 = min(m.bets[0], eff), min(m.bets[1], eff)
        pot = m.pot - m.bets[0] - m.bets[1]
        board = tuple(history.board[: BOARD_AFTER[m.street]])
        if m.street == 1:
            seen = set(board) if self.config.public else set(board) | set(history.hole)
            rest = np.array([c for c in range(52) if c not in seen], dtype=np.int64)
            rng = np.random.default_rng(np.random.SeedSequence([self.config.seed, 2, _digest(key)]))
            turns = np.sort(rng.choice(rest, size=min(self.config.flop_samples, rest.size), replace=False))
            boards = [board + (int(c),) for c in turns]
        else:
            boards = [board]
        out = []
        for b in boards:
            first = STREETS[len(b) - 3]
            sizes = {}
            for p in (0, 1):
                sizes[(p, first)] = plan.first
                for later in STREETS[STREETS.index(first) + 1:]:
                    sizes[(p, later)] = plan.later
            out.append(Spot(board=b, pot=pot, stack=eff, ranges=(ranges[0], ranges[1]), sizes=sizes,
                            allin_threshold=ALLIN_THRESHOLD, raise_limit=plan.raise_limit, big_blind=round(self._big_blind(history)),
                            bets=(b0, b1), to_act=m.actor, raises=max(0, m.aggressions - 1),
                            last_street_aggressor=m.last_street_aggressor))
        return out

    @staticmethod
    def _big_blind(history: HandHistory) -> float:
        return max(max(history.blinds), 1.0)

    def _budget(self, current: bool) -> float | None:
        """Seconds for one solve: the rest of the decision's budget for the decision now, a share for others."""
        cfg = self.config
        if cfg.seconds is None:
            return None
        share = cfg.catch_up_share * cfg.seconds
        if not current:
            return share
        assert self._deadline is not None
        return max(self._deadline - time.perf_counter(), 0.25 * cfg.seconds)

    def _run(self, spot: Spot, seconds: float | None) -> RangeCFR:
        """CFR on ``spot`` for ``seconds`` (building included; at least one iteration) or ``max_iterations``
        (``river_iterations`` for a river spot, when set)."""
        start = time.perf_counter()
        cfr = RangeCFR(build_tree(spot))
        river = self.config.river_iterations
        cap = river if river is not None and len(spot.board) == 5 else self.config.max_iterations
        while cfr.iteration < cap:
            if seconds is not None and cfr.iteration > 0:
                elapsed = time.perf_counter() - start
                if elapsed * (cfr.iteration + 1) / cfr.iteration > seconds:
                    break
            cfr.iterate(1)
        return cfr

    def _solved(self, key: tuple, history: HandHistory, m: Moment, track: Track, me: int, hero: int, current: bool) -> Solved:
        """The solve at moment ``m`` (cached by the history's key)."""
        cached = self._get(("solve", key))
        if cached is not None:  # (counted when it was solved: asking again, e.g. for action_probabilities, is free)
            return cached
        ranges = track.ranges
        public = self.config.public
        keep = (me, hero) if m.actor == me and not public else None
        thin_rng = np.random.default_rng(np.random.SeedSequence([self.config.seed, 3, _digest(key)]))
        board = history.board[: BOARD_AFTER[m.street]]
        spots = self._spots(key, history, m, self._spot_ranges(ranges, board, keep, thin_rng, me if public else None))
        budget = self._budget(current)
        per = None if budget is None else budget / len(spots)
        clock = time.perf_counter()
        roots, kids, iterations, gaps = [], [], [], []
        first_tree = None
        for spot in spots:
            cfr = self._run(spot, per)
            tree = cfr.layout.tree
            if first_tree is None:
                first_tree = tree
            elif tree.nodes[0].actions != first_tree.nodes[0].actions:  # the root's sizes do not depend on the turn card
                raise AssertionError(f"sampled subgames disagree on the root's actions: {first_tree.nodes[0].actions} vs "
                                     f"{tree.nodes[0].actions}")
            roots.append(_spread(cfr, 0))
            kids.append([_spread(cfr, c) if tree.nodes[c].kind == Kind.DECISION and tree.nodes[c].street == 0 else None
                         for c in tree.nodes[0].children])
            iterations.append(cfr.iteration)
            if current and self.config.measure:
                gaps.append(exploitability_pct(cfr.exploitability(), spot.pot))
            self._count("solves")
            self._count("iterations", cfr.iteration)
        self._count("solve_s", time.perf_counter() - clock)
        assert first_tree is not None
        spot, top = spots[0], first_tree.nodes[0]
        actions = tuple(top.actions)
        root = NodePolicy(m.actor, m.street, actions, _node_fractions(spot.pot, top.committed, m.actor, actions),
                          _combine(roots, ranges[m.actor]))
        other = 1 - m.actor
        children: list[NodePolicy | None] = []
        for a, child in enumerate(top.children):
            node = first_tree.nodes[child]
            parts = [k[a] for k in kids]
            if node.kind != Kind.DECISION or node.street != 0 or any(x is None for x in parts):
                children.append(None)
                continue
            child_actions = tuple(node.actions)
            children.append(NodePolicy(other, m.street, child_actions, _node_fractions(spot.pot, node.committed, other, child_actions),
                                       _combine(parts, ranges[other])))  # type: ignore[arg-type]
        gap = float(np.mean(gaps)) if gaps else float("nan")
        solved = Solved(root, tuple(children), float(np.mean(iterations)), gap, len(spots))
        if current:
            street = STREETS[m.street - 1]
            self._count("postflop_decisions")
            self._count(f"decision_s_{street}", time.perf_counter() - self._started)
            self._count(f"iterations_{street}", solved.iterations)
            self._count(f"decisions_{street}")
            if gaps:
                self._count("measured")
                self._count("exploitability_pct", gap)
                self._count(f"exploitability_pct_{street}", gap)
        self._put(("solve", key), solved)
        return solved


def summarize(counters: Mapping[str, float]) -> dict[str, float]:
    """Means from the summed counters of :meth:`ResolveAgent.finish_block` (or a tournament's sum of them):
    ``mean_iterations`` per subgame solved, ``mean_exploitability_pct`` per measured decision, ``mean_solve_s`` per
    postflop decision, and per street ``mean_iterations_<street>``, ``mean_exploitability_pct_<street>`` and
    ``mean_decision_s_<street>``."""
    out = dict(counters)
    solves, measured, decisions = counters.get("solves", 0), counters.get("measured", 0), counters.get("postflop_decisions", 0)
    if solves:
        out["mean_iterations"] = counters.get("iterations", 0.0) / solves
    if measured:
        out["mean_exploitability_pct"] = counters.get("exploitability_pct", 0.0) / measured
    if decisions:
        out["mean_solve_s"] = counters.get("solve_s", 0.0) / decisions
    for street in STREETS:
        n = counters.get(f"decisions_{street}", 0)
        if n:
            for name in ("iterations", "exploitability_pct", "decision_s"):
                if f"{name}_{street}" in counters:
                    out[f"mean_{name}_{street}"] = counters[f"{name}_{street}"] / n
    return out


def make_resolve_agent(env: Any, arg: str | None = None) -> ResolveAgent:
    """The registry's factory: ``resolve[:SECONDS][,iterations=N][,seed=S]`` for a heads-up no-limit env."""
    return ResolveAgent.for_env(env, parse_resolve_arg(arg))
