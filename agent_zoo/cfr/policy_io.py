"""Tabular policies saved as plain ``.npz`` files keyed by information state.

A file holds: ``game`` (the game's ``name``), ``infoset_keys`` (information state strings),
``policy`` (I, A) probabilities over all action ids, ``legal_mask`` (I, A), and, when an encoder
was given, ``observations`` (I, d): the observation vector each infoset's player sees (from one
representative state), with ``encoder`` (the encoder's name), so an agent can play from
environment observations alone. ``meta`` is a JSON string (algorithm, iterations, exploitability).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from agent_zoo.cfr.tree import GameTree
from poker_envs.encoders.base import Encoder

FORMAT = "poker-envs-tabular-policy-1"


@dataclass(frozen=True)
class TabularPolicy:
    """A policy table as stored in a file."""

    game: str  # Game.name it was made for
    infoset_keys: list[str]
    policy: np.ndarray  # (I, A)
    legal_mask: np.ndarray  # (I, A) bool
    observations: np.ndarray | None = None  # (I, d) float32, what each infoset's player observes
    encoder: str | None = None  # name of the encoder that made ``observations``
    meta: dict[str, Any] = field(default_factory=dict)

    def for_tree(self, tree: GameTree) -> np.ndarray:
        """This policy as a (I, A) array in ``tree``'s infoset order (the tree must be of the same game)."""
        check_game(self, tree.game_name)
        rows = {k: i for i, k in enumerate(self.infoset_keys)}
        missing = [k for k in tree.infoset_keys if k not in rows]
        if missing or self.policy.shape[1] != tree.num_actions:
            raise ValueError(f"policy file does not cover {tree.game_name}: missing infosets such as {missing[:3]}")
        return tree.check_policy(self.policy[[rows[k] for k in tree.infoset_keys]])


def infoset_observations(tree: GameTree, encoder: Encoder) -> np.ndarray:
    """Observation vector of each infoset's player at its representative state, (I, d) float32."""
    return np.stack(
        [np.asarray(encoder.encode(s, int(p)), dtype=np.float32).ravel()
         for s, p in zip(tree.infoset_states, tree.infoset_player)]
    )


def save_policy(
    path: str | Path, tree: GameTree, policy: np.ndarray, encoder: Encoder | None = None,
    meta: dict[str, Any] | None = None,
) -> None:
    """Write ``policy`` (I, A) of ``tree`` to ``path`` (.npz); with ``encoder``, also each infoset's observation."""
    policy = tree.check_policy(policy)
    extra: dict[str, Any] = {}
    if encoder is not None:
        extra = {"observations": infoset_observations(tree, encoder), "encoder": encoder.name}
    with open(path, "wb") as f:  # a file object keeps numpy from appending ".npz" to the name
        np.savez(
            f, format=FORMAT, game=tree.game_name, infoset_keys=np.array(tree.infoset_keys, dtype=str),
            policy=policy, legal_mask=tree.legal_mask, meta=json.dumps(meta or {}), **extra,
        )


def load_policy(path: str | Path, game: str | None = None) -> TabularPolicy:
    """Read a ``save_policy`` file; with ``game``, refuse a file made for another game."""
    with np.load(path, allow_pickle=False) as data:
        if "format" not in data or str(data["format"]) != FORMAT:
            raise ValueError(f"{path} is not a tabular policy file (format {FORMAT!r})")
        table = TabularPolicy(
            game=str(data["game"]),
            infoset_keys=[str(k) for k in data["infoset_keys"]],
            policy=np.asarray(data["policy"], dtype=np.float64),
            legal_mask=np.asarray(data["legal_mask"], dtype=bool),
            observations=np.asarray(data["observations"], dtype=np.float32) if "observations" in data else None,
            encoder=str(data["encoder"]) if "encoder" in data else None,
            meta=json.loads(str(data["meta"])),
        )
    if game is not None:
        check_game(table, game)
    return table


def check_game(table: TabularPolicy, game: str) -> None:
    """Raise if ``table`` was made for a game other than ``game``."""
    if table.game != game:
        raise ValueError(f"policy file was made for game {table.game!r}, not {game!r}")
