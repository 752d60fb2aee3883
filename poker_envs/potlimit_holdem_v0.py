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
from typing import Any

from pettingzoo import AECEnv, ParallelEnv

from poker_envs._holdem_env import HoldemAECEnv
from poker_envs.aec import wrap_classic
from poker_envs.encoders.base import EncoderSpec
from poker_envs.encoders.catalog import available_encoders
from poker_envs.games.holdem_args import table_config
from poker_envs.session import AEC_SESSION_ARGS, session_from

__all__ = ["available_encoders", "env", "raw_env"]


class raw_env(HoldemAECEnv):
    metadata = {"name": "potlimit_holdem_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

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
        **session: Any,
    ) -> None:
        """``session``: hands_per_episode, rebuy, blind_levels, hands_per_level, payouts, eliminated (see nolimit_holdem_v0)."""
        config = table_config("potlimit", num_players, small_blind, big_blind, ante, starting_stack, bet_sizing)
        super().__init__(config, reward_unit, obs_encoder, render_mode, session_from(session, "potlimit_holdem_v0", AEC_SESSION_ARGS), history)


def env(**kwargs: Any) -> AECEnv:
    """``raw_env`` wrapped as PettingZoo classic environments are; an illegal move forfeits the hand as a fold, -1 more."""
    return wrap_classic(raw_env(**kwargs), illegal_reward=-1.0)


def parallel_env(**kwargs: Any) -> ParallelEnv:
    """``env(**kwargs)`` under PettingZoo's turn-based Parallel API (``poker_envs.parallel``): every live agent
    observes each step, only the agent to act (``infos[agent]["active_agent"]``) is played."""
    from poker_envs.parallel import turn_based_parallel

    return turn_based_parallel(env(**kwargs))
