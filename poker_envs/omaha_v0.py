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
from typing import Any

from pettingzoo import AECEnv, ParallelEnv

from poker_envs._holdem_env import HoldemAECEnv
from poker_envs.aec import wrap_classic
from poker_envs.encoders.base import EncoderSpec
from poker_envs.encoders.base import Encoder
from poker_envs.encoders.holdem_default import HoldemDefaultEncoder
from poker_envs.games.holdem_args import table_config
from poker_envs.session import AEC_SESSION_ARGS, session_from

__all__ = ["available_encoders", "env", "raw_env"]


def available_encoders() -> dict[str, type[Encoder]]:
    """The ``obs_encoder`` names Omaha offers: the default, which reads any number of hole cards."""
    return {"default": HoldemDefaultEncoder}


class raw_env(HoldemAECEnv):
    metadata = {"name": "omaha_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

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
        **session: Any,
    ) -> None:
        """``session``: hands_per_episode, rebuy, blind_levels, hands_per_level, payouts, eliminated (see nolimit_holdem_v0)."""
        config = table_config(
            betting, num_players, small_blind, big_blind, ante, starting_stack,
            bet_sizing, hole_cards=hole_cards, hand_rule="omaha",
        )
        super().__init__(config, reward_unit, obs_encoder, render_mode, session_from(session, "omaha_v0", AEC_SESSION_ARGS), history)


def env(**kwargs: Any) -> AECEnv:
    """``raw_env`` wrapped as PettingZoo classic environments are; an illegal move forfeits the hand as a fold, -1 more."""
    return wrap_classic(raw_env(**kwargs), illegal_reward=-1.0)


def parallel_env(**kwargs: Any) -> ParallelEnv:
    """``env(**kwargs)`` under PettingZoo's turn-based Parallel API (``poker_envs.parallel``): every live agent
    observes each step, only the agent to act (``infos[agent]["active_agent"]``) is played."""
    from poker_envs.parallel import turn_based_parallel

    return turn_based_parallel(env(**kwargs))
