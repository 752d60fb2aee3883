"""Bad input gets a clear error that names the argument (or the action) and what is allowed; nothing is
coerced in silence. Also the positive side: card strings work wherever a card does."""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest

from poker_envs import kuhn_poker_v0, leduc_holdem_v0, limit_holdem_v0, nolimit_holdem_v0, push_fold_v0, threshold_v0
from poker_envs.core.cards import card_from_str, cards_from_str
from poker_envs.encoders.flat107 import Flat107Encoder
from poker_envs.encoders.holdem_default import HoldemDefaultEncoder
from poker_envs.games.holdem import MAX_CHIPS_STACK, HoldemConfig, HoldemGame
from poker_envs.games.kuhn import KuhnGame
from poker_envs.games.base import play_chance
from poker_envs.games.push_fold import PushFoldConfig, PushFoldGame

from conftest import play_random_hand

MODULES = [nolimit_holdem_v0, limit_holdem_v0, kuhn_poker_v0, leduc_holdem_v0, push_fold_v0, threshold_v0]
NAMES = [m.__name__.rsplit(".", 1)[-1] for m in MODULES]
HOLDEM = [nolimit_holdem_v0, limit_holdem_v0]


# step(): only integer action ids ------------------------------------------------------------------------
@pytest.mark.parametrize("module", MODULES, ids=NAMES)
@pytest.mark.parametrize("kind", ["raw_env", "env"])
@pytest.mark.parametrize("action", [1.7, "1", True, np.float64(1.0), np.bool_(True), [1]], ids=repr)
def test_step_refuses_non_integer_actions(module, kind: str, action: object) -> None:
    env = getattr(module, kind)()
    env.reset(seed=0)
    agent = env.agent_selection
    with pytest.raises(TypeError, match=rf"action of {agent} must be an integer action id in 0\.\.\d+, got"):
        env.step(action)
    assert env.agent_selection == agent  # nothing was played


@pytest.mark.parametrize("module", MODULES, ids=NAMES)
@pytest.mark.parametrize("kind", ["raw_env", "env"])
def test_step_takes_python_and_numpy_integers(module, kind: str) -> None:
    for action in (1, np.int64(1), np.int8(1), np.array(1)):
        env = getattr(module, kind)()
        env.reset(seed=0)
        first = env.agent_selection
        env.step(action)  # id 1 (check/call or bet) is legal at the first decision of every one of these games
        assert env.agent_selection != first or all(env.terminations.values())


def test_threshold_parallel_env_refuses_non_integer_actions() -> None:
    env = threshold_v0.parallel_env(num_players=3, alpha=2.0)
    env.reset(seed=0)
    with pytest.raises(TypeError, match=r"action of player_1 must be an integer action id in 0\.\.1, got 1\.0"):
        env.step({"player_0": 1, "player_1": 1.0, "player_2": 0})
    with pytest.raises(TypeError, match="got True"):
        env.step({"player_0": 1, "player_1": 0, "player_2": True})
    _, rewards, *_ = env.step({"player_0": 1, "player_1": np.int64(0), "player_2": 0})  # still playable
    assert len(rewards) == 3


def test_single_agent_wrapper_refuses_non_integer_actions() -> None:
    from agent_zoo.agent import RandomAgent
    from wrappers import SingleAgentEnv

    env = SingleAgentEnv("kuhn_poker_v0", seat=0, opponents=RandomAgent())
    env.reset(seed=0)
    for bad in (1.7, "1", True):
        with pytest.raises(TypeError, match=r"action of player_0 must be an integer action id in 0\.\.1"):
            env.step(bad)
    env.step(np.int64(1))  # numpy integers (what Stable-Baselines3 passes) are fine


def _play_to_the_end(env) -> None:
    rng = np.random.default_rng(0)
    while not all(env.terminations.values()):
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(rng.choice(legal)))


@pytest.mark.parametrize("module", MODULES, ids=NAMES)
@pytest.mark.parametrize("kind", ["raw_env", "env"])
def test_step_after_the_hand_ended(module, kind: str) -> None:
    env = getattr(module, kind)()
    env.reset(seed=3)
    _play_to_the_end(env)
    agent = env.agent_selection
    with pytest.raises(ValueError, match=rf"hand of {agent} is over: its only allowed action is None, got action 0"):
        env.step(0)
    for _ in env.possible_agents:
        env.step(None)  # PettingZoo's convention: each done agent steps None once
    assert env.agents == []
    with pytest.raises(ValueError, match=r"step\(0\) after the hand is over .* call reset\(\)"):
        env.step(0)
    env.reset(seed=4)  # and the env goes on
    play_random_hand(env, np.random.default_rng(1))


def test_step_none_from_an_agent_that_must_act() -> None:
    env = nolimit_holdem_v0.raw_env()
    env.reset(seed=0, options={"button": 0})  # heads-up the button (seat 0) acts first
    with pytest.raises(ValueError, match="player_0 must act; action None is only for agents whose game is over"):
        env.step(None)


# Cards given from outside: decks, hole cards, boards ---------------------------------------------------
def _reset(module, **options):
    env = module.raw_env(num_players=3)
    env.reset(seed=0, options=options)
    return env.state


@pytest.mark.parametrize("module", HOLDEM)
def test_deck_of_floats_is_refused(module) -> None:
    deck = [float(c) for c in range(11)]
    with pytest.raises(TypeError, match=r"deck\[0\] must be a card id 0\.\.51 or a card string such as 'As', got 0\.0"):
        _reset(module, deck=deck)
    with pytest.raises(TypeError, match=r"deck\[0\] must be a card id"):
        _reset(module, deck=np.arange(11, dtype=np.float64))
    with pytest.raises(TypeError, match=r"deck\[2\] must be a card id .* got True"):
        HoldemGame(HoldemConfig(num_players=3)).new_initial_state(deck=[0, 1, True])
    with pytest.raises(TypeError, match=r"deck\[0\] must be a card id"):
        PushFoldGame(PushFoldConfig(num_players=2)).new_initial_state(deck=[float(c) for c in range(9)])


def test_repeated_or_unknown_cards_in_a_deck_are_named() -> None:
    game = HoldemGame(HoldemConfig(num_players=2))
    with pytest.raises(ValueError, match="deck has a repeated card: As"):
        game.new_initial_state(deck=["As", "Kd", "As"])
    with pytest.raises(ValueError, match=r"deck\[1\] is card id 52, outside 0\.\.51"):
        game.new_initial_state(deck=[0, 52])
    with pytest.raises(ValueError, match=r"deck\[0\]: card 'Ax' is not a rank"):
        game.new_initial_state(deck=["Ax"])


@pytest.mark.parametrize("module", HOLDEM)
def test_board_of_more_than_five_cards_is_refused(module) -> None:
    hole = [["As", "Ks"], ["Qh", "Qd"], ["7c", "2d"]]
    with pytest.raises(ValueError, match="board has 6 cards; a board has at most 5") as info:
        _reset(module, hole=hole, board=["2c", "3c", "4c", "5c", "6c", "7h"])
    assert "deck" not in str(info.value)


@pytest.mark.parametrize("module", HOLDEM)
def test_hole_cards_that_clash_name_hole_or_board(module) -> None:
    with pytest.raises(ValueError, match=r"hole\[1\] repeats card As, already in hole\[0\]") as info:
        _reset(module, hole=[["As", "Ks"], ["As", "Qd"], ["7c", "2d"]])
    assert "deck" not in str(info.value)
    with pytest.raises(ValueError, match=r"hole\[2\] has a repeated card: 7c"):
        _reset(module, hole=[["As", "Ks"], ["Qh", "Qd"], ["7c", "7c"]])
    with pytest.raises(ValueError, match=r"board repeats card Qd, already in hole\[1\]") as info:
        _reset(module, hole=[["As", "Ks"], ["Qh", "Qd"], ["7c", "2d"]], board=["2c", "Qd", "9s"])
    assert "deck" not in str(info.value)
    with pytest.raises(ValueError, match=r"hole\[0\] must be 2 cards, got 3"):
        _reset(module, hole=[["As", "Ks", "2c"], ["Qh", "Qd"], ["7c", "2d"]])
    game = HoldemGame(HoldemConfig(num_players=2))
    with pytest.raises(ValueError, match=r"board repeats card Ks, already in hole\[0\]"):
        game.new_initial_state(hole=[[51, 47], [0, 1]], board=[2, 47, 3])


def _dealt(state):
    play_chance(state, np.random.default_rng(0))  # a fixed deal has one outcome per chance node
    return state


def test_card_strings_work_wherever_a_card_does() -> None:
    hole = [["As", "Ks"], ["Qh", "Qd"], ["7c", "2d"]]
    ids = [[card_from_str(c) for c in h] for h in hole]
    board = ["2c", "3c", "4c"]
    for state in (
        _reset(nolimit_holdem_v0, hole=hole, board=board),
        _reset(limit_holdem_v0, hole=["AsKs", "QhQd", "7c2d"], board="2c3c4c"),
        _dealt(HoldemGame(HoldemConfig(num_players=3)).new_initial_state(hole=hole, board=board)),
        _dealt(HoldemGame(HoldemConfig(num_players=3)).new_initial_state(hole=[[ids[0][0], "Ks"], *ids[1:]], board=board)),
    ):
        assert state.hole == ids
        fixed = state.clone()
        while fixed.is_chance() or len(fixed.board) < 3:
            fixed.apply(fixed.sample_chance(np.random.default_rng(0)) if fixed.is_chance() else 1)  # check/call
        assert fixed.board[:3] == cards_from_str("2c3c4c")
    # A deck in dealing order (button 0: first cards to seats 1, 2, 0, then second cards), as one string,
    # as a list of strings and as ids, deals the same hand.
    deck = "AsKdQhJc9s8d7h6c5s4d3h"
    expected = [cards_from_str("Qh8d"), cards_from_str("AsJc"), cards_from_str("Kd9s")]
    for given in (deck, [deck[i : i + 2] for i in range(0, len(deck), 2)], cards_from_str(deck)):
        assert _reset(nolimit_holdem_v0, button=0, deck=given).hole == expected
        assert _dealt(HoldemGame(HoldemConfig(num_players=3)).new_initial_state(deck=given)).hole == expected


# bet_sizing --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("sizing", [(True,), (0.5, True), {0.5: 1}, {"half": 0.5}, (0.5, "half"), 0.5, (0.5, None)])
def test_bet_sizing_of_bools_dicts_and_words_is_refused(sizing: object) -> None:
    with pytest.raises(ValueError, match=r"bet_sizing (must be 'abstract', 'chips' or a tuple of pot fractions|pot fraction)"):
        nolimit_holdem_v0.env(bet_sizing=sizing)
    with pytest.raises(ValueError, match="bet_sizing"):
        HoldemConfig(bet_sizing=sizing)
    # a list of numbers is fine, and so are ratios written as strings: every fraction is kept exact
    assert HoldemConfig(bet_sizing=[0.5, 1]).bet_sizing == (Fraction(1, 2), Fraction(1))
    assert HoldemConfig(bet_sizing=(0.5, "1", "3/2")).bet_sizing == (Fraction(1, 2), Fraction(1), Fraction(3, 2))


def test_chips_sizing_refuses_stacks_that_would_need_a_huge_action_space() -> None:
    big = MAX_CHIPS_STACK + 1
    with pytest.raises(ValueError, match=rf"starting_stack of {big} chips would need {big + 2} ids; the limit is a "
                                         rf"starting_stack of {MAX_CHIPS_STACK} chips"):
        nolimit_holdem_v0.raw_env(bet_sizing="chips", starting_stack=big)
    with pytest.raises(ValueError, match="the limit is a starting_stack of"):
        nolimit_holdem_v0.raw_env(num_players=3, bet_sizing="chips", starting_stack=[200, 10**12, 200])
    assert HoldemConfig(bet_sizing="chips", starting_stacks=(MAX_CHIPS_STACK, 10)).bet_sizing == "chips"
    # Other sizings have a fixed number of ids: deep stacks are fine there.
    assert nolimit_holdem_v0.raw_env(starting_stack=10**12).action_space("player_0").n == 6


# Encoder objects built for another game ---------------------------------------------------------------
def test_encoder_object_for_another_table_is_refused() -> None:
    six = HoldemGame(HoldemConfig(num_players=6))
    with pytest.raises(ValueError, match=r"obs_encoder was built for a table of 6 players, not 2"):
        nolimit_holdem_v0.env(num_players=2, obs_encoder=Flat107Encoder(six))
    deep = HoldemGame(HoldemConfig(num_players=2, starting_stacks=(1000, 1000)))
    with pytest.raises(ValueError, match=r"obs_encoder was built for another configuration of 'nolimit_holdem': "
                                         r"starting_stacks=\(1000, 1000\) \(env: \(200, 200\)\)"):
        nolimit_holdem_v0.env(obs_encoder=HoldemDefaultEncoder(deep))
    with pytest.raises(ValueError, match=r"obs_encoder was built for game 'kuhn_poker', not 'leduc_poker'"):
        leduc_holdem_v0.env(obs_encoder=kuhn_poker_v0.raw_env().encoder.__class__(KuhnGame()))
    # The same configuration built separately is accepted.
    same = HoldemGame(HoldemConfig(num_players=3, starting_stacks=(200, 200, 200)))
    env = nolimit_holdem_v0.env(num_players=3, obs_encoder=Flat107Encoder(same))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env.reset(seed=0)
    assert env.observation_space("player_0")["observation"].contains(env.last()[0]["observation"])
