"""The checkpoint format of the JAX trainers: one ``checkpoint_<update>.npz`` holds a whole run state.

A checkpoint is an ``.npz`` with a JSON ``header`` (format, trainer config, update, game, num_actions, obs_dim,
steps_per_update, and ``policy``: the name of the parameter set that plays), ``obs_scale`` and one array per
leaf of the run state, named by its pytree path (``params/pi_w0``, ``opt_state/1/0/mu/pi_w0``, ``key`` ...;
PRNG keys as their raw data). A resumed run loads every leaf back, so it is bit-identical to an
uninterrupted one. ``read_header`` needs numpy only (the zoo agent reads checkpoints without JAX); the rest
imports JAX when called. Beside the checkpoints a run folder holds ``latest.json`` (the newest checkpoint
and the run's config) and ``log.jsonl`` (one line of metrics per update).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Protocol

import numpy as np

# format -> (trainer, label of the policy it plays, the parameter set the run's average policy averages; None: the
# one that plays): the trainers that write this format. R-NaD averages its target (theta's EMA).
FORMATS = {
    "jax-ppo-checkpoint-1": ("jax_ppo", "JAX PPO (learner)", None),
    "jax-rnad-checkpoint-1": ("jax_rnad", "JAX R-NaD (regularisation policy)", "target"),
}
LATEST = "latest.json"
LOG = "log.jsonl"


class RunConfig(Protocol):
    """What the shared loop and checkpoints need of a trainer's frozen config dataclass."""

    total_steps: int
    checkpoint_interval: int
    seed: int

    @property
    def steps_per_update(self) -> int: ...

    @property
    def num_updates(self) -> int: ...

    def to_dict(self) -> dict[str, Any]: ...

    def to_json(self) -> str: ...


def read_header(path: str | Path) -> dict[str, Any]:
    """A checkpoint's JSON header, with ``policy`` (the parameter set that plays; ``params`` when the header
    has none), ``averaged`` (the set a run's average policy averages) and ``trainer`` filled in; refuses other
    files."""
    names = " or ".join(trainer for trainer, _, _ in FORMATS.values())
    try:
        with np.load(Path(path), allow_pickle=False) as data:
            header = json.loads(str(data["header"])) if "header" in data.files else {}
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path} is not a {names} checkpoint ({exc})") from None
    if header.get("format") not in FORMATS:
        raise ValueError(f"{path} is not a {names} checkpoint (format {header.get('format')!r}, expected one of {list(FORMATS)})")
    header.setdefault("policy", "params")
    header["trainer"], _, averaged = FORMATS[header["format"]]
    header["averaged"] = averaged or header["policy"]
    return header


def steps_per_update(header: dict[str, Any]) -> int:
    """Steps one update of the checkpoint's run takes (older jax_ppo headers: tables x rollout length)."""
    if "steps_per_update" in header:
        return int(header["steps_per_update"])
    return int(header["config"]["num_envs"]) * int(header["config"]["rollout_length"])


def _name(path: tuple[Any, ...]) -> str:
    """A pytree path as ``params/pi_w0``, ``opt_state/1/0/mu/pi_w0``, ... (the checkpoint's array names)."""
    parts = []
    for p in path:
        for attr in ("name", "key", "idx"):
            if hasattr(p, attr):
                parts.append(str(getattr(p, attr)))
                break
    return "/".join(parts)


def _is_key(x: Any) -> bool:
    import jax

    return hasattr(x, "dtype") and jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key)


def save_checkpoint(path: Path, state: Any, header: dict[str, Any], obs_scale: np.ndarray) -> Path:
    """Write the run ``state`` (a pytree) to ``path`` (.npz) with ``header`` (must name a format of
    ``FORMATS``), atomically."""
    import jax

    if header.get("format") not in FORMATS:
        raise ValueError(f"header format {header.get('format')!r} is not one of {list(FORMATS)}")
    arrays = {}
    for p, leaf in jax.tree_util.tree_flatten_with_path(state)[0]:
        arrays[_name(p)] = np.asarray(jax.random.key_data(leaf) if _is_key(leaf) else leaf)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:  # a file object keeps numpy from appending ".npz"
        np.savez(f, header=np.array(json.dumps(header)), obs_scale=obs_scale, **arrays)
    os.replace(tmp, path)
    return path


def load_checkpoint(path: Path, template: Any) -> Any:
    """The run state saved at ``path``, in the structure (and key types) of ``template``."""
    import jax
    import jax.numpy as jnp

    read_header(path)
    leaves, treedef = jax.tree_util.tree_flatten_with_path(template)
    with np.load(path, allow_pickle=False) as data:
        out = []
        for p, leaf in leaves:
            saved = data[_name(p)]
            out.append(jax.random.wrap_key_data(saved, impl=jax.random.key_impl(leaf)) if _is_key(leaf) else jnp.asarray(saved, leaf.dtype))
    return jax.tree_util.tree_unflatten(treedef, out)


def checkpoint_paths(out: str | Path) -> list[Path]:
    """The checkpoints in ``out``, by update."""
    return sorted(Path(out).glob("checkpoint_*.npz"), key=lambda p: int(p.stem.split("_")[1]))


def resume(out: Path, config: RunConfig, template: Any) -> tuple[Any, list[dict[str, Any]]]:
    """The latest checkpoint of ``out`` (or ``template``) and the log lines up to it; a run of another
    configuration (anything but ``total_steps`` and ``devices``: a run may go on on other devices) there is refused."""
    latest = out / LATEST
    if not latest.is_file():
        return template, []
    info = json.loads(latest.read_text())
    try:
        saved = type(config).from_dict(info["config"])  # type: ignore[attr-defined]
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{out} holds a run of another trainer ({exc}); choose another folder") from None
    free = {"total_steps": 0, "devices": 0}  # what a resumed run may change
    if saved.to_dict() | free != config.to_dict() | free:
        diff = sorted(k for k, v in config.to_dict().items() if k not in free and saved.to_dict()[k] != v)
        raise ValueError(f"{out} holds a run of another configuration (differs in {diff}); choose another folder")
    state = load_checkpoint(out / info["checkpoint"], template)
    log = out / LOG
    lines = [json.loads(x) for x in log.read_text().splitlines()] if log.is_file() else []
    return state, [x for x in lines if x["update"] <= int(state.update)]
