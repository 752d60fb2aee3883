"""Leduc hold'em as a PettingZoo AEC environment (rules: ``poker_envs.games.leduc``, as OpenSpiel's ``leduc_poker``).

``player_0`` acts first in both rounds; actions 0 = fold, 1 = call/check, 2 = raise; rewards are chips
won or lost. The default observation is the perfect-recall information-state vector of
``encoders.small_games.leduc_infostate_vector``. Reset option ``deal=(card of player 0, card of
player 1, public card)`` (card ids 0..5, rank = id // 2) fixes the cards.
"""

from __future__ import annotations

from typing import Any

from poker_envs.aec import PokerAECEnv, classic_env, turn_based_env, warn_unknown_options
from poker_envs.encoders.base import Encoder, EncoderSpec, resolve_encoder
from poker_envs.encoders.small_games import LEDUC_ENCODERS
from poker_envs.games.base import GameState
from poker_envs.games.leduc import LeducGame
from poker_envs.render.small_games import render_leduc


def available_encoders() -> dict[str, type[Encoder]]:
    """The ``obs_encoder`` names this environment offers."""
    return dict(LEDUC_ENCODERS)


class raw_env(PokerAECEnv):
    metadata = {"name": "leduc_holdem_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, obs_encoder: EncoderSpec = "default", render_mode: str | None = None, num_players: int = 2) -> None:
        """``num_players`` is accepted for a uniform signature; Leduc hold'em is played by exactly 2."""
        if isinstance(num_players, bool) or num_players != 2:
            raise ValueError(f"num_players: Leduc hold'em is played by exactly 2 players, got {num_players!r}")
        game = LeducGame()
        super().__init__(game, resolve_encoder(obs_encoder, game, available_encoders()), render_leduc, render_mode)

    def _new_state(self, options: dict[str, Any]) -> GameState:
        warn_unknown_options(options, ("deal",), self.metadata["name"])
        return self.game.new_initial_state(deal=options.get("deal"))


env = classic_env(raw_env)
parallel_env = turn_based_env(env)
