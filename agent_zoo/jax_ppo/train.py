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

import importlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax

from agent_zoo.jax_ppo import network as net
from agent_zoo.jax_ppo.agent import CHECKPOINT_FORMAT, read_header
from agent_zoo.jax_ppo.config import OPPONENTS, PPOConfig
from poker_envs import catalog
from poker_envs.vector import functional

FUNCTIONAL_NAMES = {key: catalog.game(key).vector_name for key in catalog.keys(solver="jax_ppo")}  # for functional.make
FROZEN, RANDOM, SELF = (OPPONENTS.index(k) for k in ("frozen", "random", "self"))
LATEST = "latest.json"
LOG = "log.jsonl"


# The game --------------------------------------------------------------------------------------
def game_config(config: PPOConfig) -> dict[str, Any]:
    """Keywords of the functional game and of the AEC env of the same configuration."""
    return {"num_players": config.num_players} if config.game == "nolimit" else {}


def make_game(config: PPOConfig) -> functional.FunctionalGame:
    """The functional game the run plays."""
    return functional.make(FUNCTIONAL_NAMES[config.game], **game_config(config))


def observation_scale(config: PPOConfig) -> np.ndarray:
    """(D,) float32: one over each observation feature's upper bound (1 where the bound is <= 1), from the
    AEC env's observation space, so chip counts enter the network in [0, 1] as card one-hots do."""
    entry = catalog.game(config.game)
    env = importlib.import_module(entry.module_path).raw_env(**game_config(config))
    high = np.asarray(env.observation_space(env.possible_agents[0])["observation"].high, np.float64).ravel()
    return (1.0 / np.maximum(np.where(np.isfinite(high), high, 1.0), 1.0)).astype(np.float32)


def rules_name(config: PPOConfig) -> str:
    """The rules' ``Game.name`` (what ``registry.game_name(env)`` reads), recorded in checkpoints."""
    return str(catalog.game(config.game).rules(**game_config(config)).name)


# The network -----------------------------------------------------------------------------------
def init_params(key: jax.Array, obs_dim: int, num_actions: int, hidden_sizes: tuple[int, ...]) -> net.Params:
    """Orthogonal weights (gain sqrt 2 hidden, 0.01 policy output: a near-uniform start, 1 value output), zero biases."""
    params: net.Params = {}
    for prefix, outputs, last_gain in (("pi", num_actions, 0.01), ("v", 1, 1.0)):
        sizes = net.layer_sizes(obs_dim, hidden_sizes, outputs)
        for i, (fan_in, fan_out) in enumerate(sizes):
            key, sub = jax.random.split(key)
            gain = last_gain if i == len(sizes) - 1 else float(np.sqrt(2.0))
            params[f"{prefix}_w{i}"] = jax.nn.initializers.orthogonal(gain)(sub, (fan_in, fan_out), jnp.float32)
            params[f"{prefix}_b{i}"] = jnp.zeros(fan_out, jnp.float32)
    return params


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


class Transition(NamedTuple):
    """One decision per table (leading axes (T, B) after the scan)."""

    obs: jax.Array  # (D,) scaled observation of the seat to act
    mask: jax.Array  # (A,) legal actions
    action: jax.Array  # () action played
    logp: jax.Array  # () learner's log-probability of it (meaningful at learner decisions)
    value: jax.Array  # () learner's value of the observation
    player: jax.Array  # () seat that acted
    learner: jax.Array  # () bool: a learner decision (enters the loss)
    rewards: jax.Array  # (n,) chips paid to every seat if the hand ended with this action, else 0
    terminated: jax.Array  # () bool: the hand ended with this action
    opponent: jax.Array  # () opponent kind of this hand
    learner_won: jax.Array  # () chips of the learner's seat if the hand ended here


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
    params = init_params(k_params, game.observation_shape[0], game.num_actions, config.hidden_sizes)
    env_state, env_out = game.init(k_env, config.num_envs)
    mix = jnp.asarray(config.mix, jnp.float32) / sum(config.mix)
    seat, opponent = draw_hand_roles(k_roles, mix, config.num_envs, game.num_players)
    opt_state = make_optimizer(config).init(params)
    return RunState(params, opt_state, params, env_state, env_out, seat, opponent, key, jnp.zeros((), jnp.int32))


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
        pick = lambda x: jnp.sum(jnp.where(at, x, 0), axis=1)  # noqa: E731  (the acting seat's entry)
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
    mean = lambda x: jnp.sum(w * x) / count  # noqa: E731
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

    def env_step(params: net.Params, frozen: net.Params, carry: tuple[Any, ...], key: jax.Array) -> tuple[tuple[Any, ...], Transition]:
        env_state, out, seat, opponent = carry
        k_learn, k_frozen, k_random, k_roles = jax.random.split(key, 4)
        obs = out.observation * scale
        logits = net.policy_logits(params, obs, out.action_mask, jnp)
        learner = (out.current_player == seat) | (opponent == SELF)
        plays_frozen = (opponent == FROZEN) & ~learner
        frozen_logits = jax.lax.cond(plays_frozen.any(), lambda: net.policy_logits(frozen, obs, out.action_mask, jnp), lambda: logits)
        action = jnp.where(
            learner, jax.random.categorical(k_learn, logits),
            jnp.where(plays_frozen, jax.random.categorical(k_frozen, frozen_logits),
                      functional.random_actions(k_random, out.action_mask))).astype(jnp.int32)
        logp = jnp.take_along_axis(jax.nn.log_softmax(logits), action[:, None], axis=1)[:, 0]
        env_state, nxt = game.step(env_state, action)
        won = jnp.take_along_axis(nxt.rewards, seat[:, None], axis=1)[:, 0]
        new_seat, new_opponent = draw_hand_roles(k_roles, mix, b, n)
        record = Transition(obs, out.action_mask, action, logp, net.value(params, obs, jnp), out.current_player,
                            learner, nxt.rewards, nxt.terminated, opponent, won)
        seat = jnp.where(nxt.terminated, new_seat, seat)
        opponent = jnp.where(nxt.terminated, new_opponent, opponent)
        return (env_state, nxt, seat, opponent), record

    def update(rs: RunState) -> tuple[RunState, dict[str, jax.Array]]:
        key, k_roll, k_ppo = jax.random.split(rs.key, 3)
        carry = (rs.env_state, rs.env_out, rs.learner_seat, rs.opponent)
        step = lambda c, k: env_step(rs.params, rs.frozen, c, k)  # noqa: E731
        (env_state, out, seat, opponent), traj = jax.lax.scan(step, carry, jax.random.split(k_roll, config.rollout_length))
        last_value = net.value(rs.params, out.observation * scale, jnp)
        adv, known = advantages(traj.value, traj.rewards, traj.terminated, traj.player, traj.learner,
                                last_value, out.current_player, config.gamma, config.gae_lambda)
        flat = lambda x: x.reshape((-1,) + x.shape[2:])  # noqa: E731
        data = {"obs": flat(traj.obs), "mask": flat(traj.mask), "action": flat(traj.action), "logp": flat(traj.logp),
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
            batch = {k: v[idx] for k, v in data.items()}  # a minibatch without learner decisions costs nothing:
            return jax.lax.cond(batch["weight"].sum() > 0, learn, skip, state, batch)  # the learner's come first

        def epoch(state: tuple[net.Params, Any], key: jax.Array) -> tuple[tuple[net.Params, Any], dict[str, jax.Array]]:
            # the known learner decisions in random order, then the other rows (opponents', unknown) in random order
            order = jnp.argsort(jax.random.uniform(key, (rows,)) + (1.0 - data["weight"]))
            return jax.lax.scan(minibatch, state, order[: size * config.minibatches].reshape(config.minibatches, size))

        (params, opt_state), stats = jax.lax.scan(epoch, (rs.params, rs.opt_state), jax.random.split(k_ppo, config.epochs))
        trained = jnp.maximum(stats.pop("trained").sum(), 1.0)
        count = rs.update + 1
        frozen = jax.tree_util.tree_map(lambda new, old: jnp.where(count % config.snapshot_interval == 0, new, old), params, rs.frozen)
        hands = traj.terminated
        metrics = {k: v.sum() / trained for k, v in stats.items()}  # means over the minibatches trained on
        metrics |= {
            "learner_decisions": traj.learner.sum(), "known_fraction": known.sum() / jnp.maximum(traj.learner.sum(), 1),
            "hands": hands.sum(), "value_mean": jnp.sum(jnp.where(traj.learner, traj.value, 0)) / jnp.maximum(traj.learner.sum(), 1),
        }
        for kind, name in enumerate(OPPONENTS):
            ended = hands & (traj.opponent == kind)
            metrics[f"hands_vs_{name}"] = ended.sum()
            metrics[f"reward_vs_{name}"] = jnp.sum(jnp.where(ended, traj.learner_won, 0.0)) / jnp.maximum(ended.sum(), 1)
        return RunState(params, opt_state, frozen, env_state, out, seat, opponent, key, count), metrics

    return update


# Checkpoints ------------------------------------------------------------------------------------
def _name(path: tuple[Any, ...]) -> str:
    """A pytree path as ``params/pi_w0``, ``opt_state/1/0/mu/pi_w0``, ... (the checkpoint's array names)."""
    parts = []
    for p in path:
        for attr in ("name", "key", "idx"):
            if hasattr(p, attr):
                parts.append(str(getattr(p, attr)))
                break
    return "/".join(parts)


def _is_key(x: Any) -> bool:
    return hasattr(x, "dtype") and jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key)


def save_checkpoint(path: Path, state: RunState, config: PPOConfig, obs_scale: np.ndarray, num_actions: int) -> Path:
    """Write the whole run state to ``path`` (.npz; PRNG keys as their raw data), atomically."""
    arrays = {}
    for p, leaf in jax.tree_util.tree_flatten_with_path(state)[0]:
        arrays[_name(p)] = np.asarray(jax.random.key_data(leaf) if _is_key(leaf) else leaf)
    header = {"format": CHECKPOINT_FORMAT, "config": config.to_dict(), "update": int(state.update),
              "game": rules_name(config), "num_actions": num_actions, "obs_dim": int(obs_scale.size)}
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:  # a file object keeps numpy from appending ".npz"
        np.savez(f, header=np.array(json.dumps(header)), obs_scale=obs_scale, **arrays)
    os.replace(tmp, path)
    return path


def load_checkpoint(path: Path, template: RunState) -> RunState:
    """The run state saved at ``path``, in the structure (and key types) of ``template``."""
    read_header(path)
    leaves, treedef = jax.tree_util.tree_flatten_with_path(template)
    with np.load(path, allow_pickle=False) as data:
        out = []
        for p, leaf in leaves:
            saved = data[_name(p)]
            out.append(jax.random.wrap_key_data(saved, impl=jax.random.key_impl(leaf)) if _is_key(leaf) else jnp.asarray(saved, leaf.dtype))
    return jax.tree_util.tree_unflatten(treedef, out)


def checkpoint_paths(out: str | Path) -> list[Path]:
    """The checkpoints in ``out``, by update."""
    return sorted(Path(out).glob("checkpoint_*.npz"), key=lambda p: int(p.stem.split("_")[1]))


# The loop ---------------------------------------------------------------------------------------
_COMPILED: dict[str, Any] = {}  # the compiled update of each program (config minus what only the host uses)


def compiled_update(config: PPOConfig, game: functional.FunctionalGame, obs_scale: np.ndarray, state: RunState) -> Any:
    """``jax.jit(make_update(...))`` compiled ahead of time for ``state``'s shapes, once per process for
    configurations that differ only in seed, total steps or checkpoint interval (a resume reuses it)."""
    program = replace(config, seed=0, total_steps=1, checkpoint_interval=1).to_json()
    if program not in _COMPILED:
        _COMPILED[program] = jax.jit(make_update(config, game, obs_scale)).lower(state).compile()
    return _COMPILED[program]


def _resume(out: Path, config: PPOConfig, template: RunState) -> tuple[RunState, list[dict[str, Any]]]:
    """The latest checkpoint of ``out`` (or ``template``) and the log lines up to it; a run of another
    configuration (anything but ``total_steps``) there is refused."""
    latest = out / LATEST
    if not latest.is_file():
        return template, []
    info = json.loads(latest.read_text())
    saved = PPOConfig.from_dict(info["config"])
    if saved.to_dict() | {"total_steps": 0} != config.to_dict() | {"total_steps": 0}:
        diff = sorted(k for k, v in config.to_dict().items() if k != "total_steps" and saved.to_dict()[k] != v)
        raise ValueError(f"{out} holds a run of another configuration (differs in {diff}); choose another folder")
    state = load_checkpoint(out / info["checkpoint"], template)
    log = out / LOG
    lines = [json.loads(x) for x in log.read_text().splitlines()] if log.is_file() else []
    return state, [x for x in lines if x["update"] <= int(state.update)]


def train(config: PPOConfig, out: str | Path | None = None, progress: bool = True) -> dict[str, Any]:
    """Run (or resume, from ``out``'s latest checkpoint) ``config``; the summary: steps (whole updates: at least
    ``total_steps``, which ``steps_requested`` holds), updates, seconds,
    ``steps_per_second`` (environment decisions, all seats, per wall second of the update loop, learning
    included, compilation not), the compile time and the last update's metrics."""
    from tqdm import tqdm

    game = make_game(config)
    scale = observation_scale(config)
    if scale.size != game.observation_shape[0]:
        raise ValueError(f"observation sizes disagree: env {scale.size}, functional game {game.observation_shape[0]}")
    state = init_state(config, game)
    folder = Path(out) if out is not None else None
    log: list[dict[str, Any]] = []
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        state, log = _resume(folder, config, state)
    start = int(state.update)
    resumed = start if start else None
    t0 = time.perf_counter()
    update = compiled_update(config, game, scale, state) if start < config.num_updates else None
    compile_seconds = time.perf_counter() - t0

    def save(s: RunState) -> None:
        name = f"checkpoint_{int(s.update)}.npz"
        save_checkpoint(folder / name, s, config, scale, game.num_actions)
        (folder / LOG).write_text("".join(json.dumps(x) + "\n" for x in log))
        (folder / LATEST).write_text(json.dumps({"checkpoint": name, "update": int(s.update), "config": config.to_dict()}, indent=1) + "\n")

    if folder is not None and start == 0:
        save(state)  # the untrained network too: the first point of a learning curve
    spu = config.steps_per_update
    # The bar counts the steps the run will take (whole updates), so it ends at 100% and stays on screen.
    bar = tqdm(total=config.steps_run, initial=start * spu, unit="step", disable=not progress, leave=True)
    t0 = time.perf_counter()
    learner_decisions = 0
    for _ in range(start, config.num_updates):
        state, metrics = update(state)
        row = {"update": int(state.update), "steps": int(state.update) * spu} | {k: float(v) for k, v in jax.device_get(metrics).items()}
        log.append(row)
        learner_decisions += int(row["learner_decisions"])
        bar.update(spu)
        bar.set_postfix(vs_random=f"{row['reward_vs_random']:+.2f}", entropy=f"{row['entropy']:.2f}", refresh=False)
        if folder is not None and (int(state.update) % config.checkpoint_interval == 0 or int(state.update) == config.num_updates):
            save(state)
    seconds = time.perf_counter() - t0
    bar.close()
    done = config.num_updates - start
    return {
        "game": config.game, "steps": int(state.update) * spu, "steps_requested": config.total_steps,
        "steps_per_update": spu, "updates": int(state.update), "resumed_from": resumed,
        "seconds": seconds, "compile_seconds": compile_seconds,
        "steps_per_second": done * spu / seconds if done else None,
        "learner_steps_per_second": learner_decisions / seconds if done else None,
        "final": log[-1] if log else None, "out": str(folder) if folder is not None else None,
        "state": state,
    }
