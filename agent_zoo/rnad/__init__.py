"""R-NaD (regularised Nash dynamics with NeuRD) and two-stage averaging, learning Leduc by self-play.

See ``docs/results/rnad.md``; ``python -m agent_zoo.rnad --help`` for the CLI.
"""

from agent_zoo.rnad.agent import RNaDAgent
from agent_zoo.rnad.config import VARIANTS, RNaDConfig, variant_config
from agent_zoo.rnad.learner import RNaDSolver

__all__ = ["VARIANTS", "RNaDAgent", "RNaDConfig", "RNaDSolver", "variant_config"]
