"""Clustering players by learners (section 4.2.2 of Koyama's thesis): k-means whose centres are predictors.

Steps (the thesis' list, Table 4.1): k learners, each log (one player's (state, action) pairs) labelled
with a random learner; then repeat until the labels stop changing: train each learner on the logs
labelled with it, and label every log with the learner that predicts it best (accuracy for actions,
squared error for regression). Learners keep their weights from round to round, as a SOM's units do.

Beyond the thesis (its section 6.2): ``init="plusplus"`` seeds the learners one log at a time, the next
seed drawn with probability proportional to the squared error of the best learner so far (k-means++);
``empty="reseed"`` gives an empty learner the log its own learner predicts worst (the thesis ended with
an empty cluster: ``empty="keep"`` reproduces that); ``choose_k`` picks k by held-out prediction;
``final_epochs`` trains each learner further on its final cluster once the labels have settled, so
the agent a cluster yields fits its members better (labels are not revisited); ``assign_holdout``
scores (and so assigns) each log on samples no learner trained on, so a learner that memorises a short
log does not win it by overfitting.

Everything random comes from ``seed``: a numpy Generator for labels and seeds, ``torch.manual_seed``
for the weights and a ``torch.Generator`` for minibatch order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import torch

from agent_zoo.clustering.learners import CLASSIFICATION, Learner, LearnerSpec, Scaler


@dataclass(frozen=True)
class ClusteringConfig:
    """How the learners cluster the logs."""

    k: int = 4  # number of learners (clusters)
    init: str = "random"  # "random": random labels (thesis) | "plusplus": k-means++-like seeding
    empty: str = "reseed"  # "reseed": an empty learner takes the worst-predicted log | "keep": stays empty (thesis)
    max_rounds: int = 30  # give up after this many train/reassign rounds even if labels still move
    epochs: int = 2  # passes over a cluster's samples per round
    batch_size: int = 128  # minibatch size
    seed: int = 0  # seeds the label draw, the weights and the minibatch order
    final_epochs: int = 0  # after the labels settle, extra passes of each learner over its own cluster (labels kept)
    assign_holdout: float = 0.0  # share of each log's samples kept out of training and used to score it (0: score on the training samples, as the thesis)

    def __post_init__(self) -> None:
        if self.k < 1:
            raise ValueError(f"k must be at least 1, got {self.k}")
        if self.init not in ("random", "plusplus"):
            raise ValueError(f"init must be 'random' or 'plusplus', got {self.init!r}")
        if self.empty not in ("reseed", "keep"):
            raise ValueError(f"empty must be 'reseed' or 'keep', got {self.empty!r}")
        for name in ("max_rounds", "epochs", "batch_size"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if not 0 <= self.assign_holdout < 1:
            raise ValueError(f"assign_holdout must lie in [0, 1), got {self.assign_holdout}")
        if self.final_epochs < 0:
            raise ValueError(f"final_epochs must be 0 or more, got {self.final_epochs}")


@dataclass
class LogSet:
    """All logs stacked: sample i belongs to log ``owner[i]``."""

    x: np.ndarray  # (N, d) float32 states
    y: np.ndarray  # (N,) int64 actions or float32 targets
    owner: np.ndarray  # (N,) int64 log index
    names: list[str]  # one name per log

    @classmethod
    def from_logs(cls, logs: Sequence[tuple[np.ndarray, np.ndarray]], names: Sequence[str]) -> LogSet:
        if len(logs) != len(names):
            raise ValueError(f"names: {len(names)} names for {len(logs)} logs")
        empty = [n for (x, _), n in zip(logs, names) if len(x) == 0]
        if empty:
            raise ValueError(f"logs: these logs have no samples: {empty}")
        x = np.concatenate([np.asarray(x, dtype=np.float32) for x, _ in logs])
        y = np.concatenate([np.asarray(y) for _, y in logs])
        owner = np.repeat(np.arange(len(logs)), [len(x) for x, _ in logs])
        return cls(x, y, owner, list(names))

    @property
    def n_logs(self) -> int:
        return len(self.names)

    def per_log_mean(self, values: np.ndarray) -> np.ndarray:
        return np.bincount(self.owner, weights=values, minlength=self.n_logs) / np.bincount(self.owner, minlength=self.n_logs)


@dataclass
class ClusteringResult:
    """Labels, per-(log, learner) scores and the trained learners."""

    labels: np.ndarray  # (n_logs,) learner index of each log
    scores: np.ndarray  # (n_logs, k) mean score of each learner on each log (accuracy or -MSE)
    learners: list[Learner]
    rounds: int  # train/reassign rounds run
    converged: bool  # labels stopped changing before max_rounds
    history: list[np.ndarray] = field(default_factory=list)  # labels after each round (the first is the start)


class LogClustering:
    """Runs the clustering of section 4.2.2 on a LogSet with learners of one spec."""

    def __init__(self, spec: LearnerSpec, config: ClusteringConfig) -> None:
        self.spec, self.config = spec, config

    def fit(self, data: LogSet, progress: bool = False) -> ClusteringResult:
        cfg, k = self.config, self.config.k
        if data.x.shape[1] != self.spec.sizes[0]:
            raise ValueError(f"logs have {data.x.shape[1]} features; the learners take {self.spec.sizes[0]}")
        rng = np.random.default_rng(cfg.seed)
        torch.manual_seed(cfg.seed)
        gen = torch.Generator().manual_seed(cfg.seed)
        classify = self.spec.task == CLASSIFICATION
        scaler = Scaler.fit(data.x, None if classify else data.y.astype(np.float64))
        x = scaler.x(data.x)
        y = scaler.y(data.y, self.spec.task)
        learners = [Learner(self.spec, scaler) for _ in range(k)]
        held = np.zeros(len(data.y), dtype=bool)
        if cfg.assign_holdout > 0:  # own stream, so the label draw below is the same with or without it
            held = np.random.default_rng([cfg.seed, 1]).random(len(data.y)) < cfg.assign_holdout
            for part in (held, ~held):
                if np.bincount(data.owner[part], minlength=data.n_logs).min() == 0:
                    raise ValueError("assign_holdout leaves a log with no training or no scoring sample; give longer logs")
        rows = [np.flatnonzero((data.owner == i) & ~held) for i in range(data.n_logs)]
        scored = np.flatnonzero(held) if held.any() else np.arange(len(data.y))
        x_s, y_s, owner_s = x[torch.as_tensor(scored)], y[torch.as_tensor(scored)], data.owner[scored]
        count_s = np.bincount(owner_s, minlength=data.n_logs)

        def train(j: int, logs: np.ndarray) -> None:
            if logs.size:
                idx = torch.as_tensor(np.concatenate([rows[i] for i in logs]))
                learners[j].train(x[idx], y[idx], cfg.epochs, cfg.batch_size, gen)

        def score_all() -> np.ndarray:
            return np.column_stack([np.bincount(owner_s, weights=ln.sample_scores(x_s, y_s), minlength=data.n_logs) / count_s for ln in learners])

        if cfg.init == "random":
            labels = rng.integers(k, size=data.n_logs)
        else:
            labels = self._plusplus(data.n_logs, rng, train, score_all)
        history = [labels.copy()]
        converged, rounds, scores = False, 0, np.zeros((data.n_logs, k))
        bar = _progress(cfg.max_rounds, progress)
        for rounds in range(1, cfg.max_rounds + 1):
            for j in range(k):
                train(j, np.flatnonzero(labels == j))
            scores = score_all()
            new = _reassign(scores, labels)
            if cfg.empty == "reseed":
                new = _reseed_empty(new, scores, k)
            history.append(new.copy())
            bar.update(1)
            if np.array_equal(new, labels):
                converged = True
                break
            labels = new
        bar.close()
        if cfg.final_epochs:
            for j in range(k):
                idx = np.flatnonzero(labels == j)
                if idx.size:
                    rows_j = torch.as_tensor(np.concatenate([rows[i] for i in idx]))
                    learners[j].train(x[rows_j], y[rows_j], cfg.final_epochs, cfg.batch_size, gen)
            scores = score_all()
        return ClusteringResult(labels, scores, learners, rounds, converged, history)

    def _plusplus(self, n: int, rng: np.random.Generator, train, score_all) -> np.ndarray:  # noqa: ANN001
        """Seed learner 0 on a random log, learner j on a log drawn by (best learner's error)^2."""
        k = self.config.k
        seeds = [int(rng.integers(n))]
        for j in range(k):
            if j > 0:
                scores = score_all()[:, :j]
                err = (1.0 - scores.max(1)) if self.spec.task == CLASSIFICATION else -scores.max(1)
                weights = np.maximum(err, 0.0) ** 2
                weights[seeds] = 0.0
                p = weights / weights.sum() if weights.sum() > 0 else np.where(np.isin(np.arange(n), seeds), 0, 1) / (n - len(seeds))
                seeds.append(int(rng.choice(n, p=p)))
            train(j, np.array([seeds[j]]))
        labels = _reassign(score_all(), np.zeros(n, dtype=np.int64))
        labels[seeds[:k]] = np.arange(min(k, n))
        return labels


def _reassign(scores: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Each log to its best learner; a tie keeps the current label (no flapping between equals)."""
    best = scores.argmax(1)
    keep = scores[np.arange(len(labels)), labels] >= scores.max(1)
    return np.where(keep, labels, best).astype(np.int64)


def _reseed_empty(labels: np.ndarray, scores: np.ndarray, k: int) -> np.ndarray:
    """Give each empty learner the log predicted worst by its own learner, from a cluster of two or more."""
    labels = labels.copy()
    for j in range(k):
        if (labels == j).any():
            continue
        sizes = np.bincount(labels, minlength=k)
        movable = np.flatnonzero(sizes[labels] >= 2)
        if movable.size == 0:
            break  # fewer logs than learners
        own = scores[movable, labels[movable]]
        labels[movable[np.argmin(own)]] = j
    return labels


def split_logs(data: LogSet, holdout: float, rng: np.random.Generator) -> tuple[LogSet, LogSet]:
    """Each log split at random into a training part and a held-out part of share ``holdout``."""
    if not 0 < holdout < 1:
        raise ValueError(f"holdout must lie strictly between 0 and 1, got {holdout}")
    test = rng.random(len(data.x)) < holdout
    parts = []
    for mask in (~test, test):
        parts.append(LogSet(data.x[mask], data.y[mask], data.owner[mask], data.names))
    return parts[0], parts[1]


def held_out_scores(result: ClusteringResult, test: LogSet, spec: LearnerSpec) -> np.ndarray:
    """(n_logs, k) mean score of every learner of ``result`` on each log's samples in ``test`` (samples
    no learner trained on): the held-out counterpart of ``result.scores``."""
    scaler = result.learners[0].scaler
    x, y = scaler.x(test.x), scaler.y(test.y, spec.task)
    return np.column_stack([test.per_log_mean(ln.sample_scores(x, y)) for ln in result.learners])


def choose_k(data: LogSet, spec: LearnerSpec, ks: Sequence[int], config: ClusteringConfig, holdout: float = 0.25, tolerance: float = 0.005) -> tuple[int, dict[int, float]]:
    """Smallest k whose held-out score (mean over logs, each log by its learner) is within ``tolerance``
    of the best k's: more learners must predict unseen actions better to be worth having."""
    train, test = split_logs(data, holdout, np.random.default_rng(config.seed))
    if np.bincount(test.owner, minlength=data.n_logs).min() == 0 or np.bincount(train.owner, minlength=data.n_logs).min() == 0:
        raise ValueError("logs too short to hold out a part of every one; lower holdout or give longer logs")
    table: dict[int, float] = {}
    for k in ks:
        result = LogClustering(spec, replace(config, k=int(k))).fit(train)
        per_log = held_out_scores(result, test, spec)
        table[int(k)] = float(per_log[np.arange(data.n_logs), result.labels].mean())
    best = max(table.values())
    return min(k for k, v in table.items() if v >= best - tolerance), table


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress(total: int, show: bool):  # noqa: ANN202
    if not show:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, desc="clustering rounds", leave=False)
