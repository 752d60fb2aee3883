"""Multi-way push/fold: the exact class-triple distribution, the class-level game against brute-force
tensor sums and against the exact heads-up solver, the out-of-sample NashConv estimator against exact
heads-up figures, the chart and the CLI's JSON."""

from __future__ import annotations

import functools
import itertools
import json

import numpy as np
import pytest

from agent_zoo.push_fold.class_game import C, three_way_counts, three_way_tables, triple_class_counts
from agent_zoo.push_fold.equity import load_equity
from agent_zoo.push_fold.hands import class_from_name
from agent_zoo.push_fold.multiway import MultiwayPushFoldSolver, main
from agent_zoo.push_fold.multiway_game import (
    MultiwayConfig,
    betting_profiles,
    sample_deals,
    sample_values,
    terminal_payoffs,
)
from agent_zoo.push_fold.out_of_sample import out_of_sample_nash_conv
from agent_zoo.push_fold.solver import PushFoldSolver, PushFoldSolverConfig
from poker_envs.core.evaluator import evaluate_batch
from poker_envs.games.push_fold import settle

FAST_EVAL = functools.partial(evaluate_batch, check=False)


@pytest.mark.slow
def test_triple_class_counts_are_exact() -> None:
    counts = triple_class_counts()
    assert counts.sum() == 1326 * 1225 * 1128  # ordered triples of disjoint combinations
    aa, kk, aks = class_from_name("AA"), class_from_name("KK"), class_from_name("AKs")
    assert counts[aa, aa, aa] == 0  # only four aces
    assert counts[aa, aa, kk] == 6 * 1 * 6  # the second AA is the other two aces
    # AKs needs an ace and a king of one suit neither pair holds: summed over the 36 pairs of pairs, 36
    assert counts[aa, kk, aks] == 36
    np.testing.assert_array_equal(counts, counts.transpose(1, 0, 2))
    np.testing.assert_array_equal(counts, counts.transpose(0, 2, 1))
    # Every third combination avoiding two disjoint ones: C(48, 2) per pair.
    np.testing.assert_array_equal(counts.sum(axis=2), load_equity().pair_counts * 1128)


def test_heads_up_through_the_class_level_game_is_the_exact_heads_up_game() -> None:
    cfg = MultiwayConfig(num_players=2, stack_bb=10.0, ante_bb=0.125, iterations=400, check_every=400, eval_deals=0)
    result = MultiwayPushFoldSolver(cfg).solve()
    assert result.method == "tables"
    exact = PushFoldSolver(PushFoldSolverConfig(stack_bb=10.0, ante_bb=0.125))
    push, call = result.strategy[0][0], result.strategy[1][1]
    # The class-level NashConv is the exact heads-up NashConv of the same strategies.
    assert result.nash_conv == pytest.approx(exact.nash_conv(push, call), rel=1e-9, abs=1e-12)
    assert result.nash_conv < 2e-4
    best = exact.solve()
    assert abs(result.push_range_pct(0) - best.sb_push_pct) < 1.0
    assert abs(result.push_range_pct(1, 1) - best.bb_call_pct) < 1.0


@pytest.mark.slow
def test_three_player_values_equal_brute_force_tensor_sums() -> None:
    solver = MultiwayPushFoldSolver(MultiwayConfig(num_players=3, table_deals=20_000, eval_deals=0), FAST_EVAL)
    game = solver.tables
    rng = np.random.default_rng(3)
    strategy = [rng.random((1 << s, C)) for s in range(3)]
    fast = game.values(strategy)
    ref = [np.zeros_like(v) for v in fast]
    axes = range(3)
    for prof, per_seat in zip(solver.profiles, game.terms):
        factors = [None if a == -1 else (strategy[t][prof.prefixes[t]] if a == 1 else 1 - strategy[t][prof.prefixes[t]])
                   for t, a in enumerate(prof.actions)]  # fmt: skip
        for s, a in enumerate(prof.actions):
            if a == -1:
                continue
            kind, data = per_seat[s]
            if kind == "const":
                tensor = game.joint * data
            elif kind == "pair":
                i, j, h = data
                tensor = game.joint * np.expand_dims(h, [x for x in axes if x not in (i, j)][0])
            else:
                tensor = np.moveaxis(game.three_way_flat[s].reshape(C, C, C), 0, s)
            for t in axes:
                if t != s and factors[t] is not None:
                    tensor = tensor * np.expand_dims(factors[t], [x for x in axes if x != t])
            ref[s][prof.prefixes[s], a] += tensor.sum(axis=tuple(x for x in axes if x != s))
    for v, r in zip(fast, ref):
        np.testing.assert_allclose(v, r, atol=1e-14)


def test_three_way_table_equals_settling_every_deal_in_every_seat_order(tmp_path) -> None:
    cfg = MultiwayConfig(num_players=3, stack_bb=10.0, ante_bb=0.125, rake=0.05, rake_cap_bb=1.0)
    game = cfg.game_config()
    allin = next(p for p in betting_profiles(game) if p.live.all())
    counts = three_way_counts(3000, 5, FAST_EVAL, chunk=1000, cache_dir=tmp_path)
    np.testing.assert_array_equal(three_way_counts(3000, 5, FAST_EVAL, cache_dir=tmp_path), counts)  # read back
    table = three_way_tables(game, allin.contributions, counts)
    ref = np.zeros((3, C, C, C))
    for k in range(3):  # the same deals: chunk k comes from the stream [seed, k]
        sample = sample_deals(3, 1000, np.random.default_rng([5, k]), FAST_EVAL)
        for cls, strength in zip(sample.classes, sample.strengths):
            for perm in itertools.permutations(range(3)):
                best = strength[list(perm)] == strength.max()
                pay = settle(game, allin.contributions, [True] * 3, [int(b) for b in best])
                ref[(slice(None), *cls[list(perm)])] += pay
    np.testing.assert_allclose(table, ref / (6 * 3000), atol=1e-12)
    assert counts[0].sum() == 6 * 3000


def test_sampled_method_heads_up_converges_to_the_exact_heads_up_game() -> None:
    # Fresh deals every iteration: the average strategy approaches the real game's equilibrium.
    cfg = MultiwayConfig(num_players=2, method="sampled", deals=5000, iterations=150, eval_deals=0)
    result = MultiwayPushFoldSolver(cfg, FAST_EVAL).solve()
    exact = PushFoldSolver(PushFoldSolverConfig(stack_bb=10.0))
    assert exact.nash_conv(np.full(C, 0.5), np.full(C, 0.5)) > 0.3  # where CFR starts
    assert exact.nash_conv(result.strategy[0][0], result.strategy[1][1]) < 0.01
    best = exact.solve()  # 750k deals in all: range sizes within a few points (the noise of this budget)
    assert abs(result.push_range_pct(0) - best.sb_push_pct) < 3.5
    assert abs(result.push_range_pct(1, 1) - best.bb_call_pct) < 3.5
    assert result.nash_conv is None and result.as_dict()["method"] == "sampled"


def test_sample_values_and_payoffs_equal_deal_by_deal_settlement() -> None:
    cfg = MultiwayConfig(num_players=4, stack_bb=10.0, ante_bb=0.125, rake=0.05, rake_cap_bb=1.0)
    game, profiles = cfg.game_config(), betting_profiles(cfg.game_config())
    sample = sample_deals(4, 300, np.random.default_rng(2), FAST_EVAL)
    payoffs = terminal_payoffs(game, profiles, sample)
    rng = np.random.default_rng(4)
    strategy = [rng.random((1 << s, C)) for s in range(4)]
    ref = [np.zeros((1 << s, 2, C)) for s in range(4)]
    for prof, pay in zip(profiles, payoffs):
        for d, (cls, strength) in enumerate(zip(sample.classes, sample.strengths)):
            top = max(strength[s] for s in range(4) if prof.live[s])
            best = [int(prof.live[s] and strength[s] == top) for s in range(4)]
            expected = settle(game, prof.contributions, list(prof.live), best if prof.live.sum() > 1 else None)
            np.testing.assert_allclose(pay[d], expected, atol=1e-12)
            probs = [1.0 if a == -1 else (strategy[t][prof.prefixes[t], cls[t]] if a == 1 else 1 - strategy[t][prof.prefixes[t], cls[t]])
                     for t, a in enumerate(prof.actions)]  # fmt: skip
            for s, a in enumerate(prof.actions):
                if a >= 0:
                    ref[s][prof.prefixes[s], a, cls[s]] += expected[s] * np.prod([probs[t] for t in range(4) if t != s])
    for v, r in zip(sample_values(profiles, strategy, sample, payoffs), ref):
        np.testing.assert_allclose(v, r, atol=1e-10)


def test_out_of_sample_estimate_brackets_exact_heads_up_nash_conv() -> None:
    solver = MultiwayPushFoldSolver(MultiwayConfig(num_players=2, iterations=10, eval_deals=0), FAST_EVAL)
    exact = PushFoldSolver(PushFoldSolverConfig(stack_bb=10.0))
    good = exact.solve()
    always = np.ones(C)
    for push, call in ((good.sb_push, good.bb_call), (always, always)):
        strategy = [push[None, :], np.stack([np.zeros(C), call])]
        truth = exact.nash_conv(push, call)
        oos = out_of_sample_nash_conv(solver.game, solver.profiles, strategy, 200_000, 11, FAST_EVAL)
        # cross-fitted: a lower bound in expectation, tight when the gains are large; plug-in: an upper one
        assert oos["nash_conv"] <= truth + 3 * oos["nash_conv_stderr"] + 1e-12
        assert oos["plugin"] > truth - 0.01
        if truth > 0.5:  # large gains are found on one half and confirmed on the other
            assert oos["nash_conv"] > 0.75 * truth


def test_cli_json_and_multiway_chart(tmp_path, capsys) -> None:
    main(["--players", "3", "--method", "deals", "--deals", "3000", "--iterations", "5", "--check-every", "5",
          "--eval-deals", "4000", "--json", "--out", str(tmp_path)])  # fmt: skip
    png = tmp_path / "push_fold_3p_10bb_ante0.png"
    out = json.loads(capsys.readouterr().out)
    assert out["players"] == 3 and out["method"] == "deals"
    for key in ("nash_conv_out_of_sample", "nash_conv_out_of_sample_stderr", "nash_conv_in_sample"):
        assert isinstance(out[key], float)
    assert len(out["ranges_pct"]) == 6 and all(0 <= v <= 100 for v in out["ranges_pct"].values())
    assert png.stat().st_size > 10_000


def test_bad_settings_are_rejected() -> None:
    with pytest.raises(ValueError, match="method"):
        MultiwayConfig(method="exact")
    with pytest.raises(ValueError, match="tables"):
        MultiwayConfig(num_players=4, method="tables")
    assert MultiwayConfig(num_players=4).resolved_method == "sampled"
    with pytest.raises(ValueError, match="eval_deals"):
        MultiwayConfig(eval_deals=10)


def test_others_reach_is_the_product_of_the_other_seats_factors() -> None:
    # prefix/suffix products against the plain product, with absent seats (None) and pure-strategy zeros
    from agent_zoo.push_fold.multiway_game import others_reach

    rng = np.random.default_rng(3)
    factors = [rng.random(5), None, np.array([0.0, 1.0, 0.5, 0.0, 0.25]), rng.random(5), None]
    for s, got in enumerate(others_reach(factors)):
        want = np.ones(5)
        for t, f in enumerate(factors):
            if t != s and f is not None:
                want = want * f
        np.testing.assert_allclose(got, want, rtol=1e-15)
    assert others_reach([None, None]) == [1.0, 1.0]
