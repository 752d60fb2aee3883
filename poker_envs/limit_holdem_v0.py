"""Fixed-limit Texas hold'em (2 to 10 players) as a PettingZoo AEC environment.

Rules: ``poker_envs.games.holdem``: bets and raises of one big blind on the first two streets and
two big blinds on the last two, at most 4 bets a street (pre-flop the big blind is the first).
Actions: 0 fold, 1 check/call, 2 bet/raise; folding when checking is free is masked unless
``allow_fold_when_check=True``. One hand per episode; the button moves one seat per reset. Rewards
are in big blinds (``reward_unit="chips"`` for chips).

Sessions (opt-in; docs/holdem.md "Sessions"): ``hands_per_episode=N`` plays up to N hands with stacks
carried over and the button moving; ``rebuy=True`` restarts every hand at the starting stack (cash);
``blind_levels=[(sb, bb, ante), ...]`` with ``hands_per_level=k`` and optional ``payouts=[...]`` make a
tournament (busted seats are eliminated; prizes by place, or ICM on the stacks if the hands run out).
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
    metadata = aec_metadata("limit_holdem_v0")

    @with_session_arguments
    def __init__(
        self,
        num_players: int = 2,
        small_blind: int = 1,
        big_blind: int = 2,
        ante: int = 0,
        starting_stack: int | Sequence[int] = 200,
        allow_fold_when_check: bool = False,
        reward_unit: str = "big_blinds",
        obs_encoder: EncoderSpec = "default",
        render_mode: str | None = None,
        *,
        history: bool = False,
        **session: Unpack[SessionArguments],
    ) -> None:
        """``session``: the session arguments of ``poker_envs.session.session_config`` (docs/holdem.md "Sessions")."""
        config = table_config(
            "limit", num_players, small_blind, big_blind, ante, starting_stack, allow_fold_when_check=allow_fold_when_check
        )
        super().__init__(config, reward_unit, obs_encoder, render_mode, session_config(**session), history)


env = classic_env(raw_env)
parallel_env = turn_based_env(env)
