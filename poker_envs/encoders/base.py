"""Observation encoders: one small class per encoding, chosen per environment by ``obs_encoder=``.

An encoder is built for one game (it may refuse a game it does not fit), declares its
``observation_space`` and turns one player's view of a state into an array. It must read only
what that player may see.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping

import numpy as np
from gymnasium import spaces

from poker_envs.games.base import Game, GameState


class Encoder(ABC):
    """Base class; subclasses set ``name`` and ``observation_space`` in ``__init__``."""

    name: str = "encoder"
    observation_space: spaces.Space

    def __init__(self, game: Game) -> None:
        reason = self.unsupported_reason(game)
        if reason is not None:
            raise ValueError(f"obs_encoder {self.name!r} does not fit game {game.name!r}: {reason}")
        self.game = game

    def unsupported_reason(self, game: Game) -> str | None:
        """None if this encoder can encode ``game``; otherwise why not."""
        return None

    @abstractmethod
    def encode(self, state: GameState, player: int) -> np.ndarray:
        """The observation of ``player`` at ``state``."""


EncoderSpec = str | Encoder | type[Encoder]


def resolve_encoder(spec: EncoderSpec, game: Game, available: Mapping[str, type[Encoder]]) -> Encoder:
    """Turn the ``obs_encoder`` argument (a name, an Encoder class or instance) into an encoder for ``game``."""
    if isinstance(spec, Encoder):
        if spec.game is not game and getattr(spec.game, "name", None) != game.name:
            raise ValueError(f"obs_encoder was built for game {spec.game.name!r}, not {game.name!r}")
        return spec
    if isinstance(spec, type) and issubclass(spec, Encoder):
        return spec(game)
    if isinstance(spec, str):
        if spec not in available:
            raise ValueError(f"obs_encoder {spec!r} is unknown for {game.name}; choose one of {sorted(available)}")
        return available[spec](game)
    raise TypeError(f"obs_encoder must be a name, an Encoder class or an Encoder instance, not {type(spec).__name__}")
