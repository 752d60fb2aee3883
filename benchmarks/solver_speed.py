"""The subgame solver against TexasSolver's console solver, on the same command files, in the same run.

    python benchmarks/solver_speed.py --texassolver PATH/console_solver --resources PATH/resources
    python benchmarks/solver_speed.py --spots river turn --repeats 3 --json benchmarks/solver_speed.json
    python benchmarks/solver_speed.py --no-texassolver --backends numpy jax      # ours only

TexasSolver (github.com/bupticybee/TexasSolver, console branch) is not shipped: build it from its sources and pass
the binary and its ``resources`` folder. Each repeat runs every solver once per spot, alternating, one process at
a time and one thread each (``OMP_NUM_THREADS=1``, ``OPENBLAS_NUM_THREADS=1``): the machine's speed drifts, so
compare figures of the same repeat. Every run is a separate process, timed as follows:

- TexasSolver: its own "time used" at the last check (solving only: its start-up, which loads a hand-rank
  dictionary, is left out), its last "Total exploitability" and iteration; memory: the process's peak RSS.
- ours: ``python -m agent_zoo.solver FILE --json`` reports the seconds of iterating and checking (building the
  tree and tables is reported apart); memory: the process's peak RSS (the Python interpreter and numpy included).

Both check the exploitability every ``set_print_interval`` iterations and stop at ``set_accuracy``; ours runs in
TexasSolver's conventions (``--conventions texassolver``, the same game) and in this package's rules.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import median
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SPOTS = ROOT / "agent_zoo" / "solver" / "spots"
SINGLE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                 "XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"}


def run_process(args: list[str], cwd: Path) -> tuple[str, int]:
    """Run ``args``; its stdout and its peak resident memory in MB."""
    env = {**os.environ, **SINGLE_THREAD, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = proc.stdout.read() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise RuntimeError(f"{' '.join(args)} failed with exit {proc.returncode}")
    return out, usage.ru_maxrss // 1024


def texassolver(binary: Path, resources: Path, spot: Path, work: Path) -> dict[str, Any]:
    keep = [line for line in spot.read_text().splitlines() if not line.startswith("dump_result")]  # no dump
    (work / "spot.txt").write_text("\n".join(keep) + "\n")
    out, mb = run_process([str(binary), "-i", "spot.txt", "-r", str(resources)], work)
    times = [float(x) for x in re.findall(r"time used: ([0-9.]+)", out)]
    expl = [float(x) for x in re.findall(r"Total exploitability ([0-9.eE+-]+) precent", out)]
    iters = [int(x) for x in re.findall(r"Iter: (\d+)", out)]
    if not times or not expl:
        raise RuntimeError(f"could not read TexasSolver's output:\n{out[-2000:]}")
    return {"seconds": times[-1], "exploitability_pct": expl[-1], "iterations": iters[-1], "peak_mb": mb}


def ours(spot: Path, conventions: str, backend: str, work: Path, float32: bool = False) -> dict[str, Any]:
    summary = work / "summary.json"
    keep = [line for line in spot.read_text().splitlines() if not line.startswith("dump_result")]  # no dump
    (work / "spot.txt").write_text("\n".join(keep) + "\n")
    _, mb = run_process([sys.executable, "-m", "agent_zoo.solver", "spot.txt", "--conventions", conventions,
                         "--backend", backend, "--no-progress", "--json", str(summary), *(["--float32"] if float32 else [])],
                        work)
    data = json.loads(summary.read_text())
    return {"seconds": data["seconds"], "exploitability_pct": data["exploitability_pct"], "iterations": data["iterations"],
            "build_seconds": data["build_seconds"], "value_oop": data["value_oop"], "peak_mb": mb}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--texassolver", type=Path, default=None, help="TexasSolver's console_solver binary")
    p.add_argument("--resources", type=Path, default=None, help="TexasSolver's resources folder")
    p.add_argument("--no-texassolver", action="store_true", help="run ours only")
    p.add_argument("--spots", nargs="+", default=["river", "turn"], help="spot files in agent_zoo/solver/spots")
    p.add_argument("--backends", nargs="+", default=["numpy"], choices=["numpy", "numpy32", "jax"],
                   help="numpy (float64), numpy32 (numpy in float32), jax (float32)")
    p.add_argument("--conventions", nargs="+", default=["texassolver", "rules"], choices=["texassolver", "rules"])
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--json", type=Path, default=None, help="write every run here")
    args = p.parse_args(argv)
    if not args.no_texassolver and (args.texassolver is None or args.resources is None):
        p.error("give --texassolver and --resources, or --no-texassolver")
    runs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for repeat in range(args.repeats):
            for name in args.spots:
                spot = SPOTS / f"{name}.txt"
                jobs: list[tuple[str, Any]] = []
                if not args.no_texassolver:
                    jobs.append(("TexasSolver", lambda s=spot: texassolver(args.texassolver, args.resources, s, work)))
                for backend in args.backends:
                    for conventions in args.conventions:
                        jobs.append((f"ours {backend} {conventions}", lambda s=spot, b=backend, c=conventions: ours(
                            s, c, b.replace("numpy32", "numpy"), work, float32=b == "numpy32")))
                for solver, job in jobs:
                    result = {"repeat": repeat, "spot": name, "solver": solver, **job()}
                    runs.append(result)
                    print(json.dumps(result), flush=True)
    print("\nmedians over repeats (seconds to the file's accuracy; exploitability % of the pot reached):")
    for name in args.spots:
        for solver in sorted({r["solver"] for r in runs}):
            rows = [r for r in runs if r["spot"] == name and r["solver"] == solver]
            if rows:
                mb = max(r["peak_mb"] for r in rows)
                secs = [r["seconds"] for r in rows]
                print(f"  {name:6s} {solver:28s} {median(secs):8.3f} s  (min {min(secs):.3f}, max {max(secs):.3f})"
                      f"  {median(r['exploitability_pct'] for r in rows):.4f}%  {median(r['iterations'] for r in rows):.0f} it  {mb} MB")
    if args.json:
        args.json.write_text(json.dumps(runs, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
