"""The value network of Hwang & Kaneko: (state, candidate action) tensor -> chips / buy-in.

Input 33x17x17 (the Poker-CNN tensor with the candidate action in planes 31-32); two 5x5
convolutions with 32 filters, 2x2 max pooling, two 5x5 convolutions with 64 filters, 2x2 max
pooling, a 1024-unit fully connected layer, dropout 0.5, ReLU after every hidden layer, and one
output squashed by tanh into [-1, 1]. Convolutions pad by 2 ("same"): with unpadded 5x5 filters a
17x17 input would shrink below 5x5 before the third convolution.

Initialisation as Keras (the document's framework) does by default: Glorot-uniform weights, zero
biases. PyTorch's default (small uniform weights and random biases) lets the sparse 0/1 input fade
through four ReLU convolutions; the random negative biases then switch every unit off within a few
thousand Adadelta steps and the network outputs a constant (seen in our first runs).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from poker_envs.encoders.poker_cnn import ACTION_TYPE, NUM_PLANES, SIDE

INPUT_SHAPE = (NUM_PLANES, SIDE, SIDE)
CANDIDATE_PLANES = NUM_PLANES - ACTION_TYPE  # planes 31-32: the candidate action's type and chips
SCORE_CHUNK = 512  # (state, candidate) rows per pass of the layers after the first convolution


class PokerCNN(nn.Module):
    """Predicts the chips an action wins or loses by the end of the hand, divided by the buy-in."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(NUM_PLANES, 32, 5, padding=2), nn.ReLU(),
            nn.Conv2d(32, 32, 5, padding=2), nn.ReLU(),
            nn.MaxPool2d(2),  # 17 -> 8
            nn.Conv2d(32, 64, 5, padding=2), nn.ReLU(),
            nn.Conv2d(64, 64, 5, padding=2), nn.ReLU(),
            nn.MaxPool2d(2),  # 8 -> 4
            nn.Flatten(),
        )
        self.head = nn.Sequential(
            nn.Linear(64 * 4 * 4, 1024), nn.ReLU(),
            nn.Dropout(0.5),
            nn.Linear(1024, 1), nn.Tanh(),
        )
        for m in self.modules():
            if isinstance(m, nn.Conv2d | nn.Linear):
                nn.init.xavier_uniform_(m.weight)
                nn.init.zeros_(m.bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """(N, 33, 17, 17) float -> (N,) values in [-1, 1]."""
        if x.dim() != 4 or tuple(x.shape[1:]) != INPUT_SHAPE:
            raise ValueError(f"input must have shape (N, {', '.join(map(str, INPUT_SHAPE))}), got {tuple(x.shape)}")
        return self.head(self.features(x)).squeeze(1)


def to_tensor(x: np.ndarray) -> torch.Tensor:
    """Encoded planes (uint8 or float32 numpy) -> float32 torch tensor (no copy for float32)."""
    t = torch.from_numpy(np.ascontiguousarray(x))
    return t.float() if t.dtype != torch.float32 else t


@torch.inference_mode()
def score(net: PokerCNN, x: np.ndarray) -> np.ndarray:
    """Values of N encoded (state, action) tensors in one forward pass (eval mode: no dropout)."""
    if len(x) == 0:
        return np.zeros(0, dtype=np.float32)
    was_training = net.training
    net.eval()
    out = net(to_tensor(x)).numpy()
    if was_training:
        net.train()
    return out


@torch.inference_mode()
def score_candidates(net: PokerCNN, states: np.ndarray, candidates: np.ndarray, rows: np.ndarray,
                     cands: np.ndarray) -> np.ndarray:
    """Values of N (state, candidate action) tensors without building them: pair i is ``states[rows[i]]``
    (S, 33, 17, 17; planes 31-32 are ignored) with planes 31-32 taken from ``candidates[cands[i]]``
    (C, 2, 17, 17). Equal to ``score`` of the assembled tensors up to float round-off.

    Why it is faster: the first convolution is linear, so it is computed once per state on planes 0-30
    and once per candidate on planes 31-32 and summed per pair (instead of once per pair on all 33
    planes); the layers after it run in chunks in channels_last memory format (faster on CPU)."""
    rows, cands = np.asarray(rows, dtype=np.int64), np.asarray(cands, dtype=np.int64)
    if rows.shape != cands.shape or rows.ndim != 1:
        raise ValueError(f"rows and cands must be 1-D of one length, got {rows.shape} and {cands.shape}")
    if np.shape(states)[1:] != INPUT_SHAPE or np.shape(candidates)[1:] != (CANDIDATE_PLANES, SIDE, SIDE):
        raise ValueError(f"states must have shape (S, {', '.join(map(str, INPUT_SHAPE))}) and candidates "
                         f"(C, {CANDIDATE_PLANES}, {SIDE}, {SIDE}), got {np.shape(states)} and {np.shape(candidates)}")
    if len(rows) == 0:
        return np.zeros(0, dtype=np.float32)
    if rows.min() < 0 or rows.max() >= len(states) or cands.min() < 0 or cands.max() >= len(candidates):
        raise ValueError(f"rows must index the {len(states)} states and cands the {len(candidates)} candidates")
    was_training = net.training
    net.eval()
    conv1 = net.features[0]
    w, b = conv1.weight, conv1.bias
    state_part = F.conv2d(to_tensor(np.asarray(states)[:, :ACTION_TYPE]), w[:, :ACTION_TYPE], b, padding=conv1.padding)
    cand_part = F.conv2d(to_tensor(np.asarray(candidates)), w[:, ACTION_TYPE:], None, padding=conv1.padding)
    r, c = torch.from_numpy(rows), torch.from_numpy(cands)
    out = torch.empty(len(rows), dtype=torch.float32)
    for lo in range(0, len(rows), SCORE_CHUNK):
        hi = min(len(rows), lo + SCORE_CHUNK)
        h = (state_part[r[lo:hi]] + cand_part[c[lo:hi]]).contiguous(memory_format=torch.channels_last)
        out[lo:hi] = net.head(net.features[1:](h)).squeeze(1)
    if was_training:
        net.train()
    return out.numpy()


def load_generation(path: str | Path) -> tuple[PokerCNN, dict[str, Any]]:
    """A finished generation's network (eval mode) and its checkpoint metadata."""
    ckpt = torch.load(path, map_location="cpu", weights_only=False)
    if "state_dict" not in ckpt:
        raise ValueError(f"{path} is not a CNN generation checkpoint (no state_dict)")
    net = PokerCNN()
    net.load_state_dict(ckpt["state_dict"])
    net.eval()
    return net, ckpt
