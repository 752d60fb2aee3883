"""Local best response (agent_zoo.lbr): a lower bound that never beats the exact best response.

Known truths: on Leduc the exact best-response value of any policy is computed on the game tree
(agent_zoo.cfr.best_response), so LBR's mean must not exceed it beyond its CI; the heads-up push/fold
equilibrium chart cannot be beaten (LBR ~0 or below), a chart solved for another stack can.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from agent_zoo.agent import FoldAgent, RandomAgent, stack
from agent_zoo.cfr import GameTree, exploitability, make_solver
from agent_zoo.cfr.agent import TabularPolicyAgent
from agent_zoo.cfr.policy_io import infoset_observations
from agent_zoo.cnn.heuristic import HeuristicAgent
from agent_zoo.lbr import LBRConfig, LocalBestResponse
from agent_zoo.lbr.__main__ import main
from agent_zoo.lbr.ranges import LeducFamily, TwoCardFamily
from agent_zoo.registry import make_agent
from poker_envs import leduc_holdem_v0, nolimit_holdem_v0, push_fold_v0
from poker_envs.core.cards import cards_from_str as str_to_cards


def _leduc_cases(env: object) -> list[tuple[str, TabularPolicyAgent, float]]:
    """(label, agent, exact best-response value averaged over seats): the uniform policy, then CFR+
    average policies after 3, 20 and 200 iterations (ever less exploitable)."""
    tree = GameTree.build(env.unwrapped.game)
    obs = infoset_observations(tree, env.unwrapped.encoder)
    policies = [("uniform", tree.uniform_policy())]
    solver = make_solver(tree, "cfr+")
    done = 0
    for iterations in (3, 20, 200):
        solver.iterate(iterations - done)
        done = iterations
        policies.append((f"cfr+ {iterations}", solver.average_policy()))
    return [(label, TabularPolicyAgent(obs, policy, tree.infoset_keys), float(exploitability(tree, policy).br_values.mean()))
            for label, policy in policies]


@pytest.mark.slow
def test_leduc_lbr_never_beats_exact_best_response() -> None:
    env = leduc_holdem_v0.env()
    previous = np.inf
    for label, agent, exact in _leduc_cases(env):
        result = LocalBestResponse(env, agent).evaluate(3000, seed=7)
        assert result.mean <= exact + result.ci95, (label, result, exact)
        assert exact < previous  # the policies really get less exploitable (the sweep means something)
        previous = exact
    # The random agent plays the uniform policy (exact: about 2.37 chips per hand): LBR finds most of it.
    first = LocalBestResponse(env, RandomAgent()).evaluate(2000, seed=1)
    assert first.mean - first.ci95 > 1.5


@pytest.mark.slow
def test_push_fold_equilibrium_chart_is_not_beaten_but_a_wrong_chart_is() -> None:
    env = push_fold_v0.env(stack_bb=5.0)
    nash = LocalBestResponse(env, make_agent("push_fold", env)).evaluate(400, seed=3)
    assert nash.mean <= nash.ci95
    wrong = LocalBestResponse(env, make_agent("push_fold:40", env)).evaluate(400, seed=3)  # the 40 BB chart: far too tight at 5 BB
    assert wrong.mean - wrong.ci95 > 0


def test_agent_without_probabilities_is_refused() -> None:
    env = leduc_holdem_v0.env()
    with pytest.raises(ValueError, match="cannot give action probabilities"):
        LocalBestResponse(env, FoldAgent())


def test_refuses_tables_it_cannot_play() -> None:
    with pytest.raises(ValueError, match="2 to 6 players; this table has 7"):
        LocalBestResponse(nolimit_holdem_v0.env(num_players=7), RandomAgent())
    with pytest.raises(ValueError, match="raise_fractions"):
        LBRConfig(raise_fractions=(0.0,))


def test_holdem_equity_known_cases() -> None:
    family = TwoCardFamily(rollouts=8)
    rng = np.random.default_rng(0)
    row = {tuple(h): i for i, h in enumerate(family.holdings.tolist())}
    w = np.zeros(len(family.holdings))
    kk = sorted(str_to_cards("KsKh"))
    w[row[tuple(kk)]] = 1.0
    board = str_to_cards("2c7d9hTs3c")
    assert family.win_probability(str_to_cards("AsAh"), board, w, rng) == 1.0  # river: aces beat kings
    assert family.win_probability(str_to_cards("QsQh"), board, w, rng) == 0.0
    w2 = w.copy()
    w2[row[tuple(sorted(str_to_cards("AdAc")))]] = 1.0  # one loss, one tie
    assert family.win_probability(str_to_cards("AsAh"), board, w2, rng) == pytest.approx(0.75)
    # turn: exact over the 44 rivers that leave both hands' cards; only a king (2 left) beats AA
    turn = board[:4]
    assert family.win_probability(str_to_cards("AsAh"), turn, w, rng) == pytest.approx(42 / 44)


def test_card_removal_and_leduc_equity() -> None:
    family = TwoCardFamily()
    assert family.possible(str_to_cards("AsAh")).sum() == 1326 - 101  # combos with As or Ah: 51 + 51 - 1
    leduc = LeducFamily()
    w = np.zeros(6)
    w[0] = 1.0  # a jack (card 0; cards 2k, 2k+1 have rank k)
    assert leduc.win_probability([4], [2], w, np.random.default_rng(0)) == 1.0  # K vs J, public Q
    # pre-flop K vs J: public J (1 of 4 left) makes the pair of jacks
    assert leduc.win_probability([4], [], w, np.random.default_rng(0)) == pytest.approx(0.75)


def test_heuristic_probabilities_match_its_draws() -> None:
    env = nolimit_holdem_v0.env(bet_sizing="chips", starting_stack=100)
    env.reset(seed=0)
    observation = env.observe(env.agent_selection)
    agent = HeuristicAgent(chips_sizing=True)
    probs = agent.action_probabilities(observation)
    assert probs.sum() == pytest.approx(1.0) and np.all(probs[observation["action_mask"] == 0] == 0)
    rng = np.random.default_rng(5)
    draws = np.bincount([agent.act(observation, rng) for _ in range(4000)], minlength=probs.size) / 4000
    assert np.abs(draws - probs).max() < 0.03


def test_cli_json_holdem(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--game", "nolimit", "--agent", "random", "--hands", "6", "--seed", "1", "--json", "--no-progress"])
    out = json.loads(capsys.readouterr().out)
    assert out["hands"] == 6 and out["unit"] == "big_blinds"
    assert out["mbb_per_hand"] == pytest.approx(1000 * out["lbr"]) and out["ci95"] > 0


@pytest.mark.parametrize("bet_sizing", ["chips", "abstract"])
@pytest.mark.parametrize("sizing", ["pot", "min", "uniform"])
def test_heuristic_batch_probabilities_equal_rows_and_draws(bet_sizing: str, sizing: str) -> None:
    env = nolimit_holdem_v0.env(bet_sizing=bet_sizing, starting_stack=100)
    agent = make_agent(f"heuristic:{sizing}", env)
    rng = np.random.default_rng(2)
    observations = []
    for seed in range(6):  # decisions at several nodes: first actions, after a raise, after a call
        env.reset(seed=seed)
        for _ in range(seed % 3 + 1):
            if env.terminations[env.agent_selection]:
                break
            observation = env.observe(env.agent_selection)
            observations.append(observation)
            env.step(agent.act(observation, rng))
    batch = agent.action_probabilities_batch(stack(observations))
    assert np.array_equal(batch, np.stack([agent.action_probabilities(o) for o in observations]))
    # runs of equal rows (a range query) are answered once and copied: the same numbers as row by row
    order = np.repeat(np.arange(len(observations)), rng.integers(1, 5, size=len(observations)))
    repeated = stack([observations[k] for k in order])
    assert np.array_equal(agent.action_probabilities_batch(repeated), batch[order])
    broken = {k: np.array(v) for k, v in repeated.items()}
    broken["action_mask"][order == 1] = 0  # a run with no legal action: its rows named, as row by row
    with pytest.raises(ValueError, match=re.escape(f"rows {np.flatnonzero(order == 1).tolist()} have no legal action")):
        agent.action_probabilities_batch(broken)
    assert np.allclose(batch.sum(axis=1), 1.0) and not np.any(batch[stack(observations)["action_mask"] == 0] > 0)
    # the probabilities are what act draws from: 3,000 draws at the first decision agree within 0.03
    draws = np.bincount([agent.act(observations[0], rng) for _ in range(3000)], minlength=batch.shape[1]) / 3000
    assert np.abs(draws - batch[0]).max() < 0.03
    assert draws[batch[0] == 0].sum() == 0  # never an action outside the reported support


def test_cnn_probabilities_are_its_greedy_choice() -> None:
    import torch
    from agent_zoo.cnn.agent import CNNAgent
    from agent_zoo.cnn.network import PokerCNN

    torch.manual_seed(0)
    env = nolimit_holdem_v0.env(bet_sizing="chips", obs_encoder="poker_cnn", starting_stack=100)
    agent = CNNAgent(PokerCNN(), env)
    env.reset(seed=3)
    observation = env.observe(env.agent_selection)
    probs = agent.action_probabilities(observation)
    assert probs.sum() == 1.0 and probs[agent.act(observation, np.random.default_rng(0))] == 1.0


def test_preflop_memo_changes_nothing_and_is_reused() -> None:
    """Memoised pre-flop answers give the same hands as asking every time (heuristic, chips sizing)."""
    env = nolimit_holdem_v0.env(bet_sizing="chips", starting_stack=100)
    agent = make_agent("heuristic", env)
    plain = LocalBestResponse(env, agent, LBRConfig(preflop_memo=0))
    memo = LocalBestResponse(env, agent)
    rng_a, rng_b = np.random.default_rng(7), np.random.default_rng(7)
    for i in range(6):
        assert plain.play_hand(i % 2, rng_a) == memo.play_hand(i % 2, rng_b)
    assert plain._memo == {} and 0 < len(memo._memo) <= LBRConfig().preflop_memo
    with pytest.raises(ValueError, match="preflop_memo"):
        LBRConfig(preflop_memo=-1)


def test_cnn_range_query_equals_rows_asked_one_by_one() -> None:
    """One batched range query (every holding at a table) == the CNN agent asked per holding."""
    import torch
    from agent_zoo.cnn.agent import CNNAgent
    from agent_zoo.cnn.network import PokerCNN
    from poker_envs.games.base import CHANCE, play_chance

    torch.manual_seed(1)
    env = nolimit_holdem_v0.env(bet_sizing="chips", obs_encoder="poker_cnn", starting_stack=100)
    agent = CNNAgent(PokerCNN(), env, candidates="subset")
    lbr = LocalBestResponse(env, agent)
    state = lbr.new_hand()
    while state.current_player() == CHANCE:
        play_chance(state, np.random.default_rng(0))
    state.apply(7)  # the small blind raises to 6: the big blind answers
    seat = state.current_player()
    rows = np.flatnonzero(lbr.family.possible(list(state.hole[1 - seat])))
    probs = lbr.range_probabilities(state, seat, rows)
    assert probs.shape == (1225, env.unwrapped.game.num_distinct_actions) and np.all(probs.sum(axis=1) == 1.0)
    for k in range(0, 1225, 97):  # a sample of holdings, each asked alone
        one = lbr.family.with_hole(state, seat, lbr.family.holdings[rows[k]])
        np.testing.assert_array_equal(probs[k], agent.action_probabilities(lbr.observe(one, seat)))
    agent.action_probabilities_batch = None  # type: ignore[method-assign]  # asked again: answered from the memo
    np.testing.assert_array_equal(lbr.range_probabilities(state, seat, rows[::2]), probs[::2])
