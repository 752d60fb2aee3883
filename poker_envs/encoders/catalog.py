"""Encoders offered by the hold'em environments (limit, no-limit; push/fold where they fit), by name.

Each hold'em environment module merges its own ``"default"`` with this table.
"""

from __future__ import annotations

from poker_envs.encoders.base import Encoder
from poker_envs.encoders.flat56 import Flat56Encoder
from poker_envs.encoders.flat107 import Flat107Encoder
from poker_envs.encoders.poker_cnn import PokerCNNEncoder

HOLDEM_ENCODERS: dict[str, type[Encoder]] = {
    "poker_cnn": PokerCNNEncoder,
    "flat107": Flat107Encoder,
    "flat56": Flat56Encoder,
}
