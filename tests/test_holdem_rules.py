"""Hold'em rules worked by hand: blinds and order, minimum raises, short all-ins, side pots, odd chips,
uncalled bets, limit caps, dealing order, action ids. Expected numbers are computed by hand in comments."""

from __future__ import annotations

import numpy as np
import pytest

from poker_envs.core.cards import cards_from_str
from poker_envs.games.base import CHANCE, TERMINAL
from poker_envs.games.holdem import (
    BET,
    CALL,
    CHECK,
    FOLD,
    RAISE,
    HoldemConfig,
    HoldemGame,
    HoldemState,
)


def game(n: int = 2, stacks=200, **kw) -> HoldemGame:
    return HoldemGame(HoldemConfig(num_players=n, starting_stacks=stacks, **kw))


def dealt(g: HoldemGame, button: int = 0, hole: list[str] | None = None, board: str = "") -> HoldemState:
    """A state with the given cards dealt (random-looking defaults otherwise), at the first decision."""
    n = g.num_players
    if hole is None:
        deck = list(range(51, 51 - 2 * n - 5, -1))
        state = g.new_initial_state(button=button, deck=deck)
    else:
        state = g.new_initial_state(button=button, hole=[cards_from_str(h) for h in hole], board=cards_from_str(board))
    while state.current_player() == CHANCE:
        state.apply(state.chance_outcomes()[0][0])
    return state


def play(state: HoldemState, *moves: tuple[int, int] | int) -> None:
    """Apply raw moves: a kind (FOLD/CHECK/CALL) or (BET|RAISE, to); deal chance nodes from the fixed deck."""
    for move in moves:
        while state.current_player() == CHANCE:
            state.apply(state.chance_outcomes()[0][0])
        kind, to = move if isinstance(move, tuple) else (move, 0)
        state.apply_raw(kind, to)
    while state.current_player() == CHANCE:
        state.apply(state.chance_outcomes()[0][0])


def ids(state: HoldemState, *actions: int) -> None:
    """Apply discrete action ids, dealing chance nodes from the fixed deck."""
    for a in actions:
        state.apply(a)
        while state.current_player() == CHANCE:
            state.apply(state.chance_outcomes()[0][0])


# Blinds and order --------------------------------------------------------------------------------
def test_heads_up_button_posts_small_blind_acts_first_preflop_last_after() -> None:
    s = dealt(game(2), button=1)
    assert s.bets == [2, 1] and s.stacks == [198, 199]
    assert s.current_player() == 1  # the button (small blind) acts first pre-flop
    play(s, CALL, CHECK)
    assert s.street == 1 and s.current_player() == 0  # the big blind acts first after the flop
    play(s, CHECK)
    assert s.current_player() == 1


def test_six_handed_blinds_and_first_to_act() -> None:
    s = dealt(game(6), button=4)
    assert s.bets == [2, 0, 0, 0, 0, 1]  # small blind seat 5, big blind seat 0
    assert s.current_player() == 1  # under the gun: left of the big blind
    play(s, FOLD, FOLD, CALL, CALL, CALL, CHECK)  # seats 1, 2 fold; 3, 4, 5 call; big blind checks
    assert s.street == 1 and s.current_player() == 5  # first live seat left of the button
    assert s.pot() == 8 and s.num_active_at_street_start == 4


def test_antes_and_short_blind_all_in() -> None:
    s = dealt(game(3, stacks=(50, 2, 50), ante=1), button=0)
    # seat 1 posts ante 1 then only 1 of the small blind; seat 2 posts the big blind.
    assert s.contributed == [1, 2, 3] and s.bets == [0, 1, 2] and s.stacks == [49, 0, 47]
    assert s.current_player() == 0


# Minimum raise and reopening -----------------------------------------------------------------------
def test_min_raise_is_the_last_full_raise() -> None:
    s = dealt(game(3, stacks=500), button=0)  # seat 1 SB, seat 2 BB, seat 0 first
    assert s.legal_raise_range() == (4, 500)  # a raise of at least the big blind
    play(s, (RAISE, 10))  # raise of 8
    assert s.legal_raise_range() == (18, 500)
    with pytest.raises(ValueError, match="outside the legal range 18..500"):
        s.apply_raw(RAISE, 17)
    play(s, (RAISE, 30))  # raise of 20
    assert s.legal_raise_range() == (50, 500)
    play(s, FOLD, CALL)
    assert s.street == 1 and s.legal_raise_range() == (2, 470)  # post-flop minimum bet is the big blind


def test_short_all_in_does_not_reopen_betting() -> None:
    # Post-flop: seat 1 bets 10, seat 2 moves all-in for 15 (a raise of 5 < 10): seat 0 (not yet acted)
    # may raise, to at least 25; seat 1 (already acted) may only call or fold.
    s = dealt(game(3, stacks=(200, 200, 17)), button=0)
    play(s, CALL, CALL, CHECK)  # pre-flop limped, 2 each
    assert s.street == 1 and s.current_player() == 1
    play(s, (BET, 10), (RAISE, 15))
    assert s.stacks[2] == 0 and s.current_player() == 0
    assert s.legal_raise_range() == (25, 198)
    play(s, CALL)
    assert s.current_player() == 1
    assert s.legal_raise_range() is None
    assert s.legal_actions() == [0, 1]


def test_short_all_ins_adding_up_to_a_full_raise_reopen() -> None:
    # Seat 1 bets 10; seat 2 all-in to 15 (+5), seat 0 all-in to 21 (+6): seat 1 faces 11 >= 10, may raise.
    s = dealt(game(4, stacks=(23, 200, 17, 200)), button=3)  # seat 0 SB, 1 BB, 2 first
    play(s, CALL, CALL, CALL, CHECK)
    assert s.street == 1 and s.current_player() == 0
    play(s, CHECK, (BET, 10), (RAISE, 15), CALL, (RAISE, 21))
    assert s.current_player() == 1 and s.legal_raise_range() == (31, 198)


def test_preflop_all_in_for_less_than_a_big_blind_raise_does_not_reopen_for_limpers() -> None:
    # Four players, blinds 1/2: seat 3 limps for 2, seat 0 (3 chips) moves all-in to 3, a raise of 1 < 2.
    # Seat 1 (small blind) and seat 2 (big blind) have not acted and may raise; seat 3, back on turn, may not.
    s = dealt(game(4, stacks=(3, 200, 200, 200)), button=0)  # seat 1 SB, seat 2 BB, seat 3 first
    play(s, CALL, (RAISE, 3))
    assert s.current_player() == 1 and s.legal_raise_range() == (5, 200)
    play(s, CALL)
    assert s.legal_raise_range() == (5, 200)  # the big blind's option
    play(s, CALL)
    assert s.current_player() == 3 and s.legal_raise_range() is None and s.legal_actions() == [0, 1]


def test_no_raise_against_players_all_in_and_no_decision_left() -> None:
    s = dealt(game(2, stacks=(200, 50)), button=0)
    play(s, (RAISE, 50))  # the button raises to 50: exactly what seat 1 has in total
    assert s.current_player() == 1
    assert s.legal_raise_range() is None  # calling puts seat 1 all-in
    play(s, CALL)
    assert s.current_player() == TERMINAL and len(s.board) == 5  # no decisions left: board runs out


# Pots -----------------------------------------------------------------------------------------------
def test_side_pots_with_three_all_ins_and_uncalled_excess() -> None:
    # Button seat 0 (30 chips), blinds seats 1 (10) and 2 (20), seat 3 deep (100) acts first and moves
    # all-in; everyone calls all-in. Hands: seat 1 quads > seat 2 full house > seat 0 flush > seat 3 two
    # pair. Pots: main 10*4=40 -> seat 1; side 10*3=30 -> seat 2; side 10*2=20 -> seat 0; seat 3's
    # uncalled 70 comes back. Returns: 0:-10, 1:+30, 2:+10, 3:-30.
    g = game(4, stacks=(30, 10, 20, 100))
    s = dealt(g, button=0, hole=["9h8h", "AcAd", "KcKd", "2c3d"], board="AhAsKh4h2s")
    play(s, (RAISE, 100), CALL, CALL, CALL)
    assert s.current_player() == TERMINAL
    assert [p.amount for p in s.pots()] == [40, 30, 20, 70]
    assert [p.eligible for p in s.pots()] == [(0, 1, 2, 3), (0, 2, 3), (0, 3), (3,)]
    assert s.chip_returns() == [-10, 30, 10, -30]
    assert list(s.returns()) == [-10.0, 30.0, 10.0, -30.0]


def test_uncalled_bet_is_returned_when_everyone_folds() -> None:
    s = dealt(game(3, stacks=300), button=0)
    play(s, (RAISE, 300), FOLD, FOLD)
    assert s.current_player() == TERMINAL and s.chip_returns() == [3, -1, -2]
    assert s.awards == [(303, (0,))]  # blinds and the uncalled 298 form one single-seat pot


def test_odd_chip_goes_to_first_winner_left_of_button() -> None:
    # Three players, ante 1: button (seat 2) folds, seat 0 (SB) calls, seat 1 (BB) checks: pot 3 + 4 = 7.
    # The board is a royal flush: seats 0 and 1 split 7 -> 3 each, the odd chip to seat 0 (left of button).
    g = game(3, stacks=100, ante=1)
    s = dealt(g, button=2, hole=["2c3d", "4c5d", "6c7d"], board="AsKsQsJsTs")
    play(s, FOLD, CALL, CHECK, CHECK, CHECK, CHECK, CHECK, CHECK, CHECK)
    assert s.current_player() == TERMINAL and s.pot() == 7
    assert s.chip_returns() == [4 - 3, 3 - 3, -1]
    # Same with the button on seat 0: the first winner left of it is seat 1, who gets the odd chip.
    s = dealt(g, button=0, hole=["2c3d", "4c5d", "6c7d"], board="AsKsQsJsTs")
    play(s, FOLD, CALL, CHECK, CHECK, CHECK, CHECK, CHECK, CHECK, CHECK)
    assert s.chip_returns() == [-1, 1, 0]


def test_three_way_split_gives_one_odd_chip_each_from_left_of_button() -> None:
    # 4 players, ante 2, button seat 3: seat 2 calls, the button folds, the small blind calls, the big blind
    # checks: pot = 4*2 antes + 3*2 = 14; a three-way split gives 4 each and the 2 odd chips one each to
    # seats 0 and 1, the first winners left of the button (TDA: nobody gets two odd chips from one pot).
    # pokerkit's pooled split (odd_chips="pooled") gives both odd chips to seat 0.
    for rule, expected in (("per_pot", [5 - 4, 5 - 4, 4 - 4, -2]), ("pooled", [6 - 4, 4 - 4, 4 - 4, -2])):
        g = game(4, stacks=100, ante=2, odd_chips=rule)
        s = dealt(g, button=3, hole=["2c3d", "4c5d", "6c7d", "2d3c"], board="AsKsQsJsTs")
        play(s, CALL, FOLD, CALL, CHECK, *([CHECK] * 9))  # seat 2 (UTG) calls, button folds, SB calls, BB checks
        assert s.current_player() == TERMINAL and s.pot() == 14
        assert s.chip_returns() == expected


# Limit -----------------------------------------------------------------------------------------------
def test_limit_bet_sizes_and_four_bet_cap() -> None:
    g = game(2, stacks=1000, betting="limit")
    s = dealt(g, button=0)
    # Pre-flop the big blind is the first bet: raises to 4, 6, 8 and then only call or fold.
    assert s.legal_raise_range() == (4, 4)
    ids(s, 2, 2, 2)
    assert s.bets == [8, 6] and s.legal_actions() == [0, 1]
    ids(s, 1)
    assert s.street == 1 and s.legal_actions() == [1, 2]  # folding when checking is free is masked
    ids(s, 2, 2, 2, 2)  # bet 2, raises to 4, 6, 8: the fourth bet
    assert s.bets == [8, 6] and s.legal_actions() == [0, 1]
    ids(s, 1)
    assert s.street == 2 and s.legal_raise_range() == (4, 4)  # big bet on the turn
    ids(s, 2)
    assert s.bets == [0, 4]


def test_limit_fold_when_check_allowed_by_flag() -> None:
    s = dealt(game(2, betting="limit", allow_fold_when_check=True), button=0)
    play(s, CALL)
    assert s.legal_actions() == [0, 1, 2]  # the big blind may fold although checking is free
    ids(s, 0)
    assert s.current_player() == TERMINAL and s.chip_returns() == [2, -2]


# Dealing, chance and action ids -------------------------------------------------------------------
def test_dealing_order_from_a_fixed_deck() -> None:
    deck = list(range(20))
    s = game(3).new_initial_state(button=1, deck=deck)
    assert s.chance_outcomes() == [(0, 1.0)]
    for card in deck[:6]:
        s.apply(card)
    # One card at a time from the seat left of the button (seat 2), then seat 0, then seat 1 (the button).
    assert s.hole == [[1, 4], [2, 5], [0, 3]]
    assert s.current_player() == 1  # three-handed the button acts first pre-flop (left of the big blind)
    with pytest.raises(ValueError):
        s.apply(7)


def test_random_deals_are_uniform_over_unseen_cards_and_seeded() -> None:
    s = game(2).new_initial_state()
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 52 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    a = [s.sample_chance(np.random.default_rng(5)) for _ in range(3)]
    assert a == [s.sample_chance(np.random.default_rng(5))] * 3
    s.apply(a[0])
    assert len(s.chance_outcomes()) == 51 and a[0] not in [c for c, _ in s.chance_outcomes()]
    with pytest.raises(ValueError, match="unseen"):
        s.apply(a[0])


def test_abstract_pot_fraction_amounts() -> None:
    s = dealt(game(2), button=0)
    # Button (SB) to act: pot 3, to call 1, pot after call 4: half pot -> 2 + 2 = 4, pot -> 6, 2 pots -> 10.
    assert [s.action_to_chips(a) for a in (2, 3, 4, 5)] == [(RAISE, 4), (RAISE, 6), (RAISE, 10), (RAISE, 200)]
    assert s.legal_actions() == [0, 1, 2, 3, 4, 5]
    assert s.action_to_chips(1) == (CALL, 0)


def test_chips_action_ids_are_raise_to_plus_one() -> None:
    g = game(2, stacks=(30, 30), bet_sizing="chips")
    assert g.num_distinct_actions == 32
    s = dealt(g, button=0)
    assert s.legal_actions() == [0, 1] + list(range(5, 32))  # raise-to 4 .. 30
    assert s.action_to_chips(5) == (RAISE, 4) and s.action_to_chips(31) == (RAISE, 30)
    with pytest.raises(ValueError, match="legal actions"):
        s.apply(4)


def test_clone_is_independent() -> None:
    s = dealt(game(3), button=0)
    c = s.clone()
    c.apply_raw(RAISE, 10)
    assert s.bets == [0, 1, 2] and c.bets == [10, 1, 2] and s.current_player() == 0
    assert len(s.history[0]) == 0 and len(c.history[0]) == 1


def test_apply_raw_validation_messages() -> None:
    s = dealt(game(2), button=0)
    with pytest.raises(ValueError, match="cannot check"):
        s.apply_raw(CHECK)
    with pytest.raises(ValueError, match="use raise"):
        s.apply_raw(BET, 6)
    with pytest.raises(ValueError, match="kind must be"):
        s.apply_raw(9)
    play(s, CALL)
    with pytest.raises(ValueError, match="cannot fold"):
        s.apply_raw(FOLD)
    with pytest.raises(ValueError, match="nothing to call"):
        s.apply_raw(CALL)


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"num_players": 11}, "num_players"),
        ({"num_players": 2, "starting_stacks": (100, -5)}, r"starting_stack\[1\]"),
        ({"num_players": 2, "small_blind": 5, "big_blind": 2}, "big_blind"),
        ({"num_players": 2, "bet_sizing": "huge"}, "bet_sizing"),
        ({"num_players": 2, "bet_sizing": (1.0, 0.5)}, "bet_sizing"),
        ({"num_players": 2, "betting": "pot"}, "betting"),
        ({"num_players": 3, "starting_stacks": (100, 100)}, "starting_stacks"),
    ],
)
def test_config_errors_name_the_field(kw: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        HoldemConfig(**kw)


def test_information_state_string_hides_other_hands_and_tracks_actions() -> None:
    s = dealt(game(2), button=0, hole=["AsKd", "7c2d"], board="2c3c4c5c6c")
    a, b = s.information_state_string(0), s.information_state_string(1)
    assert "AsKd" in a and "7c2d" not in a and "7c2d" in b and "AsKd" not in b
    play(s, (RAISE, 6))
    assert s.information_state_string(0) != a and "6" in s.information_state_string(1)


def test_generic_chance_walk_over_the_river() -> None:
    # Walk every river card of a hand with flop and turn fixed: 44 unseen cards, probabilities sum to one,
    # and after each of them the river betting starts with the big blind (seat 1, not the button).
    g = game(2)
    s = dealt(g, button=0, hole=["AsKd", "7c2d"], board="2c3c4c5c")  # four board cards fixed, river random
    play(s, CALL, CHECK, CHECK, CHECK, CHECK)
    s.apply_raw(CHECK)  # the turn is checked through: the river is next
    assert s.current_player() == CHANCE and len(s.board) == 4
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 52 - 8 and abs(sum(p for _, p in outcomes) - 1.0) < 1e-12
    results = set()
    for card, _ in outcomes:
        child = s.child(card)
        assert child.current_player() == 1 and child.street == 3
        results.add(tuple(child.board))
    assert len(results) == 44


def test_sample_chance_is_uniform_over_unseen_cards() -> None:
    # 26,000 first-card draws and 26,000 draws with 10 cards already out: chi-square against uniform.
    # The 1% critical values are 77.4 (51 dof) and 64.9 (41 dof); a biased sampler lands far above.
    rng = np.random.default_rng(11)
    root = game(5).new_initial_state(deck=list(range(10)))
    for _ in range(10):
        root.apply(root.chance_outcomes()[0][0])
    for state, dealt_out, critical in ((game(2).new_initial_state(), 0, 77.4), (root, 10, 64.9)):
        counts = np.bincount([state.sample_chance(rng) for _ in range(26_000)], minlength=52)
        assert not counts[:dealt_out].any()  # cards already dealt (ids 0..9) are never drawn
        seen = counts[dealt_out:]
        expected = 26_000 / len(seen)
        assert ((seen - expected) ** 2 / expected).sum() < critical
