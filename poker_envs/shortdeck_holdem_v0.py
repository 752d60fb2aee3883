"""No-limit short-deck (6+) hold'em (2 to 10 players) as a PettingZoo AEC environment.

The rules are those of ``nolimit_holdem_v0`` with a 36-card deck (sixes to aces) and the short-deck
hand ranking (``poker_envs.core.ranking``): A-6-7-8-9 is the lowest straight, a flush beats a full house,
otherwise standard, so a straight beats three of a kind as in pokerkit's short-deck hold'em;
``trips_beat_straight=True`` puts three of a kind above a straight instead. Cards keep their 52-card ids,
so observations have the layout of the 52-card games (the cards below six never appear). Actions,
rewards, reset options, the public betting state (``observation["public"]``) and sessions
(``hands_per_episode``, ``rebuy``, ``blind_levels``, ``hands_per_level``, ``payouts``) as in
``nolimit_holdem_v0``: ``"abstract"`` bet sizing gives 0 fold, 1 check/call, 2 raise half pot, 3 raise pot,
4 raise 2 pots, 5 all-in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pettingzoo import AECEnv, ParallelEnv

from poker_envs._holdem_env import HoldemAECEnv
from poker_envs.encoders.catalog import available_encoders
from poker_envs.games.holdem_args import short_deck_ranking, table_config
from poker_envs.aec import wrap_classic
from poker_envs.encoders.base import EncoderSpec
from poker_envs.session import session_config

__all__ = ["available_encoders", "env", "raw_env"]


class raw_env(HoldemAECEnv):
    metadata = {"name": "shortdeck_holdem_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}  # turn-based: aec_to_parallel cannot convert it

    def __init__(
        self,
        num_players: int = 2,
        small_blind: int = 1,
        big_blind: int = 2,
        ante: int = 0,
        starting_stack: int | Sequence[int] = 200,
        bet_sizing: str | tuple[float, ...] = "abstract",
        trips_beat_straight: bool = False,
        reward_unit: str = "big_blinds",
        obs_encoder: EncoderSpec = "default",
        render_mode: str | None = None,
        hands_per_episode: int = 1,
        rebuy: bool = False,
        blind_levels: Sequence[Sequence[int]] | None = None,
        hands_per_level: int | None = None,
        payouts: Sequence[float] | None = None,
        eliminated: str = "leave",
        history: bool = False,
    ) -> None:
        ranking = short_deck_ranking(trips_beat_straight)
        config = table_config(
            "nolimit", num_players, small_blind, big_blind, ante, starting_stack, bet_sizing, ranking=ranking
        )
        session = session_config(hands_per_episode, rebuy, blind_levels, hands_per_level, payouts, eliminated)
        super().__init__(config, reward_unit, obs_encoder, render_mode, session, history)


def env(**kwargs: Any) -> AECEnv:
    """``raw_env`` wrapped as PettingZoo classic environments are, but an illegal move forfeits the hand as a fold, -1 more
    (``aec.ForfeitIllegalWrapper``)."""
    return wrap_classic(raw_env(**kwargs), illegal_reward=-1.0)


def parallel_env(**kwargs: Any) -> ParallelEnv:
    """``env(**kwargs)`` under PettingZoo's turn-based Parallel API (``poker_envs.parallel``): every live agent
    observes each step, only the agent to act (``infos[agent]["active_agent"]``) is played."""
    from poker_envs.parallel import turn_based_parallel

    return turn_based_parallel(env(**kwargs))
