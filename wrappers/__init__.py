"""wrappers: single-agent Gymnasium views and self-play over the poker_envs AEC environments.

Importing the package registers every game with Gymnasium, e.g.
``gymnasium.make("poker_envs/LeducHoldem-v0", opponent="random")``.
"""

from wrappers.registration import GYMNASIUM_ENVS, register_gymnasium
from wrappers.self_play import FrozenPolicyAgent, SelfPlayEnv
from wrappers.single_agent import CallableAgent, SingleAgentEnv, as_agent, make_aec

register_gymnasium()

__all__ = [
    "GYMNASIUM_ENVS",
    "CallableAgent",
    "FrozenPolicyAgent",
    "SelfPlayEnv",
    "SingleAgentEnv",
    "as_agent",
    "make_aec",
    "register_gymnasium",
]
