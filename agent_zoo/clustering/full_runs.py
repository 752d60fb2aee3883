"""Sections 2 and 3 of the results page (the thesis' 5.2 and 5.3) at full scale, one run per seed.

Each seed plays (or reads back) its logs, splits every log at random into 75% that the learners cluster and
train on and 25% that no learner sees, clusters, and scores every log on both parts: "in-sample" (the
training samples, what the thesis reports) and "held-out". A seed's numbers are saved as JSON beside the
page (``docs/results/clustering/<experiment>_seed<s>.json``; a rerun with the same scale reads them back)
and ``full_report`` writes the section from all seeds: spread over seeds, adjusted Rand index between them.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from agent_zoo.clustering import report
from agent_zoo.clustering.agent import ClusteredPolicyAgent
from agent_zoo.clustering.experiments import (
    FULL, PROBE_ROWS_4, PROBE_ROWS_36, QUICK, SESSION_HANDS, Scale, _agents_predict, _cached_logs, _eight_of, _logset,
    _records_to_arrays, expected_style, majority_baseline, probe_frequencies, prospect_logs,
)
from agent_zoo.clustering.kmeans import ClusteringConfig, LogClustering, LogSet, choose_k, held_out_scores, split_logs
from agent_zoo.clustering.learners import SPEC_56, SPEC_107, LearnerSpec
from agent_zoo.clustering.play import play_hands, style
from agent_zoo.clustering.prospect import ProspectAgent, prospect_grid
from agent_zoo.clustering.rule_based import AGENTS
from agent_zoo.clustering.study_design import THESIS_5_10, THESIS_5_11, thesis_numbering


def fit_and_score(spec: LearnerSpec, train: LogSet, test: LogSet, config: ClusteringConfig) -> tuple[Any, dict[str, Any]]:
    """Cluster ``train``; every log's in-sample and held-out score on every learner, and the JSON-able facts."""
    start = time.perf_counter()
    result = LogClustering(spec, config).fit(train, progress=report.PROGRESS)
    secs = time.perf_counter() - start
    held = held_out_scores(result, test, spec)
    own = (np.arange(train.n_logs), result.labels)
    trained = np.bincount(train.owner, minlength=train.n_logs)
    tested = np.bincount(test.owner, minlength=test.n_logs)
    return result, {
        "labels": result.labels.tolist(), "scores_in": result.scores.tolist(), "scores_held": held.tolist(),
        "in_sample": result.scores[own].tolist(), "held_out": held[own].tolist(),
        "baseline": majority_baseline(test).tolist(), "baseline_in": majority_baseline(train).tolist(),
        "pooled": {"in_sample": float(result.scores[own] @ trained / trained.sum()), "held_out": float(held[own] @ tested / tested.sum())},
        "rounds": result.rounds, "converged": result.converged, "fit_secs": secs,
    }


def _config(scale: Scale, seed: int, empty: str, final_epochs: int) -> ClusteringConfig:
    return ClusteringConfig(k=4, init="random", empty=empty, max_rounds=scale.max_rounds, epochs=scale.epochs, batch_size=128, seed=seed, final_epochs=final_epochs)


def _learner_styles(result: Any, data: LogSet, mask: np.ndarray) -> list[list[float]]:  # noqa: ANN401
    """[learner, looseness, aggressiveness] of each used learner's sampling agent on its members' states."""
    out = []
    for j in sorted(set(result.labels.tolist())):
        rows = np.isin(data.owner, np.flatnonzero(result.labels == j))
        out.append([j, *expected_style(result.learners[j], data.x[rows], mask[rows])])
    return out


def agents_seed(scale: Scale, seed: int) -> dict[str, Any]:
    """Section 5.2 for one seed: logs, clustering with a held-out part, Table 5.6 play, choice of k."""
    letters = list(AGENTS)
    start = time.perf_counter()
    arrays = _cached_logs(
        f"agents_{scale.hands}_{seed}",
        lambda: _records_to_arrays(play_hands([AGENTS[c]() for c in letters], scale.hands, _eight_of(12), "flat107", seed, progress=report.PROGRESS)),
    )
    log_secs = time.perf_counter() - start
    data = _logset(arrays, letters)
    train, test = split_logs(data, scale.holdout, np.random.default_rng([seed, 2]))
    result, fit = fit_and_score(SPEC_107, train, test, _config(scale, seed, "reseed", scale.final_epochs))
    used = sorted(set(result.labels.tolist()))
    report.CACHE.mkdir(parents=True, exist_ok=True)
    learners = []
    for j in used:
        members = [c for i, c in enumerate(letters) if result.labels[i] == j]
        for mode in ("sample", "argmax"):
            agent = ClusteredPolicyAgent(result.learners[j], "flat107", mode, name=f"L{j + 1}{'s' if mode == 'sample' else 'a'}")
            agent.save(report.CACHE / f"agents_seed{seed}_learner{j + 1}_{mode}.pt", cluster=j + 1, members=members)
            learners.append(agent)
    pool = [AGENTS[c]() for c in letters] + learners
    start = time.perf_counter()
    records = play_hands(pool, scale.hands, _eight_of(len(pool)), "flat107", seed + 7, progress=report.PROGRESS)
    play_secs = time.perf_counter() - start
    start = time.perf_counter()
    k_config = ClusteringConfig(init="plusplus", max_rounds=scale.max_rounds, epochs=scale.epochs, seed=seed)
    best_k, table_k = choose_k(data, SPEC_107, [1, 2, 3, 4, 5, 6], k_config)
    return {
        "experiment": "agents", "seed": seed, "scale": asdict(scale), "names": letters, "decisions": int(len(data.y)),
        "log_secs": log_secs, "counts": arrays["counts"].tolist(), "chips": arrays["chips"].tolist(), **fit,
        "learner_styles": _learner_styles(result, data, arrays["mask"]),
        "table56": {"names": letters + [a.name for a in learners], "counts": [r.counts.tolist() for r in records],
                    "chips": [float(r.chips) for r in records], "secs": play_secs},
        "choose_k": {"best": best_k, "table": {str(k): v for k, v in table_k.items()}, "secs": time.perf_counter() - start},
    }


def prospect_seed(scale: Scale, seed: int) -> dict[str, Any]:
    """Section 5.3 for one seed on heads-up sessions: the thesis' rule (empty learner kept) and ours (reseeded)."""
    grid = prospect_grid()
    names = [f"a={a:.1f},b={b:.1f}" for a, b in grid]
    start = time.perf_counter()
    arrays = _cached_logs(f"prospect_sessions{SESSION_HANDS}_{scale.samples}_{seed}", lambda: prospect_logs(scale.samples, seed, progress=report.PROGRESS))
    log_secs = time.perf_counter() - start
    data = _logset(arrays, names)
    train, test = split_logs(data, scale.holdout, np.random.default_rng([seed, 2]))
    common = {"experiment": "prospect", "seed": seed, "names": names}
    keep, keep_fit = fit_and_score(SPEC_56, train, test, _config(scale, seed, "keep", 0))
    numbering = thesis_numbering(keep.labels)
    probes = {}
    for table, thesis_cluster, rows in (("5.10", 3, list(THESIS_5_10)), ("5.11", 1, list(THESIS_5_11))):
        ours = [j for j, v in numbering.items() if v == thesis_cluster]
        if ours:
            learner = keep.learners[ours[0]]
            probes[table] = probe_frequencies(lambda x, ln=learner: ln.probabilities(x).argmax(1), rows, scale.probe_draws, seed).tolist()
    reseed, reseed_fit = fit_and_score(SPEC_56, train, test, _config(scale, seed, "reseed", scale.final_epochs))
    member_probes = []
    report.CACHE.mkdir(parents=True, exist_ok=True)
    for j in sorted(set(reseed.labels.tolist())):
        idx = np.flatnonzero(reseed.labels == j)
        learner = reseed.learners[j]
        lf = probe_frequencies(lambda x, ln=learner: ln.probabilities(x).argmax(1), PROBE_ROWS_4 + PROBE_ROWS_36, scale.probe_draws, seed)
        af = probe_frequencies(_agents_predict([ProspectAgent(*grid[i]) for i in idx]), PROBE_ROWS_4 + PROBE_ROWS_36, scale.probe_draws, seed)
        member_probes.append({"learner": j, "learner_freq": lf.tolist(), "members_freq": af.tolist()})
        ClusteredPolicyAgent(learner, "flat56").save(report.CACHE / f"prospect_seed{seed}_learner{j + 1}_sample.pt", cluster=j + 1, members=[names[i] for i in idx])
    late_counts = np.array([np.bincount(data.y[data.owner == i], minlength=3) for i in range(data.n_logs)])
    return {
        **common, "scale": asdict(scale), "decisions": int(len(data.y)), "log_secs": log_secs,
        "fold_share": float((data.y == 0).mean()), "feature0_range": [float(data.x[:, 0].min()), float(data.x[:, 0].max())],
        "keep": {**common, **keep_fit, "thesis_numbering": {str(k): v for k, v in numbering.items()}, "probes": probes},
        "reseed": {**common, **reseed_fit, "member_probes": member_probes, "learner_styles": _learner_styles(reseed, data, arrays["mask"]),
                   "late_styles": [list(style(c)) for c in late_counts]},
    }


RUNNERS = {"agents": agents_seed, "prospect": prospect_seed}


def run_full(experiment: str, quick: bool, seeds: list[int]) -> list[dict[str, Any]]:
    """One run of ``experiment`` per seed (read back from its JSON when saved at this scale), then its section."""
    if experiment not in RUNNERS:
        raise ValueError(f"experiment must be one of {sorted(RUNNERS)}, got {experiment!r}")
    if not seeds or len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct and at least one, got {seeds}")
    scale = QUICK if quick else FULL
    runs = []
    for seed in seeds:
        path = report.figure_path(f"{experiment}{'_quick' if quick else ''}_seed{seed}.json")
        if path.exists():
            saved = json.loads(path.read_text())
            if saved["scale"] == asdict(scale):
                runs.append(saved)
                continue
        print(f"{experiment} seed {seed} ...", flush=True)
        run = RUNNERS[experiment](scale, seed)
        Path(path).write_text(json.dumps(run))
        runs.append(run)
    from agent_zoo.clustering import full_report

    getattr(full_report, f"write_{experiment}")(runs, quick)
    return runs


__all__ = ["agents_seed", "fit_and_score", "prospect_seed", "run_full"]
