"""Training runs with exact-exploitability logs, and the paper's figures as sets of runs.

A *group* is a list of runs (name, config, seed) trained together by one ``RNaDSolver`` (one
process). It writes ``<out>/<group>.csv`` (every ``eval_every`` steps, the exploitability of every
run's regularisation policy, the one Algorithms 1/2 return, in ``exploitability``; of its target
policy; of the reg policy post-processed; and of OpenSpiel's played policy, the target policy
post-processed, in ``played_exploitability``), a checkpoint ``<out>/<group>.pt`` every
``checkpoint_every`` steps and at the end, and on completion ``<out>/<group>.done.json`` plus each run's final policy
``<out>/<run>.npz``. A finished group is never redone; an interrupted one resumes from its
checkpoint, and a finished one asked for more steps continues from its final checkpoint (either way
the result is the same as one uninterrupted run: all randomness is in the checkpoint).
"""

from __future__ import annotations

import csv
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from agent_zoo.rnad.agent import RNaDAgent
from agent_zoo.rnad.config import RNaDConfig, variant_config
from agent_zoo.rnad.evaluate import ExactEvaluator
from agent_zoo.rnad.learner import RNaDSolver
from agent_zoo.rnad.numpy_net import post_process_policy

SEEDS = (0, 1, 2)
CSV_FIELDS = (
    "step", "run", "variant", "seed", "exploitability", "nash_conv", "target_exploitability", "pp_exploitability",
    "played_exploitability", "seconds",
)  # fmt: skip


@dataclass(frozen=True)
class RunSpec:
    """One training run: ``variant`` names the curve it belongs to."""

    variant: str
    config: RNaDConfig
    seed: int

    @property
    def name(self) -> str:
        return f"{self.variant}_seed{self.seed}"


def make_leduc_env() -> Any:
    """The Leduc environment as users get it (PettingZoo classic wrappers included)."""
    from poker_envs import leduc_holdem_v0

    return leduc_holdem_v0.env()


def figure_variants(figure: int, **overrides: Any) -> dict[str, RNaDConfig]:
    """The curves of the paper's figure ``figure`` (1, 3, 4 or 5) as configs.

    ``overrides`` change the base config of every curve; the rates a figure varies are set relative
    to the base (with the defaults: Fig. 4 compares reg_gamma 0.01 and 0.001, Fig. 5 target_gamma
    0.001 and 0.0001, as the paper).
    """
    base = RNaDConfig(**overrides)

    def cfg(variant: str, **changes: Any) -> RNaDConfig:
        return variant_config(variant, **{**overrides, **changes})

    if figure == 1:  # R-NaD for several eta; eta = 0 is NeuRD without reward transformation
        return {f"rnad-eta{eta:g}": cfg("rnad", eta=eta) for eta in (0.0, 0.05, 0.2, 0.5)}
    if figure == 3:  # baseline vs two-stage averaging by AM or EMA
        return {v: cfg(v) for v in ("rnad", "two-stage-am", "two-stage-ema")}
    if figure == 4:  # second-stage EMA rate (x10 vs base), and the section 5.3 schedule
        fast, slow = min(10 * base.reg_gamma, 1.0), base.reg_gamma
        return {
            f"two-stage-ema-g{fast:g}": cfg("two-stage-ema", reg_gamma=fast),
            f"two-stage-ema-g{slow:g}": cfg("two-stage-ema", reg_gamma=slow),
            f"two-stage-ema-g{slow:g}-schedule": cfg("two-stage-ema", reg_gamma=slow, reg_gamma_schedule=True),
        }
    if figure == 5:  # changing R-NaD's own averaging instead: slower EMA (/10), or AM
        return {
            "rnad": cfg("rnad"),
            f"rnad-g{base.target_gamma / 10:g}": cfg("rnad", target_gamma=base.target_gamma / 10),
            "rnad-target-am": cfg("rnad", target_averaging="am"),
        }
    raise ValueError(f"figure must be one of 1, 3, 4, 5 (figure 2's distribution averaging is not implemented), got {figure}")


def _write_csv(path: Path, rows: list[dict[str, Any]]) -> None:
    tmp = path.with_suffix(".csv.tmp")
    with open(tmp, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    os.replace(tmp, path)


def train_group(
    group: str,
    runs: Sequence[RunSpec],
    steps: int,
    out_dir: str | Path,
    eval_every: int = 500,
    checkpoint_every: int = 5000,
    make_env: Callable[[], Any] = make_leduc_env,
    progress: bool = True,
    position: int = 0,
) -> dict[str, Any]:
    """Train ``runs`` together for ``steps`` learner steps (resuming if a checkpoint exists)."""
    if steps < 1 or eval_every < 1 or checkpoint_every < 1:
        raise ValueError(f"steps, eval_every and checkpoint_every must be >= 1, got {steps}, {eval_every}, {checkpoint_every}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    done_path, ckpt_path, csv_path = out / f"{group}.done.json", out / f"{group}.pt", out / f"{group}.csv"
    if done_path.exists():
        done = json.loads(done_path.read_text())
        if done["steps"] == steps:
            return done
        if done["steps"] > steps or not ckpt_path.exists():
            raise ValueError(
                f"{done_path} holds a finished run of {done['steps']} steps; it can only be continued to more steps "
                f"from its checkpoint {ckpt_path.name} (present: {ckpt_path.exists()}): use another --out"
            )
    solver = RNaDSolver(make_env, [r.config for r in runs], [r.seed for r in runs])
    evaluator = ExactEvaluator.for_env(solver.envs[0])
    rows: list[dict[str, Any]] = []
    seconds = 0.0
    if ckpt_path.exists():
        state = torch.load(ckpt_path, weights_only=False)
        if state["solver"]["learner_steps"] > steps:
            raise ValueError(f"{ckpt_path} is at step {state['solver']['learner_steps']}, beyond {steps}: use another --out")
        solver.load_state_dict(state["solver"])
        rows, seconds = state["rows"], state["seconds"]
        done_path.unlink(missing_ok=True)  # being continued: no longer finished

    def evaluate() -> None:
        reg_policies = solver.policies("reg", evaluator.obs, evaluator.legal)
        reg = evaluator.many(reg_policies)
        tgt_policies = solver.policies("target", evaluator.obs, evaluator.legal)
        tgt = evaluator.many(tgt_policies)
        pp = evaluator.many(post_process_policy(reg_policies))  # OpenSpiel's post-processing, on the reg policy
        played = evaluator.many(post_process_policy(tgt_policies))  # what OpenSpiel's R-NaD played and scored
        for run, r, t, q, o in zip(runs, reg, tgt, pp, played, strict=True):
            rows.append({
                "step": solver.learner_steps, "run": run.name, "variant": run.variant, "seed": run.seed,
                "exploitability": r.exploitability, "nash_conv": r.nash_conv,
                "target_exploitability": t.exploitability, "pp_exploitability": q.exploitability,
                "played_exploitability": o.exploitability, "seconds": round(seconds, 3),
            })  # fmt: skip

    def checkpoint() -> None:
        tmp = ckpt_path.with_suffix(".pt.tmp")
        torch.save({"solver": solver.state_dict(), "rows": rows, "seconds": seconds}, tmp)
        os.replace(tmp, ckpt_path)
        _write_csv(csv_path, rows)

    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=steps, initial=solver.learner_steps, desc=group, position=position, leave=True, mininterval=2.0)
    if solver.learner_steps == 0:
        evaluate()
    start = time.perf_counter() - seconds
    while solver.learner_steps < steps:
        solver.step()
        seconds = time.perf_counter() - start
        if solver.learner_steps % eval_every == 0 or solver.learner_steps == steps:
            evaluate()
        if solver.learner_steps % checkpoint_every == 0 or solver.learner_steps == steps:
            checkpoint()
        if bar is not None and solver.learner_steps % 100 == 0:
            bar.update(solver.learner_steps - bar.n)
    if bar is not None:
        bar.update(solver.learner_steps - bar.n)
        bar.close()
    _write_csv(csv_path, rows)
    final = {}
    game = str(getattr(solver.envs[0], "unwrapped", solver.envs[0]).game.name)
    for r, run in enumerate(runs):
        res = [row for row in rows if row["run"] == run.name][-1]
        final[run.name] = {
            "exploitability": res["exploitability"], "nash_conv": res["nash_conv"],
            "played_exploitability": res.get("played_exploitability", ""),
        }  # fmt: skip
        info = {"game": game, "variant": run.variant, "seed": run.seed, "steps": steps, "config": run.config.to_dict()}
        info.update(final[run.name])
        RNaDAgent(solver.net_arrays("reg", r), solver.num_actions, run.config.torso_activate_final, info).save(
            out / f"{run.name}.npz"
        )
    done = {"group": group, "steps": steps, "seconds": seconds, "runs": [r.name for r in runs], "final": final}
    done_path.write_text(json.dumps(done, indent=1))
    return done


def split_groups(runs: Sequence[RunSpec], jobs: int) -> list[list[RunSpec]]:
    """Deal runs round-robin into ``jobs`` groups (one process each)."""
    jobs = max(1, min(jobs, len(runs)))
    return [list(runs[i::jobs]) for i in range(jobs)]


def _group_worker(args: tuple) -> dict[str, Any]:
    group, runs, steps, out, eval_every, checkpoint_every, position, threads, progress = args
    torch.set_num_threads(threads)
    return train_group(group, runs, steps, out, eval_every, checkpoint_every, progress=progress, position=position)


def run_figure(
    figure: int, steps: int, out_dir: str | Path, jobs: int = 1, eval_every: int = 500,
    checkpoint_every: int = 5000, seeds: Sequence[int] = SEEDS, threads: int = 1, progress: bool = True,
    **overrides: Any,
) -> dict[str, Any]:  # fmt: skip
    """All runs of a figure (variants x seeds) in ``jobs`` processes of ``threads`` torch threads each, then
    its CSV summary and PNG."""
    variants = figure_variants(figure, **overrides)
    runs = [RunSpec(v, cfg, s) for v, cfg in variants.items() for s in seeds]
    out = Path(out_dir)
    groups = split_groups(runs, jobs)
    tasks = [(f"fig{figure}_part{i}of{len(groups)}", g, steps, out, eval_every, checkpoint_every, i, threads, progress)
             for i, g in enumerate(groups)]
    start = time.perf_counter()
    if len(tasks) == 1:
        results = [_group_worker(tasks[0])]
    else:
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(len(tasks), mp_context=mp.get_context("spawn")) as pool:
            results = list(pool.map(_group_worker, tasks))
    wall = time.perf_counter() - start
    rows = read_logs([out / f"{task[0]}.csv" for task in tasks])
    summary = summarize(rows, list(variants), steps)
    if all(r.get("pp_exploitability") for r in rows):  # logs written before the column existed lack it
        summary["post_processed"] = summarize(rows, list(variants), steps, column="pp_exploitability")
    if all(r.get("played_exploitability") for r in rows):
        summary["played"] = summarize(rows, list(variants), steps, column="played_exploitability")
    summary.update({"figure": figure, "steps": steps, "wall_seconds_this_call": wall,
                    "group_seconds": {r["group"]: r["seconds"] for r in results}})  # fmt: skip
    (out / f"fig{figure}_summary.json").write_text(json.dumps(summary, indent=1))
    changed = ", ".join(f"{k}={v}" for k, v in overrides.items())
    title = f"Figure {figure}: Leduc, {steps} steps, seeds {list(seeds)}" + (f"\n{changed}" if changed else "")
    plot_figure(rows, list(variants), out / f"fig{figure}.png", title)
    if "post_processed" in summary:
        plot_figure(rows, list(variants), out / f"fig{figure}_post_processed.png", title, column="pp_exploitability")
    if "played" in summary:
        plot_figure(rows, list(variants), out / f"fig{figure}_played.png", title, column="played_exploitability")
    return summary


def read_logs(paths: Sequence[str | Path]) -> list[dict[str, Any]]:
    """The rows of one or more experiment CSV logs."""
    rows: list[dict[str, Any]] = []
    for path in paths:
        with open(path, newline="") as f:
            rows.extend(csv.DictReader(f))
    return rows


def _ratio(a: float, b: float) -> float:
    """a / b, with 0 / 0 = 0 and a / 0 = inf for a > 0."""
    return float(a / b) if b > 0 else (0.0 if a == 0 else float("inf"))


Curves = dict[str, dict[int, tuple[np.ndarray, np.ndarray]]]  # variant -> seed -> (steps, values), by step


def curves(rows: Sequence[dict[str, Any]], column: str = "exploitability") -> Curves:
    """The log's ``column`` per variant and seed as step-sorted arrays (one pass over the rows)."""
    grouped: dict[str, dict[int, list[tuple[int, float]]]] = {}
    for r in rows:
        grouped.setdefault(r["variant"], {}).setdefault(int(r["seed"]), []).append((int(r["step"]), float(r[column])))
    out: Curves = {}
    for v, seeds in grouped.items():
        out[v] = {}
        for seed, points in sorted(seeds.items()):
            arr = np.array(sorted(points))
            out[v][seed] = (arr[:, 0].astype(np.int64), arr[:, 1])
    return out


def summarize(
    rows: Sequence[dict[str, Any]] | Curves, variants: Sequence[str], steps: int, column: str = "exploitability"
) -> dict[str, Any]:
    """Per variant and seed, as if training had stopped at ``steps``: the exploitability (``column`` of the
    log) at the last logged step <= ``steps`` and its std and mean over the last fifth (steps >= 0.8 T);
    then the goal per seed against R-NaD. ``rows`` may be ``curves(...)`` already."""
    data = rows if isinstance(rows, dict) else curves(rows, column)
    out: dict[str, Any] = {"variants": {}}
    for v in variants:
        per_seed = {}
        for seed, (x, y) in data[v].items():
            upto = x <= steps
            last = y[upto & (x >= 0.8 * steps)]
            per_seed[seed] = {"final": float(y[upto][-1]), "last_fifth_std": float(np.std(last)), "last_fifth_mean": float(np.mean(last))}
        finals = [d["final"] for d in per_seed.values()]
        stds = [d["last_fifth_std"] for d in per_seed.values()]
        out["variants"][v] = {"seeds": per_seed, "final_mean": float(np.mean(finals)), "last_fifth_std_mean": float(np.mean(stds))}
    base = out["variants"].get("rnad")
    for v, d in out["variants"].items():
        if base is None or v == "rnad" or set(d["seeds"]) != set(base["seeds"]):
            continue
        # The goal, per seed: final below R-NaD's final, last-fifth std at most half of R-NaD's.
        d["vs_rnad"] = {
            str(seed): {
                "final_below": bool(x["final"] < base["seeds"][seed]["final"]),
                "std_ratio": _ratio(x["last_fifth_std"], base["seeds"][seed]["last_fifth_std"]),
            }
            for seed, x in d["seeds"].items()
        }
    return out


def goal_met(summary: dict[str, Any], variant: str = "two-stage-ema") -> tuple[bool, bool]:
    """The goal for ``variant``: (final below R-NaD's in every seed, last-fifth std <= half in every seed)."""
    vs = summary["variants"][variant]["vs_rnad"].values()
    return all(d["final_below"] for d in vs), all(d["std_ratio"] <= 0.5 for d in vs)


def plot_figure(
    rows: Sequence[dict[str, Any]], variants: Sequence[str], path: Path, title: str, column: str = "exploitability"
) -> None:
    """Mean over seeds with the min-max band, per variant, of ``column`` (matplotlib, imported here only)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 4.2))
    ax = fig.subplots()
    data = curves(rows, column)
    for v in variants:
        runs = list(data[v].values())
        n = min(len(x) for x, _ in runs)
        x = runs[0][0][:n]
        y = np.array([values[:n] for _, values in runs])
        (line,) = ax.plot(x, y.mean(0), label=v, lw=1.3)
        ax.fill_between(x, y.min(0), y.max(0), color=line.get_color(), alpha=0.2, lw=0)
    ax.set_xlabel("learner steps T")
    what = {"pp_exploitability": "post-processed reg policy, ", "played_exploitability": "played policy, ",
            "target_exploitability": "target policy, "}.get(column, "")  # fmt: skip
    ax.set_ylabel(f"exploitability ({what}NashConv / 2, chips)")
    ax.set_title(title, fontsize=9)
    ax.set_ylim(bottom=0.0)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    from agent_zoo.figures import save_figure
    save_figure(fig, path, dpi=120)


def train_one(
    variant: str, steps: int, seed: int, out_dir: str | Path | None, eval_every: int = 500, progress: bool = True, **overrides: Any
) -> dict[str, Any]:
    """The CLI's ``train``: one run; returns final exploitability, nash_conv and seconds."""
    run = RunSpec(variant, variant_config(variant, **overrides), seed)
    if out_dir is None:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            done = train_group(run.name, [run], steps, tmp, eval_every, checkpoint_every=10**12, progress=progress)
    else:
        done = train_group(run.name, [run], steps, out_dir, eval_every, checkpoint_every=5000, progress=progress)
    res = done["final"][run.name]
    return {"variant": variant, "seed": seed, "steps": steps, "exploitability": res["exploitability"],
            "nash_conv": res["nash_conv"], "played_exploitability": res["played_exploitability"],
            "seconds": done["seconds"]}  # fmt: skip
