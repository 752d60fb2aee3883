"""Leduc hold'em as PettingZoo's ``leduc_holdem_v4`` gives it, on this project's rules (``games.leduc``).

Same arguments (``render_mode``, ``screen_height``; two players), agents ``player_0``, ``player_1``, spaces and
action ids: 0 call, 1 raise (a bet where nothing is owed), 2 fold, 3 check (``rlcard_actions``); the observation
is RLCard's 36-vector (``encoders.rlcard.RLCardLeducEncoder``). Raises of 2 chips in the first round and 4 in the
second, at most two a round; rewards are chips won or lost divided by 2, RLCard's scale. The rules are Leduc
hold'em's as published (and OpenSpiel's) where RLCard's differ (docs/classic.md): each player antes 1 chip
(RLCard posts blinds of 1 and 2), ``player_0`` acts first in both rounds (RLCard: a random small blind, and in
the second round whoever follows the last action), folding is legal only when chips are owed, an illegal move
folds the mover's hand and costs 1 more. Reset option ``deal=(card of player_0, card of player_1, public card)``
fixes the cards (ids 0..5, rank = id // 2: jack, queen, king).
"""

from __future__ import annotations

from poker_envs import catalog
from poker_envs.aec import DealOptionAECEnv, classic_env
from poker_envs.classic.common import ClassicRender, check_screen_height, classic_metadata
from poker_envs.classic.rlcard_actions import RLCARD_LIMIT_ACTIONS
from poker_envs.encoders.rlcard import RLCardLeducEncoder
from poker_envs.render.small_games import render_leduc

__all__ = ["env", "raw_env"]

REWARD_SCALE = 0.5  # RLCard pays Leduc in units of its big blind, 2 chips


class raw_env(ClassicRender, DealOptionAECEnv):
    metadata = classic_metadata("leduc_holdem_v4")

    def __init__(self, render_mode: str | None = None, screen_height: int | None = 1000) -> None:
        """``screen_height``: the height in pixels of ``rgb_array`` frames."""
        self.metadata = classic_metadata(self.metadata["name"])  # its own copy: a wrapper adding modes changes only it
        self.screen_height = check_screen_height(screen_height)
        game = catalog.game("leduc").rules()
        super().__init__(game, RLCardLeducEncoder(game), render_leduc, render_mode, reward_scale=REWARD_SCALE,
                         action_map=RLCARD_LIMIT_ACTIONS)


env = classic_env(raw_env)
