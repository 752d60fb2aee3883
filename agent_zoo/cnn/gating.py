"""Gating of a candidate generation, as AlphaGo Zero's evaluator gates a new network.

A candidate generation k is accepted only when it beats the heuristic and every earlier generation
in duplicate-deal matches with 95% confidence (the lower end of the interval above 0). The gate's
deals come from the run's own seed (``train.seed_rng(cfg, 3, k, attempt)``), a stream independent of
the final evaluation's deals (``evaluate``, seed 12345 by default), so accepting a candidate selects
nothing on the deals that the reported table is measured on. Each attempt is tested on fresh deals.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from agent_zoo.cnn.selfplay import Player, duplicate_match

Z95 = 1.959963984540054


def mean_ci(chips_per_deal: np.ndarray, big_blind: int) -> tuple[float, float]:
    """Mean big blinds per hand over deals and its 95% half-width (normal approximation)."""
    bb = np.asarray(chips_per_deal, dtype=np.float64) / big_blind
    half = Z95 * float(bb.std(ddof=1)) / np.sqrt(len(bb)) if len(bb) > 1 else float("inf")
    return float(bb.mean()), half


@dataclass(frozen=True)
class GateMatch:
    """The candidate's result against one opponent in a gate."""

    opponent: str
    mean_bb: float  # candidate's mean big blinds per hand
    ci95: float  # 95% half-width over deals
    hands: int  # hands played (deals x 2 seatings)

    @property
    def passed(self) -> bool:
        return self.mean_bb - self.ci95 > 0


def gate_passed(matches: list[GateMatch]) -> bool:
    """A candidate passes when it beats every opponent with 95% confidence."""
    return bool(matches) and all(m.passed for m in matches)


def run_gate(game: Any, candidate: Player, opponents: list[Player], decks: np.ndarray, buttons: np.ndarray,
             rngs: list[np.random.Generator], progress: Any = None) -> list[GateMatch]:
    """Duplicate matches of ``candidate`` against each opponent on the same deals (``rngs``: one per
    opponent, for the players' exploration-free play and the random player's choices)."""
    if len(rngs) != len(opponents):
        raise ValueError(f"need one rng per opponent, got {len(rngs)} for {len(opponents)}")
    out = []
    for opp, rng in zip(opponents, rngs):
        chips, _ = duplicate_match(game, candidate, opp, decks, buttons, rng, stats=False, progress=progress)
        m, h = mean_ci(chips, game.config.big_blind)
        out.append(GateMatch(opp.name, m, h, 2 * len(decks)))
    return out


def gate_record(gen: int, attempt: int, matches: list[GateMatch], seconds: float) -> dict[str, Any]:
    """The JSON line a gate leaves in the run directory (``gate.jsonl``)."""
    return {"generation": gen, "attempt": attempt, "passed": gate_passed(matches), "seconds": round(seconds, 1),
            "matches": [asdict(m) for m in matches]}
