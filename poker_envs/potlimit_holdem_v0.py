"""Pot-limit Texas hold'em (2 to 10 players) as a PettingZoo AEC environment.

A configuration of ``poker_envs.games.holdem`` (``betting="potlimit"``): the largest bet or raise is the
call plus the pot after the call; the smallest and the reopening rules are no-limit's. Actions
(``bet_sizing=``): ``"abstract"``: 0 fold, 1 check/call, 2 raise half pot, 3 raise pot, 4 raise 2 pots, 5
the largest raise (the pot, or all-in where the stack is shorter); the fraction ids of a pot and above are
always masked, since the last id covers them. ``"chips"``: id ``a >= 2`` bets/raises to ``a - 1`` chips;
a tuple of pot fractions: one id per fraction, then the largest raise. Observations, rewards, sessions
and reset options as in ``poker_envs.nolimit_holdem_v0``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Unpack

from poker_envs.holdem_env import HoldemAECEnv
from poker_envs.aec import aec_metadata, classic_env, turn_based_env
from poker_envs.encoders.base import EncoderSpec
from poker_envs.encoders.catalog import available_encoders
from poker_envs.games.holdem_args import table_config
from poker_envs.session import SessionArguments, session_config, with_session_arguments

__all__ = ["available_encoders", "env", "raw_env"]


class raw_env(HoldemAECEnv):
    metadata = aec_metadata("potlimit_holdem_v0")

    @with_session_arguments
    def __init__(
        self,
        num_players: int = 2,
        small_blind: int = 1,
        big_blind: int = 2,
        ante: int = 0,
        starting_stack: int | Sequence[int] = 200,
        bet_sizing: str | tuple[float, ...] = "abstract",
        reward_unit: str = "big_blinds",
        obs_encoder: EncoderSpec = "default",
        render_mode: str | None = None,
        history: bool = False,
        **session: Unpack[SessionArguments],
    ) -> None:
        """``session``: the session arguments of ``poker_envs.session.session_config`` (docs/holdem.md "Sessions")."""
        config = table_config("potlimit", num_players, small_blind, big_blind, ante, starting_stack, bet_sizing)
        super().__init__(config, reward_unit, obs_encoder, render_mode, session_config(**session), history)


env = classic_env(raw_env)
parallel_env = turn_based_env(env)
