"""Push/fold charts as people read them: 13x13 grids (pairs on the diagonal, suited above, offsuit
below) of the push or call frequency per class, as text and as a PNG (matplotlib, imported lazily)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from agent_zoo.push_fold.hands import CHART_RANKS, NUM_CLASSES, class_names
from agent_zoo.push_fold.multiway_game import MultiwayResult, decisions
from agent_zoo.push_fold.solver import PushFoldResult, range_percent


def grid_text(freq: np.ndarray, title: str) -> str:
    """A 13x13 text grid: each cell is the class name and its frequency in percent ("." = never)."""
    freq = np.asarray(freq, dtype=np.float64)
    if freq.shape != (NUM_CLASSES,):
        raise ValueError(f"freq must have shape ({NUM_CLASSES},), got {freq.shape}")
    names = class_names()
    lines = [f"{title}: {range_percent(freq):.1f}% of hands"]
    lines.append("     " + "".join(f"{r:^8}" for r in CHART_RANKS))
    for row in range(13):
        cells = []
        for col in range(13):
            k = row * 13 + col
            f = freq[k]
            mark = "   ." if f < 0.005 else f"{100 * f:4.0f}"
            cells.append(f"{names[k]:>3}{mark} ")
        lines.append(f"  {CHART_RANKS[row]}  " + "".join(cells))
    return "\n".join(lines)


def chart_text(result: PushFoldResult) -> str:
    """Both charts and the headline figures of one solve."""
    cfg = result.config
    unit = "BB" if cfg.gamma == 0 else "utility units"
    head = (
        f"Heads-up push/fold, stack {cfg.stack_bb:g} BB, ante {cfg.ante_bb:g} BB"
        + (f", rake {cfg.rake:g}" + (f" capped at {cfg.rake_cap_bb:g} BB" if cfg.rake_cap_bb is not None else "") if cfg.rake else "")
        + (f", gamma {cfg.gamma:g}" if cfg.gamma else "")
    )
    tail = (
        f"exploitability (NashConv / 2, OpenSpiel's definition) {result.exploitability:.3g} {unit}; "
        f"NashConv (sum of both best-response gains) {result.nash_conv:.3g} {unit}; "
        f"small blind's value {result.sb_value:+.4f} {unit}/hand; {result.iterations} CFR+ iterations"
        f"{' + exact polish' if result.polished else ''}; {result.seconds * 1000:.0f} ms"
    )
    return "\n\n".join([head, grid_text(result.sb_push, "Small blind pushes"),
                        grid_text(result.bb_call, "Big blind calls a push"), tail])  # fmt: skip


def save_chart_png(result: PushFoldResult, path: str | Path) -> Path:
    """Two heat maps (small blind push, big blind call) with the class names and frequencies."""
    from matplotlib.figure import Figure

    names = class_names()
    cfg = result.config
    fig = Figure(figsize=(15, 7.6))
    axes = fig.subplots(1, 2)
    for ax, freq, title, pct in (
        (axes[0], result.sb_push, "Small blind: push", result.sb_push_pct),
        (axes[1], result.bb_call, "Big blind: call a push", result.bb_call_pct),
    ):
        grid = np.asarray(freq).reshape(13, 13)
        ax.imshow(grid, cmap="YlGn", vmin=0, vmax=1.3)  # capped below the darkest green: labels stay legible
        for row in range(13):
            for col in range(13):
                f = grid[row, col]
                label = names[row * 13 + col] + ("" if f in (0.0, 1.0) else f"\n{100 * f:.0f}%")
                ax.text(col, row, label, ha="center", va="center", fontsize=7)
        ax.set_xticks(range(13), list(CHART_RANKS))
        ax.set_yticks(range(13), list(CHART_RANKS))
        ax.set_title(f"{title} ({pct:.1f}% of hands)")
    extra = f", rake {cfg.rake:g}" if cfg.rake else ""
    extra += f", gamma {cfg.gamma:g}" if cfg.gamma else ""
    fig.suptitle(
        f"Heads-up push/fold equilibrium: stack {cfg.stack_bb:g} BB, ante {cfg.ante_bb:g} BB{extra} "
        f"(exploitability {result.exploitability:.1e})"
    )
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    path = Path(path)
    from agent_zoo.figures import save_figure
    save_figure(fig, path, dpi=110)
    return path


def save_multiway_png(result: MultiwayResult, path: str | Path) -> Path:
    """One heat map per decision of a multi-way solution: every seat's
    push range when first in and its calling ranges after the earlier seats' actions, like the heads-up chart."""
    from matplotlib.figure import Figure

    names = class_names()
    cfg = result.config
    panels = [(key, result.strategy[s][prefix]) for (key, _), (s, prefix) in zip(result.ranges().items(), decisions(cfg.num_players))]
    cols = min(4, len(panels))
    rows = -(-len(panels) // cols)
    fig = Figure(figsize=(4.6 * cols, 5.2 * rows))
    axes = np.atleast_1d(fig.subplots(rows, cols)).ravel()
    for ax, (key, freq) in zip(axes, panels):
        grid = np.asarray(freq).reshape(13, 13)
        ax.imshow(grid, cmap="YlGn", vmin=0, vmax=1.3)
        for row in range(13):
            for col in range(13):
                f = grid[row, col]
                label = names[row * 13 + col] + (f"\n{100 * f:.0f}" if 0.005 < f < 0.995 else "")
                ax.text(col, row, label, ha="center", va="center", fontsize=4.5)
        ax.set_xticks(range(13), list(CHART_RANKS), fontsize=6)
        ax.set_yticks(range(13), list(CHART_RANKS), fontsize=6)
        ax.set_title(f"{key}\n({range_percent(freq):.1f}% of hands)", fontsize=8)
    for ax in axes[len(panels):]:
        ax.set_axis_off()
    oos = result.out_of_sample
    if oos:  # an estimate: its standard error beside it, and never a bare "-0.000"
        from agent_zoo.figures import signed

        tail = f", out-of-sample NashConv {signed(oos['nash_conv'], 4)} ± {oos.get('nash_conv_stderr', float('nan')):.4f} BB/hand"
    else:
        tail = ""
    solved = "CFR on fresh deals" if result.nash_conv is None else \
        f"CFR+ on {result.method}; in-sample NashConv {result.nash_conv:.1e}"
    fig.suptitle(f"{cfg.num_players}-player push/fold, stack {cfg.stack_bb:g} BB, ante {cfg.ante_bb:g} BB "
                 f"({solved}{tail})")  # fmt: skip
    fig.tight_layout(rect=(0, 0, 1, 0.95), h_pad=2.5)
    path = Path(path)
    from agent_zoo.figures import save_figure
    save_figure(fig, path, dpi=110)
    return path
