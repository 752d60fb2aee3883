"""The JAX engine beside the numpy engine and OpenSpiel's C++, in one run: decisions per second by table count.

    python benchmarks/jax_throughput.py [--seconds 1] [--sizes 1 64 1024 8192 65536] [--games "nolimit 2p"]
                                        [--modes numpy host device openspiel] [--json PATH]

Modes (every cell plays uniform random legal actions):
- ``numpy``: ``vector.make(game)``, actions drawn on the host (``vector.sampling``), as ``vector_throughput.py``.
- ``host``: ``vector.make(game, backend="jax")``: the same host loop, host-side checks, JAX arrays out.
- ``device``: the functional form (``vector.functional``): ``--scan`` steps with on-device random actions in
  one jitted ``lax.scan``; nothing crosses to the host between steps (the way a trainer on a GPU runs).
- ``openspiel``: OpenSpiel's ``universal_poker`` (C++) with the fcpa abstraction, one state at a time from
  Python (no-limit rows only; ``holdem_engine.py``'s loop).
``compile s``: seconds of the first call (tracing and XLA compilation) of the JAX modes at the largest size;
``bytes/table``: the JAX state and one output per table. Compare figures of one run only: this machine's speed
drifts. The rows are those of ``vector_throughput.py``. On a GPU, run with ``--modes device`` and sizes up to
2**20 (``benchmarks/jax_gpu.sh`` does that in under five minutes).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from poker_envs import vector
from poker_envs.vector.sampling import random_legal_actions

sys.path.insert(0, str(Path(__file__).parent))  # the other scripts of benchmarks/ (not a package)
import vector_throughput  # noqa: E402  (its rows and its OpenSpiel loop)

MODES = ("numpy", "host", "device", "openspiel")


def host_rate(game: str, config: dict[str, Any], num_envs: int, seconds: float, backend: str) -> tuple[float, float]:
    """(decisions/s, seconds of the first step) of the engine of ``backend`` stepped from the host."""
    venv = vector.make(game, num_envs, seed=0, backend=backend, **config)
    rng = np.random.default_rng(0)
    out = venv.reset()
    start = time.perf_counter()
    out = venv.step(random_legal_actions(np.asarray(out.action_mask), rng))
    np.asarray(out.observation)
    first = time.perf_counter() - start
    decisions, start = 0, time.perf_counter()
    while time.perf_counter() - start <= seconds:
        for _ in range(10):
            out = venv.step(random_legal_actions(np.asarray(out.action_mask), rng))
        np.asarray(out.observation)  # the outputs are there (JAX dispatches asynchronously)
        decisions += 10 * num_envs
    return decisions / (time.perf_counter() - start), first


def device_rate(game: str, config: dict[str, Any], num_envs: int, seconds: float, scan: int) -> tuple[float, float, int]:
    """(decisions/s, compile seconds, bytes per table) of ``scan`` steps per jitted call, actions drawn on device."""
    import jax

    from poker_envs.vector import functional

    g = functional.make(game, **config)

    def body(carry: Any, _: Any) -> tuple[Any, Any]:
        state, out, key = carry
        key, sub = jax.random.split(key)
        state, out = g.step(state, functional.random_actions(sub, out.action_mask))
        return (state, out, key), None

    run = jax.jit(lambda carry: jax.lax.scan(body, carry, length=scan)[0])
    state, out = jax.jit(g.init, static_argnums=1)(jax.random.key(0), num_envs)
    carry = (state, out, jax.random.key(1))
    size = sum(x.nbytes for x in jax.tree_util.tree_leaves((state, out)) if x.ndim and x.shape[0] == num_envs)
    start = time.perf_counter()
    carry = jax.block_until_ready(run(carry))
    compile_s = time.perf_counter() - start
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start <= seconds:
        carry = jax.block_until_ready(run(carry))
        calls += 1
    return calls * scan * num_envs / (time.perf_counter() - start), compile_s, size // num_envs


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per cell")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 64, 1024, 8192, 65536], help="num_envs values")
    parser.add_argument("--games", nargs="+", default=["nolimit 2p", "nolimit 6p"], help="rows of vector_throughput.py by label")
    parser.add_argument("--modes", nargs="+", default=list(MODES), choices=MODES, help="what to measure")
    parser.add_argument("--scan", type=int, default=32, help="steps per jitted call in the device mode")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or min(args.sizes) < 1 or args.scan < 1:
        parser.error("--seconds, --sizes and --scan must be positive")
    rows = {r.label: r for r in vector_throughput.ROWS}
    unknown = [g for g in args.games if g not in rows]
    if unknown:
        parser.error(f"--games: unknown rows {unknown}; choose from {sorted(rows)}")
    import jax

    print(f"decisions per second; JAX {jax.__version__} on {jax.devices()[0].platform} ({len(jax.devices())} device(s))")
    print(f"{'game':<13}{'mode':<10}" + "".join(f"{'n=' + str(s):>13}" for s in args.sizes) + f"{'compile s':>11}{'bytes/table':>13}")
    results: list[dict[str, Any]] = []
    for label in args.games:
        row = rows[label]
        for mode in args.modes:
            rates, compile_s, size = [], float("nan"), 0
            if mode == "openspiel":
                if not row.openspiel:
                    continue
                rates = [vector_throughput.openspiel_rate(row.openspiel, args.seconds)]
            else:
                for n in args.sizes:
                    if mode == "device":
                        rate, compile_s, size = device_rate(row.game, row.config, n, args.seconds, args.scan)
                    else:
                        rate, compile_s = host_rate(row.game, row.config, n, args.seconds, "jax" if mode == "host" else "numpy")
                    rates.append(rate)
            cells = "".join(f"{r:>13,.0f}" for r in rates) if mode != "openspiel" else f"{rates[0]:>13,.0f} (one state at a time)"
            tail = f"{compile_s:>11.1f}" + (f"{size:>13,}" if mode == "device" else "") if mode in ("host", "device") else ""
            print(f"{label:<13}{mode:<10}{cells}{tail}", flush=True)
            results.append({"game": label, "mode": mode, "sizes": args.sizes if mode != "openspiel" else [1],
                            "decisions_per_second": rates, "compile_seconds": compile_s, "bytes_per_table": size})
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"jax": jax.__version__, "platform": jax.devices()[0].platform,
                                         "results": results}, indent=1))


if __name__ == "__main__":
    main()
