"""Heads-up hands between random, heuristic and CNN players, many side by side (lockstep).

Every round, each unfinished hand advances by one decision; the candidate tensors of all hands where
a CNN player acts go through its network in one forward pass. Deals are fixed in advance (a
9-card deck and a button per hand), so a deal can be replayed with the seats swapped (duplicate
evaluation) and a stored hand can be replayed exactly (``storage``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agent_zoo.cnn.equity import allin_chips, blind_equity, runout_equity
from agent_zoo.cnn.heuristic import RANDOM_READINGS, check_sizing, heuristic_action, pot_raise_to, random_kinds_action
from agent_zoo.cnn.network import PokerCNN, score_candidates
from agent_zoo.observe import public_of_state
from agent_zoo.cnn.storage import DECK_CARDS, HandRecorder, deal_cards
from poker_envs.encoders.poker_cnn import NUM_CELLS, PokerCNNEncoder, candidate_planes
from poker_envs.encoders.public import PublicState
from poker_envs.games.base import TERMINAL
from poker_envs.games.holdem import BET, CALL, CHECK, FOLD, RAISE, HoldemConfig, HoldemGame

A_FOLD, A_CALL = 0, 1


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
        if self.candidates not in ("full", "subset"):
            raise ValueError(f"candidates must be 'full' or 'subset', got {self.candidates!r}")


def candidate_actions(legal: Sequence[int], public: PublicState, candidates: str = "full",
                      fractions: Sequence[float] = (0.5, 1.0, 2.0)) -> list[int]:
    """Legal action ids a CNN player scores: all of ``legal`` ("full") or fold, check/call, the minimum
    raise, raises of ``fractions`` of the pot (after calling) and all-in ("subset"); ``public`` is the
    public betting state of the seat to act."""
    legal = [int(a) for a in legal]
    if candidates == "full":
        return legal
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


def fold_value(public: PublicState, actions: Sequence[int], values: np.ndarray) -> None:
    """Set a legal fold's score (the first entry of ``values``' last axis) to its exact value: the chips
    already put in are lost, divided by the stack the seat started the hand with (the buy-in of a one-hand
    episode)."""
    if len(actions) and actions[0] == A_FOLD:
        seat = public.observer
        values[..., 0] = -public.contributed[seat] / (public.stacks[seat] + public.contributed[seat])


def random_action(state: Any, rng: np.random.Generator) -> int:
    """Uniform over the legal ids (every chip amount is one action, as the document's random player)."""
    legal = state.legal_actions()
    return legal[int(rng.integers(len(legal)))]


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


def play_hands(
    game: HoldemGame,
    players: tuple[Player, Player],
    decks: np.ndarray,
    buttons: np.ndarray,
    rng: np.random.Generator,
    parallel: int = 64,
    record: tuple[int, int] | None = None,
    stats: bool = False,
    progress: Callable[[int], None] | None = None,
    equity_samples: int | None = None,
    blind_opponents: bool = False,
    allin_ev: int | None = None,
) -> PlayLog:
    """Play hand h with ``players[0]`` at seat 0 on deck ``decks[h]`` and button ``buttons[h]``.

    ``record``: the two players' ids to store with each hand (then ``PlayLog.recorder`` is filled).
    ``stats``: count action kinds and bet sizes per player name (the document's Figures 2 and 3).
    ``equity_samples``: record the all-in equity result of showdowns whose last decision came
    before the river (``equity.runout_equity``) instead of the realized one; ``PlayLog.chips`` stays
    realized. ``blind_opponents`` (with ``equity_samples``): a showdown against a card-blind opponent
    (heuristic, random) stores the result averaged over that opponent's possible holdings too
    (``equity.blind_equity``). ``allin_ev``: also fill ``PlayLog.ev_chips`` (all-in adjusted results,
    this many random boards for a pre-flop all-in); the play itself is unchanged.
    """
    encoder = PokerCNNEncoder(game, dtype=np.uint8)
    n = len(decks)
    log = PlayLog(np.zeros((n, 2), dtype=np.int64), recorder=HandRecorder() if record is not None else None,
                  ev_chips=np.zeros((n, 2), dtype=np.float64) if allin_ev else None)
    if stats:
        for p in players:
            log.kinds.setdefault(p.name, np.zeros(5, dtype=np.int64))
            log.bet_sizes.setdefault(p.name, [])
    buy_in = game.config.starting_stacks[0]
    for lo in range(0, n, parallel):
        hands = list(range(lo, min(n, lo + parallel)))
        states = {}
        acts: dict[int, list[tuple[int, int, int]]] = {}
        board_at_last: dict[int, int] = {}
        for h in hands:
            s = game.new_initial_state(button=int(buttons[h]), deck=[int(c) for c in decks[h]])
            deal_cards(s)
            states[h], acts[h] = s, []
        while states:
            pending: dict[int, list[tuple[int, list[int], np.ndarray, np.ndarray, np.ndarray, PublicState]]] = {}
            chosen: dict[int, int] = {}
            for h, s in states.items():
                seat = s.current_player()
                p = players[seat]
                if p.kind == "random" and p.random_reading == "kinds":
                    chosen[h] = random_kinds_action(np.asarray(s.legal_actions()), rng)
                elif p.kind == "random":
                    chosen[h] = random_action(s, rng)
                elif p.kind == "heuristic" or (p.explore > 0 and rng.random() < p.explore):
                    chosen[h] = heuristic_action(public_of_state(s, seat), rng, p.sizing, A_FOLD in s.legal_actions())
                else:
                    public = public_of_state(s, seat)
                    actions = candidate_actions(s.legal_actions(), public, p.candidates, p.fractions)
                    kinds, added, first = distinct_candidates(public, actions)
                    pending.setdefault(seat, []).append((h, actions, kinds, added, first, public))
            for seat, items in pending.items():
                scored = score_states(players[seat].net, encoder, [states[h] for h, *_ in items],
                                      [(kinds, added) for _, _, kinds, added, _, _ in items])
                for (h, actions, kinds, _, first, public), values in zip(items, scored):
                    v = expand_scores(actions, values, first)
                    if players[seat].exact_fold:
                        fold_value(public, actions, v)
                    chosen[h] = actions[int(np.argmax(v))]
            for h, action in chosen.items():
                s = states[h]
                seat = s.current_player()
                kind, to = s.action_to_chips(action)
                if stats:
                    name = players[seat].name
                    log.kinds[name][kind] += 1
                    if kind >= 3:
                        log.bet_sizes[name].append((to - s.bets[seat]) / s.pot())
                acts[h].append((seat, kind, to))
                board_at_last[h] = len(s.board)
                s.apply(action)
                deal_cards(s)
                if s.current_player() == TERMINAL:
                    chips = s.chip_returns()
                    log.chips[h] = chips
                    if log.ev_chips is not None:
                        log.ev_chips[h] = chips
                        if s.strengths is not None and board_at_last[h] < 5:
                            ev_rng = np.random.default_rng([*(int(c) for c in decks[h]), 1])  # play's rng untouched
                            eq = runout_equity(s.hole[0], s.hole[1], s.board[: board_at_last[h]], ev_rng, allin_ev)
                            log.ev_chips[h] = allin_chips(eq, min(s.contributed))
                    if log.recorder is not None:
                        won = list(chips)
                        if equity_samples and s.strengths is not None:
                            eq_rng = np.random.default_rng([int(c) for c in decks[h]])  # play's rng untouched
                            stake = min(s.contributed)
                            known = s.board[: board_at_last[h]]
                            if board_at_last[h] < 5:
                                eq = runout_equity(s.hole[0], s.hole[1], known, eq_rng, equity_samples)
                                won = list(allin_chips(eq, stake))
                            if blind_opponents:
                                for seat_ in (0, 1):
                                    if players[1 - seat_].kind != "cnn":  # the opponent ignores its cards
                                        eq = blind_equity(s.hole[seat_], known, eq_rng, equity_samples)
                                        won[seat_] = allin_chips(eq, stake)[0]
                        log.recorder.add_hand(decks[h], int(buttons[h]), record, acts[h], won, buy_in)
                    del states[h]
                    if progress is not None:
                        progress(1)
    return log


def duplicate_match(game: Any, a: Player, b: Player, decks: np.ndarray, buttons: np.ndarray,
                    rng: np.random.Generator, stats: bool = True, progress: Any = None,
                    allin_ev: int | None = None) -> tuple[np.ndarray, list]:
    """Per-deal mean chips of ``a`` over the two seatings (all-in adjusted with ``allin_ev``, see
    ``play_hands``), and the two play logs."""
    first = play_hands(game, (a, b), decks, buttons, rng, parallel=128, stats=stats, progress=progress,
                       allin_ev=allin_ev)
    second = play_hands(game, (b, a), decks, buttons, rng, parallel=128, stats=stats, progress=progress,
                        allin_ev=allin_ev)
    x, y = (first.chips, second.chips) if allin_ev is None else (first.ev_chips, second.ev_chips)
    return (x[:, 0] + y[:, 1]) / 2.0, [first, second]
