"""On-device R-NaD: the update's math by hand and against the numpy plain-loop peer, learning Kuhn, resume, errors."""

from __future__ import annotations

import json
import math
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from agent_zoo.jax_common.agent import JaxAgent
from agent_zoo.jax_rnad import learner as L
from agent_zoo.jax_rnad import train as T
from agent_zoo.jax_rnad.__main__ import main
from agent_zoo.jax_rnad.config import RNaDJaxConfig
from agent_zoo.rnad import vtrace as peer

KUHN_UNIFORM = 0.458333  # exploitability (NashConv / 2) of the uniform Kuhn policy: 11/24
# One small Kuhn program for every training test (compiled once per process: seed, steps and checkpoints may
# differ): the document's two-stage EMA with its max(1 / (n + 1), gamma) schedule, K = 32 hands a step.
TINY = {"game": "kuhn", "batch_size": 32, "hidden_sizes": (32, 32), "steps_per_update": 100, "reg_update_interval": 100,
        "learning_rate": 1e-3, "target_gamma": 0.01, "two_stage": "ema", "reg_gamma_schedule": True, "checkpoint_interval": 2}
TINY_ARGS = ["--game", "kuhn", "--batch-size", "32", "--no-progress", "--set", "hidden_sizes=32,32", "steps_per_update=100",
             "reg_update_interval=100", "learning_rate=0.001", "target_gamma=0.01", "two_stage=ema", "reg_gamma_schedule=true",
             "checkpoint_interval=2"]


# ---- the math, by hand ------------------------------------------------------------------------------------------
def test_reward_transform_by_hand() -> None:
    """pi = (1/2, 1/2, -), pi_reg = (1/4, 3/4, -): log ratio (ln 2, ln 2/3, 0), KL = ln(4/3) / 2; eta = 0.2.
    Player 0's own decision: reward -eta KL, q term -eta log ratio; the opponent's: the opposite; padding: 0."""
    pi = jnp.array([[[0.5, 0.5, 0.0]], [[0.5, 0.5, 0.0]], [[0.5, 0.5, 0.0]]])
    log_ratio = jnp.array([[[math.log(2), math.log(2 / 3), 0.0]]] * 3)
    player = jnp.array([[0], [1], [0]])
    valid = jnp.array([[1.0], [1.0], [0.0]])
    reward, q = L.reward_transform(pi, log_ratio, player, valid, 0, 0.2)
    kl = 0.5 * math.log(4 / 3)
    np.testing.assert_allclose(np.asarray(reward)[:, 0], [-0.2 * kl, 0.2 * kl, 0.0], rtol=1e-6)
    np.testing.assert_allclose(np.asarray(q)[0, 0], [-0.2 * math.log(2), -0.2 * math.log(2 / 3), 0.0], rtol=1e-6)
    np.testing.assert_allclose(np.asarray(q)[1, 0], [0.2 * math.log(2), 0.2 * math.log(2 / 3), 0.0], rtol=1e-6)
    assert not np.asarray(q)[2].any()


def neurd_grad(logits: list[float], pi: list[float], q: list[float], legal: list[float], beta: float = 2.0, clip: float = 1e4) -> np.ndarray:
    """d loss / d logits of one decision with weight 1."""
    row = lambda x: jnp.array([x], jnp.float32)
    f = lambda x: L.neurd_loss(x, row(pi), row(q), row(legal), jnp.ones(1), beta, clip)
    return np.asarray(jax.grad(f)(row(logits)))[0]


def test_neurd_logit_update_by_hand() -> None:
    """A gradient step moves each legal logit by lr * (force - mean legal force), force = the clipped advantage
    q(a) - sum_b pi(b) q(b), except where the centred logit is already beyond +-beta in the advantage's direction."""
    # uniform pi, q = (1, 0, -1): advantages (1, 0, -1); descent raises logit 0 and lowers logit 2
    np.testing.assert_allclose(neurd_grad([0, 0, 0], [1 / 3] * 3, [1, 0, -1], [1, 1, 1]), [-1, 0, 1], atol=1e-6)
    # pi = (3/4, 1/4), q = (1, 2): v = 5/4, advantages (-1/4, 3/4), minus their mean 1/4: (-1/2, 1/2)
    np.testing.assert_allclose(neurd_grad([0, 0], [0.75, 0.25], [1, 2], [1, 1]), [0.5, -0.5], atol=1e-6)
    # advantages clipped to +-0.5
    np.testing.assert_allclose(neurd_grad([0, 0, 0], [1 / 3] * 3, [1, 0, -1], [1, 1, 1], clip=0.5), [-0.5, 0, 0.5], atol=1e-6)
    # beta = 2 and centred logits (3, 0, -3): pushing logit 0 up or logit 2 down is refused, the way back is not
    np.testing.assert_allclose(neurd_grad([3, 0, -3], [1 / 3] * 3, [1, 0, -1], [1, 1, 1]), [0, 0, 0], atol=1e-6)
    np.testing.assert_allclose(neurd_grad([3, 0, -3], [1 / 3] * 3, [-1, 0, 1], [1, 1, 1]), [1, 0, -1], atol=1e-6)
    # an illegal action: centred over the two legal logits, its own gradient 0
    np.testing.assert_allclose(neurd_grad([0, 0, 5], [0.5, 0.5, 0], [1, -1, 7], [1, 1, 0]), [-1, 1, 0], atol=1e-6)


def test_two_stage_average_by_hand() -> None:
    """Reg 0, targets 3 then 6: AM gives the means 3/2 and 3; EMA(0.1) 0.3 then 0.87; R-NaD the target itself."""
    def average(two_stage: str, gamma: float = 0.1, schedule: bool = False) -> list[float]:
        reg, out = {"w": jnp.zeros(())}, []
        for n, target in ((1, 3.0), (2, 6.0)):
            reg = L.lerp(reg, {"w": jnp.asarray(target)}, L.reg_rate(two_stage, gamma, schedule, jnp.asarray(n)))
            out.append(float(reg["w"]))
        return out

    np.testing.assert_allclose(average("am"), [1.5, 3.0], rtol=1e-6)
    np.testing.assert_allclose(average("ema"), [0.3, 0.87], rtol=1e-6)
    np.testing.assert_allclose(average("ema", gamma=0.001, schedule=True), [1.5, 3.0], rtol=1e-6)  # the mean while 1/(n+1) > gamma
    assert average("none") == [3.0, 6.0]  # copied exactly
    assert float(L.reg_rate("ema", 0.001, True, jnp.asarray(2000))) == pytest.approx(0.001)
    # reg_gamma_decay: gamma times the learning rate's fraction, inside the schedule's max
    assert float(L.reg_rate("ema", 0.01, True, jnp.asarray(2000), 0.5)) == pytest.approx(0.005)
    assert float(L.reg_rate("ema", 0.01, True, jnp.asarray(9), 0.5)) == pytest.approx(0.1)
    assert float(L.reg_rate("ema", 0.1, False, jnp.asarray(1), 0.25)) == pytest.approx(0.025)
    assert float(L.target_rate("am", 0.001, jnp.asarray(3))) == pytest.approx(0.25)


# ---- V-trace and the transformation against the numpy plain loops of agent_zoo.rnad ----------------------------
def random_batch(rng: np.random.Generator, t_len: int = 7, cols: int = 9, actions: int = 3) -> dict[str, np.ndarray]:
    """Hands of 1..t_len decisions (padding after), players alternating from a random first seat, chips at the end."""
    lengths = rng.integers(1, t_len + 1, cols)
    valid = (np.arange(t_len)[:, None] < lengths[None, :]).astype(np.float64)
    player = (np.arange(t_len)[:, None] + rng.integers(0, 2, cols)[None, :]) % 2
    rewards = np.zeros((t_len, cols, 2))
    chips = rng.normal(size=cols) * 3
    rewards[lengths - 1, np.arange(cols)] = np.stack([chips, -chips], axis=1)
    logits = rng.normal(size=(t_len, cols, actions))
    pi = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    reg = rng.dirichlet(np.ones(actions), size=(t_len, cols))
    action = rng.integers(0, actions, (t_len, cols))
    return {"v": rng.normal(size=(t_len, cols)), "valid": valid, "player": player, "action": action, "pi": pi,
            "log_ratio": np.log(pi) - np.log(reg), "mu": rng.uniform(0.2, 1.0, (t_len, cols)),
            "pi_taken": np.take_along_axis(pi, action[..., None], -1)[..., 0], "rewards": rewards}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_vtrace_and_transform_match_the_plain_loop_reference(seed: int) -> None:
    b = random_batch(np.random.default_rng(seed))
    with jax.enable_x64(True):
        j = {k: jnp.asarray(v) for k, v in b.items()}
        for p in (0, 1):
            ref_reward, ref_q_reg = peer.reward_transform(b["pi"], b["log_ratio"], b["player"], b["valid"], p, 0.2)
            reward, q_reg = L.reward_transform(j["pi"], j["log_ratio"], j["player"], j["valid"], p, 0.2)
            np.testing.assert_allclose(np.asarray(reward), ref_reward, rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(np.asarray(q_reg), ref_q_reg, rtol=1e-12, atol=1e-12)
            for c in (1.0, 0.5):
                ref = peer.v_trace(b["v"], b["valid"], b["player"], b["action"], b["mu"], b["pi_taken"], b["rewards"],
                                   ref_reward, ref_q_reg, p, c)
                got = L.v_trace(j["v"], j["valid"], j["player"], j["action"], j["mu"], j["pi_taken"], j["rewards"],
                                reward, q_reg, p, c)
                for ours, theirs in zip(got, ref, strict=True):
                    np.testing.assert_allclose(np.asarray(ours, np.float64), np.asarray(theirs, np.float64), rtol=1e-10, atol=1e-10)


def test_vtrace_by_hand_on_one_hand() -> None:
    """Decisions: player 0, player 1, player 0, who wins 2 chips; on-policy (mu = pi), no transformation, c = 1:
    every target of player 0 is the return 2; player 0's q at the taken action is v + (2 - v) / mu."""
    v = jnp.array([[0.5], [-1.0], [1.0]])
    player = jnp.array([[0], [1], [0]])
    rewards = jnp.zeros((3, 1, 2)).at[2, 0].set(jnp.array([2.0, -2.0]))
    mu = jnp.array([[0.5], [0.25], [0.8]])
    zeros = jnp.zeros((3, 1))
    vt, has, q = L.v_trace(v, jnp.ones((3, 1)), player, jnp.array([[1], [0], [0]]), mu, mu, rewards, zeros,
                           jnp.zeros((3, 1, 2)), 0, 1.0)
    np.testing.assert_allclose(np.asarray(vt)[:, 0], [2.0, 0.0, 2.0], rtol=1e-6)
    assert np.asarray(has)[:, 0].tolist() == [True, False, True]
    np.testing.assert_allclose(np.asarray(q)[0, 0], [0.5, 0.5 + (2.0 - 0.5) / 0.5], rtol=1e-6)
    np.testing.assert_allclose(np.asarray(q)[2, 0], [1.0 + (2.0 - 1.0) / 0.8, 1.0], rtol=1e-6)
    assert not np.asarray(q)[1].any()


def test_one_learner_step_plays_exactly_one_whole_hand_per_table() -> None:
    """The rollout of a learner step (the game's longest hand, finished tables sitting out): 2,048 Leduc tables
    with random legal actions each end exactly one hand, the longest ones use all 8 decisions, and the next
    step's tables are fresh hands (seat 0 to act, nothing bet)."""
    from agent_zoo.jax_common import rollout
    from poker_envs.vector import functional

    game = T.make_game(RNaDJaxConfig(game="leduc"))
    state, out = game.init(jax.random.key(0), 2048)

    def choose(done: jax.Array, obs: jax.Array, out: object, key: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
        return functional.random_actions(key, out.action_mask), ~done, ~done

    settle = lambda done, nxt, key: done | nxt.terminated
    carry = (state, out, jnp.zeros(2048, bool))
    (state, out, done), steps = rollout.play(game, jnp.ones(game.observation_shape[0]), choose, settle, carry, jax.random.key(1), 8)
    assert bool(done.all()) and np.asarray(steps.terminated).sum(axis=0).tolist() == [1] * 2048
    assert int(np.asarray(steps.extra).sum(axis=0).max()) == game.max_game_length == 8
    fresh_out = game.init(jax.random.key(2), 1)[1]
    assert (np.asarray(out.current_player) == 0).all()
    np.testing.assert_array_equal(np.asarray(out.action_mask), np.repeat(np.asarray(fresh_out.action_mask), 2048, axis=0))


def arrays(state: T.RunState) -> list[np.ndarray]:
    """Every leaf of a run state as numpy (PRNG keys as their data)."""
    is_key = lambda x: jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key)
    return [np.asarray(jax.random.key_data(x) if is_key(x) else x) for x in jax.tree_util.tree_leaves(state)]


# ---- training ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_kuhn_exploitability_improves_over_uniform(seed: int) -> None:
    """400 learner steps of 32 hands (two-stage EMA with the schedule): the returned (regularisation) policy's
    exact exploitability falls from the uniform policy's 0.458 to below 0.25 (about 0.17-0.19 when written),
    for each seed; the fresh network is uniform to within 0.01."""
    config = RNaDJaxConfig(**TINY, total_steps=400, seed=seed)
    game = T.make_game(config)
    from agent_zoo.jax_common.exploitability import agent_exploitability, evaluator

    ev = evaluator("kuhn")
    fresh = agent_exploitability(T.policy_agent(T.init_state(config, game), T.observation_scale(config)), ev)[0]
    assert fresh == pytest.approx(KUHN_UNIFORM, abs=0.01)
    result = T.train(config, progress=False)
    assert result["uniform_exploitability"] == pytest.approx(KUHN_UNIFORM, abs=1e-6)
    assert result["exploitability"] < 0.25 and result["target_exploitability"] < 0.25
    assert result["steps"] == 400 and result["final"]["reg_updates"] == 4 and result["steps_per_second"] > 0


def test_resume_is_bit_identical_and_checkpoints_play_as_zoo_agents(tmp_path: Path) -> None:
    out = tmp_path / "run"
    summary = tmp_path / "half.json"
    main(["train", *TINY_ARGS, "--steps", "200", "--seed", "4", "--out", str(out), "--json", str(summary)])
    data = json.loads(summary.read_text())
    assert data["steps"] == 200 and data["updates"] == 2 and data["steps_per_second"] > 0 and 0 < data["exploitability"] < 1
    config = RNaDJaxConfig(**TINY, total_steps=400, seed=4)
    resumed = T.train(config, out, progress=False, exploitability=False)
    whole = T.train(config, tmp_path / "whole", progress=False, exploitability=False)
    assert resumed["resumed_from"] == 2 and resumed["updates"] == 4
    for a, b in zip(arrays(whole["state"]), arrays(resumed["state"]), strict=True):  # every leaf, tables and keys too
        np.testing.assert_array_equal(a, b)
    assert sorted(p.name for p in out.glob("checkpoint_*.npz")) == ["checkpoint_0.npz", "checkpoint_2.npz", "checkpoint_4.npz"]
    assert [json.loads(x)["update"] for x in (out / "log.jsonl").read_text().splitlines()] == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="another configuration"):
        T.train(RNaDJaxConfig(**{**TINY, "eta": 0.1}), out, progress=False)

    # the checkpoint's agent plays the regularisation policy of the saved state
    from agent_zoo.jax_common.exploitability import evaluator
    from agent_zoo.registry import make_agent
    from agent_zoo.tournament import TournamentConfig, build_env, run_tournament

    ev = evaluator("kuhn")
    rows = {"observation": ev.obs, "action_mask": ev.legal.astype(np.int8)}
    agent = JaxAgent.load(out / "checkpoint_4.npz")
    assert agent.info["trainer"] == "jax_rnad"
    expected = T.policy_agent(resumed["state"], T.observation_scale(config)).action_probabilities_batch(rows)
    np.testing.assert_array_equal(agent.action_probabilities_batch(rows), expected)
    spec = f"jax:{out / 'checkpoint_4.npz'}"
    make_agent(spec, build_env("kuhn"))
    result = run_tournament(TournamentConfig(game="kuhn", agents=["random", spec], hands=20, seed=1, progress=False, style=False))
    assert np.isfinite(result.mean).all()
    with pytest.raises(ValueError, match="jax:"):
        make_agent(spec, build_env("leduc"))

    # jax_pp: the same policy post-processed as OpenSpiel's R-NaD played: no action under 3% (unless all are),
    # every probability a multiple of 1/32, legal actions only
    from agent_zoo.rnad.numpy_net import post_process_policy

    pp = make_agent(f"jax_pp:{out / 'checkpoint_4.npz'}", build_env("kuhn"))
    table = pp.action_probabilities_batch(rows)
    np.testing.assert_array_equal(table, post_process_policy(expected))
    np.testing.assert_allclose(table * 32, np.round(table * 32), atol=1e-9)
    assert not ((table > 0) & (table < 0.03)).any() and (table[ev.legal == 0] == 0).all()
    np.testing.assert_allclose(table.sum(axis=1), 1.0)
    with pytest.raises(ValueError, match="jax_pp:"):
        make_agent(f"jax_pp:{out / 'checkpoint_4.npz'}", build_env("leduc"))

    curve = main(["exploitability", "--out", str(out), "--json", str(tmp_path / "curve.json")])
    assert [r["update"] for r in curve["rows"]] == [0, 2, 4] and [r["steps"] for r in curve["rows"]] == [0, 200, 400]
    assert curve["rows"][-1]["pp_exploitability"] == pytest.approx(ev(table).exploitability, abs=1e-12)
    # train's summary after update 2 reports what checkpoint_2 gives, raw and post-processed
    assert (data["exploitability"], data["post_processed_exploitability"]) == pytest.approx(
        (curve["rows"][1]["exploitability"], curve["rows"][1]["pp_exploitability"]), abs=1e-12)
    assert curve["rows"][1]["pp_exploitability"] != curve["rows"][1]["exploitability"]
    assert curve["rows"][0]["exploitability"] == pytest.approx(KUHN_UNIFORM, abs=0.01) and curve["trainer"] == "jax_rnad"
    assert curve["rows"][-1]["exploitability"] < curve["rows"][0]["exploitability"]
    assert (out / "exploitability.png").stat().st_size > 0
    # the run's average policy: the target policies of checkpoints 2 and 4 averaged by own reach (the running
    # sums of the curve agree with agent_zoo.cfr.average_policy), saved as a tabular file that cfr: plays
    from agent_zoo.cfr import average_policy

    targets = [JaxAgent.load(out / f"checkpoint_{u}.npz", parameters="target").action_probabilities_batch(rows) for u in (2, 4)]
    assert not np.allclose(targets[0], expected)  # the target is not the regularisation policy
    mixed = average_policy(ev.tree, targets)
    assert "avg_exploitability" not in curve["rows"][0] and curve["averaged"] == "target"
    assert curve["rows"][1]["avg_exploitability"] == pytest.approx(ev(targets[0]).exploitability, abs=1e-12)
    assert curve["rows"][2]["avg_exploitability"] == pytest.approx(ev(mixed).exploitability, abs=1e-12)
    played = make_agent(f"cfr:{curve['average_policy']}", build_env("kuhn"))
    np.testing.assert_allclose(played.action_probabilities_batch(rows), mixed, atol=1e-12)
    with pytest.raises(ValueError, match="parameters: .* no parameter set 'theta'"):
        JaxAgent.load(out / "checkpoint_4.npz", parameters="theta")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_kuhn_learns_with_an_exploration_share(seed: int) -> None:
    """With a tenth of theta's actions uniform (V-trace and NeuRD corrected by pi / mu), 400 learner steps still
    take the returned policy from the uniform 0.458 to below 0.25, for each seed."""
    result = T.train(RNaDJaxConfig(**TINY, total_steps=400, seed=seed, exploration=0.1), progress=False)
    assert result["exploitability"] < 0.25


def test_a_window_shorter_than_a_hand_cuts_it_and_a_whole_window_changes_nothing() -> None:
    """A window of the game's longest hand is the default run, leaf for leaf; a window of one decision plays one
    decision per table and step, and the decisions left out of the loss (hands not over) are the share of Kuhn
    decisions that do not end a hand: between 1/2 (every hand two decisions) and 2/3 (every hand three)."""
    default = T.train(RNaDJaxConfig(**TINY, total_steps=100, seed=5), progress=False, exploitability=False)
    whole = T.train(RNaDJaxConfig(**TINY, total_steps=100, seed=5, hand_window=3), progress=False, exploitability=False)
    for a, b in zip(arrays(default["state"]), arrays(whole["state"]), strict=True):
        np.testing.assert_array_equal(a, b)
    cut = T.train(RNaDJaxConfig(**TINY, total_steps=100, seed=5, hand_window=1), progress=False, exploitability=False)
    assert cut["final"]["hand_length"] == 1.0 and 0.5 < cut["final"]["cut"] < 2 / 3
    assert math.isfinite(cut["final"]["loss_pi"]) and math.isfinite(cut["final"]["loss_v"])


def test_a_hand_the_window_cut_adds_nothing_to_the_loss() -> None:
    """Kuhn hands take 2 or 3 decisions: over a 2-decision window from fresh deals the 3-decision hands are cut.
    The loss and its gradient over all tables equal those over the tables whose hand ended alone (the cut
    columns' rewards, values and actions count for nothing, and the averages are over the counted decisions)."""
    from agent_zoo.jax_common import rollout

    config = RNaDJaxConfig(**TINY, seed=3)
    game, scale = T.make_game(config), jnp.asarray(T.observation_scale(config))
    rs = T.init_state(config, game)

    def choose(done: jax.Array, obs: jax.Array, out: object, key: jax.Array) -> tuple[jax.Array, jax.Array, T.Decision]:
        logits = jnp.where(out.action_mask > 0, 0.0, L.MASKED)
        action = jax.random.categorical(key, logits).astype(jnp.int32)
        return action, ~done, T.Decision(jnp.take_along_axis(jax.nn.softmax(logits), action[:, None], axis=1)[:, 0], ~done)

    settle = lambda done, nxt, key: done | nxt.terminated
    (_, _, ended), steps = rollout.play(game, scale, choose, settle, (rs.env_state, rs.env_out, jnp.zeros(32, bool)),
                                        jax.random.key(4), 2)
    steps = T.window_cut(steps, ended)
    keep = np.flatnonzero(np.asarray(ended))
    assert 0 < len(keep) < 32  # both kinds of table occurred
    ended_only = jax.tree_util.tree_map(lambda x: x[:, keep], steps)
    loss = jax.value_and_grad(T.make_loss(config), has_aux=True)
    args = (rs.params, rs.target, rs.reg, rs.reg_prev, jnp.ones(()))
    (all_value, _), all_grad = loss(*args, steps)
    (kept_value, _), kept_grad = loss(*args, ended_only)
    assert float(all_value) == pytest.approx(float(kept_value), rel=1e-5)
    for a, b in zip(jax.tree_util.tree_leaves(all_grad), jax.tree_util.tree_leaves(kept_grad), strict=True):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-4, atol=1e-6)
    assert RNaDJaxConfig(game="nolimit").window(824) == 48 and RNaDJaxConfig(game="leduc").window(8) == 8


def test_heads_up_no_limit_trains_and_its_checkpoint_plays(tmp_path: Path) -> None:
    """``--game nolimit``: a short run over the default window (hardly a hand cut), a JSON without an exact
    exploitability, a checkpoint that plays no-limit hands as a zoo agent, and a clear error from the curve."""
    out = tmp_path / "nl"
    result = main(["train", "--game", "nolimit", "--batch-size", "16", "--steps", "20", "--no-progress", "--out", str(out),
                   "--json", str(tmp_path / "nl.json"), "--set", "hidden_sizes=16,16", "steps_per_update=10", "reg_update_interval=10"])
    assert result["steps"] == 20 and "exploitability" not in result and result["final"]["cut"] < 0.05
    assert json.loads((tmp_path / "nl.json").read_text())["final"]["hand_length"] > 2
    from agent_zoo.tournament import TournamentConfig, run_tournament

    spec = f"jax:{out / 'checkpoint_2.npz'}"
    played = run_tournament(TournamentConfig(game="nolimit", agents=["random", spec], hands=20, seed=1, progress=False, style=False))
    assert np.isfinite(played.mean).all()
    with pytest.raises(SystemExit):
        main(["exploitability", "--out", str(out)])


# ---- bad arguments ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("field, value", [
    ("game", "limit"), ("batch_size", 0), ("total_steps", 1.5), ("steps_per_update", True), ("reg_update_interval", -1),
    ("target_gamma", 0.0), ("reg_gamma", 1.5), ("two_stage", "avg"), ("target_averaging", "mean"), ("eta", -0.1),
    ("learning_rate", 0), ("adam_b1", 1.0), ("hidden_sizes", ()), ("hidden_sizes", (8, 0)), ("reg_interpolation", 1),
    ("seed", -1), ("vtrace_c", 0.0), ("lr_schedule", "cosine"), ("lr_end_fraction", 0.5), ("lr_end_fraction", -0.1),
    ("exploration", 1.0), ("exploration", -0.1), ("hand_window", -1), ("hand_window", True), ("reg_gamma_decay", 1),
    ("lr_iteration_end", 0.0), ("lr_iteration_end", 1.5),
])
def test_config_rejects_bad_values_naming_the_field(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=f"RNaDJaxConfig.{field} "):
        RNaDJaxConfig(**{field: value})


def test_reg_gamma_decay_needs_the_ema_stage_and_a_linear_rate() -> None:
    with pytest.raises(ValueError, match="RNaDJaxConfig.reg_gamma_decay .*lr_schedule='linear'"):
        RNaDJaxConfig(reg_gamma_decay=True)
    with pytest.raises(ValueError, match="RNaDJaxConfig.reg_gamma_decay "):
        RNaDJaxConfig(reg_gamma_decay=True, lr_schedule="linear", two_stage="am")
    RNaDJaxConfig(reg_gamma_decay=True, lr_schedule="linear")  # two_stage="ema" is the default


def test_linear_learning_rate_falls_from_the_first_step_to_the_last() -> None:
    """Adam without momentum on a constant gradient steps by the rate itself (the second moment, bias-corrected,
    is g^2): the step sizes read off the optimizer are the schedule, worked by hand for 2 updates of 5 steps."""
    import jax.numpy as jnp

    from agent_zoo.jax_rnad.train import make_optimizer

    def step_sizes(**fields: object) -> list[float]:
        config = RNaDJaxConfig(game="kuhn", total_steps=10, steps_per_update=5, learning_rate=1e-3, adam_eps=1e-12, **fields)
        opt = make_optimizer(config)
        params, grads = {"w": jnp.zeros(3)}, {"w": jnp.asarray([2.0, -3.0, 0.5])}
        state, sizes = opt.init(params), []
        for _ in range(10):
            updates, state = opt.update(grads, state, params)
            sizes.append(float(jnp.abs(updates["w"][1])))
        return sizes

    assert step_sizes() == pytest.approx([1e-3] * 10, rel=1e-5)
    hand = [1e-3 - k * (1e-3 - 2.5e-4) / 9 for k in range(10)]  # from 1e-3 to 1e-3 * 0.25 over the 10 steps
    assert step_sizes(lr_schedule="linear", lr_end_fraction=0.25) == pytest.approx(hand, rel=1e-5)
    # M = 5: within each iteration the rate falls from the schedule's to 0.2 of it (1, 0.8, 0.6, 0.4, 0.2), then again
    cycle = [1.0, 0.8, 0.6, 0.4, 0.2] * 2
    assert step_sizes(reg_update_interval=5, lr_iteration_end=0.2) == pytest.approx([1e-3 * c for c in cycle], rel=1e-5)
    both = step_sizes(reg_update_interval=5, lr_iteration_end=0.2, lr_schedule="linear", lr_end_fraction=0.25)
    assert both == pytest.approx([h * c for h, c in zip(hand, cycle)], rel=1e-5)


def test_config_round_trips_and_rounds_steps_up() -> None:
    config = RNaDJaxConfig(total_steps=1001, steps_per_update=500)
    assert config.num_updates == 3 and config.steps_run == 1500 and "rounded up to 3 whole updates" in config.rounding_note()
    assert RNaDJaxConfig.from_dict(json.loads(config.to_json())) == config
    with pytest.raises(ValueError, match="unknown RNaDJaxConfig fields"):
        RNaDJaxConfig.from_dict({"mix": 1})


def test_cli_errors_are_one_line_naming_the_argument(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for argv, flag in ((["--set", "two_stage=avg"], "--set two_stage"), (["--set", "nope=1"], "--set"),
                       (["--batch-size", "0"], "--batch-size"), (["--steps", "0"], "--steps"),
                       (["--set", "eta=lots"], "--set eta"), (["--game", "limit"], "--game")):
        with pytest.raises(SystemExit) as exc:
            main(["train", *argv])
        assert exc.value.code == 2
        assert f"error: argument {flag}" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["exploitability", "--out", str(tmp_path)])
    assert "no checkpoint_" in capsys.readouterr().err
    (tmp_path / "latest.json").write_text(json.dumps({"checkpoint": "checkpoint_0.npz", "update": 0, "config": {"mix": [1, 0, 0]}}))
    with pytest.raises(SystemExit):
        main(["train", *TINY_ARGS, "--steps", "100", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert "error: argument --out: " in err and "holds a run of another trainer (unknown RNaDJaxConfig fields ['mix']" in err
