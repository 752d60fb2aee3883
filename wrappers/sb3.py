"""Helpers for Stable-Baselines3 / sb3-contrib models trained on these environments (torch imported lazily)."""

from __future__ import annotations

from typing import Any

import numpy as np


def masked_probabilities(policy: Any, obs_tensor: Any, legal_mask: np.ndarray) -> np.ndarray:
    """(N, A) float64 action probabilities of an SB3 policy on a batch of observation tensors, restricted to
    ``legal_mask`` (N, A) and renormalised (uniform over the legal actions where the policy puts no mass on them).

    sb3-contrib's masked policies get the mask; plain SB3 policies take none and are masked afterwards.
    """
    import torch

    legal_mask = np.asarray(legal_mask, dtype=bool)
    with torch.no_grad():
        try:
            dist = policy.get_distribution(obs_tensor, action_masks=legal_mask)
        except TypeError:  # plain SB3 policies take no mask
            dist = policy.get_distribution(obs_tensor)
        probs = dist.distribution.probs.cpu().numpy().astype(np.float64)
    probs = np.where(legal_mask, probs, 0.0)
    total = probs.sum(axis=1, keepdims=True)
    return np.where(total > 0, probs / np.where(total > 0, total, 1.0), legal_mask / legal_mask.sum(axis=1, keepdims=True))


def policy_table(model: Any, observations: np.ndarray, legal_mask: np.ndarray) -> np.ndarray:
    """A model's masked action probabilities for a batch of observations, (N, A) float64, rows summing to 1.

    With a game tree's infoset observations and legal masks (``agent_zoo.cfr``) this is the model's whole
    strategy as a table, ready for exact exploitability or a ``TabularPolicyAgent``.
    """
    import torch

    legal_mask = np.asarray(legal_mask, dtype=bool)
    if legal_mask.shape[0] != len(observations) or not legal_mask.any(axis=1).all():
        raise ValueError("legal_mask must have one row per observation, each with at least one legal action")
    policy = model.policy
    obs = torch.as_tensor(np.asarray(observations, dtype=np.float32), device=policy.device)
    return masked_probabilities(policy, obs, legal_mask)
