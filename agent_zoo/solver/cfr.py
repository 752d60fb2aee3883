"""Range-vs-range CFR on a compiled public tree: every holding of a player at a node is one array row, and every
node of a depth is one array operation.

Discounted CFR (Brown & Sandholm, "Solving imperfect-information games via discounted regret minimization",
AAAI 2019; alpha = 1.5, beta = 0, gamma = 2) by default, or CFR+ (Tammelin, arXiv 2014), with alternating updates.
Per update of player ``p``: a top-down pass gives the other player's reach at every node and board (its range
times its strategy along the path, zero where a card dealt collides with the holding); a bottom-up pass gives
``p``'s counterfactual values, starting at folds and showdowns (``showdown.py``) and summing the dealt cards at
chance nodes, and updates ``p``'s regrets. ``best_response`` runs the same bottom-up pass with a maximum in
place of ``p``'s strategy, which makes exploitability exact on the subgame.

Values are chips won from the start of the subgame, the pot counted as half each player's (zero-sum).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agent_zoo.regret import average_weight, discount_factor, update_regrets
from agent_zoo.solver import passes
from agent_zoo.solver.layout import Layout, compile_tree
from agent_zoo.solver.showdown import compatible_reach
from agent_zoo.solver.tree import Kind, PublicTree


@dataclass(frozen=True)
class Variant:
    """A member of the CFR family (see ``agent_zoo.cfr.solvers`` for the same flags on full game trees)."""

    regret_matching_plus: bool  # floor cumulative regrets at 0 after each update (CFR+)
    average_weight_power: float  # iteration t's strategy enters the average with weight t**power
    positive_discount_alpha: float | None  # DCFR: positive regrets scaled by t^a/(t^a+1) after iteration t
    negative_discount_beta: float | None  # DCFR: negative regrets scaled by t^b/(t^b+1)


VARIANTS = {
    "dcfr": Variant(False, 2.0, 1.5, 0.0),
    "cfr+": Variant(True, 1.0, None, None),
}


@dataclass(frozen=True)
class Exploitability:
    """Best-response values of an average strategy profile, in chips per hand of the subgame."""

    best_response: tuple[float, float]  # each player's value when it best-responds to the other's strategy
    value: float  # player 0's value when both play the profile

    @property
    def nash_conv(self) -> float:
        return self.best_response[0] + self.best_response[1]


class Reads:
    """Reading a solver's answer in numpy: shared by the numpy and the JAX solver (each sets ``layout``,
    ``tables`` and ``average_strategy``)."""

    layout: Layout
    tables: passes.Tables

    def average_strategy(self, player: int) -> list[np.ndarray]:
        raise NotImplementedError

    def strategy(self, node: int) -> np.ndarray:
        """Average strategy of public-tree decision ``node``: (actions, boards, holdings of the player acting)."""
        public = self.layout.tree.nodes[node]
        if public.kind != Kind.DECISION:
            raise ValueError(f"node {node} is not a decision")
        street, local = self.layout.locate[node]
        row = int(np.flatnonzero(self.layout.streets[street].rows[public.player] == local)[0])
        return self.average_strategy(public.player)[street][row, : len(public.actions)]

    def facing(self, player: int, other_reach: np.ndarray) -> np.ndarray:
        """For each of ``player``'s holdings, the other's reach (..., H_other) over the holdings it can face."""
        return compatible_reach(other_reach, self.tables.blockers[player])

    def reach(self, player: int, policy: list[np.ndarray]) -> list[np.ndarray]:
        """``player``'s reach (N + 1, B, H) at every node of every street when it plays ``policy``."""
        return passes.reach(np, self.layout, player, policy)

    def values(self, player: int, other_reach: list[np.ndarray], policy: list[np.ndarray] | None) -> list[np.ndarray]:
        """``player``'s counterfactual values (N + 1, B, H) at every node; ``policy`` None: a best response."""
        return passes.values(np, self.layout, self.tables, player, other_reach, policy)[0]


class RangeCFR(Reads):
    """Solves one subgame in numpy; ``strategy(node)`` is the average strategy (actions, boards, holdings)."""

    def __init__(self, tree: PublicTree, algorithm: str = "dcfr") -> None:
        if algorithm not in VARIANTS:
            raise ValueError(f"algorithm: expected one of {sorted(VARIANTS)}, got {algorithm!r}")
        self.variant = VARIANTS[algorithm]
        self.layout: Layout = compile_tree(tree)
        self.tables = passes.make_tables(self.layout)
        lay = self.layout
        self.iteration = 0
        shape = lambda s, p: (len(s.rows[p]), s.width, len(s.boards), len(lay.holdings[p]))  # noqa: E731
        self.regrets = [[np.zeros(shape(s, p)) for s in lay.streets] for p in (0, 1)]
        self.average = [[np.zeros(shape(s, p)) for s in lay.streets] for p in (0, 1)]

    # Strategies -----------------------------------------------------------------------------------------------
    def current(self, player: int) -> list[np.ndarray]:
        """Regret matching of ``player``'s decisions, per street: (D, A, B, H)."""
        return [passes.normalized(np, np.maximum(r, 0.0), u) for r, u in zip(self.regrets[player], self.tables.uniform[player])]

    def average_strategy(self, player: int) -> list[np.ndarray]:
        """The average strategy per street: (D, A, B, H); uniform where a holding never reached the node."""
        return [passes.normalized(np, a, u) for a, u in zip(self.average[player], self.tables.uniform[player])]

    # Iterations -----------------------------------------------------------------------------------------------
    def iterate(self, iterations: int = 1) -> None:
        """Run ``iterations`` alternating updates of both players."""
        var = self.variant
        for _ in range(iterations):
            self.iteration += 1
            t = self.iteration
            discount = None
            if var.positive_discount_alpha is not None:
                discount = (discount_factor(t, var.positive_discount_alpha), discount_factor(t, var.negative_discount_beta))
            weight = average_weight(t, var.average_weight_power)
            # Player 1's strategy and reach do not change while player 0 updates: computed once, used twice.
            policy = {1: self.current(1)}
            reach = {1: self.reach(1, policy[1])}
            for p in (0, 1):
                q = 1 - p
                if q not in reach:
                    policy[q] = self.current(q)
                    reach[q] = self.reach(q, policy[q])
                mine = policy.get(p) or self.current(p)
                _, instant = passes.values(np, self.layout, self.tables, p, reach[q], mine)
                own = reach.get(p) or self.reach(p, mine)
                for k, st in enumerate(self.layout.streets):
                    update_regrets(self.regrets[p][k], instant[k], plus=var.regret_matching_plus, discount=discount)
                    self.average[p][k] += weight * own[k][st.rows[p]][:, None] * mine[k]

    # Evaluation -----------------------------------------------------------------------------------------------
    def exploitability(self) -> Exploitability:
        """Exact best-response values against the average strategies, and the profile's value for player 0."""
        lay, tab = self.layout, self.tables
        avg = [self.average_strategy(p) for p in (0, 1)]
        reach = [self.reach(p, avg[p]) for p in (0, 1)]
        br = [float(passes.root_value(np, lay, tab, p, self.values(p, reach[1 - p], None))) for p in (0, 1)]
        value = float(passes.root_value(np, lay, tab, 0, self.values(0, reach[1], avg[0])))
        return Exploitability((br[0], br[1]), value)
