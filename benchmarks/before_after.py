"""One benchmark run on two source trees, alternating, in one run: the ratio of a change's speed to its base.

    mkdir ../base && git archive <base commit> | tar -x -C ../base
    python benchmarks/before_after.py --base ../base [--rounds 3] [--json PATH] -- \\
        benchmarks/jax_throughput.py --modes numpy host device --sizes 64 1024 8192 --seconds 1

The script after ``--`` must accept ``--json PATH`` and write ``{"results": [{"game", "mode", "sizes",
"decisions_per_second"}, ...]}`` (``jax_throughput.py``, ``vector_throughput.py`` do). Each round runs it once with
the base tree first on ``PYTHONPATH`` and once with this tree, in alternating order, so a drift of this machine's
speed during the run reaches both sides alike; each cell's figure is the median over the rounds, and the table shows
base, change and change/base. Run it alone: anything else running on the machine blurs both columns.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def run_once(tree: Path, command: list[str], out: Path) -> list[dict[str, Any]]:
    """The benchmark's result rows with ``tree`` first on the import path (its own copy of the script too)."""
    script = tree / command[0] if (tree / command[0]).exists() else ROOT / command[0]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tree), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    subprocess.run([sys.executable, str(script), *command[1:], "--json", str(out)], check=True, env=env, cwd=tree)
    return json.loads(out.read_text())["results"]


def cells(rows: list[dict[str, Any]]) -> dict[tuple[str, str, int], float]:
    """(game, mode, size) -> decisions per second."""
    return {(r["game"], r["mode"], int(s)): float(v) for r in rows for s, v in zip(r["sizes"], r["decisions_per_second"])}


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if "--" not in argv:
        raise SystemExit("usage: before_after.py --base DIR [--rounds N] [--json PATH] -- SCRIPT [ARGS...]")
    split = argv.index("--")
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", type=Path, required=True, help="source tree of the base commit (git archive | tar -x)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each tree (alternating); the median is kept")
    parser.add_argument("--json", type=Path, default=None, help="also write every round's figures here")
    args = parser.parse_args(argv[:split])
    command = argv[split + 1:]
    if not command:
        parser.error("give the benchmark script and its arguments after --")
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, got {args.rounds}")
    if not (args.base / "poker_envs" / "__init__.py").exists():
        parser.error(f"--base {args.base} holds no poker_envs package (unpack the base commit there)")
    runs: dict[str, list[dict[tuple[str, str, int], float]]] = {"base": [], "change": []}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            order = (("base", args.base), ("change", ROOT)) if r % 2 == 0 else (("change", ROOT), ("base", args.base))
            for name, tree in order:
                print(f"round {r + 1}/{args.rounds}: {name}", file=sys.stderr, flush=True)
                runs[name].append(cells(run_once(tree.resolve(), command, Path(tmp) / f"{name}{r}.json")))
    keys = [k for k in runs["base"][0] if all(k in c for c in runs["base"] + runs["change"])]
    print(f"\nmedian of {args.rounds} alternating rounds, decisions per second")
    print(f"{'game':<13}{'mode':<9}{'tables':>8}{'base':>13}{'change':>13}{'change/base':>13}")
    table = []
    for game, mode, size in keys:
        base = statistics.median(c[(game, mode, size)] for c in runs["base"])
        change = statistics.median(c[(game, mode, size)] for c in runs["change"])
        table.append({"game": game, "mode": mode, "tables": size, "base": base, "change": change, "ratio": change / base})
        print(f"{game:<13}{mode:<9}{size:>8}{base:>13,.0f}{change:>13,.0f}{change / base:>13.3f}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        rounds = {name: [[{"game": g, "mode": m, "tables": s, "rate": v} for (g, m, s), v in c.items()] for c in cs]
                  for name, cs in runs.items()}
        args.json.write_text(json.dumps({"command": command, "median": table, "rounds": rounds}, indent=1))


if __name__ == "__main__":
    main()
