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
from agent_zoo.solver.layout import Layout, StreetLayout, compile_tree
from agent_zoo.solver.showdown import Blockers, ShowdownTables, blockers, compatible_reach, showdown_margin, showdown_tables
from agent_zoo.solver.tree import PublicTree


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


class RangeCFR:
    """Solves one subgame; ``strategy(node)`` is the average strategy (actions, boards, holdings) of a decision."""

    def __init__(self, tree: PublicTree, algorithm: str = "dcfr") -> None:
        if algorithm not in VARIANTS:
            raise ValueError(f"algorithm: expected one of {sorted(VARIANTS)}, got {algorithm!r}")
        self.variant = VARIANTS[algorithm]
        self.layout: Layout = compile_tree(tree)
        lay = self.layout
        self.iteration = 0
        shape = lambda s, p: (len(s.rows[p]), s.width, len(s.boards), len(lay.holdings[p]))  # noqa: E731
        self.regrets = [[np.zeros(shape(s, p)) for s in lay.streets] for p in (0, 1)]
        self.average = [[np.zeros(shape(s, p)) for s in lay.streets] for p in (0, 1)]
        self._blockers = [blockers(lay.holdings[p], lay.holdings[1 - p]) for p in (0, 1)]
        river = lay.streets[-1]
        self._showdown: list[ShowdownTables | None] = [
            showdown_tables(lay.holdings[p], lay.holdings[1 - p], river.boards) if len(river.showdown_nodes) else None
            for p in (0, 1)
        ]
        self._uniform = [[s.legal[p] / np.maximum(s.legal[p].sum(1, keepdims=True), 1) for s in lay.streets] for p in (0, 1)]

    # Strategies -----------------------------------------------------------------------------------------------
    def current(self, player: int, street: int) -> np.ndarray:
        """Regret matching of ``player``'s decisions on ``street``: (D, A, B, H)."""
        positive = np.maximum(self.regrets[player][street], 0.0)
        total = positive.sum(axis=1, keepdims=True)
        fallback = np.broadcast_to(self._uniform[player][street][:, :, None, None], positive.shape)
        return np.divide(positive, total, out=np.array(fallback), where=total > 0.0)

    def average_strategy(self, player: int, street: int) -> np.ndarray:
        """The average strategy: (D, A, B, H); uniform where a holding never reached the node."""
        avg = self.average[player][street]
        total = avg.sum(axis=1, keepdims=True)
        fallback = np.broadcast_to(self._uniform[player][street][:, :, None, None], avg.shape)
        return np.divide(avg, total, out=np.array(fallback), where=total > 0.0)

    def strategy(self, node: int) -> np.ndarray:
        """Average strategy of public-tree decision ``node``: (actions, boards, holdings of the player acting)."""
        street, local = self.layout.locate[node]
        player = self.layout.tree.nodes[node].player
        if player not in (0, 1) or self.layout.tree.nodes[node].kind != 0:
            raise ValueError(f"node {node} is not a decision")
        row = int(np.flatnonzero(self.layout.streets[street].rows[player] == local)[0])
        n_actions = len(self.layout.tree.nodes[node].actions)
        return self.average_strategy(player, street)[row, :n_actions]

    # Passes ---------------------------------------------------------------------------------------------------
    def reach(self, player: int, policy: list[np.ndarray]) -> list[np.ndarray]:
        """``player``'s reach (N + 1, B, H) at every node of every street when it plays ``policy`` (per street)."""
        lay = self.layout
        out: list[np.ndarray] = []
        for k, st in enumerate(lay.streets):
            r = np.zeros((st.num_nodes + 1, len(st.boards), len(lay.holdings[player])))
            if k == 0:
                r[0] = lay.weights[player][None, :]
            else:
                prev, before = lay.streets[k - 1], out[k - 1]
                dealt = np.repeat(before[prev.chance_nodes], prev.cards_dealt, axis=1)
                r[prev.chance_children] = dealt * lay.valid[player][k][None]
            for g in st.groups:
                parent = r[g.nodes][:, None]  # (G, 1, B, H)
                if g.player == player:
                    r[g.children] = parent * policy[k][g.rows]
                else:
                    r[g.children] = parent
            r[-1] = 0.0
            out.append(r)
        return out

    def values(self, player: int, other_reach: list[np.ndarray], policy: list[np.ndarray] | None,
               regret_out: list[np.ndarray] | None = None) -> list[np.ndarray]:
        """``player``'s counterfactual values (N + 1, B, H) at every node: it plays ``policy`` (None: best
        response). With ``regret_out``, each decision's instant regrets (D, A, B, H) are written there."""
        lay = self.layout
        out: list[np.ndarray | None] = [None] * len(lay.streets)
        for k in range(len(lay.streets) - 1, -1, -1):
            st = lay.streets[k]
            v = np.zeros((st.num_nodes + 1, len(st.boards), len(lay.holdings[player])))
            self._terminals(player, st, k, other_reach[k], v)
            if len(st.chance_nodes):
                nxt = lay.streets[k + 1]
                child = out[k + 1][st.chance_children] * lay.valid[player][k + 1][None]  # type: ignore[index]
                shaped = child.reshape(len(st.chance_nodes), len(st.boards), st.cards_dealt, -1)
                v[st.chance_nodes] = lay.chance_weight[k] * shaped.sum(axis=2)
                del nxt
            for g in reversed(st.groups):
                below = v[g.children]  # (G, A, B, H)
                if g.player != player:
                    v[g.nodes] = below.sum(axis=1)
                    continue
                legal = st.legal[player][g.rows]
                if policy is None:
                    v[g.nodes] = np.where(legal[:, :, None, None], below, -np.inf).max(axis=1)
                else:
                    v[g.nodes] = (policy[k][g.rows] * below).sum(axis=1)
                if regret_out is not None:
                    regret_out[k][g.rows] = (below - v[g.nodes][:, None]) * legal[:, :, None, None]
            out[k] = v
        return out  # type: ignore[return-value]

    def _terminals(self, player: int, st: StreetLayout, k: int, other: np.ndarray, v: np.ndarray) -> None:
        valid = self.layout.valid[player][k][None]
        if len(st.fold_nodes):
            facing = compatible_reach(other[st.fold_nodes], self._blockers[player])
            v[st.fold_nodes] = st.fold_payoff[:, player][:, None, None] * facing * valid
        if len(st.showdown_nodes):
            tables = self._showdown[player]
            assert tables is not None
            margin = showdown_margin(other[st.showdown_nodes], tables)
            v[st.showdown_nodes] = st.showdown_stake[:, None, None] * margin * valid

    # Iterations -----------------------------------------------------------------------------------------------
    def iterate(self, iterations: int = 1) -> None:
        """Run ``iterations`` alternating updates of both players."""
        var = self.variant
        lay = self.layout
        for _ in range(iterations):
            self.iteration += 1
            t = self.iteration
            for p in (0, 1):
                q = 1 - p
                current_q = [self.current(q, k) for k in range(len(lay.streets))]
                other = self.reach(q, current_q)
                current_p = [self.current(p, k) for k in range(len(lay.streets))]
                instant = [np.zeros_like(r) for r in self.regrets[p]]
                self.values(p, other, current_p, instant)
                discount = None
                if var.positive_discount_alpha is not None:
                    discount = (discount_factor(t, var.positive_discount_alpha), discount_factor(t, var.negative_discount_beta))
                mine = self.reach(p, current_p)
                weight = average_weight(t, var.average_weight_power)
                for k, st in enumerate(lay.streets):
                    update_regrets(self.regrets[p][k], instant[k], plus=var.regret_matching_plus, discount=discount)
                    self.average[p][k] += weight * mine[k][st.rows[p]][:, None] * current_p[k]

    # Evaluation -----------------------------------------------------------------------------------------------
    def _root_value(self, player: int, values: list[np.ndarray]) -> float:
        lay = self.layout
        return float(lay.weights[player] @ values[0][0, 0]) / self._pairs()

    def _pairs(self) -> float:
        """Total weight of the (OOP, IP) holding pairs that share no card: the normaliser of every value."""
        lay = self.layout
        facing = compatible_reach(lay.weights[1][None], self._blockers[0])[0]
        return float(lay.weights[0] @ facing)

    def exploitability(self) -> Exploitability:
        """Exact best-response values against the average strategies, and the profile's value for player 0."""
        lay = self.layout
        avg = [[self.average_strategy(p, k) for k in range(len(lay.streets))] for p in (0, 1)]
        reach = [self.reach(p, avg[p]) for p in (0, 1)]
        br = tuple(self._root_value(p, self.values(p, reach[1 - p], None)) for p in (0, 1))
        value = self._root_value(0, self.values(0, reach[1], avg[0]))
        return Exploitability((br[0], br[1]), value)  # type: ignore[arg-type]
