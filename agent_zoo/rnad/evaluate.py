"""Exact exploitability of network policies: every information set's observation in one forward pass.

The observation vectors of all information sets are built once from the environment's own encoder
(on one representative state per information set of the CFR game tree); a policy matrix
(infosets x actions) then goes to ``agent_zoo.cfr.exploitability`` (OpenSpiel's definition:
exploitability = NashConv / 2).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from agent_zoo.cfr import ExploitabilityResult, GameTree, exploitability
from poker_envs.games.base import Game, GameState

EncodeFn = Callable[[GameState, int], np.ndarray]


class ExactEvaluator:
    """Holds the game tree and the (I, D) observations of its information sets."""

    def __init__(self, game: Game, encode: EncodeFn) -> None:
        self.tree = GameTree.build(game)
        states, players = self.tree.infoset_states, self.tree.infoset_player
        self.obs = np.stack([np.asarray(encode(s, int(p)), dtype=np.float32).ravel() for s, p in zip(states, players, strict=True)])
        self.legal = self.tree.legal_mask.astype(np.float64)

    @classmethod
    def for_env(cls, env: object) -> ExactEvaluator:
        """From a ``poker_envs`` AEC env (wrapped or raw): its game and its observation encoder."""
        base = getattr(env, "unwrapped", env)
        return cls(base.game, base.encoder.encode)

    def __call__(self, policy: np.ndarray) -> ExploitabilityResult:
        """Exploitability of one policy matrix (I, A) (rows over legal actions)."""
        return exploitability(self.tree, policy)

    def many(self, policies: np.ndarray) -> list[ExploitabilityResult]:
        """Exploitability of each of (R, I, A) policy matrices."""
        return [exploitability(self.tree, p) for p in policies]
