"""RLlib's default PPO torch module with the env's action mask applied to its logits (``masked_module_spec``).

The networks are built on the ``"observations"`` part of the ``{"observations", "action_mask"}`` observation
space of ``wrappers.rllib.PokerMultiAgentEnv``; ``log(mask)``, clamped to the float minimum, is added to the
action logits, so a masked action is never sampled and gets no probability in the PPO loss. Written on
``DefaultPPOTorchRLModule``, RLlib's current PPO module (the action-masking module among RLlib's examples
builds on the deprecated ``PPOTorchRLModule``, and importing it logs a deprecation warning in every process).

RLlib's ``RLModule`` constructor builds a deprecated ``RLModuleConfig`` for old custom models whatever the
module (RLlib 2.x), which logs "``RLModule(config=[RLModuleConfig object])`` has been deprecated" once per
process although nothing here passes a config; importing this module filters exactly that record out of
RLlib's deprecation logger (every other record of that logger still shows).
"""

from __future__ import annotations

import logging
from typing import Any

from gymnasium import spaces
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.utils.framework import try_import_torch
from ray.rllib.utils.torch_utils import FLOAT_MIN

torch, _ = try_import_torch()

OBS_KEY = "observations"  # the encoder's array (wrappers.rllib.OBS_KEY)
MASK_KEY = "action_mask"  # 1.0 legal, 0.0 illegal (wrappers.rllib.MASK_KEY)
RLLIB_OWN_NOTICE = "RLModule(config=[RLModuleConfig object])"  # logged by every RLModule's constructor


class _DropRLlibOwnNotice(logging.Filter):
    """Drops the one deprecation record RLlib's ``RLModule.__init__`` logs for its own internal config object."""

    def filter(self, record: logging.LogRecord) -> bool:
        return RLLIB_OWN_NOTICE not in record.getMessage()


_deprecation_logger = logging.getLogger("ray._common.deprecation")
if not any(isinstance(f, _DropRLlibOwnNotice) for f in _deprecation_logger.filters):
    _deprecation_logger.addFilter(_DropRLlibOwnNotice())


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """PPO's default torch module on ``observation_space["observations"]``, its logits masked by
    ``"action_mask"``."""

    def __init__(self, *, observation_space: spaces.Space | None = None, **kwargs: Any) -> None:
        if not isinstance(observation_space, spaces.Dict) or set(observation_space.spaces) != {OBS_KEY, MASK_KEY}:
            raise ValueError(f"the masked PPO module needs a Dict observation space of {OBS_KEY!r} and {MASK_KEY!r} "
                             f"(wrappers.rllib.PokerMultiAgentEnv's), got {observation_space}")
        self.observation_space_with_mask = observation_space
        super().__init__(observation_space=observation_space[OBS_KEY], **kwargs)

    def setup(self) -> None:
        super().setup()  # networks for the observations alone
        self.observation_space = self.observation_space_with_mask  # what the env runners check the env against

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inner = _split(batch)
        return _mask_logits(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inner = _split(batch)
        return _mask_logits(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        return super().compute_values(_split(batch)[1], embeddings)


def _split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """(the mask, a shallow copy of ``batch`` whose observations are the encoder's array); ``batch`` is kept."""
    obs = batch[Columns.OBS]
    if not isinstance(obs, dict) or MASK_KEY not in obs or OBS_KEY not in obs:
        raise ValueError(f"the masked PPO module reads observations {{{OBS_KEY!r}: ..., {MASK_KEY!r}: ...}}, "
                         f"got {type(obs).__name__}")
    return obs[MASK_KEY], {**batch, Columns.OBS: obs[OBS_KEY]}


def _mask_logits(out: dict[str, Any], mask: Any) -> dict[str, Any]:
    """``log(mask)`` clamped to the float minimum added to the action logits: 0 where legal, about -3.4e38 where not."""
    out[Columns.ACTION_DIST_INPUTS] = out[Columns.ACTION_DIST_INPUTS] + torch.clamp(torch.log(mask), min=FLOAT_MIN)
    return out
