"""Do the subgame solver and TexasSolver give the same answer? The game value and the first decision's mix.

    python benchmarks/solver_agreement.py SPOT.txt --texassolver PATH/console_solver --resources PATH/resources

Both solve ``SPOT.txt`` to ``--accuracy`` (default 0.01% of the pot); ours in TexasSolver's conventions, so both
solve the same game. TexasSolver prints each player's best-response value at every check; at an exploitability
of e% of the pot, OOP's game value lies between minus IP's best-response value and OOP's, an interval 2e% of the
pot wide. The script prints that interval, our value (and its own interval from our best responses), and each
action of the first decision with its frequency over OOP's range (each holding weighted by its range weight,
holdings that hold a board card left out) in both solvers.
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

import numpy as np

from agent_zoo.solver.commands import load_commands
from agent_zoo.solver.solve import combo_names, solve
from agent_zoo.solver.spot import Conventions

SINGLE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}


def texassolver(binary: Path, resources: Path, spot: Path, accuracy: float, work: Path) -> tuple[dict, list[float]]:
    """TexasSolver's dump of the first street and its last two best-response values (IP's, OOP's)."""
    lines = [line for line in spot.read_text().splitlines()
             if not line.startswith(("set_accuracy", "dump_result", "set_max_iteration", "set_dump_rounds"))]
    at = lines.index("start_solve")
    lines[at:at] = [f"set_accuracy {accuracy}", "set_max_iteration 100000"]
    lines += ["set_dump_rounds 1", "dump_result dump.json"]
    (work / "spot.txt").write_text("\n".join(lines) + "\n")
    out = subprocess.run([str(binary), "-i", "spot.txt", "-r", str(resources)], cwd=work, capture_output=True,
                         text=True, env={**os.environ, **SINGLE_THREAD}, check=True).stdout
    ip = [float(x) for x in re.findall(r"player 0 exploitability ([0-9.eE+-]+)", out)]
    oop = [float(x) for x in re.findall(r"player 1 exploitability ([0-9.eE+-]+)", out)]
    return json.loads((work / "dump.json").read_text()), [ip[-1], oop[-1]]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("spot", type=Path)
    p.add_argument("--texassolver", type=Path, required=True)
    p.add_argument("--resources", type=Path, required=True)
    p.add_argument("--accuracy", type=float, default=0.01)
    args = p.parse_args(argv)
    commands = load_commands(args.spot, conventions=Conventions.TEXASSOLVER)
    spot = commands.spot
    with tempfile.TemporaryDirectory() as tmp:
        dump, (br_ip, br_oop) = texassolver(args.texassolver, args.resources, args.spot, args.accuracy, Path(tmp))
    cfr, log = solve(spot, accuracy=args.accuracy, max_iterations=100000, check_every=10)
    result = cfr.exploitability()
    pot = spot.pot
    print(f"OOP's game value, chips (percent of the pot):")
    print(f"  TexasSolver: between {-br_ip:+.4f} and {br_oop:+.4f}  (exploitability {(br_ip + br_oop) / 2 / pot * 100:.4f}%)")
    print(f"  ours:        {log.value_oop:+.4f}, between {-result.best_response[1]:+.4f} and {result.best_response[0]:+.4f}"
          f"  (exploitability {log.exploitability_pct:.4f}%)")
    mid_ts = (br_oop - br_ip) / 2
    print(f"  difference of the midpoints: {(log.value_oop - mid_ts) / pot * 100:+.4f}% of the pot")
    # The first decision's mix over OOP's range.
    lay = cfr.layout
    ours = cfr.strategy(0)[:, 0]  # (A, H)
    names = combo_names(lay.holdings[0])
    weights = lay.weights[0]
    theirs = dump["strategy"]["strategy"]
    labels = dump["actions"]
    print("first decision, frequency over OOP's range (TexasSolver / ours):")
    mixed = np.array([theirs[n] if n in theirs else [np.nan] * len(labels) for n in names])
    missing = int(np.isnan(mixed[:, 0]).sum())
    ts_freq = np.nansum(weights[:, None] * mixed, axis=0) / weights[~np.isnan(mixed[:, 0])].sum()
    our_freq = (ours * weights).sum(axis=1) / weights.sum()
    ours_labels = [str(a) for a in lay.tree.nodes[0].actions]
    for label, f_ts, label_ours, f_ours in zip(labels, ts_freq, ours_labels, our_freq):
        print(f"  {label:18s} {f_ts * 100:6.2f}%   {label_ours:12s} {f_ours * 100:6.2f}%   diff {(f_ours - f_ts) * 100:+.2f} pp")
    if missing:
        print(f"  ({missing} of our holdings are not in TexasSolver's dump)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
