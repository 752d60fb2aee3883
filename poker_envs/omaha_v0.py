"""Omaha (pot-limit by default; 4, 5 or 6 hole cards; 2 to 10 players) as a PettingZoo AEC environment.

A configuration of ``poker_envs.games.holdem``: ``hole_cards`` (4 by default; 5 and 6 for "Big O" and
six-card Omaha, as the deck allows: six-card Omaha seats at most 7), ``hand_rule="omaha"`` (exactly two
hole cards with exactly three board cards) and ``betting`` ("potlimit" by default, "nolimit" or "limit").
Actions as in ``poker_envs.potlimit_holdem_v0`` (pot-limit), ``nolimit_holdem_v0`` or ``limit_holdem_v0``.
Observations: the ``default`` encoder (any number of hole cards); the encoders built for two hole cards
(flat56, flat107, poker_cnn) are not offered, and refuse the game with the reason if passed as classes. Rewards, sessions and reset options as in
``poker_envs.nolimit_holdem_v0`` (``reset(options={"hole": [[c, c, c, c], ...], "board": [...]})``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Unpack

from poker_envs.holdem_env import HoldemAECEnv
from poker_envs.aec import aec_metadata, classic_env, turn_based_env
from poker_envs.encoders.base import Encoder, EncoderSpec
from poker_envs.encoders.holdem_default import HoldemDefaultEncoder
from poker_envs.games.holdem_args import table_config
from poker_envs.session import SessionArguments, session_config, with_session_arguments

__all__ = ["available_encoders", "env", "raw_env"]


def available_encoders() -> dict[str, type[Encoder]]:
    """The ``obs_encoder`` names Omaha offers: the default, which reads any number of hole cards."""
    return {"default": HoldemDefaultEncoder}


class raw_env(HoldemAECEnv):
    metadata = aec_metadata("omaha_v0")

    @with_session_arguments
    def __init__(
        self,
        num_players: int = 2,
        small_blind: int = 1,
        big_blind: int = 2,
        ante: int = 0,
        starting_stack: int | Sequence[int] = 200,
        hole_cards: int = 4,
        betting: str = "potlimit",
        bet_sizing: str | tuple[float, ...] = "abstract",
        reward_unit: str = "big_blinds",
        obs_encoder: EncoderSpec = "default",
        render_mode: str | None = None,
        history: bool = False,
        **session: Unpack[SessionArguments],
    ) -> None:
        """``session``: the session arguments of ``poker_envs.session.session_config`` (docs/holdem.md "Sessions")."""
        config = table_config(
            betting, num_players, small_blind, big_blind, ante, starting_stack,
            bet_sizing, hole_cards=hole_cards, hand_rule="omaha",
        )
        super().__init__(config, reward_unit, obs_encoder, render_mode, session_config(**session), history)


env = classic_env(raw_env)
parallel_env = turn_based_env(env)
