"""Language-model players: decisions per second with many tables deciding at once vs one decision at a time.

    python benchmarks/llm_concurrency.py [--delay 0.05] [--tables 64] [--hands 384] [--serial-hands 12]

The scripted OpenAI-compatible stub (``tests/llm_stub.py``) runs in its own process and answers every request
after ``--delay`` seconds (a stand-in for a model's latency). Two cells play 6-max no-limit hold'em
tournaments (``run_tournament``, AEC engine, one worker) with three agents, one of them ``llm:`` against the
stub, the others heuristic and random:

* concurrent: ``--tables`` tables in lockstep and ``concurrency`` = tables: the decisions of all tables where the
  model is to act go to the server at once;
* one at a time: 1 table, ``concurrency=1``: every decision waits for its reply before the next is asked.

Each cell reports the model's decisions (the tournament's counters) per wall second, set-up included, and the
ratio of the two, measured in the same run. Compare figures of one run only.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))  # this checkout's packages, not an installed copy

from agent_zoo.tournament import run_tournament  # noqa: E402


def cell(url: str, tables: int, concurrency: int, hands: int, workers: int = 1) -> tuple[int, float]:
    """(the model's decisions, wall seconds) of one tournament (``workers`` processes share its blocks)."""
    spec = f"llm:bench@{url},concurrency={concurrency}"
    start = time.perf_counter()
    block = 10_000 if workers == 1 else max(1, hands // 6 // (3 * workers))  # deals per block: each worker gets some
    result = run_tournament("nolimit", [spec, "heuristic", "random"], hands=hands, players=6, seed=1, tables=tables,
                            block_deals=block, workers=workers, progress=False, style=False)
    return int(result.counters[spec]["decisions"]), time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--delay", type=float, default=0.05, help="seconds the stub waits before each reply")
    p.add_argument("--tables", type=int, default=64, help="tables in lockstep (and requests in flight) of the concurrent cell")
    p.add_argument("--hands", type=int, default=384, help="hands of the concurrent cell (a multiple of 6)")
    p.add_argument("--serial-hands", type=int, default=12, help="hands of the one-at-a-time cell (a multiple of 6)")
    p.add_argument("--workers", type=int, default=1,
                   help="worker processes of the concurrent cell (each with --tables tables; the client's work is "
                        "Python, one core per process)")
    args = p.parse_args()
    root = os.path.join(os.path.dirname(__file__), "..")
    stub = subprocess.Popen([sys.executable, "-m", "tests.llm_stub", "--delay", str(args.delay)], cwd=root,
                            stdout=subprocess.PIPE, text=True)
    try:
        url = stub.stdout.readline().strip()  # type: ignore[union-attr]
        cell(url, 1, 1, 6)  # warm-up: imports, the first connection
        rows = {
            f"concurrent ({args.workers} x {args.tables} tables in flight)": cell(url, args.tables, args.tables, args.hands,
                                                                                 args.workers),
            "one at a time (1 table, concurrency 1)": cell(url, 1, 1, args.serial_hands),
        }
    finally:
        stub.terminate()
        stub.wait()
    print(f"stub reply delay {1000 * args.delay:.0f} ms; 6-max no-limit, llm vs heuristic vs random")
    rates = []
    for name, (decisions, seconds) in rows.items():
        rates.append(decisions / seconds)
        print(f"{name:<45} {decisions:>6} decisions {seconds:>7.2f} s {rates[-1]:>9.1f} decisions/s")
    print(f"ratio concurrent / one at a time: {rates[0] / rates[1]:.1f}x")


if __name__ == "__main__":
    main()
