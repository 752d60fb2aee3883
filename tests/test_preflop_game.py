"""The solved pre-flop game (``agent_zoo.solver.preflop_game``) and the re-solving agent's ``preflop="solved"``.

Known truths: with only fold / all-in for the button and fold / call for the big blind the game is heads-up
push/fold, so its value and ranges must equal ``agent_zoo.push_fold``'s solver; the tree's chips are checked
against the plan's rules; the agent's pre-flop play and range updates against the solved strategy itself.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from agent_zoo.push_fold.solver import PushFoldSolver, PushFoldSolverConfig, range_percent
from agent_zoo.solver.agent import ResolveAgent
from agent_zoo.solver.agent_config import ResolveConfig, parse_resolve_arg
from agent_zoo.solver.preflop_game import (
    Move,
    PreflopCFR,
    PreflopPlan,
    build_preflop_tree,
    combo_classes,
    solved_preflop,
)
from agent_zoo.solver.range_tracking import bayes_update, board_mask
from agent_zoo.solver.ranges import COMBO_INDEX
from agent_zoo.solver.tree import Act
from poker_envs import nolimit_holdem_v0
from poker_envs.core.cards import cards_from_str

PUSH_FOLD = PreflopPlan(open_to=(), limp=False, raise_multiples=(), max_raises=0)


@pytest.mark.parametrize("stack_bb", [5, 10, 20])
def test_push_fold_plan_equals_the_push_fold_solver(stack_bb: int) -> None:
    exact = PushFoldSolver(PushFoldSolverConfig(stack_bb=stack_bb)).solve()
    cfr = PreflopCFR(2 * stack_bb, 1, 2, PUSH_FOLD)  # chips: blinds 1 and 2
    assert [[m.kind for m in n.moves] for n in cfr.nodes if n.moves] == [[Act.FOLD, Act.ALLIN], [Act.FOLD, Act.CALL]]
    cfr.iterate(1500)
    policy = cfr.average_policy()
    big_blind, button = cfr.values(policy)  # player 0 is the big blind
    assert button + big_blind == pytest.approx(0.0, abs=1e-12)  # zero-sum
    assert button / 2 == pytest.approx(exact.sb_value, abs=2e-5)  # big blinds
    assert cfr.nash_conv(policy) / 2 < 1e-4
    push, call = policy[0][1], policy[next(i for i, n in enumerate(cfr.nodes) if n.moves and n.player == 0)][1]
    assert range_percent(push) == pytest.approx(exact.sb_push_pct, abs=0.3)
    assert range_percent(call) == pytest.approx(range_percent(exact.bb_call), abs=0.3)


def _paths(nodes: Any, index: int = 0, raises: int = 0) -> list[tuple[int, int]]:
    """(terminal index, raises short of all-in on the way) of every line."""
    node = nodes[index]
    if node.terminal:
        return [(index, raises)]
    return [p for m, k in zip(node.moves, node.children) for p in _paths(nodes, k, raises + (m.kind == Act.RAISE))]


@pytest.mark.parametrize("stack", [7, 40, 100, 400])
def test_tree_follows_the_plan_and_the_rules(stack: int) -> None:
    plan = PreflopPlan(open_to=(2.0, 3.0), raise_multiples=(2.5, 4.0), max_raises=3)
    nodes = build_preflop_tree(stack, 1, 2, plan)
    root = nodes[0]
    assert root.player == 1 and root.committed == (2, 1)  # the button acts first, blinds posted
    for index, node in enumerate(nodes):
        for move, child in zip(node.moves, node.children):
            assert move.to <= stack
            max_bet, last_raise = max(node.committed), max(node.committed) - min(node.committed)
            if move.kind in (Act.RAISE, Act.ALLIN):
                assert move.to > max_bet
                assert move.kind == Act.ALLIN or move.to >= max_bet + max(last_raise, 2)  # a full raise
                assert (move.kind == Act.ALLIN) == (move.to == stack)
                assert move.kind == Act.ALLIN or move.to <= plan.allin_share * stack
            kid = nodes[child]
            if kid.terminal == "fold":
                assert kid.folder == node.player and kid.committed == node.committed
            elif kid.terminal == "showdown":
                assert kid.committed[0] == kid.committed[1]
    for terminal, raises in _paths(nodes):
        assert raises <= plan.max_raises
    if stack >= 40:  # deep enough for the sizes: the open to 2 and 3 big blinds and a 4-times re-raise exist
        assert [m.to for m in root.moves] == [1, 2, 4, 6, stack]
        open3 = nodes[root.children[3]]
        assert [m.kind for m in open3.moves][:2] == [Act.FOLD, Act.CALL]
        assert [m.to for m in open3.moves if m.kind == Act.RAISE] == [15, 24]


def test_moves_give_real_raise_sizes() -> None:
    assert Move(Act.RAISE, 5, 2.5, True).real_to(max_bet=2, big_blind=2, all_in_to=100) == 5
    assert Move(Act.RAISE, 5, 2.5, True).real_to(max_bet=2, big_blind=50, all_in_to=10_000) == 125
    assert Move(Act.RAISE, 15, 3.0, False).real_to(max_bet=7, big_blind=2, all_in_to=100) == 21
    assert Move(Act.ALLIN, 100).real_to(max_bet=7, big_blind=2, all_in_to=83) == 83
    with pytest.raises(ValueError, match="only raises"):
        Move(Act.CALL, 2).real_to(2, 2, 100)


def test_plan_refuses_bad_values() -> None:
    with pytest.raises(ValueError, match="open_to"):
        PreflopPlan(open_to=(0.5,))
    with pytest.raises(ValueError, match="max_raises"):
        PreflopPlan(max_raises=-1)
    with pytest.raises(ValueError, match="allin_share"):
        PreflopPlan(allin_share=0.0)
    with pytest.raises(ValueError, match="small_blind"):
        build_preflop_tree(2, 1, 2, PreflopPlan())


def test_solved_game_converges_with_a_strategy_per_holding() -> None:
    solved = solved_preflop(100, 1, 2, PreflopPlan(), 600)
    early = PreflopCFR(100, 1, 2)
    early.iterate(60)
    assert solved.nash_conv < early.nash_conv() / 4 and solved.nash_conv < 0.01  # chips; a big blind is 2
    for node, probs in solved.probs.items():
        assert probs.shape == (len(solved.nodes[node].moves), 1326)
        assert np.allclose(probs.sum(axis=0), 1.0)
        assert np.array_equal(probs[:, combo_classes() == 0], np.repeat(probs[:, [int(np.argmax(combo_classes() == 0))]], 6, axis=1))
    root = solved.nodes[0]
    assert [m.kind for m in root.moves] == [Act.FOLD, Act.CALL, Act.RAISE, Act.ALLIN]
    facing_allin = solved.nodes[root.children[3]]
    assert [m.kind for m in facing_allin.moves] == [Act.FOLD, Act.CALL]
    aa, seven_deuce = COMBO_INDEX[cards_from_str("Ah")[0], cards_from_str("Ad")[0]], COMBO_INDEX[cards_from_str("7c")[0], cards_from_str("2d")[0]]
    call_allin = solved.probs[root.children[3]][1]
    assert call_allin[aa] > 0.99 and call_allin[seven_deuce] < 0.01


def _env(**config: Any) -> Any:
    return nolimit_holdem_v0.raw_env(**{"bet_sizing": "chips", "history": True, "starting_stack": 100, **config})


def test_agent_plays_and_tracks_the_solved_preflop() -> None:
    config = ResolveConfig(seconds=None, max_iterations=3, max_holdings=150, measure=False, preflop="solved",
                           preflop_iterations=300)
    env = _env()
    hero, villain = cards_from_str("Ah Kd"), cards_from_str("7c 2d")
    env.reset(seed=0, options={"button": 0, "hole": [hero, villain]})
    agent = ResolveAgent.for_env(env, config)
    solved = solved_preflop(100, 1, 2, config.preflop_plan, 300)
    obs = env.observe("player_0")  # the button (small blind) to act first
    probs = agent.action_probabilities(obs)
    mine = solved.probs[0][:, COMBO_INDEX[hero[0], hero[1]]]  # fold, call, raise to 5, all-in
    assert probs[0] == pytest.approx(mine[0]) and probs[1] == pytest.approx(mine[1])
    assert probs[6] == pytest.approx(mine[2]) and probs[101] == pytest.approx(mine[3])  # chips sizing: id = to + 1
    assert probs.sum() == pytest.approx(1.0)
    env.step(6)  # the button raises to 5, as the solved game's open
    ranges = agent.ranges(env.observe("player_1"))
    want = bayes_update(board_mask(villain), solved.probs[0][2], config.epsilon, 4)
    assert ranges[1] == pytest.approx(want)  # the big blind's picture of the button's range
    env.step(11)  # the big blind raises to 10 chips, a pot fraction of 0.5: below the tree's re-raise to 15 (1.0)
    late = agent.ranges(env.observe("player_0"))
    assert late[1] == pytest.approx(bayes_update(np.ones(1326), solved.probs[0][2], config.epsilon, 4))
    after_open = solved.nodes[0].children[2]
    facing = solved.nodes[after_open]
    assert [(m.kind, m.to) for m in facing.moves] == [(Act.FOLD, 2), (Act.CALL, 5), (Act.RAISE, 15), (Act.ALLIN, 100)]
    assert late[0] == pytest.approx(bayes_update(board_mask(hero), solved.probs[after_open][2], config.epsilon, 4))
    obs = env.observe("player_0")
    probs = agent.action_probabilities(obs)  # the button facing the re-raise: the solved node after it
    node = facing.children[2]
    mine = solved.probs[node][:, COMBO_INDEX[hero[0], hero[1]]]
    kinds = [m.kind for m in solved.nodes[node].moves]
    assert kinds == [Act.FOLD, Act.CALL, Act.RAISE, Act.ALLIN]  # re-raise to 3 x 10 = 30 chips, id 31
    assert probs[[0, 1, 31, 101]] == pytest.approx(mine)
    assert np.all(probs[np.asarray(obs["action_mask"]) == 0] == 0)


def test_an_all_in_is_read_as_the_trees_all_in() -> None:
    config = ResolveConfig(seconds=None, max_iterations=3, measure=False, preflop_iterations=300)
    env = _env()
    hero = cards_from_str("Ah Kd")
    env.reset(seed=0, options={"button": 0, "hole": [cards_from_str("7c 2d"), hero]})
    agent = ResolveAgent.for_env(env, config)
    solved = solved_preflop(100, 1, 2, config.preflop_plan, 300)
    env.step(101)  # the button moves all-in (to 100 chips)
    ranges = agent.ranges(env.observe("player_1"))
    assert ranges[1] == pytest.approx(bayes_update(board_mask(hero), solved.probs[0][3], config.epsilon, 4))
    probs = agent.action_probabilities(env.observe("player_1"))  # fold or call, as the node after the all-in
    mine = solved.probs[solved.nodes[0].children[3]][:, COMBO_INDEX[hero[0], hero[1]]]
    assert probs[[0, 1]] == pytest.approx(mine) and probs[2:].sum() == 0


def test_preflop_option_in_config_and_spec() -> None:
    assert parse_resolve_arg("preflop=chart,iterations=5").preflop == "chart"
    assert parse_resolve_arg("iterations=5").preflop == "solved"  # the default
    with pytest.raises(ValueError, match="preflop=chart\\|solved"):
        parse_resolve_arg("preflop=nash")
    with pytest.raises(ValueError, match="preflop must be one of chart, solved"):
        ResolveConfig(preflop="nash")
    with pytest.raises(ValueError, match="preflop_iterations"):
        ResolveConfig(preflop_iterations=0)


def test_agent_falls_back_to_the_chart_where_the_abstract_game_does_not_fit() -> None:
    """A table with antes, or a stack no deeper than the big blind, has no abstract game: the chart plays."""
    config = ResolveConfig(seconds=None, max_iterations=3, measure=False, preflop_iterations=50)
    for table in ({"ante": 1}, {"starting_stack": 2}):
        env = _env(**table)
        env.reset(seed=0)
        agent = ResolveAgent.for_env(env, config)
        chart_agent = ResolveAgent.for_env(env, ResolveConfig(seconds=None, max_iterations=3, measure=False, preflop="chart"))
        obs = env.observe(env.agent_selection)
        assert agent.action_probabilities(obs) == pytest.approx(chart_agent.action_probabilities(obs))
