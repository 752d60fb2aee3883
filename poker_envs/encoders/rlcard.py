"""RLCard's observation vectors (as PettingZoo's RLCard-based classic poker envs give them), read off this
project's rules states. ``poker_envs.classic`` observes through them; any env can (``obs_encoder=`` the class).

==============================  ====  =================================================================
encoder                         size  layout
==============================  ====  =================================================================
``RLCardNolimitEncoder``        54    0..51 own hole cards and board (``rlcard_card_index``); 52 chips the
                                      player has put in this hand; 53 the most any player has put in
``RLCardLimitEncoder``          72    0..51 cards as above; then per betting round (4) a one-hot of 5
                                      slots: the bets and raises made in that round (0..4; blinds are
                                      not bets; rounds not reached count 0)
``RLCardLeducEncoder``          36    0..2 own card's rank (J, Q, K); 3..5 public card's rank; 6..20
                                      one-hot of the chips the player has put in (0..14); 21..35 the
                                      opponent's chips, likewise
==============================  ====  =================================================================

Card order (RLCard's ``card2index``): suits spades, hearts, diamonds, clubs, 13 cards each; within a suit
ace, 2, 3, ..., king. Every vector is float32, as PettingZoo casts RLCard's float64.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from poker_envs.core.cards import NUM_CARDS, card_rank, card_suit, deck_cards
from poker_envs.encoders.base import Encoder
from poker_envs.games.base import Game
from poker_envs.games.holdem import BET, RAISE, HoldemGame
from poker_envs.games.leduc import LeducGame, LeducState
from poker_envs.games.leduc import card_rank as leduc_rank

RLCARD_SUITS = "shdc"  # RLCard's suit order (this project's suit ids are c, d, h, s = 0..3)
ROUNDS = 4  # betting rounds of hold'em
RAISE_SLOTS = 5  # the limit vector's one-hot per round: 0..4 bets and raises
LEDUC_CHIP_SLOTS = 15  # the Leduc vector's one-hot of chips: 0..14


def rlcard_card_index(card: int) -> int:
    """RLCard's index (0..51) of this project's card id: ``13 * suit + rank`` with suits spades, hearts,
    diamonds, clubs and ranks ace (0), 2 (1) .. king (12)."""
    return (3 - card_suit(card)) * 13 + (card_rank(card) + 1) % 13


_INDEX = np.array([rlcard_card_index(c) for c in range(NUM_CARDS)], dtype=np.int64)


def _holdem_reason(game: Game, what: str) -> str | None:
    """None if ``game`` is Texas hold'em as RLCard deals it: 52 cards, two hole cards, a 3-1-1 board."""
    if not isinstance(game, HoldemGame):
        return f"{what} is read off hold'em states; game {game.name!r} is not hold'em"
    cfg = game.config
    if cfg.hole_cards != 2 or cfg.board_cards != (3, 1, 1) or len(deck_cards(cfg.deck)) != NUM_CARDS:
        return f"{what} holds the 52 cards of Texas hold'em (two hole cards, a 3-1-1 board); game {game.name!r} differs"
    return None


def _card_bits(state: Any, player: int, size: int) -> np.ndarray:
    if not 0 <= player < state.num_players:
        raise ValueError(f"player {player} is not a seat of this game (0..{state.num_players - 1})")
    out = np.zeros(size, dtype=np.float32)
    out[_INDEX[[*state.hole[player], *state.board]]] = 1.0
    return out


class RLCardNolimitEncoder(Encoder):
    """RLCard's no-limit vector: 52 card bits, own chips in, the largest chips in (bounded by the largest stack)."""

    name = "rlcard_nolimit"

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        high = np.ones(NUM_CARDS + 2, dtype=np.float32)
        high[NUM_CARDS:] = max(game.config.starting_stacks)  # nobody puts in more than his stack
        self.observation_space = spaces.Box(np.zeros(NUM_CARDS + 2, dtype=np.float32), high, dtype=np.float32)

    def unsupported_reason(self, game: Game) -> str | None:
        reason = _holdem_reason(game, "RLCard's no-limit vector")
        if reason is None and game.config.ante:
            return "RLCard's no-limit vector bounds the chips put in by the stack; antes are outside RLCard's game"
        return reason

    def encode(self, state: Any, player: int) -> np.ndarray:
        out = _card_bits(state, player, NUM_CARDS + 2)
        out[NUM_CARDS] = state.contributed[player]
        out[NUM_CARDS + 1] = max(state.contributed)
        return out


class RLCardLimitEncoder(Encoder):
    """RLCard's limit vector: 52 card bits and the bets and raises of each round, one-hot (0..4)."""

    name = "rlcard_limit"

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.observation_space = spaces.Box(0.0, 1.0, shape=(NUM_CARDS + ROUNDS * RAISE_SLOTS,), dtype=np.float32)

    def unsupported_reason(self, game: Game) -> str | None:
        reason = _holdem_reason(game, "RLCard's limit vector")
        if reason is not None:
            return reason
        cfg = game.config
        if cfg.betting != "limit":
            return f"RLCard's limit vector counts fixed-limit raises; this game's betting is {cfg.betting!r}"
        if cfg.max_raises_per_round >= RAISE_SLOTS or not cfg.headsup_cap:
            return (f"RLCard's limit vector counts 0..{RAISE_SLOTS - 1} bets a round; max_raises_per_round must be at most "
                    f"{RAISE_SLOTS - 1} with headsup_cap=True (got {cfg.max_raises_per_round}, {cfg.headsup_cap})")
        most = cfg.ante + cfg.max_raises_per_round * cfg.big_blind * 6  # two streets of small bets, two of big bets
        if min(cfg.starting_stacks) < most:
            return (f"RLCard's limit game has no stacks, so nobody is ever all-in: every starting stack must cover the "
                    f"{most} chips a player can bet in a hand (got {min(cfg.starting_stacks)})")
        return None

    def encode(self, state: Any, player: int) -> np.ndarray:
        out = _card_bits(state, player, NUM_CARDS + ROUNDS * RAISE_SLOTS)
        for street in range(ROUNDS):
            records = state.history[street] if street < len(state.history) else ()
            raises = sum(1 for r in records if r.kind == BET or r.kind == RAISE)
            out[NUM_CARDS + street * RAISE_SLOTS + raises] = 1.0
        return out


class RLCardLeducEncoder(Encoder):
    """RLCard's Leduc vector: own and public card ranks, own and opponent chips in, each one-hot."""

    name = "rlcard_leduc"

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.observation_space = spaces.Box(0.0, 1.0, shape=(6 + 2 * LEDUC_CHIP_SLOTS,), dtype=np.float32)

    def unsupported_reason(self, game: Game) -> str | None:
        if not isinstance(game, LeducGame):
            return "it encodes Leduc hold'em states only"
        return None

    def encode(self, state: LeducState, player: int) -> np.ndarray:
        if player not in (0, 1):
            raise ValueError(f"player {player} is not a seat of Leduc hold'em (0 or 1)")
        out = np.zeros(6 + 2 * LEDUC_CHIP_SLOTS, dtype=np.float32)
        if player < len(state.private):
            out[leduc_rank(state.private[player])] = 1.0
        if state.public >= 0:
            out[3 + leduc_rank(state.public)] = 1.0
        out[6 + state.contributions[player]] = 1.0
        out[6 + LEDUC_CHIP_SLOTS + state.contributions[1 - player]] = 1.0
        return out
