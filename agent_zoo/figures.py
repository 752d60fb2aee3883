"""What every figure of the zoo shares: saving without clipping, and numbers printed in heat-map cells with as many
decimals as the colour scale needs (no ``+0.00`` in a cell of a scale that spans +-0.008)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any


def save_figure(fig: Any, path: str | Path, dpi: int = 110) -> Path:
    """Save ``fig`` (a ``matplotlib.figure.Figure``) as ``path``, the canvas grown or trimmed to every artist
    (``bbox_inches="tight"``), so no tick label, axis label or title is cut off at the edge."""
    path = Path(path)
    fig.savefig(path, dpi=dpi, bbox_inches="tight", pad_inches=0.1)
    return path


def cell_decimals(scale: float, minimum: int = 2) -> int:
    """Decimals that show two significant digits of a value as large as ``scale`` (the colour scale's limit), and
    at least ``minimum``: 2 for 1.3, 3 for 0.08, 4 for 0.008."""
    if not math.isfinite(scale) or scale <= 0:
        return minimum
    return max(minimum, 1 - math.floor(math.log10(scale)))


def signed(value: float, decimals: int) -> str:
    """``value`` with a sign and ``decimals`` decimals; a value that rounds to zero prints as ``0`` (never ``-0.00``
    or ``+0.00``, which read as a result)."""
    text = f"{value:+.{decimals}f}"
    return "0" if float(text) == 0 else text
