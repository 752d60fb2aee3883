"""JAX self-play PPO: config checks, the advantage scan, a tiny run, bit-identical resume, the agent, exploitability."""

from __future__ import annotations

import json
from pathlib import Path

import jax.numpy as jnp
import numpy as np
import pytest

from agent_zoo.jax_common.agent import JaxAgent
from agent_zoo.jax_common.exploitability import (
    agent_exploitability,
    evaluator,
    uniform_exploitability,
)
from agent_zoo.jax_ppo import train as T
from agent_zoo.jax_ppo.__main__ import main
from agent_zoo.jax_ppo.config import PPOConfig

UNIFORM_EXPLOITABILITY = 2.373611  # OpenSpiel's exploitability (NashConv / 2) of the uniform Leduc policy
# One small Leduc program for every training test (compiled once per process: seed and length may differ).
TINY = {"game": "leduc", "num_envs": 16, "rollout_length": 8, "epochs": 2, "minibatches": 2, "hidden_sizes": (32, 32),
        "snapshot_interval": 2, "checkpoint_interval": 2}
TINY_SET = ["rollout_length=8", "epochs=2", "minibatches=2", "hidden_sizes=32,32", "snapshot_interval=2", "checkpoint_interval=2"]
STEPS_PER_UPDATE = 16 * 8


@pytest.mark.parametrize("field, value", [
    ("game", "chess"), ("num_envs", 0), ("rollout_length", -1), ("total_steps", 1.5), ("learning_rate", 0.0),
    ("gamma", 1.5), ("gae_lambda", -0.1), ("clip_eps", 0), ("ent_coef", -1.0), ("epochs", True),
    ("hidden_sizes", ()), ("hidden_sizes", (64, 0)), ("mix", (0.0, 0.0, 0.0)), ("mix", (1.0, -1.0, 0.0)), ("mix", (1.0, 1.0)),
    ("num_players", 1), ("seed", -3), ("snapshot_interval", 0),
])
def test_config_rejects_bad_values_naming_the_field(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=f"PPOConfig.{field} "):
        PPOConfig(**{field: value})


def test_config_other_rules_and_round_trip() -> None:
    with pytest.raises(ValueError, match="PPOConfig.num_players .*heads-up"):
        PPOConfig(game="leduc", num_players=3)
    with pytest.raises(ValueError, match="PPOConfig.minibatches"):
        PPOConfig(num_envs=2, rollout_length=2, minibatches=8)
    config = PPOConfig(game="nolimit", num_players=6, total_steps=1000, num_envs=10, rollout_length=32)
    assert config.num_updates == 4 and PPOConfig.from_dict(json.loads(config.to_json())) == config


def test_advantages_on_a_hand_worked_rollout() -> None:
    """One table, two seats, five decisions: learner (seat 0), opponent (seat 1), learner (seat 0) ending the
    hand with +3 / -3, then a new hand: learner seat 1, learner seat 0; seat 0 is to act after the rollout
    (bootstrap 4). Seat 1's last decision has no finished hand and no later decision: unknown."""
    values = jnp.array([[1.0], [5.0], [2.0], [0.5], [-1.0]])
    rewards = jnp.zeros((5, 1, 2)).at[2, 0].set(jnp.array([3.0, -3.0]))
    terminated = jnp.array([[False], [False], [True], [False], [False]])
    player = jnp.array([[0], [1], [0], [1], [0]])
    learner = jnp.array([[True], [False], [True], [True], [True]])
    adv, known = T.advantages(values, rewards, terminated, player, learner, jnp.array([4.0]), jnp.array([0]), 1.0, 0.5)
    # t4: 0 + 4 - (-1) = 5; t2: 3 - 2 = 1 (the hand's end: nothing after it); t0: delta 2 - 1 = 1, + 0.5 * 1 = 1.5
    np.testing.assert_allclose(np.asarray(adv)[[0, 2, 4], 0], [1.5, 1.0, 5.0])
    assert np.asarray(adv)[1, 0] == 0.0  # the opponent's decision gets nothing
    assert np.asarray(known)[:, 0].tolist() == [True, False, True, False, True]
    # gamma = lambda = 1: every known advantage is the hand's final chips minus the value
    adv1, _ = T.advantages(values, rewards, terminated, player, learner, jnp.array([4.0]), jnp.array([0]), 1.0, 1.0)
    np.testing.assert_allclose(np.asarray(adv1)[[0, 2], 0], [3.0 - 1.0, 3.0 - 2.0])


def test_tiny_run_writes_checkpoints_json_and_resumes_bit_identically(tmp_path: Path) -> None:
    summary = tmp_path / "run.json"
    out = tmp_path / "cli"
    main(["train", "--game", "leduc", "--steps", str(3 * STEPS_PER_UPDATE), "--num-envs", "16", "--seed", "5",
          "--set", *TINY_SET, "--out", str(out), "--json", str(summary), "--no-progress", "--exploitability"])
    data = json.loads(summary.read_text())
    # --exploitability: the last checkpoint's exact exploitability, as the curve written beside the run has it
    written = json.loads((out / "exploitability.json").read_text())
    assert data["exploitability"] == written["rows"][-1]["exploitability"] and written["rows"][-1]["update"] == 3
    assert data["uniform_exploitability"] == pytest.approx(UNIFORM_EXPLOITABILITY, abs=1e-6)
    assert data["steps"] == 3 * STEPS_PER_UPDATE and data["updates"] == 3 and data["steps_per_second"] > 0
    assert {"reward_vs_random", "entropy", "value_loss"} <= set(data["final"])
    assert sorted(p.name for p in out.glob("checkpoint_*.npz")) == ["checkpoint_0.npz", "checkpoint_2.npz", "checkpoint_3.npz"]
    assert json.loads((out / "latest.json").read_text())["update"] == 3
    assert len((out / "log.jsonl").read_text().splitlines()) == 3

    config = PPOConfig(**TINY, total_steps=5 * STEPS_PER_UPDATE, seed=5)
    whole = T.train(config, tmp_path / "whole", progress=False)["state"]
    # the CLI run stopped after update 3; the same run asked for 5 resumes from its checkpoint 3
    resumed = T.train(config, out, progress=False)
    assert resumed["resumed_from"] == 3 and resumed["updates"] == 5
    for a, b in zip(T.jax.tree_util.tree_leaves((whole.params, whole.opt_state, whole.frozen)),
                    T.jax.tree_util.tree_leaves((resumed["state"].params, resumed["state"].opt_state, resumed["state"].frozen))):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    assert [json.loads(x)["update"] for x in (out / "log.jsonl").read_text().splitlines()] == [1, 2, 3, 4, 5]
    assert T.train(config, out, progress=False)["steps_per_second"] is None  # nothing left to do
    with pytest.raises(ValueError, match="another configuration"):
        T.train(PPOConfig(**{**TINY, "epochs": 3}), out, progress=False)

    # the exploitability sub-command over this run's checkpoints: JSON and PNG
    curve = main(["exploitability", "--out", str(out), "--json", str(tmp_path / "curve.json")])
    assert [r["update"] for r in curve["rows"]] == [0, 2, 3, 4, 5]
    assert (out / "exploitability.png").stat().st_size > 0 and (out / "exploitability.json").is_file()
    assert curve["uniform_exploitability"] == pytest.approx(UNIFORM_EXPLOITABILITY, abs=1e-6)


def test_cli_errors_are_one_line_naming_the_argument(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for argv, flag in ((["--set", "mix=0,0,0"], "--set mix"), (["--set", "nope=1"], "--set"), (["--num-envs", "0"], "--num-envs"),
                       (["--set", "epochs=two"], "--set"), (["--exploitability"], "--exploitability")):
        with pytest.raises(SystemExit) as exc:
            main(["train", "--game", "leduc", "--steps", "10", *argv])
        assert exc.value.code == 2
        assert f"error: argument {flag}" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["exploitability", "--out", str(tmp_path)])
    assert "no checkpoint_" in capsys.readouterr().err


def _fresh_checkpoint(tmp_path: Path, **config: object) -> Path:
    """A checkpoint of a run before its first update (no compilation needed)."""
    cfg = PPOConfig(**config)
    game = T.make_game(cfg)
    scale = T.observation_scale(cfg)
    return T.save_checkpoint(tmp_path / "checkpoint_0.npz", T.init_state(cfg, game), cfg, scale, game.num_actions)


def test_fresh_leduc_policy_is_near_uniform_in_exploitability(tmp_path: Path) -> None:
    ev = evaluator("leduc")
    assert uniform_exploitability(ev) == pytest.approx(UNIFORM_EXPLOITABILITY, abs=1e-6)
    agent = JaxAgent.load(_fresh_checkpoint(tmp_path, game="leduc", seed=3))
    value, nash_conv = agent_exploitability(agent, ev)
    assert value == pytest.approx(UNIFORM_EXPLOITABILITY, abs=0.03) and nash_conv == pytest.approx(2 * value)


def test_agent_plays_a_tournament_legally_and_refuses_other_games(tmp_path: Path) -> None:
    from agent_zoo.registry import make_agent
    from agent_zoo.tournament import TournamentConfig, build_env, run_tournament

    path = _fresh_checkpoint(tmp_path, game="nolimit", seed=1)
    spec = f"jax:{path}"
    result = run_tournament(TournamentConfig(game="nolimit", agents=["random", spec], hands=20, seed=1, progress=False, style=False))
    assert result.agents == ["random", spec] and np.isfinite(result.mean).all()

    agent = make_agent(spec, build_env("nolimit"))
    env = build_env("nolimit")
    env.reset(seed=4)
    obs = env.observe(env.agent_selection)
    probs = agent.action_probabilities(obs)
    assert probs.sum() == pytest.approx(1.0) and np.all(probs[obs["action_mask"] == 0] == 0)
    rows = {k: np.stack([v, v]) for k, v in obs.items()}
    actions = agent.act_batch(rows, [np.random.default_rng(0), np.random.default_rng(0)])
    assert actions[0] == actions[1] == agent.act(obs, np.random.default_rng(0)) and obs["action_mask"][actions[0]] == 1

    with pytest.raises(ValueError, match="jax:"):
        make_agent(spec, build_env("leduc"))
    with pytest.raises(ValueError, match="not a jax_ppo or jax_rnad checkpoint"):
        (tmp_path / "x.npz").write_bytes(b"nope")
        make_agent(f"jax:{tmp_path / 'x.npz'}", build_env("nolimit"))
