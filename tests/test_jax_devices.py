"""Both on-device trainers over several devices (``--devices``): the same run on 1 and 2 devices, resume, errors,
and what one machine can check of a multi-process run (only process 0 writes).

Two CPU devices need ``XLA_FLAGS=--xla_force_host_platform_device_count=2`` before JAX starts, so the runs over
devices happen in one child process; this process compares the checkpoints they wrote (numpy only).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agent_zoo.jax_common.agent import JaxAgent
from agent_zoo.jax_common.exploitability import agent_exploitability, evaluator
from agent_zoo.jax_ppo.config import PPOConfig
from agent_zoo.jax_rnad.config import RNaDJaxConfig

PPO = ["--game", "kuhn", "--num-envs", "8", "--seed", "3", "--no-progress", "--set", "rollout_length=8", "minibatches=4",
       "epochs=2", "hidden_sizes=16", "snapshot_interval=2", "checkpoint_interval=1"]  # 64 decisions an update
RNAD = ["--game", "kuhn", "--batch-size", "8", "--seed", "3", "--no-progress", "--set", "hidden_sizes=16", "steps_per_update=20",
        "reg_update_interval=10", "learning_rate=0.001", "target_gamma=0.1", "two_stage=none",
        "checkpoint_interval=1"]  # 20 learner steps an update, 2 new reg policies

CHILD = r"""
import contextlib, io, json, sys
from pathlib import Path
import jax
from agent_zoo.jax_ppo.__main__ import main as ppo
from agent_zoo.jax_rnad.__main__ import main as rnad

out, ppo_args, rnad_args = Path(sys.argv[1]), json.loads(sys.argv[2]), json.loads(sys.argv[3])
report = {"devices": len(jax.devices()), "errors": {}}

def train(main, args, name, devices, steps, extra=()):
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        main(["train", *args, "--devices", str(devices), "--steps", str(steps), "--out", str(out / name),
              "--json", str(out / f"{name}.json"), *extra])
    report[name] = text.getvalue()

for d in (1, 2):
    train(ppo, ppo_args, f"ppo{d}", d, 192)
    train(rnad, rnad_args, f"rnad{d}", d, 40)
train(ppo, ppo_args, "ppo2_resumed", 2, 128)  # stops after update 2 ...
train(ppo, ppo_args, "ppo2_resumed", 2, 192)  # ... and goes on to 3 on the same 2 devices
train(rnad, rnad_args, "rnad2_then1", 2, 20)  # update 1 on 2 devices ...
train(rnad, rnad_args, "rnad2_then1", 1, 40)  # ... update 2 on 1 device

for name, main, args in (("too_many", ppo, ["--devices", "3"]), ("uneven", ppo, ["--devices", "2", "--num-envs", "5"]),
                         ("default_uneven", rnad, ["--batch-size", "3"])):
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            main(["train", "--game", "kuhn", "--steps", "10", "--no-progress", *args])
            code = 0
        except SystemExit as exc:
            code = exc.code
    report["errors"][name] = [code, err.getvalue()]
print(json.dumps(report))
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The child's runs over 2 CPU devices: (their folder, the child's report)."""
    out = tmp_path_factory.mktemp("devices")
    env = os.environ | {"XLA_FLAGS": "--xla_force_host_platform_device_count=2", "JAX_PLATFORMS": "cpu"}
    done = subprocess.run([sys.executable, "-c", CHILD, str(out), json.dumps(PPO), json.dumps(RNAD)], check=False, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return out, json.loads(done.stdout.splitlines()[-1])


def arrays(path: Path, prefix: str = "") -> dict[str, np.ndarray]:
    """A checkpoint's arrays (those whose name starts with ``prefix``), header and scale left out."""
    with np.load(path, allow_pickle=False) as data:
        return {k: data[k] for k in data.files if k.startswith(prefix) and k not in ("header", "obs_scale")}


def assert_close(a: dict[str, np.ndarray], b: dict[str, np.ndarray], atol: float) -> None:
    assert a.keys() == b.keys() and a
    for k, value in a.items():
        np.testing.assert_allclose(value, b[k], rtol=0, atol=atol, err_msg=k)


@pytest.mark.slow
def test_one_and_two_devices_learn_the_same_parameters_and_exploitability(runs: tuple[Path, dict[str, Any]]) -> None:
    out, report = runs
    assert report["devices"] == 2
    for trainer, last, sets in (("ppo", 3, ("params/", "frozen/")), ("rnad", 2, ("params/", "target/", "reg/"))):
        one, two = out / f"{trainer}1" / f"checkpoint_{last}.npz", out / f"{trainer}2" / f"checkpoint_{last}.npz"
        for prefix in sets:
            assert_close(arrays(one, prefix), arrays(two, prefix), 1e-5)
            start, end = arrays(out / f"{trainer}1" / "checkpoint_0.npz", prefix), arrays(one, prefix)
            assert max(np.abs(start[k] - end[k]).max() for k in start) > 1e-3  # they learned: 1e-5 is a close call
        # the tables' deals and actions follow the table's index, not its device: the same hands, exactly
        env1, env2 = arrays(one, "env_state/"), arrays(two, "env_state/")
        assert env1.keys() == env2.keys() and all(np.array_equal(env1[k], env2[k]) for k in env1)
        # the exact exploitability of the policy each checkpoint plays (PPO: the learner; R-NaD: the reg policy)
        e1, e2 = (agent_exploitability(JaxAgent.load(path), evaluator("kuhn"))[0] for path in (one, two))
        assert e1 == pytest.approx(e2, abs=1e-3)
        j1, j2 = (json.loads((out / f"{trainer}{d}.json").read_text()) for d in (1, 2))
        if trainer == "rnad":  # its summary reports the exploitability of the final state
            assert (j1["exploitability"], j2["exploitability"]) == pytest.approx((e1, e2), abs=1e-9)
        assert (j1["devices"], j2["devices"]) == (1, 2)
        assert j1["final"]["update"] == j2["final"]["update"] == last


@pytest.mark.slow
def test_speed_per_device_and_cost_of_a_million_hands_are_reported(runs: tuple[Path, dict[str, Any]]) -> None:
    out, report = runs
    for name in ("ppo1", "ppo2", "rnad1", "rnad2"):
        result = json.loads((out / f"{name}.json").read_text())
        n = result["devices"]
        assert result["decisions_per_second_per_device"] == pytest.approx(result["decisions_per_second"] / n)
        assert result["seconds_per_million_hands"] == pytest.approx(1e6 / result["hands_per_second"])
        assert result["device_seconds_per_million_hands"] == pytest.approx(n * result["seconds_per_million_hands"])
        hands = sum(json.loads(x)["hands"] for x in (out / name / "log.jsonl").read_text().splitlines()) if name.startswith("ppo") \
            else result["updates"] * 20 * 8  # R-NaD: one whole hand per table and learner step
        assert result["hands_per_second"] == pytest.approx(hands / result["seconds"])
        assert f"{n} device{'s' * (n > 1)}: " in report[name] and "decisions/s per device; a million hands take" in report[name]


@pytest.mark.slow
def test_resume_over_devices(runs: tuple[Path, dict[str, Any]]) -> None:
    out, _ = runs
    # on the same 2 devices: bit-identical to the uninterrupted run, every array (optimiser, tables, keys)
    whole, resumed = arrays(out / "ppo2" / "checkpoint_3.npz"), arrays(out / "ppo2_resumed" / "checkpoint_3.npz")
    assert whole.keys() == resumed.keys()
    for k in whole:
        np.testing.assert_array_equal(whole[k], resumed[k], err_msg=k)
    assert json.loads((out / "ppo2_resumed.json").read_text())["resumed_from"] == 2
    # a run may go on on another number of devices: the same run up to the order of float sums
    moved = json.loads((out / "rnad2_then1.json").read_text())
    assert moved["resumed_from"] == 1 and moved["devices"] == 1
    for prefix in ("params/", "reg/"):
        assert_close(arrays(out / "rnad1" / "checkpoint_2.npz", prefix), arrays(out / "rnad2_then1" / "checkpoint_2.npz", prefix), 1e-5)


@pytest.mark.slow
def test_device_errors_name_the_flag_and_what_is_allowed(runs: tuple[Path, dict[str, Any]], capsys: pytest.CaptureFixture[str]) -> None:
    _, report = runs
    code, err = report["errors"]["too_many"]
    assert code == 2 and "argument --devices: 3 devices asked, but jax.devices() lists 2 (cpu); ask for 1 to 2" in err
    code, err = report["errors"]["uneven"]
    assert code == 2 and "argument --devices: --num-envs (5) must be a multiple of the 2 devices asked" in err
    assert "choose --num-envs 6 or fewer devices" in err
    code, err = report["errors"]["default_uneven"]
    assert code == 2 and "--batch-size (3) must be a multiple of the 2 devices jax.devices() lists (the default: all)" in err
    for config, field in ((PPOConfig, "PPOConfig.devices"), (RNaDJaxConfig, "RNaDJaxConfig.devices")):
        for bad in (-1, 1.5, True):
            with pytest.raises(ValueError, match=field):
                config(devices=bad)
    from agent_zoo.jax_ppo.__main__ import main

    with pytest.raises(SystemExit) as exc:  # this process sees one device
        main(["train", "--game", "kuhn", "--steps", "10", "--devices", "2"])
    assert exc.value.code == 2 and "argument --devices: 2 devices asked, but jax.devices() lists 1" in capsys.readouterr().err


@pytest.mark.slow
def test_only_process_zero_writes_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process of a multi-process run trains the same and writes nothing (process 0 writes)."""
    import jax

    from agent_zoo.jax_rnad.train import train

    config = RNaDJaxConfig(game="kuhn", batch_size=4, hidden_sizes=(8,), steps_per_update=5, total_steps=10, checkpoint_interval=1)
    monkeypatch.setattr(jax, "process_index", lambda: 1)
    other = train(config, tmp_path / "other", progress=False, exploitability=False)
    assert other["updates"] == 2 and not any((tmp_path / "other").iterdir())
    monkeypatch.setattr(jax, "process_index", lambda: 0)
    first = train(config, tmp_path / "first", progress=False, exploitability=False)
    assert sorted(p.name for p in (tmp_path / "first").iterdir()) == ["checkpoint_0.npz", "checkpoint_1.npz", "checkpoint_2.npz",
                                                                       "latest.json", "log.jsonl"]
    for a, b in zip(jax.tree_util.tree_leaves(other["state"].params), jax.tree_util.tree_leaves(first["state"].params)):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def test_throughput_by_hand() -> None:
    """1,000 decisions and 50 hands in 2 s on 2 devices: 500 decisions/s, 250 per device, 25 hands/s, so a
    million hands take 40,000 s here and 80,000 device-seconds; nothing trained: no rates."""
    from agent_zoo.jax_common.devices import throughput

    assert throughput(2.0, 1000, 50, 2) == {"devices": 2, "decisions_per_second": 500.0, "decisions_per_second_per_device": 250.0,
                                            "hands_per_second": 25.0, "seconds_per_million_hands": 40000.0,
                                            "device_seconds_per_million_hands": 80000.0}
    assert throughput(0.0, 0, 0, 1)["decisions_per_second"] is None


def test_placement_splits_only_the_tables() -> None:
    """The table fields' arrays with a table axis are split; parameters are replicated even where their first
    axis happens to have as many entries as there are tables, and so is a table field's key."""
    from typing import NamedTuple

    import jax
    import jax.numpy as jnp
    from jax.sharding import PartitionSpec

    from agent_zoo.jax_common.devices import Placement, make_mesh

    class State(NamedTuple):
        params: dict[str, jax.Array]
        env_state: tuple[jax.Array, jax.Array]
        league: Any

    b = 4
    state = State({"w": jnp.zeros((b, 3))}, (jnp.zeros((b, 2)), jax.random.key(0)), {"member": jnp.zeros(b), "population": jnp.zeros((b, 3))})
    specs = jax.tree_util.tree_map(lambda s: s.spec, Placement(make_mesh(1), state, b, ("env_state", "league/member")).state)
    split, whole = PartitionSpec("tables"), PartitionSpec()
    assert specs == State({"w": whole}, (split, whole), {"member": split, "population": whole})
    with pytest.raises(ValueError, match=r"table fields \['tables'\] are not fields of State"):
        Placement(make_mesh(1), state, b, ("tables",))
