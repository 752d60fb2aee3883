"""The re-solving agent (``resolve``): translation, Bayes updates worked by hand, full hands, refusals, reproducibility."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from agent_zoo.registry import make_agent, spec_env_options
from agent_zoo.solver.agent import ResolveAgent, summarize
from agent_zoo.solver.agent_config import ResolveConfig, parse_resolve_arg
from agent_zoo.solver.range_tracking import bayes_update, board_mask, thin_range
from agent_zoo.solver.preflop import AGGRESSIVE, equity_against
from agent_zoo.solver.ranges import COMBO_INDEX, NUM_COMBOS
from agent_zoo.solver.translation import (
    pseudo_harmonic,
    raise_fraction,
    translate,
    translation_weights,
)
from agent_zoo.solver.tree import Act
from poker_envs import leduc_holdem_v0, nolimit_holdem_v0
from poker_envs.core.cards import cards_from_str

FAST = ResolveConfig(seconds=None, max_iterations=3, max_holdings=150, flop_samples=2, measure=False)  # two turn samples: their mean is exercised


def _env(**config: Any) -> Any:
    return nolimit_holdem_v0.raw_env(**{"bet_sizing": "chips", "history": True, **config})


# ---- translation ---------------------------------------------------------------------------------------------


def test_pseudo_harmonic_mapping_at_known_points() -> None:
    a, b = 0.5, 1.0
    assert pseudo_harmonic(a, a, b) == 1.0 and pseudo_harmonic(b, a, b) == 0.0
    # ((B - x)(1 + A)) / ((B - A)(1 + x)) at x = 0.75: (0.25 * 1.5) / (0.5 * 1.75) = 3/7
    assert pseudo_harmonic(0.75, a, b) == pytest.approx(3 / 7)
    # against a check (A = 0) and a pot bet (B = 1), a half-pot bet: (0.5 * 1) / (1 * 1.5) = 1/3
    assert pseudo_harmonic(0.5, 0.0, 1.0) == pytest.approx(1 / 3)
    xs = np.linspace(a, b, 101)
    f = np.array([pseudo_harmonic(x, a, b) for x in xs])
    assert np.all(np.diff(f) < 0)  # strictly falling from 1 to 0
    assert pseudo_harmonic(0.1, a, b) == 1.0 and pseudo_harmonic(3.0, a, b) == 0.0
    with pytest.raises(ValueError, match="0 <= a < b"):
        pseudo_harmonic(0.7, 1.0, 0.5)


def test_translation_weights_and_draws() -> None:
    sizes = [1.0, 0.5, 3.0]  # any order
    assert translation_weights(0.75, sizes).tolist() == pytest.approx([4 / 7, 3 / 7, 0.0])
    assert translation_weights(0.2, sizes).tolist() == [0.0, 1.0, 0.0]  # below the smallest: the smallest
    assert translation_weights(9.0, sizes).tolist() == [0.0, 0.0, 1.0]  # above the largest: the largest
    assert translation_weights(1.0, sizes).tolist() == [1.0, 0.0, 0.0]  # on a size: that size
    rng = np.random.default_rng(0)
    draws = np.array([translate(0.75, sizes, rng) for _ in range(20000)])
    assert set(draws.tolist()) == {0, 1}
    assert abs((draws == 1).mean() - 3 / 7) < 0.015  # about 7 standard errors
    # a raise's fraction: raise to 30 facing 10 with 25 in the middle, 5 owed: 20 / 30
    assert raise_fraction(30, 10, 25, 5) == pytest.approx(2 / 3)


# ---- Bayes updates -------------------------------------------------------------------------------------------


def test_bayes_update_worked_by_hand() -> None:
    weights = np.array([1.0, 0.5, 0.25, 0.0])
    likelihood = np.array([0.8, 0.2, 0.4, 1.0])
    # mixed with the uniform over 2 actions: 0.9 p + 0.05 = [0.77, 0.23, 0.41, 0.95]; times the weights:
    # [0.77, 0.115, 0.1025, 0], scaled by 0.77
    out = bayes_update(weights, likelihood, 0.1, 2)
    assert out.tolist() == pytest.approx([1.0, 0.115 / 0.77, 0.1025 / 0.77, 0.0])
    with pytest.raises(ValueError, match="no holding left"):
        bayes_update(np.zeros(3), np.ones(3), 0.1, 2)


def test_preflop_chart_ranks_hands_and_the_raise_update_follows_it() -> None:
    """The button raises: the big blind's picture of its range is the uniform range times the chart's raise
    probability mixed with epsilon; aces are kept, seven-deuce nearly gone."""
    env = _env()
    env.reset(seed=0, options={"button": 0, "hole": [cards_from_str("Ah Ad"), cards_from_str("7c 2d")]})
    agent = ResolveAgent.for_env(env, replace(FAST, preflop="chart"))
    env.step(7)  # seat 0 (button, small blind) raises to 6 chips (chips sizing: id = raise-to + 1)
    obs = env.observe("player_1")
    ranges = agent.ranges(obs)
    chart, eps = FAST.chart, FAST.epsilon
    hero = cards_from_str("7c 2d")
    start = board_mask(hero)  # the opponent cannot hold the big blind's cards
    kinds = chart.kind_probabilities(np.ones(NUM_COMBOS), to_call=1, pot=3, can_raise=True)
    want = bayes_update(start, kinds[AGGRESSIVE], eps, 3)
    assert ranges[1] == pytest.approx(want)  # player 1: in position, the button
    assert ranges[0].tolist() == [1.0] * NUM_COMBOS  # the big blind has not acted: its range is untouched
    aces, trash = COMBO_INDEX[cards_from_str("As")[0], cards_from_str("Ac")[0]], COMBO_INDEX[cards_from_str("7h")[0], cards_from_str("2s")[0]]
    assert ranges[1][aces] == 1.0 and ranges[1][trash] < 0.02
    e = equity_against(np.ones(NUM_COMBOS))
    assert e[aces] == pytest.approx(0.852, abs=0.005) and e[trash] < 0.36


def test_postflop_updates_use_the_solve_the_agent_acted_from() -> None:
    """Both call down to the river; the agent (out of position) checks, the button bets exactly 3/4 pot (a size of
    the tree, so no translation draw): its own range is multiplied by its root strategy's check, the button's by
    the strategy at the node after the check, each mixed with epsilon."""
    env = _env()
    board = cards_from_str("Kh 9d 4c 2s 7h")
    env.reset(seed=0, options={"button": 0, "hole": [cards_from_str("Qs Qd"), cards_from_str("Ah Th")], "board": board})
    agent = ResolveAgent.for_env(env, FAST)
    while True:  # call / check everything to the river
        obs = env.observe(env.agent_selection)
        if obs["public"][5] == 3 and env.agent_selection == "player_1":
            break
        env.step(1)
    solved = agent.solved(obs)
    before = agent.ranges(obs)
    kinds = [a.kind for a in solved.root.actions]
    check = kinds.index(Act.CHECK)
    env.step(1)  # the agent checks
    child = solved.children[check]
    assert child is not None and child.player == 1
    sizes = [a.to for a in child.actions]
    assert 3 in sizes  # 3/4 of the 4-chip pot
    env.step(3 + 1)  # the button bets 3 chips
    after = agent.ranges(env.observe("player_1"))
    eps = FAST.epsilon
    assert after[0] == pytest.approx(bayes_update(before[0], solved.root.probs[check], eps, len(kinds)))
    assert after[1] == pytest.approx(bayes_update(before[1], child.probs[sizes.index(3)], eps, len(child.actions)))
    # the strategies are distributions over the actions for every holding
    assert np.allclose(solved.root.probs.sum(axis=0), 1.0) and np.allclose(child.probs.sum(axis=0), 1.0)


def test_thin_range_is_an_unbiased_sample_of_the_range() -> None:
    rng = np.random.default_rng(12345)
    weights = np.zeros(NUM_COMBOS)
    weights[:800] = 0.1 * rng.random(800)
    weights[:5] = 1.0  # heavy holdings: always kept (inclusion probability 1) with their own weight
    assert thin_range(weights[:900] * (np.arange(900) < 100), 200, rng).tolist() == (weights[:900] * (np.arange(900) < 100)).tolist()
    draws = np.stack([thin_range(weights, 200, np.random.default_rng(s), forced=700) for s in range(600)])
    sizes = (draws > 0).sum(axis=1)
    assert abs(sizes.mean() - 200) < 3 and np.all(draws[:, 700] > 0) and np.all(draws[:, :5] == 1.0)
    mean = draws.mean(axis=0)
    # Horvitz-Thompson: each holding's mean over draws is its weight; over classes of 100 holdings within 5%
    assert np.allclose(mean[:800].reshape(8, 100).sum(axis=1), weights[:800].reshape(8, 100).sum(axis=1), rtol=0.06)
    assert np.all(mean[800:] == 0)


# ---- full hands ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("opponent", ["random", "heuristic"])
def test_plays_full_hands_without_illegal_actions(opponent: str) -> None:
    env = _env()
    agent = ResolveAgent.for_env(env, FAST)
    other = make_agent(opponent, env)
    rng = np.random.default_rng(1)
    postflop = 0
    for hand in range(6):
        env.reset(seed=hand)
        seat = f"player_{hand % 2}"
        while not all(env.terminations.values()):
            name = env.agent_selection
            obs = env.observe(name)
            if name == seat:
                view = agent._view(obs)  # the replayed history agrees with the public state
                now, public = view.moments[-1], view.public
                seats = (1 - public.button, public.button)
                assert now.pot == pytest.approx(public.pot)
                assert now.bets == tuple(public.bets[s] for s in seats)
                assert now.stacks == tuple(public.stacks[s] for s in seats)
                action = agent.act(obs, rng)
                postflop += public.street > 0
            else:
                action = other.act(obs, rng)
            assert obs["action_mask"][action] == 1
            env.step(action)
    counters = summarize(agent.finish_block())
    assert counters.get("fallbacks", 0) == 0
    if opponent == "heuristic":
        assert postflop > 0 and counters["postflop_decisions"] >= postflop and counters["mean_iterations"] == 3


def test_time_budget_is_kept_and_exploitability_reported() -> None:
    env = _env()
    agent = ResolveAgent.for_env(env, ResolveConfig(seconds=0.05, max_holdings=150, flop_samples=2))
    board = cards_from_str("Kh 9d 4c 2s 7h")
    env.reset(seed=0, options={"button": 0, "hole": [cards_from_str("Qs Qd"), cards_from_str("Ah Th")], "board": board})
    while env.observe(env.agent_selection)["public"][5] != 3:
        env.step(1)
    agent.act(env.observe(env.agent_selection), np.random.default_rng(0))
    counters = summarize(agent.finish_block())
    # the river decision, and the agent's own flop (two sampled turn cards) and turn checks solved again to
    # track the ranges (it meets this hand for the first time here)
    assert counters["postflop_decisions"] == 1 and counters["solves"] == 4 and counters["measured"] == 1
    assert counters["mean_iterations"] >= 1 and np.isfinite(counters["mean_exploitability_pct"])
    assert counters["solve_s"] < 1.0


def test_river_iterations_apply_to_river_solves_only() -> None:
    """``river=M``: a solve that starts on the river runs M iterations, the flop's and turn's the usual N."""
    env = _env()
    config = ResolveConfig(seconds=None, max_iterations=2, river_iterations=5, max_holdings=150, measure=False)
    agent = ResolveAgent.for_env(env, config)
    board = cards_from_str("Kh 9d 4c 2s 7h")
    env.reset(seed=0, options={"button": 0, "hole": [cards_from_str("Qs Qd"), cards_from_str("Ah Th")], "board": board})
    while env.observe(env.agent_selection)["public"][5] != 3:
        env.step(1)
    agent.act(env.observe(env.agent_selection), np.random.default_rng(0))
    counters = agent.finish_block()
    # the river decision (5 iterations), and the agent's own flop and turn checks solved again (2 each)
    assert counters["solves"] == 3 and counters["decisions_river"] == 1
    assert counters["iterations_river"] == 5 and counters["iterations"] == 5 + 2 + 2


def test_same_seed_same_actions() -> None:
    """Two agents built from the same spec, fed the same hands and Generators, act alike (fixed iterations)."""

    def play(agent: Any) -> list[int]:
        env = _env()
        other = make_agent("heuristic", env)
        rng, other_rng = np.random.default_rng(4), np.random.default_rng(5)
        actions = []
        for hand in range(3):
            env.reset(seed=10 + hand)
            while not all(env.terminations.values()):
                obs = env.observe(env.agent_selection)
                if env.agent_selection == f"player_{hand % 2}":
                    actions.append(agent.act(obs, rng))
                    env.step(actions[-1])
                else:
                    env.step(other.act(obs, other_rng))
        return actions

    spec = "resolve:iterations=3,seed=7"
    first, second = play(make_agent(spec, _env())), play(make_agent(spec, _env()))
    assert first == second and len(first) >= 4


# ---- refusals and the spec -----------------------------------------------------------------------------------


def test_refuses_other_games_and_envs_without_history() -> None:
    with pytest.raises(ValueError, match=r"heads-up no-limit hold'em \(nolimit with 2 players\) only; this table has 3 players"):
        make_agent("resolve", _env(num_players=3))
    with pytest.raises(ValueError, match="plays heads-up no-limit hold'em .* only, not leduc_poker"):
        make_agent("resolve", leduc_holdem_v0.raw_env())
    with pytest.raises(ValueError, match="history=True"):
        make_agent("resolve", nolimit_holdem_v0.raw_env(bet_sizing="chips"))
    env = _env()
    env.reset(seed=0)
    bare = {k: v for k, v in env.observe(env.agent_selection).items() if k != "history"}  # as local best response builds
    with pytest.raises(ValueError, match=r"observation\['history'\], which this observation lacks"):
        make_agent("resolve", env).action_probabilities(bare)


def test_spec_argument_and_env_options() -> None:
    assert parse_resolve_arg(None).seconds == 1.0
    assert parse_resolve_arg("0.3").seconds == 0.3
    fixed = parse_resolve_arg("iterations=40")
    assert fixed.seconds is None and fixed.max_iterations == 40
    capped = parse_resolve_arg("0.5,iterations=40,seed=3")
    assert (capped.seconds, capped.max_iterations, capped.seed) == (0.5, 40, 3)
    assert parse_resolve_arg("holdings=120,samples=1").max_holdings == 120
    river = parse_resolve_arg("iterations=20,river=200")
    assert (river.seconds, river.max_iterations, river.river_iterations) == (None, 20, 200)
    assert parse_resolve_arg("iterations=20").river_iterations is None
    for bad in ("fast", "iterations=0", "-1", "depth=3", "samples=x", "river=0"):
        with pytest.raises(ValueError, match="agent resolve:"):
            parse_resolve_arg(bad)
    assert dict(spec_env_options("resolve:0.3")) == {"history": True, "bet_sizing": "chips"}
    pot_sized = make_agent("resolve:iterations=2", nolimit_holdem_v0.raw_env(history=True))  # abstract sizing: nearest id
    assert dict(pot_sized.env_options) == {"history": True}


def test_abstract_sizing_plays_legal_ids() -> None:
    env = nolimit_holdem_v0.raw_env(history=True)  # ids: fold, call, 1/2 pot, pot, 2 pots, all-in
    agent = ResolveAgent.for_env(env, FAST)
    other = make_agent("heuristic", env)
    rng = np.random.default_rng(2)
    for hand in range(3):
        env.reset(seed=hand)
        while not all(env.terminations.values()):
            obs = env.observe(env.agent_selection)
            action = (agent if env.agent_selection == "player_0" else other).act(obs, rng)
            assert obs["action_mask"][action] == 1
            env.step(action)
