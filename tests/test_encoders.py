"""Hold'em encoders on hand-built states; every expected encoding is written out by hand below.

Grid convention being checked (docs/encoders.md): card ``rank * 4 + suit`` sits at row
``2 + rank``, column ``6 + suit`` of a 17x17 plane; the fill code of v small blinds sets the
first v cells of the 13x4 grid in that same order (4 cells per rank row).
"""

from __future__ import annotations

import numpy as np
import pytest

from poker_envs.core.cards import card_from_str as C
from poker_envs.encoders.catalog import HOLDEM_ENCODERS
from poker_envs.encoders.flat56 import Flat56Encoder
from poker_envs.encoders.flat107 import Flat107Encoder
from poker_envs.encoders.poker_cnn import PokerCNNEncoder, fill_code, to_planes
from poker_envs.games.base import play_chance
from poker_envs.games.holdem import HoldemConfig, HoldemGame
from poker_envs.games.kuhn import KuhnGame
from poker_envs.games.leduc import LeducGame
from poker_envs.games.push_fold import PushFoldConfig, PushFoldGame
from poker_envs.games.threshold import ThresholdGame

RNG = np.random.default_rng(0)


def play(game: HoldemGame, hole, board, actions, button: int = 0):
    """Deal the given cards, then play the discrete action ids in order."""
    state = game.new_initial_state(button=button, hole=hole, board=board)
    play_chance(state, RNG)
    for a in actions:
        state.apply(a)
        play_chance(state, RNG)
    return state


HU_CHIPS = HoldemGame(HoldemConfig(num_players=2, bet_sizing="chips", starting_stacks=(200, 200)))
# Seat 0 = button = small blind: As Kd; seat 1 = big blind: 7h 2c; board Qs Jh Tc 3d 4s.
HU_HOLE = [[C("As"), C("Kd")], [C("7h"), C("2c")]]
HU_BOARD = [C("Qs"), C("Jh"), C("Tc"), C("3d"), C("4s")]
# "chips" ids: 0 fold, 1 check/call, a >= 2 bet/raise to a - 1 chips.
PRE = [5, 1]  # seat 0 raises to 4, seat 1 calls: pot 8
FLOP = [3, 7, 1]  # seat 1 bets 2, seat 0 raises to 6, seat 1 calls: pot 20


def test_card_ids_used_by_the_hand_written_cells():
    # The cells below are computed by hand from rank * 4 + suit (suits c, d, h, s).
    assert [C(t) for t in ("As", "Kd", "Qs", "Jh", "Tc", "3d", "7h", "2c")] == [51, 45, 43, 38, 32, 5, 22, 0]


def test_fill_code_examples_of_the_paper():
    planes = to_planes(fill_code([0, 1, 4, 5, 52, 80]))
    exp = np.zeros((6, 17, 17), np.float32)
    exp[1, 2, 6] = 1  # 1 SB: the top-left cell of the 13x4 grid
    exp[2, 2, 6:10] = 1  # 4 SB: the first group of four suit cells
    exp[3, 2, 6:10] = 1
    exp[3, 3, 6] = 1
    exp[4, 2:15, 6:10] = 1  # 52 SB and more: every cell
    exp[5, 2:15, 6:10] = 1
    np.testing.assert_array_equal(planes, exp)
    np.testing.assert_array_equal(fill_code([2.25])[0, :4], [1, 1, 0.25, 0])
    np.testing.assert_array_equal(fill_code([2.25], np.uint8)[0, :4], [1, 1, 0, 0])


def test_poker_cnn_turn_after_check_by_hand():
    state = play(HU_CHIPS, HU_HOLE, HU_BOARD, PRE + FLOP + [1])  # turn: seat 1 checks, seat 0 to act
    assert state.current_player() == 0
    x = PokerCNNEncoder(HU_CHIPS).encode(state, 0)
    exp = np.zeros((33, 17, 17), np.float32)
    exp[0, 14, 9] = 1  # As: rank 12 -> row 14, suit 3 -> column 9
    exp[1, 13, 7] = 1  # Kd
    exp[2, 12, 9] = exp[2, 11, 8] = exp[2, 10, 6] = 1  # flop Qs Jh Tc
    exp[3, 3, 7] = 1  # turn 3d
    for r, c in [(14, 9), (13, 7), (12, 9), (11, 8), (10, 6), (3, 7)]:
        exp[5, r, c] = 1  # all visible cards
    exp[6, 2:7, 6:10] = 1  # pot 20 SB: five full rank rows
    exp[7, 2:15, 6:10] = 1  # one round (the river) left: first rounds plane only
    exp[10, 2:15, 6:10] = 1  # seat 0 acts second on the turn: all ones
    exp[11, 2, 6:8] = 1  # latest turn action: check = code 2; it put in 0 chips (plane 16 empty)
    # Flop, latest first: call 4 chips (code 3), raise to 6 putting 6 in (code 5), bet 2 (code 4).
    exp[21, 2, 6:9] = 1
    exp[22, 2, 6:10] = 1
    exp[22, 3, 6] = 1
    exp[23, 2, 6:10] = 1
    exp[26, 2, 6:10] = 1  # 4 chips
    exp[27, 2, 6:10] = 1  # 6 chips
    exp[27, 3, 6:8] = 1
    exp[28, 2, 6:8] = 1  # 2 chips
    np.testing.assert_array_equal(x, exp)
    assert x.dtype == np.float32

    # Candidate actions: check (code 2, 0 chips), bet to 2 (code 4, 2 chips), bet to 10 (code 4, 10 chips).
    xs = PokerCNNEncoder(HU_CHIPS).encode_actions(state, 0, [1, 3, 11])
    assert xs.shape == (3, 33, 17, 17)
    for k in range(3):
        np.testing.assert_array_equal(xs[k, :31], exp[:31])
    act = np.zeros((3, 2, 17, 17), np.float32)
    act[0, 0, 2, 6:8] = 1
    act[1, 0, 2, 6:10] = 1
    act[1, 1, 2, 6:8] = 1
    act[2, 0, 2, 6:10] = 1
    act[2, 1, 2:4, 6:10] = 1
    act[2, 1, 4, 6:8] = 1
    np.testing.assert_array_equal(xs[:, 31:], act)


def test_poker_cnn_preflop_first_action_and_opponent_view():
    state = play(HU_CHIPS, HU_HOLE, HU_BOARD, [])
    enc = PokerCNNEncoder(HU_CHIPS, dtype=np.uint8)
    x = enc.encode(state, 1)  # the big blind looks before anyone acted
    exp = np.zeros((33, 17, 17), np.uint8)
    exp[0, 7, 8] = 1  # 7h: rank 5 -> row 7, suit 2 -> column 8
    exp[1, 2, 6] = 1  # 2c
    exp[5, 7, 8] = exp[5, 2, 6] = 1
    exp[6, 2, 6:9] = 1  # pot: blinds 1 + 2 = 3 SB
    exp[7:10, 2:15, 6:10] = 1  # three rounds left
    exp[10, 2:15, 6:10] = 1  # heads-up the big blind acts second pre-flop
    np.testing.assert_array_equal(x, exp)  # blinds are not history actions
    assert x.dtype == np.uint8
    # The button acts first pre-flop: position plane all zero; its own cards, never seat 1's.
    y = enc.encode(state, 0)
    assert y[10].sum() == 0
    assert y[0, 14, 9] == 1 and y[1, 13, 7] == 1 and y[5].sum() == 2


def test_poker_cnn_fractional_small_blinds_float_and_uint8():
    game = HoldemGame(HoldemConfig(num_players=2, small_blind=2, big_blind=4, bet_sizing="chips",
                                   starting_stacks=(400, 400)))
    state = play(game, HU_HOLE, HU_BOARD, [10])  # button raises to 9 chips = 4.5 SB, putting in 7 = 3.5 SB
    x = PokerCNNEncoder(game).encode(state, 1)
    # pot 9 + 4 = 13 chips = 6.5 SB: six full cells and half of the seventh
    exp_pot = np.zeros((17, 17), np.float32)
    exp_pot[2, 6:10] = 1
    exp_pot[3, 6:8] = 1
    exp_pot[3, 8] = 0.5
    np.testing.assert_array_equal(x[6], exp_pot)
    exp_amt = np.zeros((17, 17), np.float32)
    exp_amt[2, 6:9] = 1
    exp_amt[2, 9] = 0.5
    np.testing.assert_array_equal(x[16], exp_amt)
    exp_type = np.zeros((17, 17), np.float32)
    exp_type[2, 6:10] = 1
    exp_type[3, 6] = 1  # raise = code 5
    np.testing.assert_array_equal(x[11], exp_type)
    u = PokerCNNEncoder(game, dtype="uint8").encode(state, 1)
    assert u[6].sum() == 6 and u[16].sum() == 3  # uint8 keeps whole small blinds
    # Seat 1 calls 5 chips = 2.5 SB as a candidate.
    c = PokerCNNEncoder(game).encode_with_action(state, 1, 1)
    assert c[32].sum() == 2.5 and c[32, 2, 8] == 0.5 and c[31].sum() == 3


def test_poker_cnn_three_players_position_and_previous_round():
    game = HoldemGame(HoldemConfig(num_players=3, betting="limit", starting_stacks=(100, 100, 100)))
    hole = [[C("As"), C("Ah")], [C("Kc"), C("Kd")], [C("2s"), C("3s")]]
    # Button 0, small blind 1, big blind 2. Pre-flop: 0 calls, 1 calls, 2 checks. Flop: 1 bets, 2 folds.
    state = play(game, hole, HU_BOARD, [1, 1, 1, 2, 0])
    assert state.current_player() == 0
    enc = PokerCNNEncoder(game)
    x = enc.encode(state, 0)
    # Flop order: 1, 2, 0 (left of the button); seat 0 is last of three: f = 1 -> all cells.
    assert x[10].sum() == 52
    # Seat 1 was first: f = 0. Seat 2 (folded this street, still in the street's order) is in the middle: 26 cells.
    assert enc.encode(state, 1)[10].sum() == 0
    y = enc.encode(state, 2)[10]
    exp = np.zeros((17, 17), np.float32)
    exp[2:8, 6:10] = 1
    exp[8, 6:8] = 1
    np.testing.assert_array_equal(y, exp)
    # This street, latest first: fold (1 cell, 0 chips), bet 2 (4 cells, 2 chips).
    assert [x[p].sum() for p in range(11, 21)] == [1, 4, 0, 0, 0, 0, 2, 0, 0, 0]
    # Pre-flop, latest first: check by the big blind, call 1 by the small blind, call 2 by the button.
    assert [x[p].sum() for p in range(21, 31)] == [2, 3, 3, 0, 0, 0, 1, 2, 0, 0]
    assert x[6].sum() == 8  # pot 2 + 2 + 2 + 2 = 8 chips = 8 SB
    assert x[7].sum() == 52 and x[8].sum() == 52 and x[9].sum() == 0  # two rounds left


def test_flat107_by_hand():
    game = HoldemGame(HoldemConfig(num_players=3, betting="limit", starting_stacks=(100, 100, 100)))
    hole = [[C("As"), C("Ah")], [C("Kc"), C("Kd")], [C("2s"), C("3s")]]
    state = play(game, hole, HU_BOARD, [1, 1, 1, 2, 0])  # flop: seat 1 bets 2, seat 2 folds
    x = Flat107Encoder(game).encode(state, 0)
    exp = np.zeros(107, np.float32)
    exp[0] = 2  # the bet to match: 2 chips = 2 SB
    exp[1] = 2  # seats 0 and 1 still in
    exp[2] = 3  # all three saw the flop
    exp[[3 + 43, 3 + 38, 3 + 32]] = 1  # Qs Jh Tc
    exp[[55 + 51, 55 + 50]] = 1  # As Ah
    np.testing.assert_array_equal(x, exp)
    # Pre-flop, for the big blind before anyone acts: bet to match 2 SB, 3 and 3, no board.
    pre = play(game, hole, HU_BOARD, [])
    y = Flat107Encoder(game).encode(pre, 2)
    exp = np.zeros(107, np.float32)
    exp[:3] = 2, 3, 3
    exp[[55 + 3, 55 + 7]] = 1  # 2s = 3, 3s = 7
    np.testing.assert_array_equal(y, exp)


def test_flat56_by_hand():
    state = play(HU_CHIPS, HU_HOLE, HU_BOARD, PRE + [3, 7])  # flop: seat 1 bets 2, seat 0 raises to 6
    assert state.current_player() == 1
    x = Flat56Encoder(HU_CHIPS).encode(state, 1)
    exp = np.zeros(56, np.float32)
    exp[0] = -6  # seat 1 put in 4 pre-flop and 2 on the flop
    exp[1] = 8  # pot from pre-flop; this street's 2 + 6 not included
    exp[2] = 2
    exp[3] = 6
    exp[[4 + 22, 4 + 0, 4 + 43, 4 + 38, 4 + 32]] = 1  # 7h 2c + Qs Jh Tc
    np.testing.assert_array_equal(x, exp)
    # Same hand with chips x5 (small blind 5): every amount in small blinds is the same.
    game5 = HoldemGame(HoldemConfig(num_players=2, small_blind=5, big_blind=10, bet_sizing="chips",
                                    starting_stacks=(1000, 1000)))
    state5 = play(game5, HU_HOLE, HU_BOARD, [21, 1, 11, 31])
    np.testing.assert_array_equal(Flat56Encoder(game5).encode(state5, 1), exp)


def test_push_fold_is_read_as_one_preflop_street():
    game = PushFoldGame(PushFoldConfig(num_players=2, stack_bb=10.0))
    state = game.new_initial_state(deck=[C("As"), C("7h"), C("Kd"), C("2c"), *HU_BOARD])
    play_chance(state, RNG)
    exp = np.zeros(56, np.float32)
    exp[:4] = -1, 0, 1, 2  # small blind: put in 0.5 BB = 1 SB; opponent's blind 2 SB
    exp[[4 + 51, 4 + 45]] = 1
    np.testing.assert_array_equal(Flat56Encoder(game).encode(state, 0), exp)
    state.apply(1)  # the small blind moves all-in: 10 BB = 20 SB
    exp = np.zeros(56, np.float32)
    exp[:4] = -2, 0, 2, 20
    exp[[4 + 22, 4 + 0]] = 1
    np.testing.assert_array_equal(Flat56Encoder(game).encode(state, 1), exp)
    f = Flat107Encoder(game).encode(state, 1)
    assert f[:3].tolist() == [20, 2, 2] and f[3:55].sum() == 0 and f[55 + 22] == f[55] == 1
    xs = PokerCNNEncoder(game).encode_actions(state, 1, [0, 1])
    assert xs[0, 6].sum() == 22  # pot 11 BB
    assert xs[0, 11].sum() == 5 and xs[0, 16].sum() == 19  # a raise that put in 19 SB
    assert xs[0, 10].sum() == 52  # the big blind acts second
    assert [xs[0, 31].sum(), xs[0, 32].sum()] == [1, 0]  # fold
    assert [xs[1, 31].sum(), xs[1, 32].sum()] == [3, 18]  # call: 9 BB more


@pytest.mark.parametrize("name", sorted(HOLDEM_ENCODERS))
@pytest.mark.parametrize("game", [KuhnGame(), LeducGame(), ThresholdGame()], ids=lambda g: g.name)
def test_refuses_games_that_are_not_holdem(name, game):
    with pytest.raises(ValueError, match=r"does not fit game .*is not hold'em"):
        HOLDEM_ENCODERS[name](game)


@pytest.mark.parametrize("name", sorted(HOLDEM_ENCODERS))
def test_refuses_a_game_without_small_blind(name):
    game = HoldemGame(HoldemConfig(num_players=2, small_blind=0, big_blind=2))
    with pytest.raises(ValueError, match="counts chips in small blinds, and this game's small_blind is 0"):
        HOLDEM_ENCODERS[name](game)


def test_bad_arguments_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="dtype must be float32 or uint8"):
        PokerCNNEncoder(HU_CHIPS, dtype=np.int16)
    with pytest.raises(ValueError, match="dtype must be float32 or uint8"):
        PokerCNNEncoder(HU_CHIPS, dtype="no such type")
    state = play(HU_CHIPS, HU_HOLE, HU_BOARD, [])
    enc = PokerCNNEncoder(HU_CHIPS)
    with pytest.raises(ValueError, match="player to act"):
        enc.encode_actions(state, 1, [1])
    with pytest.raises(ValueError, match=r"actions \[500\] are not legal"):
        enc.encode_actions(state, 0, [1, 500])
    with pytest.raises(ValueError, match="player 2 is not a seat"):
        enc.encode(state, 2)
