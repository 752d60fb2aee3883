"""Several-seed study of the clustering: held-out accuracy, agent-pool sensitivity, cluster
stability across seeds (adjusted Rand index) and the prospect-theory experiment on heads-up sessions.

Three experiments, each run once per seed (a seed draws the logs, the held-out split and the learners):

* ``agents-full``: the twelve rule-based agents A..L, 8 of them per hand (section 5.2);
* ``agents-thesis``: only the agents the thesis specifies (A, B, C) plus six card-blind control players
  (``rule_based.CONTROLS``), 8 of the 9 per hand;
* ``prospect``: the 36 prospect-theory agents in every pairing, playing heads-up *sessions* of
  ``session_hands`` hands so that ``flat56``'s own-chips feature counts from the session's start (5.3);
* ``prospect-hands``: the same with one-hand episodes (own chips from the hand's start, the set-up before
  sessions existed), a control added after the session results were seen, to tell the session's effect
  from the smaller budget's.

Each seed's numbers are saved as JSON under ``--out`` (a rerun skips the seeds already there) and the
section ``study`` of ``docs/results/clustering.md`` is written from them.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import torch

from agent_zoo.clustering import report
from agent_zoo.clustering.experiments import _logset, majority_baseline, probe_frequencies, prospect_logs
from agent_zoo.clustering.kmeans import ClusteringConfig, LogClustering, LogSet, split_logs
from agent_zoo.clustering.learners import SPEC_56, SPEC_107
from agent_zoo.clustering.play import play_hands
from agent_zoo.clustering.prospect import prospect_grid
from agent_zoo.clustering.rule_based import AGENTS, CONTROLS, FrequencyAgent
from agent_zoo.clustering.study_design import (
    EXPERIMENTS,
    FULL_SCALE,
    THESIS_5_10,
    THESIS_5_11,
    THESIS_LETTERS,
    StudyScale,
    adjusted_rand_index,
    thesis_numbering,
)
from agent_zoo.clustering.study_report import STUDY_TITLE, write_study

FULL_TITLE = "The study at full scale (the agent pool at 20,000 hands)"


def _pool(experiment: str) -> tuple[list[Any], list[str]]:
    if experiment == "agents-full":
        return [AGENTS[c]() for c in AGENTS], list(AGENTS)
    agents = [AGENTS[c]() for c in THESIS_LETTERS] + [FrequencyAgent(n, p) for n, p in CONTROLS.items()]
    return agents, [*THESIS_LETTERS, *CONTROLS]


def _logs(experiment: str, scale: StudyScale, seed: int) -> tuple[LogSet, dict[str, Any]]:
    """The experiment's logs for one seed and facts about them."""
    if experiment.startswith("agents"):
        pool, names = _pool(experiment)
        records = play_hands(pool, scale.hands, lambda rng, n=len(pool): rng.choice(n, 8, replace=False), "flat107", seed, progress=report.PROGRESS)
        data = LogSet.from_logs([r.log()[:2] for r in records], names)
    else:
        names = [f"a={a:.1f},b={b:.1f}" for a, b in prospect_grid()]
        arrays = prospect_logs(scale.samples, seed, session_hands=scale.session_hands, sessions=experiment == "prospect", progress=report.PROGRESS)
        data = _logset(arrays, names)
    extra = {"fold_share": float((data.y == 0).mean()), "feature0_range": [float(data.x[:, 0].min()), float(data.x[:, 0].max())]}
    return data, extra


def run_seed(experiment: str, scale: StudyScale, seed: int) -> dict[str, Any]:
    """Logs, clustering on 75% of every log, accuracies in-sample and on the held-out 25%; a JSON-able dict."""
    start = time.perf_counter()
    data, extra = _logs(experiment, scale, seed)
    log_secs = time.perf_counter() - start
    train, test = split_logs(data, scale.holdout, np.random.default_rng([seed, 2]))
    prospect = experiment.startswith("prospect")
    config = ClusteringConfig(k=scale.k, empty="keep" if prospect else "reseed", max_rounds=scale.max_rounds, epochs=scale.epochs, seed=seed, final_epochs=0 if prospect else scale.final_epochs)
    start = time.perf_counter()
    spec = SPEC_56 if prospect else SPEC_107
    result = LogClustering(spec, config).fit(train, progress=report.PROGRESS)
    fit_secs = time.perf_counter() - start
    labels = result.labels
    # Each held-out sample scored once, by its log's learner; in-sample scores are the fit's own (its
    # learners' scores on every training sample), so the pooled in-sample share is their count-weighted mean.
    scaler = result.learners[0].scaler
    xt, yt = scaler.x(test.x), scaler.y(test.y, spec.task)
    own = labels[test.owner]
    hits = np.zeros(len(test.y))
    for j in np.unique(labels):
        rows = own == j
        hits[rows] = result.learners[j].sample_scores(xt[torch.as_tensor(rows)], yt[torch.as_tensor(rows)])
    in_sample = result.scores[np.arange(data.n_logs), labels]
    trained = np.bincount(train.owner, minlength=data.n_logs)
    pooled = {"in_sample": float(in_sample @ trained / trained.sum()), "held_out": float(hits.mean())}
    out: dict[str, Any] = {
        "experiment": experiment, "seed": seed, "scale": asdict(scale), "names": data.names,
        "labels": labels.tolist(), "in_sample": in_sample.tolist(),
        "held_out": test.per_log_mean(hits).tolist(), "baseline": majority_baseline(test).tolist(), "pooled": pooled,
        "rounds": result.rounds, "converged": result.converged, "decisions": int(len(data.y)),
        "log_secs": log_secs, "fit_secs": fit_secs, **extra,
    }
    if prospect:
        numbering = thesis_numbering(labels)
        out["thesis_numbering"] = {str(k): v for k, v in numbering.items()}
        probes = {}
        for table, thesis_cluster in (("5.10", 3), ("5.11", 1)):
            ours = [j for j, v in numbering.items() if v == thesis_cluster]
            rows = list(THESIS_5_10 if table == "5.10" else THESIS_5_11)
            if ours:
                learner = result.learners[ours[0]]
                freq = probe_frequencies(lambda x, ln=learner: ln.probabilities(x).argmax(1), rows, scale.probe_draws, seed)
                probes[table] = freq.tolist()
        out["probes"] = probes
    return out


def run_study(seeds: list[int], out: Path, scale: StudyScale = StudyScale(), experiments: tuple[str, ...] = EXPERIMENTS,
              section: str = "study", title: str | None = None, flags: str = "") -> dict[str, list[dict[str, Any]]]:
    """Every experiment for every seed (skipping those saved in ``out``), then the results section
    ``section`` (heading ``title``; ``flags``: the command's options the page quotes)."""
    unknown = sorted(set(experiments) - set(EXPERIMENTS))
    if unknown or not experiments:
        raise ValueError(f"experiments must be a non-empty subset of {EXPERIMENTS}, got {tuple(experiments)}")
    out.mkdir(parents=True, exist_ok=True)
    runs: dict[str, list[dict[str, Any]]] = {}
    for experiment in experiments:
        runs[experiment] = []
        for seed in seeds:
            path = out / f"{experiment}_seed{seed}.json"
            if path.exists():
                saved = json.loads(path.read_text())
                if saved["scale"] == asdict(scale):
                    runs[experiment].append(saved)
                    continue
            print(f"{experiment} seed {seed} ...", flush=True)
            run = run_seed(experiment, scale, seed)
            path.write_text(json.dumps(run))
            runs[experiment].append(run)
    write_study(runs, scale, section, title or STUDY_TITLE, flags)
    return runs


__all__ = ["EXPERIMENTS", "FULL_SCALE", "FULL_TITLE", "StudyScale", "adjusted_rand_index", "run_seed", "run_study", "thesis_numbering"]
