"""Helpers shared by the tests: the AEC play loop with uniformly random legal actions, written once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import atexit
import os
import shutil
import tempfile

import numpy as np
import pytest
from hypothesis import settings

# JAX compiles the same programs (the same engine configuration and table count) in many tests and in the
# subprocesses some tests start: a compilation cache for this run (a fresh folder, removed at exit; the
# subprocesses inherit it) compiles each once. It changes no result, only the time (what is cached is XLA's
# compiled executable of the identical program).
if "JAX_COMPILATION_CACHE_DIR" not in os.environ:
    _jax_cache = tempfile.mkdtemp(prefix="poker-envs-tests-jax-")
    atexit.register(shutil.rmtree, _jax_cache, ignore_errors=True)
    os.environ["JAX_COMPILATION_CACHE_DIR"] = _jax_cache
    os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "0")
    os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES", "0")

# Compiling is most of the JAX engine's time in the suite: it compiles one program per engine configuration it
# checks (some 150) to run each for a few dozen steps. Two compiler settings halve that and compute the same
# values: XLA's backend at -O0 without its expensive LLVM passes (JAX_DISABLE_MOST_OPTIMIZATIONS; the HLO passes
# still run) and XLA's older CPU fusion code generator (--xla_cpu_use_fusion_emitters=false). The test
# ``test_the_optimised_build_plays_as_the_suites_build`` checks a program built as users build it against the
# suite's; TESTS_FAST_COMPILE=0 runs the whole suite on programs built as users build them.
FAST_COMPILE_FLAG = "--xla_cpu_use_fusion_emitters=false"
if os.environ.get("TESTS_FAST_COMPILE", "1") == "1":
    os.environ.setdefault("JAX_DISABLE_MOST_OPTIMIZATIONS", "1")
    if FAST_COMPILE_FLAG not in os.environ.get("XLA_FLAGS", ""):
        os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {FAST_COMPILE_FLAG}".strip()


def users_compile_env() -> dict[str, str]:
    """This process's environment without the suite's compiler settings (for a subprocess that compiles as users
    do)."""
    env = dict(os.environ, JAX_DISABLE_MOST_OPTIMIZATIONS="0")
    flags = env.get("XLA_FLAGS", "").replace(FAST_COMPILE_FLAG, "").strip()
    if flags:
        env["XLA_FLAGS"] = flags
    else:
        env.pop("XLA_FLAGS", None)
    return env


# Property tests draw the same examples on every run (the "ci" profile, the default), so a run that passes
# passes again and a failure reproduces; HYPOTHESIS_PROFILE=explore draws fresh ones (run it when changing the
# rules). The hard cases each property must see are pinned with @example beside the test.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The modules with the most ``slow`` tests run first (each module's tests stay together and in order), so
    that under ``make test``'s workers (pytest-xdist, work stealing) the long tests start early and the run
    ends on short ones instead of one worker finishing a long test alone. Which tests run does not change."""
    weight: dict[str, int] = {}
    for item in items:
        weight[item.nodeid.split("::")[0]] = weight.get(item.nodeid.split("::")[0], 0) + (item.get_closest_marker("slow") is not None)
    items.sort(key=lambda item: -weight[item.nodeid.split("::")[0]])  # stable: collection order within a module


# on_step(agent, observation, action): called before every step; action is None for a done agent.
StepHook = Callable[[str, Any, "int | None"], None]


def play_random_hand(
    env: Any, rng: np.random.Generator, max_steps: int | None = None, on_step: StepHook | None = None
) -> dict[str, float]:
    """Play the current hand of an AEC ``env`` (already reset) to its end, each acting agent taking a legal
    action uniformly at random from ``rng``; returns every agent's summed reward. ``max_steps`` bounds
    ``agent_iter``; ``on_step`` sees each (agent, observation, action) before it is stepped."""
    total = dict.fromkeys(env.possible_agents, 0.0)
    steps = env.agent_iter() if max_steps is None else env.agent_iter(max_steps)
    for agent in steps:
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        action = None
        if not (term or trunc):
            legal = np.flatnonzero(obs["action_mask"])
            assert legal.size > 0, f"{agent} must act but has no legal action"
            action = int(rng.choice(legal))
        if on_step is not None:
            on_step(agent, obs, action)
        env.step(action)
    return total


@pytest.fixture
def random_hand() -> Callable[..., dict[str, float]]:
    """``play_random_hand`` as a fixture (for tests that prefer fixtures to imports)."""
    return play_random_hand
