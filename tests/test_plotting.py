"""Library code draws on its own ``matplotlib.figure.Figure`` and never switches the global backend:
only a program's entry point may choose one."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_no_library_module_sets_the_backend() -> None:
    offenders = []
    for package in ("poker_envs", "agent_zoo", "wrappers"):
        for path in (ROOT / package).rglob("*.py"):
            if path.name == "__main__.py":
                continue
            text = path.read_text()
            if re.search(r"\b(matplotlib|mpl)\.use\(", text) or "matplotlib.pyplot" in text:
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_saving_a_chart_leaves_the_backend_and_pyplot_alone(tmp_path: Path) -> None:
    code = f"""
import sys, matplotlib
before = dict.__getitem__(matplotlib.rcParams, "backend")  # get_backend() would resolve (and import pyplot)
from agent_zoo.push_fold.chart import save_chart_png
from agent_zoo.push_fold.solver import solve_push_fold
path = save_chart_png(solve_push_fold(10.0, max_iterations=40), {str(tmp_path / 'chart.png')!r})
assert path.read_bytes()[:8] == b"\\x89PNG\\r\\n\\x1a\\n", "not a PNG"
assert dict.__getitem__(matplotlib.rcParams, "backend") == before
assert "matplotlib.pyplot" not in sys.modules
"""
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_every_figure_is_saved_through_save_figure() -> None:
    """``agent_zoo.figures.save_figure`` trims the canvas to every artist (no clipped tick or axis labels); a plain
    ``savefig`` elsewhere would bring clipping back."""
    offenders = []
    for folder in ("agent_zoo", "wrappers", "benchmarks", "examples", "docs"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name != "figures.py" and re.search(r"\.savefig\(", path.read_text()):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_save_figure_keeps_labels_outside_the_axes(tmp_path: Path) -> None:
    """A tick label far below the axes (as a chart's bottom row) is inside the saved picture."""
    from matplotlib.figure import Figure

    from agent_zoo.figures import save_figure

    fig = Figure(figsize=(4, 3))
    fig.subplots_adjust(bottom=0.0)  # the x tick labels now lie below the canvas
    ax = fig.subplots()
    ax.set_xticks([0, 1], ["A", "K"])
    ax.set_xlabel("rank")
    save_figure(fig, tmp_path / "f.png", dpi=50)
    from matplotlib.image import imread

    height = imread(tmp_path / "f.png").shape[0]
    assert height > 3 * 50  # grown past the 150-pixel canvas to hold the labels


def test_cells_print_the_digits_their_colour_scale_needs() -> None:
    from agent_zoo.figures import cell_decimals, signed

    assert [cell_decimals(x) for x in (2.4, 0.25, 0.08, 0.008, 0.0)] == [2, 2, 3, 4, 2]
    assert signed(0.0042, cell_decimals(0.008)) == "+0.0042" and signed(-0.00001, 2) == "0" and signed(0.0, 3) == "0"


def test_heat_map_cells_and_title_say_what_they_count(tmp_path: Path) -> None:
    """A sit-and-go heat map: values of +-0.006 print with four decimals (not +0.01 / -0.00) and the title and
    colour bar count prizes per sit-and-go, not per hand."""
    import numpy as np
    from matplotlib.figure import Figure

    from agent_zoo.tournament_report import TournamentResult

    texts: list[str] = []
    original = Figure.savefig

    def capture(self: Figure, *args: object, **kwargs: object) -> None:
        texts.extend(t.get_text() for ax in self.axes for t in ax.texts)
        texts.extend(ax.get_title() for ax in self.axes)
        texts.extend(ax.get_ylabel() for ax in self.axes)
        original(self, *args, **kwargs)

    mean = np.array([[0.0, -0.0063, 0.0002], [0.0063, 0.0, 0.0], [-0.0002, 0.0, 0.0]])
    result = TournamentResult("nolimit", "prize", ["a", "b", "c"], 6, 0, mean, np.full((3, 3), 0.004), {}, {}, 6,
                              np.zeros(3), np.zeros(3), np.ones(3, dtype=int), 10, np.zeros((3, 6)))
    Figure.savefig = capture  # type: ignore[method-assign]
    try:
        result.write_png(str(tmp_path / "t.png"))
    finally:
        Figure.savefig = original  # type: ignore[method-assign]
    joined = "\n".join(texts)
    assert "-0.0063" in joined and "+0.0002" in joined and "-0.00\n" not in joined and "+0.00\n" not in joined
    assert "prize per sit-and-go" in joined and "/hand" not in joined
