"""No-limit Texas hold'em as PettingZoo's ``texas_holdem_no_limit_v6`` gives it, on this project's rules.

Same arguments (``num_players`` 2..10, ``render_mode``, ``screen_height``), agents ``player_0 ..``, spaces and
action ids: 0 fold, 1 check/call, 2 raise half the pot, 3 raise the pot, 4 all-in; the observation is RLCard's
54-vector (``encoders.rlcard.RLCardNolimitEncoder``). Blinds 1 and 2 chips, stacks of 100 chips; rewards are
chips won or lost. Raises are sized as poker counts them: a raise of a fraction f of the pot raises to the bet
faced plus f times the pot after calling (halves of a chip rounded up), lifted to the minimum raise; a size that
reaches the whole stack is masked (id 4 covers it), and so is the pot raise where it comes to the half-pot
raise's amount. Folding is legal whenever the player may act, as in RLCard. The rules differ from RLCard's where
RLCard's are wrong (docs/classic.md): heads-up the button posts the small blind and acts last after the flop,
raises below the minimum are lifted to it, a short all-in does not reopen the betting, an illegal move folds the
mover's hand and costs 1 more.
"""

from __future__ import annotations

from poker_envs.aec import classic_env
from poker_envs.classic.common import ClassicRender, check_screen_height, classic_metadata
from poker_envs.encoders.rlcard import RLCardNolimitEncoder
from poker_envs.games.holdem_args import table_config
from poker_envs.holdem_env import HoldemAECEnv

__all__ = ["env", "raw_env"]

SMALL_BLIND, BIG_BLIND = 1, 2  # RLCard's no-limit blinds
STACK = 100  # RLCard's chips_for_each
RAISE_FRACTIONS = ("1/2", "1")  # ids 2 and 3; the rules' last id (4) is all-in


class raw_env(ClassicRender, HoldemAECEnv):
    metadata = classic_metadata("texas_holdem_no_limit_v6")

    def __init__(self, num_players: int = 2, render_mode: str | None = None, screen_height: int | None = 1000) -> None:
        """``num_players``: 2 to 10 seats; ``screen_height``: the height in pixels of ``rgb_array`` frames."""
        self.metadata = classic_metadata(self.metadata["name"])  # its own copy: a wrapper adding modes changes only it
        self.screen_height = check_screen_height(screen_height)
        config = table_config("nolimit", num_players, SMALL_BLIND, BIG_BLIND, 0, STACK, bet_sizing=RAISE_FRACTIONS,
                              allow_fold_when_check=True)
        super().__init__(config, "chips", RLCardNolimitEncoder, render_mode, public=False)


env = classic_env(raw_env)
