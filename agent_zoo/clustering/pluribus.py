"""Beyond the thesis: cluster the 14 players of the 10,000 Pluribus hands by their own logs.

Hands are read with ``poker_envs.phh`` and turned into each player's (flat107 observation, action class)
log by ``agent_zoo.clustering.logs.encode_hands`` (6-max no-limit, 50/100 blinds: flat107's current bet is
in small blinds, so up to hundreds). The held-out criterion (``kmeans.choose_k``) says how many clusters the
data support; then the players are clustered with k = 4 (the thesis' number) 107-64-64-3 learners and each
learner is scored on each player.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from agent_zoo.clustering import report
from agent_zoo.clustering.experiments import FULL, QUICK, _cached_logs, accuracy_table, expected_style, goal_table, majority_baseline
from agent_zoo.clustering.kmeans import ClusteringConfig, LogClustering, LogSet, choose_k
from agent_zoo.clustering.learners import SPEC_107
from agent_zoo.clustering.play import style

# The shared data folder beside the repository checkout (``../shared/data/phh``); never copied into the project.
PLURIBUS = Path(__file__).resolve().parents[3] / "shared" / "data" / "phh" / "pluribus"


def pluribus_logs(root: Path, max_hands: int | None) -> dict[str, np.ndarray]:
    """name-ordered stacked logs of every player of the first ``max_hands`` hands (all when None)."""
    from itertools import islice

    from agent_zoo.clustering.logs import encode_hands
    from poker_envs.phh import iter_hands

    if not root.is_dir():
        raise FileNotFoundError(f"no Pluribus hand histories at {root} (pass --data DIR: the pluribus folder of the PHH data set, ../shared/data/phh/pluribus beside the repository)")
    hands = iter_hands(root)
    if max_hands is not None:
        hands = islice(hands, max_hands)
    logs = encode_hands(hands, "flat107", progress=report.PROGRESS)
    names = sorted(logs)
    return {
        "x": np.concatenate([logs[n].X for n in names]).astype(np.float32),
        "y": np.concatenate([logs[n].y for n in names]),
        "owner": np.concatenate([np.full(len(logs[n].y), i) for i, n in enumerate(names)]),
        "names": np.array(names),
    }


def run_pluribus(quick: bool, seed: int = 0, root: Path = PLURIBUS) -> str:
    scale = QUICK if quick else FULL
    max_hands = 2000 if quick else None
    start = time.perf_counter()
    arrays = _cached_logs(f"pluribus_{max_hands or 'all'}", lambda: pluribus_logs(root, max_hands))
    load_secs = time.perf_counter() - start
    names = [str(n) for n in arrays["names"]]
    data = LogSet(arrays["x"], arrays["y"].astype(np.int64), arrays["owner"].astype(np.int64), names)
    counts = np.array([np.bincount(data.y[data.owner == i], minlength=3) for i in range(data.n_logs)])
    styles = np.array([style(c) for c in counts])
    start = time.perf_counter()
    ks = [1, 2, 3, 4, 5]
    best_k, table_k = choose_k(data, SPEC_107, ks, ClusteringConfig(max_rounds=scale.max_rounds, epochs=scale.epochs, seed=seed, init="plusplus"))
    k_secs = time.perf_counter() - start
    runs = {}
    for holdout in (0.0, 0.25):
        config = ClusteringConfig(k=4, max_rounds=scale.max_rounds, epochs=scale.epochs, seed=seed, final_epochs=scale.final_epochs, assign_holdout=holdout)
        t = time.perf_counter()
        runs[holdout] = (LogClustering(SPEC_107, config).fit(data, progress=report.PROGRESS), time.perf_counter() - t)
    baseline = majority_baseline(data)
    sections = []
    for holdout, (result, secs) in runs.items():
        accurate = sum(result.scores[i, result.labels[i]] >= baseline[i] - 1e-9 for i in range(data.n_logs))
        groups = "; ".join(
            f"{j + 1}: " + ", ".join(names[i] for i in np.flatnonzero(result.labels == j)) for j in sorted(set(result.labels.tolist()))
        )
        what = (
            "assigned and scored on the samples the learners train on (the thesis)"
            if holdout == 0
            else f"assigned and scored on {holdout:.0%} of each player's decisions that no learner trains on (ours)"
        )
        ones = np.ones((len(data.y), 3), dtype=np.int8)
        learner_styles = {}
        for j in sorted(set(result.labels.tolist())):
            sel = np.isin(data.owner, np.flatnonzero(result.labels == j))
            learner_styles[j] = expected_style(result.learners[j], data.x[sel], ones[sel])
        goal, _, _ = goal_table(names, result.labels, styles, learner_styles)
        sections.append(
            f"""### k = 4, {what}

Random start, {scale.epochs} epochs per round and {scale.final_epochs} more on the final clusters: {result.rounds} rounds,
converged {result.converged}, {secs:.0f} s. Clusters: {groups}.

{accuracy_table(names, result, baseline)}

{accurate} of {data.n_logs} players are predicted by their cluster's learner at least as well as the majority
baseline (accuracy measured on the same samples that assign the players).

Style of each cluster's sampling agent on its members' states (no legal-action masks are kept for these
no-limit logs: the expected counts use the learner's unrestricted softmax):

{goal}
"""
        )
    result = runs[0.25][0]
    clusters = {n: int(result.labels[i]) for i, n in enumerate(names)}
    report.style_scatter({n: tuple(styles[i]) for i, n in enumerate(names)}, clusters, 4, "Pluribus-session players by cluster (held-out assignment)", report.figure_path("pluribus_styles.png"))
    players = report.table(
        ["player", "decisions", "Fold", "Check+Call", "Bet+Raise", "looseness", "aggressiveness"],
        [[n, int(counts[i].sum()), *counts[i].tolist(), report.pct(styles[i, 0]), report.pct(styles[i, 1])] for i, n in enumerate(names)],
    )
    text = f"""## 4. Beyond the thesis: the Pluribus players

`python -m agent_zoo.clustering pluribus{' --quick' if quick else ''} --out {report.shown(report.RESULTS)}`: {'the first 2,000' if quick else 'all 10,000'} six-max
no-limit hands of Pluribus against professionals (`{report.shown(root)}`, read with `poker_envs.phh`),
every decision of each of the {data.n_logs} players as (flat107 observation, fold / check-call / bet-raise):
{len(data.y)} pairs (replay and encoding {load_secs:.0f} s, or read back from the cache).

{players}

Choice of k (learners 107-64-64-3, k-means++-like start, 25% of every player's decisions held out; the
smallest k within 0.5 points of the best held-out accuracy): **k = {best_k}** ({k_secs:.0f} s);
held-out accuracy {", ".join(f"k={kk}: {report.pct(v)}" for kk, v in table_k.items())}.

![players](clustering/pluribus_styles.png)

{chr(10).join(sections)}
"""
    report.write_section("pluribus", text)
    return text
