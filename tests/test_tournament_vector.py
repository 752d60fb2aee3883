"""``--engine vector`` plays every game the catalog gives a batched engine, with the AEC engine's numbers."""

from __future__ import annotations

import numpy as np
import pytest

from agent_zoo.agent import RandomAgent
from agent_zoo.tournament import TournamentConfig, env_config_keys, main, run_tournament, vector_games, vector_session_games
from poker_envs import catalog, vector


def named(agent, name):
    agent.name = name
    return agent


def test_vector_games_are_the_catalogs_batched_games():
    # Read from the catalog, not listed here: every entry with a vector_factory, and vector.make builds each.
    assert vector_games() == [g.key for g in catalog.GAMES if g.vector_factory]
    assert {"omaha", "potlimit", "shortdeck", "push_fold"} <= set(vector_games())
    assert set(vector_session_games()) <= set(vector_games())
    assert all(catalog.game(g).family == "holdem" for g in vector_session_games())
    for game in vector_games():
        assert vector.make(catalog.game(game).vector_name, num_envs=1).num_envs == 1


@pytest.mark.parametrize("game", vector_games())
def test_vector_engine_gives_the_aec_engines_results_on_the_same_deals(game):
    # Same deals, same seat Generators, same rules: both engines play the same hands with the same actions, so
    # every mean is equal to the last bit (and the hold'em family's style counts too; other engines count none).
    seats = 3 if catalog.game(game).players[1] >= 3 else 2
    agents = ["random", "fold", named(RandomAgent(), "r2")]
    kw = dict(hands=4 * seats, seed=11, players=seats, progress=False, block_deals=3)
    aec = run_tournament(TournamentConfig(game=game, agents=agents, engine="aec", **kw))
    batched = run_tournament(TournamentConfig(game=game, agents=agents, engine="vector", tables=5, **kw))
    assert np.array_equal(aec.mean, batched.mean, equal_nan=True)
    assert np.array_equal(aec.agent_mean, batched.agent_mean)
    assert np.any(aec.agent_mean != 0)  # the hands decided something
    if catalog.game(game).family == "holdem":
        assert aec.style == batched.style


@pytest.mark.parametrize("game", vector_session_games())
def test_vector_engine_plays_the_same_cash_sessions(game):
    kw = dict(hands=4, seed=12, progress=False, hands_per_episode=3)
    aec = run_tournament(TournamentConfig(game=game, agents=["random", "fold"], engine="aec", **kw))
    batched = run_tournament(TournamentConfig(game=game, agents=["random", "fold"], engine="vector", tables=3, **kw))
    assert np.array_equal(aec.agent_mean, batched.agent_mean) and aec.style == batched.style


def test_games_without_a_batched_engine_are_refused_by_name():
    no_engine = catalog.keys(vector=False)
    assert no_engine, "every game has a batched engine now: this test needs another game without one"
    with pytest.raises(ValueError, match=f"batched engine plays {', '.join(vector_games())}, not {no_engine[0]}"):
        run_tournament(TournamentConfig(game=no_engine[0], agents=["random", "fold"], hands=2, engine="vector", progress=False))
    sessionless = [g for g in vector_games() if g not in vector_session_games() and "hands_per_episode" in env_config_keys(g)]
    assert sessionless, "no game with sessions the batched engine lacks: the loop below would test nothing"
    for game in sessionless:  # sessions the AEC env plays but the batched engine does not
        with pytest.raises(ValueError, match=f"{game} sessions need engine 'aec'"):
            run_tournament(TournamentConfig(game=game, agents=["random", "fold"], hands=2, hands_per_episode=3, engine="vector", progress=False))


def test_cli_engine_vector_on_omaha(capsys):
    result = main(["--game", "omaha", "--agents", "random", "fold", "--hands", "8", "--engine", "vector",
                   "--tables", "4", "--no-progress", "--seed", "2"])
    assert result.game == "omaha" and "random" in capsys.readouterr().out
