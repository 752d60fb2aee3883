"""Encoders offered by the hold'em-family environments (push/fold where they fit), by name.

Each hold'em environment module merges its own ``"default"`` with this table.
"""

from __future__ import annotations

from poker_envs.encoders.base import Encoder
from poker_envs.encoders.flat56 import Flat56Encoder
from poker_envs.encoders.holdem_default import HoldemDefaultEncoder
from poker_envs.encoders.flat107 import Flat107Encoder
from poker_envs.encoders.poker_cnn import PokerCNNEncoder

HOLDEM_ENCODERS: dict[str, type[Encoder]] = {
    "poker_cnn": PokerCNNEncoder,
    "flat107": Flat107Encoder,
    "flat56": Flat56Encoder,
}


def available_encoders() -> dict[str, type[Encoder]]:
    """The hold'em environments' ``obs_encoder`` names: their default plus this table as it is now (read at the
    call, so encoders added to ``HOLDEM_ENCODERS`` later are offered)."""
    return {"default": HoldemDefaultEncoder} | dict(HOLDEM_ENCODERS)
