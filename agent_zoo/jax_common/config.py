"""What the on-device trainers' frozen configs share: the games they learn, a run's length in whole updates, and
its JSON form."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any, Self, TypeVar

from agent_zoo.configs import config_from_dict
from poker_envs import catalog

GAMES = tuple(catalog.keys(solver="jax_ppo"))  # catalog keys with a functional engine: what both trainers learn
SOLVABLE = tuple(k for k in GAMES if k in catalog.keys(solver="cfr"))  # small enough for the exact best response

C = TypeVar("C", bound="RunLength")


class RunLength:
    """Mixed into a frozen config dataclass that has ``total_steps`` and ``steps_per_update`` (a field or a
    property): the run takes whole updates, at least ``total_steps`` steps."""

    total_steps: int
    steps_per_update: int

    @property
    def num_updates(self) -> int:
        """Updates of the run: ``total_steps`` rounded up to whole updates."""
        return -(-self.total_steps // self.steps_per_update)

    @property
    def steps_run(self) -> int:
        """Steps the run takes: ``num_updates`` whole updates, at least ``total_steps``."""
        return self.num_updates * self.steps_per_update

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)  # type: ignore[call-overload]

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Inverse of ``to_dict`` (JSON lists back to tuples); unknown keys are an error."""
        return config_from_dict(cls, data)
