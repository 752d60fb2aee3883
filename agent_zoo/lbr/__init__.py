"""Local best response (Lisý and Bowling 2017): a lower bound on an agent's exploitability.

``python -m agent_zoo.lbr --game nolimit --agent random --hands 200 --json``; see ``core`` for the method
(heads-up and multi-way) and ``vector`` for the batched form (``--engine vector``, ``make_lbr(..., engine="vector")``).
"""

from agent_zoo.lbr.core import LBRConfig, LBRResult, LocalBestResponse
from agent_zoo.lbr.vector import VectorLBR, make_lbr

__all__ = ["LBRConfig", "LBRResult", "LocalBestResponse", "VectorLBR", "make_lbr"]
