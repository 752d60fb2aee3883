"""Sections 2 and 3 of docs/results/clustering.md from the per-seed runs of ``full_runs``: headline numbers
with their spread over seeds, adjusted Rand index between seeds, and the thesis' tables (the first seed in full)."""

from __future__ import annotations

from typing import Any

import numpy as np

from agent_zoo.clustering import report
from agent_zoo.clustering.experiments import FULL, PROBE_ROWS_4, PROBE_ROWS_36, QUICK, SESSION_HANDS
from agent_zoo.clustering.play import style
from agent_zoo.clustering.prospect import PARAMETER_GRID
from agent_zoo.clustering.rule_based import AGENTS
from agent_zoo.clustering.study_report import aris, cluster_params, cluster_rows, headline, probe_table, spread

Run = dict[str, Any]
# The thesis' Table 5.5 (in-sample accuracy of each agent's learner, and the agent's majority baseline) for the
# agents whose rules it states; its D..L are other agents than ours.
THESIS_5_5 = {"A": (0.972, 0.972), "B": (0.817, 0.508), "C": (0.740, 0.645)}


def _close(a: Any, b: Any) -> bool:  # noqa: ANN401
    return abs(a[0] - b[0]) <= 0.1 and abs(a[1] - b[1]) <= 0.1


def _goal(run: Run, member_styles: np.ndarray) -> tuple[list[list[object]], int]:
    """Per used learner: members' mean style against the sampling agent's on their states; rows and count within 0.1."""
    labels = np.array(run["labels"])
    rows, good = [], 0
    for j, loose, aggr in run["learner_styles"]:
        mean = member_styles[labels == j].mean(0)
        ok = _close((loose, aggr), mean)
        good += ok
        rows.append([j + 1, " ".join(n for n, v in zip(run["names"], labels, strict=True) if v == j), f"{mean[0]:.3f} / {mean[1]:.3f}", f"{loose:.3f} / {aggr:.3f}", "yes" if ok else "no"])
    return rows, good


def _headline_table(runs: list[Run], extra: dict[str, list[float]]) -> str:
    heads = [{**headline(r), **{k: v[i] for k, v in extra.items()}} for i, r in enumerate(runs)]
    def fmt(name: str, v: float) -> str:
        return f"{v:.3f}" if "accuracy" in name else f"{v:g}"

    rows = [[name, *(fmt(name, h[name]) for h in heads), spread([h[name] for h in heads])] for name in heads[0]]
    a = aris(runs)
    if a:
        rows.append(["adjusted Rand index between seeds' clusters", *(f"{s1}-{s2}: {v:.3f}" for s1, s2, v in a), spread([v for *_, v in a])])
    return report.table(["number", *(f"seed {r['seed']}" for r in runs), "mean ± sd (min .. max)"], rows)


def _accuracy_rows(run: Run) -> list[list[object]]:
    """Thesis-style Table 5.5 (every learner on every log, in-sample, bold: the log's learner) plus held-out."""
    scores, held = np.array(run["scores_in"]), np.array(run["held_out"])
    rows = []
    for i, name in enumerate(run["names"]):
        j = run["labels"][i]
        cells = [f"**{report.pct(s)}**" if t == j else report.pct(s) for t, s in enumerate(scores[i])]
        rows.append([name, *cells, report.pct(run["baseline_in"][i]), "yes" if scores[i, j] >= run["baseline_in"][i] - 1e-9 else "no",
                     report.pct(held[i]), report.pct(run["baseline"][i]), "yes" if held[i] >= run["baseline"][i] - 1e-9 else "no"])
    return rows


ACCURACY_HEADER = ["player", "learner 1 (in-sample)", "learner 2", "learner 3", "learner 4", "baseline (training samples)", ">= baseline",
                   "own learner held-out", "baseline (held-out samples)", ">= baseline (held-out)"]


def _protocol(scale: Any, seeds: list[int], experiment: str, quick: bool) -> str:  # noqa: ANN401
    q = "_quick" if quick else ""
    return (f"`python -m agent_zoo.clustering {experiment}{' --quick' if quick else ''} --seeds {' '.join(map(str, seeds))} --out {report.shown(report.RESULTS)}` "
            f"(per-seed JSON: `{report.shown(report.FIGURES)}/{experiment}{q}_seed<s>.json`; a rerun with the same scale reads them back). "
            f"Every log's decisions are split at random, {1 - scale.holdout:.0%} to cluster and train on and {scale.holdout:.0%} held out, "
            "never trained on: \"in-sample\" is accuracy on the training samples (what the thesis reports), \"held-out\" on the rest. "
            "The seed draws the logs (decks and seatings), the split and the learners. The split and the three seeds were fixed "
            "before these runs (the earlier one-seed version of this section trained and scored on every sample).")


def write_agents(runs: list[Run], quick: bool) -> str:
    scale = QUICK if quick else FULL
    first = runs[0]
    letters = first["names"]
    styles = {r["seed"]: np.array([style(c) for c in r["counts"]]) for r in runs}
    scores = {r["seed"]: np.array(r["chips"]) / np.abs(r["chips"]).max() for r in runs}
    t52 = report.table(
        ["agent", "score", "looseness", "aggressiveness", f"seed {first['seed']}: Fold", "Check+Call", "Bet+Raise", "style aimed at"],
        [[c, spread([scores[r["seed"]][i] for r in runs], "{:.2f}"), spread([styles[r["seed"]][i, 0] for r in runs], "{:.2f}"),
          spread([styles[r["seed"]][i, 1] for r in runs], "{:.2f}"), *first["counts"][i], AGENTS[c].style] for i, c in enumerate(letters)],
    )
    goals, played_s, played_a, goal_rows = [], [], [], {}
    for r in runs:
        rows, good = _goal(r, styles[r["seed"]])
        goal_rows[r["seed"]] = rows
        goals.append(float(good))
        pst = np.array([style(c) for c in r["table56"]["counts"]])
        labels = np.array(r["labels"])
        for mode, out in (("s", played_s), ("a", played_a)):
            n_ok = 0
            for j, *_ in r["learner_styles"]:
                idx = r["table56"]["names"].index(f"L{j + 1}{mode}")
                n_ok += _close(pst[idx], styles[r["seed"]][labels == j].mean(0))
            out.append(float(n_ok))
    extra = {"k chosen by the held-out criterion (k = 1..6)": [float(r["choose_k"]["best"]) for r in runs],
             "sampling agents within 0.1 of members' style, on members' states": goals,
             "sampling agents within 0.1 of members' style, in play (Table 5.6)": played_s,
             "argmax agents within 0.1 of members' style, in play (Table 5.6)": played_a}
    thesis_rows = []
    for c, (acc, base) in THESIS_5_5.items():
        i = letters.index(c)
        thesis_rows.append([c, f"{100 * acc:.1f}", f"{100 * base:.1f}", *(spread([100 * r[key][i] for r in runs], "{:.1f}") for key in ("in_sample", "held_out", "baseline"))])
    clusters = {c: first["labels"][i] for i, c in enumerate(letters)}
    report.style_scatter({c: tuple(styles[first["seed"]][i]) for i, c in enumerate(letters)}, clusters, 4, f"Rule-based agents by cluster (Fig. 5.3), seed {first['seed']}", report.figure_path("agents_styles.png"))
    t56 = first["table56"]
    pst = np.array([style(c) for c in t56["counts"]])
    chips = np.array(t56["chips"])
    t56_table = report.table(["player", "score", "Fold", "Check+Call", "Bet+Raise", "looseness", "aggressiveness"],
                             [[n, float(chips[i] / np.abs(chips).max()), *t56["counts"][i], report.pct(pst[i, 0]), report.pct(pst[i, 1])] for i, n in enumerate(t56["names"])])
    learner_cluster = {n: int(n[1]) - 1 for n in t56["names"] if n.startswith("L") and n[1:-1].isdigit()}
    report.style_scatter({n: tuple(pst[i]) for i, n in enumerate(t56["names"])}, {**clusters, **learner_cluster}, 4,
                         f"Agents and cluster agents at one table (Fig. 5.4), seed {first['seed']}", report.figure_path("agents_table56_styles.png"), frozenset(learner_cluster))
    k_rows = [[r["seed"], r["choose_k"]["best"], *(report.pct(v) for v in r["choose_k"]["table"].values()), f"{r['choose_k']['secs']:.0f} s"] for r in runs]
    secs = " ".join(f"seed {r['seed']}: logs {r['log_secs']:.0f} s (or read back), clustering {r['fit_secs']:.0f} s, Table 5.6 play {r['table56']['secs']:.0f} s, {r['decisions']} decisions;" for r in runs)
    text = f"""## 2. Twelve rule-based agents (section 5.2)

{_protocol(scale, [r['seed'] for r in runs], 'agents', quick)}
Per seed: {scale.hands} hands of 8-handed limit hold'em (`limit_holdem_v0`, 1/2 blinds, 200-chip stacks reset every
hand; hands through `agent_zoo/runner.py`, a fixed deck per hand and a Generator per seat) with 8 of the 12 agents
drawn at random each hand, every decision logged as (flat107 observation, action). Agents A, B, C are the thesis';
D..L are our beginner rules (`agent_zoo/clustering/rule_based.py` documents each). 4 learners 107-64-64-3 (ReLU,
SGD momentum 0.9, lr 0.05, cross entropy), random initial labels, an empty learner reseeded with the worst-fit log,
{scale.epochs} epochs per round (at most {scale.max_rounds} rounds) and {scale.final_epochs} more on the final clusters.
{secs}

### Headline numbers over seeds

{_headline_table(runs, extra)}

Per cluster (mean over its members; clusters are listed per seed since their numbering is arbitrary):

{report.table(["seed", "cluster", "members", "in-sample", "held-out", "majority baseline (held-out samples)"], [row for r in runs for row in cluster_rows(r)])}

### Table 5.5 for the thesis' agents A, B, C, beside the thesis

The thesis reports in-sample accuracy only; its D..L are other agents than ours, so only A, B, C compare.

{report.table(["agent", "thesis in-sample (%)", "thesis baseline (%)", "ours in-sample (%)", "ours held-out (%)", "our baseline, held-out samples (%)"], thesis_rows)}

### Table 5.2: play of the agents

Score: chips won divided by the largest absolute chip result, as the thesis scores; score, looseness and
aggressiveness as mean ± sd (min .. max) over seeds, action counts of seed {first['seed']}.

{t52}

![styles](clustering/agents_styles.png)

### Table 5.5, seed {first['seed']}: every learner on every agent

Learner columns: in-sample accuracy of each learner on the agent's training samples (bold: the learner the agent
ended with, {first['rounds']} rounds, converged {first['converged']}); then the agent's own learner on its held-out samples.

{report.table(ACCURACY_HEADER, _accuracy_rows(first))}

### Choice of k per seed

k-means++-like start, 25% of every agent's decisions held out (a split of its own), the smallest k within 0.5 points of
the best held-out accuracy:

{report.table(["seed", "k chosen", *(f"k={k}" for k in first["choose_k"]["table"]), "time"], k_rows)}

### Table 5.6, seed {first['seed']}: the learners at the table

The 12 agents plus each learner twice: `L<j>s` samples from its predicted action distribution
(`ClusteredPolicyAgent(mode="sample")`, ours), `L<j>a` plays the most likely action (the thesis'
learners); 8 of the {len(t56['names'])} drawn each hand, {scale.hands} hands. The agents are saved as
`runs/clustering/agents_seed<s>_learner<j>_<sample|argmax>.pt` (play one with `cluster:<file>`).

{t56_table}

![styles at the table of Table 5.6](clustering/agents_table56_styles.png)

Squares: the cluster agents, coloured by their cluster (`s` sampling, `a` argmax); dots: the twelve agents.

### Goal beyond the thesis, seed {first['seed']}: does each cluster's agent keep its members' style?

L = looseness, A = aggressiveness; the sampling agent's expected action counts on exactly the states in its
members' logs (counts over seeds in the headline table, with the same check in play at the table above).

{report.table(["cluster", "members", "members' mean L / A", "learner on members' states L / A", "within 0.1"], goal_rows[first['seed']])}
"""
    report.write_section("agents", text)
    return text


def _member_probe_tables(run: Run, draws: int) -> str:
    names = run["names"]
    labels = np.array(run["labels"])
    parts = []
    for mp in run["member_probes"]:
        j = mp["learner"]
        rows = [[*r, *(report.pct(v) for v in mp["learner_freq"][t]), *(report.pct(v) for v in mp["members_freq"][t])] for t, r in enumerate(PROBE_ROWS_4 + PROBE_ROWS_36)]
        parts.append(f"#### Learner {j + 1} (members: {', '.join(n for n, v in zip(names, labels, strict=True) if v == j)})\n\n"
                     + report.table(["stack", "pot", "own bet", "opp. bet", "learner F", "learner C", "learner R", "members F", "members C", "members R"], rows))
    return (f"{draws} random sets of 7 cards (2 hole + 5 board, river) per row.\n\n") + "\n\n".join(parts)


def _figures(runs: list[Run], key: str) -> str:
    lines = []
    for r in runs:
        run = r[key]
        if key == "keep":
            numbering = {int(k): v for k, v in run["thesis_numbering"].items()}
            labels = np.array([numbering[j] - 1 for j in run["labels"]])
            title = f"Fig. 5.5 (thesis numbering), seed {r['seed']}"
        else:
            labels, title = np.array(run["labels"]), f"Reseeded run, seed {r['seed']}"
        path = report.figure_path(f"prospect_{key}_seed{r['seed']}.png")
        report.grid_map(labels, PARAMETER_GRID, PARAMETER_GRID, "alpha", "beta", title, path, 4)
        lines.append(f"![{title}](clustering/{path.name})")
    return " ".join(lines)


def write_prospect(runs: list[Run], quick: bool) -> str:
    scale = QUICK if quick else FULL
    first = runs[0]
    keep, reseed = [r["keep"] for r in runs], [r["reseed"] for r in runs]
    goals = []
    for r in reseed:
        goals.append(float(_goal(r, np.array(r["late_styles"]))[1]))
    goal_rows, _ = _goal(first["reseed"], np.array(first["reseed"]["late_styles"]))
    f0 = "; ".join(f"{r['feature0_range'][0]:g} to {r['feature0_range'][1]:g}" for r in runs)
    secs = " ".join(f"seed {r['seed']}: logs {r['log_secs']:.0f} s (or read back), clustering {r['keep']['fit_secs']:.0f} s (kept) + {r['reseed']['fit_secs']:.0f} s (reseeded), {r['decisions']} decisions;" for r in runs)
    text = f"""## 3. Prospect-theory agents (section 5.3), heads-up sessions

{_protocol(scale, [r['seed'] for r in runs], 'prospect', quick)}
Per seed: the 36 agents (alpha, beta in 0.5..1.0, lambda 2.25) in all 666 pairings (self-play included) of heads-up
`limit_holdem_v0`, played as sessions of {SESSION_HANDS} hands (stacks carried over, so `flat56`'s own chips count
from the session's start, as the thesis defines them; the thesis states no session length), turn and river decisions
logged as (flat56 observation, action), {scale.samples} per agent drawn from them (thesis: 8,192). 4 learners
56-64-64-64-3 (ReLU, SGD momentum 0.9, cross entropy), random initial labels, {scale.epochs} epochs per round (at most
{scale.max_rounds} rounds), run twice on the same split: with the thesis' rule (an empty learner stays empty, no final
epochs) and with ours (an empty learner reseeded, {scale.final_epochs} final epochs).
{secs}

Folds are {spread([r['fold_share'] for r in runs])} of the logged turn and river actions (thesis: 3.5%). The
own-chips feature of the logged states spans {f0} chips (1 chip = the small blind) per seed.

### Headline numbers over seeds: the thesis' rule (empty learner kept)

{_headline_table(keep, {})}

### Headline numbers over seeds: ours (empty learner reseeded, final epochs)

{_headline_table(reseed, {"sampling agents within 0.1 of members' style on members' states": goals})}

Per cluster, reseeded run (mean over its members; clusters listed per seed):

{report.table(["seed", "cluster", "members", "in-sample", "held-out", "majority baseline (held-out samples)"], [row for r in reseed for row in cluster_rows(r)])}

### Figure 5.5 beside the thesis (the thesis' rule)

The thesis gives no numbers for its Figure 5.5, only its description: cluster 3 holds small alpha, cluster 2
large alpha with small beta, cluster 1 the rest in between, and one of its four learners ended empty. Ours are
renumbered to match (3 = smallest mean alpha, 2 = largest mean alpha - beta of the rest, 1 = the largest
remaining, 4 = any other):

{_figures(runs, "keep")}

{cluster_params(keep)}

### Tables 5.10 / 5.11 beside the thesis (the thesis' rule)

Most likely action of the learner on {scale.probe_draws} random river deals per row (stack, pot and bets fixed as
in the thesis' rows). Table 5.10: the thesis' learner 3 against ours of cluster 3 (smallest alpha):

{probe_table(keep, "5.10")}

Table 5.11: the thesis' learner 1 against ours of cluster 1 ("-" where a seed has no cluster 1):

{probe_table(keep, "5.11")}

### Seed {first['seed']}, reseeded run: accuracy of every learner on every agent

{_figures(runs[:1], "reseed")}

{report.table(ACCURACY_HEADER, _accuracy_rows(first['reseed']))}

### Seed {first['seed']}, reseeded run: probes of every learner beside its members

The learner's most likely action beside what its member agents themselves choose on the same states (members
taken in turn), on the thesis' probe rows. {_member_probe_tables(first['reseed'], scale.probe_draws)}

### Goal beyond the thesis, seed {first['seed']}: style of each cluster's agent (turn and river decisions)

{report.table(["cluster", "members", "members' mean L / A", "learner on members' states L / A", "within 0.1"], goal_rows)}

Each reseeded learner is saved as a flat56 `ClusteredPolicyAgent` in
`runs/clustering/prospect_seed<s>_learner<j>_sample.pt` (play it with `cluster:<file>` in a heads-up
`limit_holdem_v0(obs_encoder="flat56")`).
"""
    report.write_section("prospect", text)
    return text
