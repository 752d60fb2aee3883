"""The thesis' experiments: section 5.1 (``run_functions``) and the logs, probes and tables that sections
5.2 and 5.3 use (run per seed by ``full_runs``).

Logs are cached under ``runs/clustering/`` so an interrupted run resumes without replaying; each run writes
PNGs and a section of ``docs/results/clustering.md``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from agent_zoo.clustering import report
from agent_zoo.clustering.kmeans import ClusteringConfig, ClusteringResult, LogClustering, LogSet, choose_k
from agent_zoo.clustering.learners import SPEC_FUNCTION, Learner, LearnerSpec
from agent_zoo.clustering.play import play_hands, style
from agent_zoo.clustering.prospect import ProspectAgent, prospect_grid



@dataclass(frozen=True)
class Scale:
    """How big one run is (``--quick`` or the full thesis scale)."""

    hands: int  # hands of the 12-agent simulation (section 5.2) and of the learners' games
    samples: int  # (state, action) pairs per prospect agent (thesis: 8192)
    grid_step: float  # p1, p2 step of the function experiment (thesis: 0.2)
    fn_samples: int  # samples per function (thesis: 128)
    epochs: int  # passes over a cluster's data per round
    max_rounds: int  # cap on train/reassign rounds
    probe_draws: int  # random 7-card draws per probe row (Tables 5.10, 5.11)
    final_epochs: int  # extra passes of each learner over its final cluster (ours; 0 in the thesis-like runs)
    holdout: float = 0.25  # share of each log's samples no learner trains on (sections 2, 3: held-out accuracy)


QUICK = Scale(hands=3000, samples=1024, grid_step=0.4, fn_samples=64, epochs=2, max_rounds=8, probe_draws=300, final_epochs=4)
FULL = Scale(hands=20000, samples=8192, grid_step=0.2, fn_samples=128, epochs=3, max_rounds=20, probe_draws=1000, final_epochs=6)


def _cached_logs(name: str, make) -> dict[str, np.ndarray]:  # noqa: ANN001
    """Arrays from ``runs/clustering/<name>.npz``, made (and saved) by ``make()`` when absent."""
    path = report.CACHE / f"{name}.npz"
    if path.exists():
        with np.load(path) as f:
            return dict(f)
    arrays = make()
    report.CACHE.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)
    return arrays


def _records_to_arrays(records) -> dict[str, np.ndarray]:  # noqa: ANN001
    xs, ys, ms, owner = [], [], [], []
    for i, r in enumerate(records):
        x, y, m = r.log()
        xs.append(x)
        ys.append(y)
        ms.append(m)
        owner.append(np.full(len(y), i))
    return {
        "x": np.concatenate(xs), "y": np.concatenate(ys), "mask": np.concatenate(ms), "owner": np.concatenate(owner),
        "counts": np.array([r.counts for r in records]), "chips": np.array([r.chips for r in records]),
        "hands": np.array([r.hands for r in records]),
    }


def _logset(arrays: dict[str, np.ndarray], names: list[str]) -> LogSet:
    return LogSet(arrays["x"].astype(np.float32), arrays["y"], arrays["owner"].astype(np.int64), names)


def majority_baseline(data: LogSet) -> np.ndarray:
    """Share of each log's most frequent action: what always predicting one action achieves."""
    counts = np.zeros((data.n_logs, 3))
    np.add.at(counts, (data.owner, data.y), 1)
    return counts.max(1) / counts.sum(1)


def expected_style(learner: Learner, x: np.ndarray, mask: np.ndarray) -> tuple[float, float]:
    """Looseness and aggressiveness of the sampling agent on given states: expected F, C+C, B+R counts."""
    probs = learner.probabilities(x) * mask
    probs /= probs.sum(1, keepdims=True)
    return style(probs.sum(0))


def accuracy_table(names: list[str], result: ClusteringResult, baseline: np.ndarray) -> str:
    k = result.scores.shape[1]
    rows = []
    for i, name in enumerate(names):
        cells = [f"**{report.pct(s)}**" if j == result.labels[i] else report.pct(s) for j, s in enumerate(result.scores[i])]
        ok = "yes" if result.scores[i, result.labels[i]] >= baseline[i] - 1e-9 else "no"
        rows.append([name, *cells, report.pct(baseline[i]), ok])
    return report.table(["player", *[f"learner {j + 1}" for j in range(k)], "baseline", ">= baseline"], rows)


def goal_table(names: list[str], labels: np.ndarray, styles: np.ndarray, learner_styles: dict[int, tuple[float, float]], played: dict[str, dict[int, tuple[float, float]]] | None = None) -> tuple[str, int, dict[str, int]]:
    """Per cluster: members' mean looseness/aggressiveness against the learner's on the members' states and,
    for each entry of ``played`` (column title -> cluster -> style), in play. Returns the table, the clusters
    within 0.1 on the members' states, and per ``played`` column the clusters within 0.1 there."""
    rows, good = [], 0
    played = played or {}
    good_played = dict.fromkeys(played, 0)

    def close(a: tuple[float, float], b: np.ndarray) -> bool:
        return abs(a[0] - b[0]) <= 0.1 and abs(a[1] - b[1]) <= 0.1

    for j in sorted(learner_styles):
        members = np.flatnonzero(labels == j)
        mean = styles[members].mean(0)
        ls = learner_styles[j]
        good += close(ls, mean)
        row = [f"{j + 1}", " ".join(names[i] for i in members), f"{mean[0]:.3f} / {mean[1]:.3f}", f"{ls[0]:.3f} / {ls[1]:.3f}", "yes" if close(ls, mean) else "no"]
        for title, by_cluster in played.items():
            p = by_cluster.get(j)
            if p is None:
                row.append("-")
                continue
            good_played[title] += close(p, mean)
            row.append(f"{p[0]:.3f} / {p[1]:.3f} ({'yes' if close(p, mean) else 'no'})")
        rows.append(row)
    header = ["cluster", "members", "members' mean L / A", "learner on members' states L / A", "within 0.1", *played]
    return report.table(header, rows), good, good_played


def _cluster(spec: LearnerSpec, data: LogSet, k: int, scale: Scale, seed: int, init: str = "random", empty: str = "reseed", batch: int = 128, final_epochs: int = 0) -> tuple[ClusteringResult, float]:
    config = ClusteringConfig(k=k, init=init, empty=empty, max_rounds=scale.max_rounds, epochs=scale.epochs, batch_size=batch, seed=seed, final_epochs=final_epochs)
    start = time.perf_counter()
    result = LogClustering(spec, config).fit(data, progress=report.PROGRESS)
    return result, time.perf_counter() - start


# Section 5.1 ------------------------------------------------------------------------------------------
def function_logs(step: float, samples: int, seed: int) -> tuple[LogSet, np.ndarray]:
    """Logs of f(x1, x2; p1, p2) = x1^p1 + p2 x2 over the (p1, p2) grid, x uniform in [0, 5)."""
    ps = np.round(np.arange(0, 2 + 1e-9, step), 2)
    rng = np.random.default_rng(seed)
    logs, names = [], []
    for p1 in ps:
        for p2 in ps:
            x = rng.uniform(0, 5, size=(samples, 2))
            logs.append((x, x[:, 0] ** p1 + p2 * x[:, 1]))
            names.append(f"p1={p1:g},p2={p2:g}")
    return LogSet.from_logs(logs, names), ps


def run_functions(quick: bool, seed: int = 0) -> str:
    scale = QUICK if quick else FULL
    data, ps = function_logs(scale.grid_step, scale.fn_samples, seed)
    fits = {}
    for init in ("random", "plusplus"):
        fits[init] = _cluster(SPEC_FUNCTION, data, 4, scale, seed, init=init, batch=32)
    result, secs = fits["random"]
    report.grid_map(result.labels, ps, ps, "p1", "p2", "Cluster of x1^p1 + p2 x2 (4 learners 2-4-4-1)", report.figure_path("functions.png"), 4)
    report.grid_map(fits["plusplus"][0].labels, ps, ps, "p1", "p2", "Same, k-means++-like initialisation", report.figure_path("functions_plusplus.png"), 4)
    best_k, table_k = choose_k(data, SPEC_FUNCTION, [2, 3, 4, 5, 6], ClusteringConfig(max_rounds=scale.max_rounds, epochs=scale.epochs, batch_size=32, seed=seed), tolerance=0.05)
    mse = -result.scores[np.arange(data.n_logs), result.labels]
    rows = [[j + 1, int((result.labels == j).sum()), float(mse[result.labels == j].mean()) if (result.labels == j).any() else "-"] for j in range(4)]
    text = f"""## 1. Simple functions (section 5.1)

`python -m agent_zoo.clustering functions{' --quick' if quick else ''} --out {report.shown(report.RESULTS)}`: {data.n_logs} functions
x1^p1 + p2 x2 (p1, p2 in 0..2 by {scale.grid_step:g}), {scale.fn_samples} samples each with x1, x2 uniform in [0, 5),
4 learners 2-4-4-1 (ReLU, RMSProp, MSE; inputs and targets standardised), logs assigned by squared error,
{scale.epochs} epochs per round, seed {seed}. Random start: {result.rounds} rounds, converged {result.converged},
{secs:.0f} s; k-means++-like start: {fits['plusplus'][0].rounds} rounds, converged {fits['plusplus'][0].converged}, {fits['plusplus'][1]:.0f} s.

![functions](clustering/functions.png) ![functions, k-means++ start](clustering/functions_plusplus.png)

{report.table(["cluster", "functions", "mean squared error of its learner"], rows)}

As in the thesis' Figure 5.1, large p1 is split by p1 alone while small p1 is split by p2 (the
derivative in p1, x1^p1 log x1, grows with p1; the one in p2, x2, does not).

Choice of k by held-out error (25% of every function's samples held out; the smallest k within 0.05 of
the best held-out mean squared error): **k = {best_k}**;
{", ".join(f"k={k}: {-v:.3f}" for k, v in table_k.items())}.
"""
    report.write_section("functions", text)
    return text


# Section 5.2 ------------------------------------------------------------------------------------------
def _eight_of(n: int):  # noqa: ANN202
    return lambda rng: rng.choice(n, 8, replace=False)


# Section 5.3 ------------------------------------------------------------------------------------------
def _late_street(obs: np.ndarray) -> bool:
    return obs[4:].sum() >= 6  # turn or river: six or seven known cards


SESSION_HANDS = 20  # hands per heads-up session of the prospect experiment (the thesis states none)


def prospect_logs(samples: int, seed: int, progress: bool = True, session_hands: int = SESSION_HANDS, sessions: bool = True) -> dict[str, np.ndarray]:
    """All pairings (self included) of the 36 agents, late-street decisions, ``samples`` per agent.

    Each pairing plays enough heads-up sessions of ``session_hands`` hands (stacks carried over, so
    ``flat56``'s own chips count from the session's start, as the thesis defines them); ``sessions=False``
    plays the same number of hands as one-hand episodes (own chips from the hand's start).
    """
    grid = prospect_grid()
    n = len(grid)
    per_hand = 2.4  # late-street decisions an agent makes per hand, measured
    hands = session_hands * int(np.ceil(1.3 * samples / ((n + 1) * per_hand * session_hands)))
    pool = [ProspectAgent(a, b) for a, b in grid]
    pairs = [(i, j) for i in range(n) for j in range(i, n)]
    records = None
    iterator = pairs
    if progress:
        from tqdm import tqdm

        iterator = tqdm(pairs, desc="pairings", leave=False)
    for p, (i, j) in enumerate(iterator):
        rec = play_hands(pool, hands, lambda rng, i=i, j=j: [i, j], "flat56", seed * 100_003 + 1000 * p, record=_late_street,
                         hands_per_episode=session_hands if sessions else 1)
        if records is None:
            records = rec
            continue
        for a in {i, j}:
            dst, src = records[a], rec[a]
            dst.obs += src.obs
            dst.actions += src.actions
            dst.masks += src.masks
            dst.counts += src.counts
            dst.chips += src.chips
            dst.hands += src.hands
    rng = np.random.default_rng(seed)
    for a, r in enumerate(records):
        if len(r.actions) < samples:
            raise RuntimeError(f"agent {grid[a]} logged {len(r.actions)} < {samples} pairs; raise the hands per pairing")
        keep = np.sort(rng.choice(len(r.actions), samples, replace=False))
        r.obs = [r.obs[t] for t in keep]
        r.actions = [r.actions[t] for t in keep]
        r.masks = [r.masks[t] for t in keep]
    return _records_to_arrays(records)


PROBE_ROWS_4 = [(-10, 4, 0, 4), (-6, 4, 0, 4), (-5, 4, 0, 4), (-4, 4, 0, 4), (-3, 4, 0, 4), (-2, 4, 0, 4), (-1, 4, 0, 4), (0, 4, 0, 4), (1, 4, 0, 4), (5, 4, 0, 4), (10, 4, 0, 4)]
PROBE_ROWS_36 = [(-50, 36, 12, 16), (-38, 36, 12, 16), (-37, 36, 12, 16), (-36, 36, 12, 16), (-35, 36, 12, 16), (-10, 36, 12, 16), (-3, 36, 12, 16), (-2, 36, 12, 16), (-1, 36, 12, 16), (0, 36, 12, 16), (1, 36, 12, 16), (2, 36, 12, 16), (10, 36, 12, 16)]


def probe_states(row: tuple[int, int, int, int], draws: int, rng: np.random.Generator) -> np.ndarray:
    """flat56 vectors with fixed stack/pot/bets and 7 random distinct cards (Tables 5.10, 5.11)."""
    x = np.zeros((draws, 56), dtype=np.float32)
    x[:, :4] = row
    cards = np.argsort(rng.random((draws, 52)), axis=1)[:, :7]
    np.put_along_axis(x, 4 + cards, 1.0, axis=1)
    return x


def probe_frequencies(predict, rows, draws: int, seed: int) -> np.ndarray:  # noqa: ANN001
    """Fold / call / raise frequency of ``predict(x) -> actions`` on each probe row."""
    rng = np.random.default_rng(seed)
    out = []
    for row in rows:
        actions = predict(probe_states(row, draws, rng))
        out.append(np.bincount(actions, minlength=3) / draws)
    return np.array(out)


def _agents_predict(agents: list[ProspectAgent]):  # noqa: ANN202
    mask = np.ones(3, dtype=np.int8)

    def predict(x: np.ndarray) -> np.ndarray:
        return np.array([agents[t % len(agents)].decide(x[t], mask)[0] for t in range(len(x))])

    return predict
