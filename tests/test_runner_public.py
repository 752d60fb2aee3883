"""Agents that read the public betting state play on the batched engine as on the AEC env (same deals, same
seat Generators, same results), one-hand episodes and sessions alike."""

from __future__ import annotations

import numpy as np
import pytest

from agent_zoo.agent import RandomAgent
from agent_zoo.cnn.heuristic import HeuristicAgent
from agent_zoo.runner import HandSpec, play_aec, play_vector
from agent_zoo.tournament import TournamentConfig, build_env, run_tournament
from poker_envs import vector


def _hands(count: int, seed: int, n: int, size: int, per_hand: int = 0) -> tuple[list[HandSpec], np.ndarray]:
    """``count`` episodes with fixed decks (``per_hand`` > 0: a session's list of decks) and button 0."""
    rng = np.random.default_rng(seed)
    hands, decks = [], []
    for k, seq in enumerate(np.random.SeedSequence(seed).spawn(count)):
        seats = tuple((k + s) % 2 for s in range(n))
        if per_hand:
            deal = np.stack([rng.permutation(52)[:size] for _ in range(per_hand)])
            options = {"decks": deal.tolist(), "button": 0}
        else:
            deal = rng.permutation(52)[:size]
            options = {"deck": deal.tolist(), "button": 0}
        hands.append(HandSpec(seats, seq, options))
        decks.append(deal)
    return hands, np.asarray(decks)


def test_heuristic_reads_the_public_state_on_both_engines() -> None:
    """The heuristic with chips sizing draws its raise sizes from ``observation["public"]``."""
    n = 6
    config = dict(num_players=n, bet_sizing="chips", starting_stack=60)
    hands, decks = _hands(40, seed=1, n=n, size=2 * n + 5)
    agents = [HeuristicAgent(chips_sizing=True), RandomAgent()]
    aec = play_aec(lambda: build_env("nolimit", config), agents, hands, tables=7, style=True)
    vec = play_vector(vector.make("nolimit_holdem", 16, public=True, **config), agents, hands, decks,
                      np.zeros(len(hands), dtype=np.int64), style=True)
    for a, b in zip(aec, vec, strict=True):
        np.testing.assert_allclose(a.rewards, b.rewards, atol=1e-12)
        assert a.style == b.style
    assert any(o.rewards.any() for o in vec)


def test_sit_and_go_sessions_on_both_engines() -> None:
    """Tournament sessions (levels, eliminations, prizes, places) with the heuristic: the same outcomes."""
    n = 4
    config = dict(num_players=n, bet_sizing="chips", starting_stack=30, hands_per_episode=12,
                  blind_levels=[(1, 2, 0), (2, 4, 1), (5, 10, 2)], hands_per_level=3, payouts=[0.7, 0.3])
    hands, decks = _hands(24, seed=2, n=n, size=2 * n + 5, per_hand=12)
    agents = [HeuristicAgent(chips_sizing=True, sizing="uniform"), RandomAgent()]
    aec = play_aec(lambda: build_env("nolimit", config), agents, hands, tables=5, style=True)
    vec = play_vector(vector.make("nolimit_holdem", 8, **config), agents, hands, decks,
                      np.zeros(len(hands), dtype=np.int64), style=True)
    for a, b in zip(aec, vec, strict=True):
        np.testing.assert_allclose(a.rewards, b.rewards, atol=1e-12)
        assert a.hands == b.hands and a.style == b.style
        np.testing.assert_array_equal(a.places, b.places)
    assert sum(o.rewards.sum() for o in vec) == pytest.approx(len(hands))  # every session pays its prizes
    assert len({o.hands for o in vec}) > 1


def test_tournament_sessions_on_the_vector_engine_equal_the_aec_engine() -> None:
    kw = dict(hands=9, seed=3, players=3, progress=False, style=True, env_config={"bet_sizing": "chips", "starting_stack": 40})
    for session in (dict(sit_and_go=True), dict(hands_per_episode=4, rebuy=True)):
        aec = run_tournament(TournamentConfig(game="nolimit", agents=["heuristic", "random"], **kw, **session))
        vec = run_tournament(TournamentConfig(game="nolimit", agents=["heuristic", "random"], engine="vector", **kw, **session))
        np.testing.assert_allclose(aec.agent_mean, vec.agent_mean, atol=1e-12)
        assert aec.style == vec.style
        np.testing.assert_array_equal(aec.places, vec.places)
        assert vec.places.sum() > 0 if "sit_and_go" in session else vec.places.sum() == 0


def test_cnn_agent_plays_on_the_batched_engine() -> None:
    """The Poker-CNN agent (public state plus the poker_cnn tensors) on both engines: the same hands."""
    import torch
    from agent_zoo.cnn.agent import CNNAgent
    from agent_zoo.cnn.network import PokerCNN

    torch.manual_seed(0)
    config = dict(num_players=2, bet_sizing="chips", starting_stack=40, obs_encoder="poker_cnn")
    agent = CNNAgent(PokerCNN().eval(), build_env("nolimit", config))
    hands, decks = _hands(12, seed=4, n=2, size=9)
    agents = [agent, RandomAgent()]
    aec = play_aec(lambda: build_env("nolimit", config), agents, hands, tables=1)
    vec = play_vector(vector.make("nolimit_holdem", 1, public=True, **config), agents, hands, decks,
                      np.zeros(len(hands), dtype=np.int64))
    for a, b in zip(aec, vec, strict=True):
        np.testing.assert_allclose(a.rewards, b.rewards, atol=1e-12)
