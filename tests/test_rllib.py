"""The RLlib adapter: turn-based episodes that match the AEC env, masks, illegal actions, and the README recipe.

The recipe test runs the README's "RLlib" code block as written: two PPO policies at one 6-max no-limit
table, two training iterations with one remote EnvRunner.
"""

from __future__ import annotations

import importlib
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium import spaces

from poker_envs import catalog
from tests.doc_blocks import recipe
from wrappers.rllib import MASK_KEY, OBS_KEY, PokerMultiAgentEnv, policy_by_seat  # needs the [rllib] extra (make test installs it)

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = [{"env": g.key} for g in catalog.GAMES] + [  # every game by catalog key, a module name, and:
    {"env": "nolimit", "num_players": 6},
    {"env": "leduc_holdem_v0"},
    {"env": "limit", "num_players": 3},
    {"env": "nolimit", "num_players": 2, "starting_stack": 1},  # all-in on the blinds: only pass turns
]
CONFIGS += [  # sessions: many hands per episode
    {"env": "nolimit", "num_players": 4, "hands_per_episode": 30, "starting_stack": 20},
    {"env": "nolimit", "num_players": 3, "hands_per_episode": 5, "rebuy": True},
    {"env": "push_fold", "num_players": 3, "hands_per_episode": 10},
    {  # a tournament: seats eliminated mid-episode leave with their last observation; prizes as rewards
        "env": "nolimit", "num_players": 6, "hands_per_episode": 40, "starting_stack": 10,
        "blind_levels": [(1, 2, 0), (2, 4, 0)], "hands_per_level": 5, "payouts": [0.5, 0.3, 0.2],
    },
]


def play_adapter(env: PokerMultiAgentEnv, seed: int, rng: np.random.Generator) -> tuple[list[int], dict[str, float]]:
    """One episode through the adapter with random legal actions; checks the turn-based protocol on the way."""
    obs, infos = env.reset(seed=seed)
    terminateds: dict[str, bool] = {"__all__": False}
    actions: list[int] = []
    returns: dict[str, float] = {}
    acted: set[str] = set()
    gone: set[str] = set()
    while not terminateds["__all__"]:
        assert set(infos) == set(obs)
        assert all(env.observation_spaces[a].contains(ob) for a, ob in obs.items())
        actors = [a for a in obs if not terminateds.get(a, False)]
        assert len(actors) == 1  # only the agent to act is observed (besides agents leaving with a last observation)
        agent = actors[0]
        action = int(rng.choice(np.flatnonzero(obs[agent][MASK_KEY])))
        actions.append(action)
        acted.add(agent)
        obs, rewards, terminateds, truncateds, infos = env.step({agent: action})
        assert agent in rewards and not truncateds["__all__"]
        for a, r in rewards.items():
            assert a not in gone
            returns[a] = returns.get(a, 0.0) + r
        for a in [a for a, done in terminateds.items() if done and a != "__all__"]:
            assert a not in gone
            gone.add(a)
            assert (a in obs) == (a in acted)  # the agents that acted leave with their last observation
            assert a not in obs or not obs[a][MASK_KEY].any()
    assert gone == set(env.possible_agents) and env.agents == []
    return actions, returns


def play_aec(config: dict[str, Any], seed: int, actions: list[int]) -> dict[str, float]:
    """The same hand on the AEC env itself, each agent's return summed from ``last()`` as PettingZoo users do."""
    name = config["env"]
    module = catalog.game(name).module_path if name in catalog.keys() else f"poker_envs.{name}"
    aec = importlib.import_module(module).raw_env(**{k: v for k, v in config.items() if k != "env"})
    aec.reset(seed=seed)
    returns = dict.fromkeys(aec.possible_agents, 0.0)
    moves = iter(actions)
    for agent in aec.agent_iter():
        _, reward, termination, truncation, _ = aec.last()
        returns[agent] += reward
        aec.step(None if termination or truncation else next(moves))
    assert next(moves, None) is None
    return returns


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(str(v) for v in c.values()))
def test_hands_match_the_aec_env(config: dict[str, Any]) -> None:
    env = PokerMultiAgentEnv(config)
    rng = np.random.default_rng(7)
    for seed in range(20):
        actions, returns = play_adapter(env, seed, rng)
        expected = play_aec(config, seed, actions)
        assert returns.keys() == expected.keys()
        assert all(math.isclose(returns[a], expected[a]) for a in expected)
        assert "payouts" in config or math.isclose(sum(returns.values()), 0.0, abs_tol=1e-9)  # chips: zero-sum


def test_spaces_are_what_the_masking_module_reads() -> None:
    env = PokerMultiAgentEnv({"env": "nolimit", "num_players": 6})
    assert env.possible_agents == [f"player_{i}" for i in range(6)]
    space = env.observation_spaces["player_3"]
    assert set(space.spaces) == {OBS_KEY, MASK_KEY}
    assert space[MASK_KEY] == spaces.Box(0.0, 1.0, (6,), np.float32)
    assert env.action_spaces["player_3"] == spaces.Discrete(6)


def test_extra_observation_keys_are_dropped() -> None:
    """Hold'em observations also carry the public betting state; the masking module reads two keys only."""
    env = PokerMultiAgentEnv({"env": "nolimit", "num_players": 3})
    assert "public" in env.aec.observation_space("player_0").spaces
    assert set(env.observation_spaces["player_0"].spaces) == {OBS_KEY, MASK_KEY}
    obs, _ = env.reset(seed=3)
    ((agent, ob),) = obs.items()
    assert set(ob) == {OBS_KEY, MASK_KEY}
    assert np.array_equal(ob[OBS_KEY], env.aec.observe(agent)["observation"])


def test_illegal_and_misaddressed_actions_raise() -> None:
    env = PokerMultiAgentEnv({"env": "leduc"})
    obs, _ = env.reset(seed=0)
    ((agent, ob),) = obs.items()
    illegal = int(np.flatnonzero(ob[MASK_KEY] == 0)[0])  # Leduc's first decision: fold is masked (nothing to call)
    with pytest.raises(ValueError, match=rf"illegal action {illegal} of {agent}: legal actions are \[1, 2\]"):
        env.step({agent: illegal})
    with pytest.raises(ValueError, match="illegal action 9"):
        env.step({agent: 9})
    with pytest.raises(TypeError, match="integer action id"):
        env.step({agent: 1.0})
    other = next(a for a in env.possible_agents if a != agent)
    with pytest.raises(ValueError, match=f"an action for {agent} .* only"):
        env.step({other: 1})
    assert env.actions_played == 0
    env.step({agent: 1})  # the env is still usable: nothing was played
    assert env.actions_played == 1


def test_config_errors_name_the_problem() -> None:
    with pytest.raises(ValueError, match="config needs 'env'.*nolimit"):
        PokerMultiAgentEnv({})
    with pytest.raises(ValueError, match="no environment module"):
        PokerMultiAgentEnv({"env": "go"})


def test_policy_by_seat() -> None:
    mapping = policy_by_seat({"A": [0, 2, 4], "B": [1, 3, 5]})
    assert [mapping(f"player_{i}") for i in range(6)] == ["A", "B", "A", "B", "A", "B"]
    with pytest.raises(ValueError, match="seat 6 has no policy"):
        mapping("player_6")
    with pytest.raises(ValueError, match="seat 2 is given to both 'A' and 'B'"):
        policy_by_seat({"A": [0, 2], "B": [2]})


@pytest.fixture
def results_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Algorithms make their (empty) log directory here, not under ~/ray_results."""
    import ray.tune.trainable.trainable as trainable

    monkeypatch.setattr(trainable, "DEFAULT_STORAGE_PATH", str(tmp_path))
    return tmp_path


def readme_recipe() -> str:
    """The README's block marked ``<!-- recipe: rllib -->`` (tests/doc_blocks.py)."""
    return recipe("rllib")


@pytest.mark.slow
def test_readme_recipe_trains_two_policies_at_a_six_max_table(results_dir: Path) -> None:
    import ray
    import torch

    namespace: dict[str, Any] = {}
    threads = torch.get_num_threads()
    try:
        exec(compile(readme_recipe(), "README.md:RLlib", "exec"), namespace)
    finally:
        ray.shutdown()
        torch.set_num_threads(threads)  # the recipe's setting stays out of the other tests
    results = namespace["results"]
    assert results["training_iteration"] == 2
    sampled = results["env_runners"]
    # Both policies sampled, each from its own seats only (the env raises on any illegal action, so every
    # one of these steps was legal).
    agent_steps = sampled["num_agent_steps_sampled_lifetime"]
    module_steps = sampled["num_module_steps_sampled_lifetime"]
    for module, seats in (("A", (0, 2, 4)), ("B", (1, 3, 5))):
        assert module_steps[module] > 0
        assert module_steps[module] == sum(agent_steps[f"player_{s}"] for s in seats)
        learned = results["learners"][module]
        assert learned["num_module_steps_trained_lifetime"] > 0
        assert math.isfinite(learned["policy_loss"]) and math.isfinite(learned["vf_loss"])
    assert set(sampled["module_episode_returns_mean"]) == {"A", "B"}
    assert sampled["num_env_steps_sampled_lifetime"] >= 2 * 512  # the recipe's train_batch_size_per_learner
    # A failing env kills its remote EnvRunner and RLlib restarts it; none failed here.
    assert results["fault_tolerance"]["num_remote_worker_restarts"] == 0
    assert results["fault_tolerance"]["num_healthy_workers"] == 1
    assert any(results_dir.iterdir())  # the algorithm's log directory went to the test's folder


class MaskIgnored(PokerMultiAgentEnv):
    """Shows the policy an all-ones mask (as a module that ignores the mask would act) but checks the real one."""

    def _next_turn(self) -> dict[str, dict[str, np.ndarray]]:
        return {a: {**ob, MASK_KEY: np.ones_like(ob[MASK_KEY])} for a, ob in super()._next_turn().items()}


@pytest.mark.slow
def test_an_illegal_action_fails_training_instead_of_being_penalised(results_dir: Path) -> None:
    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec

    from wrappers.rllib import masked_module_spec

    module = masked_module_spec({"fcnet_hiddens": [8]})
    config = (
        PPOConfig()
        .environment(MaskIgnored, env_config={"env": "nolimit", "num_players": 6})
        .multi_agent(policies={"A"}, policy_mapping_fn=lambda agent_id, episode, **kwargs: "A")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"A": module}))
        .env_runners(num_env_runners=0)  # the env runs in this process, so its error reaches train()
        .training(train_batch_size_per_learner=256, minibatch_size=64, num_epochs=1)
        .debugging(seed=0)
    )
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        algo = config.build_algo()
        with pytest.raises(RuntimeError) as failure:
            algo.train()
        algo.stop()
    finally:
        ray.shutdown()
    assert isinstance(failure.value.__cause__, ValueError)
    assert re.match(r"illegal action \d of player_\d: legal actions are \[", str(failure.value.__cause__))
