"""The JAX trainers' league (``agent_zoo.jax_common.league``): PFSP weights and draws, payoff bookkeeping,
admission and retirement by hand; short league runs of both trainers (counts, JSON, heat map, bit-identical
resume); ``--league 0`` is the trainers' program from before the league."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from agent_zoo.jax_common import league as lg
from agent_zoo.jax_common import network as net
from agent_zoo.jax_ppo import train as P
from agent_zoo.jax_ppo.__main__ import main as ppo_main
from agent_zoo.jax_ppo.config import PPOConfig
from agent_zoo.jax_rnad import train as R
from agent_zoo.jax_rnad.__main__ import main as rnad_main
from agent_zoo.jax_rnad.config import RNaDJaxConfig


def arrays(state: object) -> list[np.ndarray]:
    """Every leaf of a run state as numpy (PRNG keys as their data)."""
    is_key = lambda x: jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key)
    return [np.asarray(jax.random.key_data(x) if is_key(x) else x) for x in jax.tree_util.tree_leaves(state)]


def tiny_league(size: int = 3, num_tables: int = 4) -> lg.LeagueState:
    """A league of ``size`` members whose parameters are one array each, member i's filled with i."""
    state = lg.init({"w": jnp.zeros(2)}, size, num_tables, jax.random.key(0))
    return state._replace(population={"w": jnp.repeat(jnp.arange(size, dtype=jnp.float32)[:, None], 2, axis=1)})


# ---- PFSP -----------------------------------------------------------------------------------------------------
def test_pfsp_weights_and_win_rates_by_hand() -> None:
    x = jnp.array([0.25, 0.5, 0.75])
    # hard, p = 2: (0.75^2, 0.5^2, 0.25^2) / 0.875
    np.testing.assert_allclose(lg.pfsp_weights(x, "hard", 2.0), [0.5625 / 0.875, 0.25 / 0.875, 0.0625 / 0.875], rtol=1e-6)
    np.testing.assert_allclose(lg.pfsp_weights(x, "hard", 1.0), [0.75 / 1.5, 0.5 / 1.5, 0.25 / 1.5], rtol=1e-6)
    np.testing.assert_allclose(lg.pfsp_weights(x, "var", 2.0), [0.3, 0.4, 0.3], rtol=1e-6)  # (3/16, 4/16, 3/16) / (10/16)
    np.testing.assert_allclose(lg.pfsp_weights(x, "uniform", 2.0), [1 / 3] * 3, rtol=1e-6)
    np.testing.assert_allclose(lg.pfsp_weights(jnp.array([1.0, 1.0]), "hard", 2.0), [0.5, 0.5])  # every f 0: uniform
    # 3 wins in 4 hands and an unplayed member, prior 1: (3 + 1/2) / 5 and 1/2
    np.testing.assert_allclose(lg.win_rates(jnp.array([3.0, 0.0]), jnp.array([4, 0]), 1.0), [0.7, 0.5], rtol=1e-6)
    with pytest.raises(ValueError, match="weighting"):
        lg.pfsp_weights(x, "soft", 2.0)


def test_draws_follow_the_weights_and_the_key() -> None:
    key = jax.random.key(7)
    assert (np.asarray(lg.draw(key, jnp.array([0.0, 1.0, 0.0]), 500)) == 1).all()
    draws = np.asarray(lg.draw(key, jnp.array([0.5, 0.0, 0.5]), 20_000))
    assert draws.dtype == np.int32 and set(np.unique(draws)) == {0, 2}
    assert abs((draws == 0).mean() - 0.5) < 0.02
    np.testing.assert_array_equal(draws, np.asarray(lg.draw(key, jnp.array([0.5, 0.0, 0.5]), 20_000)))  # same key, same draws
    skew = np.asarray(lg.draw(key, lg.pfsp_weights(jnp.array([0.25, 0.75]), "hard", 2.0), 20_000))
    assert abs((skew == 0).mean() - 0.9) < 0.02  # (0.5625, 0.0625) / 0.625


def test_member_logits_are_each_tables_member() -> None:
    keys = jax.random.split(jax.random.key(1), 2)
    members = [net.init_params(k, 5, 3, (4,)) for k in keys]
    population = jax.tree_util.tree_map(lambda *x: jnp.stack(x), *members)
    obs = jax.random.normal(jax.random.key(2), (4, 5))
    mask = jnp.array([[1, 1, 1], [1, 0, 1], [0, 1, 1], [1, 1, 0]])
    member = jnp.array([1, 0, 0, 1])
    got = np.asarray(lg.member_logits(population, member, obs, mask))
    for t, m in enumerate([1, 0, 0, 1]):
        want = np.asarray(net.policy_logits(members[m], obs[t:t + 1], mask[t:t + 1], jnp))[0]
        np.testing.assert_allclose(got[t], want, rtol=1e-5, atol=1e-7)  # batched matmuls round alike up to an ulp


# ---- bookkeeping ---------------------------------------------------------------------------------------------
def test_payoff_records_by_hand() -> None:
    state = tiny_league()
    member = jnp.array([[0, 2, 1], [2, 2, 0]])
    chips = jnp.array([[1.5, -2.0, 7.0], [0.0, 3.0, -1.0]])
    ended = jnp.array([[True, True, False], [True, True, True]])  # member 1's hand did not end: not counted
    state = lg.record(state, member, chips, ended)
    np.testing.assert_allclose(state.chips, [1.5 - 1.0, 0.0, -2.0 + 0.0 + 3.0])
    np.testing.assert_allclose(state.wins, [1.0, 0.0, 0.0 + 0.5 + 1.0])  # a tie (0 chips) is half a win
    assert np.asarray(state.hands).tolist() == [2, 0, 3]
    data = lg.payoff(state, lg.LeagueConfig(size=3))
    assert data["counts"][0] == [0, 2, 0, 3] and [row[0] for row in data["counts"]] == [0, 2, 0, 3]
    assert data["matrix"][0] == [None, 0.25, None, pytest.approx(1 / 3)] and data["matrix"][3][0] == pytest.approx(-1 / 3)
    np.testing.assert_allclose(data["win_rate"], [1.5 / 3, 0.5, 2.0 / 4])
    assert sum(data["pfsp"]) == pytest.approx(1.0) and data["admitted"] == [0, 0, 0]


def test_admission_replaces_the_most_beaten_or_the_oldest_member() -> None:
    config = lg.LeagueConfig(size=3, interval=5)
    state = lg.record(tiny_league(), jnp.array([0, 1, 1, 2]), jnp.array([1.0, 2.0, 2.0, -1.0]), jnp.ones(4, bool))
    # x = (1.5/2, 2.5/3, 0.5/2): the learner beats member 1 most
    assert int(lg.retiree(state, config)) == 1
    new = lg.admit(state, {"w": jnp.full(2, 9.0)}, 5, config)
    assert np.asarray(new.population["w"])[:, 0].tolist() == [0.0, 9.0, 2.0] and np.asarray(new.admitted).tolist() == [0, 5, 0]
    assert np.asarray(new.hands).tolist() == [1, 0, 1] and np.asarray(new.chips).tolist() == [1.0, 0.0, -1.0]
    # the new member's row is the learner's record against the others, its column the negation
    assert np.asarray(new.record_chips).tolist() == [[0, -1, 0], [1, 0, -1], [0, 1, 0]]
    assert np.asarray(new.record_hands).tolist() == [[0, 1, 0], [1, 0, 1], [0, 1, 0]]
    # the newest (member 1, x = 1/2 with no record) is spared: of x = (0.75, -, 0.25) member 0 goes
    assert int(lg.retiree(new, config)) == 0
    # ties go to the oldest: members 0 and 2 are even, 2 is older
    tie = new._replace(admitted=jnp.array([3, 5, 1]), wins=jnp.zeros(3), hands=jnp.zeros(3, jnp.int32))
    assert int(lg.retiree(tie, config)) == 2
    assert int(lg.retiree(tie, lg.LeagueConfig(size=3, retire="oldest"))) == 2
    assert int(lg.retiree(state, lg.LeagueConfig(size=3, retire="oldest"))) == 0  # all as old: the lowest index
    # maybe_admit: only at multiples of the interval
    for update, changed in ((4, False), (10, True)):
        after = lg.maybe_admit(state, {"w": jnp.full(2, 9.0)}, update, config)
        assert (np.asarray(after.population["w"]) == 9.0).any() == changed


def test_config_errors_name_the_field() -> None:
    for values, name in (({"size": 1}, "size"), ({"size": -2}, "size"), ({"interval": 0}, "interval"),
                         ({"weighting": "soft"}, "weighting"), ({"power": 0}, "power"), ({"retire": "young"}, "retire"),
                         ({"prior": -1.0}, "prior"), ({"size": True}, "size")):
        with pytest.raises(ValueError, match=f"LeagueConfig.{name} "):
            lg.LeagueConfig(**values)
    for values, name in (({"league": 1}, "league"), ({"league_power": 0.0}, "league_power"), ({"league_retire": "x"}, "league_retire"),
                         ({"league": 2, "mix": (0.0, 1.0, 0.0)}, "league")):
        with pytest.raises(ValueError, match=f"PPOConfig.{name} "):
            PPOConfig(**values)
    for values, name in (({"league_fraction": 0.0}, "league_fraction"), ({"league_interval": 0}, "league_interval"),
                         ({"league_weighting": "hardest"}, "league_weighting")):
        with pytest.raises(ValueError, match=f"RNaDJaxConfig.{name} "):
            RNaDJaxConfig(**values)


def test_cli_league_errors_name_the_flag(capsys: pytest.CaptureFixture[str]) -> None:
    for main in (ppo_main, rnad_main):
        for argv, flag in ((["--league", "-1"], "--league"), (["--league", "1"], "--league"),
                           (["--league", "2", "--set", "league_weighting=soft"], "--set league_weighting")):
            with pytest.raises(SystemExit) as exc:
                main(["train", "--game", "kuhn", "--steps", "10", *argv])
            assert exc.value.code == 2 and f"error: argument {flag}" in capsys.readouterr().err


# ---- runs ------------------------------------------------------------------------------------------------------
# One small Kuhn program per trainer; with league_interval 2 the first update has no admission.
PPO_SET = ["rollout_length=8", "epochs=2", "minibatches=2", "hidden_sizes=32,32", "snapshot_interval=2", "checkpoint_interval=2",
           "league_interval=2"]
PPO = {"game": "kuhn", "num_envs": 16, "rollout_length": 8, "epochs": 2, "minibatches": 2, "hidden_sizes": (32, 32),
       "snapshot_interval": 2, "checkpoint_interval": 2, "league": 3, "league_interval": 2}
RNAD_SET = ["hidden_sizes=32,32", "steps_per_update=20", "reg_update_interval=20", "learning_rate=0.001", "checkpoint_interval=2",
            "league_interval=2", "league_fraction=0.5"]
RNAD = {"game": "kuhn", "batch_size": 32, "hidden_sizes": (32, 32), "steps_per_update": 20, "reg_update_interval": 20,
        "learning_rate": 1e-3, "checkpoint_interval": 2, "league": 3, "league_interval": 2, "league_fraction": 0.5}


def check_payoff(data: dict, hands: int, out: Path) -> None:
    """The learner's counts add up to the hands against the league; the matrix is antisymmetric; the PNG exists."""
    counts, matrix = np.array(data["counts"]), data["matrix"]
    assert counts[0].sum() == hands > 0 and (counts == counts.T).all()
    for i in range(1, len(matrix)):
        if counts[0, i]:
            assert matrix[i][0] == pytest.approx(-matrix[0][i])
    assert Path(data["png"]) == out / "payoff.png" and (out / "payoff.png").stat().st_size > 0


@pytest.mark.slow
def test_ppo_league_run_counts_hands_and_resumes_bit_identically(tmp_path: Path) -> None:
    out = tmp_path / "run"
    summary = tmp_path / "run.json"
    ppo_main(["train", "--game", "kuhn", "--steps", "128", "--num-envs", "16", "--league", "3", "--seed", "2", "--set", *PPO_SET,
              "--out", str(out), "--json", str(summary), "--no-progress"])
    data = json.loads(summary.read_text())
    assert data["updates"] == 1
    check_payoff(data["payoff"], int(data["final"]["hands_vs_frozen"]), out)
    config = PPOConfig(**PPO, total_steps=4 * 128, seed=2)
    resumed = P.train(config, out, progress=False)
    whole = P.train(config, tmp_path / "whole", progress=False)
    assert resumed["resumed_from"] == 1 and resumed["updates"] == 4
    for a, b in zip(arrays(whole["state"]), arrays(resumed["state"]), strict=True):  # the league's leaves too
        np.testing.assert_array_equal(a, b)
    assert max(np.asarray(resumed["state"].league.admitted).tolist()) == 4  # admissions at updates 2 and 4
    assert resumed["payoff"] == whole["payoff"] | {"png": resumed["payoff"]["png"]}


@pytest.mark.slow
def test_rnad_league_run_counts_hands_and_resumes_bit_identically(tmp_path: Path) -> None:
    out = tmp_path / "run"
    summary = tmp_path / "run.json"
    rnad_main(["train", "--game", "kuhn", "--steps", "20", "--batch-size", "32", "--league", "3", "--seed", "2", "--no-progress",
               "--set", *RNAD_SET, "--out", str(out), "--json", str(summary)])
    data = json.loads(summary.read_text())
    assert data["updates"] == 1 and 0 < data["exploitability"] < 1
    check_payoff(data["payoff"], int(data["final"]["league_hands"]), out)
    assert 0.3 * 20 * 32 < data["final"]["league_hands"] < 0.7 * 20 * 32  # league_fraction of the hands
    config = RNaDJaxConfig(**RNAD, total_steps=60, seed=2)
    resumed = R.train(config, out, progress=False, exploitability=False)
    whole = R.train(config, tmp_path / "whole", progress=False, exploitability=False)
    assert resumed["resumed_from"] == 1 and resumed["updates"] == 3
    for a, b in zip(arrays(whole["state"]), arrays(resumed["state"]), strict=True):
        np.testing.assert_array_equal(a, b)
    assert max(np.asarray(resumed["state"].league.admitted).tolist()) == 2


# ---- no league: the program from before ------------------------------------------------------------------------
# Values of the trainers before the league existed, for the tiny programs of tests/test_jax_ppo.py and
# tests/test_jax_rnad.py: the run's PRNG key after the run (exact), the sum of |parameters| (float), the hands.
PPO_TINY = {"game": "leduc", "num_envs": 16, "rollout_length": 8, "epochs": 2, "minibatches": 2, "hidden_sizes": (32, 32),
            "snapshot_interval": 2, "checkpoint_interval": 2}
RNAD_TINY = {"game": "kuhn", "batch_size": 32, "hidden_sizes": (32, 32), "steps_per_update": 100, "reg_update_interval": 100,
             "learning_rate": 1e-3, "target_gamma": 0.01, "two_stage": "ema", "reg_gamma_schedule": True, "checkpoint_interval": 2}
BEFORE_PPO = {"key": [161306060, 2490797244], "params": 859.686263, "frozen": 859.686263, "hands": [19.0, 7.0, 5.0],
              "learner_decisions": 81.0}
BEFORE_RNAD = {"key": [747145303, 2207824306], "params": 590.375632, "reg": 566.313152, "hand_length": 2.214375}


def abs_sum(params: dict) -> float:
    return float(sum(np.abs(np.asarray(x, np.float64)).sum() for x in jax.tree_util.tree_leaves(params)))


@pytest.mark.slow
def test_no_league_is_the_program_from_before(tmp_path: Path) -> None:
    ppo = P.train(PPOConfig(**PPO_TINY, total_steps=2 * 128, seed=5), tmp_path / "ppo", progress=False)
    state = ppo["state"]
    assert state.league is None and "payoff" not in ppo
    assert np.asarray(jax.random.key_data(state.key)).tolist() == BEFORE_PPO["key"]
    assert abs_sum(state.params) == pytest.approx(BEFORE_PPO["params"], rel=1e-5)
    assert abs_sum(state.frozen) == pytest.approx(BEFORE_PPO["frozen"], rel=1e-5)
    assert [ppo["final"][f"hands_vs_{k}"] for k in ("frozen", "random", "self")] == BEFORE_PPO["hands"]
    assert ppo["final"]["learner_decisions"] == BEFORE_PPO["learner_decisions"]
    with np.load(tmp_path / "ppo" / "checkpoint_2.npz") as saved:
        assert not [k for k in saved.files if "league" in k]  # the checkpoint's arrays as before

    rnad = R.train(RNaDJaxConfig(**RNAD_TINY, total_steps=100, seed=4), progress=False, exploitability=False)
    state = rnad["state"]
    assert state.league is None and "payoff" not in rnad
    assert np.asarray(jax.random.key_data(state.key)).tolist() == BEFORE_RNAD["key"]
    assert abs_sum(state.params) == pytest.approx(BEFORE_RNAD["params"], rel=1e-5)
    assert abs_sum(state.reg) == pytest.approx(BEFORE_RNAD["reg"], rel=1e-5)
    assert rnad["final"]["hand_length"] == pytest.approx(BEFORE_RNAD["hand_length"], rel=1e-6)


@pytest.mark.slow
def test_readme_league_recipe_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The README's league example as written: it learns (below the uniform policy's exploitability), prints the
    payoff row and writes the heat map."""
    from tests.doc_blocks import recipe

    monkeypatch.chdir(tmp_path)
    exec(compile(recipe("jax-league"), "README.md:jax-league", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    value, uniform = (float(x) for x in re.findall(r"\d+\.\d+", lines[0]))  # exploitability 0.xxx (uniform policy 0.458)
    assert value < uniform == pytest.approx(0.458, abs=1e-3)
    assert lines[1].startswith("theta's chips per hand against each member:") and lines[2].startswith("hands:")
    assert (tmp_path / "out" / "league_kuhn" / "payoff.png").stat().st_size > 0
