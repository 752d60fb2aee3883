"""poker_envs.classic against PettingZoo's RLCard-based classic poker envs (the peer, PettingZoo 1.27 with RLCard).

Three kinds of tests: PettingZoo's own tests of these envs, called as PettingZoo's test suite calls them (the
test file and function named on each); the spaces, ids, agents and metadata compared with the installed
PettingZoo envs; and hand-worked hands for the action meanings and the rules where RLCard's differ (RLCard's
side of each difference is RLCard's own game, played here).
"""

from __future__ import annotations

import inspect
import json
import pickle
import warnings
from dataclasses import replace
from pathlib import Path

import numpy as np
import pygame
import pytest
import rlcard
from gymnasium.utils.env_checker import data_equivalence
from pettingzoo.test import api_test, performance_benchmark, save_obs_test, seed_test
from pettingzoo.test.render_test import render_test
from pettingzoo.test.seed_test import seed_action_spaces, seed_observation_spaces
from pettingzoo.utils import conversions, wrappers
from pettingzoo.utils.wrappers import MultiEpisodeEnv
from rlcard.games.base import Card
from rlcard.games.leducholdem.game import LeducholdemGame
from rlcard.games.limitholdem.game import LimitHoldemGame
from rlcard.games.nolimitholdem.game import NolimitholdemGame
from rlcard.games.nolimitholdem.round import Action

from poker_envs.aec import ForfeitIllegalWrapper
from poker_envs.classic import leduc_holdem_v4, texas_holdem_no_limit_v6, texas_holdem_v4
from poker_envs.core.cards import card_from_str, cards_from_str
from poker_envs.encoders.rlcard import rlcard_card_index
from poker_envs.games.holdem import HoldemGame

with warnings.catch_warnings():  # PettingZoo 1.27 says to build its envs with make(); the modules are the peers here
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.classic import leduc_holdem_v4 as pz_leduc
    from pettingzoo.classic import texas_holdem_no_limit_v6 as pz_nolimit
    from pettingzoo.classic import texas_holdem_v4 as pz_limit

PEERS = [(texas_holdem_no_limit_v6, pz_nolimit), (texas_holdem_v4, pz_limit), (leduc_holdem_v4, pz_leduc)]
MODULES = [ours for ours, _ in PEERS]

# PettingZoo's test/all_parameter_combs_test.py (main branch, the classic poker rows of ``parameterized_envs``).
PARAMETERIZED = [
    ("classic/leduc_holdem_v4", leduc_holdem_v4, {}),
    ("classic/texas_holdem_v4", texas_holdem_v4, {"num_players": 3}),
    ("classic/texas_holdem_v4", texas_holdem_v4, {"num_players": 4}),
    ("classic/texas_holdem_no_limit_v6", texas_holdem_no_limit_v6, {}),
    ("classic/texas_holdem_no_limit_v6", texas_holdem_no_limit_v6, {"num_players": 3}),
    ("classic/texas_holdem_no_limit_v6", texas_holdem_no_limit_v6, {"num_players": 4}),
]


@pytest.fixture(autouse=True)
def _quiet() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*reset options.*")  # api_test resets with options={"options": 1}
        warnings.filterwarnings("ignore", message=".*precision lowered.*")  # PettingZoo's own no-limit Box
        yield


def module_id(value) -> str:
    """A test id: a module's short name, anything else as it prints."""
    return value.__name__.rsplit(".", 1)[-1] if inspect.ismodule(value) else str(value)


# PettingZoo's tests, as its suite calls them ------------------------------------------------------------------
@pytest.mark.parametrize(("name", "env_module", "kwargs"), PARAMETERIZED, ids=module_id)
def test_pettingzoo_all_parameter_combs_test_module(name, env_module, kwargs) -> None:
    """test/all_parameter_combs_test.py::test_module, the branches a classic env takes."""
    _env = env_module.env(**kwargs)
    api_test(_env)
    seed_test(lambda: env_module.env(**kwargs), 500)
    render_test(lambda render_mode: env_module.env(render_mode=render_mode, **kwargs))
    assert not hasattr(env_module, "parallel_env")  # as PettingZoo's modules: the state_test branch is not taken


@pytest.mark.parametrize("env_module", MODULES, ids=module_id)
def test_pettingzoo_pickle_test(env_module) -> None:
    """test/pickle_test.py::test_pickle_env."""
    env1 = env_module.env(render_mode="human")
    env2 = pickle.loads(pickle.dumps(env1))
    env1.reset(seed=42)
    env2.reset(seed=42)
    seed_action_spaces(env1)
    seed_action_spaces(env2)
    seed_observation_spaces(env1)
    seed_observation_spaces(env2)
    steps = 0
    for agent1, agent2 in zip(env1.agent_iter(), env2.agent_iter()):
        if steps > 10:
            break
        assert data_equivalence(agent1, agent2)
        obs1, rew1, term1, trunc1, info1 = env1.last()
        obs2, rew2, term2, trunc2, info2 = env2.last()
        if term1 or term2 or trunc1 or trunc2:
            break
        assert data_equivalence((obs1, rew1, term1, trunc1, info1), (obs2, rew2, term2, trunc2, info2))
        mask = obs1["action_mask"]
        action1 = env1.action_space(agent1).sample(mask=mask)
        action2 = env2.action_space(agent2).sample(mask=mask)
        assert data_equivalence(action1, action2)
        env1.step(action1)
        env2.step(action2)
        steps += 1
    assert steps > 0


@pytest.mark.parametrize("env_module", MODULES, ids=module_id)
def test_pettingzoo_unwrapped_test(env_module) -> None:
    """test/unwrapped_test.py::test_unwrapped (observations are Dicts: the ClipOutOfBounds branch is not taken)."""
    env = env_module.env(render_mode="human")
    base_env = env.unwrapped
    env.reset()
    env = wrappers.AssertOutOfBoundsWrapper(env)
    env = wrappers.BaseWrapper(env)
    env = wrappers.CaptureStdoutWrapper(env)
    env = wrappers.OrderEnforcingWrapper(env)
    env = wrappers.TerminateIllegalWrapper(env, 1.0)
    assert not env.metadata["is_parallelizable"]
    env = conversions.parallel_to_aec(env)
    env = conversions.turn_based_aec_to_parallel(env)
    assert env.unwrapped == base_env


@pytest.mark.parametrize("num_episodes", [1, 2, 3, 4, 5, 6])
def test_pettingzoo_wrapper_test_multi_episode_env_wrapper(num_episodes: int) -> None:
    """test/wrapper_test.py::test_multi_episode_env_wrapper (it plays texas_holdem_no_limit_v6, 3 players)."""
    env = MultiEpisodeEnv(texas_holdem_no_limit_v6.env(num_players=3), num_episodes=num_episodes)
    env.reset(seed=42)
    steps = 0
    for agent in env.agent_iter():
        steps += 1
        obs, rew, term, trunc, info = env.last()
        if term or trunc:
            action = None
        else:
            action_space = env.action_space(agent)
            action_space.seed(0)
            action = action_space.sample(mask=obs["action_mask"])
        env.step(action)
    env.close()
    assert steps == num_episodes * 6


@pytest.mark.parametrize("env_module", [leduc_holdem_v4, texas_holdem_v4], ids=module_id)
def test_pettingzoo_pygame_init_test_without_rendering(env_module) -> None:
    """test/pygame_init_test.py::test_no_pygame_subsystem_init_without_rendering (its classic poker rows)."""
    pygame.quit()
    env = env_module.env(render_mode=None)
    env.reset(seed=42)
    for agent in env.agent_iter(max_iter=4):
        obs, reward, termination, truncation, info = env.last()
        env.step(None if termination or truncation else env.action_space(agent).sample(obs["action_mask"]))
    assert pygame.display.get_init() is False
    assert pygame.mixer.get_init() is None
    assert pygame.font.get_init() is False
    env.close()


@pytest.mark.parametrize("env_module", [leduc_holdem_v4, texas_holdem_v4], ids=module_id)
def test_pettingzoo_pygame_init_test_rgb_array_render(env_module) -> None:
    """test/pygame_init_test.py::test_rgb_array_render_does_not_init_audio (its classic poker rows)."""
    pygame.quit()
    env = env_module.env(render_mode="rgb_array")
    env.reset(seed=42)
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.size > 0
    assert pygame.mixer.get_init() is None
    env.close()


@pytest.mark.slow
@pytest.mark.parametrize("env_module", MODULES, ids=module_id)
def test_pettingzoo_ci_test_save_obs_and_performance(env_module, tmp_path, monkeypatch, capsys) -> None:
    """test/ci_test.py (PettingZoo 1.17, the last suite that ran them): ``test_save_obs(_env)`` after the API test
    and ``performance_benchmark(env_module.env())``. Dict observations are not images: nothing is saved."""
    monkeypatch.chdir(tmp_path)
    _env = env_module.env()
    api_test(_env)
    save_obs_test.test_save_obs(_env)
    assert "did not save the observations" in capsys.readouterr().out
    assert not (tmp_path / "saved_observations").exists()
    performance_benchmark(env_module.env())  # five seconds of random legal play over many hands
    out = capsys.readouterr().out
    turns = float(next(line for line in out.splitlines() if line.endswith("turns per second")).split()[0])
    assert turns > 0


# The same spaces, ids, agents and metadata as PettingZoo's envs ---------------------------------------------------
@pytest.mark.parametrize(("ours", "peer"), PEERS, ids=module_id)
def test_signature_metadata_and_spaces_are_pettingzoo_s(ours, peer) -> None:
    def params(f):
        return [(p.name, p.kind, p.default) for p in inspect.signature(f).parameters.values()]

    assert params(ours.raw_env.__init__) == params(peer.raw_env.__init__)
    assert ours.raw_env.metadata == peer.raw_env.metadata
    sizes = (2,) if ours is leduc_holdem_v4 else (2, 3, 4, 10)
    for n in sizes:
        kwargs = {} if ours is leduc_holdem_v4 else {"num_players": n}
        mine, theirs = ours.env(**kwargs), peer.env(**kwargs)
        assert mine.possible_agents == theirs.possible_agents == [f"player_{i}" for i in range(n)]
        for agent in mine.possible_agents:
            assert mine.observation_space(agent) == theirs.observation_space(agent)
            assert mine.action_space(agent) == theirs.action_space(agent)
            box = mine.observation_space(agent)["observation"]
            assert box.dtype == theirs.observation_space(agent)["observation"].dtype == np.float32
            assert np.array_equal(box.high, theirs.observation_space(agent)["observation"].high)
        # PettingZoo's wrappers in PettingZoo's order; the illegal-move wrapper is this project's (a fold and -1)
        assert isinstance(mine, wrappers.OrderEnforcingWrapper) and isinstance(mine.env, wrappers.AssertOutOfBoundsWrapper)
        assert isinstance(theirs.env.env, wrappers.TerminateIllegalWrapper)
        assert isinstance(mine.env.env, ForfeitIllegalWrapper)


@pytest.mark.parametrize("env_module", MODULES, ids=module_id)
def test_rgb_array_frames_are_screen_height_high(env_module) -> None:
    """The backing env's picture, scaled to ``screen_height`` rows as PettingZoo's frames are (None: as drawn)."""
    drawn = None
    for height in (None, 240, 1000):
        env = env_module.env(render_mode="rgb_array", screen_height=height)
        env.reset(seed=1)
        frame = env.render()
        assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
        if height is None:
            drawn = frame.shape
        else:
            assert frame.shape[0] == height
            assert abs(frame.shape[1] / height - drawn[1] / drawn[0]) < 0.01  # the aspect ratio kept


def test_the_catalog_names_the_classic_envs_and_pettingzoo_makes_them() -> None:
    import pettingzoo

    from poker_envs import catalog

    named = {entry.classic_module: entry for entry in catalog.GAMES if entry.classic_module}
    assert sorted(named) == sorted(module_id(m) for m in MODULES)
    for name, entry in named.items():
        env = pettingzoo.make("aec", entry.classic_pettingzoo_id)
        assert str(env) == name and env.unwrapped.metadata["name"] == name
        assert env.unwrapped.game.num_players == entry.players[0]


def test_card_index_is_rlcards() -> None:
    table = json.loads((Path(rlcard.__path__[0]) / "games/limitholdem/card2index.json").read_text())
    assert len(table) == 52
    for name, index in table.items():  # RLCard writes suit then rank: "SA", "HT", "C2"
        assert rlcard_card_index(card_from_str(name[1] + name[0].lower())) == index


def test_first_observation_is_the_peers() -> None:
    """The small blind's first observation of the same two hole cards, ours and PettingZoo's, bit for bit."""
    for ours, peer in PEERS[:2]:
        theirs = peer.env()
        theirs.reset(seed=3)
        game = theirs.unwrapped.env.game
        actor = game.game_pointer
        hole = [[card_from_str(c.rank + c.suit.lower()) for c in game.players[seat].hand] for seat in (actor, 1 - actor)]
        mine = ours.env()
        mine.reset(options={"button": 0, "hole": hole})  # heads-up the button posts the small blind and acts first
        assert mine.agent_selection == "player_0"
        expected = theirs.observe(f"player_{actor}")
        got = mine.observe("player_0")
        assert np.array_equal(got["observation"], expected["observation"])
        assert got["observation"].dtype == expected["observation"].dtype


# Action meanings, hand-worked ---------------------------------------------------------------------------------------
def test_nolimit_actions_hand_worked() -> None:
    """0 fold, 1 check/call, 2 half pot, 3 pot, 4 all-in; sizes: the bet faced + f * (pot after calling)."""
    env = texas_holdem_no_limit_v6.env()
    env.reset(options={"button": 0, "hole": [cards_from_str("AsAh"), cards_from_str("KsKh")],
                       "board": cards_from_str("2c7d9hJs3s")})

    def chips(agent):  # obs 52: chips the agent put in; 53: the most anyone put in
        return env.observe(agent)["observation"][52:].tolist()

    assert env.agent_selection == "player_0" and chips("player_0") == [1, 2]  # the button posts the small blind
    assert env.observe("player_0")["action_mask"].tolist() == [1, 1, 1, 1, 1]
    env.step(3)  # pot: call to 2, pot 4, raise to 2 + 4 = 6
    assert chips("player_1") == [2, 6]
    env.step(2)  # half pot: call to 6, pot 12, raise to 6 + 6 = 12
    assert chips("player_0") == [6, 12]
    env.step(1)  # call 12: the flop, and the big blind acts first
    assert env.agent_selection == "player_1"
    env.step(2)  # half-pot bet into 24: 12 (street), 24 in all
    assert chips("player_0") == [12, 24]
    env.step(4)  # all-in: 100
    assert chips("player_1") == [24, 100]
    assert env.observe("player_1")["action_mask"].tolist() == [1, 1, 0, 0, 0]  # no raise over an all-in
    env.step(1)
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 100.0, "player_1": -100.0}  # aces hold: chips won


def test_limit_actions_hand_worked() -> None:
    """0 call, 1 raise, 2 fold, 3 check; four bets a round (pre-flop the big blind is the first); big blinds."""
    env = texas_holdem_v4.env()
    env.reset(options={"button": 0})

    def raises(agent):  # the one-hot of bets and raises per round, as counts
        return [int(np.flatnonzero(r)[0]) for r in env.observe(agent)["observation"][52:].reshape(4, 5)]

    def mask(agent):
        return env.observe(agent)["action_mask"].tolist()

    assert env.agent_selection == "player_0" and mask("player_0") == [1, 1, 1, 0]  # call, raise, fold; no check
    for _ in range(3):
        env.step(1)  # raises to 4, 6, 8
    assert env.agent_selection == "player_1" and raises("player_1") == [3, 0, 0, 0]
    assert mask("player_1") == [1, 0, 1, 0]  # capped: call or fold
    env.step(0)
    assert env.agent_selection == "player_1" and mask("player_1") == [0, 1, 1, 1]  # flop: raise (a bet), fold, check
    env.step(3)
    env.step(1)  # player_0 bets 2
    env.step(0)  # player_1 calls
    assert raises("player_0") == [3, 1, 0, 0]
    env.step(3)
    env.step(3)  # turn checked through
    env.step(1)  # river: player_1 bets 4
    env.step(2)  # player_0 folds its 8 + 2 chips
    assert env.rewards == {"player_0": -5.0, "player_1": 5.0}


def test_leduc_actions_hand_worked() -> None:
    """0 call, 1 raise, 2 fold, 3 check; antes of 1, raises of 2 then 4; rewards in chips / 2."""
    env = leduc_holdem_v4.env()
    env.reset(options={"deal": (4, 0, 2)})  # player_0 a king, player_1 a jack, a queen on the board
    obs = env.observe("player_0")["observation"]
    assert np.flatnonzero(obs).tolist() == [2, 6 + 1, 21 + 1]  # king; 1 chip each
    assert env.observe("player_0")["action_mask"].tolist() == [0, 1, 0, 1]  # raise or check; nothing to fold
    env.step(1)  # raise to 3
    assert env.observe("player_1")["action_mask"].tolist() == [1, 1, 1, 0]
    env.step(0)  # call: the queen is dealt, player_0 first
    assert env.agent_selection == "player_0"
    assert np.flatnonzero(env.observe("player_0")["observation"]).tolist() == [2, 3 + 1, 6 + 3, 21 + 3]
    env.step(3)
    env.step(1)  # player_1 bets 4
    env.step(0)
    assert env.rewards == {"player_0": 3.5, "player_1": -3.5}  # 7 chips won, in RLCard's unit of 2


def test_an_illegal_move_folds_and_costs_one_more() -> None:
    env = texas_holdem_v4.env()
    env.reset(options={"button": 0})
    with pytest.warns(UserWarning, match="illegal move 3"):
        env.step(3)  # check while owing the big blind
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1.5, "player_1": 0.5}  # the small blind lost (0.5 bb), and 1 more


@pytest.mark.parametrize(("module", "kwargs", "error", "match"), [
    (texas_holdem_no_limit_v6, {"num_players": 11}, ValueError, "num_players"),
    (texas_holdem_v4, {"num_players": 1}, ValueError, "num_players"),
    (texas_holdem_v4, {"screen_height": 0}, ValueError, "screen_height"),
    (leduc_holdem_v4, {"num_players": 2}, TypeError, "num_players"),  # PettingZoo's Leduc takes no num_players
    (leduc_holdem_v4, {"render_mode": "ansi"}, ValueError, "render_mode"),
], ids=module_id)
def test_bad_arguments_are_refused(module, kwargs, error, match) -> None:
    with pytest.raises(error, match=match):
        module.env(**kwargs)


@pytest.mark.parametrize(("module", "n"), [(texas_holdem_no_limit_v6, 2), (texas_holdem_no_limit_v6, 6),
                                           (texas_holdem_v4, 2), (texas_holdem_v4, 6), (leduc_holdem_v4, 2)], ids=module_id)
def test_every_hand_ends_within_the_games_length(module, n) -> None:
    """What max_cycles_test checks for envs with max_cycles: here every episode (one hand) ends within the rules'
    bound on decisions plus one dead step per agent, and rewards are zero-sum."""
    env = module.env(**({} if module is leduc_holdem_v4 else {"num_players": n}))
    rng = np.random.default_rng(7)
    for episode in range(40):
        env.reset(seed=episode)
        bound = env.unwrapped.game.max_game_length + n
        steps, total = 0, 0.0
        for _agent in env.agent_iter(bound + 1):
            obs, reward, term, trunc, _ = env.last()
            total += reward
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        assert not env.agents and steps <= bound
        assert total == pytest.approx(0.0)


# Where RLCard's rules differ (RLCard's own game on one side) -------------------------------------------------------
def test_heads_up_blinds_and_first_to_act_differ_from_rlcard() -> None:
    """RLCard heads-up: the dealer posts the big blind and the small blind acts first on every street. Here the
    button posts the small blind, acts first pre-flop and last after the flop."""
    game = NolimitholdemGame(num_players=2)
    game.dealer_id = 0
    game.init_game()
    assert [p.in_chips for p in game.players] == [2, 1] and game.game_pointer == 1
    game.step(Action.CHECK_CALL)
    game.step(Action.CHECK_CALL)
    assert len(game.public_cards) == 3 and game.game_pointer == 1  # the small blind first on the flop

    env = texas_holdem_no_limit_v6.env()
    env.reset(options={"button": 0})
    assert env.observe("player_0")["observation"][52] == 1 and env.agent_selection == "player_0"
    env.step(1)
    env.step(1)
    assert env.agent_selection == "player_1"  # the big blind first on the flop


def test_pot_raise_differs_from_rlcard() -> None:
    """RLCard's "raise pot" puts in the pot's chips, the call included: the small blind raises to 1 + 3 = 4. Here a
    pot raise is a call and then the pot: to 2 + 4 = 6."""
    game = NolimitholdemGame(num_players=2)
    game.dealer_id = 0
    game.init_game()
    game.step(Action.RAISE_POT)
    assert game.players[1].in_chips == 4
    env = texas_holdem_no_limit_v6.env()
    env.reset(options={"button": 0})
    env.step(3)
    assert env.observe("player_0")["observation"][52] == 6


def test_limit_cap_order_and_round_end_differ_from_rlcard() -> None:
    """RLCard's limit game: four raises over the big blind, the small blind first on the flop heads-up, and after a
    fold a player checks twice. Here: three raises over the big blind, the big blind first on the flop, and the
    round ends when everyone left has acted."""
    game = LimitHoldemGame(num_players=2)
    game.init_game()
    small_blind = game.game_pointer
    for _ in range(4):
        game.step("raise")
    assert "raise" not in game.get_legal_actions() and game.round.have_raised == 4
    game = LimitHoldemGame(num_players=2)
    game.init_game()
    small_blind = game.game_pointer
    game.step("call")
    game.step("check")
    assert game.round_counter == 1 and game.game_pointer == small_blind
    game = LimitHoldemGame(num_players=3)
    game.init_game()
    for action in ("fold", "call", "check"):
        game.step(action)
    assert game.round_counter == 0 and game.get_legal_actions() == ["raise", "fold", "check"]  # the small blind again

    env = texas_holdem_v4.env(num_players=3)
    env.reset(options={"button": 0})  # seat 1 the small blind, seat 2 the big blind, seat 0 first
    for action in (2, 0, 3):  # fold, call, check
        env.step(action)
    assert env.unwrapped.state.street == 1 and env.agent_selection == "player_1"  # the flop, the small blind first


def test_leduc_forced_bets_differ_from_rlcard() -> None:
    """RLCard's Leduc posts blinds of 1 and 2 and lets a player fold with nothing owed; here each antes 1 and that
    fold is masked."""
    game = LeducholdemGame()
    game.init_game()
    assert sorted(p.in_chips for p in game.players) == [1, 2]
    game.step("call")
    assert "fold" in game.get_legal_actions() and "check" in game.get_legal_actions()
    env = leduc_holdem_v4.env()
    env.reset(seed=0)
    assert env.unwrapped.state.contributions == [1, 1]
    assert env.observe(env.agent_selection)["action_mask"][2] == 0  # fold


def test_side_pot_hand_worked_and_rlcard_refunds_it() -> None:
    """Stacks 20, 100, 100; aces, kings, queens all-in pre-flop, a blank board. The aces win the main pot (3 x 20),
    the kings the side pot (2 x 80): +40, +60, -100. RLCard picks one winner for every pot (the best hand of all) and
    gives a side pot that winner is not in back to its players: +40, -20, -20."""
    hole = ["AsAh", "KsKh", "QsQh"]
    board = "2c7d9hJs3s"
    config = replace(texas_holdem_no_limit_v6.raw_env(num_players=3).config, starting_stacks=(20, 100, 100))
    state = HoldemGame(config).new_initial_state(button=0, hole=[cards_from_str(h) for h in hole],
                                                 board=cards_from_str(board))
    while state.current_player() == -1:
        state.apply(state.chance_outcomes()[0][0])
    for action in (4, 4, 1):  # seat 0 all-in 20, seat 1 all-in 100, seat 2 calls
        state.apply(action)
    while state.current_player() == -1:
        state.apply(state.chance_outcomes()[0][0])
    assert state.chip_returns() == [40, 60, -100]

    game = NolimitholdemGame(num_players=3)
    game.init_chips = [20, 100, 100]
    game.dealer_id = 0  # the small blind is seat 1, the big blind seat 2, seat 0 acts first: as above
    game.init_game()
    for player, cards in zip(game.players, hole, strict=True):
        player.hand = [Card(cards[1].upper(), cards[0]), Card(cards[3].upper(), cards[2])]
    board_cards = [Card(board[i + 1].upper(), board[i]) for i in range(0, 10, 2)]
    dealt = {c.get_index() for c in board_cards} | {c.get_index() for p in game.players for c in p.hand}
    game.dealer.deck = [c for c in game.dealer.deck if c.get_index() not in dealt] + board_cards[::-1]  # dealt from the end
    for action in (Action.ALL_IN, Action.ALL_IN, Action.CHECK_CALL):
        game.step(action)
    assert game.is_over() and [c.get_index() for c in game.public_cards] == ["C2", "D7", "H9", "SJ", "S3"]
    assert list(game.get_payoffs()) == [40, -20, -20]
