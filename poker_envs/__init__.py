"""poker_envs: PettingZoo AEC environments for poker games."""

__version__ = "0.1.0"
