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
from typing import Unpack

from poker_envs.holdem_env import HoldemAECEnv
from poker_envs.aec import aec_metadata, classic_env, turn_based_env
from poker_envs.encoders.base import EncoderSpec
from poker_envs.encoders.catalog import available_encoders
from poker_envs.games.holdem_args import short_deck_ranking, table_config
from poker_envs.session import SessionArguments, session_config, with_session_arguments

__all__ = ["available_encoders", "env", "raw_env"]


class raw_env(HoldemAECEnv):
    metadata = aec_metadata("shortdeck_holdem_v0")

    @with_session_arguments
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
        *,
        history: bool = False,
        **session: Unpack[SessionArguments],
    ) -> None:
        """``session``: the session arguments of ``poker_envs.session.session_config`` (docs/holdem.md "Sessions")."""
        ranking = short_deck_ranking(trips_beat_straight)
        config = table_config(
            "nolimit", num_players, small_blind, big_blind, ante, starting_stack, bet_sizing, ranking=ranking
        )
        super().__init__(config, reward_unit, obs_encoder, render_mode, session_config(**session), history)


env = classic_env(raw_env)
parallel_env = turn_based_env(env)
