"""What a duplicate tournament plays: one frozen ``TournamentConfig``, checked when it is made.

``agent_zoo.tournament.run_tournament(config)`` plays it; the command line builds it from its arguments. The
checks here need no environment (names, counts, choices, which engine plays which game); what needs one (the
environment options the agents ask for, ``--env-config`` keys) is checked by ``run_tournament`` before any hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_zoo.agent import Agent
from agent_zoo.aivat import VARIANCE_REDUCTIONS
from poker_envs import catalog

__all__ = ["BACKENDS", "ENGINES", "TournamentConfig", "table_size", "vector_games", "vector_session_games"]

ENGINES = ("aec", "vector")  # AEC environments, or the batched engine (``poker_envs.vector``)
BACKENDS = ("process", "ray")  # how workers run


def vector_games() -> list[str]:
    """The games ``engine="vector"`` plays: every catalog game with a batched engine (``GameEntry.vector_factory``)."""
    return catalog.keys(vector=True)


def vector_session_games() -> list[str]:
    """The games whose sessions (and public betting state) the batched engine plays: its hold'em family."""
    return catalog.keys(family="holdem", vector=True)


def table_size(game: str, env_config: Mapping[str, Any] | None = None, players: int | None = None) -> int:
    """The seats of a tournament table: ``players``, else ``env_config["num_players"]``, else 2; checked
    against the catalog's range for ``game``."""
    entry = catalog.game(game)
    configured = (env_config or {}).get("num_players")
    if players is not None and configured is not None and players != configured:
        raise ValueError(f"players={players} disagrees with env_config num_players={configured}; give one of them")
    n = players if players is not None else configured if configured is not None else 2
    lo, hi = entry.players
    if isinstance(n, bool) or not isinstance(n, int) or not lo <= n <= hi:
        seats = f"exactly {lo}" if lo == hi else f"an integer from {lo} to {hi}"
        raise ValueError(f"players must be {seats} for {game}, got {n!r}")
    return n


def _count(name: str, value: object, least: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"{name} must be an integer >= {least}, got {value!r}")


def _choice(name: str, value: object, allowed: Sequence[str]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {list(allowed)}, got {value!r}")


@dataclass(frozen=True, kw_only=True)
class TournamentConfig:
    """A duplicate tournament: the game, the agents, how many hands, and how to play them (see the module doc
    of ``agent_zoo.tournament``). Bad values are a ValueError naming the field and what it allows."""

    # Catalog short name of the game ("leduc", "nolimit", "omaha", ...; ``poker_envs.catalog.keys()``).
    game: str
    # Registry specs ("random", "cfr:leduc.npz") or Agent objects, at least two, with distinct names.
    agents: Sequence[str | Agent]
    # Hands (with sessions: sessions) per match, a multiple of the seats: each deal is played once per rotation.
    hands: int = 2000
    # Master seed of the deals and the line-ups; a deal's result depends only on it and the deal's index.
    seed: int = 0
    # Processes (or Ray tasks) playing blocks of deals at once; never changes a result.
    workers: int = 1
    # How the workers run: "process" (a local process pool) or "ray".
    backend: str = "process"
    # Keywords of the game's environment (``env_config_keys``); num_players here or in ``players``.
    env_config: Mapping[str, Any] = field(default_factory=dict)
    # Deals per block: the work sent to a worker, and what the checkpoint saves at once.
    block_deals: int = 250
    # Show a progress bar (tqdm, where installed).
    progress: bool = True
    # Count style statistics (VPIP, PFR, aggression factor, fold to a bet).
    style: bool = True
    # Seats at the table (None: env_config["num_players"], else 2); within the catalog's range for the game.
    players: int | None = None
    # "aec" (AEC environments, every game) or "vector" (the batched engine: ``vector_games()``).
    engine: str = "aec"
    # Tables played in lockstep per worker.
    tables: int = 64
    # Most sets of agents when there are more agents than seats (``agent_zoo.lineups``).
    max_lineups: int = 500
    # Hands of a cash session (> 1: each episode is a session; hold'em and push/fold).
    hands_per_episode: int = 1
    # In cash sessions, every stack topped up to the start each hand.
    rebuy: bool = False
    # Each episode a sit-and-go: blind levels, eliminations, payouts (``tournament.session_config``).
    sit_and_go: bool = False
    # File that gets every finished block (``agent_zoo.tournament_checkpoint``); None: none kept.
    checkpoint: str | Path | None = None
    # Continue from ``checkpoint``: its finished blocks are not played again.
    resume: bool = False
    # Folder where agents that log their decisions (language models) write one JSON-lines file per block.
    log_dir: str | Path | None = None
    # "none", or "aivat": also every result corrected by AIVAT's control variates (one-hand episodes).
    variance_reduction: str = "none"
    # Also rate the agents (OpenSkill, Plackett-Luce; one match per deal).
    ratings: bool = False

    def __post_init__(self) -> None:
        catalog.game(self.game)  # an unknown game names the known ones
        if isinstance(self.agents, str) or not isinstance(self.agents, Sequence):
            raise ValueError(f"agents must be a list of registry specs or Agent objects, got {self.agents!r}")
        object.__setattr__(self, "agents", tuple(self.agents))
        if len(self.agents) < 2:
            raise ValueError(f"agents: a tournament needs at least two agents, got {len(self.agents)}")
        bad = [a for a in self.agents if not isinstance(a, str | Agent)]
        if bad:
            raise ValueError(f"agents must be registry specs (str) or Agent objects, got {bad[0]!r}")
        if not isinstance(self.env_config, Mapping):
            raise ValueError(f"env_config must be a mapping of environment keywords, got {self.env_config!r}")
        object.__setattr__(self, "env_config", dict(self.env_config))
        for name in ("progress", "style", "rebuy", "sit_and_go", "resume", "ratings"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, got {getattr(self, name)!r}")
        _count("hands", self.hands, 1)
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed must be an integer >= 0, got {self.seed!r}")
        for name in ("workers", "block_deals", "tables", "max_lineups", "hands_per_episode"):
            _count(name, getattr(self, name), 1)
        _choice("backend", self.backend, BACKENDS)
        _choice("engine", self.engine, ENGINES)
        _choice("variance_reduction", self.variance_reduction, VARIANCE_REDUCTIONS)
        n = self.seats
        if self.hands < n or self.hands % n:
            even = " (an even number >= 2)" if n == 2 else ""
            raise ValueError(f"hands must be a multiple of the {n} seats{even}: each deal is played once per seat "
                             f"rotation; got {self.hands}")
        if self.engine == "vector" and self.game not in vector_games():
            raise ValueError(f"engine 'vector': the batched engine plays {', '.join(vector_games())}, not {self.game}")
        if self.sit_and_go and self.rebuy:
            raise ValueError("sit_and_go cannot be combined with rebuy (a sit-and-go is played down to one stack)")
        if self.resume and self.checkpoint is None:
            raise ValueError("resume: give the checkpoint file to resume from")

    @property
    def seats(self) -> int:
        """Seats at the table (``players``, else ``env_config["num_players"]``, else 2)."""
        return table_size(self.game, self.env_config, self.players)
