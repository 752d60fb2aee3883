"""The picture of any catalog game's state: ``table_frame(state, names)`` is what ``render_mode="rgb_array"``
returns. ``table_view`` picks the game's view by the state's type; a new game registers its own
(``table_view.register(MyState, my_view)``)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import singledispatch
from typing import Any

import numpy as np

from poker_envs.games.holdem import HoldemState
from poker_envs.games.kuhn import KuhnState
from poker_envs.games.leduc import LeducState
from poker_envs.games.push_fold import PushFoldState
from poker_envs.games.threshold import ThresholdState
from poker_envs.render.draw import draw_table
from poker_envs.render.holdem_view import holdem_view
from poker_envs.render.small_views import kuhn_view, leduc_view, push_fold_view, threshold_view
from poker_envs.render.table import TableView, seated


@singledispatch
def table_view(state: Any, names: Sequence[str]) -> TableView:
    """What the picture of ``state`` shows; ``names[s]`` is the agent at rules seat ``s``."""
    raise TypeError(f"no picture is known for a {type(state).__name__}; register its view with "
                    f"poker_envs.render.frames.table_view.register({type(state).__name__}, view_fn)")


table_view.register(HoldemState, holdem_view)
table_view.register(KuhnState, kuhn_view)
table_view.register(LeducState, leduc_view)
table_view.register(PushFoldState, push_fold_view)
table_view.register(ThresholdState, threshold_view)


def table_frame(state: Any, names: Sequence[str], places: Sequence[int] | None = None,
                everyone: Sequence[str] = ()) -> np.ndarray:
    """The ``(HEIGHT, WIDTH, 3)`` uint8 RGB frame of ``state`` (Pillow: the ``render`` extra); ``names[s]`` is the
    agent at rules seat ``s``. With ``places``, the hand's seats sit at those places of a table of ``everyone``
    (a session's hand after eliminations, or with seats rotated: each agent keeps its place)."""
    view = table_view(state, names)
    return draw_table(view if places is None else seated(view, places, everyone))
