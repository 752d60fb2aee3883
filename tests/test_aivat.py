"""AIVAT (agent_zoo.aivat): unbiased on every game it corrects, equal to the plain result with its terms off."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from agent_zoo.aivat import Decision, EquityValue, TreeValue, aivat_terms, corrected_returns, value_function
from poker_envs.games.base import CHANCE, TERMINAL
from poker_envs.games.kuhn import KuhnGame
from poker_envs.games.leduc import LeducGame


def fixed_policy(state, num_actions: int) -> np.ndarray:
    """A mixed policy that depends on the acting seat's information (a stand-in for a solver's strategy)."""
    legal = state.legal_actions()
    key = state.information_state_string(state.current_player())
    w = np.array([1 + zlib.crc32(f"{key}/{a}".encode()) % 7 for a in legal], dtype=np.float64)
    probs = np.zeros(num_actions)
    probs[legal] = w / w.sum()
    return probs


def uniform(state, num_actions: int) -> np.ndarray:
    probs = np.zeros(num_actions)
    probs[state.legal_actions()] = 1 / len(state.legal_actions())
    return probs


def expectations(game, policies, known, value) -> tuple[np.ndarray, np.ndarray]:
    """E[plain] and E[corrected] by walking every chance outcome and action with its probability."""
    plain = np.zeros(game.num_players)
    corrected = np.zeros(game.num_players)

    def walk(state, p, decisions):
        nonlocal plain, corrected
        player = state.current_player()
        if player == TERMINAL:
            plain += p * state.returns()
            corrected += p * corrected_returns(value, decisions, state)
            return
        if player == CHANCE:
            for c, q in state.chance_outcomes():
                walk(state.child(c), p * q, decisions)
            return
        probs = policies[player](state, game.num_distinct_actions)
        for a in state.legal_actions():
            if probs[a] > 0:
                d = Decision(state.clone(), a, probs if known[player] else None)
                walk(state.child(a), p * probs[a], [*decisions, d])

    walk(game.new_initial_state(), 1.0, [])
    return plain, corrected


@pytest.mark.parametrize("game", [KuhnGame(), LeducGame()], ids=["kuhn", "leduc"])
@pytest.mark.parametrize("known", [(True, True), (True, False), (False, False)])
def test_unbiased_exactly_on_small_games(game, known):
    value = value_function(game)
    assert isinstance(value, TreeValue)
    plain, corrected = expectations(game, [uniform, fixed_policy], known, value)
    np.testing.assert_allclose(corrected, plain, rtol=0, atol=1e-9)
    assert abs(plain[0]) > 1e-3  # the fixed policy is not the uniform one: a non-trivial game value


def test_terms_change_single_hands_on_leduc():
    """The correction is not zero hand by hand (else the test above proves nothing)."""
    game = LeducGame()
    value = value_function(game)
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    decisions = []
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        probs = uniform(state, game.num_distinct_actions)
        a = int(rng.choice(len(probs), p=probs))
        decisions.append(Decision(state.clone(), a, probs))
        state.apply(a)
    assert np.abs(aivat_terms(value, decisions, state)).max() > 1e-6
