"""A strategy drawn on the 13x13 grid of hand classes, as postflop solvers show it.

Each cell is one class (pairs on the diagonal, suited above, offsuit below, aces top left). Its coloured bars split
the cell's width by the class's mix of actions (each holding counted by its weight in the range) and fill its height
by the class's share of the range (the mean weight of its holdings); a class with no weight is greyed.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from agent_zoo.solver.ranges import CLASS_LABELS, NUM_COMBOS, NUM_RANKS, grid_average

FIGSIZE = (8.0, 9.0)  # inches: the grid, the title above and the legend below
_FOLD = "#4a86e8"
_PASSIVE = "#6aa84f"
_ALLIN = "#660000"
_GREYED = "#d9d9d9"


def action_colours(actions: list[str]) -> list[str]:
    """A colour per action: fold blue, check and call green, bets and raises from light to dark red in the order
    given (smallest first, as trees list them), all-in darkest."""
    from matplotlib import colormaps
    from matplotlib.colors import to_hex

    kinds = []
    for name in actions:
        low = name.lower()
        kinds.append("fold" if low.startswith("fold") else "passive" if low.startswith(("check", "call"))
                     else "allin" if "allin" in low.replace("-", "").replace(" ", "").replace("_", "") else "bet")
    n_bets = kinds.count("bet")
    reds = colormaps["OrRd"]
    shades = [to_hex(reds(0.45 + 0.45 * i / max(n_bets - 1, 1))) for i in range(n_bets)]
    out = []
    for kind in kinds:
        out.append({"fold": _FOLD, "passive": _PASSIVE, "allin": _ALLIN}.get(kind) or shades.pop(0))
    return out


def plot_range_grid(
    path: str | os.PathLike[str],
    actions: list[str],
    strategy: np.ndarray,
    weights: np.ndarray,
    title: str,
    *,
    dpi: int = 100,
) -> Path:
    """Save a PNG of ``strategy`` (actions x 1326 holdings, each column a distribution) over the range ``weights``
    (1326,) on the 13x13 grid; returns the path. The image is about ``FIGSIZE * dpi`` pixels (800 x 900 by default), trimmed
    to its labels."""
    try:
        from matplotlib.collections import PatchCollection
        from matplotlib.figure import Figure
        from matplotlib.patches import Patch, Rectangle
    except ImportError as exc:  # matplotlib is in the zoo and test extras
        raise ImportError("plot_range_grid needs matplotlib: pip install 'poker-envs[zoo]'") from exc

    strat = np.asarray(strategy, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    if strat.ndim != 2 or strat.shape != (len(actions), NUM_COMBOS):
        raise ValueError(
            f"strategy: expected shape ({len(actions)}, {NUM_COMBOS}) (actions x holdings), got {strat.shape}"
        )
    if w.shape != (NUM_COMBOS,):
        raise ValueError(f"weights: expected shape ({NUM_COMBOS},), got {w.shape}")
    if not (np.all(np.isfinite(strat)) and strat.min(initial=0.0) >= 0.0):
        raise ValueError("strategy: expected finite, non-negative probabilities")
    if not (np.all(np.isfinite(w)) and w.min() >= 0.0):
        raise ValueError("weights: expected finite, non-negative weights")

    mix = grid_average(strat, w)  # (A, 13, 13), nan where the class has no weight
    fill = np.clip(grid_average(w, np.ones(NUM_COMBOS)), 0.0, 1.0)  # mean weight of each class's holdings
    colours = action_colours(actions)

    fig = Figure(figsize=FIGSIZE, dpi=dpi)
    ax = fig.add_axes((0.03, 0.1, 0.94, 0.84))
    ax.set_xlim(0, NUM_RANKS)
    ax.set_ylim(NUM_RANKS, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    patches, faces = [], []
    for row in range(NUM_RANKS):
        for col in range(NUM_RANKS):
            cell = mix[:, row, col]
            live = bool(np.all(np.isfinite(cell)) and cell.sum() > 0)
            patches.append(Rectangle((col, row), 1, 1))
            faces.append("white" if live else _GREYED)
            if live:
                share = cell / cell.sum()
                height = fill[row, col]
                left = float(col)
                for a in range(len(actions)):
                    if share[a] > 0:
                        patches.append(Rectangle((left, row + 1 - height), share[a], height))
                        faces.append(colours[a])
                        left += share[a]
            ax.text(col + 0.06, row + 0.08, CLASS_LABELS[row, col], ha="left", va="top", fontsize=7,
                    color="black" if live else "#808080")
    ax.add_collection(PatchCollection(patches, facecolors=faces, edgecolors="none"))
    for k in range(NUM_RANKS + 1):
        ax.plot([0, NUM_RANKS], [k, k], color="#404040", linewidth=0.5)
        ax.plot([k, k], [0, NUM_RANKS], color="#404040", linewidth=0.5)

    total = w @ strat.T
    overall = total / total.sum() if total.sum() > 0 else np.zeros(len(actions))
    handles = [
        Patch(facecolor=c, label=f"{a} {100 * f:.1f}%") for a, c, f in zip(actions, colours, overall, strict=True)
    ]
    fig.legend(handles=handles, loc="lower center", ncol=min(len(actions), 4), frameon=False, fontsize=9)
    fig.suptitle(title, fontsize=12)
    from agent_zoo.figures import save_figure  # trims the canvas to every label

    return save_figure(fig, Path(path), dpi=dpi)
