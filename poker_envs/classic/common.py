"""What the three classic modules share: PettingZoo's metadata, the ``screen_height`` argument and the render.

Rendering is the backing environment's (``PokerAECEnv.render``: text for "human", the table's picture for
"rgb_array"); ``screen_height`` only scales the picture to that many pixels high, as PettingZoo's frames are.
"""

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


def scaled_frame(frame: np.ndarray, height: int | None) -> np.ndarray:
    """``frame`` (an RGB uint8 array) resized to ``height`` pixels high, its aspect ratio kept; None: as drawn."""
    if height is None or frame.shape[0] == height:
        return frame
    from PIL import Image  # deferred: Pillow draws the frame too (the render extra)

    width = max(1, round(frame.shape[1] * height / frame.shape[0]))
    return np.asarray(Image.fromarray(frame).resize((width, height), Image.Resampling.LANCZOS))


class ClassicRender:
    """``render()`` of the backing env, its ``rgb_array`` frame scaled to ``screen_height`` (PettingZoo's size)."""

    screen_height: int | None
    render_mode: str | None

    def render(self) -> str | np.ndarray | None:
        out = super().render()  # type: ignore[misc]
        if self.render_mode == "rgb_array" and isinstance(out, np.ndarray):
            return scaled_frame(out, self.screen_height)
        return out
