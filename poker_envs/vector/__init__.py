"""Batched engine: many tables of one game as arrays, stepped in one call (see ``base.VectorGame``).

``vector.make("nolimit_holdem", num_envs=1024, num_players=6, seed=0, **config)`` takes the same
configuration as the AEC environment of that game; ``backend="jax"`` gives the JAX engine of the same game
(``poker_envs.vector.functional`` for its pure ``init`` / ``step``, the engine in ``poker_envs.vector.jax``;
nothing here imports JAX otherwise). The games are the catalog's entries with a
``vector_factory`` (``poker_envs.catalog``), named by catalog key ("nolimit") or by environment
module without its version ("nolimit_holdem", as in the engine's contract).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from poker_envs import catalog
from poker_envs.vector.base import BACKENDS, VectorGame, VectorStep, check_actions, check_backend

# game name -> "module:factory" (from the catalog); factories take (num_envs, seed=..., **config).
_FACTORIES: dict[str, str] = {
    name: g.vector_factory
    for g in catalog.GAMES
    if g.vector_factory
    for name in (g.env_module.removesuffix("_v0"), g.key)
}
_FACTORIES["short_deck_nolimit_holdem"] = _FACTORIES["shortdeck"]  # short deck under its rules game's name too
# The same names -> the JAX engine's factory (imported only when asked for: the numpy path never imports JAX).
_JAX_FACTORIES: dict[str, str] = {
    name: g.jax_factory for g in catalog.GAMES if g.jax_factory for name in (g.env_module.removesuffix("_v0"), g.key)
}
_JAX_FACTORIES["short_deck_nolimit_holdem"] = _JAX_FACTORIES["shortdeck"]

__all__ = ["BACKENDS", "VectorGame", "VectorStep", "check_actions", "functional_game", "games", "make"]


def games() -> list[str]:
    """The names ``make`` knows: each batched game under its environment name and its catalog key."""
    return sorted(_FACTORIES)


def make(
    game: str, num_envs: int, seed: int | None = None, backend: str = "numpy", shard: bool | None = None, **config: Any
) -> VectorGame:
    """A batched ``game`` of ``num_envs`` tables (``config`` as the AEC environment of that game).

    ``backend="jax"`` (the ``[jax]`` extra) plays the same game with JAX arrays under ``jit`` (CPU or GPU);
    it wraps the game's functional form (``functional_game``; ``poker_envs.vector.functional``), which is
    also the result's ``game``, for on-device loops.
    ``shard`` (JAX only; default True) splits the tables over the local devices when there are several."""
    if game not in _FACTORIES:
        raise ValueError(f"game {game!r} has no batched engine; choose one of {games()}")
    check_backend(backend, shard)
    if backend == "numpy":
        module, factory = _FACTORIES[game].split(":")
        return getattr(import_module(module), factory)(num_envs, seed=seed, **config)
    stateful = import_module("poker_envs.vector.jax.stateful")  # imports JAX: only for backend="jax"
    return stateful.JaxVectorGame(functional_game(game, **config), num_envs, seed, shard=shard is not False)


def functional_game(game: str, **config: Any) -> Any:
    """The JAX engine's functional form of ``game`` (pure ``init`` / ``step``; names and ``config`` as ``make``),
    built from the catalog's ``jax_factory``; ``poker_envs.vector.functional.make`` is the documented way in."""
    if game not in _JAX_FACTORIES:
        raise ValueError(f"game {game!r} has no batched engine; choose one of {games()}")
    check_backend("jax")
    module, factory = _JAX_FACTORIES[game].split(":")
    return getattr(import_module(module), factory)(**config)
