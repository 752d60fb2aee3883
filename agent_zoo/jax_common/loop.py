"""The host loop of the JAX trainers: compile the update once, call it, log, checkpoint, resume.

A trainer gives a run state (one pytree with an ``update`` counter), a pure ``update`` function
state -> (state, metrics) that does one whole update on the device, and the header of its checkpoints;
``run`` resumes from ``out``'s latest checkpoint, calls the compiled update until ``config.num_updates``,
writes ``checkpoint_<update>.npz`` every ``checkpoint_interval`` updates (and the untrained state and the
last update), and returns the timing and the log.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import jax
import numpy as np

from agent_zoo.jax_common.checkpoint import (
    LATEST,
    LOG,
    RunConfig,
    resume,
    save_checkpoint,
)
from agent_zoo.jax_common.devices import Placement, host_state, writes_files

_COMPILED: dict[str, Any] = {}  # the compiled update of each program (config minus what only the host uses)


def compiled(config: RunConfig, make_update: Callable[[], Callable[[Any], Any]], state: Any, placement: Placement | None = None) -> Any:
    """``jax.jit(make_update())`` compiled ahead of time for ``state``'s shapes (and ``placement`` over several
    devices), once per process for configurations that differ only in seed, total steps or checkpoint interval
    (a resume reuses it)."""
    program = type(config).__name__ + replace(config, seed=0, total_steps=1, checkpoint_interval=1).to_json()  # type: ignore[type-var]
    if program not in _COMPILED:
        _COMPILED[program] = (jax.jit(make_update()).lower(state).compile() if placement is None
                              else placement.compile(make_update(), state))
    return _COMPILED[program]


def run(config: RunConfig, state: Any, make_update: Callable[[], Callable[[Any], Any]], header: dict[str, Any],
        obs_scale: np.ndarray, out: str | Path | None, progress: bool, postfix: Callable[[dict[str, float]], dict[str, str]],
        placement: Placement | None = None) -> dict[str, Any]:
    """Run (or resume, from ``out``'s latest checkpoint) ``config`` from ``state``; ``header`` goes into every
    checkpoint (with the update), ``postfix`` turns a log row into the progress bar's postfix; ``placement``
    spreads the state over several devices (``jax_common.devices``; only process 0 writes files). The summary:
    steps (whole updates), updates, resumed_from, seconds (the update loop: learning and environment,
    compilation not), compile_seconds, steps_per_second (None when nothing was left to run), the log of this
    run (``log``: every update's row, earlier sessions' too), the rows this call added (``new_rows``) and the
    final ``state``."""
    from tqdm import tqdm

    folder = Path(out) if out is not None else None
    log: list[dict[str, Any]] = []
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        state, log = resume(folder, config, state)
    if placement is not None:
        state = placement.put(state)
    start = int(state.update)
    t0 = time.perf_counter()
    update = compiled(config, make_update, state, placement) if start < config.num_updates else None
    compile_seconds = time.perf_counter() - t0

    def save(s: Any) -> None:
        name = f"checkpoint_{int(s.update)}.npz"
        s = host_state(s)  # every process gathers (a collective), process 0 writes
        if not writes_files():
            return
        save_checkpoint(folder / name, s, header | {"update": int(s.update)}, obs_scale)
        (folder / LOG).write_text("".join(json.dumps(x) + "\n" for x in log))
        (folder / LATEST).write_text(json.dumps({"checkpoint": name, "update": int(s.update), "config": config.to_dict()}, indent=1) + "\n")

    if folder is not None and start == 0:
        save(state)  # the untrained network too: the first point of a learning curve
    spu = config.steps_per_update
    # The bar counts the steps the run will take (whole updates), so it ends at 100% and stays on screen.
    bar = tqdm(total=config.num_updates * spu, initial=start * spu, unit="step", disable=not progress or not writes_files(), leave=True)
    t0 = time.perf_counter()
    new_rows = []
    for _ in range(start, config.num_updates):
        state, metrics = update(state)
        row = {"update": int(state.update), "steps": int(state.update) * spu} | {k: float(v) for k, v in jax.device_get(metrics).items()}
        log.append(row)
        new_rows.append(row)
        bar.update(spu)
        bar.set_postfix(postfix(row), refresh=False)
        if folder is not None and (int(state.update) % config.checkpoint_interval == 0 or int(state.update) == config.num_updates):
            save(state)
    seconds = time.perf_counter() - t0
    bar.close()
    done = config.num_updates - start
    return {
        "steps": int(state.update) * spu, "steps_requested": config.total_steps, "steps_per_update": spu,
        "updates": int(state.update), "resumed_from": start if start else None,
        "seconds": seconds, "compile_seconds": compile_seconds,
        "steps_per_second": done * spu / seconds if done else None,
        "log": log, "new_rows": new_rows, "out": str(folder) if folder is not None else None, "state": state,
    }
