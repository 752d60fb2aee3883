"""Policy-value network of R-NaD and the masked soft-max helpers it needs (torch and numpy versions).

The network is OpenSpiel's: an MLP torso, a linear logit head and a linear value head. Parameters
are initialised like haiku's ``Linear`` (truncated normal, std 1/sqrt(fan_in), zero biases) from a
``torch.Generator``, so a seed fixes them. The numpy forward pass (``numpy_forward``) reads the same
parameter storage without copying; actors use it to pick actions one decision at a time cheaply.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import torch
from torch import nn


class PolicyValueNet(nn.Module):
    """obs -> (logits over all actions, state value)."""

    def __init__(self, obs_dim: int, num_actions: int, hidden_sizes: Sequence[int], activate_final: bool) -> None:
        super().__init__()
        sizes = [obs_dim, *hidden_sizes]
        self.torso = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:], strict=True))
        self.activate_final = activate_final
        self.policy_head = nn.Linear(sizes[-1], num_actions)
        self.value_head = nn.Linear(sizes[-1], 1)

    def reset_parameters(self, generator: torch.Generator) -> None:
        """haiku-style init: truncated normal (two std) with std 1/sqrt(fan_in), biases zero."""
        with torch.no_grad():
            for layer in [*self.torso, self.policy_head, self.value_head]:
                std = 1.0 / math.sqrt(layer.in_features)
                # The std of a standard normal truncated at +-2 is 0.8796; rescale to get ``std``.
                scale = std / 0.87962566103423978
                nn.init.trunc_normal_(layer.weight, 0.0, scale, -2 * scale, 2 * scale, generator=generator)
                layer.bias.zero_()

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = obs
        last = len(self.torso) - 1
        for i, layer in enumerate(self.torso):
            x = layer(x)
            if i < last or self.activate_final:
                x = torch.relu(x)
        return self.policy_head(x), self.value_head(x).squeeze(-1)


def masked_log_policy(logits: torch.Tensor, legal: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(policy, log policy) of the soft-max over legal actions; both are 0 on illegal actions."""
    masked = logits.masked_fill(legal == 0, -math.inf)
    log_pi = torch.log_softmax(masked, dim=-1)
    log_pi = torch.where(legal > 0, log_pi, torch.zeros_like(log_pi))
    pi = torch.where(legal > 0, log_pi.exp(), torch.zeros_like(log_pi))
    return pi, log_pi


def numpy_params(net: PolicyValueNet) -> list[tuple[np.ndarray, np.ndarray]]:
    """(W^T, b) views (no copies) of torso and policy-head layers, for ``numpy_forward``."""
    layers = [*net.torso, net.policy_head]
    return [(layer.weight.detach().numpy().T, layer.bias.detach().numpy()) for layer in layers]


def numpy_forward(params: Sequence[tuple[np.ndarray, np.ndarray]], obs: np.ndarray, activate_final: bool) -> np.ndarray:
    """Logits of a batch (or one vector) of observations; ``params`` from ``numpy_params`` or a saved file."""
    x = obs
    torso_last = len(params) - 2
    for i, (w, b) in enumerate(params):
        x = x @ w + b
        if i < torso_last or (i == torso_last and activate_final):
            np.maximum(x, 0.0, out=x)
    return x


def numpy_policy(logits: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Soft-max over the legal actions (last axis); 0 on illegal ones."""
    masked = np.where(legal > 0, logits, -np.inf)
    masked = masked - masked.max(axis=-1, keepdims=True)
    e = np.exp(masked)
    return e / e.sum(axis=-1, keepdims=True)
