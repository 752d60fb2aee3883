"""The range-vs-range solver on JAX: the passes of ``passes.py`` traced once, one jitted call per iteration (or per
run of iterations between two checks, ``prepare``).

The same arithmetic as :class:`agent_zoo.solver.cfr.RangeCFR` (the tests bind the two), in JAX's default
float32 unless ``jax_enable_x64`` is on; XLA fuses the passes' many small operations, and on a GPU the boards and
holdings of a street run in parallel. Needs ``jax`` (the ``[jax]`` extra).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agent_zoo.regret import average_weight, discount_factor, updated_regrets
from agent_zoo.solver import passes
from agent_zoo.solver.cfr import VARIANTS, Exploitability, Reads
from agent_zoo.solver.layout import Layout, compile_tree
from agent_zoo.solver.tree import PublicTree


def _jax() -> tuple[Any, Any]:
    try:
        import jax
        import jax.numpy as jnp
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ImportError("backend='jax' needs jax: pip install 'poker-envs[jax]'") from exc
    return jax, jnp


JAX_DENSE_LIMIT = 1 << 23  # sign-matrix entries up to which JAX's showdowns are matrix products


class JaxRangeCFR(Reads):
    """Solves one subgame with JAX; the same interface as :class:`~agent_zoo.solver.cfr.RangeCFR`."""

    def __init__(self, tree: PublicTree, algorithm: str = "dcfr", isomorphism: bool = True) -> None:
        if algorithm not in VARIANTS:
            raise ValueError(f"algorithm: expected one of {sorted(VARIANTS)}, got {algorithm!r}")
        jax, jnp = _jax()
        self.variant = VARIANTS[algorithm]
        self.layout: Layout = compile_tree(tree, isomorphism)
        # Sign matrices become constants of the compiled program: only where they are small (river, turn).
        self.tables = passes.make_tables(self.layout, dense_limit=JAX_DENSE_LIMIT)
        lay, tab, var = self.layout, self.tables, self.variant
        self.iteration = 0
        shape = lambda s, p: (len(s.slot_node[p]), len(s.boards), len(lay.holdings[p]))  # noqa: E731
        self.regrets = [[jnp.zeros(shape(s, p)) for s in lay.streets] for p in (0, 1)]
        self.average = [[jnp.zeros(shape(s, p)) for s in lay.streets] for p in (0, 1)]
        blocks = [[st.blocks[p] for st in lay.streets] for p in (0, 1)]

        def current(regrets: list[Any], p: int) -> list[Any]:
            return [passes.normalized(jnp, jnp.maximum(r, 0.0), b) for r, b in zip(regrets, blocks[p])]

        def step(regrets: list[list[Any]], average: list[list[Any]], positive: Any, negative: Any, weight: Any) -> Any:
            regrets = [list(r) for r in regrets]
            average = [list(a) for a in average]
            for p in (0, 1):
                other = passes.reach(jnp, lay, 1 - p, current(regrets[1 - p], 1 - p))
                mine = current(regrets[p], p)
                _, instant = passes.values(jnp, lay, tab, p, other, mine)
                own = passes.reach(jnp, lay, p, mine)
                for k, st in enumerate(lay.streets):
                    discount = None if var.positive_discount_alpha is None else (positive, negative)
                    regrets[p][k] = updated_regrets(regrets[p][k], instant[k], var.regret_matching_plus, discount)
                    average[p][k] = average[p][k] + weight * own[k][st.slot_node[p]] * mine[k]
            return regrets, average

        def evaluate(average: list[list[Any]], with_value: bool) -> Any:
            avg = [[passes.normalized(jnp, a, b) for a, b in zip(average[p], blocks[p])] for p in (0, 1)]
            reach = [passes.reach(jnp, lay, p, avg[p]) for p in (0, 1)]
            out = [passes.per_hand(jnp, lay, tab, p, passes.values(jnp, lay, tab, p, reach[1 - p], None)[0][0][0, 0]) for p in (0, 1)]
            if with_value:
                out.append(passes.per_hand(jnp, lay, tab, 0, passes.values(jnp, lay, tab, 0, reach[1], avg[0])[0][0][0, 0]))
            return jnp.stack(out)

        def steps(regrets: list[list[Any]], average: list[list[Any]], factors: Any) -> Any:
            """One iteration per row of ``factors`` (positive, negative, weight): a run in one call."""
            def body(carry: Any, row: Any) -> Any:
                return step(carry[0], carry[1], row[0], row[1], row[2]), None

            return jax.lax.scan(body, (regrets, average), factors)[0]

        # Compiled here, with the tree (a solve's clock starts after building, as TexasSolver's does).
        self._step = jax.jit(step, donate_argnums=(0, 1)).lower(self.regrets, self.average, 1.0, 1.0, 1.0).compile()
        self._steps_fn = jax.jit(steps, donate_argnums=(0, 1))
        self._runs: dict[int, Any] = {}  # run length -> its compiled call (see prepare)
        self._evaluate = jax.jit(lambda a: evaluate(a, True)).lower(self.average).compile()
        self._best_responses = jax.jit(lambda a: evaluate(a, False)).lower(self.average).compile()
        self._best_responses(self.average)  # a first call, so that the solve's first check finds it warm

    def prepare(self, iterations: int) -> None:
        """Compile a call that runs ``iterations`` iterations at once (a ``lax.scan``): ``iterate`` with that count
        then makes one call instead of one per iteration. ``solve`` prepares its check interval before its clock
        starts, as the single iteration is compiled when the solver is built."""
        if iterations > 1 and iterations not in self._runs:
            factors = np.zeros((iterations, 3), dtype=np.asarray(self.regrets[0][0]).dtype)
            run = self._steps_fn.lower(self.regrets, self.average, factors).compile()
            # one call on zeros of the same shapes, so that the first real call finds the executable warm
            zeros = [[np.zeros_like(np.asarray(a)) for a in part] for part in self.regrets]
            run(zeros, [[np.zeros_like(np.asarray(a)) for a in part] for part in self.average], factors)
            self._runs[iterations] = run

    def iterate(self, iterations: int = 1) -> None:
        """Run ``iterations`` alternating updates of both players (one call when ``prepare(iterations)`` ran)."""
        var = self.variant
        factors = []
        for _ in range(iterations):
            self.iteration += 1
            t = self.iteration
            factors.append((discount_factor(t, var.positive_discount_alpha),
                            discount_factor(t, var.negative_discount_beta), average_weight(t, var.average_weight_power)))
        run = self._runs.get(iterations)
        if run is not None:
            dtype = np.asarray(self.regrets[0][0]).dtype
            self.regrets, self.average = run(self.regrets, self.average, np.asarray(factors, dtype=dtype))
            return
        for positive, negative, weight in factors:
            self.regrets, self.average = self._step(self.regrets, self.average, positive, negative, weight)

    def best_responses(self) -> tuple[float, float]:
        """Each player's exact best-response value against the other's average strategy."""
        br0, br1 = (float(x) for x in np.asarray(self._best_responses(self.average)))
        return br0, br1

    def value(self) -> float:
        """Player 0's expected chips per hand when both play their average strategies."""
        return self.exploitability().value

    def exploitability(self) -> Exploitability:
        br0, br1, value = (float(x) for x in np.asarray(self._evaluate(self.average)))
        return Exploitability((br0, br1), value)

    def average_strategy(self, player: int) -> list[np.ndarray]:
        """The average strategy per street as numpy arrays: (L, B, H) over the player's action slots."""
        return [passes.normalized(np, np.asarray(a, dtype=np.float64), st.blocks[player])
                for a, st in zip(self.average[player], self.layout.streets)]

