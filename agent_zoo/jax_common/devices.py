"""Data-parallel training over several devices: the tables and the learner's batch split over a 1-D mesh.

A run on ``n`` devices is the same program as on one: the jitted update is compiled for a state whose
per-table arrays (the tables, their outputs, a trainer's per-table roles) are sharded along their first axis
over a mesh of ``n`` devices (axis ``"tables"``) and whose parameters, optimiser state and keys are
replicated; XLA partitions the program (GSPMD), so every device steps its own tables and the sums over the
batch in the loss (hence its gradient) become an all-reduce across the devices, the ``pmean`` of data
parallelism. JAX's random numbers are drawn per element of the global array (``jax_threefry_partitionable``),
so a table's deals and actions depend on the seed and the table's index, not on which device holds it: the
same seed gives the same run on 1 or ``n`` devices up to the order of float sums. With one device nothing
is sharded and the program is exactly the single-device one.

Several processes (``jax.distributed.initialize()``, one per host) see the devices of all of them in
``jax.devices()``: the mesh spans them, every process runs the same program on the same seed, and the
arrays are global (no per-process key is needed: the draws of a table follow its global index).
``host_state`` gathers a state for a checkpoint (a collective: every process calls it) and only
``writes_files()`` (process 0) writes it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import numpy as np
from jax.experimental import multihost_utils
from jax.sharding import Mesh, NamedSharding, PartitionSpec

AXIS = "tables"  # the mesh's one axis: tables (and the learner's rows) are split along it


def device_count(requested: int, rows: int, rows_name: str) -> int:
    """The devices a run uses: ``requested`` (0: every device ``jax.devices()`` lists), checked against what
    there is and against the ``rows`` (tables, named ``rows_name`` in the error) each device gets an equal share of."""
    if isinstance(requested, bool) or not isinstance(requested, int) or requested < 0:
        raise ValueError(f"devices must be a non-negative integer (0: all devices), got {requested!r}")
    have = jax.devices()
    n = len(have) if requested == 0 else requested
    if n > len(have):
        raise ValueError(f"{n} devices asked, but jax.devices() lists {len(have)} ({have[0].platform}); ask for 1 to {len(have)}, "
                         "or 0 for all")
    if rows % n:
        which = f"the {n} devices asked" if requested else f"the {n} devices jax.devices() lists (the default: all)"
        raise ValueError(f"{rows_name} ({rows}) must be a multiple of {which}, so that every device steps as many tables; "
                         f"choose {rows_name} {rows + n - rows % n} or fewer devices")
    return n


def make_mesh(n: int) -> Mesh:
    """A 1-D mesh over the first ``n`` of ``jax.devices()`` (all processes' devices), axis ``AXIS``."""
    return Mesh(np.array(jax.devices()[:n]), (AXIS,))


class Placement:
    """Where a run state lives on ``mesh``: the leaves under ``table_fields`` (paths of the state's fields, e.g.
    ``env_state`` or ``league/member``) whose first axis has ``rows`` entries are split along it; every other leaf
    (parameters, optimiser, keys) is replicated. Only speed depends on it: the program computes the same either way."""

    def __init__(self, mesh: Mesh, state: Any, rows: int, table_fields: Sequence[str]) -> None:
        unknown = {f.split("/")[0] for f in table_fields} - set(type(state)._fields)
        if unknown:
            raise ValueError(f"table fields {sorted(unknown)} are not fields of {type(state).__name__}")
        self.mesh = mesh
        self.devices = int(mesh.devices.size)
        split, whole = NamedSharding(mesh, PartitionSpec(AXIS)), NamedSharding(mesh, PartitionSpec())

        def where(path: tuple[Any, ...], x: Any) -> NamedSharding:
            name = jax.tree_util.keystr(path, simple=True, separator="/") + "/"
            per_table = any(name.startswith(f + "/") for f in table_fields)
            return split if per_table and np.ndim(x) and np.shape(x)[0] == rows else whole

        self.state = jax.tree_util.tree_map_with_path(where, state)
        self.replicated = whole

    def put(self, state: Any) -> Any:
        """``state`` moved onto the mesh (every process passes the same values)."""
        return jax.device_put(state, self.state)

    def compile(self, update: Callable[[Any], Any], state: Any) -> Any:
        """``update`` (state -> (state, metrics)) jitted for this placement (state in and out, metrics replicated)
        and compiled for ``state``, traced with the mesh set (``split_rows`` reads it)."""
        with jax.set_mesh(self.mesh):
            return jax.jit(update, in_shardings=(self.state,), out_shardings=(self.state, self.replicated)).lower(state).compile()


def place(requested: int, state: Any, rows: int, rows_name: str, table_fields: Sequence[str]) -> tuple[int, Placement | None]:
    """(devices, placement) of a run: ``device_count``'s check, and ``state``'s placement over that many devices
    (None on one device: the single-device program, untouched)."""
    n = device_count(requested, rows, rows_name)
    return n, (Placement(make_mesh(n), state, rows, table_fields) if n > 1 else None)


def split_rows(tree: Any) -> Any:
    """Inside a traced update: ``tree``'s arrays split along their first axis over the mesh set while tracing
    (``Placement.compile``), those whose first axis divides evenly; unchanged without a mesh. For a learner's
    minibatch gathered from all tables, so every device computes the gradient of its share of the rows."""
    mesh = jax.sharding.get_abstract_mesh()
    if mesh.empty or AXIS not in mesh.axis_names:
        return tree
    size = mesh.shape[AXIS]
    spec = PartitionSpec(AXIS)
    return jax.tree_util.tree_map(lambda x: jax.lax.with_sharding_constraint(x, spec) if x.ndim and x.shape[0] % size == 0 else x, tree)


def host_state(state: Any) -> Any:
    """``state`` with every array that spans several processes gathered whole (``process_allgather``; a
    collective: every process must call it); arrays this process holds whole are left as they are."""
    def gather(x: Any) -> Any:
        if not isinstance(x, jax.Array) or x.is_fully_addressable or x.is_fully_replicated:
            return x
        return multihost_utils.process_allgather(x, tiled=True)

    return jax.tree_util.tree_map(gather, state)


def writes_files() -> bool:
    """Whether this process writes a run's files (checkpoints, logs): process 0 only."""
    return jax.process_index() == 0


def throughput(seconds: float, decisions: float, hands: float, devices: int) -> dict[str, float | int | None]:
    """The speed of a run's update loop on its ``devices``: decisions/s in all and per device, hands/s, and the
    cost of a million hands, in wall seconds on these devices and in device-seconds (wall seconds x devices)."""
    if not seconds or not decisions:
        return {"devices": devices, "decisions_per_second": None, "decisions_per_second_per_device": None,
                "hands_per_second": None, "seconds_per_million_hands": None, "device_seconds_per_million_hands": None}
    per_million = seconds / hands * 1e6 if hands else None
    rate = decisions / seconds
    return {"devices": devices, "decisions_per_second": rate, "decisions_per_second_per_device": rate / devices,
            "hands_per_second": hands / seconds, "seconds_per_million_hands": per_million,
            "device_seconds_per_million_hands": per_million * devices if per_million is not None else None}


def speed_line(result: dict[str, Any]) -> str | None:
    """The run's speed per device and the cost of a million hands, one line (None when nothing was trained)."""
    if not result.get("decisions_per_second"):
        return None
    n = result["devices"]
    line = f"  {n} device{'s' * (n > 1)}: {result['decisions_per_second_per_device']:,.0f} decisions/s per device"
    if result.get("seconds_per_million_hands"):
        line += (f"; a million hands take {result['seconds_per_million_hands']:,.1f} s here "
                 f"({result['device_seconds_per_million_hands']:,.1f} device-seconds)")
    return line
