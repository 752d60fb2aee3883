"""Heads-up hands between random, heuristic and CNN players, played by the table runner.

Each ``Player`` becomes a zoo agent (``seat_agent``) at ``nolimit_holdem_v0`` tables of the game's
configuration (one action id per chip amount, Poker-CNN observations with the public betting state), and
``agent_zoo.runner.play_aec`` plays many hands side by side: every round each agent acts for all its
seats at once, so the candidate tensors of all hands where a CNN player acts go through its network in
one forward pass. Deals are fixed in advance (a 9-card deck and a button per hand), so a deal can be
replayed with the seats swapped (duplicate evaluation) and a stored hand can be replayed exactly
(``storage``). Every seat of every hand draws from its own Generator (``runner.HandSpec``), so a hand's
result does not depend on how many hands are played side by side.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agent_zoo.agent import Agent, Observation, RandomAgent, Rngs, batch_size, row_rngs
from agent_zoo.cnn.agent import CNNAgent
from agent_zoo.cnn.candidates import candidate_actions, distinct_candidates, expand_scores, fold_value
from agent_zoo.cnn.config import CANDIDATE_SETS
from agent_zoo.cnn.equity import allin_chips, blind_equity, runout_equity
from agent_zoo.cnn.heuristic import RANDOM_READINGS, HeuristicAgent, KindRandomAgent, check_sizing
from agent_zoo.cnn.network import PokerCNN, score_candidates
from agent_zoo.cnn.storage import DECK_CARDS, HandRecorder
from agent_zoo.observe import public_of_state
from agent_zoo.runner import HandOutcome, HandSpec, Turn, Watcher, child_seed, play_aec
from poker_envs import nolimit_holdem_v0
from poker_envs.encoders.poker_cnn import PokerCNNEncoder, candidate_planes
from poker_envs.games.holdem import HoldemConfig, HoldemGame


def make_game(small_blind: int = 1, big_blind: int = 2, stack: int = 100, fold_when_check: bool = False) -> HoldemGame:
    """Heads-up no-limit hold'em with one chip id per raise-to amount (``bet_sizing="chips"``);
    ``fold_when_check``: folding is legal when checking is free (not by default)."""
    return HoldemGame(HoldemConfig(num_players=2, small_blind=small_blind, big_blind=big_blind,
                                   starting_stacks=(stack, stack), bet_sizing="chips",
                                   allow_fold_when_check=fold_when_check))


@dataclass
class Player:
    """A seat policy: ``kind`` "random", "heuristic" or "cnn" (then ``net`` is its value network)."""

    name: str
    kind: str
    net: PokerCNN | None = None
    candidates: str = "full"  # "full": every legal action; "subset": see candidate_actions
    fractions: tuple[float, ...] = (0.5, 1.0, 2.0)  # pot fractions of the "subset"
    explore: float = 0.0  # share of decisions handed to the heuristic rule
    exact_fold: bool = False  # score a fold by its known value, -(chips put in) / buy-in
    sizing: str = "pot"  # raise size of the heuristic rule (heuristic players, exploration): heuristic.SIZINGS
    random_reading: str = "ids"  # a random player's reading: "ids" (uniform over legal ids) or "kinds"

    def __post_init__(self) -> None:
        if self.kind not in ("random", "heuristic", "cnn"):
            raise ValueError(f"kind must be random, heuristic or cnn, got {self.kind!r}")
        self.sizing = check_sizing(self.sizing)
        if self.random_reading not in RANDOM_READINGS:
            raise ValueError(f"random_reading must be one of {RANDOM_READINGS}, got {self.random_reading!r}")
        if (self.kind == "cnn") != (self.net is not None):
            raise ValueError("a cnn player needs net=, other kinds take none")
        if self.candidates not in CANDIDATE_SETS:
            raise ValueError(f"candidates must be one of {CANDIDATE_SETS}, got {self.candidates!r}")
        if not 0.0 <= self.explore <= 1.0:
            raise ValueError(f"explore must be a share in [0, 1], got {self.explore!r}")


def cnn_scores(state: Any, player: Player, encoder: PokerCNNEncoder) -> tuple[list[int], np.ndarray]:
    """(candidate ids, their scores) of a CNN player at ``state`` (one forward pass); the candidates
    come from the public state, as the agent computes them from its observation."""
    public = public_of_state(state)
    actions = candidate_actions(state.legal_actions(), public, player.candidates, player.fractions)
    kinds, added, first = distinct_candidates(public, actions)
    values = expand_scores(actions, score_states(player.net, encoder, [state], [(kinds, added)])[0], first)
    if player.exact_fold:
        fold_value(public, actions, values)
    return actions, values


def score_states(net: PokerCNN, encoder: PokerCNNEncoder, states: Sequence[Any],
                 candidates: Sequence[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
    """Scores of each state's candidates ((kinds, chips added) per state, for the seat to act) in one
    batched pass; equal to scoring ``encoder.encode_kinds`` tensors up to float round-off
    (``network.score_candidates``: state planes and candidate planes are never assembled)."""
    planes = np.stack([encoder.encode(s, s.current_player()) for s in states])
    cand = [candidate_planes(kinds, added / s.config.small_blind, encoder.dtype) for s, (kinds, added) in zip(states, candidates)]
    sizes = [len(c) for c in cand]
    rows = np.repeat(np.arange(len(states)), sizes)
    values = score_candidates(net, planes, np.concatenate(cand), rows, np.arange(len(rows)))
    return np.split(values, np.cumsum(sizes)[:-1])


@dataclass
class PlayLog:
    """What a batch of hands produced."""

    chips: np.ndarray  # (H, 2) chips won (+) / lost (-) per seat
    # (H, 2) with ``allin_ev``: ``chips`` with each showdown decided before the river replaced by its
    # expectation over the cards to come (both holdings known); None otherwise
    ev_chips: np.ndarray | None = None
    recorder: HandRecorder | None = None
    # per player name: counts of fold/check/call/bet/raise and the chips-added / pot-before of bets
    kinds: dict[str, np.ndarray] = field(default_factory=dict)
    bet_sizes: dict[str, list[float]] = field(default_factory=dict)


def draw_deals(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``n`` random heads-up deals: (decks (n, 9), buttons (n,))."""
    keys = rng.random((n, 52))
    decks = np.argsort(keys, axis=1)[:, :DECK_CARDS]
    return decks.astype(np.int8), rng.integers(0, 2, size=n).astype(np.int8)


@dataclass(frozen=True)
class PlayConfig:
    """How ``play_hands`` plays its hands and what it keeps of them."""

    tables: int = 64  # hands played side by side (the runner's tables)
    record: tuple[int, int] | None = None  # the two players' ids stored with each hand (fills PlayLog.recorder)
    stats: bool = False  # count action kinds and bet sizes per player name (the document's Figures 2 and 3)
    # Stored targets (with ``record``): a showdown whose last decision came before the river stores its all-in
    # equity over this many runouts (``equity.runout_equity``) instead of the realized result
    equity_samples: int | None = None
    # With ``equity_samples``: a showdown against a card-blind opponent (heuristic, random) stores the result
    # averaged over that opponent's possible holdings too (``equity.blind_equity``)
    blind_opponents: bool = False
    allin_ev: int | None = None  # also fill PlayLog.ev_chips, this many random boards for a pre-flop all-in

    def __post_init__(self) -> None:
        if isinstance(self.tables, bool) or not isinstance(self.tables, int) or self.tables < 1:
            raise ValueError(f"tables must be an integer >= 1, got {self.tables!r}")
        if self.record is not None and (len(self.record) != 2 or not all(isinstance(i, int | np.integer) for i in self.record)):
            raise ValueError(f"record must be None or the two players' integer ids, got {self.record!r}")
        for name in ("equity_samples", "allin_ev"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValueError(f"{name} must be None or an integer >= 1, got {value!r}")
        if self.equity_samples is not None and self.record is None:
            raise ValueError("equity_samples sets the stored targets: it needs record=(id, id)")
        if self.blind_opponents and self.equity_samples is None:
            raise ValueError("blind_opponents averages the stored equity over holdings: it needs equity_samples")


class ExploringAgent(Agent):
    """``inner`` handing a share ``explore`` of its decisions to ``other`` (self-play exploration): each
    decision draws one uniform from the seat's Generator, then the agent it picks acts with that Generator."""

    def __init__(self, inner: Agent, other: Agent, explore: float) -> None:
        if not 0.0 <= explore <= 1.0:
            raise ValueError(f"explore must be a share in [0, 1], got {explore!r}")
        self.inner, self.other, self.explore = inner, other, float(explore)
        self.name = inner.name

    def act(self, observation: Observation, rng: np.random.Generator) -> int:
        return (self.other if rng.random() < self.explore else self.inner).act(observation, rng)

    def act_batch(self, observations: Observation, rng: Rngs) -> np.ndarray:
        if isinstance(rng, np.random.Generator):  # one Generator: the rows draw in order, as act's loop does
            return super().act_batch(observations, rng)
        rngs = row_rngs(rng, batch_size(observations))
        handed = np.array([g.random() < self.explore for g in rngs], dtype=bool)
        actions = np.zeros(len(rngs), dtype=np.int64)
        for agent, rows in ((self.other, np.flatnonzero(handed)), (self.inner, np.flatnonzero(~handed))):
            if rows.size:
                part = {k: np.asarray(v)[rows] for k, v in observations.items()}
                actions[rows] = agent.act_batch(part, [rngs[i] for i in rows.tolist()])
        return actions


def table_env(game: HoldemGame) -> Any:
    """A raw ``nolimit_holdem_v0`` table of ``game``'s configuration giving Poker-CNN observations and chip
    rewards; a game no such table plays (other betting, sizing or deck) is refused."""
    cfg = game.config
    env = nolimit_holdem_v0.raw_env(num_players=cfg.num_players, small_blind=cfg.small_blind, big_blind=cfg.big_blind,
                                    ante=cfg.ante, starting_stack=list(cfg.starting_stacks), bet_sizing="chips",
                                    reward_unit="chips", obs_encoder="poker_cnn",
                                    allow_fold_when_check=cfg.allow_fold_when_check)
    if env.config != cfg:
        raise ValueError(f"game must be heads-up no-limit hold'em with bet_sizing='chips' (make_game), got {cfg}")
    return env


def seat_agent(player: Player, env: Any) -> Agent:
    """The zoo agent that plays ``player`` at ``env`` (a ``table_env``): the random readings, the heuristic,
    or the CNN player (greedy over its candidates, ``explore`` of its decisions handed to the heuristic)."""
    if player.kind == "random":
        return RandomAgent() if player.random_reading == "ids" else KindRandomAgent()
    heuristic = HeuristicAgent(chips_sizing=True, sizing=player.sizing)
    if player.kind == "heuristic":
        return heuristic
    cnn = CNNAgent(player.net, env, player.candidates, player.name, player.exact_fold, fractions=player.fractions)
    return ExploringAgent(cnn, heuristic, player.explore) if player.explore > 0 else cnn


class HandLog(Watcher):
    """What ``play_hands`` keeps of each hand as the runner plays it: the actions in chips, the board at the
    last decision, the results (chips, all-in EV, stored targets) and the per-player statistics."""

    def __init__(self, players: tuple[Player, Player], decks: np.ndarray, config: PlayConfig,
                 progress: Callable[[int], None] | None) -> None:
        n = len(decks)
        self.players, self.decks, self.config, self.progress = players, decks, config, progress
        self.log = PlayLog(np.zeros((n, 2), dtype=np.int64), ev_chips=np.zeros((n, 2)) if config.allin_ev else None)
        if config.stats:
            for p in players:
                self.log.kinds.setdefault(p.name, np.zeros(5, dtype=np.int64))
                self.log.bet_sizes.setdefault(p.name, [])
        self.acts: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]  # (seat, kind, raise-to) per hand
        self.board_at_last = np.zeros(n, dtype=np.int64)  # board cards seen at each hand's last decision
        self.won: list[list[float]] = [[] for _ in range(n)]  # the stored targets' chips per seat

    def turn(self, turn: Turn) -> None:
        s, seat = turn.state, turn.seat
        if s.current_player() < 0:  # a pass turn (the forced bets decided the hand): no decision
            return
        kind, to = s.action_to_chips(turn.action)
        if self.config.stats:
            name = self.players[seat].name
            self.log.kinds[name][kind] += 1
            if kind >= 3:
                self.log.bet_sizes[name].append((to - s.bets[seat]) / s.pot())
        self.acts[turn.hand].append((seat, kind, to))
        self.board_at_last[turn.hand] = len(s.board)

    def episode_end(self, hand: int, state: Any, outcome: HandOutcome) -> None:
        s, cfg, h = state, self.config, hand
        deck = [int(c) for c in self.decks[h]]
        chips = s.chip_returns()
        self.log.chips[h] = chips
        early = s.strengths is not None and self.board_at_last[h] < 5  # a showdown decided before the river
        known = s.board[: self.board_at_last[h]]
        if self.log.ev_chips is not None:
            self.log.ev_chips[h] = chips
            if early:
                eq = runout_equity(s.hole[0], s.hole[1], known, np.random.default_rng([*deck, 1]), cfg.allin_ev)
                self.log.ev_chips[h] = allin_chips(eq, min(s.contributed))
        if cfg.record is not None:
            won = list(chips)
            if cfg.equity_samples and s.strengths is not None:
                eq_rng = np.random.default_rng(deck)  # seeded by the deal: the play's Generators untouched
                stake = min(s.contributed)
                if early:
                    won = list(allin_chips(runout_equity(s.hole[0], s.hole[1], known, eq_rng, cfg.equity_samples), stake))
                if cfg.blind_opponents:
                    for seat in (0, 1):
                        if self.players[1 - seat].kind != "cnn":  # the opponent ignores its cards
                            won[seat] = allin_chips(blind_equity(s.hole[seat], known, eq_rng, cfg.equity_samples), stake)[0]
            self.won[h] = won
        if self.progress is not None:
            self.progress(1)


def play_hands(game: HoldemGame, players: tuple[Player, Player], decks: np.ndarray, buttons: np.ndarray,
               rng: np.random.Generator, config: PlayConfig = PlayConfig(),
               progress: Callable[[int], None] | None = None) -> PlayLog:
    """Play hand h with ``players[0]`` at seat 0 on deck ``decks[h]`` and button ``buttons[h]`` through the
    table runner (``config.tables`` hands side by side); ``progress(1)`` is called as each hand ends.

    The seats' Generators come from one draw of ``rng``: hand h's seat s plays with child (h, s) of a
    ``SeedSequence`` seeded by it, so a hand's play depends on that draw and the deal only. Stored hands
    (``config.record``) are in hand order. ``PlayLog.chips`` is always the realized result.
    """
    if len(decks) != len(buttons):
        raise ValueError(f"decks and buttons must have one entry per hand, got {len(decks)} and {len(buttons)}")
    env = table_env(game)
    agents = [seat_agent(p, env) for p in players]
    root = np.random.SeedSequence(int(rng.integers(2**63)))
    hands = [HandSpec((0, 1), child_seed(root, h), {"deck": [int(c) for c in decks[h]], "button": int(buttons[h])})
             for h in range(len(decks))]
    watch = HandLog(players, decks, config, progress)
    play_aec(lambda: table_env(game), agents, hands, tables=config.tables, watch=watch)
    log = watch.log
    if config.record is not None:
        log.recorder = HandRecorder()
        buy_in = game.config.starting_stacks[0]
        for h in range(len(decks)):
            log.recorder.add_hand(decks[h], int(buttons[h]), config.record, watch.acts[h], watch.won[h], buy_in)
    return log


def duplicate_match(game: Any, a: Player, b: Player, decks: np.ndarray, buttons: np.ndarray,
                    rng: np.random.Generator, stats: bool = True, progress: Any = None,
                    allin_ev: int | None = None) -> tuple[np.ndarray, list]:
    """Per-deal mean chips of ``a`` over the two seatings (all-in adjusted with ``allin_ev``, see
    ``play_hands``), and the two play logs."""
    config = PlayConfig(tables=128, stats=stats, allin_ev=allin_ev)
    first = play_hands(game, (a, b), decks, buttons, rng, config, progress)
    second = play_hands(game, (b, a), decks, buttons, rng, config, progress)
    x, y = (first.chips, second.chips) if allin_ev is None else (first.ev_chips, second.ev_chips)
    return (x[:, 0] + y[:, 1]) / 2.0, [first, second]
