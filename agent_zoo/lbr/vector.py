"""Batched local best response: many heads-up hold'em hands in lockstep on the batched engine.

The same method and the same hands as ``LocalBestResponse.evaluate`` (``agent_zoo.lbr.core``): hand ``i`` draws
its cards, the agent's moves and LBR's rollouts from ``hand_rng(seed, i)`` in the same order, so the per-hand
winnings are equal. What changes is how LBR's questions are answered: a block of hands is played on copies of
the batched engine's tables (``poker_envs.vector.holdem_lookahead``); at each step the agent is asked once for
every (hand, holding) row of every hand where it acts, and once more for every (hand, raise, holding) row of
every hand where LBR acts (the fold probabilities), the observations encoded by the batched encoders. Equity
is asked for every hand where LBR acts at once (``TwoCardFamily.win_probabilities``: each hand's rollouts from
its own generator, the boards of all of them evaluated in one pass).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import numpy as np

from agent_zoo.agent import Agent, sample_from
from agent_zoo.cnn.heuristic import raise_tos
from agent_zoo.lbr.core import (LBRConfig, LBRResult, LocalBestResponse, deal_order, finish, fold_probability,
                                hand_rng, raise_value, range_shares)
from poker_envs.encoders.catalog import available_encoders
from poker_envs.games.holdem import HoldemGame
from poker_envs.vector import holdem_lookahead as look
from poker_envs.vector.holdem import ENCODERS, VectorHoldem

ENGINES = ("aec", "vector")  # LBR on the rules' states, one hand at a time, or on the batched engine
T = TypeVar("T")
MAX_ROWS = 32768  # most (hand, holding) rows asked of the agent in one call (memory: rows x actions floats)


@dataclass(frozen=True)
class Query:
    """One range question: the agent in ``seat`` at table ``table`` of some tables, for holdings ``rows``."""

    table: int  # row of the tables asked about
    seat: int  # the agent's seat there
    rows: np.ndarray  # holdings (indices into the card family's holdings), ascending
    key: tuple | None  # pre-flop memo key (seat and the hand's actions so far), None past the flop


def held(weights: np.ndarray) -> list[np.ndarray]:
    """The holdings of each range (rows of ``weights`` (N, H)): each row's ``np.flatnonzero(row > 0)``."""
    spot, rows = np.nonzero(weights > 0)
    ends = np.cumsum(np.bincount(spot, minlength=len(weights))).tolist()
    return [rows[a:b] for a, b in zip([0] + ends[:-1], ends)]


class VectorLBR:
    """LBR against one agent on the batched engine (heads-up hold'em, 52 cards); ``block``: hands in lockstep."""

    def __init__(self, env: Any, agent: Agent, config: LBRConfig | None = None, block: int = 1024) -> None:
        if isinstance(block, bool) or not isinstance(block, int) or block < 1:
            raise ValueError(f"block must be a positive integer (hands in lockstep), got {block!r}")
        self.aec = LocalBestResponse(env, agent, config)  # the checks, the card family, the scale, the memo
        game = self.aec.game
        if not isinstance(game, HoldemGame) or self.aec.players != 2:
            raise ValueError(f"engine 'vector': batched LBR plays heads-up hold'em only, not {game.name!r} with "
                             f"{game.num_players} players; use engine 'aec'")
        if self.aec._history is not None:
            raise ValueError("engine 'vector': the batched engine encodes no 'history' observation (the env was built "
                             "with history=True, as agents that read the hand so far need); use engine 'aec' (the same "
                             "hands and per-hand winnings)")
        encoder = next((name for name, cls in available_encoders().items() if type(self.aec.base.encoder) is cls), None)
        if encoder not in ENCODERS:
            raise ValueError(f"engine 'vector': the env's encoder has no batched form (batched: {list(ENCODERS)}); "
                             "use engine 'aec'")
        self.game, self.agent, self.config, self.block = game, agent, self.aec.config, block
        self.family = self.aec.family
        self.engine = VectorHoldem(1, game.config, reward_unit="chips", obs_encoder=encoder, public=self.aec._public)
        holdings = self.family.holdings
        self.index = np.full((52, 52), -1, dtype=np.int64)  # sorted holding -> row of holdings
        self.index[holdings[:, 0], holdings[:, 1]] = np.arange(len(holdings))

    # Range questions -------------------------------------------------------------------------------
    def ask(self, tables: look.Tables, queries: list[Query], use: Callable[[int, np.ndarray, np.ndarray], T]) -> list[T]:
        """``use(q, matrix, index)`` of the agent's probabilities for each query ``q``, row ``r`` of its
        (len(rows), A) answer being ``matrix[index[r]]`` (no copy of memoised answers). The agent is asked in
        batched calls of at most ``MAX_ROWS`` rows, each call's answers used before the next call (so only one
        call's answers are held); pre-flop answers are memoised per betting line, as
        ``LocalBestResponse.range_probabilities``."""
        if not queries:
            return []
        memo, limit, a = self.aec._memo, self.config.preflop_memo, self.game.num_distinct_actions
        for q in queries:
            if q.key is not None and q.key not in memo and len(memo) < limit:
                memo[q.key] = (np.zeros((len(self.family.holdings), a)), np.zeros(len(self.family.holdings), dtype=bool))
        # the mask and the public state do not depend on the holding: made once per question, repeated
        asked = tables.take(np.array([q.table for q in queries]))
        shared, _ = look.observe(self.engine, asked)
        ends = np.cumsum([len(q.rows) for q in queries])
        out: list[T] = []
        while len(out) < len(queries):  # as many questions as fit in MAX_ROWS rows (one at least) per call
            first = len(out)
            last = max(first + 1, int(np.searchsorted(ends, (ends[first - 1] if first else 0) + MAX_ROWS, side="right")))
            answers = self._answer(asked, shared, np.arange(first, last), queries[first:last])
            out += [use(first + j, matrix, index) for j, (matrix, index) in enumerate(answers)]
        return out

    def _answer(self, asked: look.Tables, shared: dict[str, np.ndarray], at: np.ndarray,
                queries: list[Query]) -> list[tuple[np.ndarray, np.ndarray]]:
        """``(matrix, index)`` for ``queries`` (rows ``at`` of ``asked`` and of its observations ``shared``), one
        agent call for the holdings the memo lacks (the memo filled before any answer is read)."""
        memo = self.aec._memo
        entries = [memo.get(q.key) if q.key is not None else None for q in queries]
        # Each memoised holding asked once per call: questions on one betting line (hands of the block at the
        # same pre-flop node) share their entry, and the first to need a holding asks it for all of them.
        claimed: dict[int, np.ndarray] = {}  # id of a memo entry -> its holdings asked in this call
        missing = []
        for q, e in zip(queries, entries):
            if e is None:
                missing.append(q.rows)
                continue
            now = claimed.setdefault(id(e), np.zeros(len(e[1]), dtype=bool))
            m = q.rows[~(e[1][q.rows] | now[q.rows])]
            now[m] = True
            missing.append(m)
        sizes = np.array([len(m) for m in missing])
        answers = np.zeros((0, self.game.num_distinct_actions))
        if sizes.sum():
            rows = at[sizes > 0]
            observations = {key: np.repeat(value[rows], sizes[sizes > 0], axis=0)
                            for key, value in shared.items() if key != "observation"}
            observations["observation"] = look.encode_holdings(self.engine, asked, rows, sizes[sizes > 0],
                                                               self.family.holdings[np.concatenate(missing)],
                                                               shared["observation"][rows])
            probs = self.agent.action_probabilities_batch(observations)
            if probs is None:
                raise ValueError(self.aec._refusal())
            answers = np.asarray(probs, dtype=np.float64)
        out, start = [], 0
        for q, m, entry in zip(queries, missing, entries):
            part = answers[start : start + len(m)]
            start += len(m)
            if entry is None:
                out.append((part, np.arange(len(part))))
                continue
            entry[0][m] = part
            entry[1][m] = True
            out.append((entry[0], q.rows))
        return out

    # Playing ---------------------------------------------------------------------------------------
    def play_block(self, hands: np.ndarray, seed: int) -> np.ndarray:
        """LBR's winnings (reward unit) in hands ``hands`` of ``evaluate(…, seed)``, played in lockstep."""
        eng, fam = self.engine, self.family
        b = len(hands)
        rngs = [hand_rng(seed, int(i)) for i in hands]
        seats = (np.asarray(hands) % 2).astype(np.int64)
        t = look.start(eng, np.zeros(b, dtype=np.int64), np.stack([deal_order(self.game, g) for g in rngs]))
        holes = look.hole_cards(eng, t)
        weights = np.zeros((b, len(fam.holdings)))
        street = np.full(b, -1)
        lines: list[list[int]] = [[] for _ in range(b)]  # actions so far (the pre-flop memo's key)
        wins = np.zeros(b)
        live = np.arange(b)
        fractions = np.array(self.config.raise_fractions)
        while live.size:
            for i in live[t.street[live] != street[live]]:  # new cards seen: card removal
                possible = fam.possible(holes[i, seats[i]].tolist() + look.board(eng, t, int(i))).astype(np.float64)
                weights[i] = possible if street[i] < 0 else weights[i] * possible
                street[i] = t.street[i]
            part = t.take(live)
            obs, targets = look.observe(eng, part)
            players = part.player.astype(np.int64)
            actions = np.ones(len(live), dtype=np.int64)
            deciding = ~part.passing  # a hand the forced bets decided: its seats only pass (action 1), as the rules
            agent_at = np.flatnonzero((players != seats[live]) & deciding)
            queries = [Query(int(k), int(players[k]), rows, self._key(part, int(k), lines[live[k]]))
                       for k, rows in zip(agent_at, held(weights[live[agent_at]]))]

            def agent_acts(j: int, probs: np.ndarray, at: np.ndarray) -> None:
                """The agent's draw at row ``agent_at[j]`` (from its real holding's answer), the range updated."""
                k, q = agent_at[j], queries[j]
                i = live[k]
                real = self.index[tuple(np.sort(holes[i, players[k]]))]
                actions[k] = sample_from(probs[at[np.searchsorted(q.rows, real)]], rngs[i])
                w = weights[i].copy()
                w[q.rows] *= probs[at, actions[k]]
                weights[i] = w / w.sum()

            self.ask(part, queries, agent_acts)
            lbr_at = np.flatnonzero((players == seats[live]) & deciding)
            if lbr_at.size:
                can, low, high, _ = look.raise_range(eng, part)
                hands_at = live[lbr_at]
                wps = fam.win_probabilities(holes[hands_at, seats[hands_at]], [look.board(eng, part, int(k)) for k in lbr_at],
                                            weights[hands_at], [rngs[i] for i in hands_at])
                plans = [(k, float(wp), self._candidates(part, int(k), obs["action_mask"][k], can, low, high, fractions))
                         for k, wp in zip(lbr_at, wps)]
                actions[lbr_at] = self._decide(part, targets, plans, live, weights, lines)
            for k, act in enumerate(actions):
                lines[live[k]].append(int(act))
            over = look.play(eng, part, actions, targets)
            if over.size:
                chips = look.settle(eng, part, over)
                for r, k in enumerate(over):
                    wins[live[k]] = float(chips[r, seats[live[k]]]) * self.aec.scale
            t.put(live, part)
            live = live[part.player >= 0]
        return wins

    def _candidates(self, part: look.Tables, k: int, mask: np.ndarray, can: np.ndarray, low: np.ndarray,
                    high: np.ndarray, fractions: np.ndarray) -> list[int]:
        """``LocalBestResponse.candidate_actions`` at row ``k``."""
        legal = np.flatnonzero(mask).tolist()
        if not self.game.chips_sizing:
            return legal
        out = [a for a in legal if a < 2]
        if can[k]:
            seat = int(part.player[k])
            to_call = min(int(part.max_bet[k] - part.bets[k, seat]), int(part.stacks[k, seat]))
            tos = raise_tos(int(part.max_bet[k]), int(part.contributed[k].sum()), to_call, int(low[k]), int(high[k]), fractions)
            out += sorted({int(x) + 1 for x in tos} | {int(high[k]) + 1})
        return out

    def _decide(self, part: look.Tables, targets: np.ndarray, plans: list[tuple[int, float, list[int]]],
                live: np.ndarray, weights: np.ndarray, lines: list[list[int]]) -> list[int]:
        """LBR's choices at rows ``plans`` (row, wp, candidates): ``LocalBestResponse.lbr_action``, the fold
        probabilities of every raise of every row asked in one batch."""
        raises = [(k, a) for k, _, cands in plans for a in cands if a >= 2]
        # (row, raise) -> (chips LBR puts in, fold probability, the agent calls this much) or None: no answer
        fps: dict[tuple[int, int], tuple[float, float, float | None]] = {}
        if raises:
            rows = np.array([k for k, _ in raises])
            child = part.take(rows)
            look.play(self.engine, child, np.array([a for _, a in raises]), targets[rows])
            child_obs, _ = look.observe(self.engine, child)
            answer = [j for j, (k, _) in enumerate(raises) if int(child.player[j]) == 1 - int(part.player[k])]
            rows_of = [k for k, _, _ in plans]
            in_range = dict(zip(rows_of, held(weights[live[rows_of]])))  # the agent's holdings
            shares = {k: range_shares(weights[live[k], rows]) for k, rows in in_range.items()}
            queries = [Query(j, int(child.player[j]), in_range[raises[j][0]],
                             self._key(child, j, lines[live[raises[j][0]]] + [raises[j][1]])) for j in answer]

            def folds(q: int, probs: np.ndarray, at: np.ndarray) -> float:
                """The range's fold probability at child ``answer[q]``."""
                j = answer[q]
                return fold_probability(shares[raises[j][0]], probs[at, 0]) if child_obs["action_mask"][j, 0] else 0.0

            answers = dict(zip(answer, self.ask(child, queries, folds)))
            for j, (k, a) in enumerate(raises):
                seat = int(part.player[k])
                put_in = float(child.contributed[j, seat] - part.contributed[k, seat])
                if j not in answers:
                    fps[(k, a)] = (put_in, 0.0, None)
                    continue
                other = 1 - seat
                c = float(min(int(child.max_bet[j] - child.bets[j, other]), int(child.stacks[j, other])))
                fps[(k, a)] = (put_in, answers[j], c)
        out = []
        for k, wp, cands in plans:
            seat = int(part.player[k])
            pot = float(part.contributed[k].sum())
            asked = float(min(int(part.max_bet[k] - part.bets[k, seat]), int(part.stacks[k, seat])))
            best, best_value, fold = None, -np.inf, None
            for a in cands:
                if a == 0:
                    fold = a
                    continue
                if a == 1:
                    value = wp * pot - (1 - wp) * asked
                else:
                    put_in, fp, c = fps[(k, a)]
                    value = wp * pot - (1 - wp) * put_in if c is None else raise_value(pot, wp, put_in, fp, c)
                if value > best_value:
                    best, best_value = a, value
            out.append(fold if fold is not None and (best is None or best_value < 0) else best)
        return out

    def _key(self, t: look.Tables, j: int, line: list[int]) -> tuple | None:
        """The pre-flop memo key at row ``j`` of ``t`` (its seat to act and the hand's actions), None past it."""
        if not self.config.preflop_memo or int(t.street[j]) != 0:
            return None
        return ("vector", int(t.player[j]), tuple(line))

    def evaluate(self, hands: int, seed: int, progress: Callable[[int], None] | None = None) -> LBRResult:
        """``LocalBestResponse.evaluate``'s hands and result, ``block`` hands at a time."""
        if hands < 2:
            raise ValueError(f"hands must be >= 2 (one per seat at least), got {hands}")
        wins = np.empty(hands)
        for start in range(0, hands, self.block):
            idx = np.arange(start, min(hands, start + self.block))
            wins[idx] = self.play_block(idx, seed)
            if progress is not None:
                progress(int(idx[-1]) + 1)
        return finish(wins, 2)


class LBREvaluator(Protocol):
    """What both engines' LBR offer: ``evaluate(hands, seed, progress)``."""

    def evaluate(self, hands: int, seed: int, progress: Callable[[int], None] | None = None) -> LBRResult: ...


def make_lbr(env: Any, agent: Agent, config: LBRConfig | None = None, engine: str = "aec") -> LBREvaluator:
    """LBR against ``agent`` in ``env`` on the rules' states (``"aec"``, any table LBR plays) or on the batched
    engine (``"vector"``, heads-up hold'em): the same hands and per-hand winnings for the same seed."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {list(ENGINES)}, got {engine!r}")
    return VectorLBR(env, agent, config) if engine == "vector" else LocalBestResponse(env, agent, config)
