"""`pip install poker-envs` alone (numpy, gymnasium, pettingzoo) gives working environments without torch or JAX.

Builds a clean virtual environment, installs the project without extras, and plays one hand of
every environment there with uniformly random legal actions, and a step of every Gymnasium id (registered
by ``import poker_envs`` alone).
"""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

from poker_envs.registration import AEC_ENVS, GYMNASIUM_ENVS, PARALLEL_ENVS

ROOT = Path(__file__).resolve().parents[1]

PLAY_EVERY_ENV = f"""
import importlib, sys
import numpy as np
import poker_envs
modules = sorted({{entry.split(':')[0] for entry in {list(AEC_ENVS.values())!r}}})
rng = np.random.default_rng(0)
for name in modules:
    env = importlib.import_module(name).env()
    env.reset(seed=1)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        steps += 1
    assert steps > 0, name
for entry in {list(PARALLEL_ENVS.values())!r}:
    module, attr = entry.split(":")
    penv = getattr(importlib.import_module(module), attr)()
    observations, infos = penv.reset(seed=1)
    actions = {{a: int(np.argmax(observations[a]["action_mask"])) for a in penv.agents}}  # turn-based: only the actor's counts
    penv.step(actions)
import gymnasium
for env_id in {list(GYMNASIUM_ENVS)!r}:  # the Gymnasium view, registered by import poker_envs alone
    genv = gymnasium.make(env_id)
    obs, info = genv.reset(seed=1)
    obs, reward, terminated, truncated, info = genv.step(int(np.flatnonzero(info["action_mask"])[0]))
from poker_envs import vector
for game in vector.games():  # the numpy batched engine of every game, without JAX
    venv = vector.make(game, num_envs=4, seed=0)
    out = venv.reset()
    for _ in range(5):
        out = venv.step(np.argmax(out.action_mask, axis=1))
assert "jax" not in sys.modules, "the numpy path imported jax"
try:
    vector.make("kuhn", num_envs=4, backend="jax")
except ImportError as error:
    assert "poker-envs[jax]" in str(error), error
    print("JAX_EXTRA_NAMED")
try:
    import torch  # noqa: F401
except ImportError:
    print("NO_TORCH")
pictured = importlib.import_module("poker_envs.nolimit_holdem_v0").env(render_mode="rgb_array")  # built without Pillow
pictured.reset(seed=1)
try:
    pictured.render()
except ImportError as error:
    assert 'pip install "poker-envs[render]"' in str(error), error
    print("RENDER_EXTRA_NAMED")
print("PLAYED", len(modules))
"""


def test_bare_install_plays_every_env_without_torch(tmp_path: Path) -> None:
    env_dir = tmp_path / "bare"
    venv.EnvBuilder(with_pip=False, clear=True).create(env_dir)  # a fresh interpreter with nothing installed
    python = env_dir / "bin" / "python"
    # This pip installs into it (pip --python): the same install, without bootstrapping a pip into the new venv.
    pip = [sys.executable, "-m", "pip", "--python", str(python)]
    install = subprocess.run([*pip, "install", "--quiet", "--disable-pip-version-check", str(ROOT)], capture_output=True, text=True)
    assert install.returncode == 0, install.stderr[-3000:]
    frozen = subprocess.run([*pip, "freeze"], capture_output=True, text=True).stdout.lower()
    assert "numpy" in frozen and "pettingzoo" in frozen and "poker" in frozen, frozen  # the freeze saw the install
    for heavy in ("torch", "stable-baselines3", "sb3-contrib", "matplotlib", "jax", "pillow"):
        assert heavy not in frozen, f"the bare install pulled {heavy}"
    run = subprocess.run([str(python), "-c", PLAY_EVERY_ENV], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "NO_TORCH" in run.stdout and "JAX_EXTRA_NAMED" in run.stdout and "RENDER_EXTRA_NAMED" in run.stdout
    assert f"PLAYED {len({e.split(':')[0] for e in AEC_ENVS.values()})}" in run.stdout
