"""R-NaD with two-stage averaging whose hands and learner run in one jitted function on the functional engine.

One learner step (Algorithms 1 and 2 of Hirano & Tsuruoka, after Perolat et al.'s R-NaD), all on the device:

1. ``batch_size`` tables each play one whole hand, every seat sampling from the current policy theta
   (``jax_common.rollout.play`` over ``max_game_length`` decisions, or the config's ``hand_window``; a table
   whose hand ended sits out the rest, and the next hand is already dealt for the next step; a hand the window
   cut is left out of this step's loss and finished, and learned from, at the next);
2. the rewards are transformed against the regularisation policy (``learner.reward_transform``, with
   OpenSpiel's smooth switch from the previous regularisation policy in the first half of each M steps),
   V-trace gives value targets and action values from the target network's values (``learner.v_trace``);
3. one Adam step on the value loss plus NeuRD (``learner.neurd_loss``) moves theta;
4. the target follows theta (EMA with ``target_gamma``, or the arithmetic mean);
5. every M = ``reg_update_interval`` steps a fixed-point iteration ends: the regularisation parameters become
   the target (R-NaD, ``two_stage="none"``) or its second-stage average (``"am"``, ``"ema"``).

``update`` runs ``steps_per_update`` learner steps in one ``lax.scan``; ``train`` (the host loop of
``jax_common.loop``) calls it, logs and checkpoints. The policy the algorithm returns, and the checkpoints'
agent plays, is the regularisation policy. The whole run state is one pytree, so a resumed run is
bit-identical to an uninterrupted one.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax

from agent_zoo.jax_common import league as lg
from agent_zoo.jax_common import network as net
from agent_zoo.jax_common import rollout
from agent_zoo.jax_common.agent import JaxAgent
from agent_zoo.jax_common.devices import place, throughput
from agent_zoo.jax_common.loop import run
from agent_zoo.jax_common.rollout import make_game, observation_scale, rules_name
from agent_zoo.jax_rnad import learner as L
from agent_zoo.jax_rnad.config import RNaDJaxConfig
from poker_envs.vector import functional

CHECKPOINT_FORMAT = "jax-rnad-checkpoint-1"
POLICY = "reg"  # the parameter set the algorithm returns and the agent plays


class RunState(NamedTuple):
    """Everything a run carries from one update to the next (one pytree: jit, checkpoint)."""

    params: net.Params  # theta, the learned parameters
    target: net.Params  # theta_target, the average of theta
    reg: net.Params  # theta_reg,m, the regularisation policy (the policy the algorithm returns)
    reg_prev: net.Params  # theta_reg,m-1 (the smooth switch interpolates from it)
    opt_state: Any  # optax state of theta's Adam
    env_state: Any  # the tables (functional game state, with its own PRNG key): fresh hands between steps
    env_out: Any  # the tables' last output
    key: jax.Array  # the run's PRNG key
    learner_steps: jax.Array  # () learner steps done (t)
    reg_updates: jax.Array  # () regularisation updates done (m - 1)
    update: jax.Array  # () updates (jitted calls) done
    league: Any = None  # jax_common.league.LeagueState (config.league members of theta's past; None: no league)


class Decision(NamedTuple):
    """What R-NaD records of each decision beside ``rollout.Step``'s."""

    mu: jax.Array  # () probability of the action under the acting policy
    valid: jax.Array  # () the table's hand had not ended before this decision (and, once played, ended in the window)
    member_seat: Any = None  # () the seat a league member plays at this table (-1: none; None: no league)


def window_cut(steps: rollout.Step, ended: jax.Array) -> rollout.Step:
    """The (T, B) records with the decisions of hands the window cut (``ended`` False at the table) marked not
    valid: they have no reward yet, so the loss leaves them out."""
    return steps._replace(extra=steps.extra._replace(valid=steps.extra.valid & ended))


def learning_rate(config: RNaDJaxConfig) -> optax.Schedule:
    """Adam's rate at each step count: ``learning_rate`` throughout, or with ``lr_schedule="linear"`` falling
    linearly to ``learning_rate * lr_end_fraction`` at the run's last learner step."""
    if config.lr_schedule == "linear":
        return optax.linear_schedule(config.learning_rate, config.learning_rate * config.lr_end_fraction,
                                     max(config.steps_run - 1, 1))
    return optax.constant_schedule(config.learning_rate)


def iteration_factor(config: RNaDJaxConfig, count: jax.Array) -> jax.Array:
    """The share of the schedule's rate at optimizer step ``count`` (0-based) with ``lr_iteration_end``: 1 at each
    fixed-point iteration's first step, falling linearly to ``lr_iteration_end`` at its last."""
    m = config.reg_update_interval
    return 1.0 - (1.0 - config.lr_iteration_end) * (count % m) / max(m - 1, 1)


def make_optimizer(config: RNaDJaxConfig) -> optax.GradientTransformation:
    """Adam on gradients clipped component-wise to +-grad_clip, at the rate of ``learning_rate(config)`` (times
    ``iteration_factor`` when ``lr_iteration_end`` < 1)."""
    schedule = learning_rate(config)
    if config.lr_iteration_end < 1:
        rate = lambda count: schedule(count) * iteration_factor(config, count)
    else:  # a constant rate stays a float: the optimizer state (and older checkpoints) then hold no step count
        rate = schedule if config.lr_schedule == "linear" else config.learning_rate
    return optax.chain(optax.clip(config.grad_clip),
                       optax.adam(rate, b1=config.adam_b1, b2=config.adam_b2, eps=config.adam_eps))


def init_state(config: RNaDJaxConfig, game: functional.FunctionalGame) -> RunState:
    """The run before its first step, all drawn from ``config.seed``; target and regularisation parameters
    start as copies of theta (as OpenSpiel's R-NaD)."""
    key = jax.random.key(config.seed)
    key, k_params, k_env = jax.random.split(key, 3)
    params = net.init_params(k_params, game.observation_shape[0], game.num_actions, config.hidden_sizes)
    env_state, env_out = game.init(k_env, config.batch_size)
    zero = jnp.zeros((), jnp.int32)
    league = lg.init(params, config.league, config.batch_size, jax.random.fold_in(k_env, 1)) if config.league else None
    return RunState(params, params, params, params, make_optimizer(config).init(params), env_state, env_out, key,
                    zero, zero, zero, league)


def policy_and_values(params: net.Params, obs: jax.Array, legal: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array, jax.Array]:
    """(logits, policy, log policy, values) of ``params`` on (..., D) observations."""
    logits = net.policy_logits(params, obs, legal, jnp)
    pi, log_pi = L.masked_log_policy(logits, legal)
    return logits, pi, log_pi, net.value(params, obs, jnp)


def make_loss(config: RNaDJaxConfig) -> Callable[..., tuple[jax.Array, dict[str, jax.Array]]]:
    """loss(params, target, reg, reg_prev, alpha, steps) of one batch of hands (``rollout.Step`` records)."""

    def loss(params: net.Params, target: net.Params, reg: net.Params, reg_prev: net.Params, alpha: jax.Array,
             steps: rollout.Step) -> tuple[jax.Array, dict[str, jax.Array]]:
        legal = steps.mask.astype(jnp.float32)
        logits, pi, log_pi, v = policy_and_values(params, steps.obs, legal)
        v_tgt = net.value(target, steps.obs, jnp)
        log_reg = L.masked_log_policy(net.policy_logits(reg, steps.obs, legal, jnp), legal)[1]
        log_prev = L.masked_log_policy(net.policy_logits(reg_prev, steps.obs, legal, jnp), legal)[1]
        log_reg = jnp.where(alpha < 1.0, alpha * log_reg + (1.0 - alpha) * log_prev, log_reg)
        sg = jax.lax.stop_gradient
        log_ratio, pi_c = sg(log_pi - log_reg), sg(pi)
        pi_taken = jnp.take_along_axis(pi_c, steps.action[..., None], axis=-1)[..., 0]
        valid = steps.extra.valid.astype(jnp.float32)
        valid_reg, theirs = valid, None
        if config.league:  # a member's decisions are the environment: importance weight 1, no transformation, no loss
            theirs = steps.player == steps.extra.member_seat
            pi_taken = jnp.where(theirs, steps.extra.mu, pi_taken)
            valid_reg = valid * ~theirs
        v_target, q, weight = jnp.zeros_like(v), jnp.zeros_like(pi), jnp.zeros_like(v)
        for p in (0, 1):
            reg_reward, reg_q = L.reward_transform(pi_c, log_ratio, steps.player, valid_reg, p, config.eta)
            vt, has, qp = L.v_trace(sg(v_tgt), valid, steps.player, steps.action, steps.extra.mu, pi_taken,
                                    steps.rewards, reg_reward, reg_q, p, config.vtrace_c)
            if theirs is not None:
                has, qp = has & ~theirs, qp * ~theirs[..., None]
            v_target, q, weight = v_target + vt * has, q + qp, weight + L.player_weights(has)
        loss_v = L.value_loss(v, v_target, weight)
        loss_pi = L.neurd_loss(logits, pi_c, sg(q), legal, weight, config.neurd_beta, config.neurd_clip)
        return loss_v + loss_pi, {"loss_v": loss_v, "loss_pi": loss_pi}

    return loss


def make_update(config: RNaDJaxConfig, game: functional.FunctionalGame, obs_scale: np.ndarray) -> Callable[[RunState], tuple[RunState, dict[str, jax.Array]]]:
    """The pure function state -> (state, metrics) of ``steps_per_update`` learner steps (wrap it in ``jax.jit``)."""
    optimizer = make_optimizer(config)
    scale = jnp.asarray(obs_scale)
    grad = jax.grad(make_loss(config), has_aux=True)
    m = config.reg_update_interval
    length = config.window(game.max_game_length)  # decisions per table and step (by default every hand whole)
    league = lg.config_of(config)
    rate = learning_rate(config)  # reg_gamma_decay follows its fall

    def settle(done: jax.Array, nxt: Any, key: jax.Array) -> jax.Array:
        return done | nxt.terminated

    def step(rs: RunState, _: None) -> tuple[RunState, dict[str, jax.Array]]:
        params, members, member_seat = rs.params, rs.league, None
        if config.league:  # this step's league tables: a share of the tables, the member's seat, the member (PFSP)
            key, k_roll, k_league = jax.random.split(rs.key, 3)
            k_table, k_seat, k_member = jax.random.split(k_league, 3)
            plays = jax.random.uniform(k_table, (config.batch_size,)) < config.league_fraction
            seat = jax.random.randint(k_seat, (config.batch_size,), 0, 2, dtype=jnp.int32)
            member_seat = jnp.where(plays, seat, -1)
            members = members._replace(member=lg.draw(k_member, lg.weights(members, league), config.batch_size))
        else:
            key, k_roll = jax.random.split(rs.key)

        def choose(done: jax.Array, obs: jax.Array, out: Any, k: jax.Array) -> tuple[jax.Array, jax.Array, Decision]:
            logits = net.policy_logits(params, obs, out.action_mask, jnp)
            if config.league:
                theirs = out.current_player == member_seat
                logits = jnp.where(theirs[:, None], lg.member_logits(members.population, members.member, obs, out.action_mask), logits)
            probs = jax.nn.softmax(logits)
            if config.exploration:  # theta's seats mix in the uniform legal policy; a member plays its own
                legal = out.action_mask.astype(probs.dtype)
                mixed = (1.0 - config.exploration) * probs + config.exploration * legal / legal.sum(axis=1, keepdims=True)
                probs = jnp.where(theirs[:, None], probs, mixed) if config.league else mixed
                logits = jnp.where(legal > 0, jnp.log(jnp.where(legal > 0, probs, 1.0)), L.MASKED)
            action = jax.random.categorical(k, logits).astype(jnp.int32)
            mu = jnp.take_along_axis(probs, action[:, None], axis=1)[:, 0]
            return action, ~done, Decision(mu, ~done, member_seat)

        done = jnp.zeros(config.batch_size, bool)
        (env_state, env_out, ended), steps = rollout.play(game, scale, choose, settle, (rs.env_state, rs.env_out, done), k_roll, length)
        played = steps.extra.valid
        steps = window_cut(steps, ended)
        t = rs.learner_steps
        alpha = jnp.minimum(2.0 * (t % m) / m, 1.0) if config.reg_interpolation else jnp.ones(())
        grads, stats = grad(params, rs.target, rs.reg, rs.reg_prev, alpha, steps)
        updates, opt_state = optimizer.update(grads, rs.opt_state, params)
        params = optax.apply_updates(params, updates)
        t = t + 1
        target = L.lerp(rs.target, params, L.target_rate(config.target_averaging, config.target_gamma, t))
        due = t % m == 0  # the fixed-point iteration ends: a new regularisation policy
        n = rs.reg_updates + due.astype(jnp.int32)
        new_reg = L.lerp(rs.reg, target, L.reg_rate(config.two_stage, config.reg_gamma, config.reg_gamma_schedule, n,
                                                    rate(t - 1) / config.learning_rate if config.reg_gamma_decay else 1.0))
        keep = lambda new, old: jax.tree_util.tree_map(lambda a, b: jnp.where(due, a, b), new, old)
        stats = stats | {"hand_length": played.sum() / config.batch_size,
                         "cut": (played & ~ended).sum() / jnp.maximum(played.sum(), 1)}
        if config.league:  # theta's chips in the hands against members that ended in this step's window
            vs = (member_seat >= 0) & ended
            won = jnp.take_along_axis(steps.rewards.sum(axis=0), (1 - jnp.maximum(member_seat, 0))[:, None], axis=1)[:, 0]
            members = lg.record(members, members.member, won, vs)
            stats = stats | {"league_hands": vs.sum(), "reward_vs_league": jnp.sum(jnp.where(vs, won, 0.0)) / jnp.maximum(vs.sum(), 1)}
        return RunState(params, target, keep(new_reg, rs.reg), keep(rs.reg, rs.reg_prev), opt_state, env_state, env_out,
                        key, t, n, rs.update, members), stats

    def update(rs: RunState) -> tuple[RunState, dict[str, jax.Array]]:
        rs, stats = jax.lax.scan(step, rs, None, length=config.steps_per_update)
        metrics = {k: v.mean() for k, v in stats.items()} | {"reg_updates": rs.reg_updates, "learner_steps": rs.learner_steps}
        if config.league:  # theta after this update may join the league
            metrics["league_hands"] = stats["league_hands"].sum()
            rs = rs._replace(league=lg.maybe_admit(rs.league, rs.params, rs.update + 1, league))
        return rs._replace(update=rs.update + 1), metrics

    return update


def header(config: RNaDJaxConfig, obs_scale: np.ndarray, num_actions: int) -> dict[str, Any]:
    """The JSON header of this run's checkpoints (the format of ``jax_common.checkpoint``; the update is added)."""
    return {"format": CHECKPOINT_FORMAT, "config": config.to_dict(), "game": rules_name(config), "num_actions": num_actions,
            "obs_dim": int(obs_scale.size), "steps_per_update": config.steps_per_update, "policy": POLICY}


def policy_agent(state: RunState, obs_scale: np.ndarray, which: str = POLICY) -> JaxAgent:
    """Parameter set ``which`` ("reg", "target" or "params") of ``state`` as a zoo agent (numpy)."""
    if which not in ("reg", "target", "params"):
        raise ValueError(f"which must be 'reg', 'target' or 'params', got {which!r}")
    params = {k: np.asarray(v) for k, v in jax.device_get(getattr(state, which)).items()}
    return JaxAgent(params, obs_scale)


def train(config: RNaDJaxConfig, out: str | Path | None = None, progress: bool = True, exploitability: bool = True) -> dict[str, Any]:
    """Run (or resume, from ``out``'s latest checkpoint) ``config``; the summary: steps (learner steps, whole
    updates: at least ``total_steps``), updates, seconds, ``steps_per_second`` (learner steps per wall second of
    the update loop, compilation not), ``decisions_per_second`` (environment decisions played), the last
    update's metrics and, with ``exploitability``, the exact exploitability of the regularisation policy (the
    policy returned; also post-processed, as OpenSpiel's R-NaD evaluated its policies) and of the target
    policy, with the uniform policy's for scale."""
    game = make_game(config)
    scale = observation_scale(config)
    if scale.size != game.observation_shape[0]:
        raise ValueError(f"observation sizes disagree: env {scale.size}, functional game {game.observation_shape[0]}")
    state = init_state(config, game)
    devices, placement = place(config.devices, state, config.batch_size, "batch_size", ("env_state", "env_out", "league/member"))
    result = run(config, state, lambda: make_update(config, game, scale), header(config, scale, game.num_actions),
                 scale, out, progress, lambda row: {"loss_pi": f"{row['loss_pi']:+.3f}", "reg": f"{int(row['reg_updates'])}"}, placement)
    log, new_rows = result.pop("log"), result.pop("new_rows")
    decisions = sum(row["hand_length"] * config.batch_size * config.steps_per_update for row in new_rows)
    result |= throughput(result["seconds"], decisions, len(new_rows) * config.batch_size * config.steps_per_update, devices)
    summary = {"game": config.game, **result, "decisions_per_second": decisions / result["seconds"] if new_rows else None,
               "final": log[-1] if log else None}
    from agent_zoo.jax_common import exploitability as exact  # numpy only: the best response of Leduc and Kuhn

    if exploitability and config.game in exact.SOLVABLE:
        ev = exact.evaluator(config.game)
        agent = policy_agent(result["state"], scale)
        summary["exploitability"], summary["nash_conv"] = exact.agent_exploitability(agent, ev)
        summary["post_processed_exploitability"] = exact.agent_exploitability(agent, ev, post_process=True)[0]
        summary["target_exploitability"] = exact.agent_exploitability(policy_agent(result["state"], scale, "target"), ev)[0]
        summary["uniform_exploitability"] = exact.uniform_exploitability(ev)
    if config.league:
        title = f"R-NaD league on {config.game}: theta and members"
        summary["payoff"] = lg.report(result["state"].league, lg.config_of(config), out, title)
    return summary
