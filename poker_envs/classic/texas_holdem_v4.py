"""Fixed-limit Texas hold'em as PettingZoo's ``texas_holdem_v4`` gives it, on this project's rules.

Same arguments (``num_players`` 2..10, ``render_mode``, ``screen_height``), agents ``player_0 ..``, spaces and
action ids: 0 call, 1 raise (a bet where nothing is owed), 2 fold, 3 check (``rlcard_actions``); the observation
is RLCard's 72-vector (``encoders.rlcard.RLCardLimitEncoder``). Blinds 1 and 2 chips, bets of 2 chips on the
first two rounds and 4 on the last two; rewards are in big blinds (chips / 2). Stacks of 100 big blinds cover
the most a player can bet (48 chips), so nobody is ever all-in, as in RLCard's game without stacks. Folding is
legal whenever the player may act, as in RLCard. The rules differ from RLCard's where RLCard's are wrong
(docs/classic.md): at most four bets a round, pre-flop the big blind being the first (RLCard allows four raises
over it), the first to act after the flop is the first live seat left of the button, a round ends when every
live player has acted and matched the bet (RLCard counts folded seats), an odd chip of a split pot goes to the
first winner left of the button, an illegal move folds the mover's hand and costs 1 more.
"""

from __future__ import annotations

from poker_envs.aec import classic_env
from poker_envs.classic.common import ClassicRender, check_screen_height, classic_metadata
from poker_envs.classic.rlcard_actions import RLCARD_LIMIT_ACTIONS
from poker_envs.encoders.rlcard import RLCardLimitEncoder
from poker_envs.games.holdem_args import table_config
from poker_envs.holdem_env import HoldemAECEnv

__all__ = ["env", "raw_env"]

SMALL_BLIND, BIG_BLIND = 1, 2  # RLCard's limit blinds; a bet is a big blind, two on the turn and river
STACK = 100 * BIG_BLIND  # more than the 48 chips a player can bet in a hand: nobody is all-in


class raw_env(ClassicRender, HoldemAECEnv):
    metadata = classic_metadata("texas_holdem_v4")

    def __init__(self, num_players: int = 2, render_mode: str | None = None, screen_height: int | None = 1000) -> None:
        """``num_players``: 2 to 10 seats; ``screen_height``: the height in pixels of ``rgb_array`` frames."""
        self.metadata = classic_metadata(self.metadata["name"])  # its own copy: a wrapper adding modes changes only it
        self.screen_height = check_screen_height(screen_height)
        config = table_config("limit", num_players, SMALL_BLIND, BIG_BLIND, 0, STACK, allow_fold_when_check=True)
        super().__init__(config, "big_blinds", RLCardLimitEncoder, render_mode, public=False,
                         action_map=RLCARD_LIMIT_ACTIONS)


env = classic_env(raw_env)
