"""The LBR experiments of docs/results/lbr.md, with the protocol fixed here (settings, seeds, hands).

    python docs/results/lbr/run.py leduc push_fold nolimit --out docs/results/lbr

Writes ``<part>.json`` per part: for every case and seed, LBR's mean per hand, its 95% CI half-width
and hands per second; Leduc and push/fold cases also carry the exact best-response value where known.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from agent_zoo.cfr import GameTree, exploitability, make_solver
from agent_zoo.cfr.agent import TabularPolicyAgent
from agent_zoo.cfr.policy_io import infoset_observations
from agent_zoo.lbr import LocalBestResponse
from agent_zoo.registry import make_agent
from poker_envs import leduc_holdem_v0, nolimit_holdem_v0, push_fold_v0

SEEDS = (1, 2, 3)
LEDUC_HANDS = 5000
PUSH_FOLD_HANDS = 1000
NOLIMIT_HANDS = 150
NOLIMIT_AGENTS = (("random", {}), ("heuristic", {}), ("heuristic", {"bet_sizing": "chips"}))


def _play(env: Any, agent: Any, hands: int, seed: int) -> dict[str, float]:
    start = time.perf_counter()
    r = LocalBestResponse(env, agent).evaluate(hands, seed)
    return {"seed": seed, "lbr": r.mean, "ci95": r.ci95, "hands": r.hands, "hands_per_second": hands / (time.perf_counter() - start)}


def leduc() -> list[dict[str, Any]]:
    env = leduc_holdem_v0.env()
    tree = GameTree.build(env.unwrapped.game)
    obs = infoset_observations(tree, env.unwrapped.encoder)
    policies = [("uniform", tree.uniform_policy())]
    solver, done = make_solver(tree, "cfr+"), 0
    for iterations in (3, 20, 200, 2000):
        solver.iterate(iterations - done)
        done = iterations
        policies.append((f"CFR+ {iterations} iterations", solver.average_policy()))
    out = []
    for label, policy in policies:
        agent = TabularPolicyAgent(obs, policy, tree.infoset_keys)
        exact = float(exploitability(tree, policy).br_values.mean())
        out.append({"agent": label, "exact_br": exact, "runs": [_play(env, agent, LEDUC_HANDS, s) for s in SEEDS]})
    return out


def push_fold() -> list[dict[str, Any]]:
    out = []
    for stack, specs in ((5.0, ("push_fold", "push_fold:40", "random")), (10.0, ("push_fold", "push_fold:2", "random"))):
        env = push_fold_v0.env(stack_bb=stack)
        for spec in specs:
            out.append({"agent": spec, "stack_bb": stack, "runs": [_play(env, make_agent(spec, env), PUSH_FOLD_HANDS, s) for s in SEEDS]})
    return out


def push_fold_exact() -> list[dict[str, Any]]:
    """Exact best-response value (mean of the two seats, BB/hand) against each push/fold case's chart
    (random: push and call with probability 1/2), from the solver's exact matrices."""
    import numpy as np

    from agent_zoo.push_fold.solver import PushFoldSolver, PushFoldSolverConfig, solve_push_fold

    out = []
    for stack, charts in ((5.0, ("push_fold", "push_fold:40", "random")), (10.0, ("push_fold", "push_fold:2", "random"))):
        solver = PushFoldSolver(PushFoldSolverConfig(stack, 0.0))
        for spec in charts:
            if spec == "random":
                push = call = np.full(169, 0.5)
            else:
                chart = solve_push_fold(float(spec.partition(":")[2] or stack))
                push, call = chart.sb_push, chart.bb_call
            g_sb, g_bb = solver.gains(push, call)
            sb_br = solver.m.base_sb + float(np.maximum(g_sb, 0).sum())  # LBR's seat-0 bound: the best push set
            bb_br = -solver.sb_value(push, (g_bb > 0).astype(float))  # the best call set against the chart's pushes
            out.append({"agent": spec, "stack_bb": stack, "exact_br": (sb_br + bb_br) / 2, "exact_sb": sb_br, "exact_bb": bb_br})
    return out


def nolimit(extra: list[str]) -> list[dict[str, Any]]:
    out = []
    agents = list(NOLIMIT_AGENTS) + [(spec, {}) for spec in extra]
    for spec, config in agents:
        env = nolimit_holdem_v0.env(**({"bet_sizing": "abstract"} | config))
        runs = [_play(env, make_agent(spec, env), NOLIMIT_HANDS, s) for s in SEEDS]
        out.append({"agent": spec, "env": {"bet_sizing": "abstract"} | config, "runs": runs})
        print(spec, config, runs, file=sys.stderr)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("parts", nargs="+", choices=("leduc", "push_fold", "push_fold_exact", "nolimit"), help="experiments to run")
    p.add_argument("--out", default="docs/results/lbr", help="folder for the JSON files")
    p.add_argument("--extra-agent", nargs="*", default=[], help="more no-limit agent specs (e.g. sb3:out/lbr/ppo_nolimit.zip)")
    args = p.parse_args()
    Path(args.out).mkdir(parents=True, exist_ok=True)
    for part in args.parts:
        result = nolimit(args.extra_agent) if part == "nolimit" else globals()[part]()
        (Path(args.out) / f"{part}.json").write_text(json.dumps(result, indent=1))
        print(f"wrote {part}.json", file=sys.stderr)


if __name__ == "__main__":
    main()
