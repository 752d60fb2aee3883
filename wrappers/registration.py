"""The entry points of the Gymnasium ids that ``import poker_envs`` registers (``poker_envs.registration``).

``gymnasium.make("poker_envs/LeducHoldem-v0", opponent="random", seat="rotate")`` gives a
:class:`~wrappers.single_agent.SingleAgentEnv` of that game; other keyword arguments configure the game
(e.g. ``num_players=6`` for no-limit hold'em). ``gymnasium.make_vec(id, num_envs)`` (no
``vectorization_mode``) calls :func:`make_vector_env`: a vector env that resets a finished hand in the same
step, so no step it returns has an all-zero action mask. ``GYMNASIUM_ENVS`` and ``register_gymnasium`` are
re-exported from ``poker_envs.registration``, where the registration lives.
"""

from __future__ import annotations

from typing import Any

import gymnasium
from gymnasium.vector import AutoresetMode

from poker_envs import catalog
from poker_envs.registration import GYMNASIUM_ENVS, register_gymnasium
from wrappers.single_agent import OpponentSpec, SingleAgentEnv

__all__ = ["GYMNASIUM_ENVS", "make_single_agent_env", "make_vector_env", "register_gymnasium"]

# Keywords only the single-table view takes: with any of them, make_vector_env steps SingleAgentEnv copies.
SINGLE_TABLE_ONLY = ("obs_mode", "illegal_action", "illegal_reward", "render_mode")


def make_single_agent_env(env_module: str, opponent: OpponentSpec | Any = "random", **kwargs: Any) -> SingleAgentEnv:
    """Entry point used by the registrations: ``opponent`` may also be a list or mapping (see SingleAgentEnv)."""
    if "opponents" in kwargs:
        raise ValueError("pass the opponents as opponent=... (one agent, a list or a seat mapping)")
    return SingleAgentEnv(env_module, opponents=opponent, **kwargs)


def make_vector_env(env_module: str, num_envs: int = 1, opponent: OpponentSpec | Any = "random", **kwargs: Any) -> gymnasium.vector.VectorEnv:
    """Vector entry point of every id (``gymnasium.make_vec(id, num_envs, **kwargs)``): same-step autoreset.

    Games with a batched engine (``poker_envs.vector``), with ``opponent="random"`` and a seat that is an int
    or ``"rotate"``, give a :class:`~wrappers.vector_env.VectorSingleAgentEnv` (``seed=`` seeds it); the others,
    or any other opponent or single-table keyword (``obs_mode``, ``illegal_action``, ...), give a
    ``SyncVectorEnv`` of :class:`~wrappers.single_agent.SingleAgentEnv` copies with
    ``AutoresetMode.SAME_STEP``. Either way a finished hand's step returns the next hand's first
    observation and mask (the finished hand's reward and ``terminated=True`` with it), never an all-zero mask.
    """
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
        raise ValueError(f"num_envs must be a positive int, not {num_envs!r}")
    entry = next((g for g in catalog.GAMES if g.env_module == env_module), None)
    if entry is None:
        raise ValueError(f"env_module {env_module!r} is not a game of poker_envs.catalog")
    seat = kwargs.get("seat", 0)
    batched = (
        bool(entry.vector_factory)
        and isinstance(opponent, str) and opponent == "random"
        and (seat == "rotate" or not isinstance(seat, str))
        and not any(k in kwargs for k in SINGLE_TABLE_ONLY)
    )
    if batched:
        from wrappers.vector_env import VectorSingleAgentEnv

        return VectorSingleAgentEnv(entry.key, num_envs, opponent=opponent, **kwargs)
    seed = kwargs.pop("seed", None)

    def single() -> SingleAgentEnv:
        return make_single_agent_env(env_module, opponent=opponent, **kwargs)

    envs = gymnasium.vector.SyncVectorEnv([single] * num_envs, autoreset_mode=AutoresetMode.SAME_STEP)
    if seed is not None:
        envs.reset(seed=seed)
    return envs
