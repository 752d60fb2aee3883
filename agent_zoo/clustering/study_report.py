"""The ``study`` section of docs/results/clustering.md: the several-seed runs of ``study.py`` as tables and PNGs."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from agent_zoo.clustering import report
from agent_zoo.clustering.prospect import PARAMETER_GRID
from agent_zoo.clustering.study_design import THESIS_5_10, THESIS_5_11, THESIS_LETTERS, StudyScale, adjusted_rand_index

Runs = dict[str, list[dict[str, Any]]]
TITLES = {
    "agents-full": "twelve agents A..L (A, B, C the thesis', D..L ours)",
    "agents-thesis": "A, B, C and the six control players P1..P6",
    "prospect": "36 prospect-theory agents, heads-up sessions",
    "prospect-hands": "36 prospect-theory agents, one-hand episodes (control added after seeing the session results)",
}


def spread(values: list[float], fmt: str = "{:.3f}") -> str:
    """'mean ± sample sd (min .. max)' of a headline number over seeds."""
    v = np.asarray(values, dtype=np.float64)
    sd = v.std(ddof=1) if len(v) > 1 else 0.0
    return f"{fmt.format(v.mean())} ± {fmt.format(sd)} ({fmt.format(v.min())} .. {fmt.format(v.max())})"


def headline(run: dict[str, Any]) -> dict[str, float]:
    """The numbers every experiment reports per seed."""
    held, base = np.array(run["held_out"]), np.array(run["baseline"])
    return {
        "held-out accuracy, mean over logs": float(held.mean()),
        "held-out accuracy, all decisions": run["pooled"]["held_out"],
        "in-sample accuracy, mean over logs (training samples)": float(np.mean(run["in_sample"])),
        "held-out accuracy minus majority baseline, mean over logs": float((held - base).mean()),
        "logs at or above their majority baseline (held-out)": float((held >= base - 1e-9).sum()),
        "clusters used": float(len(set(run["labels"]))),
        "rounds": float(run["rounds"]),
    }


def aris(runs: list[dict[str, Any]]) -> list[tuple[int, int, float]]:
    """Adjusted Rand index of the final labels of every pair of seeds."""
    return [(a["seed"], b["seed"], adjusted_rand_index(np.array(a["labels"]), np.array(b["labels"]))) for a, b in combinations(runs, 2)]


def cluster_rows(run: dict[str, Any]) -> list[list[object]]:
    labels = np.array(run["labels"])
    rows = []
    for j in sorted(set(labels.tolist())):
        m = labels == j
        rows.append([run["seed"], j + 1, " ".join(n for n, keep in zip(run["names"], m, strict=True) if keep),
                     report.pct(np.mean(np.array(run["in_sample"])[m])), report.pct(np.mean(np.array(run["held_out"])[m])),
                     report.pct(np.mean(np.array(run["baseline"])[m]))])
    return rows


def _prospect_figures(runs: list[dict[str, Any]], section: str) -> str:
    lines = []
    for run in runs:
        numbering = {int(k): v for k, v in run["thesis_numbering"].items()}
        labels = np.array([numbering[j] - 1 for j in run["labels"]])
        path = report.figure_path(f"{section}_{run['experiment']}_seed{run['seed']}.png")
        report.grid_map(labels, PARAMETER_GRID, PARAMETER_GRID, "alpha", "beta", f"Fig. 5.5, {run['experiment']}, seed {run['seed']}", path, 4)
        lines.append(f"![Figure 5.5, seed {run['seed']}](clustering/{path.name})")
    return " ".join(lines)


def cluster_params(runs: list[dict[str, Any]]) -> str:
    """A table of each seed's prospect clusters (thesis numbering): size and mean alpha, beta of the members."""
    grid = np.array([(a, b) for a in PARAMETER_GRID for b in PARAMETER_GRID])
    rows = []
    for run in runs:
        numbering = {int(k): v for k, v in run["thesis_numbering"].items()}
        labels = np.array(run["labels"])
        for j, t in sorted(numbering.items(), key=lambda kv: kv[1]):
            m = labels == j
            rows.append([run["seed"], t, int(m.sum()), f"{grid[m, 0].mean():.2f}", f"{grid[m, 1].mean():.2f}"])
    return report.table(["seed", "cluster (thesis numbering)", "agents", "mean alpha", "mean beta"], rows)


def probe_table(runs: list[dict[str, Any]], table: str) -> str:
    """Thesis Table ``table`` ("5.10" or "5.11") beside our seeds' fold / call / raise shares on its rows."""
    thesis = THESIS_5_10 if table == "5.10" else THESIS_5_11
    seeds = [r["seed"] for r in runs]
    rows = []
    for t, (row, (f, c, r)) in enumerate(thesis.items()):
        cells: list[object] = [*row, report.pct(f), report.pct(c), report.pct(r)]
        for a in range(3):
            cells.append(" / ".join(report.pct(run["probes"][table][t][a]) if table in run["probes"] else "-" for run in runs))
        rows.append(cells)
    header = ["stack", "pot", "own bet", "opp. bet", "thesis F", "thesis C", "thesis R",
              f"ours F (seeds {', '.join(map(str, seeds))})", "ours C", "ours R"]
    return report.table(header, rows)


def _prospect_section(rs: list[dict[str, Any]], heading: str, scale: StudyScale, section: str) -> str:
    """Figure 5.5 maps and the probe Tables 5.10 / 5.11 beside the thesis' for one prospect experiment."""
    folds = spread([r["fold_share"] for r in rs])
    f0 = "; ".join(f"{r['feature0_range'][0]:g} to {r['feature0_range'][1]:g}" for r in rs)
    return f"""### Figure 5.5 and Tables 5.10 / 5.11: {heading}

Folds are {folds} of the logged turn and river actions (thesis: 3.5%). The own-chips feature of the logged
states spans {f0} small blinds per seed (with sessions the chips won or lost earlier in the session count; with
one-hand episodes only what the player has put in this hand).
Clusters are renumbered as the thesis numbers them (its text: cluster 3 = small alpha, cluster 2 = large alpha
with small beta, cluster 1 = in between; ours: 3 = smallest mean alpha, 2 = largest mean alpha - beta of the
rest, 1 = the largest remaining, 4 = any other). The thesis' figure itself is not in its text, only that
description, and that one of its four learners ended empty (3 clusters).

{_prospect_figures(rs, section)}

{cluster_params(rs)}

Table 5.10 (the thesis' learner 3 against ours of cluster 3; most likely action of the learner on {scale.probe_draws}
random river deals per row; ours shown for seeds in order):

{probe_table(rs, "5.10")}

Table 5.11 (the thesis' learner 1 against ours of cluster 1; "-" where a seed has no cluster 1):

{probe_table(rs, "5.11")}
"""


STUDY_TITLE = "Three seeds: held-out accuracy, the agent pool, stability, prospect sessions"


def write_study(runs: Runs, scale: StudyScale, section: str = "study", title: str = STUDY_TITLE, flags: str = "") -> str:
    """Write the section ``section`` (its heading ``title``) from the per-seed runs; ``flags``: the command's
    options beyond ``--seeds``, as the page shows them."""
    seeds = " ".join(str(r["seed"]) for r in next(iter(runs.values())))
    parts = [f"""## {title}

`python -m agent_zoo.clustering study{flags} --seeds {seeds} --out {report.shown(report.RESULTS)}` (per-seed JSON in `{report.shown(report.FIGURES)}/{section}/`;
a rerun skips the seeds already saved). The protocol and budget were fixed before any result was seen:
k = {scale.k} learners, random initial labels, {scale.epochs} epochs per round, at most {scale.max_rounds} rounds; every log's
decisions split at random, {1 - scale.holdout:.0%} to cluster and train on, {scale.holdout:.0%} held out and never trained on.
"In-sample" is accuracy on the training samples (what the thesis reports); "held-out" on the rest.
Agent experiments: {scale.hands} hands of 8-handed limit hold'em per seed (one-hand episodes, 200-chip stacks;
our full scale is 20,000, the thesis does not state its number), empty learners reseeded and {scale.final_epochs} final epochs.
Prospect: {scale.samples} late-street decisions per agent (thesis 8,192), empty learners kept (the thesis' rule), no final epochs,
every pairing playing heads-up sessions of {scale.session_hands} hands (`hands_per_episode={scale.session_hands}`; the thesis
does not state a session length), so `flat56`'s own-chips feature counts from the session's start as the thesis defines it.
The seed draws the logs (decks and seatings), the split and the learners. Wall times below are from the
shared 2-core machine.
"""]
    for experiment, rs in runs.items():
        heads = [headline(r) for r in rs]
        rows = [[name, *(f"{h[name]:.3f}" if h[name] < 2 else f"{h[name]:g}" for h in heads), spread([h[name] for h in heads])] for name in heads[0]]
        a = aris(rs)
        rows.append(["adjusted Rand index between seeds' clusters", *(f"{s1}-{s2}: {v:.3f}" for s1, s2, v in a), spread([v for *_, v in a])])
        secs = " ".join(f"seed {r['seed']}: logs {r['log_secs']:.0f} s, clustering {r['fit_secs']:.0f} s, {r['decisions']} decisions;" for r in rs)
        parts.append(f"""### {experiment}: {TITLES[experiment]}

{secs}

{report.table(["number", *(f"seed {r['seed']}" for r in rs), "mean ± sd (min .. max)"], rows)}

Per cluster (mean over its members; the learner's numbers depend on the seed, so clusters are listed per seed):

{report.table(["seed", "cluster", "members", "in-sample", "held-out", "majority baseline"], [row for r in rs for row in cluster_rows(r)])}
""")
    if "agents-full" in runs and "agents-thesis" in runs:
        rows = []
        for letter in THESIS_LETTERS:
            cells: list[object] = [letter]
            for experiment in ("agents-full", "agents-thesis"):
                rs = runs[experiment]
                i = rs[0]["names"].index(letter)
                cells.append(spread([r["held_out"][i] for r in rs]))
                cells.append(spread([r["in_sample"][i] for r in rs]))
                mates = []
                for r in rs:
                    lab = r["labels"]
                    mates.append(",".join(n for n, v in zip(r["names"], lab, strict=True) if v == lab[i] and n != letter) or "alone")
                cells.append(" / ".join(mates))
            rows.append(cells)
        parts.append(f"""### Sensitivity to the agent pool

The thesis states the rules of A and B exactly and of C only that it never bets or raises (our C adds card
rules of our own); D..L are ours. The same three agents, accuracy of their learner (held-out, and in-sample on its
training samples) and the other members of their cluster (seeds in order), in the full pool and in the pool of A, B, C plus six card-blind control players
(`rule_based.CONTROLS`: fixed fold / call / raise probabilities P1 .1/.8/.1, P2 .1/.4/.5, P3 .5/.45/.05,
P4 .5/.2/.3, P5 .3/.5/.2, P6 uniform; a fold when checking is free checks):

{report.table(["agent", "full pool: held-out", "full pool: in-sample", "full pool: cluster mates", "thesis pool: held-out", "thesis pool: in-sample", "thesis pool: cluster mates"], rows)}
""")
    for experiment, heading in (("prospect", "heads-up sessions"), ("prospect-hands", "one-hand episodes (control)")):
        if experiment in runs:
            parts.append(_prospect_section(runs[experiment], heading, scale, section))
    text = "\n".join(parts)
    report.write_section(section, text)
    return text
