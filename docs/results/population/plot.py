"""Exact exploitability curves of several runs on one PNG (docs/results/population.md).

    python docs/results/population/plot.py OUT.png "TITLE" LABEL=RUN_DIR [LABEL=RUN_DIR ...]

Each RUN_DIR holds the ``curve.json`` that ``python -m agent_zoo.jax_rnad exploitability --out RUN_DIR --json
RUN_DIR/curve.json`` (or ``agent_zoo.jax_ppo``'s) wrote; runs with the same LABEL (seeds) share a colour.
``--post-processed`` also draws each run's post-processed policy (``pp_exploitability``), dashed; ``--average``
each run's average policy so far (``avg_exploitability``), dash-dotted; ``--hands`` puts
hands played (learner steps x the R-NaD run's ``batch_size``, from RUN_DIR/latest.json) on the x axis, so runs
with different batch sizes line up by what they played.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from agent_zoo.figures import save_figure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the PNG to write")
    parser.add_argument("title", help="the plot's title")
    parser.add_argument("runs", nargs="+", help="LABEL=RUN_DIR pairs")
    parser.add_argument("--post-processed", action="store_true",
                        help="also each run's post-processed policy (actions under 3%% dropped, 1/32 steps), dashed")
    parser.add_argument("--average", action="store_true",
                        help="also each run's average policy so far (of the target policies of its checkpoints), dash-dotted")
    parser.add_argument("--hands", action="store_true",
                        help="x axis: hands played (learner steps x batch_size of each R-NaD run) instead of learner steps")
    args = parser.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    colours: dict[str, str] = {}
    uniform = None
    for pair in args.runs:
        label, _, folder = pair.rpartition("=")  # the last "=": a label may hold one
        if not label or not folder:
            parser.error(f"runs are LABEL=RUN_DIR pairs, got {pair!r}")
        curve = json.loads((Path(folder) / "curve.json").read_text())
        uniform = curve.get("uniform_exploitability", uniform)
        rows = [r for r in curve["rows"] if r["steps"] > 0]
        per_step = 1
        if args.hands:
            config = json.loads((Path(folder) / "latest.json").read_text()).get("config", {})
            if "batch_size" not in config:
                parser.error(f"--hands: {folder}/latest.json has no batch_size (an R-NaD run's hands a learner step)")
            per_step = config["batch_size"]
        xs = [r["steps"] * per_step for r in rows]
        first = label not in colours
        line = ax.plot(xs, [r["exploitability"] for r in rows], lw=1.2,
                       color=colours.get(label), label=label if first else None)[0]
        colours.setdefault(label, line.get_color())
        if args.post_processed:
            if any("pp_exploitability" not in r for r in rows):
                parser.error(f"{folder}/curve.json has no pp_exploitability column: run the exploitability command again")
            ax.plot(xs, [r["pp_exploitability"] for r in rows], lw=1.0, ls="--",
                    color=colours[label], label=f"{label}, post-processed" if first else None)
        if args.average:
            if not any("avg_exploitability" in r for r in rows):
                parser.error(f"{folder}/curve.json has no avg_exploitability column: run the exploitability command again")
            averaged = [(x, r["avg_exploitability"]) for x, r in zip(xs, rows) if "avg_exploitability" in r]
            ax.plot(*zip(*averaged), lw=1.0, ls="-.", color=colours[label],
                    label=f"{label}, average policy" if first else None)
    if uniform is not None:
        ax.axhline(uniform, color="grey", ls=":", lw=1, label="uniform policy")
    ax.set_yscale("log")
    ax.set_xlabel("hands played" if args.hands else "learner steps")
    ax.set_ylabel("exploitability (NashConv / 2)")
    ax.set_title(args.title)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    save_figure(fig, args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
