"""R-NaD speed on Leduc: the torch learner (``agent_zoo.rnad``) and the on-device JAX one (``agent_zoo.jax_rnad``).

Usage: ``python benchmarks/rnad_speed.py [--steps 300] [--runs 1 9] [--jax-steps 5000] [--jax-batch 1 16 64]
[--hidden 256 256] [--torch-batch 1]``.
Prints, per number of runs trained together (R), the torch solver's learner steps/s of the whole solver and
per run, how the step time splits between playing hands (env + actor) and learning, and the time of one
exact exploitability evaluation of every run's policy (all 936 information sets in one forward pass + best
responses). Then, in the same process, the JAX trainer's learner steps/s for each K of ``--jax-batch``
(hands per learner step; the torch learner's is 1) over ``--jax-steps`` learner steps (compilation timed
apart), and the ratio JAX / torch at K = 1 (torch R = 1): the same algorithm and step, the same Leduc;
then the solver samples (hands) per second of the fastest JAX row over torch's (R = 1) at ``--torch-batch``.
The networks differ in shape: torch has OpenSpiel's shared ReLU torso, JAX separate tanh policy and value
networks (about twice the arithmetic); ``--hidden`` sets the layer widths of both (default 256 x 256). Single-threaded torch, as the CLI runs by
default; JAX uses what XLA takes. OpenSpiel's own R-NaD (JAX) was removed from OpenSpiel, so there is no
outside peer.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import Any

import torch

from agent_zoo import cli
from agent_zoo.rnad.config import RNaDConfig
from agent_zoo.rnad.evaluate import ExactEvaluator
from agent_zoo.rnad.experiment import make_leduc_env
from agent_zoo.rnad.learner import RNaDSolver


def bench(runs: int, steps: int, hidden: tuple[int, ...] = (256, 256), batch_size: int = 1) -> dict[str, float]:
    """The torch solver with ``runs`` runs trained together, K = ``batch_size``, timed over ``steps`` learner steps."""
    solver = RNaDSolver(make_leduc_env, [RNaDConfig(hidden_sizes=hidden, batch_size=batch_size)] * runs, list(range(runs)))
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
        "batch_size": batch_size,
        "hands_per_s": runs * batch_size * steps / full,
        "play_share": collect_s / total,
        "eval_ms": eval_s * 1e3,
        "eval_vs_500_steps": eval_s / (500 * full / steps),
    }


def jax_bench(batch_size: int, steps: int, hidden: tuple[int, ...] = (256, 256)) -> dict[str, float]:
    """The JAX trainer on Leduc with K = ``batch_size``, layers ``hidden``, defaults otherwise, ``steps`` learner steps."""
    from agent_zoo.jax_rnad.config import RNaDJaxConfig
    from agent_zoo.jax_rnad.train import train

    per_update = min(500, steps)
    config = RNaDJaxConfig(game="leduc", batch_size=batch_size, total_steps=steps, steps_per_update=per_update,
                           hidden_sizes=hidden, devices=1)  # one device, as the torch learner
    r = train(config, out=None, progress=False, exploitability=False)
    return {"batch_size": batch_size, "steps": r["steps"], "steps_per_s": r["steps_per_second"],
            "hands_per_s": r["steps_per_second"] * batch_size, "decisions_per_s": r["decisions_per_second"],
            "compile_s": r["compile_seconds"]}


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = cli.parser("benchmarks/rnad_speed.py", __doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=cli.positive_int, default=300, help="torch learner steps to time (after 20 warm-up steps)")
    parser.add_argument("--runs", type=cli.positive_int, nargs="+", default=[1, 9], help="torch runs trained together (R), one row each")
    parser.add_argument("--jax-steps", type=cli.positive_int, default=5_000, help="JAX learner steps to time per row")
    parser.add_argument("--jax-batch", type=cli.positive_int, nargs="+", default=[1, 16, 64], help="K (hands per learner step) of each JAX row")
    parser.add_argument("--hidden", type=cli.positive_int, nargs="+", default=[256, 256], help="hidden layer widths of both learners' networks")
    parser.add_argument("--torch-batch", type=cli.positive_int, default=1, help="K (hands per learner step) of the torch rows")
    cli.add_json(parser, "the figures")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    hidden = tuple(args.hidden)
    torch_rows = [bench(runs, args.steps, hidden, args.torch_batch) for runs in args.runs]
    jax_rows = [jax_bench(k, args.jax_steps, hidden) for k in args.jax_batch]
    base = next((r for r in torch_rows if r["runs"] == 1), None)
    same_k = next((r for r in jax_rows if r["batch_size"] == 1), None)
    ratio = same_k["steps_per_s"] / base["steps_per_s"] if base and same_k and args.torch_batch == 1 else None
    fastest = max(jax_rows, key=lambda r: r["hands_per_s"])
    samples = fastest["hands_per_s"] / base["hands_per_s"] if base else None
    result = {"cpu_count": os.cpu_count(), "load_average": os.getloadavg()[0], "hidden": list(hidden), "torch": torch_rows,
              "jax": jax_rows, "jax_over_torch_k1": ratio, "jax_over_torch_hands": samples}
    if cli.emit_json(result, args.json):
        return result
    print(f"cpu count {os.cpu_count()}, load average {os.getloadavg()[0]:.2f} (shared machine: figures vary with load)")
    print(f"networks: hidden {' x '.join(map(str, hidden))}")
    print(f"torch R-NaD (agent_zoo.rnad), K = {args.torch_batch}:")
    print(f"{'R':>3} {'solver steps/s':>15} {'run-steps/s':>12} {'hands/s':>10} {'play share':>11} {'eval ms (R runs)':>17} {'eval / 500 steps':>17}")
    for r in torch_rows:
        print(
            f"{r['runs']:>3} {r['steps_per_s']:>15.1f} {r['run_steps_per_s']:>12.1f} {r['hands_per_s']:>10,.0f} {r['play_share']:>11.0%}"
            f" {r['eval_ms']:>17.1f} {r['eval_vs_500_steps']:>17.1%}"
        )
    print("JAX R-NaD (agent_zoo.jax_rnad), one run:")
    print(f"{'K':>5} {'learner steps':>14} {'steps/s':>10} {'hands/s':>10} {'decisions/s':>12} {'compile s':>10}")
    for r in jax_rows:
        print(f"{r['batch_size']:>5} {r['steps']:>14,} {r['steps_per_s']:>10,.0f} {r['hands_per_s']:>10,.0f} "
              f"{r['decisions_per_s']:>12,.0f} {r['compile_s']:>10.1f}")
    if ratio is not None:
        print(f"JAX / torch learner steps per second at K = 1 (one run each): {ratio:.1f}x")
    if samples is not None:
        print(f"JAX (K = {fastest['batch_size']}) / torch (R = 1, K = {args.torch_batch}) solver samples (hands) per second: {samples:.1f}x")
    return result


if __name__ == "__main__":
    main()
