"""Round robins of several training seeds side by side: each pair's result per seed and its spread.

``evaluate`` judges one run; a recipe is judged by several runs that differ only in the training seed.
For every pair (oriented later player against earlier one, the goal's direction: heuristic v random,
cnn1 v random, ..., cnn3 v cnn2) this module gives each seed's mean and 95% half-width over deals, the
mean over seeds, their standard deviation, minimum and maximum, a 95% t-interval for the mean over
seeds (training and evaluation noise together) and the number of seeds whose own interval is above 0.
Stages of one seed on different deals (same hands per pair) pool into one result first.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats

# Table 3 of Hwang & Kaneko (row player's big blinds per hand, 100,000 hands, 50 BB stacks).
PAPER_TABLE3: dict[tuple[str, str], float] = {
    ("heuristic", "random"): 6.82,
    ("cnn1", "random"): -0.78, ("cnn2", "random"): -0.10, ("cnn3", "random"): 0.58,
    ("cnn1", "heuristic"): -3.57, ("cnn2", "heuristic"): -3.74, ("cnn3", "heuristic"): -7.86,
    ("cnn2", "cnn1"): 0.28, ("cnn3", "cnn1"): 2.35, ("cnn3", "cnn2"): 5.32,
}


def load_result(folder: str | Path) -> dict[str, Any]:
    """``results.json`` written by ``evaluate`` (``folder`` may also name the file itself)."""
    path = Path(folder)
    path = path / "results.json" if path.is_dir() else path
    if not path.is_file():
        raise ValueError(f"no round robin result at {path} (run `python -m agent_zoo.cnn evaluate` first)")
    return json.loads(path.read_text())


def pool_stages(stages: list[dict[str, Any]]) -> dict[str, Any]:
    """One seed's round robins on disjoint deals with the same players and hands per pair, as one:
    the mean of the stage means and half-width ``sqrt(sum h^2) / k`` (independent stages)."""
    if not stages:
        raise ValueError("stages must hold at least one round robin result")
    first = stages[0]
    for s in stages[1:]:
        if s["names"] != first["names"] or s["hands"] != first["hands"]:
            raise ValueError(f"stages must have the same players and hands per pair, got {first['names']} x "
                             f"{first['hands']} and {s['names']} x {s['hands']}")
        if s.get("candidates") != first.get("candidates") or s.get("seed") == first.get("seed"):
            raise ValueError("stages must share the candidate set and use different deal seeds")
    k = len(stages)
    mean = np.mean([np.asarray(s["mean"]) for s in stages], axis=0)
    ci = np.sqrt(np.sum([np.asarray(s["ci95"]) ** 2 for s in stages], axis=0)) / k
    return {**first, "mean": mean.tolist(), "ci95": ci.tolist(), "hands": first["hands"] * k,
            "seed": [s.get("seed") for s in stages]}


@dataclass
class SeedSpread:
    """``mean[s, p]`` / ``ci95[s, p]``: seed s's result of pair p = (``pairs[p][0]`` v ``pairs[p][1]``)."""

    labels: list[str]  # one per training seed
    pairs: list[tuple[str, str]]
    mean: np.ndarray
    ci95: np.ndarray
    hands: int

    @property
    def seed_mean(self) -> np.ndarray:
        return self.mean.mean(axis=0)

    @property
    def seed_sd(self) -> np.ndarray:
        return self.mean.std(axis=0, ddof=1) if len(self.labels) > 1 else np.full(len(self.pairs), np.nan)

    @property
    def seed_ci95(self) -> np.ndarray:
        """Half-width of the 95% t-interval of the mean over seeds (NaN with one seed)."""
        n = len(self.labels)
        if n < 2:
            return np.full(len(self.pairs), np.nan)
        return stats.t.ppf(0.975, n - 1) * self.seed_sd / np.sqrt(n)

    @property
    def significant_wins(self) -> np.ndarray:
        """Seeds whose own 95% interval lies above 0, per pair."""
        return (self.mean - self.ci95 > 0).sum(axis=0)

    def to_dict(self) -> dict[str, Any]:
        return {"labels": self.labels, "pairs": [list(p) for p in self.pairs], "hands": self.hands,
                "mean": self.mean.tolist(), "ci95": self.ci95.tolist(), "seed_mean": self.seed_mean.tolist(),
                "seed_sd": self.seed_sd.tolist(), "seed_ci95": self.seed_ci95.tolist(),
                "significant_wins": self.significant_wins.tolist()}

    def markdown(self, reference: dict[str, Any] | None = None, reference_label: str = "reference") -> str:
        """One row per pair: each seed, the spread, Table 3 and optionally another round robin's cell."""
        head = (["pair"] + [f"{lab}" for lab in self.labels]
                + ["mean over seeds", "sd", "min .. max", "95% CI of the mean", "seeds > 0", "Table 3"])
        if reference is not None:
            head.append(reference_label)
        rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for p, (a, b) in enumerate(self.pairs):
            cells = []
            for s in range(len(self.labels)):
                m, h = self.mean[s, p], self.ci95[s, p]
                text = f"{m:+.2f} ± {h:.2f}"
                cells.append(f"**{text}**" if abs(m) > h else text)
            paper = PAPER_TABLE3.get((a, b))
            cells += [f"{self.seed_mean[p]:+.2f}", f"{self.seed_sd[p]:.2f}",
                      f"{self.mean[:, p].min():+.2f} .. {self.mean[:, p].max():+.2f}",
                      f"± {self.seed_ci95[p]:.2f}", f"{self.significant_wins[p]} of {len(self.labels)}",
                      "" if paper is None else f"{paper:+.2f}"]
            if reference is not None:
                cell = reference_cell(reference, a, b)
                cells.append("" if cell is None else f"{cell[0]:+.2f} ± {cell[1]:.2f}")
            rows.append(f"| {a} v {b} | " + " | ".join(cells) + " |")
        return "\n".join(rows)


def reference_cell(result: dict[str, Any], a: str, b: str) -> tuple[float, float] | None:
    """``a``'s mean and half-width against ``b`` in a round robin result, or None if either is absent."""
    names = result["names"]
    if a not in names or b not in names:
        return None
    i, j = names.index(a), names.index(b)
    return float(result["mean"][i][j]), float(result["ci95"][i][j])


def spread(results: list[dict[str, Any]], labels: list[str]) -> SeedSpread:
    """Line up one round robin result per training seed (same players, hands per pair and candidates)."""
    if len(results) != len(labels) or not results:
        raise ValueError(f"need one label per result, got {len(labels)} labels for {len(results)} results")
    names, hands = results[0]["names"], results[0]["hands"]
    for r in results[1:]:
        if r["names"] != names or r["hands"] != hands or r.get("candidates") != results[0].get("candidates"):
            raise ValueError("every seed's round robin must have the same players, hands per pair and candidates")
    pairs = [(names[j], names[i]) for j in range(len(names)) for i in range(j)]
    idx = [(names.index(a), names.index(b)) for a, b in pairs]
    mean = np.array([[r["mean"][i][j] for i, j in idx] for r in results], dtype=np.float64)
    ci = np.array([[r["ci95"][i][j] for i, j in idx] for r in results], dtype=np.float64)
    return SeedSpread(list(labels), pairs, mean, ci, hands)


def plot_spread(sp: SeedSpread, path: str | Path, reference: dict[str, Any] | None = None,
                reference_label: str = "reference") -> Path:
    """Each pair's result per seed with its 95% interval, the mean over seeds, Table 3 and a reference."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10, 4.2))
    ax = fig.subplots()
    x = np.arange(len(sp.pairs))
    n = len(sp.labels)
    for s, lab in enumerate(sp.labels):
        off = (s - (n - 1) / 2) * 0.12
        ax.errorbar(x + off, sp.mean[s], yerr=sp.ci95[s], fmt="o", ms=4, capsize=2, label=lab)
    ax.scatter(x, sp.seed_mean, marker="_", s=400, color="black", label="mean over seeds", zorder=3)
    paper = [PAPER_TABLE3.get(p, np.nan) for p in sp.pairs]
    ax.scatter(x, paper, marker="x", color="red", s=40, label="Table 3 (paper)", zorder=3)
    if reference is not None:
        ref = [reference_cell(reference, a, b) for a, b in sp.pairs]
        ax.scatter(x + 0.32, [np.nan if c is None else c[0] for c in ref], marker="s", s=18, color="grey",
                   label=reference_label, zorder=3)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xticks(x, [f"{a}\nv {b}" for a, b in sp.pairs], fontsize=8)
    ax.set_ylabel("big blinds per hand (row player)")
    ax.set_title(f"Round robin per training seed ({sp.hands:,} hands per pair, 95% intervals)")
    ax.legend(fontsize=7, ncol=3)
    fig.tight_layout()
    path = Path(path)
    from agent_zoo.figures import save_figure
    save_figure(fig, path, dpi=110)
    return path
