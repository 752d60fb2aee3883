"""poker_envs: PettingZoo AEC environments for poker games.

Environment modules: ``nolimit_holdem_v0``, ``limit_holdem_v0``, ``leduc_holdem_v0``, ``kuhn_poker_v0``,
``push_fold_v0``, ``threshold_v0`` (each with ``env()`` and ``raw_env``).
"""

from poker_envs.registration import register_all

__version__ = "0.1.0"

register_all()
