"""The re-solving agent's pre-flop policy: raise, call or fold by all-in equity against the other player's range.

Why this policy: the range-vs-range solver (``agent_zoo.solver``) plays postflop subgames only, so pre-flop needs a
policy of its own, and one whose probabilities are known for every holding, because the agent feeds them to Bayes'
rule to get both players' ranges at the flop. A chart read from all-in equity has both properties, needs no
training, and narrows itself as the betting goes on: each raise narrows the raiser's range, which lowers everyone's
equity against it, so re-raising stops by itself (with the defaults: about 28% of hands open-raise, 7% three-bet,
2% four-bet (AA, KK, QQ, AKs), and AA, KK five-bet).

For a holding ``h`` of class ``c`` (one of the 169 classes) and the other player's range ``r`` (weights over the
1,326 holdings), ``e(h)`` is the class's all-in equity against the range, from the packaged class-versus-class
table (``agent_zoo.push_fold.equity``, exact over all boards; card removal between classes through its pair counts):

    e(c) = sum_d E[c, d] n[c, d] m_d / sum_d n[c, d] m_d,    m_d = the mean weight of class d's holdings in r.

Facing ``to_call`` chips with ``pot`` in the middle (every chip, this street's bets too), the pot odds ask for
``need = to_call / (pot + to_call)``. With the logistic ``s(z) = 1 / (1 + exp(-z / temperature))``:

* raise with probability ``s(e - raise_equity)`` (0 where raising is not allowed);
* otherwise continue (check or call) with probability ``s(e - max(need + call_margin, call_floor))`` when a bet is
  faced, always when it is not; fold the rest.

The logistic instead of a step keeps every action possible for every holding near the thresholds (a mixed strategy,
and no holding's weight is cut to zero by one observation). The agent assumes the same policy for its opponent
(documented in ``agent_zoo.solver.agent``); the opponent's raise sizes do not enter the model.

Raise size: to ``raise_multiple`` times the bet faced (an open to 3 big blinds), all-in once that would put more
than ``commit`` of the raiser's chips in.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from agent_zoo.solver.preflop_game import combo_classes
from agent_zoo.solver.ranges import NUM_COMBOS

FOLD, PASSIVE, AGGRESSIVE = 0, 1, 2  # the policy's action kinds: fold; check or call; bet or raise


@lru_cache(maxsize=1)
def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(E * n (169, 169), n (169, 169), class of each holding in COMBOS order (1326,), holdings per class (169,))."""
    from agent_zoo.push_fold.equity import load_equity

    table = load_equity()
    classes = combo_classes()
    counts = np.bincount(classes, minlength=169).astype(np.float64)
    weighted = table.equity * table.pair_counts
    for a in (weighted, counts):
        a.setflags(write=False)
    return weighted, table.pair_counts, classes, counts


def equity_against(opponent: np.ndarray) -> np.ndarray:
    """(1326,): each holding's all-in equity (class level) against the range ``opponent`` (1326 weights)."""
    weighted, pairs, classes, counts = _tables()
    w = np.asarray(opponent, dtype=np.float64)
    if w.shape != (NUM_COMBOS,) or not np.all(w >= 0) or not w.sum() > 0:
        raise ValueError(f"opponent: expected {NUM_COMBOS} non-negative weights with a positive sum, got shape {w.shape}")
    mean = np.bincount(classes, weights=w, minlength=169) / counts
    faced = pairs @ mean
    equity = np.divide(weighted @ mean, faced, out=np.full(169, 0.5), where=faced > 0)
    return equity[classes]


def _logistic(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))  # 1 / (1 + exp(-z)) without overflow


@dataclass(frozen=True, kw_only=True)
class PreflopChart:
    """The pre-flop policy (module doc); every field is a probability threshold or a chip ratio."""

    raise_equity: float = 0.56  # raise when the equity against the other's range exceeds this
    call_margin: float = 0.02  # call when the equity exceeds the pot odds by this much ...
    call_floor: float = 0.38  # ... and this (the small blind folds its worst ~11% rather than complete)
    temperature: float = 0.015  # width of the logistic around each threshold (equity units)
    raise_multiple: float = 3.0  # raise to this many times the bet faced
    commit: float = 0.4  # all-in when a raise would put in more than this share of the raiser's chips

    def __post_init__(self) -> None:
        for name in ("raise_equity", "call_floor"):
            value = getattr(self, name)
            if not 0.0 < value < 1.0:
                raise ValueError(f"{name} must lie in (0, 1) (an equity), got {value!r}")
        if not 0.0 <= self.call_margin < 1.0:
            raise ValueError(f"call_margin must lie in [0, 1), got {self.call_margin!r}")
        if not self.temperature > 0:
            raise ValueError(f"temperature must be positive, got {self.temperature!r}")
        if not self.raise_multiple > 1:
            raise ValueError(f"raise_multiple must exceed 1, got {self.raise_multiple!r}")
        if not 0.0 < self.commit <= 1.0:
            raise ValueError(f"commit must lie in (0, 1], got {self.commit!r}")

    def kind_probabilities(self, opponent: np.ndarray, to_call: float, pot: float, can_raise: bool) -> np.ndarray:
        """(3, 1326): the probability of fold, check/call and bet/raise for every holding, facing ``to_call`` chips
        with ``pot`` in the middle, against the range ``opponent``."""
        if to_call < 0 or pot <= 0:
            raise ValueError(f"to_call must be >= 0 and pot > 0, got to_call={to_call}, pot={pot}")
        e = equity_against(opponent)
        out = np.zeros((3, NUM_COMBOS))
        aggressive = _logistic((e - self.raise_equity) / self.temperature) if can_raise else np.zeros(NUM_COMBOS)
        if to_call > 0:
            need = max(to_call / (pot + to_call) + self.call_margin, self.call_floor)
            stay = _logistic((e - need) / self.temperature)
        else:
            stay = np.ones(NUM_COMBOS)
        out[AGGRESSIVE] = aggressive
        out[PASSIVE] = (1.0 - aggressive) * stay
        out[FOLD] = (1.0 - aggressive) * (1.0 - stay)
        return out

    def raise_to(self, max_bet: float, low: float, high: float, chips: float) -> int:
        """The raise-to (street chips) of a raise: ``raise_multiple`` times ``max_bet`` within the legal ``[low,
        high]``, or ``high`` (all-in) when it would exceed ``commit`` of ``chips`` (the raiser's bet plus stack)."""
        to = max(low, float(np.floor(self.raise_multiple * max_bet + 0.5)))
        if to > self.commit * chips:
            to = high
        return round(min(to, high))
