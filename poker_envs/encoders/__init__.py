"""Observation encoders (see docs/encoders.md for the table of every encoding).

``first_to_act`` and ``action_added`` are the two readings of a hold'em state the encoders make that
other code needs too (a session's seated view, the clustering logs): the public names of helpers kept
in the encoders' private module ``_holdem``.
"""

from poker_envs.encoders._holdem import action_added, first_to_act
from poker_envs.encoders.base import Encoder, EncoderSpec, resolve_encoder

__all__ = ["Encoder", "EncoderSpec", "action_added", "first_to_act", "resolve_encoder"]
