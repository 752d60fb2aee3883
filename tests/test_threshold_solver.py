"""Threshold game: exact action values against enumeration with the rules' payoffs, the analytic n = 2
equilibrium, self-consistency (zero exploitability) of the table, the sampled RM and the agent."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from agent_zoo.threshold.__main__ import main as threshold_main
from agent_zoo.threshold.agent import ThresholdAgent
from agent_zoo.threshold.solver import (
    ThresholdSolverConfig,
    action_values,
    best_response_gain,
    exploitability,
    nash_conv,
    sampled_regret_matching,
    solve_threshold,
    threshold_strategy,
)
from poker_envs.games.threshold import threshold_payoffs


def _enumerated_values(
    beta: np.ndarray, n: int, alpha: float, num_cards: int = 101
) -> tuple[np.ndarray, np.ndarray]:
    """Bet and fold values per card for seat 0 by enumerating every deal and every opponent move."""
    cards = np.array([d for d in itertools.permutations(range(num_cards), n)])
    bet, fold = np.zeros(num_cards), np.zeros(num_cards)
    for moves in itertools.product((0, 1), repeat=n - 1):
        others = np.array(moves, dtype=bool)
        prob = np.prod(np.where(others, beta[cards[:, 1:]], 1 - beta[cards[:, 1:]]), axis=1)
        for own, out in ((1, bet), (0, fold)):
            acts = np.concatenate([np.full((len(cards), 1), own, bool), np.broadcast_to(others, (len(cards), n - 1))], 1)
            pay = threshold_payoffs(cards, acts, alpha)[:, 0]
            out += np.bincount(cards[:, 0], weights=prob * pay, minlength=num_cards)
    count = np.bincount(cards[:, 0], minlength=num_cards)
    return bet / count, fold / count


def test_action_values_match_enumeration_two_players_mixed_strategy() -> None:
    beta = np.random.default_rng(3).random(101)
    bet, fold = action_values(beta, ThresholdSolverConfig(2, 2.5))
    ref_bet, ref_fold = _enumerated_values(beta, 2, 2.5)
    np.testing.assert_allclose(bet, ref_bet, atol=1e-12)
    np.testing.assert_allclose(fold, ref_fold, atol=1e-12)


def test_action_values_match_enumeration_three_players_mixed_strategy() -> None:
    beta = threshold_strategy(60.4, 101)  # bets from 61, card 60 with probability 0.6
    beta[20] = 0.3
    bet, fold = action_values(beta, ThresholdSolverConfig(3, 3.0))
    ref_bet, ref_fold = _enumerated_values(beta, 3, 3.0)
    np.testing.assert_allclose(bet, ref_bet, atol=1e-12)
    np.testing.assert_allclose(fold, ref_fold, atol=1e-12)


def test_action_values_match_enumeration_small_decks_many_players() -> None:
    rng = np.random.default_rng(5)
    for n, cards, alpha in ((4, 9, 2.5), (5, 8, 4.0), (3, 4, 1.2)):
        beta = rng.random(cards)
        bet, fold = action_values(beta, ThresholdSolverConfig(n, alpha, cards))
        ref_bet, ref_fold = _enumerated_values(beta, n, alpha, cards)
        np.testing.assert_allclose(bet, ref_bet, atol=1e-12)
        np.testing.assert_allclose(fold, ref_fold, atol=1e-12)


def test_other_settings_have_exact_threshold_equilibria() -> None:
    for n, cards, alpha in ((2, 5, 1.1), (3, 13, 7.3), (4, 30, 20.0), (12, 101, 2.0), (5, 5, 3.0)):
        res = solve_threshold(n, alpha, cards)
        assert res.threshold == int(res.threshold) and res.nash_conv <= 1e-12


@pytest.mark.parametrize("alpha", [2.0, 3.0, 4.0, 1.5, 6.0])
def test_two_players_match_the_analytic_threshold(alpha: float) -> None:
    # Continuous cards: the threshold is (alpha - 1) / alpha of the range; with 101 cards within one card.
    res = solve_threshold(2, alpha)
    assert abs(res.threshold - 100 * (alpha - 1) / alpha) <= 1.0
    assert res.nash_conv <= 1e-12


def test_document_settings_are_exact_equilibria_and_neighbours_are_not() -> None:
    table = {}
    for n in range(2, 11):
        for alpha in (2.0, 3.0, 4.0):
            res = solve_threshold(n, alpha)
            cfg = res.config
            assert res.nash_conv <= 1e-12 and res.exploitability <= 1e-12
            # Best response to itself: bet exactly where betting is worth at least folding.
            np.testing.assert_array_equal(res.bet_value[res.strategy == 1] >= res.fold_value[res.strategy == 1], True)
            np.testing.assert_array_equal(res.bet_value[res.strategy == 0] <= res.fold_value[res.strategy == 0] + 1e-12, True)
            for wrong in (res.threshold - 2, res.threshold + 2):
                assert nash_conv(threshold_strategy(wrong, 101), cfg) > 1e-4
            table[(n, alpha)] = res.threshold
    # Known figures: n = 2 analytic; higher odds and more players need better cards.
    assert [table[(2, a)] for a in (2.0, 3.0, 4.0)] == [50, 67, 75]
    for n in range(2, 10):
        for alpha in (2.0, 3.0, 4.0):
            assert table[(n + 1, alpha)] >= table[(n, alpha)]
        assert table[(n, 2.0)] < table[(n, 3.0)] < table[(n, 4.0)]
    # Within 3 cards of the document's sampled table everywhere (its n = 2 row is biased low).
    document = {2: (49, 65, 72), 6: (71, 78, 83), 10: (79, 84, 87)}
    for n, row in document.items():
        for alpha, value in zip((2.0, 3.0, 4.0), row):
            assert abs(table[(n, alpha)] - value) <= 3


def test_exploitability_is_nash_conv_over_players() -> None:
    cfg = ThresholdSolverConfig(4, 3.0)
    beta = threshold_strategy(50, 101)
    assert nash_conv(beta, cfg) == pytest.approx(4 * exploitability(beta, cfg))
    assert exploitability(beta, cfg) > 0.01


def test_sampled_regret_matching_lands_near_but_worse_than_exact() -> None:
    res = sampled_regret_matching(3, 3.0, 30_000, np.random.default_rng(0), batch=100)
    exact = solve_threshold(3, 3.0)
    assert abs(res.threshold - exact.threshold) <= 4
    assert res.exploitability > exact.exploitability


def test_agent_plays_the_threshold_env() -> None:
    from poker_envs.threshold_v0 import parallel_env

    env = parallel_env(num_players=3, alpha=3.0)
    agent = ThresholdAgent()
    t = solve_threshold(3, 3.0).threshold
    rng = np.random.default_rng(0)
    for seed in range(20):
        obs, _ = env.reset(seed=seed)
        actions = {a: agent.act(o, rng) for a, o in obs.items()}
        for seat, a in enumerate(env.possible_agents):
            assert actions[a] == int(env.state.cards[seat] >= t)
        env.step(actions)


def test_cli_json_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    threshold_main(["--json", "--players", "2", "3", "--alphas", "2", "4"])
    rows = json.loads(capsys.readouterr().out)
    assert [(r["n"], r["alpha"], r["threshold"]) for r in rows] == [(2, 2.0, 50), (2, 4.0, 75), (3, 2.0, 58), (3, 4.0, 78)]
    with pytest.raises(SystemExit):
        threshold_main(["--alphas", "1"])
    with pytest.raises(ValueError, match="alpha"):
        ThresholdSolverConfig(3, 0.5)
    with pytest.raises(ValueError, match="num_players"):
        ThresholdSolverConfig(1, 2.0)


def test_best_response_gain_matches_a_walk_of_the_rules_game_tree() -> None:
    """Two players, every deal played through ThresholdGame states: each seat's best-response gain."""
    from poker_envs.games.threshold import ThresholdConfig, ThresholdGame

    alpha = 3.0
    beta = np.random.default_rng(11).random(101)
    game = ThresholdGame(ThresholdConfig(num_players=2, alpha=alpha))
    # q[seat, card, own action]: expected return when the other seat plays beta.
    q = np.zeros((2, 101, 2))
    current = np.zeros(2)
    for c0 in range(101):
        for c1 in range(101):
            if c0 == c1:
                continue
            root = game.new_initial_state(deal=[c0, c1])
            root.apply(c0)
            root.apply(c1)
            for a0 in (0, 1):
                for a1 in (0, 1):
                    state = root.child(a0)
                    state.apply(a1)
                    ret = state.returns()
                    p0 = beta[c0] if a0 else 1 - beta[c0]
                    p1 = beta[c1] if a1 else 1 - beta[c1]
                    q[0, c0, a0] += p1 * ret[0] / 10100
                    q[1, c1, a1] += p0 * ret[1] / 10100
                    current += p0 * p1 * ret / 10100
    gains = q.max(axis=2).sum(axis=1) - current
    cfg = ThresholdSolverConfig(2, alpha)
    np.testing.assert_allclose(gains, best_response_gain(beta, cfg), atol=1e-12)
    assert nash_conv(beta, cfg) == pytest.approx(gains.sum(), abs=1e-12)


@pytest.mark.parametrize("n, alpha", [(2, 3.0), (5, 2.0)])
def test_per_deal_regret_matching_is_the_array_procedure_bit_for_bit(n: int, alpha: float) -> None:
    """The per-deal path (batch=1, plain floats) against the document's procedure written with the rules'
    array payoffs, deal by deal from the same generator: the same regrets, exactly."""
    from agent_zoo.threshold.solver import BET, FOLD, _per_deal_regrets, regret_matching_strategy
    from poker_envs.games.threshold import NUM_CARDS, threshold_payoffs

    fast = _per_deal_regrets(n, alpha, 400, np.random.default_rng(7), progress=False)
    rng, regrets, eye = np.random.default_rng(7), np.zeros((NUM_CARDS, 2)), np.eye(n, dtype=bool)
    for _ in range(400):
        cards = np.argsort(rng.random((1, NUM_CARDS)), axis=1)[:, :n]
        bets = rng.random((1, n)) < regret_matching_strategy(regrets)[cards]
        actual = threshold_payoffs(cards, bets, alpha)
        variants, all_cards = np.broadcast_to(bets[:, None, :], (1, n, n)), np.broadcast_to(cards[:, None, :], (1, n, n))
        np.add.at(regrets[:, FOLD], cards.ravel(), (threshold_payoffs(all_cards, variants & ~eye, alpha)[:, eye] - actual).ravel())
        np.add.at(regrets[:, BET], cards.ravel(), (threshold_payoffs(all_cards, variants | eye, alpha)[:, eye] - actual).ravel())
    assert np.abs(regrets).sum() > 0 and np.array_equal(fast, regrets)
