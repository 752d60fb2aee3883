"""What the three classic modules share: PettingZoo's metadata and the ``screen_height`` argument."""

from __future__ import annotations

from typing import Any

import numpy as np

RENDER_MODES = ["human", "rgb_array"]  # PettingZoo's RLCard envs' modes, in their order
RENDER_FPS = 1


def classic_metadata(name: str) -> dict[str, Any]:
    """The ``metadata`` of PettingZoo's RLCard-based env ``name`` (the same dict, key for key)."""
    return {"render_modes": list(RENDER_MODES), "name": name, "is_parallelizable": False, "render_fps": RENDER_FPS}


def check_screen_height(screen_height: int | None) -> int | None:
    """``screen_height`` as PettingZoo takes it: a positive number of pixels, or None; anything else is refused."""
    if screen_height is None:
        return None
    if isinstance(screen_height, bool) or not isinstance(screen_height, int | np.integer) or screen_height < 1:
        raise ValueError(f"screen_height must be a positive number of pixels or None, got {screen_height!r}")
    return int(screen_height)
