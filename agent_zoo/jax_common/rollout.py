"""Self-play on the functional JAX engine: the game a run plays and one ``lax.scan`` of decisions at every table.

``make_game`` / ``observation_scale`` / ``rules_name`` bind a catalog key (and seat count) to the functional
game (``poker_envs.vector.functional``), to the AEC env's observation bounds and to the rules' name. ``play``
scans ``length`` decisions of ``num_envs`` tables: at each step a trainer's ``choose`` picks every table's
action from the scaled observation (and may leave tables out, ``active``), the game steps, and ``settle``
updates the trainer's per-table carry from the step's outcome (e.g. new roles when a hand ended). Both
JAX trainers run on it: ``agent_zoo.jax_ppo`` (learner seat against frozen, random or self opponents) and
``agent_zoo.jax_rnad`` (one whole hand per table, every seat the current policy).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

import jax
import numpy as np

from poker_envs import catalog
from poker_envs.vector import functional
from poker_envs.vector.base import VectorStep

FUNCTIONAL_NAMES = {key: catalog.game(key).vector_name for key in catalog.keys(solver="jax_ppo")}  # for functional.make


class GameChoice(Protocol):
    """The part of a trainer's config that names the game."""

    game: str  # catalog key with a functional engine (``FUNCTIONAL_NAMES``)

    @property
    def num_players(self) -> int: ...


def game_config(config: GameChoice) -> dict[str, Any]:
    """Keywords of the functional game and of the AEC env of the same configuration."""
    return {"num_players": config.num_players} if config.game == "nolimit" else {}


def make_game(config: GameChoice) -> functional.FunctionalGame:
    """The functional game the run plays."""
    return functional.make(FUNCTIONAL_NAMES[config.game], **game_config(config))


def observation_scale(config: GameChoice) -> np.ndarray:
    """(D,) float32: one over each observation feature's upper bound (1 where the bound is <= 1), from the
    AEC env's observation space, so chip counts enter the network in [0, 1] as card one-hots do."""
    entry = catalog.game(config.game)
    env = importlib.import_module(entry.module_path).raw_env(**game_config(config))
    high = np.asarray(env.observation_space(env.possible_agents[0])["observation"].high, np.float64).ravel()
    return (1.0 / np.maximum(np.where(np.isfinite(high), high, 1.0), 1.0)).astype(np.float32)


def rules_name(config: GameChoice) -> str:
    """The rules' ``Game.name`` (what ``registry.game_name(env)`` reads), recorded in checkpoints."""
    return str(catalog.game(config.game).rules(**game_config(config)).name)


class Step(NamedTuple):
    """One decision per table (leading axes (T, B) after the scan)."""

    obs: jax.Array  # (D,) scaled observation of the seat to act
    mask: jax.Array  # (A,) legal actions
    player: jax.Array  # () seat that acted
    action: jax.Array  # () action played
    rewards: jax.Array  # (n,) chips paid to every seat if the hand ended with this action, else 0
    terminated: jax.Array  # () bool: the hand ended with this action
    extra: Any  # what the trainer's ``choose`` recorded


# (carry, scaled observations (B, D), the tables' output, key) -> (actions (B,), active (B,) bool or None, record)
Choose = Callable[[Any, jax.Array, VectorStep, jax.Array], tuple[jax.Array, jax.Array | None, Any]]
# (carry, the tables' output after the step, key) -> carry
Settle = Callable[[Any, VectorStep, jax.Array], Any]


def play(game: functional.FunctionalGame, scale: jax.Array, choose: Choose, settle: Settle,
         carry: tuple[Any, VectorStep, Any], key: jax.Array, length: int) -> tuple[tuple[Any, VectorStep, Any], Step]:
    """``length`` decisions at every table: ``carry`` is (env state, env output, trainer carry); returns the
    carry after them and the (T, B) ``Step`` records. Jittable (a ``lax.scan``)."""

    def body(c: tuple[Any, VectorStep, Any], k: jax.Array) -> tuple[tuple[Any, VectorStep, Any], Step]:
        env_state, out, aux = c
        k_act, k_settle = jax.random.split(k)
        obs = out.observation * scale
        action, active, extra = choose(aux, obs, out, k_act)
        env_state, nxt = game.step(env_state, action, active)
        record = Step(obs, out.action_mask, out.current_player, action, nxt.rewards, nxt.terminated, extra)
        return (env_state, nxt, settle(aux, nxt, k_settle)), record

    return jax.lax.scan(body, carry, jax.random.split(key, length))
