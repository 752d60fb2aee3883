"""``parallel_env()`` of every game: PettingZoo's turn-based Parallel API, the same play as the AEC env."""

from __future__ import annotations

import importlib
import warnings

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import parallel_api_test

from poker_envs import catalog
from poker_envs.parallel import TurnBasedParallelEnv

TURN_BASED = [g for g in catalog.GAMES if g.key != "threshold"]  # threshold: simultaneous declarations, its own class


# PettingZoo's API test resets with options={"options": 1} only to see that reset takes options; the env reports an
# option it does not use, as it should for a user's typo, so exactly that probe is quieted here.
@pytest.mark.filterwarnings(r"ignore:.*reset options \['options'\] are not used")
@pytest.mark.parametrize("entry", catalog.GAMES, ids=lambda g: g.key)
def test_parallel_api_test_passes_and_the_registry_builds_it(entry: catalog.GameEntry) -> None:
    assert entry.parallel
    with warnings.catch_warnings():
        # parallel_api_test only warns when a live agent is missing from a dict or a dead one is in it
        warnings.filterwarnings("error", message=".*(Live agent|dead last turn|No agents present).*")
        parallel_api_test(importlib.import_module(entry.module_path).parallel_env(), num_cycles=300)
    env = pettingzoo.make("parallel", entry.pettingzoo_id)
    assert env.reset(seed=0)[0]


def _play_parallel(env: TurnBasedParallelEnv, seed: int) -> tuple[dict[str, float], int]:
    """Random legal play of one episode; (return of every agent, steps)."""
    obs, infos = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    while env.agents:
        actor = infos[env.agents[0]]["active_agent"]
        assert [a for a in env.agents if obs[a]["action_mask"].any()] == [actor]  # only the actor has a move
        action = int(rng.choice(np.flatnonzero(obs[actor]["action_mask"])))
        obs, rewards, _, _, infos = env.step({actor: action})
        for agent, r in rewards.items():
            totals[agent] += r
        steps += 1
    return totals, steps


def _play_aec(env: pettingzoo.AECEnv, seed: int) -> dict[str, float]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


@pytest.mark.parametrize("entry", TURN_BASED, ids=lambda g: g.key)
def test_parallel_returns_equal_the_aec_envs(entry: catalog.GameEntry) -> None:
    module = importlib.import_module(entry.module_path)
    for seed in range(5):
        totals, steps = _play_parallel(module.parallel_env(), seed)
        assert steps > 0
        assert totals == pytest.approx(_play_aec(module.env(), seed))


def test_a_session_with_eliminations_in_the_parallel_api() -> None:
    from poker_envs import nolimit_holdem_v0

    kwargs = {"num_players": 3, "starting_stack": 20, "hands_per_episode": 20}
    totals, steps = _play_parallel(nolimit_holdem_v0.parallel_env(**kwargs), seed=3)
    assert steps > 3
    assert totals == pytest.approx(_play_aec(nolimit_holdem_v0.env(**kwargs), seed=3))


def test_step_without_the_actor_is_refused() -> None:
    from poker_envs import leduc_holdem_v0

    env = leduc_holdem_v0.parallel_env()
    _, infos = env.reset(seed=0)
    with pytest.raises(ValueError, match="agent to act"):
        env.step({a: 1 for a in env.agents if a != infos["player_0"]["active_agent"]})
    with pytest.raises(TypeError, match="AECEnv"):
        TurnBasedParallelEnv(env)  # type: ignore[arg-type]
