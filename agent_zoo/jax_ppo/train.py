"""Self-play PPO whose environment and learner run in one jitted function (PureJaxRL style).

One call of ``update`` (the jitted function this module builds) does a whole PPO iteration on the device:

1. ``lax.scan`` over ``rollout_length`` steps of ``num_envs`` tables of the functional game
   (``poker_envs.vector.functional``): at every table the seat to act is the learner's seat of this hand
   (drawn anew each hand), or an opponent seat played by the table's opponent of this hand (drawn from
   ``mix``: a frozen copy of the learner, uniform random legal actions, or the learner itself);
2. ``advantages``: a backward ``lax.scan`` that gives every learner decision its GAE advantage from the
   chips its seat won when the hand ended, however many opponent moves came in between;
3. ``epochs`` passes of clipped PPO steps (Adam, optax) on minibatches of the learner decisions only (the
   rows of opponent decisions are sorted behind them, and a minibatch without a learner row is skipped);
4. every ``snapshot_interval`` updates the frozen copy becomes the learner's current parameters.

The Python loop of ``train`` only calls ``update``, moves the progress bar, logs and checkpoints. The whole
run state (parameters, optimiser, frozen copy, tables, PRNG key, update counter) is one pytree; a
checkpoint saves all of it, so a resumed run is bit-identical to an uninterrupted one.
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
from agent_zoo.jax_common.checkpoint import save_checkpoint as save_state
from agent_zoo.jax_common.devices import place, split_rows, throughput
from agent_zoo.jax_common.loop import run
from agent_zoo.jax_common.rollout import make_game, observation_scale, rules_name
from agent_zoo.jax_ppo.config import OPPONENTS, PPOConfig
from poker_envs.vector import functional

CHECKPOINT_FORMAT = "jax-ppo-checkpoint-1"
FROZEN, RANDOM, SELF = (OPPONENTS.index(k) for k in ("frozen", "random", "self"))


def make_optimizer(config: PPOConfig) -> optax.GradientTransformation:
    return optax.chain(optax.clip_by_global_norm(config.max_grad_norm), optax.adam(config.learning_rate, eps=1e-5))


# The run state and one rollout's records ---------------------------------------------------------
class RunState(NamedTuple):
    """Everything a run carries from one update to the next (one pytree: jit, checkpoint)."""

    params: net.Params  # the learner
    opt_state: Any  # optax state of the learner's Adam
    frozen: net.Params  # the frozen copy opponents play
    env_state: Any  # the tables (functional game state, with its own PRNG key)
    env_out: Any  # the tables' last output (observation, mask, seat to act, ...)
    learner_seat: jax.Array  # (B,) the learner's seat of the current hand at each table
    opponent: jax.Array  # (B,) the opponent kind of the current hand (index into OPPONENTS)
    key: jax.Array  # the run's PRNG key
    update: jax.Array  # () updates done
    league: Any = None  # jax_common.league.LeagueState (config.league members; None: no league)


class Decision(NamedTuple):
    """What PPO records of each decision beside ``rollout.Step``'s (leading axes (T, B) after the scan)."""

    logp: jax.Array  # () learner's log-probability of the action (meaningful at learner decisions)
    value: jax.Array  # () learner's value of the observation
    learner: jax.Array  # () bool: a learner decision (enters the loss)
    seat: jax.Array  # () the learner's seat of this hand
    opponent: jax.Array  # () opponent kind of this hand
    member: Any = None  # () league member of this hand (None: no league)


def draw_hand_roles(key: jax.Array, mix: jax.Array, num_envs: int, num_players: int) -> tuple[jax.Array, jax.Array]:
    """(learner seat, opponent kind) of a new hand at every table: uniform seat, opponent kind from ``mix``."""
    k_seat, k_opp = jax.random.split(key)
    seat = jax.random.randint(k_seat, (num_envs,), 0, num_players, dtype=jnp.int32)
    logits = jnp.where(mix > 0, jnp.log(jnp.maximum(mix, 1e-30)), -1e30)
    return seat, jax.random.categorical(k_opp, logits, shape=(num_envs,)).astype(jnp.int32)


def init_state(config: PPOConfig, game: functional.FunctionalGame) -> RunState:
    """The run before its first update, all drawn from ``config.seed``."""
    key = jax.random.key(config.seed)
    key, k_params, k_env, k_roles = jax.random.split(key, 4)
    params = net.init_params(k_params, game.observation_shape[0], game.num_actions, config.hidden_sizes)
    env_state, env_out = game.init(k_env, config.num_envs)
    mix = jnp.asarray(config.mix, jnp.float32) / sum(config.mix)
    seat, opponent = draw_hand_roles(k_roles, mix, config.num_envs, game.num_players)
    opt_state = make_optimizer(config).init(params)
    league = lg.init(params, config.league, config.num_envs, jax.random.fold_in(k_roles, 1)) if config.league else None
    return RunState(params, opt_state, params, env_state, env_out, seat, opponent, key, jnp.zeros((), jnp.int32), league)


# Returns and advantages --------------------------------------------------------------------------
def advantages(
    values: jax.Array, rewards: jax.Array, terminated: jax.Array, player: jax.Array, learner: jax.Array,
    last_value: jax.Array, last_player: jax.Array, gamma: float, gae_lambda: float,
) -> tuple[jax.Array, jax.Array]:
    """GAE advantages (T, B) of the learner decisions and whether each is known (T, B) bool.

    ``values`` (T, B), ``rewards`` (T, B, n) paid when the action of step t ended the hand (``terminated``
    (T, B)), ``player`` (T, B) the seat that acted, ``learner`` (T, B) which decisions are the learner's;
    ``last_value`` (B,) the value of the seat ``last_player`` (B,) to act after the rollout (its bootstrap).
    A backward scan carries, per (table, seat), the value and advantage of that seat's next learner
    decision and the reward still to be credited; opponent decisions pass through. A decision whose hand
    did not end in the rollout and whose seat has no later decision there (nor is to act at its end) is
    not known: its return would be a guess, so it stays out of the loss.
    """
    b, n = rewards.shape[1:]
    seats = jnp.arange(n)
    to_act = last_player[:, None] == seats  # (B, n)
    init = (jnp.where(to_act, last_value[:, None], 0.0),  # next value per seat
            jnp.zeros((b, n), jnp.float32),  # next advantage per seat
            jnp.zeros((b, n), jnp.float32),  # reward pending per seat
            to_act)  # known per seat

    def back(carry: tuple[jax.Array, ...], step: tuple[jax.Array, ...]) -> tuple[tuple[jax.Array, ...], tuple[jax.Array, jax.Array]]:
        next_v, next_adv, pending, known = carry
        v, r, done, p, mine = step
        # The hand ended right after this decision: its chips are pending for every seat, nothing follows.
        end = done[:, None]
        pending = jnp.where(end, r, pending)
        next_v = jnp.where(end, 0.0, next_v)
        next_adv = jnp.where(end, 0.0, next_adv)
        known = known | end
        at = p[:, None] == seats  # (B, n): the seat that acted
        pick = lambda x: jnp.sum(jnp.where(at, x, 0), axis=1)
        delta = pick(pending) + gamma * pick(next_v) - v
        adv = delta + gamma * gae_lambda * pick(next_adv)
        ok = mine & pick(known).astype(bool)
        upd = at & mine[:, None]  # a learner decision becomes its seat's "next" one
        carry = (jnp.where(upd, v[:, None], next_v), jnp.where(upd, adv[:, None], next_adv),
                 jnp.where(upd, 0.0, pending), known)
        return carry, (jnp.where(mine, adv, 0.0), ok)

    steps = (values, rewards, terminated, player, learner)
    _, (adv, known) = jax.lax.scan(back, init, steps, reverse=True)
    return adv, known


# The loss ---------------------------------------------------------------------------------------
STATS = ("policy_loss", "value_loss", "entropy", "approx_kl", "clip_fraction")  # what ppo_loss reports


def ppo_loss(params: net.Params, batch: dict[str, jax.Array], config: PPOConfig) -> tuple[jax.Array, dict[str, jax.Array]]:
    """Clipped PPO loss over the minibatch's rows weighted by ``batch["weight"]`` (1: known learner decision)."""
    w = batch["weight"]
    count = jnp.maximum(w.sum(), 1.0)
    mean = lambda x: jnp.sum(w * x) / count
    logp_all = jax.nn.log_softmax(net.policy_logits(params, batch["obs"], batch["mask"], jnp))
    logp = jnp.take_along_axis(logp_all, batch["action"][:, None], axis=1)[:, 0]
    adv = batch["advantage"]
    adv_mean = mean(adv)
    adv = (adv - adv_mean) / (jnp.sqrt(mean((adv - adv_mean) ** 2)) + 1e-8)
    log_ratio = logp - batch["logp"]
    ratio = jnp.exp(log_ratio)
    clipped = jnp.clip(ratio, 1.0 - config.clip_eps, 1.0 + config.clip_eps)
    policy_loss = mean(-jnp.minimum(ratio * adv, clipped * adv))
    value_loss = mean((batch["return"] - net.value(params, batch["obs"], jnp)) ** 2)
    entropy = mean(-jnp.sum(jnp.where(batch["mask"] > 0, jnp.exp(logp_all) * logp_all, 0.0), axis=1))
    loss = policy_loss + config.vf_coef * value_loss - config.ent_coef * entropy
    stats = {"policy_loss": policy_loss, "value_loss": value_loss, "entropy": entropy,
             "approx_kl": mean(ratio - 1.0 - log_ratio), "clip_fraction": mean((jnp.abs(ratio - 1.0) > config.clip_eps).astype(jnp.float32))}
    return loss, stats


# One update: rollout, advantages, PPO epochs -------------------------------------------------------
def make_update(config: PPOConfig, game: functional.FunctionalGame, obs_scale: np.ndarray) -> Callable[[RunState], tuple[RunState, dict[str, jax.Array]]]:
    """The pure function state -> (state, metrics) of one PPO iteration (wrap it in ``jax.jit``)."""
    optimizer = make_optimizer(config)
    scale = jnp.asarray(obs_scale)
    mix = jnp.asarray(config.mix, jnp.float32) / sum(config.mix)
    b, n = config.num_envs, game.num_players
    league = lg.config_of(config)

    def update(rs: RunState) -> tuple[RunState, dict[str, jax.Array]]:
        key, k_roll, k_ppo = jax.random.split(rs.key, 3)
        params, frozen = rs.params, rs.frozen
        pfsp = lg.weights(rs.league, league) if config.league else None  # the members' draw probabilities this rollout

        def settle(roles: tuple[jax.Array, ...], nxt: Any, key: jax.Array) -> tuple[jax.Array, ...]:
            """New learner seat, opponent kind (and league member) at the tables whose hand ended."""
            new_seat, new_opponent = draw_hand_roles(key, mix, b, n)
            seat, opponent, member = roles
            if config.league:
                member = jnp.where(nxt.terminated, lg.draw(jax.random.fold_in(key, 1), pfsp, b), member)
            return jnp.where(nxt.terminated, new_seat, seat), jnp.where(nxt.terminated, new_opponent, opponent), member

        def choose(roles: tuple[jax.Array, ...], obs: jax.Array, out: Any, key: jax.Array) -> tuple[jax.Array, None, Decision]:
            seat, opponent, member = roles
            k_learn, k_frozen, k_random = jax.random.split(key, 3)
            logits = net.policy_logits(params, obs, out.action_mask, jnp)
            learner = (out.current_player == seat) | (opponent == SELF)
            plays_frozen = (opponent == FROZEN) & ~learner  # with a league: the table's member plays
            opponent_logits = ((lambda: lg.member_logits(rs.league.population, member, obs, out.action_mask)) if config.league
                               else (lambda: net.policy_logits(frozen, obs, out.action_mask, jnp)))
            frozen_logits = jax.lax.cond(plays_frozen.any(), opponent_logits, lambda: logits)
            action = jnp.where(
                learner, jax.random.categorical(k_learn, logits),
                jnp.where(plays_frozen, jax.random.categorical(k_frozen, frozen_logits),
                          functional.random_actions(k_random, out.action_mask))).astype(jnp.int32)
            logp = jnp.take_along_axis(jax.nn.log_softmax(logits), action[:, None], axis=1)[:, 0]
            return action, None, Decision(logp, net.value(params, obs, jnp), learner, seat, opponent, member)

        carry = (rs.env_state, rs.env_out, (rs.learner_seat, rs.opponent, rs.league.member if config.league else None))
        (env_state, out, (seat, opponent, member)), steps = rollout.play(game, scale, choose, settle, carry, k_roll, config.rollout_length)
        traj = steps.extra
        learner_won = jnp.take_along_axis(steps.rewards, traj.seat[..., None], axis=-1)[..., 0]
        last_value = net.value(rs.params, out.observation * scale, jnp)
        adv, known = advantages(traj.value, steps.rewards, steps.terminated, steps.player, traj.learner,
                                last_value, out.current_player, config.gamma, config.gae_lambda)
        flat = lambda x: x.reshape((-1,) + x.shape[2:])
        data = {"obs": flat(steps.obs), "mask": flat(steps.mask), "action": flat(steps.action), "logp": flat(traj.logp),
                "advantage": flat(adv), "return": flat(adv + traj.value), "weight": flat(known.astype(jnp.float32))}
        rows = data["obs"].shape[0]
        size = rows // config.minibatches

        def learn(state: tuple[net.Params, Any], batch: dict[str, jax.Array]) -> tuple[tuple[net.Params, Any], dict[str, jax.Array]]:
            params, opt_state = state
            grads, stats = jax.grad(ppo_loss, has_aux=True)(params, batch, config)
            updates, opt_state = optimizer.update(grads, opt_state, params)
            return (optax.apply_updates(params, updates), opt_state), stats | {"trained": jnp.ones(())}

        def skip(state: tuple[net.Params, Any], batch: dict[str, jax.Array]) -> tuple[tuple[net.Params, Any], dict[str, jax.Array]]:
            return state, {k: jnp.zeros(()) for k in (*STATS, "trained")}

        def minibatch(state: tuple[net.Params, Any], idx: jax.Array) -> tuple[tuple[net.Params, Any], dict[str, jax.Array]]:
            batch = split_rows({k: v[idx] for k, v in data.items()})  # a minibatch without learner decisions costs nothing:
            return jax.lax.cond(batch["weight"].sum() > 0, learn, skip, state, batch)  # the learner's come first

        def epoch(state: tuple[net.Params, Any], key: jax.Array) -> tuple[tuple[net.Params, Any], dict[str, jax.Array]]:
            # the known learner decisions in random order, then the other rows (opponents', unknown) in random order
            order = jnp.argsort(jax.random.uniform(key, (rows,)) + (1.0 - data["weight"]))
            return jax.lax.scan(minibatch, state, order[: size * config.minibatches].reshape(config.minibatches, size))

        (params, opt_state), stats = jax.lax.scan(epoch, (rs.params, rs.opt_state), jax.random.split(k_ppo, config.epochs))
        trained = jnp.maximum(stats.pop("trained").sum(), 1.0)
        count = rs.update + 1
        frozen = jax.tree_util.tree_map(lambda new, old: jnp.where(count % config.snapshot_interval == 0, new, old), params, rs.frozen)
        hands = steps.terminated
        members = None
        if config.league:  # the hands against members into the records, then maybe a new member
            members = lg.record(rs.league, traj.member, learner_won, hands & (traj.opponent == FROZEN))._replace(member=member)
            members = lg.maybe_admit(members, params, count, league)
        metrics = {k: v.sum() / trained for k, v in stats.items()}  # means over the minibatches trained on
        metrics |= {
            "learner_decisions": traj.learner.sum(), "known_fraction": known.sum() / jnp.maximum(traj.learner.sum(), 1),
            "hands": hands.sum(), "value_mean": jnp.sum(jnp.where(traj.learner, traj.value, 0)) / jnp.maximum(traj.learner.sum(), 1),
        }
        for kind, name in enumerate(OPPONENTS):
            ended = hands & (traj.opponent == kind)
            metrics[f"hands_vs_{name}"] = ended.sum()
            metrics[f"reward_vs_{name}"] = jnp.sum(jnp.where(ended, learner_won, 0.0)) / jnp.maximum(ended.sum(), 1)
        return RunState(params, opt_state, frozen, env_state, out, seat, opponent, key, count, members), metrics

    return update


# Checkpoints and the loop ------------------------------------------------------------------------
def header(config: PPOConfig, obs_scale: np.ndarray, num_actions: int) -> dict[str, Any]:
    """The JSON header of this run's checkpoints (the format of ``jax_common.checkpoint``; the update is added)."""
    return {"format": CHECKPOINT_FORMAT, "config": config.to_dict(), "game": rules_name(config), "num_actions": num_actions,
            "obs_dim": int(obs_scale.size), "steps_per_update": config.steps_per_update, "policy": "params"}


def save_checkpoint(path: Path, state: RunState, config: PPOConfig, obs_scale: np.ndarray, num_actions: int) -> Path:
    """Write the whole run state to ``path`` (``jax_common.checkpoint``'s format), atomically."""
    return save_state(path, state, header(config, obs_scale, num_actions) | {"update": int(state.update)}, obs_scale)


def train(config: PPOConfig, out: str | Path | None = None, progress: bool = True) -> dict[str, Any]:
    """Run (or resume, from ``out``'s latest checkpoint) ``config``; the summary: steps (whole updates: at least
    ``total_steps``, which ``steps_requested`` holds), updates, seconds,
    ``steps_per_second`` (environment decisions, all seats, per wall second of the update loop, learning
    included, compilation not), the compile time and the last update's metrics."""
    game = make_game(config)
    scale = observation_scale(config)
    if scale.size != game.observation_shape[0]:
        raise ValueError(f"observation sizes disagree: env {scale.size}, functional game {game.observation_shape[0]}")
    state = init_state(config, game)
    devices, placement = place(config.devices, state, config.num_envs, "num_envs",
                               ("env_state", "env_out", "learner_seat", "opponent", "league/member"))
    result = run(config, state, lambda: make_update(config, game, scale), header(config, scale, game.num_actions),
                 scale, out, progress, lambda row: {"vs_random": f"{row['reward_vs_random']:+.2f}", "entropy": f"{row['entropy']:.2f}"}, placement)
    log, new_rows = result.pop("log"), result.pop("new_rows")
    result |= throughput(result["seconds"], len(new_rows) * config.steps_per_update, sum(row["hands"] for row in new_rows), devices)
    learner_decisions = sum(int(row["learner_decisions"]) for row in new_rows)
    rate = learner_decisions / result["seconds"] if new_rows else None
    summary = {"game": config.game, **result, "learner_steps_per_second": rate, "final": log[-1] if log else None}
    if config.league:
        summary["payoff"] = lg.report(result["state"].league, lg.config_of(config), out, f"PPO league on {config.game}: learner and members")
    return summary
