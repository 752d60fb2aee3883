"""The JAX engine's functional form under its short public name: the names of ``poker_envs.vector.jax.functional``.

``from poker_envs.vector import functional`` then ``functional.make(game, **config)`` gives a game's pure
``init`` / ``step`` (see ``poker_envs.vector.jax.functional`` for the contract). Importing it imports JAX.
"""

from __future__ import annotations

from poker_envs.vector.jax.functional import FunctionalGame, checked, make, random_actions

__all__ = ["FunctionalGame", "checked", "make", "random_actions"]
