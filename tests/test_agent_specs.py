"""The ``sb3:<model.zip>`` and ``module:package.module:callable`` agent specs."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
import torch

from agent_zoo.agent import Agent, CallableAgent, RandomAgent, stack
from agent_zoo.external import SB3Agent, guess_algorithm
from agent_zoo.registry import make_agent
from agent_zoo.tournament import TournamentConfig, run_tournament
from poker_envs import kuhn_poker_v0, leduc_holdem_v0
from wrappers import SingleAgentEnv

torch.set_num_threads(1)


@pytest.fixture(scope="module")
def ppo_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A MaskablePPO trained for a few hundred steps on Leduc against the random agent."""
    from sb3_contrib import MaskablePPO

    path = tmp_path_factory.mktemp("sb3") / "leduc_ppo.zip"
    torch.manual_seed(0)
    env = SingleAgentEnv("leduc_holdem_v0", opponents="random", seat="rotate")
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=2, seed=0, device="cpu")
    model.learn(384)
    model.save(path)
    return path


def _leduc_decisions(n_hands: int = 6) -> list[dict[str, np.ndarray]]:
    env = leduc_holdem_v0.raw_env()
    rng = np.random.default_rng(0)
    out = []
    for h in range(n_hands):
        env.reset(seed=h)
        while not all(env.terminations.values()):
            obs = env.observe(env.agent_selection)
            out.append(obs)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return out


@pytest.mark.slow
def test_maskable_ppo_plays_the_heads_up_tournament(ppo_zip: Path) -> None:
    spec = f"sb3:{ppo_zip}"
    agent = make_agent(spec, leduc_holdem_v0.raw_env())
    assert isinstance(agent, SB3Agent) and guess_algorithm(ppo_zip.read_bytes()) == "MaskablePPO"
    for obs in _leduc_decisions():
        probs = agent.action_probabilities(obs)
        assert probs.sum() == pytest.approx(1.0) and np.all(probs[obs["action_mask"] == 0] == 0)
    result = run_tournament(TournamentConfig(game="leduc", agents=[spec, "random"], hands=40, seed=3, progress=False))
    assert result.agents == [spec, "random"]
    assert result.mean[0, 1] == pytest.approx(-result.mean[1, 0])  # zero-sum heads-up, both seats of every deal
    again = run_tournament(TournamentConfig(game="leduc", agents=[spec, "random"], hands=40, seed=3, progress=False))
    assert again.mean[0, 1] == result.mean[0, 1]  # sampled with the tournament's generators: reproducible


@pytest.mark.parametrize("algo, policy, obs_mode", [("PPO", "MlpPolicy", "observation"), ("A2C", "MlpPolicy", "observation"),
                                                    ("DQN", "MlpPolicy", "observation"), ("PPO", "MultiInputPolicy", "dict")])
def test_other_algorithms_load_by_their_metadata(algo: str, policy: str, obs_mode: str, tmp_path: Path) -> None:
    import stable_baselines3

    env = SingleAgentEnv("leduc_holdem_v0", opponents="random", obs_mode=obs_mode)
    getattr(stable_baselines3, algo)(policy, env, seed=0, device="cpu").save(tmp_path / "m.zip")
    assert guess_algorithm((tmp_path / "m.zip").read_bytes()) == algo
    agent = make_agent(f"sb3:{tmp_path / 'm.zip'}", leduc_holdem_v0.raw_env())
    assert type(agent._model).__name__ == algo
    observations = _leduc_decisions(3)
    probs = agent.probabilities(stack(observations))
    masks = stack(observations)["action_mask"]
    assert np.all(probs[masks == 0] == 0) and np.allclose(probs.sum(axis=1), 1.0)
    if algo == "DQN":  # a Q-network plays its best legal action
        assert set(np.unique(probs).tolist()) <= {0.0, 1.0}
    acts = agent.act_batch(stack(observations), np.random.default_rng(0))
    assert np.all(masks[np.arange(len(acts)), acts] == 1)


def test_sb3_refuses_models_of_another_game_and_non_models(ppo_zip: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"the model acts in Discrete\(3\), this env has Discrete\(2\)"):
        make_agent(f"sb3:{ppo_zip}", kuhn_poker_v0.raw_env())
    with pytest.raises(ValueError, match=r"the model reads 'observation' of shape \(\d+,\); this env gives \(\d+,\)"):
        make_agent(f"sb3:{ppo_zip}", leduc_holdem_v0.raw_env(obs_encoder="rank_chips"))
    (tmp_path / "x.zip").write_bytes(b"not a zip")
    with pytest.raises(ValueError) as error:
        make_agent(f"sb3:{tmp_path / 'x.zip'}", leduc_holdem_v0.raw_env())
    message = str(error.value)
    assert str(tmp_path / "x.zip") in message and "is not a Stable-Baselines3 model zip" in message
    assert "not a zip file" in message and "BytesIO" not in message
    with zipfile.ZipFile(tmp_path / "other.zip", "w") as archive:  # a zip, but not a saved model
        archive.writestr("notes.txt", "hello")
    with pytest.raises(ValueError, match=r"other\.zip' is not a Stable-Baselines3 model zip .*no 'data' entry"):
        make_agent(f"sb3:{tmp_path / 'other.zip'}", leduc_holdem_v0.raw_env())
    with pytest.raises(ValueError, match="no such file"):
        make_agent(f"sb3:{tmp_path / 'missing.zip'}", leduc_holdem_v0.raw_env())


SAMPLE_BOTS = '''
import numpy as np
from agent_zoo.agent import RandomAgent
PREBUILT = RandomAgent()
def first_legal(observation, rng):
    return int(np.flatnonzero(observation["action_mask"])[0])
def for_env(env):
    return RandomAgent()
def no_arguments():
    return RandomAgent()
def three(a, b, c):
    return 0
def not_an_agent():
    return 42
VALUE = 3
'''


@pytest.fixture
def bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "spec_test_bots.py").write_text(SAMPLE_BOTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "spec_test_bots", raising=False)
    return "spec_test_bots"


def test_module_spec_builds_each_kind_of_callable(bots: str) -> None:
    env = leduc_holdem_v0.raw_env()
    fn = make_agent(f"module:{bots}:first_legal", env)
    assert isinstance(fn, CallableAgent) and fn.name == f"module:{bots}:first_legal"
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    assert fn.act(obs, np.random.default_rng(0)) == int(np.flatnonzero(obs["action_mask"])[0])
    for attr in ("PREBUILT", "for_env", "no_arguments"):
        assert isinstance(make_agent(f"module:{bots}:{attr}", env), RandomAgent)
    assert isinstance(make_agent("module:agent_zoo.agent:RandomAgent", env), Agent)


@pytest.mark.parametrize("target, error, message", [
    ("spec_test_bots", ValueError, "expected module:package.module:callable"),
    ("no_such_module_xyz:f", ValueError, "cannot import no_such_module_xyz"),
    ("spec_test_bots:missing", ValueError, "has no attribute 'missing'"),
    ("spec_test_bots:VALUE", TypeError, "is a int, not an Agent or a callable"),
    ("spec_test_bots:three", TypeError, "requires 3 positional arguments"),
    ("spec_test_bots:not_an_agent", TypeError, "returned int, not an agent_zoo Agent"),
])
def test_module_spec_errors_name_the_problem(bots: str, target: str, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        make_agent(f"module:{target}", leduc_holdem_v0.raw_env())
