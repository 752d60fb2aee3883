"""The Leduc exploitability curves of ``agent_zoo.jax_ppo`` runs in one figure, and their table.

    python docs/results/jax_ppo/curves.py LABEL=RUN_DIR [LABEL=RUN_DIR ...] --out docs/results/jax_ppo

Each ``RUN_DIR`` holds the ``exploitability.json`` that ``python -m agent_zoo.jax_ppo exploitability --out
RUN_DIR`` wrote. Writes ``curves.png`` (exploitability against training steps, the uniform policy's as a line)
and prints a markdown table: first, best and last exploitability of each run, with its step.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", metavar="LABEL=RUN_DIR", help="a label and the run's folder")
    parser.add_argument("--out", type=Path, required=True, help="folder for curves.png")
    args = parser.parse_args(argv)
    fig, ax = plt.subplots(figsize=(7, 4))
    uniform = None
    print("| run | start | best (steps) | last (steps) |\n| --- | --- | --- | --- |")
    for item in args.runs:
        label, sep, folder = item.partition("=")
        if not sep:
            parser.error(f"runs: expected LABEL=RUN_DIR, got {item!r}")
        data = json.loads((Path(folder) / "exploitability.json").read_text())
        uniform = data["uniform_exploitability"]
        steps = [r["steps"] for r in data["rows"]]
        values = [r["exploitability"] for r in data["rows"]]
        ax.plot(steps, values, marker=".", label=label)
        best = min(range(len(values)), key=values.__getitem__)
        print(f"| {label} | {values[0]:.3f} | {values[best]:.3f} ({steps[best]:,}) | {values[-1]:.3f} ({steps[-1]:,}) |")
    ax.axhline(uniform, color="grey", linestyle="--", label=f"uniform policy ({uniform:.3f})")
    ax.set_xlabel("environment decisions (all seats)")
    ax.set_ylabel("exploitability (chips per hand)")
    ax.set_title("Leduc hold'em: self-play PPO on the device (agent_zoo.jax_ppo)")
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=8)
    fig.tight_layout()
    args.out.mkdir(parents=True, exist_ok=True)
    from agent_zoo.figures import save_figure
    save_figure(fig, args.out / "curves.png", dpi=110)


if __name__ == "__main__":
    main()
