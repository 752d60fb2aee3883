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


# Our solvers follow OpenSpiel's iterates exactly (same regret matching, alternating updates, averaging).
@pytest.mark.parametrize("os_name", ["kuhn_poker", "leduc_poker"])
@pytest.mark.parametrize(("algo", "os_solver"), [("cfr", "CFRSolver"), ("cfr+", "CFRPlusSolver")])
def test_iterates_equal_openspiel_cpp_solvers(os_name: str, algo: str, os_solver: str) -> None:
    from poker_envs.games.leduc import LeducGame

    game = KuhnGame() if os_name == "kuhn_poker" else LeducGame()
    tree, os_game = GameTree.build(game), pyspiel.load_game(os_name)
    ours, theirs = make_solver(tree, algo), getattr(pyspiel, os_solver)(os_game)
    for _ in range(10):
        ours.iterate(1)
        theirs.evaluate_and_update_policy()
    for mine, other in ((ours.average_policy(), theirs.average_policy()), (ours.current_policy(), theirs.current_policy())):
        np.testing.assert_allclose(mine, from_openspiel_policy(tree, other, game, os_game), atol=1e-12)


def test_dcfr_iterates_equal_openspiel_python_dcfr() -> None:
    from open_spiel.python.algorithms import discounted_cfr

    game, os_game = KuhnGame(), pyspiel.load_game("kuhn_poker")
    tree = GameTree.build(game)
    ours, theirs = make_solver(tree, "dcfr"), discounted_cfr.DCFRSolver(os_game)
    for _ in range(10):
        ours.iterate(1)
        theirs.evaluate_and_update_policy()
    np.testing.assert_allclose(ours.average_policy(), from_openspiel_policy(tree, theirs.average_policy(), game, os_game), atol=1e-12)


# Three players: the n-player paths (reach products over several opponents) against OpenSpiel.
class _SpielState:
    """Test-only view of a pyspiel state through our GameState methods (no rules of our own)."""

    def __init__(self, state) -> None:
        self.s = state
        self.num_players = state.num_players()

    def current_player(self) -> int:
        return -4 if self.s.is_terminal() else (-1 if self.s.is_chance_node() else self.s.current_player())

    def legal_actions(self) -> list[int]:
        return list(self.s.legal_actions())

    def chance_outcomes(self):
        return self.s.chance_outcomes()

    def apply(self, action: int) -> None:
        self.s.apply_action(action)

    def clone(self):
        return _SpielState(self.s.clone())

    def child(self, action: int):
        return _SpielState(self.s.child(action))

    def returns(self) -> np.ndarray:
        return np.asarray(self.s.returns())

    def information_state_string(self, player: int) -> str:
        return self.s.information_state_string(player)


class _SpielGame:
    def __init__(self, os_game) -> None:
        self.g = os_game
        self.name = str(os_game)
        self.num_players = os_game.num_players()
        self.num_distinct_actions = os_game.num_distinct_actions()

    def new_initial_state(self):
        return _SpielState(self.g.new_initial_state())


def test_three_player_kuhn_nash_conv_and_cfr_iterates_match_openspiel() -> None:
    os_game = pyspiel.load_game("kuhn_poker", {"players": 3})
    game = _SpielGame(os_game)
    tree = GameTree.build(game)
    ours, theirs = make_solver(tree, "cfr"), pyspiel.CFRSolver(os_game)
    for _ in range(15):
        ours.iterate(1)
        theirs.evaluate_and_update_policy()
    np.testing.assert_allclose(ours.average_policy(), from_openspiel_policy(tree, theirs.average_policy(), game, os_game), atol=1e-12)
    for policy in (tree.uniform_policy(), ours.average_policy()):
        res = exploitability(tree, policy)
        os_policy = to_openspiel_policy(tree, policy, game, os_game)
        assert res.nash_conv == pytest.approx(os_exploitability.nash_conv(os_game, os_policy), abs=1e-9)


def test_simultaneous_updates_equal_openspiel_python_cfr() -> None:
    from open_spiel.python.algorithms import cfr as os_cfr

    game, os_game = KuhnGame(), pyspiel.load_game("kuhn_poker")
    tree = GameTree.build(game)
    ours = make_solver(tree, "cfr", alternating_updates=False)
    theirs = os_cfr._CFRSolver(os_game, regret_matching_plus=False, alternating_updates=False, linear_averaging=False)
    for _ in range(30):
        ours.iterate(1)
        theirs.evaluate_and_update_policy()
    np.testing.assert_allclose(ours.average_policy(), from_openspiel_policy(tree, theirs.average_policy(), game, os_game), atol=1e-12)
