"""Three fixed no-limit hold'em styles as ``module:`` agents, to widen a rating population.

Each is a function ``(observation, rng) -> action`` (``agent_zoo.external.load_module_agent``) that reads only
the observation's ``action_mask``; hold'em action ids: 0 fold, 1 check/call, 2.. bet/raise sizes, smallest
first (the last is all-in). Use them as ``module:agent_zoo.fixed_agents:calling_station`` (e.g. in the ratings run of
``docs/results/evaluation.md``).
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _legal(observation: dict[str, Any]) -> np.ndarray:
    return np.flatnonzero(np.asarray(observation["action_mask"]))


def calling_station(observation: dict[str, Any], rng: np.random.Generator) -> int:
    """Checks or calls whenever it may, never raises (folds only when nothing else is legal)."""
    legal = _legal(observation)
    return 1 if 1 in legal else int(legal[0])


def min_raiser(observation: dict[str, Any], rng: np.random.Generator) -> int:
    """Makes the smallest bet or raise whenever it may, else checks or calls."""
    legal = _legal(observation)
    raises = legal[legal >= 2]
    return int(raises[0]) if raises.size else calling_station(observation, rng)


def jammer(observation: dict[str, Any], rng: np.random.Generator) -> int:
    """Goes all-in (the largest bet or raise) whenever it may, else checks or calls."""
    legal = _legal(observation)
    raises = legal[legal >= 2]
    return int(raises[-1]) if raises.size else calling_station(observation, rng)
