"""Language-model players: decisions per second with many tables deciding at once vs one decision at a time.

    python benchmarks/llm_concurrency.py [--delay 0.05] [--tables 256] [--hands 1536] [--serial-hands 12]
                                         [--workers 1] [--transport openai http]

The scripted OpenAI-compatible stub (``tests/llm_stub.py``) runs in its own process and answers every request
after ``--delay`` seconds (a stand-in for a model's latency). For each ``--transport`` (``LLMConfig.transport``:
the official ``openai`` client, the standard library's ``http``; both by default) two cells play 6-max
no-limit hold'em tournaments (``run_tournament``, AEC engine) with three agents, one of them ``llm:`` against the
stub, the others heuristic and random:

* concurrent: ``--workers`` processes of ``--tables`` tables in lockstep and ``concurrency`` = tables: the
  decisions of all tables where the model is to act go to the server at once;
* one at a time: 1 table, ``concurrency=1``, one process: every decision waits for its reply before the next is
  asked.

Each cell reports the model's decisions (the tournament's counters) per wall second, set-up included, and each
transport's ratio concurrent / one at a time, all measured in the same run. Compare figures of one run only.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))  # this checkout's packages, not an installed copy

from agent_zoo.llm.config import TRANSPORTS  # noqa: E402
from agent_zoo.tournament import TournamentConfig, run_tournament  # noqa: E402


def cell(url: str, tables: int, concurrency: int, hands: int, workers: int = 1,
         transport: str = "openai") -> tuple[int, float]:
    """(the model's decisions, wall seconds) of one tournament (``workers`` processes share its blocks)."""
    spec = f"llm:bench@{url},concurrency={concurrency},transport={transport}"
    start = time.perf_counter()
    block = 10_000 if workers == 1 else max(1, hands // 6 // (3 * workers))  # deals per block: each worker gets some
    result = run_tournament(TournamentConfig(game="nolimit", agents=[spec, "heuristic", "random"], hands=hands, players=6, seed=1, tables=tables,
                            block_deals=block, workers=workers, progress=False, style=False))
    return int(result.counters[spec]["decisions"]), time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--delay", type=float, default=0.05, help="seconds the stub waits before each reply")
    p.add_argument("--tables", type=int, default=256, help="tables in lockstep (and requests in flight) of the concurrent cell")
    p.add_argument("--hands", type=int, default=1536, help="hands of the concurrent cell (a multiple of 6)")
    p.add_argument("--serial-hands", type=int, default=12, help="hands of the one-at-a-time cell (a multiple of 6)")
    p.add_argument("--workers", type=int, default=1,
                   help="worker processes of the concurrent cell (each with --tables tables; the client's work is "
                        "Python, one core per process)")
    p.add_argument("--transport", nargs="+", choices=TRANSPORTS, default=list(TRANSPORTS),
                   help="the client's transports to measure (LLMConfig.transport), each in both cells")
    args = p.parse_args()
    root = os.path.join(os.path.dirname(__file__), "..")
    stub = subprocess.Popen([sys.executable, "-m", "tests.llm_stub", "--delay", str(args.delay)], cwd=root,
                            stdout=subprocess.PIPE, text=True)
    try:
        url = stub.stdout.readline().strip()  # type: ignore[union-attr]
        rows = {}
        for transport in args.transport:
            cell(url, 1, 1, 6, transport=transport)  # warm-up: imports, the first connection
            rows[transport, "concurrent"] = cell(url, args.tables, args.tables, args.hands, args.workers, transport)
            rows[transport, "one at a time"] = cell(url, 1, 1, args.serial_hands, transport=transport)
    finally:
        stub.terminate()
        stub.wait()
    print(f"stub reply delay {1000 * args.delay:.0f} ms; 6-max no-limit, llm vs heuristic vs random; concurrent: "
          f"{args.workers} x {args.tables} tables in flight; one at a time: 1 table, concurrency 1")
    rates = {}
    for (transport, kind), (decisions, seconds) in rows.items():
        rates[transport, kind] = decisions / seconds
        print(f"transport={transport:<7} {kind:<14} {decisions:>6} decisions {seconds:>7.2f} s "
              f"{rates[transport, kind]:>9.1f} decisions/s")
    for transport in args.transport:
        print(f"transport={transport}: ratio concurrent / one at a time "
              f"{rates[transport, 'concurrent'] / rates[transport, 'one at a time']:.1f}x")


if __name__ == "__main__":
    main()
