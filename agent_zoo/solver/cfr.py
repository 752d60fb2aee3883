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

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from agent_zoo.regret import average_weight, discount_factor, update_regrets
from agent_zoo.solver import one_street, passes
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


CHUNK_ELEMENTS = 1 << 21  # entries of a last-street node array solved at once (16 MB in float64)

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
        st = self.layout.streets[street]
        row = int(np.flatnonzero(st.rows[public.player] == local)[0])
        return self.average_strategy(public.player)[street][st.slots[public.player][row] : st.slots[public.player][row + 1]]

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

    def __init__(self, tree: PublicTree, algorithm: str = "dcfr", dtype: str = "float64", isomorphism: bool = True,
                 threads: int = 1) -> None:
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads: expected a whole number >= 1, got {threads!r}")
        if algorithm not in VARIANTS:
            raise ValueError(f"algorithm: expected one of {sorted(VARIANTS)}, got {algorithm!r}")
        if dtype not in ("float64", "float32"):
            raise ValueError(f"dtype: expected 'float64' or 'float32', got {dtype!r}")
        self.dtype = np.dtype(dtype)
        self.variant = VARIANTS[algorithm]
        self.layout: Layout = compile_tree(tree, isomorphism)
        self.tables = passes.make_tables(self.layout)
        lay = self.layout
        self.iteration = 0
        shape = lambda s, p: (len(s.slot_node[p]), len(s.boards), len(lay.holdings[p]))  # noqa: E731
        self.regrets = [[np.zeros(shape(s, p), dtype=self.dtype) for s in lay.streets] for p in (0, 1)]
        self.average = [[np.zeros(shape(s, p), dtype=self.dtype) for s in lay.streets] for p in (0, 1)]
        self.chunk_elements = CHUNK_ELEMENTS
        # The last street's runs of boards are independent within a pass (each writes its own slices), and numpy
        # releases the GIL inside its array loops: ``threads`` > 1 solves that many runs at once, with the same
        # numbers as one thread. It pays where there are several runs (spots from the flop).
        self.threads = threads
        self._pool: ThreadPoolExecutor | None = None
        # River spots (one street, one board) iterate through whole-tree paths: the same update in far fewer numpy
        # operations (``one_street``); ``None`` for the general passes.
        self.one_street = one_street.kernel(lay, self.tables, self.dtype) if one_street.applies(lay, self.tables) else None
        self._current: list[np.ndarray | None] = [None, None]  # river spots: each player's policy while its regrets stand

    # Strategies -----------------------------------------------------------------------------------------------
    def average_strategy(self, player: int) -> list[np.ndarray]:
        """The average strategy per street over the player's action slots: (L, B, H); uniform where a holding never
        reached the node."""
        return [passes.normalized(np, a, st.blocks[player]) for a, st in zip(self.average[player], self.layout.streets)]

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
            learn = (discount, average_weight(t, var.average_weight_power))
            if self.one_street is not None:
                self._iterate_one_street(learn)
                continue
            for p in (0, 1):
                self._sweep(p, mine="current", theirs="current", learn=learn)

    def _iterate_one_street(self, learn: tuple) -> None:
        """One alternating update of both players on a river spot (``one_street``): the same numbers as
        ``_sweep``'s passes. A player's current policy is computed once per change of its regrets."""
        kn = self.one_street
        assert kn is not None
        discount, weight = learn
        current = self._current
        for p in (0, 1):
            if current[p] is None:
                current[p] = one_street.current_policy(self.regrets[p][0][:, 0], kn.players[p])
        for p in (0, 1):
            instant, own = one_street.sweep(kn, p, current[p], current[1 - p])
            regrets = self.regrets[p][0][:, 0]
            update_regrets(regrets, instant, plus=self.variant.regret_matching_plus, discount=discount)
            self.average[p][0][:, 0] += weight * own
            current[p] = one_street.current_policy(regrets, kn.players[p]) if p == 0 else None

    def _policy(self, player: int, k: int, boards: slice, kind: str) -> np.ndarray:
        """``player``'s current ("current": regret matching) or average strategy on street ``k``, boards ``boards``."""
        table = (self.regrets if kind == "current" else self.average)[player][k][:, boards]
        weights = np.maximum(table, 0.0) if kind == "current" else table
        return passes.normalized(np, weights, self.layout.streets[k].blocks[player])

    def chunks(self) -> list[tuple[slice, slice]]:
        """The last street's boards in runs solved at once, as (boards of the street before, boards of the last
        street): the children of whole boards of the street before, as many as keep a node array under
        ``chunk_elements`` entries, or a part of one board's children where they alone are more (the flop's
        river boards do not fit in memory at once; a river spot is one run)."""
        lay = self.layout
        last = lay.streets[-1]
        if len(lay.streets) == 1:
            return [(slice(None), slice(None))]
        start = lay.streets[-2].child_start
        per_run = max(1, self.chunk_elements // ((last.num_nodes + 1) * max(len(h) for h in lay.holdings)))
        if start[-1] <= per_run:
            return [(slice(None), slice(None))]
        runs: list[tuple[slice, slice]] = []
        i, parents = 0, len(start) - 1
        while i < parents:
            j = i + 1
            while j < parents and start[j + 1] - start[i] <= per_run:
                j += 1
            if start[j] - start[i] <= per_run or j > i + 1:
                runs.append((slice(i, j), slice(int(start[i]), int(start[j]))))
            else:  # one board's children alone are too many: even parts of them
                n = int(start[j] - start[i])
                parts = -(-n // per_run)
                edges = start[i] + (np.arange(parts + 1) * n) // parts
                runs.extend((slice(i, j), slice(int(a), int(b))) for a, b in zip(edges[:-1], edges[1:]))
            i = j
        return runs

    def _sweep(self, p: int, mine: str | None, theirs: str, learn: tuple | None = None) -> np.ndarray:
        """One pass for player ``p``: the other plays its ``theirs`` strategy, ``p`` its ``mine`` (None: a best
        response). The streets before the last are whole arrays; the last is solved a run of boards at a time
        (``chunks``), each run's values summed into the chance nodes above it. With ``learn = (discount,
        weight)``, ``p``'s regrets and average strategy are updated as the pass goes (each run's strategy is read
        before its update, so the result is that of one update of the whole). Returns ``p``'s root values (H,)."""
        lay, tab = self.layout, self.tables
        q, last = 1 - p, len(lay.streets) - 1
        pol_q, pol_p, top_q, top_p = [], [], [], []
        for k in range(last):
            pol_q.append(self._policy(q, k, slice(None), theirs))
            top_q.append(passes.street_reach(np, lay, q, k, pol_q[k], top_q[k - 1] if k else None))
            if mine is not None:
                pol_p.append(self._policy(p, k, slice(None), mine))
                if learn is not None:
                    top_p.append(passes.street_reach(np, lay, p, k, pol_p[k], top_p[k - 1] if k else None))
        chance = None
        if last:
            before = lay.streets[last - 1]
            chance = np.zeros((len(before.chance_nodes), len(before.boards), len(lay.holdings[p])), dtype=self.dtype)

        runs = self.chunks()

        def run(above: slice, part: slice) -> tuple[np.ndarray | None, np.ndarray | None]:
            """One run's values on a one-street spot, else its share of the chance nodes' values above it;
            learning as it goes. (Threads hold every run's result until all are summed: shares only.)"""
            theirs_here = self._policy(q, last, part, theirs)
            other = passes.street_reach(np, lay, q, last, theirs_here, top_q[-1] if last else None, part)
            here = None if mine is None else self._policy(p, last, part, mine)
            v, instant = passes.street_values(np, lay, tab, p, last, other, here, None, part)
            if learn is not None:
                own = passes.street_reach(np, lay, p, last, here, top_p[-1] if last else None, part)
                self._learn(p, last, part, instant, own, here, learn)
            if not last:
                return v, None
            return None, passes.chance_values(np, lay, p, last - 1, v, above, part if len(runs) > 1 else None)

        if self.threads > 1 and len(runs) > 1:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="solver")
            results = self._pool.map(lambda run_: run(*run_), runs)
        else:
            results = (run(above, part) for above, part in runs)
        for (above, _), (values, share) in zip(runs, results):  # in order: the same sums with any number of threads
            if share is not None:
                chance[:, above] += share
            else:
                v = values
        for k in range(last - 1, -1, -1):
            v, instant = passes.street_values(np, lay, tab, p, k, top_q[k], pol_p[k] if mine is not None else None, chance)
            if learn is not None:
                self._learn(p, k, slice(None), instant, top_p[k], pol_p[k], learn)
            if k and len(lay.streets[k - 1].chance_nodes):
                chance = passes.chance_values(np, lay, p, k - 1, v)
        return v[0, 0]

    def _learn(self, p: int, k: int, part: slice, instant: np.ndarray, own: np.ndarray, policy: np.ndarray,
               learn: tuple) -> None:
        discount, weight = learn
        update_regrets(self.regrets[p][k][:, part], instant, plus=self.variant.regret_matching_plus, discount=discount)
        self.average[p][k][:, part] += weight * own[self.layout.streets[k].slot_node[p]] * policy

    # Evaluation -----------------------------------------------------------------------------------------------
    def best_responses(self) -> tuple[float, float]:
        """Each player's exact best-response value against the other's average strategy (two passes)."""
        if self.one_street is not None:
            theirs = [one_street.normalized(self.average[p][0][:, 0], self.one_street.players[p]) for p in (0, 1)]
            roots = [one_street.best_response_root(self.one_street, p, theirs[1 - p]) for p in (0, 1)]
            return self._per_hand(0, roots[0]), self._per_hand(1, roots[1])
        br = [self._per_hand(p, self._sweep(p, mine=None, theirs="average")) for p in (0, 1)]
        return br[0], br[1]

    def value(self) -> float:
        """Player 0's expected chips per hand when both play their average strategies (one pass)."""
        return self._per_hand(0, self._sweep(0, mine="average", theirs="average"))

    def exploitability(self) -> Exploitability:
        """Exact best-response values against the average strategies, and the profile's value for player 0."""
        return Exploitability(self.best_responses(), self.value())

    def _per_hand(self, player: int, root: np.ndarray) -> float:
        return float(passes.per_hand(np, self.layout, self.tables, player, root))
