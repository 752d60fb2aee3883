"""Smoke tests of the examples with tiny budgets (each example's full run is its command line default)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def one_torch_thread():
    import torch
    threads = torch.get_num_threads()
    yield
    torch.set_num_threads(threads)


def test_leduc_maskable_ppo_smoke(tmp_path):
    results = load("leduc_maskable_ppo").main(
        ["--timesteps", "512", "--eval-hands", "40", "--cfr-iterations", "50", "--out", str(tmp_path)]
    )
    for stage in ("before", "after_vs_random", "after_vs_cfr"):
        ev = results[stage]
        # Uniform random Leduc play is 2.3736 exploitable; no strategy is worse than the best response's 4.75.
        assert 0.0 < ev["exploitability"] < 4.8
        matches = [v for k, v in ev.items() if k != "exploitability"]
        assert len(matches) == 2 and all(np.isfinite(m) and c >= 0 for m, c in matches)
    assert (tmp_path / "maskable_ppo_leduc.zip").is_file() and (tmp_path / "leduc_cfr+50.npz").is_file()


def test_threshold_game_smoke():
    results = load("threshold_game").main(["--players", "2", "--alpha", "3", "--timesteps", "256", "--copies", "2"])
    assert abs(results["exact_threshold"] - 67) <= 1  # n = 2: (alpha - 1) / alpha of the card range
    assert 0.0 <= results["learned_threshold"] <= 101
    assert results["exploitability_before"] > 0 and results["exploitability_after"] >= 0


def test_rnad_leduc_smoke(tmp_path):
    out = load("rnad_leduc").main(["--steps", "20", "--hands", "40", "--variants", "rnad", "--out", str(tmp_path)])
    assert 0.0 < out["trained"]["rnad"]["exploitability"] < 4.8
    result = out["tournament"]
    assert len(result.agents) == 3 and result.agents[-1].startswith("rnad:")
    assert (tmp_path / "rnad" / "rnad_seed0.npz").is_file()


def test_nolimit_cnn_sb3_smoke(tmp_path):
    module = load("nolimit_cnn_sb3")
    extractor = module.make_extractor_class()
    from gymnasium import spaces

    import torch

    features = extractor(spaces.Box(0.0, 1.0, (33, 17, 17), np.float32), features_dim=16)(torch.zeros(3, 33, 17, 17))
    assert features.shape == (3, 16)
    results = module.main(["--timesteps", "64", "--n-steps", "64", "--epochs", "1", "--eval-hands", "10", "--out", str(tmp_path)])
    for stage in ("before", "after"):
        assert set(results[stage]) == {"random", "heuristic"}
        assert all(np.isfinite(m) for m, _ in results[stage].values())
    assert (tmp_path / "nolimit_cnn_ppo.zip").is_file()


def test_push_fold_chart_smoke(tmp_path):
    import agent_zoo.push_fold.equity as equity
    assert Path(equity.DATA_PATH).is_file(), f"the shipped push/fold equity table {equity.DATA_PATH} is missing"
    out = load("push_fold_chart").main(["--stack", "10", "--ante", "0", "--stacks", "5", "10", "--hands", "40", "--out", str(tmp_path)])
    assert out["png"].is_file() and out["png"].read_bytes()[:4] == b"\x89PNG"
    (s5, push5, call5), (s10, push10, call10) = out["ranges"]
    assert push5 > push10 > 0 and call5 > call10 > 0  # shorter stacks push and call wider
    assert out["tournament"].agents == ["push_fold", "push_fold:20", "random"]


def test_cnn_generations_smoke(tmp_path):
    import agent_zoo.cnn.train
    out = load("cnn_generations").main(
        ["--generations", "1", "--heuristic-hands", "8", "--hands", "4", "--out", str(tmp_path), "--threads", "2"]
    )
    import torch
    assert torch.get_num_threads() == 2  # --threads is applied (the fixture restores the setting)
    assert [p.name for p in out["checkpoints"]] == ["gen_1.pt"] and out["checkpoints"][0].is_file()
    assert out["tournament"].agents == ["random", "heuristic", f"cnn:{out['checkpoints'][0]}"]


def test_leduc_self_play_smoke():
    out = load("leduc_self_play").main(["--generations", "2", "--steps-per-generation", "64", "--n-steps", "64"])
    assert len(out["exploitability"]) == 3 and all(0 < e < 4.8 for e in out["exploitability"])
    assert out["generation"] == 3  # set_learner froze once, then one refresh per generation


def test_sb3_policy_table_rows_are_masked_distributions():
    import sb3_contrib
    from wrappers import SingleAgentEnv
    from wrappers.sb3 import policy_table

    model = sb3_contrib.MaskablePPO("MlpPolicy", SingleAgentEnv("leduc_holdem_v0"), n_steps=32, batch_size=32, seed=0, device="cpu")
    obs = np.zeros((3, 38), dtype=np.float32)
    mask = np.array([[1, 1, 0], [0, 1, 1], [0, 1, 0]], dtype=bool)
    table = policy_table(model, obs, mask)
    np.testing.assert_allclose(table.sum(axis=1), 1.0)
    assert (table[~mask] == 0).all() and table[2].tolist() == [0.0, 1.0, 0.0]
    with pytest.raises(ValueError, match="at least one legal action"):
        policy_table(model, obs, np.zeros((3, 3), dtype=bool))


def test_cluster_logs_smoke(tmp_path):
    import agent_zoo.clustering.kmeans
    out = load("cluster_logs").main(["--hands", "30", "--k", "2", "--rounds", "1", "--tournament-hands", "4", "--out", str(tmp_path), "--threads", "2"])
    import torch
    assert torch.get_num_threads() == 2  # --threads is applied (the fixture restores the setting)
    assert len(out["labels"]) == 12 and set(out["labels"].tolist()) <= {0, 1}
    assert out["policy"].is_file() and out["tournament"].agents[0] == f"cluster:{out['policy']}"


@pytest.mark.parametrize("game", ["leduc", "nolimit"])
def test_vector_ppo_smoke(game):
    from poker_envs import vector
    out = load("vector_ppo").main(["--game", game, "--tables", "8", "--steps", "64", "--n-steps", "4", "--no-progress"])
    assert out["batched"]["steps"] == 64 and out["single"]["steps"] == 32  # one rollout of 8 tables x 4 steps
    assert out["speedup"] > 0 and np.isfinite(out["batched"]["last_rollout_reward"])


def test_jax_ppo_example_smoke(tmp_path):
    # the README recipe's table count (tests/test_recipes.py): the same program, compiled once for both (conftest cache)
    out = load("jax_ppo").main(["--steps", "512", "--num-envs", "256", "--out", str(tmp_path), "--no-progress"])
    assert out["steps"] >= 512 and out["steps_per_second"] > 0
    assert list(tmp_path.glob("checkpoint_*.npz"))


def test_cleanrl_masked_ppo_smoke():
    """A few PPO iterations on make_vec's Leduc tables: no illegal action sampled, finite losses, hands finish
    in every iteration, and the same seed gives the same network."""
    import torch

    torch.set_num_threads(1)  # small networks: one thread is faster (the fixture restores the count)
    module = load("cleanrl_masked_ppo")
    argv = ["--total-timesteps", "1024", "--num-envs", "8", "--num-steps", "32", "--seed", "3", "--no-progress"]
    out = module.main(argv)
    assert out["steps"] == 1024 and out["illegal"] == 0
    assert len(out["hands"]) == 4 and min(out["hands"]) >= 20  # a hand takes a few steps: many end per rollout
    assert all(np.isfinite(v) for v in out["losses"].values()) and out["losses"]["entropy"] > 0
    assert np.isfinite(out["first"]) and np.isfinite(out["last"])
    again = module.main(argv)
    for a, b in zip(out["agent"].parameters(), again["agent"].parameters()):
        assert torch.equal(a, b)
