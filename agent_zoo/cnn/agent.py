"""A trained generation as a zoo agent for ``nolimit_holdem_v0(bet_sizing="chips")``.

To act it scores every legal action (or the documented subset, ``candidates="subset"``: fold,
check/call, the minimum raise, raises of 1/2, 1 and 2 pots and all-in) in one batched forward pass
and plays the argmax (a fold scores its exact value when the run was trained with ``exact_fold``;
ties, e.g. the raises of 52 small blinds or more that the tensor cannot tell apart, go to the
smallest id). The candidates' chip amounts depend on the player's street bet,
which an observation does not hold, so the agent reads the state of the env it was made for and
encodes its own view of it (``poker_cnn`` reads only the acting player's hole cards).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from agent_zoo.agent import Agent, Observation, legal_actions
from agent_zoo.cnn.network import PokerCNN
from agent_zoo.cnn.selfplay import Player, cnn_scores
from poker_envs.encoders.poker_cnn import PokerCNNEncoder


class CNNAgent(Agent):
    """Greedy player of a PokerCNN value network."""

    def __init__(self, net: PokerCNN, env: Any, candidates: str = "full", name: str = "cnn",
                 exact_fold: bool = False) -> None:
        base = getattr(env, "unwrapped", env)
        game = getattr(base, "game", None)
        if game is None or getattr(game, "name", "") != "nolimit_holdem" or not getattr(game, "chips_sizing", False):
            raise ValueError("the CNN agent plays nolimit_holdem_v0 with bet_sizing='chips' (one id per chip amount)")
        self.env = base
        self.name = name
        self.player = Player(name, "cnn", net.eval(), candidates, exact_fold=exact_fold)
        self.encoder = PokerCNNEncoder(game, dtype=np.uint8)

    def scores(self) -> tuple[list[int], np.ndarray]:
        """(candidate action ids, their predicted chips / buy-in) at the env's current state."""
        return cnn_scores(self.env.state, self.player, self.encoder)

    def act(self, observation: Observation, rng: np.random.Generator) -> int:
        legal = set(legal_actions(observation).tolist())
        actions, values = self.scores()
        action = int(actions[int(np.argmax(values))])
        if action not in legal:
            raise RuntimeError(f"CNN agent chose {action}, not legal in the observation (is the env the one observed?)")
        return action


def load_cnn_agent(path: str | Path, env: Any, candidates: str = "full") -> CNNAgent:
    """Registry factory (``cnn:PATH``): the generation saved at ``PATH`` playing in ``env``."""
    from agent_zoo.cnn.train import load_generation

    net, ckpt = load_generation(path)
    exact_fold = bool(ckpt.get("config", {}).get("exact_fold", False))
    return CNNAgent(net, env, candidates, name=f"cnn{ckpt.get('generation', '')}", exact_fold=exact_fold)
