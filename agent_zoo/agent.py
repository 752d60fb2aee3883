"""The one interface every zoo agent implements: act from an observation dict and a random generator.

What an agent may read
----------------------
An agent acts from what the environment gives a player (``last()`` / ``observe()``: the dict with
``"observation"``, ``"action_mask"`` and, for the hold'em family, ``"public"``, the public betting
state of ``poker_envs.encoders.public``) plus its own memory, and from nothing else: never from the
environment object or its game state. At construction a factory may read the environment's
*configuration* (the rules, the encoder, the blinds: the agent is built for a game), but ``act`` and
``act_batch`` must not. So an agent can be pickled, sent to another process or a Ray worker, or fed
observations made from a hand history; ``tests/test_agents_observe.py`` checks every buildable spec.

Batched acting
--------------
``act_batch(observations, rng)`` acts for ``m`` decisions at once. ``observations`` is the stacked
dict: every key of the single-decision dict with a leading axis of length ``m``
(``{"observation": (m, ...), "action_mask": (m, A), "public": (m, P)}``). ``rng`` is either

* a sequence of ``m`` Generators, one per row (e.g. one per table): row ``i`` draws only from
  ``rng[i]``, exactly as ``act(observation_i, rng[i])`` would, so the actions do not depend on how rows
  are grouped into batches (the reproducible choice for runners that batch many tables); or
* one Generator: the rows draw from it in row order, exactly as the loop
  ``[act(observation_i, rng) for i in range(m)]`` would.

Either way ``act_batch`` returns what the corresponding ``act`` calls return; vectorised overrides
(random, heuristic, tabular policies, push/fold, CNN, SB3) share the deterministic work over rows
(lookups, probabilities, one network forward pass) and keep the per-row draws.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from poker_envs.text.tracker import HandRecord

Observation = Mapping[str, np.ndarray]
Rngs = np.random.Generator | Sequence[np.random.Generator]


class Agent(ABC):
    """Base class of zoo agents."""

    name: str = "agent"
    # environment options the agent needs (e.g. {"history": True}: the hand so far in the observation); the
    # tournament builds its environments with them
    env_options: Mapping[str, Any] = MappingProxyType({})
    # True: the runner (``agent_zoo.runner.play_aec``) shows the agent who sits where at each hand it plays and
    # that hand's public record once it ends (``seated``, ``end_hand``), as a player at the table sees them
    hand_records: bool = False

    def begin_hand(self, seat: int) -> None:
        """Called before each hand (episode) with the seat the agent plays; stateless agents ignore it."""

    def seated(self, hand: int, seat: int, players: tuple[int, ...]) -> None:
        """Agents with ``hand_records``: hand ``hand`` (the runner's index) starts with the agent at ``seat`` and
        ``players[s]`` (the runner's player ids: its index into the agents) at each seat ``s``."""

    def end_hand(self, hand: int, seat: int, record: HandRecord) -> None:
        """Agents with ``hand_records``: a hand the agent played at ``seat`` ended; ``record`` is what the table
        saw of it (``poker_envs.text.tracker.HandRecord``: actions, board, blinds, net results, the players; no hole
        cards). A session episode calls it once per hand, with the episode's ``hand`` index."""

    def note_rows(self, rows: Sequence[tuple[int, int, int]]) -> None:
        """Called by ``agent_zoo.runner.play_aec`` right before ``act_batch`` with ``(table, hand, seat)`` of each
        row (``hand``: index into the runner's hands); agents that log their decisions keep it, others ignore it."""

    def begin_block(self, log: Path | None, hands: Sequence[Mapping[str, int]] = (), **tags: Any) -> None:
        """Called by the tournament before a block of hands: agents that log their decisions write them to
        ``log`` (None: no log), ``hands[k]`` naming hand k of the block (deal, rotation) and ``tags`` the block."""

    def finish_block(self) -> dict[str, float]:
        """Called after the block: the agent's counters over it (summable numbers, e.g. decisions and fallbacks
        of a language model), which the tournament adds up per agent and reports; none for most agents."""
        return {}

    @abstractmethod
    def act(self, observation: Observation, rng: np.random.Generator) -> int:
        """Choose a legal action id (``observation["action_mask"][a] == 1``)."""

    def act_batch(self, observations: Observation, rng: Rngs) -> np.ndarray:
        """Actions (int64, shape ``(m,)``) for ``m`` stacked observations; see the module doc for ``rng``."""
        m = batch_size(observations)
        rngs = row_rngs(rng, m)
        return np.array([self.act(row(observations, i), rngs[i]) for i in range(m)], dtype=np.int64)

    def action_probabilities(self, observation: Observation) -> np.ndarray | None:
        """The agent's mixed strategy over all action ids here, if it has one (None otherwise)."""
        return None

    def action_probabilities_batch(self, observations: Observation) -> np.ndarray | None:
        """``action_probabilities`` of ``m`` stacked observations, shape ``(m, A)``; None if the agent has none.

        Local best response (``agent_zoo.lbr``) asks this for every holding the agent might have;
        agents with a vectorised strategy override it."""
        m = batch_size(observations)
        rows = [self.action_probabilities(row(observations, i)) for i in range(m)]
        if any(r is None for r in rows):
            return None
        return np.stack([np.asarray(r, dtype=np.float64) for r in rows])


def batch_size(observations: Observation) -> int:
    """Rows ``m`` of a stacked observation dict; checks that every key has them."""
    if not isinstance(observations, Mapping) or "action_mask" not in observations:
        raise TypeError("observations must be a dict of stacked arrays with an 'action_mask' key")
    mask = np.asarray(observations["action_mask"])
    if mask.ndim != 2:
        raise ValueError(f"observations['action_mask'] must have shape (m, num_actions), got {mask.shape}")
    m = mask.shape[0]
    for key, value in observations.items():
        if len(value) != m:
            raise ValueError(f"observations[{key!r}] has {len(value)} rows, action_mask has {m}")
    return m


def row(observations: Observation, i: int) -> dict[str, np.ndarray]:
    """Row ``i`` of a stacked observation dict, as the single-decision dict ``act`` takes."""
    return {key: np.asarray(value[i]) for key, value in observations.items()}


def stack(observations: Sequence[Observation]) -> dict[str, np.ndarray]:
    """Stack single-decision observation dicts (same keys) into the dict ``act_batch`` takes."""
    if not observations:
        raise ValueError("observations must hold at least one observation dict")
    keys = list(observations[0])
    if any(list(o) != keys for o in observations):
        raise ValueError(f"every observation must have the keys {keys}")
    return {k: np.stack([np.asarray(o[k]) for o in observations]) for k in keys}


def row_rngs(rng: Rngs, m: int) -> Sequence[np.random.Generator]:
    """One Generator per row: ``rng`` repeated ``m`` times (rows draw in order) or the given sequence."""
    if isinstance(rng, np.random.Generator):
        return [rng] * m
    rngs = list(rng)
    if len(rngs) != m or not all(isinstance(g, np.random.Generator) for g in rngs):
        raise TypeError(f"rng must be a numpy Generator or a sequence of {m} Generators (one per row)")
    return rngs


def legal_actions(observation: Observation) -> np.ndarray:
    """Indices of the legal actions in an observation's mask; raises if none is legal."""
    legal = np.flatnonzero(observation["action_mask"])
    if legal.size == 0:
        raise ValueError("observation's action_mask has no legal action (the agent is not to act)")
    return legal


def batch_masks(observations: Observation) -> np.ndarray:
    """The (m, A) boolean legal masks of a stacked observation dict; raises if a row has no legal action."""
    mask = np.asarray(observations["action_mask"]) > 0
    empty = np.flatnonzero(~mask.any(axis=1))
    if empty.size:
        raise ValueError(f"observations rows {empty.tolist()} have no legal action (those agents are not to act)")
    return mask


def sample_from(probs: np.ndarray, rng: np.random.Generator) -> int:
    """Draw an action id from a probability vector with ``rng``: the draw of ``rng.choice(probs.size,
    p=probs / probs.sum())`` (one uniform; the first id whose cumulative share exceeds it), without that
    call's overhead (a quarter of the time; local best response draws a few thousand times a second)."""
    total = probs.sum()
    if not (0 < total < np.inf and (probs >= 0).all()):
        raise ValueError(f"probabilities must be non-negative with a positive, finite sum, got {probs.tolist()}")
    cdf = np.cumsum(np.asarray(probs / total, dtype=np.float64))  # in float64 as ``choice``, whatever the dtype
    cdf /= cdf[-1]
    return int(cdf.searchsorted(rng.random(), side="right"))


def sample_rows(probs: np.ndarray, rng: Rngs) -> np.ndarray:
    """``sample_from`` of every row of ``probs`` (m, A), row ``i`` with its generator (see ``row_rngs``)."""
    rngs = row_rngs(rng, len(probs))
    return np.array([sample_from(p, g) for p, g in zip(probs, rngs)], dtype=np.int64)


class RandomAgent(Agent):
    """Uniform over the legal actions (every chip amount counts as one action where amounts are actions)."""

    name = "random"

    def act(self, observation: Observation, rng: np.random.Generator) -> int:
        legal = legal_actions(observation)
        return int(legal[rng.integers(legal.size)])

    def act_batch(self, observations: Observation, rng: Rngs) -> np.ndarray:
        mask = batch_masks(observations)
        counts = mask.sum(axis=1)
        rngs = row_rngs(rng, len(mask))
        picks = np.array([g.integers(c) for g, c in zip(rngs, counts.tolist())], dtype=np.int64)
        # the pick-th legal id of each row: the first column where the running count of legal ids passes pick
        return np.argmax(np.cumsum(mask, axis=1) > picks[:, None], axis=1).astype(np.int64)

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        mask = np.asarray(observation["action_mask"], dtype=np.float64)
        return mask / mask.sum()

    def action_probabilities_batch(self, observations: Observation) -> np.ndarray:
        mask = batch_masks(observations).astype(np.float64)
        return mask / mask.sum(axis=1, keepdims=True)


class FoldAgent(Agent):
    """Folds whenever folding is legal (action 0), else checks (action 1): it never puts in a chip it was not forced to."""

    name = "fold"

    def act(self, observation: Observation, rng: np.random.Generator) -> int:
        legal = legal_actions(observation)
        return 0 if legal[0] == 0 else 1 if 1 in legal else int(legal[0])

    def act_batch(self, observations: Observation, rng: Rngs) -> np.ndarray:
        mask = batch_masks(observations)
        return np.where(mask[:, 0], 0, np.where(mask[:, 1], 1, np.argmax(mask, axis=1))).astype(np.int64)


ActFn = Callable[[Observation, np.random.Generator], int]


class CallableAgent(Agent):
    """Adapts a plain function ``f(observation, rng) -> action`` to the Agent interface."""

    def __init__(self, fn: ActFn, name: str | None = None) -> None:
        self.fn = fn
        self.name = name or getattr(fn, "__name__", "callable")

    def act(self, observation: Observation, rng: np.random.Generator) -> int:
        return int(self.fn(observation, rng))
