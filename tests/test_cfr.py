"""CFR family and exact exploitability on Kuhn (and Leduc when its rules exist): known values and OpenSpiel."""

from __future__ import annotations

import numpy as np
import pytest

from agent_zoo.cfr import GameTree, best_response_policy, expected_values, exploitability, make_solver
from agent_zoo.cfr.solvers import CFRSolver
from poker_envs.games.kuhn import KuhnGame

KUHN_VALUE = -1.0 / 18.0


@pytest.fixture(scope="module")
def kuhn() -> GameTree:
    return GameTree.build(KuhnGame())


def test_kuhn_tree_shape(kuhn: GameTree) -> None:
    # 6 deals, 5 betting terminals each; 12 infosets (3 cards x {start, p, b} for P1; x {p..pb} for P0).
    assert kuhn.num_infosets == 12
    assert kuhn.num_terminals == 30
    assert sorted(kuhn.infoset_keys) == sorted(c + h for c in "JQK" for h in ["", "p", "b", "pb"])
    assert all(kuhn.infoset_states[i].information_state_string(p) == k
               for i, (k, p) in enumerate(zip(kuhn.infoset_keys, kuhn.infoset_player)))


def test_kuhn_uniform_by_hand(kuhn: GameTree) -> None:
    # Uniform play: P0 wins 0.125 per game (hand-checked against OpenSpiel's NashConv 11/12).
    np.testing.assert_allclose(expected_values(kuhn, kuhn.uniform_policy()), [0.125, -0.125], atol=1e-15)
    res = exploitability(kuhn, kuhn.uniform_policy())
    assert res.nash_conv == pytest.approx(11 / 12, abs=1e-12)
    assert res.exploitability == pytest.approx(11 / 24, abs=1e-12)


def test_known_kuhn_equilibrium_has_zero_exploitability(kuhn: GameTree) -> None:
    # Kuhn's equilibrium family (Kuhn 1950): P0 bets J with alpha, K with 3 alpha, calls with Q with
    # alpha + 1/3; P1 bluffs J 1/3 after a check, calls with Q 1/3. Member alpha = 1/3.
    alpha = 1 / 3
    table = {
        "J": [1 - alpha, alpha], "Q": [1.0, 0.0], "K": [1 - 3 * alpha, 3 * alpha],
        "Jpb": [1.0, 0.0], "Qpb": [2 / 3 - alpha, 1 / 3 + alpha], "Kpb": [0.0, 1.0],
        "Jp": [2 / 3, 1 / 3], "Qp": [1.0, 0.0], "Kp": [0.0, 1.0],
        "Jb": [1.0, 0.0], "Qb": [2 / 3, 1 / 3], "Kb": [0.0, 1.0],
    }
    policy = np.array([table[k] for k in kuhn.infoset_keys])
    res = exploitability(kuhn, policy)
    assert abs(res.nash_conv) < 1e-12
    assert res.policy_values[0] == pytest.approx(KUHN_VALUE, abs=1e-12)


@pytest.mark.parametrize("algo", ["cfr", "cfr+", "dcfr"])
def test_kuhn_converges_to_game_value(kuhn: GameTree, algo: str) -> None:
    solver = make_solver(kuhn, algo)
    solver.iterate(2000)
    res = exploitability(kuhn, solver.average_policy())
    assert res.exploitability < 1e-3
    assert res.policy_values[0] == pytest.approx(KUHN_VALUE, abs=2e-4)


def test_best_response_policy_attains_best_response_value(kuhn: GameTree) -> None:
    uniform = kuhn.uniform_policy()
    res = exploitability(kuhn, uniform)
    for p in range(2):
        br = best_response_policy(kuhn, uniform, p)
        assert expected_values(kuhn, br)[p] == pytest.approx(res.br_values[p], abs=1e-12)


def test_checkpoint_resume_is_exact(kuhn: GameTree) -> None:
    straight = make_solver(kuhn, "dcfr")
    straight.iterate(50)
    first = make_solver(kuhn, "dcfr")
    first.iterate(20)
    resumed = make_solver(kuhn, "dcfr")
    resumed.load_state_dict(first.state_dict())
    resumed.iterate(30)
    np.testing.assert_array_equal(resumed.average_policy(), straight.average_policy())


def test_bad_policy_is_refused(kuhn: GameTree) -> None:
    with pytest.raises(ValueError, match="shape"):
        exploitability(kuhn, np.ones((3, 2)))
    with pytest.raises(ValueError, match="sums to"):
        exploitability(kuhn, np.ones((12, 2)))
    with pytest.raises(ValueError, match="algo"):
        make_solver(kuhn, "cfr++")
    assert isinstance(make_solver(kuhn, "cfr"), CFRSolver)


# Leduc --------------------------------------------------------------------------------------------
LEDUC_VALUE = -0.085606424078  # OpenSpiel's exact sequence-form LP value for player 0


@pytest.fixture(scope="module")
def leduc() -> GameTree:
    from poker_envs.games.leduc import LeducGame

    return GameTree.build(LeducGame())


def test_leduc_tree_shape(leduc: GameTree) -> None:
    assert leduc.num_infosets == 936  # as OpenSpiel (suits distinguished)
    assert leduc.num_terminals == 5520


def test_leduc_uniform_policy_exploitability_pinned(leduc: GameTree) -> None:
    # OpenSpiel's figures for UniformRandomPolicy on leduc_poker (exploitability, nash_conv, policy_value).
    res = exploitability(leduc, leduc.uniform_policy())
    assert res.exploitability == pytest.approx(2.373611111111111, abs=1e-12)
    assert res.nash_conv == pytest.approx(4.747222222222222, abs=1e-12)
    np.testing.assert_allclose(res.policy_values, [-0.078125, 0.078125], atol=1e-15)


def test_leduc_dcfr_converges_towards_lp_value(leduc: GameTree) -> None:
    solver = make_solver(leduc, "dcfr")
    solver.iterate(1300)
    res = solver.exploitability()
    assert res.exploitability < 2e-4
    # In a 2-player zero-sum game, the value lies between the best-response values:
    # -br_1 <= v* <= br_0; both bounds tighten with exploitability.
    assert -res.br_values[1] <= LEDUC_VALUE <= res.br_values[0]
    assert res.policy_values[0] == pytest.approx(LEDUC_VALUE, abs=2e-4)
    # solver.exploitability() is the public exploitability of the public average policy.
    assert exploitability(leduc, solver.average_policy()).nash_conv == pytest.approx(res.nash_conv, abs=1e-12)


@pytest.mark.parametrize("weights", [None, [0.2, 0.5, 0.3]])
def test_average_policy_plays_as_the_mixture_of_its_members(leduc: GameTree, weights: list[float] | None) -> None:
    """Kuhn's theorem: against any fixed opponent, the averaged behaviour policy earns what the mixture (one member
    drawn per game) earns, the members' values weighted; the plain row average does not (a differential check
    that needs reach weighting to pass)."""
    from agent_zoo.cfr import average_policy

    rng = np.random.default_rng(5)

    def random_policy() -> np.ndarray:
        p = rng.dirichlet(np.ones(leduc.num_actions), size=leduc.num_infosets) * leduc.legal_mask
        return p / p.sum(axis=1, keepdims=True)

    members, opponent = [random_policy() for _ in range(3)], random_policy()
    w = np.full(3, 1 / 3) if weights is None else np.asarray(weights)
    mixed = average_policy(leduc, members, weights)
    for p in range(2):  # player p averaged, the other fixed
        def profile(own: np.ndarray) -> np.ndarray:
            parts = leduc.split(opponent)
            parts[p] = leduc.split(own)[p]
            return leduc.join(parts)

        mixture = sum(wk * expected_values(leduc, profile(m))[p] for wk, m in zip(w, members))
        assert expected_values(leduc, profile(mixed))[p] == pytest.approx(mixture, abs=1e-12)
        rows = sum(wk * m for wk, m in zip(w, members))
        assert abs(expected_values(leduc, profile(rows))[p] - mixture) > 1e-4
    np.testing.assert_allclose(average_policy(leduc, members[:1]), members[0], atol=1e-12)


def test_average_policy_refuses_bad_weights_and_fills_unreached_infosets(kuhn: GameTree) -> None:
    from agent_zoo.cfr import average_policy

    uniform = kuhn.uniform_policy()
    with pytest.raises(ValueError, match="weights must be 2 non-negative numbers"):
        average_policy(kuhn, [uniform, uniform], [1.0, -1.0])
    with pytest.raises(ValueError, match="weights must be 2"):
        average_policy(kuhn, [uniform, uniform], [1.0])
    with pytest.raises(ValueError, match="at least one policy"):
        average_policy(kuhn, [])
    bettor = uniform.copy()  # player 0 always bets first: its own reach of "Xpb" (after its pass, a bet) is 0
    first = [i for i, k in enumerate(kuhn.infoset_keys) if len(k) == 1]
    later = [i for i, k in enumerate(kuhn.infoset_keys) if k.endswith("pb")]
    assert len(first) == len(later) == 3 and all(kuhn.infoset_player[i] == 0 for i in first + later)
    bettor[first] = [0.0, 1.0]  # action ids 0 pass, 1 bet
    bettor[later] = [0.9, 0.1]
    other = bettor.copy()
    other[later] = [0.2, 0.8]
    mixed = average_policy(kuhn, [bettor, other])
    np.testing.assert_allclose(mixed[later], 0.5)  # unreached by every member: uniform, not either member's row
    np.testing.assert_allclose(mixed[first], bettor[first])
