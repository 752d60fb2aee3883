"""Betting and settlement rules as Robert's Rules of Poker and the TDA rules state them, one hand worked by
hand per rule (the rule is in the test's name; docs/holdem.md lists them). pokerkit does not have these
rules, so the differential test cannot check them."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

from poker_envs import limit_holdem_v0, nolimit_holdem_v0
from poker_envs.aec import PASS
from poker_envs.core.cards import cards_from_str
from poker_envs.games.base import CHANCE, TERMINAL
from poker_envs.games.holdem import BET, CALL, CHECK, FOLD, RAISE, HoldemConfig, HoldemGame, HoldemState

ROYAL = "AsKsQsJsTs"  # on the board every hand ties
HOLES = ["2c3d", "4c5d", "6c7d", "8c9d"]


def start(n: int, button: int, stacks, hole: list[str] | None = None, board: str = ROYAL, **kw) -> HoldemState:
    game = HoldemGame(HoldemConfig(num_players=n, starting_stacks=stacks, **kw))
    hole = hole or HOLES[:n]
    state = game.new_initial_state(button=button, hole=[cards_from_str(h) for h in hole], board=cards_from_str(board))
    deal(state)
    return state


def deal(state: HoldemState) -> None:
    while state.current_player() == CHANCE:
        state.apply(state.chance_outcomes()[0][0])


def play(state: HoldemState, *moves: tuple[int, int] | int) -> None:
    """Raw moves (FOLD/CHECK/CALL or (BET|RAISE, to)), asserting whose turn it is: ``(seat, move)``."""
    for seat, move in moves:
        assert state.current_player() == seat, (state.current_player(), seat, state)
        kind, to = move if isinstance(move, tuple) else (move, 0)
        state.apply_raw(kind, to)
        deal(state)


# Limit: all-ins of less than a full bet -------------------------------------------------------------------
def limit_flop(seat2_stack: int, **kw) -> HoldemState:
    """Limit 5/10, three players, button seat 0; everyone calls 10 pre-flop; the flop bet is 10."""
    s = start(3, 0, (200, 200, seat2_stack), small_blind=5, big_blind=10, betting="limit", **kw)
    play(s, (0, CALL), (1, CALL), (2, CHECK))
    assert s.street == 1 and s.current_player() == 1
    return s


def test_limit_all_in_of_half_a_bet_reopens_the_betting() -> None:
    # TDA (limit): at least half a bet reopens. Seat 1 bets 10; seat 2 (15 behind) is all-in for 15, 5 more
    # = half a bet: a raise. Seat 0 may raise to 15 + 10 = 25; seat 1, who already acted, owes 5 and may too.
    s = limit_flop(25)
    play(s, (1, (BET, 10)), (2, (RAISE, 15)))
    assert s.stacks[2] == 0 and s._num_raises == 2  # the all-in counts toward the cap
    assert s.legal_raise_range() == (25, 25)
    play(s, (0, CALL))
    assert s.current_player() == 1 and s.legal_raise_range() == (25, 25)  # reopened for the bettor


def test_limit_all_in_of_less_than_half_a_bet_may_be_completed() -> None:
    # TDA (limit): facing an all-in of less than half a bet, the next player may complete the bet. Seat 2 is
    # all-in for 14 (4 more than the bet of 10). Seat 0 may fold, call 14 or complete to 20 (one bet over
    # the last bet that counted, not 14 + 10). The short all-in does not count toward the cap; the
    # completion counts as the raise. Seat 1 already acted: 4 more does not reopen the betting for him.
    s = limit_flop(24)
    play(s, (1, (BET, 10)), (2, (RAISE, 14)))
    assert s.stacks[2] == 0 and s._num_raises == 1
    assert s.legal_raise_range() == (20, 20) and s.legal_actions() == [0, 1, 2]
    called = s.clone()
    play(called, (0, CALL))
    assert called.current_player() == 1 and called.legal_raise_range() is None  # not reopened: call or fold
    play(s, (0, (RAISE, 20)))
    assert s._num_raises == 2
    assert s.current_player() == 1 and s.legal_raise_range() == (30, 30)  # the completion reopens: 10 more


def test_limit_completion_counts_toward_the_cap_and_the_short_all_in_does_not() -> None:
    # Cap of a bet and one raise: after the bet and a short all-in the cap is not reached, seat 0 may complete;
    # after the completion it is, and seat 1 (facing a full raise) may only call or fold.
    s = limit_flop(24, max_raises_per_round=2)
    play(s, (1, (BET, 10)), (2, (RAISE, 14)))
    assert s.legal_raise_range() == (20, 20)
    play(s, (0, (RAISE, 20)))
    assert s.current_player() == 1 and s.legal_raise_range() is None


# A big blind all-in for less than the big blind ------------------------------------------------------------
@pytest.mark.parametrize("betting", ["nolimit", "limit"])
def test_short_all_in_big_blind_still_makes_the_full_big_blind_to_call(betting: str) -> None:
    # TDA / Robert's: the big blind (seat 2, 1 chip) is all-in for less than the big blind of 2; entering
    # players call the full 2 and the minimum raise is computed from the full big blind: to 4.
    s = start(3, 0, (100, 100, 1), hole=["AcAd", "KcKd", "2c7d"], board="AhKh9s5s3c", betting=betting)
    assert s.bets == [0, 1, 1] and s.current_player() == 0
    assert s.to_call(0) == 2 and s.legal_raise_range()[0] == 4
    play(s, (0, CALL), (1, CALL))  # the small blind completes to 2 as well
    assert s.contributed == [2, 2, 1]
    # Big blind's pot: 1 x 3 = 3 (seat 0's aces win it); side pot 1 x 2 = 2 between seats 0 and 1.
    while s.current_player() != TERMINAL:
        play(s, (s.current_player(), CHECK))
    assert s.awards == [(3, (0,)), (2, (0,))] and s.chip_returns() == [3, -2, -1]


# Odd chips ----------------------------------------------------------------------------------------------
def odd_chip_hand(odd_chips: str) -> HoldemState:
    """Ante 1, blinds 1/2, button seat 3; seat 0 (SB, 5 chips) is all-in; seat 3 folds after raising."""
    s = start(4, 3, (5, 100, 100, 100), ante=1, odd_chips=odd_chips)
    play(s, (2, CALL), (3, (RAISE, 4)), (0, CALL), (1, (RAISE, 8)), (2, CALL), (3, FOLD))
    play(s, *[(seat, CHECK) for _ in range(3) for seat in (1, 2)])
    assert s.current_player() == TERMINAL and s.contributed == [5, 9, 9, 5]
    return s


def test_odd_chips_each_pot_split_on_its_own_one_chip_each_left_of_button() -> None:
    # Everyone left ties (the board is a royal flush). Main pot 5 x 4 = 20 among seats 0, 1, 2: 6 each and
    # 2 odd chips, one each to the first winners left of the button (seats 0 and 1): 7, 7, 6. Side pot
    # 4 x 2 = 8 between seats 1 and 2: 4 each. Nobody gets two odd chips from one pot.
    s = odd_chip_hand("per_pot")
    assert s.awards == [(20, (0, 1, 2)), (8, (1, 2))]
    assert s.winnings == [7, 11, 10, 0] and s.chip_returns() == [2, 2, 1, -5]


def test_odd_chips_pooled_option_is_pokerkits_split() -> None:
    # odd_chips="pooled" (pokerkit): the whole remainder of a pot goes to the first winner left of the button.
    s = odd_chip_hand("pooled")
    assert s.winnings == [8, 10, 10, 0]


@pytest.mark.parametrize("odd_chips", ["per_pot", "pooled"])
@pytest.mark.parametrize("ante, folder, expected", [
    # Ante 1: 3 antes + 4 + 4 + the big blind's 2 = 13 between seats 0 and 2 (the button): 6 each, the odd chip to
    # seat 0, the first winner left of the button; the button, though it is a winner, does not get it.
    (1, 1, [7, 0, 6]),
    # No ante: 1 + 4 + 4 = 9 between seats 1 and 2 (the button): seat 0 folded, so the chip goes on round to seat 1.
    (0, 0, [0, 5, 4]),
])
def test_the_odd_chip_goes_left_of_the_button_when_the_button_wins_too(odd_chips: str, ante: int, folder: int,
                                                                        expected: list[int]) -> None:
    """Three seats, button seat 2 raises to 4 and stays to a showdown that ties (royal flush on the board): a rule
    that gave the odd chip to the button, or to seat 0 whatever the winners, fails one of these."""
    s = start(3, 2, (100, 100, 100), ante=ante, odd_chips=odd_chips)
    caller = 1 - folder  # the blind that calls (seat 0 small blind, seat 1 big blind)
    play(s, (2, (RAISE, 4)), *[(seat, FOLD if seat == folder else CALL) for seat in (0, 1)])
    play(s, *[(seat, CHECK) for _ in range(3) for seat in sorted((caller, 2), key=lambda k: (k - 2 - 1) % 3)])
    assert s.current_player() == TERMINAL
    assert s.winnings == expected and sum(s.winnings) == sum(s.contributed)


@pytest.mark.parametrize("odd_chips", ["per_pot", "pooled"])
def test_the_odd_chip_follows_the_button_not_the_seat_numbers(odd_chips: str) -> None:
    """Button seat 1 folds; ante 1: 3 antes + 2 + 2 = 7 between seats 2 (small blind) and 0 (big blind). The first
    winner left of the button is seat 2, so it gets the odd chip; a rule that counted from seat 0 would pay seat 0."""
    s = start(3, 1, (100, 100, 100), ante=1, odd_chips=odd_chips)
    play(s, (1, FOLD), (2, CALL), (0, CHECK))
    play(s, *[(seat, CHECK) for _ in range(3) for seat in (2, 0)])
    assert s.current_player() == TERMINAL and s.winnings == [3, 0, 4]


# Heads-up limit cap ------------------------------------------------------------------------------------------
def test_headsup_limit_keeps_the_cap_of_a_bet_and_three_raises() -> None:
    # ACPC heads-up limit (headsup_cap=True, the default): pre-flop the big blind is the bet; after three
    # raises (to 4, 6, 8) nobody may raise.
    s = start(2, 0, (1000, 1000), betting="limit")
    play(s, (0, (RAISE, 4)), (1, (RAISE, 6)), (0, (RAISE, 8)))
    assert s.legal_raise_range() is None


def test_headsup_no_cap_rule_allows_unlimited_raises_with_two_players() -> None:
    # Robert's / TDA: raises are unlimited when only two players able to bet remain (headsup_cap=False).
    s = start(2, 0, (1000, 1000), betting="limit", headsup_cap=False)
    play(s, (0, (RAISE, 4)), (1, (RAISE, 6)), (0, (RAISE, 8)), (1, (RAISE, 10)), (0, (RAISE, 12)))
    assert s.legal_raise_range() == (14, 14)
    # Three players, one folds before the cap: the action is heads-up, the cap is lifted.
    s = start(3, 0, (1000, 1000, 1000), betting="limit", headsup_cap=False)
    play(s, (0, (RAISE, 4)), (1, FOLD), (2, (RAISE, 6)), (0, (RAISE, 8)))
    assert s.current_player() == 2 and s.legal_raise_range() == (10, 10)
    # Capped while three could bet: a later fold does not uncap the round.
    s = start(3, 0, (1000, 1000, 1000), betting="limit", headsup_cap=False)
    play(s, (0, (RAISE, 4)), (1, (RAISE, 6)), (2, (RAISE, 8)), (0, FOLD))
    assert s.current_player() == 1 and s.legal_raise_range() is None


# A hand nobody decides anything in --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("module", "kwargs"),
    [
        (nolimit_holdem_v0, {"num_players": 2, "starting_stack": 1}),  # both all-in on the blinds
        (nolimit_holdem_v0, {"num_players": 4, "starting_stack": 1, "ante": 1}),  # all-in on the antes
        (limit_holdem_v0, {"num_players": 3, "starting_stack": 1, "ante": 1}),
    ],
)
def test_hand_without_decisions_passes_the_pettingzoo_api_test(module, kwargs: dict) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(module.env(**kwargs), num_cycles=50)


def test_hand_without_decisions_gives_every_agent_one_pass_then_pays() -> None:
    env = nolimit_holdem_v0.raw_env(num_players=2, starting_stack=1, reward_unit="chips")
    env.reset(seed=3, options={"hole": [cards_from_str("AcAd"), cards_from_str("2c7d")], "board": cards_from_str("KhQh9s5s3c")})
    assert env.state.current_player() == TERMINAL  # the board is out already
    for agent in ("player_0", "player_1"):
        assert env.agent_selection == agent and not any(env.terminations.values())
        obs, reward, term, trunc, _ = env.last()
        assert reward == 0 and not term and np.flatnonzero(obs["action_mask"]).tolist() == [PASS]
        with pytest.raises(ValueError, match="only legal action"):
            env.step(0)
        env.step(PASS)
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    for agent in ("player_0", "player_1"):
        assert env.agent_selection == agent
        env.step(None)
    assert env.agents == []
