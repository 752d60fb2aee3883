"""Kuhn poker as a PettingZoo AEC environment (rules: ``poker_envs.games.kuhn``, as OpenSpiel's ``kuhn_poker``).

Actions 0 = pass (check/fold), 1 = bet (bet/call); rewards are chips. The default observation is the
information-state vector of ``encoders.small_games.kuhn_infostate_vector``. Reset option
``deal=(card of player 0, card of player 1)`` (0 = J, 1 = Q, 2 = K) fixes the cards.
"""

from __future__ import annotations

from poker_envs.aec import DealOptionAECEnv, aec_metadata, check_two_players, classic_env, turn_based_env
from poker_envs.encoders.base import Encoder, EncoderSpec, resolve_encoder
from poker_envs.encoders.small_games import KUHN_ENCODERS
from poker_envs.games.kuhn import KuhnGame
from poker_envs.render.small_games import render_kuhn


def available_encoders() -> dict[str, type[Encoder]]:
    """The ``obs_encoder`` names this environment offers."""
    return dict(KUHN_ENCODERS)


class raw_env(DealOptionAECEnv):
    metadata = aec_metadata("kuhn_poker_v0")

    def __init__(self, obs_encoder: EncoderSpec = "default", render_mode: str | None = None, num_players: int = 2) -> None:
        """``num_players`` is accepted for a uniform signature; Kuhn poker is played by exactly 2."""
        check_two_players(num_players, "Kuhn poker")
        game = KuhnGame()
        super().__init__(game, resolve_encoder(obs_encoder, game, available_encoders()), render_kuhn, render_mode)


env = classic_env(raw_env)
parallel_env = turn_based_env(env)
