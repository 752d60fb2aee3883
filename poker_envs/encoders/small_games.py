"""Observation encoders of the small games: Kuhn, Leduc, push/fold and the threshold game.

Each game's ``"default"`` is a perfect-recall information-state vector: everything the player has
seen (own cards, public cards, every action it could observe) and nothing else, so two states of
one information set always encode the same and a policy can be a function of the observation.
The ``*_vector(state, player)`` functions are usable by solvers on any state of the rules modules.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from poker_envs.encoders.base import Encoder
from poker_envs.games.base import Game, GameState
from poker_envs.games.kuhn import KuhnGame, KuhnState
from poker_envs.games.leduc import MAX_ACTIONS_PER_ROUND, LeducGame, LeducState, card_rank
from poker_envs.games.leduc import NUM_CARDS as LEDUC_CARDS
from poker_envs.games.push_fold import MAX_PLAYERS as PF_MAX_PLAYERS
from poker_envs.games.push_fold import PushFoldGame, PushFoldState, hand_class
from poker_envs.games.threshold import MAX_PLAYERS as TH_MAX_PLAYERS
from poker_envs.games.threshold import MIN_PLAYERS as TH_MIN_PLAYERS
from poker_envs.games.threshold import NUM_CARDS as TH_CARDS
from poker_envs.games.threshold import ThresholdGame, ThresholdState


class _GameEncoder(Encoder):
    """An encoder for the games whose rules are a ``game_class`` (an isinstance check, not the name)."""

    game_class: type[Game] = Game

    def unsupported_reason(self, game: Game) -> str | None:
        if not isinstance(game, self.game_class):
            return f"it encodes {self.game_class.__name__} states only"
        return None


# Kuhn ------------------------------------------------------------------------------------------
KUHN_SIZE = 2 + 3 + 3 * 2  # seat, own card, three action slots x (pass, bet)


def kuhn_infostate_vector(state: KuhnState, player: int) -> np.ndarray:
    """Seat one-hot (2), own card one-hot (3: J, Q, K), then per action slot one-hot (pass, bet)."""
    v = np.zeros(KUHN_SIZE, dtype=np.float32)
    v[player] = 1.0
    if player < len(state.cards):
        v[2 + state.cards[player]] = 1.0
    for i, a in enumerate(state.history):
        v[5 + 2 * i + a] = 1.0
    return v


class KuhnInfoStateEncoder(_GameEncoder):
    name = "infostate"
    game_class = KuhnGame

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.observation_space = spaces.Box(0.0, 1.0, shape=(KUHN_SIZE,), dtype=np.float32)

    def encode(self, state: GameState, player: int) -> np.ndarray:
        return kuhn_infostate_vector(state, player)


# Leduc -----------------------------------------------------------------------------------------
_LEDUC_SLOTS = 2 * MAX_ACTIONS_PER_ROUND * 3  # two rounds x four slots x (fold, call, raise)
LEDUC_SIZE = 2 + LEDUC_CARDS + LEDUC_CARDS + _LEDUC_SLOTS  # 38


def leduc_infostate_vector(state: LeducState, player: int) -> np.ndarray:
    """Seat one-hot (2), own card one-hot (6 card ids: suits kept, as OpenSpiel's information sets),
    public card one-hot (6, zero before it is dealt), then for each round four action slots, each a
    one-hot over (fold, call, raise). Equal for exactly the states of one information set."""
    v = np.zeros(LEDUC_SIZE, dtype=np.float32)
    v[player] = 1.0
    if player < len(state.private):
        v[2 + state.private[player]] = 1.0
    if state.public >= 0:
        v[2 + LEDUC_CARDS + state.public] = 1.0
    for r, moves in enumerate(state.history):
        base = 2 + 2 * LEDUC_CARDS + 3 * MAX_ACTIONS_PER_ROUND * r
        for i, a in enumerate(moves):
            v[base + 3 * i + a] = 1.0
    return v


class LeducInfoStateEncoder(_GameEncoder):
    name = "infostate"
    game_class = LeducGame

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.observation_space = spaces.Box(0.0, 1.0, shape=(LEDUC_SIZE,), dtype=np.float32)

    def encode(self, state: GameState, player: int) -> np.ndarray:
        return leduc_infostate_vector(state, player)


class LeducRankChipsEncoder(_GameEncoder):
    """Suit-blind summary as in RLCard / PettingZoo ``leduc_holdem_v4`` (not perfect recall): own rank (3),
    public rank (3), own chips in the pot one-hot (0..14), opponent's chips one-hot (0..14)."""

    name = "rank_chips"
    game_class = LeducGame

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.observation_space = spaces.Box(0.0, 1.0, shape=(36,), dtype=np.float32)

    def encode(self, state: GameState, player: int) -> np.ndarray:
        v = np.zeros(36, dtype=np.float32)
        if player < len(state.private):
            v[card_rank(state.private[player])] = 1.0
        if state.public >= 0:
            v[3 + card_rank(state.public)] = 1.0
        v[6 + state.contributions[player]] = 1.0
        v[21 + state.contributions[1 - player]] = 1.0
        return v


# Push/fold -------------------------------------------------------------------------------------
# hole cards (52) | hand class (169) | position by seat (6) | players 2..6 (5) | own stack | stacks by seat (6)
# | ante | pot | per seat (not acted yet, folded, all-in) (18)
# The offsets of these fields are public: the batched encoders (poker_envs.vector.push_fold, vector.jax.push_fold)
# write the same layout and the push/fold agent (agent_zoo.push_fold.agent) reads it back.
PF_CARDS, PF_CLASS, PF_POS, PF_NUM = 0, 52, 52 + 169, 52 + 169 + 6
PF_OWN = PF_NUM + 5
PF_STACKS = PF_OWN + 1
PF_ANTE = PF_STACKS + PF_MAX_PLAYERS
PF_POT = PF_ANTE + 1
PF_ACTS = PF_POT + 1
PUSH_FOLD_SIZE = PF_ACTS + 3 * PF_MAX_PLAYERS  # 259


def push_fold_vector(state: PushFoldState, player: int) -> np.ndarray:
    """Own hole cards (two-hot over 52 card ids), their class among the 169 (one-hot, see
    ``push_fold.hand_class``), position (one-hot over 6 seats counted back from the big blind: index 5 =
    BB, 4 = SB, ...), number of players (one-hot 2..6), own starting stack, every seat's starting stack
    (by position, 0 where no seat), the ante, the pot so far (all in big blinds) and, per position, whether
    that seat has not acted yet, folded or went all-in."""
    v = np.zeros(PUSH_FOLD_SIZE, dtype=np.float32)
    n = state.num_players
    offset = PF_MAX_PLAYERS - n  # seat s sits at position slot s + offset (BB always in the last slot)
    hole = state.hole[player]
    if len(hole) == 2:
        v[hole[0]] = v[hole[1]] = 1.0
        v[PF_CLASS + hand_class(hole[0], hole[1])] = 1.0
    v[PF_POS + player + offset] = 1.0
    v[PF_NUM + n - 2] = 1.0
    stacks = state.config.stacks
    v[PF_OWN] = stacks[player]
    v[PF_STACKS + offset : PF_STACKS + PF_MAX_PLAYERS] = stacks
    v[PF_ANTE] = state.config.ante_bb
    v[PF_POT] = sum(state.contributions)
    acted = len(state.actions)
    for seat in range(n):
        kind = 0 if seat >= acted else 1 + state.actions[seat]
        v[PF_ACTS + 3 * (seat + offset) + kind] = 1.0
    return v


class PushFoldEncoder(_GameEncoder):
    name = "push_fold"
    game_class = PushFoldGame

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        config = game.config  # type: ignore[attr-defined]
        high = np.ones(PUSH_FOLD_SIZE, dtype=np.float32)  # one-hots and flags
        high[PF_OWN : PF_ANTE] = max(config.stacks)  # starting stacks (big blinds)
        high[PF_ANTE] = max(config.ante_bb, 1.0)  # not 0 without antes: normalising would divide by zero
        high[PF_POT] = sum(config.stacks)  # everything at the table
        self.observation_space = spaces.Box(np.zeros(PUSH_FOLD_SIZE, dtype=np.float32), high, dtype=np.float32)

    def encode(self, state: GameState, player: int) -> np.ndarray:
        return push_fold_vector(state, player)


# Threshold -------------------------------------------------------------------------------------
THRESHOLD_SIZE = 1 + TH_CARDS + (TH_MAX_PLAYERS - TH_MIN_PLAYERS + 1) + 1  # 112


def threshold_vector(state: ThresholdState, player: int) -> np.ndarray:
    """Own card / 100, own card one-hot (101), number of players one-hot (2..10), alpha. Nothing about
    other players' declarations: the moves are simultaneous."""
    v = np.zeros(THRESHOLD_SIZE, dtype=np.float32)
    if player < len(state.cards):
        card = state.cards[player]
        v[0] = card / (TH_CARDS - 1)
        v[1 + card] = 1.0
    v[1 + TH_CARDS + state.num_players - TH_MIN_PLAYERS] = 1.0
    v[-1] = state.config.alpha
    return v


class ThresholdEncoder(_GameEncoder):
    name = "threshold"
    game_class = ThresholdGame

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        high = np.ones(THRESHOLD_SIZE, dtype=np.float32)  # card / 100 and one-hots
        high[-1] = game.config.alpha  # type: ignore[attr-defined]
        self.observation_space = spaces.Box(np.zeros(THRESHOLD_SIZE, dtype=np.float32), high, dtype=np.float32)

    def encode(self, state: GameState, player: int) -> np.ndarray:
        return threshold_vector(state, player)


KUHN_ENCODERS: dict[str, type[Encoder]] = {"default": KuhnInfoStateEncoder, "infostate": KuhnInfoStateEncoder}
LEDUC_ENCODERS: dict[str, type[Encoder]] = {
    "default": LeducInfoStateEncoder,
    "infostate": LeducInfoStateEncoder,
    "rank_chips": LeducRankChipsEncoder,
}
PUSH_FOLD_ENCODERS: dict[str, type[Encoder]] = {"default": PushFoldEncoder, "push_fold": PushFoldEncoder}
THRESHOLD_ENCODERS: dict[str, type[Encoder]] = {"default": ThresholdEncoder, "threshold": ThresholdEncoder}
