"""Encoders offered by the hold'em environments (limit, no-limit; push/fold where they fit), by name.

Each hold'em environment module merges its own ``"default"`` with this table.
"""

from __future__ import annotations

from poker_envs.encoders.base import Encoder

HOLDEM_ENCODERS: dict[str, type[Encoder]] = {}
