"""Cluster players by their play logs (Koyama's thesis) and play a cluster's policy in the tournament.

    python examples/cluster_logs.py                         # a few minutes on CPU
    python -m agent_zoo.clustering agents [--quick]         # the thesis' section 5.2 with its tables

1. The twelve rule-based players (A..L) play limit hold'em, 8 of them drawn per hand as in the thesis,
   and every decision is logged as (flat107 observation, action).
2. k learners (107-64-64-3 networks) cluster the twelve logs: train each learner on its logs, move each
   log to the learner that predicts it best, until nothing moves (``agent_zoo.clustering``).
3. Each cluster's learner becomes a ``ClusteredPolicyAgent``; the first is saved and named ``cluster:<file>``
   in a heads-up tournament against the players it learned from.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from agent_zoo import cli


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = cli.parser("examples/cluster_logs.py", __doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=3000, help="8-player hands played to make the logs")
    parser.add_argument("--k", type=int, default=4, help="number of learners (clusters)")
    parser.add_argument("--rounds", type=int, default=10, help="most train/reassign rounds")
    parser.add_argument("--tournament-hands", type=int, default=2000, help="hands per heads-up match of the tournament")
    cli.add_seed(parser)
    cli.add_out(parser, "out/examples/cluster_logs", "the saved cluster agent")
    cli.add_threads(parser)
    cli.add_progress(parser)
    args = parser.parse_args(argv)

    import torch

    from agent_zoo.clustering.agent import ClusteredPolicyAgent
    from agent_zoo.clustering.kmeans import ClusteringConfig, LogClustering, LogSet
    from agent_zoo.clustering.learners import SPEC_107
    from agent_zoo.clustering.play import play_hands, style
    from agent_zoo.clustering.rule_based import AGENTS, make_rule_agent
    from agent_zoo.tournament import TournamentConfig, run_tournament

    torch.set_num_threads(args.threads)
    out = cli.out_dir(args.out)
    start = time.perf_counter()
    letters = list(AGENTS)
    pool = [make_rule_agent(letter) for letter in letters]
    records = play_hands(
        pool, args.hands, lambda rng: rng.choice(len(pool), size=8, replace=False), "flat107", args.seed, progress=not args.no_progress
    )
    data = LogSet.from_logs([rec.log()[:2] for rec in records], [f"rule:{c}" for c in letters])
    print(f"{args.hands} hands: {len(data.y)} decisions logged from {data.n_logs} players ({time.perf_counter() - start:.0f} s)")

    config = ClusteringConfig(k=args.k, max_rounds=args.rounds, seed=args.seed)
    result = LogClustering(SPEC_107, config).fit(data, progress=not args.no_progress)
    print(f"clustering: {result.rounds} rounds, converged={result.converged}")
    print(f"{'player':<8}{'cluster':>8}{'in-sample':>10}{'looseness':>11}{'aggression':>12}")
    for i, name in enumerate(data.names):
        loose, aggr = style(records[i].counts)
        print(f"{name:<8}{int(result.labels[i]):>8}{result.scores[i, result.labels[i]]:>10.3f}{loose:>11.2f}{aggr:>12.2f}")

    used = sorted(set(result.labels.tolist()))
    first = used[0]
    members = [n for n, lab in zip(data.names, result.labels) if lab == first]
    path = out / f"cluster_{first}.pt"
    ClusteredPolicyAgent(result.learners[first], "flat107", name=f"cluster{first}").save(path, members=members)
    print(f"cluster {first} ({', '.join(members)}) saved as {path}")
    agents = [f"cluster:{path}", *members[:2], "rule:C" if "rule:C" not in members else "rule:A", "random"]
    agents = list(dict.fromkeys(agents))  # keep order, drop repeats
    tournament = run_tournament(TournamentConfig(
        game="limit", agents=agents, hands=args.tournament_hands, seed=args.seed, env_config={"obs_encoder": "flat107"}, progress=False
    ))
    print(tournament.table())
    print(f"{time.perf_counter() - start:.0f} s in all")
    return {"labels": np.asarray(result.labels), "names": data.names, "tournament": tournament, "policy": path}


if __name__ == "__main__":
    main()
