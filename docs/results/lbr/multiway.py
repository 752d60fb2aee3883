"""Multi-way LBR figure: LBR against the heuristic and random at 2, 3 and 6 seats, seeds 1, 2, 3.

    python docs/results/lbr/multiway.py run --out DIR       # one JSON per case; finished cases are skipped
    python docs/results/lbr/multiway.py summary --out DIR   # the markdown table of docs/results/evaluation.md

Table: ``nolimit_holdem_v0`` defaults (200 chips = 100 big blinds, blinds 1/2, abstract sizing); heads-up on
the batched engine (600 hands per seed), 3 seats 198 and 6 seats 120 hands per seed on the rules' states
(LBR's seat rotating, so every seat is played equally often).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np

CASES = {2: (600, "vector"), 3: (198, "aec"), 6: (120, "aec")}  # players -> (hands per seed, engine)
AGENTS = ("heuristic", "random")
SEEDS = (1, 2, 3)


def run(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for players, (hands, engine) in CASES.items():
        for agent in AGENTS:
            for seed in SEEDS:
                path = out / f"p{players}_{agent}_s{seed}.json"
                if path.exists() and path.stat().st_size:
                    continue
                tmp = path.with_suffix(".json.tmp")
                subprocess.run([sys.executable, "-m", "agent_zoo.lbr", "--game", "nolimit", "--agent", agent,
                                "--players", str(players), "--engine", engine, "--hands", str(hands), "--seed", str(seed),
                                "--no-progress", "--json", str(tmp)], check=True)
                tmp.rename(path)


def summary(out: Path) -> None:
    print("| seats | agent | hands/seed | seed 1 (mbb/hand) | seed 2 | seed 3 | pooled | spread of seeds (sd) | hands/s |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for players in CASES:
        for agent in AGENTS:
            rows = [json.loads((out / f"p{players}_{agent}_s{seed}.json").read_text()) for seed in SEEDS
                    if (out / f"p{players}_{agent}_s{seed}.json").exists()]
            if not rows:
                continue
            means = np.array([r["mbb_per_hand"] for r in rows])
            cis = np.array([r["mbb_ci95"] for r in rows])
            cells = [f"{m:+,.0f} ± {c:,.0f}" for m, c in zip(means, cis)] + [""] * (len(SEEDS) - len(rows))
            pooled = f"**{means.mean():+,.0f} ± {math.sqrt((cis ** 2).sum()) / len(rows):,.0f}**"
            spread = f"{means.std(ddof=1):,.0f}" if len(rows) > 1 else ""
            speed = np.mean([r["hands_per_second"] for r in rows])
            print(f"| {players} | `{agent}` | {rows[0]['hands']} | {' | '.join(cells)} | {pooled} | {spread} | {speed:.1f} |")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("command", choices=("run", "summary"))
    p.add_argument("--out", type=Path, required=True, help="folder of the per-case JSON files")
    args = p.parse_args()
    (run if args.command == "run" else summary)(args.out)


if __name__ == "__main__":
    main()
