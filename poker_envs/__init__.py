"""poker_envs: PettingZoo AEC environments for poker games.

Environment modules: ``nolimit_holdem_v0``, ``limit_holdem_v0``, ``shortdeck_holdem_v0``, ``potlimit_holdem_v0``,
``omaha_v0``, ``push_fold_v0``, ``leduc_holdem_v0``, ``kuhn_poker_v0``, ``threshold_v0`` (each with ``env()``,
``raw_env`` and ``parallel_env()``; the list is ``poker_envs.catalog.GAMES``).

``import poker_envs`` registers every environment with PettingZoo and Gymnasium (``registration.register_all``),
as ``pip install poker-envs`` installs both. Where either cannot be imported, registration is skipped, so
the rules (``poker_envs.games``) and the core (``poker_envs.core``), which never import them, still import.
"""

from __future__ import annotations

__version__ = "0.1.0"


def _register_if_available() -> bool:
    """Register the environments if gymnasium and pettingzoo import; False (nothing registered) if not."""
    try:
        import gymnasium  # noqa: F401
        import pettingzoo  # noqa: F401
    except ModuleNotFoundError as error:
        if error.name is not None and error.name.partition(".")[0] in {"gymnasium", "pettingzoo"}:
            return False
        raise
    from poker_envs.registration import register_all

    register_all()
    return True


REGISTERED: bool = _register_if_available()
"""Whether ``import poker_envs`` registered the environments (False only without gymnasium or pettingzoo)."""
