"""A trained generation as a zoo agent for ``nolimit_holdem_v0(bet_sizing="chips", obs_encoder="poker_cnn")``.

To act it scores every legal action (or the documented subset, ``candidates="subset"``: fold,
check/call, the minimum raise, raises of 1/2, 1 and 2 pots and all-in) in one batched pass
(``network.score_candidates``: the state's planes and each candidate's planes enter the first
convolution separately, so no (state, candidate) tensor is built) and plays the argmax (a fold scores its exact value when the run was trained with ``exact_fold``;
ties, e.g. the raises of 52 small blinds or more that the tensor cannot tell apart, go to the
smallest id). Everything comes from the observation: the Poker-CNN planes of the player's view
(``observation["observation"]``, read as the whole small blinds the training tensors hold) and the
public betting state (``observation["public"]``: the player's street bet, the amount to call, the
raise range, the small blind), from which the candidates' chip amounts are added as planes 31-32.
``act_batch`` scores the candidates of all rows in one batched pass (``score_batch``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from agent_zoo.agent import Agent, Observation, Rngs, batch_masks, legal_actions, row, stack
from agent_zoo.cnn.network import PokerCNN, score_candidates
from agent_zoo.cnn.selfplay import Player, candidate_actions, distinct_candidates, expand_scores, fold_value
from agent_zoo.observe import public_state
from poker_envs.encoders.poker_cnn import NUM_PLANES, SIDE, candidate_planes


class CNNAgent(Agent):
    """Greedy player of a PokerCNN value network (deterministic: the generator is not used)."""

    def __init__(self, net: PokerCNN, env: Any, candidates: str = "full", name: str = "cnn",
                 exact_fold: bool = False) -> None:
        """``env`` is read here only, for its configuration (the game and the observation it gives)."""
        base = getattr(env, "unwrapped", env)
        game = getattr(base, "game", None)
        if game is None or getattr(game, "name", "") != "nolimit_holdem" or not getattr(game, "chips_sizing", False):
            raise ValueError("the CNN agent plays nolimit_holdem_v0 with bet_sizing='chips' (one id per chip amount)")
        first = env.possible_agents[0]
        shape = tuple(env.observation_space(first)["observation"].shape)
        if shape != (NUM_PLANES, SIDE, SIDE):
            raise ValueError(f"the CNN agent reads the Poker-CNN planes {(NUM_PLANES, SIDE, SIDE)}; this env gives {shape}: "
                             "build it with obs_encoder='poker_cnn' (tournament: --env-config obs_encoder=poker_cnn)")
        self.name = name
        self.player = Player(name, "cnn", net.eval(), candidates, exact_fold=exact_fold)

    def _candidates(self, observation: Observation) -> tuple[Any, list[int], np.ndarray, np.ndarray]:
        """(public state, candidate ids, planes 31-32 of their distinct encodings, index of each
        encoding's first candidate); a function of the public state and the legal mask only."""
        public = public_state(observation, "the CNN agent")
        actions = candidate_actions(legal_actions(observation), public, self.player.candidates, self.player.fractions)
        kinds, added, first = distinct_candidates(public, actions)
        return public, actions, candidate_planes(kinds, added / public.small_blind, np.uint8), first

    def score_batch(self, observations: Observation) -> list[tuple[list[int], np.ndarray]]:
        """(candidate ids, their predicted chips / buy-in) for every row of stacked observations.

        One batched scoring for all rows: rows with the same public state and legal mask (e.g. one
        table seen with every possible holding) share their candidate list, and each (row, candidate)
        tensor is scored without being built (``network.score_candidates``)."""
        masks = batch_masks(observations)
        m = len(masks)
        obs = np.asarray(observations["observation"])
        if obs.shape[1:] != (NUM_PLANES, SIDE, SIDE):
            raise ValueError(f"observations['observation'] must have shape (m, {NUM_PLANES}, {SIDE}, {SIDE}), got {obs.shape}")
        # Whole small blinds only (the uint8 tensors the network was trained on): a partly filled cell is 0.
        planes = (obs >= 1).astype(np.uint8)
        public = np.asarray(observations["public"]) if "public" in observations else None
        groups: dict[bytes, list[int]] = {}
        for i in range(m):
            key = masks[i].tobytes() + (public[i].tobytes() if public is not None else b"")
            groups.setdefault(key, []).append(i)
        found: list[tuple[list[int], Any, list[int], np.ndarray, int]] = []
        cand_planes: list[np.ndarray] = []
        rows: list[np.ndarray] = []
        cands: list[np.ndarray] = []
        offset = 0
        for members in groups.values():
            pub, actions, cp, first = self._candidates(row(observations, members[0]))
            k = len(cp)
            found.append((members, pub, actions, first, k))
            cand_planes.append(cp)
            rows.append(np.repeat(np.asarray(members, dtype=np.int64), k))
            cands.append(np.tile(np.arange(offset, offset + k), len(members)))
            offset += k
        values = score_candidates(self.player.net, planes, np.concatenate(cand_planes), np.concatenate(rows),
                                  np.concatenate(cands))
        out: list[tuple[list[int], np.ndarray]] = [([], np.zeros(0))] * m
        off = 0
        for members, pub, actions, first, k in found:
            v = expand_scores(actions, values[off : off + len(members) * k].reshape(len(members), k), first)
            off += len(members) * k
            if self.player.exact_fold:
                fold_value(pub, actions, v)
            for j, i in enumerate(members):
                out[i] = (actions, v[j])
        return out

    def scores(self, observation: Observation) -> tuple[list[int], np.ndarray]:
        """(candidate action ids, their predicted chips / buy-in) for one observation."""
        return self.score_batch(stack([observation]))[0]

    def act(self, observation: Observation, rng: np.random.Generator) -> int:
        actions, values = self.scores(observation)
        return int(actions[int(np.argmax(values))])

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        """Greedy, so all probability on the action ``act`` plays (local best response reads this)."""
        return self.action_probabilities_batch(stack([observation]))[0]

    def action_probabilities_batch(self, observations: Observation) -> np.ndarray:
        """One-hot rows of ``act_batch``'s greedy actions (one batched scoring for the whole batch)."""
        actions = self.act_batch(observations, np.random.default_rng(0))  # greedy: the generator is not used
        probs = np.zeros((len(actions), np.shape(observations["action_mask"])[1]))
        probs[np.arange(len(actions)), actions] = 1.0
        return probs

    def act_batch(self, observations: Observation, rng: Rngs) -> np.ndarray:
        return np.array([actions[int(np.argmax(v))] for actions, v in self.score_batch(observations)], dtype=np.int64)


def load_cnn_agent(path: str | Path, env: Any, candidates: str = "full") -> CNNAgent:
    """Registry factory (``cnn:PATH``): the generation saved at ``PATH`` playing in ``env``."""
    from agent_zoo.cnn.train import load_generation

    net, ckpt = load_generation(path)
    exact_fold = bool(ckpt.get("config", {}).get("exact_fold", False))
    return CNNAgent(net, env, candidates, name=f"cnn{ckpt.get('generation', '')}", exact_fold=exact_fold)
