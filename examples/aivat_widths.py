"""Plain vs AIVAT 95% interval widths at equal hands (the protocol of docs/results/evaluation.md).

    python examples/aivat_widths.py --out docs/results/aivat

Each match is one tournament per seed with ``variance_reduction="aivat"``: both intervals come from the same
hands. Prints a table, writes ``aivat_widths.json`` and ``aivat_widths.png`` (interval widths, plain vs AIVAT).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from agent_zoo import cli

from agent_zoo.tournament import TournamentConfig, run_tournament

MATCHES = (  # (label, game, agents, hands per seed, players, seeds)
    ("(a) push_fold vs random", "push_fold", ["push_fold", "random"], 2000, 2, (1, 2, 3)),
    ("(b) heuristic vs random, HU NL", "nolimit", ["heuristic", "random"], 600, 2, (1, 2, 3)),
    ("(c) 6-max NL table", "nolimit", ["random", "heuristic", "fold", "random:kinds"], 300, 6, (1, 2)),
)


def main(argv: Sequence[str] | None = None) -> None:
    parser = cli.parser("examples/aivat_widths.py", __doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="folder for aivat_widths.json and .png")
    parser.add_argument("--only", default=None, help="run the matches whose label starts with this, e.g. '(a)'")
    parser.add_argument("--seeds", type=int, nargs="+", default=None,
                        help="tournament seeds of every match instead of the protocol's (1 2 3; 1 2 for the 6-max table)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "aivat_widths.json"
    rows = json.loads(path.read_text()) if path.exists() else []  # finished runs are kept (resume)
    done = {(r["match"], r["seed"]) for r in rows}
    for label, game, agents, hands, players, seeds in MATCHES:
        if args.only and not label.startswith(args.only):
            continue
        for seed in args.seeds or seeds:
            if (label, seed) in done:
                continue
            r = run_tournament(TournamentConfig(game=game, agents=agents, hands=hands, seed=seed, players=players, progress=False,
                               variance_reduction="aivat"))
            a = r.aivat
            assert a is not None
            for i, name in enumerate(r.agents):
                rows.append({"match": label, "seed": seed, "agent": name, "hands": hands,
                             "plain_mean": float(r.agent_mean[i]), "plain_ci95": float(r.agent_ci95[i]),
                             "aivat_mean": float(a["agent_mean"][i]), "aivat_ci95": float(a["agent_ci95"][i]),
                             "chance_only": name in a["chance_only"]})
            path.write_text(json.dumps(rows, indent=1))
            for row in rows[-len(r.agents):]:
                print(f"{label:<32} seed {seed} {row['agent']:<13} plain {row['plain_mean']:+.3f}±{row['plain_ci95']:.3f}"
                      f"  aivat {row['aivat_mean']:+.3f}±{row['aivat_ci95']:.3f}  ratio {row['plain_ci95'] / row['aivat_ci95']:.2f}x",
                      flush=True)
    plot(rows, args.out / "aivat_widths.png")


def plot(rows: list[dict], path: Path) -> None:
    """Bars of the 95% interval widths, plain vs AIVAT, of every match's first agent per seed."""
    from matplotlib.figure import Figure

    from agent_zoo.figures import save_figure

    first = {}
    for r in rows:
        first.setdefault((r["match"], r["seed"]), r)
    keys = list(first)
    fig = Figure(figsize=(1.0 + 0.9 * len(keys), 4))
    ax = fig.subplots()
    x = range(len(keys))
    ax.bar([i - 0.2 for i in x], [2 * first[k]["plain_ci95"] for k in keys], 0.4, label="plain")
    ax.bar([i + 0.2 for i in x], [2 * first[k]["aivat_ci95"] for k in keys], 0.4, label="AIVAT")
    ax.set_xticks(list(x), [f"{k[0][:3]} {first[k]['agent']}\nseed {k[1]}" for k in keys], fontsize=7)
    ax.set_yscale("log")
    ax.set_ylabel("95% interval width (reward unit per hand)")
    ax.set_title("Tournament intervals at equal hands: plain vs AIVAT")
    ax.legend()
    save_figure(fig, path)


if __name__ == "__main__":
    main()
