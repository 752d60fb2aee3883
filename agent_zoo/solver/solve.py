"""Solve a subgame to a target exploitability, and read the answer: strategies, expected values, JSON.

Exploitability is reported as postflop solvers print it (TexasSolver, github.com/bupticybee/TexasSolver): the
mean of the two players' best-response gains, in percent of the starting pot,
``(br_oop + br_ip) / 2 / pot * 100`` with zero-sum values (so it is NashConv / 2 / pot * 100).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agent_zoo.solver.cfr import Exploitability, RangeCFR
from agent_zoo.solver.layout import expand, orbits
from agent_zoo.solver.ranges import COMBOS
from agent_zoo.solver.spot import Spot
from agent_zoo.solver.tree import Kind, build_tree
from poker_envs.core.cards import cards_to_str


BACKENDS = ("numpy", "jax")
Solver = RangeCFR | Any  # RangeCFR or agent_zoo.solver.jax_cfr.JaxRangeCFR (same interface)


@dataclass(frozen=True)
class SolveLog:
    """What a solve did."""

    iterations: int
    exploitability_pct: float  # of the final average strategy, percent of the starting pot
    value_oop: float  # OOP's expected chips in the subgame under the final strategies (pot counted half each)
    seconds: float  # iterating and evaluating, after the tree and tables were built
    build_seconds: float  # building the tree, the layout and the showdown tables
    curve: list[tuple[int, float]] = field(default_factory=list)  # (iteration, exploitability %) at each check


def exploitability_pct(result: Exploitability, pot: int) -> float:
    """TexasSolver's figure: mean best-response gain in percent of the starting pot."""
    return result.nash_conv / 2.0 / pot * 100.0


def solve(spot: Spot, *, accuracy: float = 0.5, max_iterations: int = 1000, check_every: int = 10,
          algorithm: str = "dcfr", backend: str = "numpy", dtype: str = "float64", seconds: float | None = None,
          on_check: Callable[[int, float], None] | None = None, solver: Solver | None = None,
          isomorphism: bool = True, threads: int = 1) -> tuple[Solver, SolveLog]:
    """Run CFR until the exploitability (percent of the pot, checked every ``check_every`` iterations and at the
    end) is at most ``accuracy``, ``max_iterations`` have run, or ``seconds`` have passed since the tree was built
    (checked at the same points, so a solve overruns it by at most one round of ``check_every`` iterations). ``on_check(iteration, pct)`` sees each check
    (progress bars, logs). ``backend``: "numpy" or "jax" (float32 unless JAX's x64 mode is on); ``dtype``: numpy's
    "float64" or "float32" (half the memory and time, as TexasSolver stores its numbers); ``isomorphism``:
    solve boards that a permutation of the suits maps onto each other once (exact; it applies where the board and
    both ranges allow it); ``threads``: numpy solves that many runs of last-street boards at once (the same numbers;
    it pays from the flop). Pass ``solver`` to continue an earlier solve of the same spot."""
    if seconds is not None and not seconds >= 0:
        raise ValueError(f"seconds: expected a time budget >= 0 or None, got {seconds!r}")
    if accuracy < 0 or max_iterations < 0 or check_every < 1:
        raise ValueError(
            f"accuracy >= 0, max_iterations >= 0 and check_every >= 1 are required, got {accuracy}, "
            f"{max_iterations}, {check_every}"
        )
    start = time.perf_counter()
    if backend not in BACKENDS:
        raise ValueError(f"backend: expected one of {BACKENDS}, got {backend!r}")
    if backend == "jax" and threads != 1:
        raise ValueError(f"threads: the JAX backend runs on XLA's own threads; threads={threads!r} applies to numpy")
    if solver is not None:
        cfr = solver
    elif backend == "jax":
        from agent_zoo.solver.jax_cfr import JaxRangeCFR  # jax only when asked for

        cfr = JaxRangeCFR(build_tree(spot), algorithm, isomorphism=isomorphism)
        cfr.prepare(check_every)  # a run between checks in one compiled call
    else:
        cfr = RangeCFR(build_tree(spot), algorithm, dtype=dtype, isomorphism=isomorphism, threads=threads)
    built = time.perf_counter()
    curve: list[tuple[int, float]] = []
    # the checks need the best responses alone; the profile's value (one more pass) is taken once, at the end
    pct = exploitability_pct(Exploitability(cfr.best_responses(), 0.0), spot.pot)
    while pct > accuracy and cfr.iteration < max_iterations:
        if seconds is not None and cfr.iteration and time.perf_counter() - built >= seconds:
            break
        cfr.iterate(min(check_every, max_iterations - cfr.iteration))
        pct = exploitability_pct(Exploitability(cfr.best_responses(), 0.0), spot.pot)
        curve.append((cfr.iteration, pct))
        if on_check is not None:
            on_check(cfr.iteration, pct)
    value = cfr.value()
    done = time.perf_counter()
    return cfr, SolveLog(cfr.iteration, pct, value, done - built, built - start, curve)


def expected_values(cfr: Solver, player: int) -> list[np.ndarray]:
    """Per street, (N + 1, B, H): ``player``'s expected chips at each node with each holding when both play the
    average strategies (NaN where the other player's range cannot reach the node with that holding)."""
    avg = [cfr.average_strategy(p) for p in (0, 1)]
    other = cfr.reach(1 - player, avg[1 - player])
    values = cfr.values(player, other, avg[player])
    out = []
    for k, v in enumerate(values):
        facing = cfr.facing(player, other[k])
        out.append(np.divide(v, facing, out=np.full_like(v, np.nan), where=facing > 1e-12))
    return out


def combo_names(holdings: np.ndarray) -> list[str]:
    """Names of holdings (indices into COMBOS), higher card first: "AhKd"."""
    return [cards_to_str(sorted(COMBOS[i].tolist(), reverse=True)).replace(" ", "") for i in holdings]


def to_json(cfr: Solver, log: SolveLog, streets: int = 1) -> dict[str, Any]:
    """The solution as plain data: each decision of the first ``streets`` streets with its actions, and per board
    dealt since the spot (keyed by the dealt cards, "" on the first street) each holding's strategy and expected
    value. Sizes grow fast with ``streets`` (48 boards per street after the turn)."""
    lay = cfr.layout
    tree = lay.tree
    evs = [expected_values(cfr, p) for p in (0, 1)]
    names = [combo_names(lay.holdings[p]) for p in (0, 1)]
    nodes = []
    for i, node in enumerate(tree.nodes):
        if node.kind != Kind.DECISION or node.street >= streets:
            continue
        street, local = lay.locate[i]
        # every board dealt, suit-isomorphic ones read from their representative
        strategy = expand(lay, street, node.player, cfr.strategy(i))  # (A, B, H)
        ev = expand(lay, street, node.player, evs[node.player][street][local])  # (B, H)
        valid = expand(lay, street, node.player, lay.valid[node.player][street])
        dealt = orbits(lay, street)[0][:, len(tree.spot.board):]
        per_board = {}
        for b in range(len(dealt)):
            key = cards_to_str(dealt[b].tolist()).replace(" ", "") if dealt.shape[1] else ""
            live = valid[b]
            per_board[key] = {
                "strategy": {n: [round(float(x), 6) for x in strategy[:, b, h]] for h, n in enumerate(names[node.player]) if live[h]},
                "ev": {n: _num(ev[b, h]) for h, n in enumerate(names[node.player]) if live[h]},
            }
        nodes.append({"node": i, "history": node.history, "player": ["oop", "ip"][node.player],
                      "actions": [str(a) for a in node.actions], "boards": per_board})
    spot = tree.spot
    return {
        "board": cards_to_str(list(spot.board)), "pot": spot.pot, "stack": spot.stack,
        "conventions": spot.conventions.value, "iterations": log.iterations,
        "exploitability_pct": log.exploitability_pct, "value_oop": log.value_oop, "seconds": log.seconds,
        "nodes": nodes,
    }


def _num(x: float) -> float | None:
    return None if not np.isfinite(x) else round(float(x), 4)
