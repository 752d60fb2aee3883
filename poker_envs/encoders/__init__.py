"""Observation encoders (see docs/encoders.md for the table of every encoding)."""

from poker_envs.encoders.base import Encoder, EncoderSpec, resolve_encoder

__all__ = ["Encoder", "EncoderSpec", "resolve_encoder"]
