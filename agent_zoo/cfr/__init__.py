"""CFR family on compiled game trees: exact exploitability, CFR / CFR+ / DCFR, external-sampling MCCFR.

Numpy only. ``GameTree.build(game)`` walks a game of ``poker_envs.games`` once; everything else
runs on its arrays.
"""

from agent_zoo.cfr.best_response import (
    ExploitabilityResult,
    average_from_sums,
    average_policy,
    best_response_policy,
    best_response_values,
    expected_values,
    exploitability,
    own_reach,
)
from agent_zoo.cfr.mccfr import ExternalSamplingMCCFR, MCCFRConfig
from agent_zoo.cfr.policy_io import TabularPolicy, infoset_observations, load_policy, save_policy
from agent_zoo.cfr.solvers import ALGORITHMS, CFR, CFR_PLUS, DCFR, CFRConfig, CFRSolver, make_solver
from agent_zoo.cfr.tree import GameTree

__all__ = [
    "ALGORITHMS",
    "CFR",
    "CFR_PLUS",
    "DCFR",
    "CFRConfig",
    "CFRSolver",
    "ExploitabilityResult",
    "ExternalSamplingMCCFR",
    "MCCFRConfig",
    "TabularPolicy",
    "infoset_observations",
    "load_policy",
    "save_policy",
    "GameTree",
    "average_from_sums",
    "average_policy",
    "best_response_policy",
    "best_response_values",
    "expected_values",
    "exploitability",
    "make_solver",
    "own_reach",
]
