"""The batched hold'em-family games of the catalog: one factory per environment, with the environment's
arguments (``nolimit_holdem_v0.env(...)`` and ``vector.make("nolimit_holdem", n, ...)`` take the same ones).

Each factory turns its arguments into a rules configuration (``poker_envs.games.holdem_args``, where they are
checked) and a session (``poker_envs.session``), then builds the plain engine (``VectorHoldem``) or, for
episodes of more than one hand, the session engine (``VectorHoldemSession``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from poker_envs.games.holdem import HoldemConfig
from poker_envs.games.holdem_args import short_deck_ranking, table_config
from poker_envs.session import session_from
from poker_envs.vector.holdem import VectorHoldem
from poker_envs.vector.holdem_session import VectorHoldemSession

def engine(
    num_envs: int, config: HoldemConfig, seed: int | None = None, *, reward_unit: str = "big_blinds",
    obs_encoder: str = "default", public: bool = False, **session: Any,
) -> VectorHoldem | VectorHoldemSession:
    """The plain engine of ``config``, or the session engine where ``session`` (the environments' session
    arguments: hands_per_episode, rebuy, blind_levels, hands_per_level, payouts) plays more than one hand."""
    sessions = session_from(session, "vector.make")
    if not sessions.is_session:
        return VectorHoldem(num_envs, config, seed=seed, reward_unit=reward_unit, obs_encoder=obs_encoder, public=public)
    if not isinstance(public, bool):
        raise ValueError(f"public must be True or False, got {public!r}")
    return VectorHoldemSession(num_envs, config, sessions, seed=seed, reward_unit=reward_unit, obs_encoder=obs_encoder)


def make_nolimit(
    num_envs: int, seed: int | None = None, *, num_players: int = 2, small_blind: int = 1, big_blind: int = 2,
    ante: int = 0, starting_stack: int | Sequence[int] = 200, bet_sizing: str | tuple[float, ...] = "abstract",
    **options: Any,
) -> VectorHoldem | VectorHoldemSession:
    """Batched ``nolimit_holdem_v0``; ``options``: reward_unit, obs_encoder, public and the session arguments."""
    config = table_config("nolimit", num_players, small_blind, big_blind, ante, starting_stack, bet_sizing)
    return engine(num_envs, config, seed, **options)


def make_shortdeck(
    num_envs: int, seed: int | None = None, *, num_players: int = 2, small_blind: int = 1, big_blind: int = 2,
    ante: int = 0, starting_stack: int | Sequence[int] = 200, bet_sizing: str | tuple[float, ...] = "abstract",
    trips_beat_straight: bool = False, **options: Any,
) -> VectorHoldem | VectorHoldemSession:
    """Batched ``shortdeck_holdem_v0``; ``options``: reward_unit, obs_encoder, public and the session arguments."""
    ranking = short_deck_ranking(trips_beat_straight)
    config = table_config("nolimit", num_players, small_blind, big_blind, ante, starting_stack, bet_sizing, ranking=ranking)
    return engine(num_envs, config, seed, **options)


def make_limit(
    num_envs: int, seed: int | None = None, *, num_players: int = 2, small_blind: int = 1, big_blind: int = 2,
    ante: int = 0, starting_stack: int | Sequence[int] = 200, allow_fold_when_check: bool = False, **options: Any,
) -> VectorHoldem | VectorHoldemSession:
    """Batched ``limit_holdem_v0``; ``options``: reward_unit, obs_encoder, public and the session arguments."""
    config = table_config(
        "limit", num_players, small_blind, big_blind, ante, starting_stack, allow_fold_when_check=allow_fold_when_check
    )
    return engine(num_envs, config, seed, **options)


def make_potlimit(
    num_envs: int, seed: int | None = None, *, num_players: int = 2, small_blind: int = 1, big_blind: int = 2,
    ante: int = 0, starting_stack: int | Sequence[int] = 200, bet_sizing: str | tuple[float, ...] = "abstract",
    **options: Any,
) -> VectorHoldem | VectorHoldemSession:
    """Batched ``potlimit_holdem_v0``; ``options``: reward_unit, obs_encoder, public and the session arguments."""
    config = table_config("potlimit", num_players, small_blind, big_blind, ante, starting_stack, bet_sizing)
    return engine(num_envs, config, seed, **options)


def make_omaha(
    num_envs: int, seed: int | None = None, *, num_players: int = 2, small_blind: int = 1, big_blind: int = 2,
    ante: int = 0, starting_stack: int | Sequence[int] = 200, bet_sizing: str | tuple[float, ...] = "abstract",
    hole_cards: int = 4, betting: str = "potlimit", **options: Any,
) -> VectorHoldem | VectorHoldemSession:
    """Batched ``omaha_v0``; ``options``: reward_unit, obs_encoder, public and the session arguments."""
    config = table_config(
        betting, num_players, small_blind, big_blind, ante, starting_stack, bet_sizing, hole_cards=hole_cards,
        hand_rule="omaha",
    )
    return engine(num_envs, config, seed, **options)
