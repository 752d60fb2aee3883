"""Registration of every game of ``poker_envs.catalog`` in PettingZoo's and Gymnasium's registries.

``import poker_envs`` calls ``register_all()``; then e.g.
``pettingzoo.make("aec", "poker_envs/nolimit_holdem-v0", num_players=6)``,
``pettingzoo.make("aec", "poker_envs/texas_holdem_no_limit-v6")`` (``poker_envs.classic``) and
``gymnasium.make("poker_envs/LeducHoldem-v0", opponent="random")`` work. Entry points are strings, so
registering imports no environment module and nothing of ``wrappers`` (the Gymnasium view,
``wrappers.single_agent.SingleAgentEnv``, is imported by the first ``gymnasium.make``).

Without any import, ``gymnasium.make("poker_envs:poker_envs/LeducHoldem-v0")`` imports this package first
(Gymnasium's ``module:id`` form; Gymnasium 1.x loads no plugin entry points, so an id alone needs the import).
"""

from __future__ import annotations

import gymnasium
import pettingzoo

from poker_envs.catalog import GAMES

AEC_ENVS: dict[str, str] = {g.pettingzoo_id: f"{g.module_path}:env" for g in GAMES}
# PettingZoo's RLCard-based classic envs kept in poker_envs.classic, e.g. "poker_envs/texas_holdem_no_limit-v6".
CLASSIC_AEC_ENVS: dict[str, str] = {
    g.classic_pettingzoo_id: f"poker_envs.classic.{g.classic_module}:env" for g in GAMES if g.classic_module
}
PARALLEL_ENVS: dict[str, str] = {g.pettingzoo_id: f"{g.module_path}:parallel_env" for g in GAMES if g.parallel}
# Gymnasium id -> poker_envs module, from the catalog (one hand per episode, so no TimeLimit is added).
GYMNASIUM_ENVS: dict[str, str] = {g.gymnasium_id: g.env_module for g in GAMES}
GYMNASIUM_ENTRY_POINT = "wrappers.registration:make_single_agent_env"
# gymnasium.make_vec(id, num_envs) with no vectorization_mode: same-step autoreset (never an all-zero mask).
GYMNASIUM_VECTOR_ENTRY_POINT = "wrappers.registration:make_vector_env"
# The text view for language models (wrappers.text_env): gymnasium.make(TEXT_GYMNASIUM_ID, game="nolimit", ...).
TEXT_GYMNASIUM_ID = "poker_envs/TextPoker-v0"
TEXT_ENTRY_POINT = "wrappers.text_env:TextPokerEnv"


def register_gymnasium() -> None:
    """Register every game with Gymnasium as a single-agent view (idempotent)."""
    for env_id, module in GYMNASIUM_ENVS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point=GYMNASIUM_ENTRY_POINT,
                vector_entry_point=GYMNASIUM_VECTOR_ENTRY_POINT,
                kwargs={"env_module": module},
                disable_env_checker=True,  # check_env passes; the passive checker would only repeat it every reset
            )
    if TEXT_GYMNASIUM_ID not in gymnasium.registry:
        gymnasium.register(id=TEXT_GYMNASIUM_ID, entry_point=TEXT_ENTRY_POINT, disable_env_checker=True)


def register_all() -> None:
    """Put every environment into PettingZoo's AEC and parallel registries and Gymnasium's (idempotent)."""
    for env_id, entry in (AEC_ENVS | CLASSIC_AEC_ENVS).items():
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry)
    for env_id, entry in PARALLEL_ENVS.items():
        if env_id not in pettingzoo.parallel_registry:
            pettingzoo.register("parallel", env_id, entry)
    register_gymnasium()
