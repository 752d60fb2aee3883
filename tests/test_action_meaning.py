"""Action meaning through the common GameState interface: action_kind, amount_to_call, raise_range, betting_round.

Hand-worked positions of every game, and a property over random hold'em hands: the kind an action is
given agrees with what ``apply`` then does to the chips.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_holdem_properties import tables

from poker_envs.games.base import CHANCE, TERMINAL, ActionKind, play_chance
from poker_envs.games.holdem import HoldemConfig, HoldemGame
from poker_envs.games.kuhn import BET, PASS, KuhnGame
from poker_envs.games.leduc import CALL, FOLD, RAISE, LeducGame
from poker_envs.games.push_fold import PushFoldConfig, PushFoldGame
from poker_envs.games.threshold import ThresholdConfig, ThresholdGame

K = ActionKind
RNG = np.random.default_rng(0)


def kinds(state) -> dict[int, ActionKind]:
    return {a: state.action_kind(a) for a in state.legal_actions()}


def dealt(game, **options):
    state = game.new_initial_state(**options)
    play_chance(state, RNG)
    return state


def test_holdem_nolimit_heads_up() -> None:
    # Button (seat 0) posts the small blind 1, seat 1 the big blind 2; 200 chips each.
    s = dealt(HoldemGame(HoldemConfig(num_players=2, starting_stacks=(200, 200))))
    assert (s.current_player(), s.betting_round(), s.amount_to_call(), s.raise_range()) == (0, 0, 1, (4, 200))
    assert kinds(s) == {0: K.FOLD, 1: K.CALL, 2: K.RAISE, 3: K.RAISE, 4: K.RAISE, 5: K.ALL_IN}
    s.apply(1)  # the small blind completes
    assert (s.amount_to_call(), s.raise_range()) == (0, (4, 200))
    assert kinds(s) == {1: K.CHECK, 2: K.RAISE, 3: K.RAISE, 4: K.RAISE, 5: K.ALL_IN}  # the blinds are a bet
    s.apply(1)  # big blind checks; flop
    play_chance(s, RNG)
    assert (s.current_player(), s.betting_round(), s.amount_to_call(), s.raise_range()) == (1, 1, 0, (2, 198))
    assert kinds(s) == {1: K.CHECK, 2: K.BET, 3: K.BET, 4: K.BET, 5: K.ALL_IN}
    s.apply(3)  # a pot-sized bet: 4 chips
    assert (s.amount_to_call(), s.raise_range()) == (4, (8, 198))
    assert s.action_kind(0) is K.FOLD and s.action_kind(1) is K.CALL and s.action_kind(2) is K.RAISE


def test_holdem_calling_all_in_is_a_call_and_limit_raises_are_fixed() -> None:
    s = dealt(HoldemGame(HoldemConfig(num_players=2, starting_stacks=(200, 10))))
    s.apply(5)  # the button moves all-in (200)
    assert (s.amount_to_call(), s.raise_range()) == (8, None)  # the big blind has 8 chips behind
    assert kinds(s) == {0: K.FOLD, 1: K.CALL}
    limit = dealt(HoldemGame(HoldemConfig(num_players=3, betting="limit")))
    assert (limit.current_player(), limit.amount_to_call(), limit.raise_range()) == (0, 2, (4, 4))
    assert kinds(limit) == {0: K.FOLD, 1: K.CALL, 2: K.RAISE}


def test_kuhn() -> None:
    s = KuhnGame().new_initial_state(deal=(0, 2))
    with pytest.raises(ValueError, match="chance node"):
        s.amount_to_call()
    play_chance(s, RNG)
    assert (s.amount_to_call(), s.raise_range(), kinds(s)) == (0, (1, 1), {PASS: K.CHECK, BET: K.BET})
    s.apply(PASS)
    assert (s.amount_to_call(), s.raise_range(), kinds(s)) == (0, (1, 1), {PASS: K.CHECK, BET: K.BET})
    s.apply(BET)
    assert (s.amount_to_call(), s.raise_range(), kinds(s)) == (1, None, {PASS: K.FOLD, BET: K.CALL})
    assert s.betting_round() == 0
    s.apply(BET)
    with pytest.raises(ValueError, match="terminal node"):
        s.action_kind(PASS)


def test_leduc() -> None:
    s = dealt(LeducGame(), deal=(0, 2, 4))
    assert (s.betting_round(), s.amount_to_call(), s.raise_range()) == (0, 0, (2, 2))
    assert kinds(s) == {CALL: K.CHECK, RAISE: K.BET}
    with pytest.raises(ValueError, match="action 0 is illegal"):
        s.action_kind(FOLD)  # nothing is owed
    s.apply(RAISE)  # player 0 bets 2
    assert (s.amount_to_call(), s.raise_range(), kinds(s)) == (2, (4, 4), {FOLD: K.FOLD, CALL: K.CALL, RAISE: K.RAISE})
    s.apply(RAISE)  # player 1 raises to 4: the second and last raise of the round
    assert (s.amount_to_call(), s.raise_range(), kinds(s)) == (2, None, {FOLD: K.FOLD, CALL: K.CALL})
    s.apply(CALL)
    play_chance(s, RNG)  # the public card; second round, sizes of 4
    assert (s.current_player(), s.betting_round(), s.amount_to_call(), s.raise_range()) == (0, 1, 0, (4, 4))
    s.apply(RAISE)
    assert (s.amount_to_call(), s.raise_range()) == (4, (8, 8))
    assert s.contributions == [9, 5]  # antes 1, round one 4, player 0's bet of 4


def test_push_fold() -> None:
    s = dealt(PushFoldGame(PushFoldConfig(stack_bb=10.0, ante_bb=0.5)))
    # Small blind: 0.5 + ante in; the big blind has 1 + ante; a push raises to the stack less the ante.
    assert (s.amount_to_call(), s.raise_range(), kinds(s)) == (0.5, (9.5, 9.5), {0: K.FOLD, 1: K.ALL_IN})
    s.apply(1)
    assert (s.amount_to_call(), s.raise_range(), kinds(s)) == (8.5, None, {0: K.FOLD, 1: K.CALL})  # 10 - 1.5
    # A bigger stack facing a push only calls: the excess is returned.
    s = dealt(PushFoldGame(PushFoldConfig(stacks_bb=(5.0, 20.0))))
    s.apply(1)
    assert (s.amount_to_call(), s.raise_range(), s.action_kind(1)) == (4.0, None, K.CALL)
    # Three-handed: after a short push, a deep small blind's all-in raises (the deep big blind could call).
    s = dealt(PushFoldGame(PushFoldConfig(num_players=3, stacks_bb=(5.0, 20.0, 20.0))))
    s.apply(1)
    assert (s.current_player(), s.amount_to_call(), s.raise_range(), s.action_kind(1)) == (1, 4.5, (20.0, 20.0), K.ALL_IN)


def test_threshold() -> None:
    s = dealt(ThresholdGame(ThresholdConfig(num_players=3, alpha=2.5)))
    for _ in range(3):
        assert (s.amount_to_call(), s.raise_range(), kinds(s)) == (0.0, (2.5, 2.5), {0: K.FOLD, 1: K.BET})
        s.apply(1)
    assert s.current_player() == TERMINAL


@settings(max_examples=150, deadline=None)
@given(cfg=tables(), seed=st.integers(0, 2**32 - 1))
# blinds and antes that put short stacks all in, a stack that cannot complete a raise, and a limit game
@example(cfg=HoldemConfig(num_players=4, small_blind=1, big_blind=2, ante=1, starting_stacks=(2, 3, 1, 120)), seed=0)
@example(cfg=HoldemConfig(num_players=3, small_blind=2, big_blind=4, starting_stacks=(7, 120, 5)), seed=1)
@example(cfg=HoldemConfig(num_players=2, small_blind=1, big_blind=2, starting_stacks=(40, 40), betting="limit"), seed=2)
@example(cfg=HoldemConfig(num_players=10, small_blind=0, big_blind=1, starting_stacks=(1,) * 5 + (60,) * 5), seed=3)
def test_holdem_kind_agrees_with_the_chips_apply_moves(cfg: HoldemConfig, seed: int) -> None:
    """For every legal action of every decision of a random hand: what the kind says happens to the chips."""
    rng = np.random.default_rng(seed)
    state = HoldemGame(cfg).new_initial_state(button=int(rng.integers(cfg.num_players)))
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        seat = state.current_player()
        owe, rr, top = state.amount_to_call(), state.raise_range(), state.max_bet()
        assert state.betting_round() == state.street
        for action in state.legal_actions():
            kind = state.action_kind(action)
            after = state.child(action)
            added = after.contributed[seat] - state.contributed[seat]
            to = state.bets[seat] + added
            behind = after.stacks[seat]
            if kind is K.FOLD:
                assert after.folded[seat] and added == 0
                continue
            assert not after.folded[seat]
            if kind is K.CHECK:
                assert owe == 0 and added == 0
            elif kind is K.CALL:
                assert 0 < owe == added and to <= top
            else:
                assert rr is not None and rr[0] <= to <= rr[1] and to > top and added > owe
                assert (kind is K.BET) == (top == 0 and behind > 0)
                assert (kind is K.RAISE) == (top > 0 and behind > 0)
                assert (kind is K.ALL_IN) == (behind == 0)
        state.apply(int(rng.choice(state.legal_actions())))
