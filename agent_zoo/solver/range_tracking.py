"""The re-solving agent's bookkeeping of a hand: the public history replayed into the states before each action,
ranges updated by Bayes' rule, and ranges thinned for speed.

See :mod:`agent_zoo.solver.agent` for how the agent uses them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from agent_zoo.solver.ranges import COMBOS, NUM_COMBOS
from poker_envs.encoders.history import HandHistory
from poker_envs.games.holdem import BET, RAISE

@dataclass(frozen=True)
class Moment:
    """The public betting state just before one action (or at the decision now), players numbered as the solver
    numbers them: 0 out of position (the big blind heads-up), 1 in position (the button)."""

    street: int  # 0 pre-flop .. 3 river
    actor: int  # the player to act
    contributed: tuple[int, int]  # chips each has put in this hand (antes and blinds too)
    bets: tuple[int, int]  # chips each has bet on this street
    stacks: tuple[int, int]  # chips behind
    aggressions: int  # bets and raises on this street so far (pre-flop the blinds are not counted)
    last_street_aggressor: int  # who bet or raised last on the street before (-1: nobody)

    @property
    def pot(self) -> int:
        return self.contributed[0] + self.contributed[1]

    @property
    def to_call(self) -> int:
        return max(self.bets) - self.bets[self.actor]

    @property
    def can_raise(self) -> bool:
        """Whether the actor could bet or raise (it has chips past a call and the other is not all-in)."""
        return self.stacks[self.actor] > self.to_call and self.stacks[1 - self.actor] > 0

    @property
    def effective(self) -> int:
        """Chips each had behind when the street began, the shorter stack (the subgame's ``stack``)."""
        return min(self.stacks[0] + self.bets[0], self.stacks[1] + self.bets[1])


def replay(history: HandHistory, button: int, now_street: int, now_actor: int) -> list[Moment]:
    """The moment before each action of ``history`` and the moment now (``now_street``, ``now_actor`` to act):
    ``len(history.actions) + 1`` moments. ``button``: the environment seat of the button."""
    seat = (1 - button, button)  # environment seat of solver player 0 and 1 (heads-up: seats 0 and 1)
    player = {seat[0]: 0, seat[1]: 1}
    posted = [round(history.antes[s] + history.blinds[s]) for s in seat]
    contributed = list(posted)
    bets = [round(history.blinds[s]) for s in seat]
    stacks = [round(history.start_stacks[s]) - c for s, c in zip(seat, contributed)]
    street, aggressions, aggressor, last = 0, 0, -1, -1
    out: list[Moment] = []

    def moment(actor: int) -> Moment:
        return Moment(street, actor, (contributed[0], contributed[1]), (bets[0], bets[1]), (stacks[0], stacks[1]),
                      aggressions, last)

    for entry in history.actions:
        if entry.street != street:
            street, last, bets, aggressions, aggressor = entry.street, aggressor, [0, 0], 0, -1
        p = player[entry.seat]
        out.append(moment(p))
        added = round(entry.added)
        contributed[p] += added
        stacks[p] -= added
        bets[p] = round(entry.total)
        if entry.kind in (BET, RAISE):
            aggressions += 1
            aggressor = p
    if now_street != street:
        street, last, bets, aggressions = now_street, aggressor, [0, 0], 0
    out.append(moment(now_actor))
    return out


def board_mask(board: Sequence[int]) -> np.ndarray:
    """(1326,) 1.0 for the holdings that share no card with ``board``."""
    if not len(board):
        return np.ones(NUM_COMBOS)
    return (~np.isin(COMBOS, np.asarray(board, dtype=np.int64)).any(axis=1)).astype(np.float64)


def bayes_update(weights: np.ndarray, likelihood: np.ndarray, epsilon: float, num_actions: int) -> np.ndarray:
    """The range ``weights`` after an action whose probability per holding is ``likelihood``, mixed with the uniform
    strategy over ``num_actions`` actions (``(1 - epsilon) p + epsilon / num_actions``), scaled to a largest weight
    of 1 (Bayes' rule up to normalisation)."""
    if num_actions < 1:
        raise ValueError(f"num_actions must be >= 1, got {num_actions}")
    new = np.asarray(weights, dtype=np.float64) * ((1.0 - epsilon) * np.asarray(likelihood, dtype=np.float64) + epsilon / num_actions)
    top = new.max()
    if not top > 0:
        raise ValueError("the range has no holding left after the update (weights all zero)")
    return new / top



def thin_range(weights: np.ndarray, size: int, rng: np.random.Generator, forced: int | None = None) -> np.ndarray:
    """A range of about ``size`` holdings standing for ``weights`` (returned as is when it has at most ``size``).

    Sampling proportional to weight (Poisson sampling with inclusion probabilities ``pi = min(1, c w)``, ``c`` set
    so that they add up to ``size``), each kept holding re-weighted by ``w / pi`` (Horvitz-Thompson): the thinned
    range is an unbiased estimate of the full one, holding by holding, so its composition (and its equity) is the
    range's, where keeping the heaviest holdings would cut the range's tail and, among equal weights, keep an
    arbitrary corner of the deck. ``forced`` (a holding index) is always kept, with weight ``w / pi``."""
    w = np.asarray(weights, dtype=np.float64)
    live = np.flatnonzero(w > 0)
    if live.size <= size:
        return w.copy()
    v = np.sort(w[live])[::-1]  # water-filling: the heaviest j saturate at pi = 1, the rest share size - j
    tail = np.cumsum(v[::-1])[::-1]  # tail[j] = sum of v[j:]
    c = 0.0
    for j in range(size):
        c = (size - j) / tail[j]
        if c * v[j] <= 1.0:
            break
    pi = np.minimum(1.0, c * w)
    draws = rng.random(w.size)
    kept = (draws < pi) & (w > 0)
    if forced is not None:
        kept[forced] = w[forced] > 0
    out = np.zeros_like(w)
    out[kept] = w[kept] / pi[kept]
    return out

