"""Learner-based clustering of Koyama's thesis, section 4.2.2: planted clusters, empty clusters, seeds, k choice, agents."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agent_zoo.clustering.agent import ClusteredPolicyAgent, load_cluster_agent
from agent_zoo.clustering.experiments import function_logs, majority_baseline
from agent_zoo.clustering.kmeans import ClusteringConfig, LogClustering, LogSet, _reseed_empty, choose_k
from agent_zoo.clustering.learners import SPEC_56, SPEC_107, SPEC_FUNCTION, Learner, LearnerSpec, Scaler, make_mlp
from agent_zoo.clustering.play import play_hands, style
from agent_zoo.clustering.rule_based import AGENTS
from poker_envs.limit_holdem_v0 import raw_env

@pytest.fixture(autouse=True, scope="module")
def _one_torch_thread():  # noqa: ANN202
    """Tiny networks: one thread is faster than several fighting over a shared machine (restored after)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


SMALL = LearnerSpec((4, 16, 3), "classification", "sgd", 0.1, 0.9)


def planted_actions(n_per_group: int = 3, samples: int = 100, seed: int = 0) -> LogSet:
    """Two groups of players: group 0 raises when x0 > 0 else calls; group 1 folds when x0 > 0 else raises."""
    rng = np.random.default_rng(seed)
    logs, names = [], []
    for g in range(2):
        for i in range(n_per_group):
            x = rng.normal(size=(samples, 4)).astype(np.float32)
            y = np.where(x[:, 0] > 0, 2, 1) if g == 0 else np.where(x[:, 0] > 0, 0, 2)
            logs.append((x, y))
            names.append(f"g{g}p{i}")
    return LogSet.from_logs(logs, names)


def groups_recovered(labels: np.ndarray, n_per_group: int = 3) -> bool:
    a, b = labels[:n_per_group], labels[n_per_group:]
    return len(set(a)) == 1 and len(set(b)) == 1 and a[0] != b[0]


def test_thesis_shapes() -> None:
    assert [m.out_features for m in make_mlp(SPEC_107.sizes) if isinstance(m, torch.nn.Linear)] == [64, 64, 3]
    assert SPEC_107.sizes == (107, 64, 64, 3) and SPEC_107.optimizer == "sgd"
    assert SPEC_56.sizes == (56, 64, 64, 64, 3)
    assert SPEC_FUNCTION.sizes == (2, 4, 4, 1) and SPEC_FUNCTION.optimizer == "rmsprop" and SPEC_FUNCTION.task == "regression"


@pytest.mark.parametrize("init", ["random", "plusplus"])
def test_recovers_planted_action_clusters(init: str) -> None:
    data = planted_actions()
    result = LogClustering(SMALL, ClusteringConfig(k=2, init=init, epochs=3, batch_size=64, seed=1)).fit(data)
    assert result.converged and groups_recovered(result.labels)
    own = result.scores[np.arange(6), result.labels]
    assert (own > 0.9).all() and (own >= majority_baseline(data)).all()


def test_function_experiment_small_scale_separates_distant_parameters() -> None:
    # x1^0 + 0 x2 = 1 (flat) against x1^2 + 2 x2 (steep): the regression learners must split them
    data, _ = function_logs(2.0, 48, seed=0)  # the grid {0, 2} x {0, 2}: 4 functions
    keep = [0, 3]  # (p1, p2) = (0, 0) and (2, 2)
    rows = np.isin(data.owner, keep)
    pair = LogSet(data.x[rows], data.y[rows], np.searchsorted(keep, data.owner[rows]), [data.names[i] for i in keep])
    logs = LogSet(np.concatenate([pair.x, pair.x]), np.concatenate([pair.y, pair.y]), np.concatenate([pair.owner * 2, pair.owner * 2 + 1]), ["a0", "a1", "b0", "b1"])
    result = LogClustering(SPEC_FUNCTION, ClusteringConfig(k=2, epochs=20, batch_size=16, seed=0, max_rounds=10)).fit(logs)
    assert result.labels[0] == result.labels[1] != result.labels[2] == result.labels[3]


def test_same_seed_same_result_and_seed_matters_only_through_config() -> None:
    data = planted_actions()
    cfg = ClusteringConfig(k=3, epochs=1, batch_size=64, seed=5, max_rounds=3)
    r1 = LogClustering(SMALL, cfg).fit(data)
    r2 = LogClustering(SMALL, cfg).fit(data)
    assert np.array_equal(r1.labels, r2.labels) and np.array_equal(r1.scores, r2.scores)
    assert all(np.array_equal(a, b) for a, b in zip(r1.history, r2.history))


def test_empty_cluster_reseeded_with_worst_fit_log() -> None:
    scores = np.array([[0.9, 0.1, 0.0], [0.4, 0.2, 0.1], [0.1, 0.8, 0.0], [0.2, 0.7, 0.3]])
    labels = _reseed_empty(np.array([0, 0, 1, 1]), scores, 3)
    assert labels.tolist() == [0, 2, 1, 1]  # log 1 is the worst predicted by its own learner (0.4)
    assert _reseed_empty(np.array([0, 1]), scores[:2], 3).tolist() == [0, 1]  # fewer logs than learners: nothing to move


def test_fit_with_more_learners_than_groups_leaves_none_empty_when_reseeding() -> None:
    data = planted_actions()
    for seed in range(3):
        result = LogClustering(SMALL, ClusteringConfig(k=4, epochs=1, batch_size=64, seed=seed, max_rounds=4)).fit(data)
        assert set(result.labels.tolist()) == {0, 1, 2, 3}
    keep = LogClustering(SMALL, ClusteringConfig(k=4, epochs=1, batch_size=64, seed=0, max_rounds=4, empty="keep")).fit(data)
    assert keep.labels.min() >= 0 and keep.labels.max() < 4


def test_choose_k_finds_two_planted_groups() -> None:
    best, table = choose_k(planted_actions(samples=160), SMALL, [1, 2, 3], ClusteringConfig(epochs=3, batch_size=64, seed=0), tolerance=0.02)
    assert best == 2 and table[2] > table[1] + 0.2


def test_bad_inputs_are_named() -> None:
    with pytest.raises(ValueError, match="init"):
        ClusteringConfig(init="kmeans")
    with pytest.raises(ValueError, match="empty"):
        ClusteringConfig(empty="drop")
    with pytest.raises(ValueError, match="no samples"):
        LogSet.from_logs([(np.zeros((0, 4)), np.zeros(0))], ["x"])
    with pytest.raises(ValueError, match="features"):
        LogClustering(SPEC_107, ClusteringConfig()).fit(planted_actions())


def _agent(seed: int = 0) -> ClusteredPolicyAgent:
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    x = rng.random((64, 107)).astype(np.float32)
    learner = Learner(SPEC_107, Scaler.fit(x))
    learner.train(learner.scaler.x(x), torch.as_tensor(rng.integers(3, size=64)), 1, 32, torch.Generator().manual_seed(seed))
    return ClusteredPolicyAgent(learner, "flat107")


def test_clustered_policy_agent_plays_legal_actions_in_the_env(tmp_path) -> None:  # noqa: ANN001
    sampler = _agent()
    greedy = ClusteredPolicyAgent(sampler.learner, "flat107", mode="argmax")
    pool = [AGENTS[c]() for c in "ABCDEF"] + [sampler, greedy]
    records = play_hands(pool, 120, lambda rng: rng.permutation(8), "flat107", 2)  # the env raises on an illegal action
    assert all(r.hands == 120 for r in records) and records[6].counts.sum() > 0
    assert np.isfinite(style(records[6].counts)[0])
    path = tmp_path / "policy.pt"
    sampler.save(path, cluster=1)
    env = raw_env(num_players=3, obs_encoder="flat107")
    loaded = load_cluster_agent(path, env)
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    assert np.allclose(loaded.action_probabilities(obs), sampler.action_probabilities(obs))
    assert loaded.action_probabilities(obs)[obs["action_mask"] == 0].sum() == 0
    with pytest.raises(ValueError, match="obs_encoder='flat107'"):
        load_cluster_agent(path, raw_env(num_players=2, obs_encoder="flat56"))


def test_flat56_policy_plays_heads_up() -> None:
    from agent_zoo.clustering.prospect import ProspectAgent

    torch.manual_seed(0)
    learner = Learner(SPEC_56, Scaler(np.zeros(56, np.float32), np.ones(56, np.float32)))
    pool = [ClusteredPolicyAgent(learner, "flat56"), ProspectAgent(0.7, 0.7)]
    records = play_hands(pool, 60, lambda rng: [0, 1], "flat56", 4)
    assert records[0].hands == 60 and abs(records[0].chips + records[1].chips) < 1e-9


def test_assignment_on_held_out_samples_still_recovers_planted_groups() -> None:
    data = planted_actions(samples=120)
    cfg = ClusteringConfig(k=2, init="plusplus", epochs=3, batch_size=64, seed=1, assign_holdout=0.3)
    result = LogClustering(SMALL, cfg).fit(data)
    assert groups_recovered(result.labels) and (result.scores[np.arange(6), result.labels] > 0.85).all()
    with pytest.raises(ValueError, match="assign_holdout"):
        ClusteringConfig(assign_holdout=1.0)


def test_fit_and_score_held_out_side_knows_the_planted_rules_and_the_other_group_does_not() -> None:
    from agent_zoo.clustering.full_runs import fit_and_score, run_full
    from agent_zoo.clustering.kmeans import split_logs

    data = planted_actions(samples=160)
    train, test = split_logs(data, 0.25, np.random.default_rng(0))
    _, out = fit_and_score(SMALL, train, test, ClusteringConfig(k=2, init="plusplus", epochs=3, batch_size=64, seed=1))
    labels, held = np.array(out["labels"]), np.array(out["scores_held"])
    assert groups_recovered(labels)
    assert (np.array(out["held_out"]) > 0.9).all()  # each log's own learner on samples it never trained on
    other = held[np.arange(6), 1 - labels]
    assert (other < 0.6).all()  # group 0 raises where group 1 folds: the wrong learner misses about half or more
    tested = np.bincount(test.owner, minlength=6)
    assert out["pooled"]["held_out"] == pytest.approx(np.array(out["held_out"]) @ tested / tested.sum())
    assert out["baseline"] == pytest.approx(majority_baseline(test).tolist())
    with pytest.raises(ValueError, match="experiment"):
        run_full("functions", True, [0])
    with pytest.raises(ValueError, match="seeds"):
        run_full("agents", True, [0, 0])
