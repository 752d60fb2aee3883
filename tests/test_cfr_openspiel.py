"""Cross-checks of our exact exploitability against OpenSpiel's (pyspiel is in the test extra)."""

from __future__ import annotations

import numpy as np
import pytest
import pyspiel
from open_spiel.python.algorithms import exploitability as os_exploitability

from agent_zoo.cfr import GameTree, exploitability, make_solver
from agent_zoo.cfr.openspiel_bridge import from_openspiel_policy, to_openspiel_policy
from poker_envs.games.kuhn import KuhnGame


def _openspiel_exploitability(tree: GameTree, game, os_name: str, policy: np.ndarray) -> float:
    os_game = pyspiel.load_game(os_name)
    return os_exploitability.exploitability(os_game, to_openspiel_policy(tree, policy, game, os_game))


def test_kuhn_matches_openspiel() -> None:
    kuhn = GameTree.build(KuhnGame())
    solver = make_solver(kuhn, "cfr+")
    solver.iterate(500)
    for policy in (kuhn.uniform_policy(), solver.average_policy(), solver.current_policy()):
        ours = exploitability(kuhn, policy).exploitability
        assert ours == pytest.approx(_openspiel_exploitability(kuhn, KuhnGame(), "kuhn_poker", policy), abs=1e-9)


def test_policy_round_trip_through_openspiel() -> None:
    game, os_game = KuhnGame(), pyspiel.load_game("kuhn_poker")
    kuhn = GameTree.build(game)
    solver = make_solver(kuhn, "cfr")
    solver.iterate(7)
    policy = solver.average_policy()
    back = from_openspiel_policy(kuhn, to_openspiel_policy(kuhn, policy, game, os_game), game, os_game)
    np.testing.assert_array_equal(back, policy)


def test_leduc_matches_openspiel() -> None:
    from poker_envs.games.leduc import LeducGame

    game = LeducGame()
    leduc = GameTree.build(game)
    solver = make_solver(leduc, "cfr+")
    solver.iterate(1600)  # exploitability about 1e-4: a converged policy
    for policy in (leduc.uniform_policy(), solver.average_policy()):
        ours = exploitability(leduc, policy).exploitability
        assert ours == pytest.approx(_openspiel_exploitability(leduc, game, "leduc_poker", policy), abs=1e-9)
