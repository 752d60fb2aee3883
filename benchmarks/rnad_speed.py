"""R-NaD speed on Leduc: learner steps per second (K = 1) and the cost of one exact evaluation.

Usage: ``python benchmarks/rnad_speed.py [--steps 300] [--runs 1 9]``. Prints, per number of runs
trained together (R), learner steps/s of the whole solver and per run, how the step time splits
between playing hands (env + actor) and learning, and the time of one exact exploitability
evaluation of every run's policy (all 936 information sets in one forward pass + best responses).
There is no peer to compare with: OpenSpiel's R-NaD (JAX) was removed from OpenSpiel.
Single-threaded torch, as the CLI runs by default.
"""

from __future__ import annotations

import argparse
import os
import time

import torch

from agent_zoo.rnad.config import RNaDConfig
from agent_zoo.rnad.evaluate import ExactEvaluator
from agent_zoo.rnad.experiment import make_leduc_env
from agent_zoo.rnad.learner import RNaDSolver


def bench(runs: int, steps: int) -> dict[str, float]:
    solver = RNaDSolver(make_leduc_env, [RNaDConfig()] * runs, list(range(runs)))
    for _ in range(20):  # warm-up
        solver.step()
    collect_s = learn_s = 0.0
    for _ in range(steps):
        t0 = time.perf_counter()
        traj = solver.collect()
        t1 = time.perf_counter()
        loss, _ = solver.loss(traj)
        solver.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        solver.optimizer.step()
        solver.learner_steps += 1
        t2 = time.perf_counter()
        collect_s += t1 - t0
        learn_s += t2 - t1
    total = collect_s + learn_s
    t0 = time.perf_counter()
    for _ in range(steps):
        solver.step()
    full = time.perf_counter() - t0
    evaluator = ExactEvaluator.for_env(solver.envs[0])
    t0 = time.perf_counter()
    reps = 5
    for _ in range(reps):
        evaluator.many(solver.policies("reg", evaluator.obs, evaluator.legal))
    eval_s = (time.perf_counter() - t0) / reps
    return {
        "runs": runs,
        "steps_per_s": steps / full,
        "run_steps_per_s": runs * steps / full,
        "play_share": collect_s / total,
        "eval_ms": eval_s * 1e3,
        "eval_vs_500_steps": eval_s / (500 * full / steps),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--runs", type=int, nargs="+", default=[1, 9])
    args = parser.parse_args()
    torch.set_num_threads(1)
    print(f"cpu count {os.cpu_count()}, load average {os.getloadavg()[0]:.2f} (shared machine: figures vary with load)")
    print(f"{'R':>3} {'solver steps/s':>15} {'run-steps/s':>12} {'play share':>11} {'eval ms (R runs)':>17} {'eval / 500 steps':>17}")
    for runs in args.runs:
        r = bench(runs, args.steps)
        print(
            f"{r['runs']:>3} {r['steps_per_s']:>15.1f} {r['run_steps_per_s']:>12.1f} {r['play_share']:>11.0%}"
            f" {r['eval_ms']:>17.1f} {r['eval_vs_500_steps']:>17.1%}"
        )


if __name__ == "__main__":
    main()
