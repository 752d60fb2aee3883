"""Markdown tables, PNG figures and the results page of the clustering experiments.

Each experiment writes its own section to ``<results>/clustering/<name>.md``; ``write_page``
joins the sections that exist into ``<results>/clustering.md`` (so experiments run separately).
``<results>`` is ``out`` unless :func:`configure` (the CLI's ``--out``) says otherwise; the committed page is
regenerated with ``--out docs/results``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

RESULTS = Path("out")  # the results page goes here; figures and sections in RESULTS / "clustering"
FIGURES = RESULTS / "clustering"
CACHE = Path("runs/clustering")  # logs and trained cluster agents, so an interrupted run resumes
PROGRESS = True  # whether the experiments show progress bars
REPOSITORY = Path(__file__).resolve().parents[2]  # the checkout: the pages name paths relative to it


def shown(path: str | os.PathLike[str]) -> str:
    """``path`` as a results page writes it: relative to the repository (``docs/results``,
    ``../shared/data/...``), so a page regenerated on any machine names no absolute path of that machine."""
    try:
        return Path(os.path.relpath(Path(path).resolve(), REPOSITORY)).as_posix()
    except ValueError:  # another drive (Windows): no relative path exists
        return Path(path).as_posix()


def configure(results: Path, cache: Path, progress: bool = True) -> None:
    """Send the page, sections and figures to ``results`` and the logs and agents to ``cache``; show
    progress bars or not (the CLI's ``--out``, ``--cache`` and ``--no-progress``)."""
    global RESULTS, FIGURES, CACHE, PROGRESS
    RESULTS, FIGURES, CACHE, PROGRESS = Path(results), Path(results) / "clustering", Path(cache), progress
ORDER = ("summary", "study", "study_full", "functions", "agents", "prospect", "pluribus")  # summary.md is written by hand
INTRO = """# Policies from clustered play logs (Koyama's thesis)

Reproduction of the thesis' experiments with `agent_zoo.clustering`. The method (its section 4.2.2) is
k-means whose centres are learners: each player's log of (state, action) pairs starts with a random learner;
then, until no log moves, every learner trains on the logs it holds and every log moves to the learner that
predicts it best (accuracy for actions, squared error for the regression of 5.1). Code:
`kmeans.py` (the algorithm, k-means++-like start, empty-cluster reseeding, choice of k),
`learners.py` (the thesis' 2-4-4-1 / 107-64-64-3 / 56-64-64-64-3 networks), `rule_based.py` (twelve agents),
`prospect.py` (36 prospect-theory agents), `agent.py` (`ClusteredPolicyAgent`: a learner as a zoo agent,
registry name `cluster:<file>`), `experiments.py` / `pluribus.py` (this page).

Differences from the thesis, all deliberate:

- inputs (and regression targets) are standardised with the mean and deviation of all logs (fixed, saved
  with the learner); SGD has momentum 0.9;
- an empty learner takes the log its own learner predicts worst (the thesis let one stay empty: the
  section 5.3 run shows both), and after the labels settle each learner trains a few more epochs on its
  own cluster;
- `ClusteredPolicyAgent` samples its action from the learner's softmax over the legal actions by default
  (`mode="argmax"` plays the single most likely action, as the thesis' learners did; Table 5.6 shows both);
- the rule-based agents D..L are ours (the thesis states A's and B's rules and of C only that it never
  bets or raises; our C's card rules are ours); three of a kind has hand-strength category 3 (the thesis'
  rule) although its worked example writes 2;
- the prospect agents play heads-up sessions of 20 hands (`hands_per_episode=20`, stacks carried over):
  the thesis measures own chips from the start but states no session length;
- sections 2 and 3 run three seeds and hold out 25% of every log: the learners cluster and train on the
  other 75%, and accuracy is reported both on those training samples ("in-sample", what the thesis reports)
  and on the held-out part; the thesis trains and scores on every sample, one run.

Each section says its command, the scale it ran at and its wall time. Timings were taken on a shared
2-core machine with other jobs running: they are indicative only. Logs are cached under `runs/clustering/`
(an interrupted run resumes from them); trained cluster agents are saved there too.
"""


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A markdown table; floats are shown with 3 significant decimals unless already strings."""

    def cell(v: object) -> str:
        if isinstance(v, float | np.floating):
            return f"{v:.3f}"
        return str(v)

    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def pct(v: float) -> str:
    return f"{100 * v:.1f}%"


def write_section(name: str, text: str) -> Path:
    """Save one experiment's section and rebuild the page."""
    FIGURES.mkdir(parents=True, exist_ok=True)
    path = FIGURES / f"{name}.md"
    path.write_text(text.rstrip() + "\n")
    write_page()
    return path


def write_page() -> Path:
    parts = [INTRO]
    for name in ORDER:
        section = FIGURES / f"{name}.md"
        if section.exists():
            parts.append(section.read_text())
    page = RESULTS / "clustering.md"
    page.write_text("\n".join(parts))
    return page


def figure_path(name: str) -> Path:
    """Where a PNG goes (the folder is made on first use)."""
    FIGURES.mkdir(parents=True, exist_ok=True)
    return FIGURES / name


def cluster_colors(k: int) -> list:
    import matplotlib

    cmap = matplotlib.colormaps["tab10"]
    return [cmap(i % 10) for i in range(k)]


def grid_map(labels: np.ndarray, xs: Sequence[float], ys: Sequence[float], xlabel: str, ylabel: str, title: str, path: Path, k: int) -> None:
    """Cluster of each (x, y) grid cell as coloured squares with the cluster number written in."""
    from matplotlib.figure import Figure
    from matplotlib.colors import ListedColormap

    grid = labels.reshape(len(xs), len(ys)).T  # rows: y, columns: x
    fig = Figure(figsize=(5.5, 5))
    ax = fig.subplots()
    ax.imshow(grid, origin="lower", cmap=ListedColormap(cluster_colors(k)), vmin=-0.5, vmax=k - 0.5)
    for i in range(len(ys)):
        for j in range(len(xs)):
            ax.text(j, i, str(grid[i, j] + 1), ha="center", va="center", fontsize=7)
    ax.set_xticks(range(len(xs)), [f"{v:g}" for v in xs])
    ax.set_yticks(range(len(ys)), [f"{v:g}" for v in ys])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    fig.tight_layout()
    from agent_zoo.figures import save_figure
    save_figure(fig, path, dpi=110)


def style_scatter(points: dict[str, tuple[float, float]], clusters: dict[str, int], k: int, title: str, path: Path, squares: frozenset[str] = frozenset()) -> None:
    """Looseness (x) against aggressiveness (y), a dot per player coloured by cluster (Figure 5.3);
    names in ``squares`` (the cluster agents, Figure 5.4) are drawn as squares."""
    from matplotlib.figure import Figure

    colors = cluster_colors(k)
    fig = Figure(figsize=(5.5, 5))
    ax = fig.subplots()
    for name, (loose, aggr) in points.items():
        c = clusters.get(name)
        marker = "s" if name in squares or c is None else "o"
        ax.scatter(loose, aggr, color=colors[c] if c is not None else "black", marker=marker, s=50)
        ax.annotate(name, (loose, aggr), textcoords="offset points", xytext=(4, 4), fontsize=8)
    for c in range(k):
        ax.scatter([], [], color=colors[c], label=f"cluster {c + 1}")
    ax.axvline(0.5, color="grey", lw=0.5)
    ax.axhline(0.5, color="grey", lw=0.5)
    ax.set_xlim(0, 1.05)
    ax.set_ylim(-0.05, 1.05)
    ax.set_xlabel("looseness (5.2)")
    ax.set_ylabel("aggressiveness (5.3)")
    ax.set_title(title)
    ax.legend(fontsize=7, loc="center left")
    fig.tight_layout()
    from agent_zoo.figures import save_figure
    save_figure(fig, path, dpi=110)
