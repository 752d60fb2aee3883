"""What a new user ran into: a missing folder or a wrong file is one ``error:`` line naming the argument, a
boolean where a number belongs is refused by name, ``render()`` without a render mode warns, and step counts
are what they say (``--help``'s examples: tests/test_cli.py)."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest

from poker_envs import catalog


def _cli_error(module: str, argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The last stderr line of ``module.main(argv)``, which must exit 2 without a traceback."""
    with pytest.raises(SystemExit) as exc:
        importlib.import_module(module).main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.strip().splitlines()[-1]


def test_cnn_evaluate_of_a_missing_or_foreign_folder_names_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    last = _cli_error("agent_zoo.cnn.__main__", ["evaluate", "--dir", str(tmp_path / "nonexistent")], capsys)
    assert "error: argument --dir:" in last and "is not a folder" in last and "train --out DIR" in last
    last = _cli_error("agent_zoo.cnn.__main__", ["evaluate", "--dir", str(tmp_path)], capsys)
    assert "error: argument --dir:" in last and "no config.json" in last


def test_cnn_spread_of_a_missing_result_names_evals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    last = _cli_error("agent_zoo.cnn.__main__", ["spread", "--evals", str(tmp_path / "x"), "--out", str(tmp_path)], capsys)
    assert "error: argument --evals: no round robin result" in last


@pytest.mark.parametrize("text", ["not a summary\n", '{"variants": {}}\n', "step,variant,seed\n", "a,b\n1,2\n"])
def test_rnad_summary_of_a_file_that_is_not_a_log_names_it(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fig3_summary.json"
    path.write_text(text)
    last = _cli_error("agent_zoo.rnad.__main__", ["summary", str(path), "--steps", "5"], capsys)
    assert f"error: argument csv: {path} is not an experiment log" in last and "step, variant, seed" in last


def test_rnad_summary_of_a_missing_file_names_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    last = _cli_error("agent_zoo.rnad.__main__", ["summary", str(tmp_path / "none.csv"), "--steps", "5"], capsys)
    assert "error: argument csv: no file" in last


HOLDEM_KEYS = [g.key for g in catalog.GAMES if g.key in ("nolimit", "limit", "potlimit", "omaha", "shortdeck")]


@pytest.mark.parametrize("key", HOLDEM_KEYS)
@pytest.mark.parametrize("value", [True, False, [200, True]])
def test_a_boolean_stack_is_refused_by_name(key: str, value: object) -> None:
    module = importlib.import_module(catalog.game(key).module_path)
    with pytest.raises(ValueError, match=r"starting_stack.* must be a positive integer"):
        module.raw_env(starting_stack=value)


@pytest.mark.parametrize("backend", ["numpy", "jax"])
def test_vector_make_refuses_a_boolean_stack_by_name(backend: str) -> None:
    from poker_envs import vector

    with pytest.raises(ValueError, match=r"starting_stack.* must be a positive integer"):
        vector.make("nolimit", 2, backend=backend, starting_stack=True)


@pytest.mark.parametrize("name", ["small_blind", "big_blind", "ante", "num_players", "hands_per_episode"])
def test_other_numeric_holdem_arguments_refuse_booleans_by_name(name: str) -> None:
    from poker_envs import nolimit_holdem_v0

    with pytest.raises(ValueError, match=name):
        nolimit_holdem_v0.raw_env(**{name: True})


# ---- CNN agent specs --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def cnn_generation(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A saved generation of a heads-up run at blinds 1/2 with stacks of 100 chips (untrained weights)."""
    import torch

    from agent_zoo.cnn.config import PRESETS
    from agent_zoo.cnn.network import PokerCNN

    path = tmp_path_factory.mktemp("cnn") / "gen_1.pt"
    torch.save({"state_dict": PokerCNN().state_dict(), "generation": 1, "config": PRESETS["tiny"].to_dict()}, path)
    return path


def _cnn_refusal(path: Path, game: str = "nolimit", **config: object) -> str:
    from agent_zoo.registry import make_agent

    env = importlib.import_module(catalog.game(game).module_path).raw_env(**config)
    with pytest.raises(ValueError) as exc:
        make_agent(f"cnn:{path}", env)
    return str(exc.value)


def test_cnn_spec_names_every_unmet_requirement_with_its_fix(cnn_generation: Path) -> None:
    message = _cnn_refusal(cnn_generation, starting_stack=100)
    assert "bet_sizing='chips'" in message and "obs_encoder='poker_cnn'" in message
    assert "--env-config bet_sizing=chips obs_encoder=poker_cnn" in message
    assert "nolimit_holdem_v0.env(bet_sizing='chips', obs_encoder='poker_cnn')" in message
    message = _cnn_refusal(cnn_generation, starting_stack=100, bet_sizing="chips")
    assert "--env-config obs_encoder=poker_cnn" in message and "bet_sizing=" not in message.split("Fix:")[1]


@pytest.mark.parametrize("game", ["leduc", "limit", "potlimit", "shortdeck"])
def test_cnn_spec_on_another_game_says_the_game_is_not_supported(cnn_generation: Path, game: str) -> None:
    message = _cnn_refusal(cnn_generation, game)
    assert "no-limit hold'em only" in message and "is not supported" in message and "bet_sizing" not in message


CNN_TABLE = {"bet_sizing": "chips", "obs_encoder": "poker_cnn"}


@pytest.mark.parametrize("config, table", [
    ({"num_players": 10, "starting_stack": 100}, "the table is 10 players, blinds 1/2, stacks of 100 chips (50 big blinds)"),
    ({}, "the table is heads-up, blinds 1/2, stacks of 200 chips (100 big blinds)"),
    ({"starting_stack": 100, "big_blind": 4, "small_blind": 2}, "blinds 2/4, stacks of 100 chips (25 big blinds)"),
    ({"starting_stack": 100, "ante": 1}, "ante 1"),
    ({"starting_stack": [100, 150]}, "stacks of 100 to 150 chips"),
])
def test_cnn_spec_refuses_a_table_it_was_not_trained_at(cnn_generation: Path, config: dict, table: str) -> None:
    message = _cnn_refusal(cnn_generation, **CNN_TABLE, **config)
    assert "trained heads-up, blinds 1/2, stacks of 100 chips (50 big blinds)" in message and table in message
    assert "--env-config bet_sizing=chips obs_encoder=poker_cnn small_blind=1 big_blind=2 starting_stack=100" in message


def test_cnn_spec_plays_its_own_table_in_any_chip_unit(cnn_generation: Path) -> None:
    from agent_zoo.cnn.agent import CNNAgent
    from agent_zoo.registry import make_agent
    from poker_envs import nolimit_holdem_v0

    for config in ({"starting_stack": 100}, {"starting_stack": 500, "small_blind": 5, "big_blind": 10}):
        assert isinstance(make_agent(f"cnn:{cnn_generation}", nolimit_holdem_v0.raw_env(**CNN_TABLE, **config)), CNNAgent)


# ---- render() without a render mode ------------------------------------------------------------------
def _renders_none_with_the_warning(env: Any) -> None:
    """``env.render()`` of an env built without render_mode: None, and Gymnasium's / PettingZoo's warning."""
    from poker_envs.aec import NO_RENDER_MODE

    with pytest.warns(UserWarning, match=NO_RENDER_MODE):
        assert env.render() is None


@pytest.mark.parametrize("key", catalog.keys())
def test_render_without_a_render_mode_warns_as_pettingzoo_does(key: str) -> None:
    module = importlib.import_module(catalog.game(key).module_path)
    for env in (module.env(), module.raw_env(), module.parallel_env()):
        env.reset(seed=0)
        _renders_none_with_the_warning(env)
    ansi = module.env(render_mode="ansi")
    ansi.reset(seed=0)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert isinstance(ansi.render(), str) and ansi.render()


def test_render_of_the_gymnasium_views_without_a_render_mode_warns() -> None:
    from wrappers.single_agent import SingleAgentEnv
    from wrappers.text_env import TextPokerEnv

    for env in (SingleAgentEnv("leduc"), TextPokerEnv("nolimit")):
        env.reset(seed=0)
        _renders_none_with_the_warning(env)


def test_pettingzoo_says_the_same_words() -> None:
    """The text is PettingZoo's classic envs' own (read from its source, so a rewording there shows here)."""
    import importlib.util

    from poker_envs.aec import NO_RENDER_MODE

    spec = importlib.util.find_spec("pettingzoo.classic.rlcard_envs.leduc_holdem")  # read, not imported (needs rlcard)
    assert spec is not None and spec.origin is not None
    assert NO_RENDER_MODE in Path(spec.origin).read_text()


# ---- step counts: whole rollouts, at least the steps asked, said in the output ----------------------
def test_jax_ppo_rounds_steps_up_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from agent_zoo.jax_ppo.__main__ import main
    from agent_zoo.jax_ppo.config import PPOConfig

    assert PPOConfig(total_steps=8192, num_envs=256, rollout_length=32).rounding_note() is None
    config = PPOConfig(total_steps=300_000, num_envs=256, rollout_length=32)
    assert config.steps_run == 303_104 and config.rounding_note() == (
        "300,000 steps asked: rounded up to 37 whole updates of 256 tables x 32 decisions = 303,104 steps "
        "(a multiple of 8,192 runs exactly)")

    summary = tmp_path / "run.json"
    argv = ["train", "--game", "leduc", "--steps", "300", "--num-envs", "16", "--set", "rollout_length=8", "epochs=2",
            "minibatches=2", "hidden_sizes=32,32", "snapshot_interval=2", "checkpoint_interval=2", "--json", str(summary)]
    main(argv)
    captured = capsys.readouterr()
    data = json.loads(summary.read_text())
    assert data["steps"] == 384 and data["steps_requested"] == 300 and data["updates"] == 3 and data["steps_per_update"] == 128
    assert data["steps_note"] and "rounded up to 3 whole updates" in data["steps_note"]
    assert captured.out.splitlines()[0] == data["steps_note"] and "384 steps (300 asked), 3 updates" in captured.out
    # the bar: it ends at 100% of the steps it runs, and stays (not erased at the end)
    bar = captured.err.split("\n")[0]  # tqdm redraws one line with carriage returns; a kept bar ends with a newline
    last = bar.split("\r")[-1]
    assert "100%" in last and "384/384" in last and last.strip(), captured.err[-300:]
    assert captured.err.split("\n")[1].startswith("json: "), captured.err[-300:]


def test_cleanrl_example_rounds_steps_up_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util

    path = Path(__file__).resolve().parent.parent / "examples" / "cleanrl_masked_ppo.py"
    spec = importlib.util.spec_from_file_location("cleanrl_masked_ppo_frictions", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = module.main(["--total-timesteps", "300", "--num-envs", "4", "--num-steps", "32", "--seed", "3", "--no-progress"])
    assert out["steps"] == 384 and out["steps_requested"] == 300  # 3 rollouts of 128: at least the steps asked
    text = capsys.readouterr().out
    assert "300 steps asked: rounded up to 3 whole rollouts of 4 tables x 32 steps = 384 steps" in text
    assert "384 steps (300 asked)" in text


# ---- noise -------------------------------------------------------------------------------------------
def test_rllib_masked_module_masks_and_builds_without_a_deprecation_notice(tmp_path: Path) -> None:
    """The masked PPO module (on RLlib's current PPO module, not the examples' deprecated one): illegal logits are
    the float minimum, legal ones the network's, the caller's batch is left as it was; building it in a fresh
    process logs no deprecation notice and imports nothing of ray.rllib.examples."""
    import os
    import subprocess
    import sys

    code = '''
import logging, sys
import numpy as np, torch
from gymnasium import spaces
from ray.rllib.core.columns import Columns
from wrappers.rllib import masked_module_spec

logging.basicConfig(level=logging.WARNING)
spec = masked_module_spec({"fcnet_hiddens": [8]})
spec.observation_space = spaces.Dict({"observations": spaces.Box(-1, 1, (4,), np.float32),
                                      "action_mask": spaces.Box(0, 1, (3,), np.float32)})
spec.action_space = spaces.Discrete(3)
module = spec.build()
mask = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
batch = {Columns.OBS: {"observations": torch.rand(2, 4), "action_mask": mask}}
with torch.no_grad():
    logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
    plain = module.pi(module.encoder({Columns.OBS: batch[Columns.OBS]["observations"]})["encoder_out"]["actor"])
    values = module.compute_values(batch)
assert set(batch[Columns.OBS]) == {"observations", "action_mask"}
assert (logits[mask == 0] < -1e38).all() and torch.equal(logits[mask == 1], plain[mask == 1])
assert values.shape == (2,)
assert not [m for m in sys.modules if m.startswith("ray.rllib.examples")]
logging.getLogger("ray._common.deprecation").warning("another notice stays visible")
print("OK")
'''
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0 and run.stdout.strip() == "OK", run.stderr[-3000:]
    assert "another notice stays visible" in run.stderr  # the filter drops exactly RLlib's own notice
    assert "DeprecationWarning" not in run.stderr and "deprecated" not in run.stderr, run.stderr[-3000:]


@pytest.mark.parametrize("key", catalog.keys())
def test_an_unused_reset_option_still_warns_a_user(key: str) -> None:
    """The warning the PettingZoo API tests' probe set off (quieted only around those tests) is there for a
    user's typo, and a known option passes without a word."""
    import warnings

    module = importlib.import_module(catalog.game(key).module_path)
    env = module.env()
    with pytest.warns(UserWarning, match=r"reset options \['buton'\] are not used; known options: \["):
        env.reset(seed=0, options={"buton": 0})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env.reset(seed=0, options={})
