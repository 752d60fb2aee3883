"""R-NaD (regularised Nash dynamics with NeuRD) and two-stage averaging, learning Leduc by self-play.

See ``docs/results/rnad.md``; ``python -m agent_zoo.rnad --help`` for the CLI. The saved-policy agent
(``RNaDAgent``) and the config need only numpy; ``RNaDSolver`` (torch) is imported on first use.
"""

from __future__ import annotations

from typing import Any

from agent_zoo.rnad.agent import RNaDAgent
from agent_zoo.rnad.config import VARIANTS, RNaDConfig, variant_config

__all__ = ["VARIANTS", "RNaDAgent", "RNaDConfig", "RNaDSolver", "variant_config"]


def __getattr__(name: str) -> Any:
    if name == "RNaDSolver":
        from agent_zoo.rnad.learner import RNaDSolver

        return RNaDSolver
    raise AttributeError(f"module 'agent_zoo.rnad' has no attribute {name!r}")
