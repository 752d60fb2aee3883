"""PettingZoo's RLCard-based classic poker environments, kept under their names and spaces on this project's rules.

``from poker_envs.classic import texas_holdem_no_limit_v6, texas_holdem_v4, leduc_holdem_v4``: each module has
``env(**kwargs)`` and ``raw_env`` with PettingZoo 1.27's arguments, observation and action spaces, action ids,
agent names, reward scale and metadata. The poker is this project's (``poker_envs.games``): where RLCard's rules
differ (who acts first, raise sizes, the minimum raise, all-ins, split pots, illegal moves) these envs play the
correct rules; docs/classic.md lists every difference.
"""
