"""Leduc hold'em as a PettingZoo AEC environment (rules: ``poker_envs.games.leduc``, as OpenSpiel's ``leduc_poker``).

``player_0`` acts first in both rounds; actions 0 = fold, 1 = call/check, 2 = raise; rewards are chips
won or lost. The default observation is the perfect-recall information-state vector of
``encoders.small_games.leduc_infostate_vector``. Reset option ``deal=(card of player 0, card of
player 1, public card)`` (card ids 0..5, rank = id // 2) fixes the cards.
"""

from __future__ import annotations

from poker_envs.aec import DealOptionAECEnv, aec_metadata, check_two_players, classic_env, turn_based_env
from poker_envs.encoders.base import Encoder, EncoderSpec, resolve_encoder
from poker_envs.encoders.small_games import LEDUC_ENCODERS
from poker_envs.games.leduc import LeducGame
from poker_envs.render.small_games import render_leduc


def available_encoders() -> dict[str, type[Encoder]]:
    """The ``obs_encoder`` names this environment offers."""
    return dict(LEDUC_ENCODERS)


class raw_env(DealOptionAECEnv):
    metadata = aec_metadata("leduc_holdem_v0")

    def __init__(self, obs_encoder: EncoderSpec = "default", render_mode: str | None = None, num_players: int = 2) -> None:
        """``num_players`` is accepted for a uniform signature; Leduc hold'em is played by exactly 2."""
        check_two_players(num_players, "Leduc hold'em")
        game = LeducGame()
        super().__init__(game, resolve_encoder(obs_encoder, game, available_encoders()), render_leduc, render_mode)


env = classic_env(raw_env)
parallel_env = turn_based_env(env)
