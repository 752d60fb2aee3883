"""Tournament throughput: hands per second of ``python -m agent_zoo.tournament`` through the table runner.

    python benchmarks/tournament_speed.py [--hands 1200] [--workers 1 2] [--before /path/to/old/checkout]

Cells: 6-max no-limit hold'em with six random agents, and with random, heuristic and fold (two seats each),
on the AEC environments (``--tables`` in lockstep) and, for agents that act from the observation array
alone, on the batched engine; heads-up random vs heuristic for comparison with older versions. Each cell
runs ``run_tournament`` once (style statistics on, no progress bar) and reports hands / wall second,
worker start-up included. ``--before``: a checkout of an earlier version, run in a subprocess on the
heads-up cell (and the 6-max ones, if that version accepts ``players``). Compare figures of one run only.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))  # this checkout's packages, not an installed copy

from agent_zoo.agent import RandomAgent  # noqa: E402
from agent_zoo.tournament import TournamentConfig, run_tournament  # noqa: E402

CELLS = {
    "6max random x6 (aec)": dict(game="nolimit", players=6, agents=[f"r{i}" for i in range(6)], engine="aec"),
    "6max random x6 (vector)": dict(game="nolimit", players=6, agents=[f"r{i}" for i in range(6)], engine="vector"),
    "6max random/heuristic/fold (aec)": dict(game="nolimit", players=6, agents=["random", "heuristic", "fold"], engine="aec"),
    "heads-up random/heuristic (aec)": dict(game="nolimit", players=2, agents=["random", "heuristic"], engine="aec"),
}


def agents_of(names: list[str]) -> list:
    """Registry specs as given; ``r<i>`` becomes a RandomAgent named so (copies need distinct names)."""
    out = []
    for name in names:
        if name.startswith("r") and name[1:].isdigit():
            agent = RandomAgent()
            agent.name = name
            out.append(agent)
        else:
            out.append(name)
    return out


def run_here(cell: dict, hands: int, workers: int, tables: int) -> float:
    hands -= hands % cell["players"]
    start = time.perf_counter()
    run_tournament(TournamentConfig(
        game=cell["game"], agents=agents_of(cell["agents"]), hands=hands, seed=0, workers=workers, players=cell["players"],
        engine=cell["engine"], tables=tables, progress=False, block_deals=max(1, hands // cell["players"] // (2 * workers)),
    ))
    return hands / (time.perf_counter() - start)


BEFORE = """
import json, sys, time
from agent_zoo.tournament import run_tournament
cell, hands, workers = json.loads(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
kw = {} if cell["players"] == 2 else {"env_config": {"num_players": cell["players"]}}
start = time.perf_counter()
try:
    run_tournament(cell["game"], cell["agents"], hands=hands, seed=0, workers=workers, progress=False, **kw)
except Exception as exc:
    print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}))
else:
    print(json.dumps({"hands_per_s": hands / (time.perf_counter() - start)}))
"""


def run_before(path: str, cell: dict, hands: int, workers: int) -> str:
    """The old version's figure on a cell (it plays every pair of agents: ``hands`` per pair)."""
    if cell["engine"] != "aec" or any(a.startswith("r") and a[1:].isdigit() for a in cell["agents"]):
        return "n/a"
    pairs = len(cell["agents"]) * (len(cell["agents"]) - 1) // 2
    out = subprocess.run(
        [sys.executable, "-c", BEFORE, json.dumps(cell), str(hands // pairs // 2 * 2), str(workers)],
        cwd=path, capture_output=True, text=True, check=False,
    )
    try:
        result = json.loads(out.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return f"failed: {out.stderr.strip().splitlines()[-1:]}"
    if "error" in result:
        return "refused"
    return f"{result['hands_per_s'] * pairs:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1200, help="hands per cell (rounded to the seats)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--tables", type=int, default=64, help="tables in lockstep per worker")
    parser.add_argument("--before", help="checkout of an earlier version to compare with (run in a subprocess)")
    args = parser.parse_args()
    print(f"{'cell':<36}{'workers':>8}{'hands/s':>10}{'before':>10}")
    for name, cell in CELLS.items():
        for workers in args.workers:
            now = run_here(cell, args.hands, workers, args.tables)
            before = run_before(args.before, cell, args.hands, workers) if args.before else "-"
            print(f"{name:<36}{workers:>8}{now:>10.0f}{before:>10}", flush=True)


if __name__ == "__main__":
    main()
