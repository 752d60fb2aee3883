"""The one list of games: every registry, command line and docs table reads it.

PettingZoo and Gymnasium registration (``poker_envs.registration``),
the tournament's and the solver CLIs' ``--game``, and the README's environment table (checked by
``tests/test_catalog.py``) all come from ``GAMES``. Adding a game means: a rules module (or a
configuration of an existing one), an environment module ``<name>_v0.py`` with ``env``, ``raw_env`` and
``available_encoders``, and one ``GameEntry`` here.

Nothing here imports an environment or rules module until it is asked to build one (entry points are
strings, rules factories import on call), so ``import poker_envs`` stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from poker_envs.games.base import Game

# The zoo's command lines that take --game (python -m agent_zoo.<name>): which games each accepts is said by the
# entries (``GameEntry.solvers``), never by the tool. "cfr": exact solving on the game tree; "rnad": tabular R-NaD /
# MMD on the tree; "jax_ppo": PPO on the device; "lbr": local best response.
SOLVERS = ("cfr", "rnad", "jax_ppo", "lbr")
FAMILIES = ("holdem",)  # rules families shared by several entries (``GameEntry.family``)


@dataclass(frozen=True)
class GameEntry:
    """One game as the registries and command lines know it."""

    key: str  # short name: the tournament's and the solver CLIs' --game ("leduc")
    title: str  # the game's name in prose ("Leduc hold'em")
    env_module: str  # module in poker_envs with env(), raw_env and available_encoders() ("leduc_holdem_v0")
    pettingzoo_id: str  # pettingzoo.make("aec", pettingzoo_id) (registered by ``import poker_envs``)
    gymnasium_id: str  # gymnasium.make(gymnasium_id, opponent=...) (registered by ``import poker_envs``)
    rules: Callable[..., Game]  # builds the rules from rules-config keywords; none: the environment's defaults
    encoders: tuple[str, ...]  # obs_encoder names the environment offers, "default" first
    players: tuple[int, int]  # fewest and most seats
    parallel: bool = True  # the env module also has parallel_env (PettingZoo's turn-based Parallel API; every game has one)
    reward_unit: str = "chips"  # what rewards count with the default arguments: "chips" or "bb" (big blinds)
    has_calls: bool = True  # a player can call a bet, so aggression factor and fold-to-bet mean something
    heads_up: tuple[tuple[str, Any], ...] = ()  # raw_env keywords of a heads-up match (the tournament's defaults)
    solvers: tuple[str, ...] = ()  # command lines of SOLVERS that accept it as --game
    family: str = ""  # "holdem": a configuration of poker_envs.games.holdem (tools reading hold'em tables take it)
    text_views: bool = False  # poker_envs.text speaks it (prompts, JSON views, the text environment)
    vector_factory: str = ""  # "module:function" of its batched engine (``poker_envs.vector.make``); "" for none
    jax_factory: str = ""  # "module:function" of its JAX functional game (``vector.functional.make``); "" for none
    phh_variant: str = ""  # its code in the PHH hand-history format ("NT", "PO"); "" where the format has none
    classic_module: str = ""  # module of poker_envs.classic keeping PettingZoo's RLCard-based env of it; "" for none

    @property
    def vector_name(self) -> str:
        """Its name for ``vector.make`` and ``vector.functional.make`` (the env module without ``_v0``)."""
        return self.env_module.removesuffix("_v0")

    @property
    def module_path(self) -> str:
        """The importable module name (``poker_envs.leduc_holdem_v0``)."""
        return f"poker_envs.{self.env_module}"

    @property
    def classic_pettingzoo_id(self) -> str:
        """``pettingzoo.make("aec", id)`` of its ``classic_module`` ("poker_envs/texas_holdem_no_limit-v6"); "" for none."""
        if not self.classic_module:
            return ""
        name, _, version = self.classic_module.rpartition("_v")
        return f"poker_envs/{name}-v{version}"


# Rules factories (they import the rules module when called).
def nolimit_holdem(**config: Any) -> Game:
    """No-limit hold'em rules; ``config``: the other ``HoldemConfig`` fields."""
    from poker_envs.games.holdem import HoldemConfig, HoldemGame

    return HoldemGame(HoldemConfig(betting="nolimit", **config))


def limit_holdem(**config: Any) -> Game:
    """Fixed-limit hold'em rules; ``config``: the other ``HoldemConfig`` fields."""
    from poker_envs.games.holdem import HoldemConfig, HoldemGame

    return HoldemGame(HoldemConfig(betting="limit", **config))


def shortdeck_holdem(**config: Any) -> Game:
    """No-limit short-deck (6+) hold'em rules: a configuration of hold'em (36 cards, the short-deck ranking;
    ``ranking="short_deck_trips"`` puts three of a kind above a straight); ``config``: other ``HoldemConfig`` fields."""
    return nolimit_holdem(**{"ranking": "short_deck", **config})


def potlimit_holdem(**config: Any) -> Game:
    """Pot-limit hold'em rules; ``config``: the other ``HoldemConfig`` fields."""
    from poker_envs.games.holdem import HoldemConfig, HoldemGame

    return HoldemGame(HoldemConfig(betting="potlimit", **config))


def omaha(**config: Any) -> Game:
    """Omaha rules: a configuration of hold'em (``hole_cards=4``, ``hand_rule="omaha"``, pot-limit unless
    ``betting`` says otherwise); ``config``: other ``HoldemConfig`` fields."""
    from poker_envs.games.holdem import HoldemConfig, HoldemGame

    return HoldemGame(HoldemConfig(**{"betting": "potlimit", "hole_cards": 4, "hand_rule": "omaha", **config}))


def push_fold(**config: Any) -> Game:
    """Push/fold rules; ``config``: ``PushFoldConfig`` fields."""
    from poker_envs.games.push_fold import PushFoldConfig, PushFoldGame

    return PushFoldGame(PushFoldConfig(**config))


def leduc() -> Game:
    """Leduc hold'em rules (no configuration)."""
    from poker_envs.games.leduc import LeducGame

    return LeducGame()


def kuhn() -> Game:
    """Kuhn poker rules (no configuration)."""
    from poker_envs.games.kuhn import KuhnGame

    return KuhnGame()


def threshold(**config: Any) -> Game:
    """Threshold-game rules; ``config``: ``ThresholdConfig`` fields."""
    from poker_envs.games.threshold import ThresholdConfig, ThresholdGame

    return ThresholdGame(ThresholdConfig(**config))


_HOLDEM_ENCODERS = ("default", "poker_cnn", "flat107", "flat56")

GAMES: tuple[GameEntry, ...] = (
    GameEntry(
        key="nolimit", title="No-limit Texas hold'em", env_module="nolimit_holdem_v0",
        pettingzoo_id="poker_envs/nolimit_holdem-v0", gymnasium_id="poker_envs/NoLimitHoldem-v0",
        rules=nolimit_holdem, encoders=_HOLDEM_ENCODERS, players=(2, 10), reward_unit="bb",
        heads_up=(("num_players", 2),),
        vector_factory="poker_envs.vector.holdem_games:make_nolimit",
        jax_factory="poker_envs.vector.jax.holdem:make_nolimit",
        phh_variant="NT", classic_module="texas_holdem_no_limit_v6",
        family="holdem", text_views=True, solvers=("jax_ppo", "lbr"),
    ),
    GameEntry(
        key="limit", title="Fixed-limit Texas hold'em", env_module="limit_holdem_v0",
        pettingzoo_id="poker_envs/limit_holdem-v0", gymnasium_id="poker_envs/LimitHoldem-v0",
        rules=limit_holdem, encoders=_HOLDEM_ENCODERS, players=(2, 10), reward_unit="bb",
        heads_up=(("num_players", 2),),
        vector_factory="poker_envs.vector.holdem_games:make_limit",
        jax_factory="poker_envs.vector.jax.holdem:make_limit",
        phh_variant="FT", classic_module="texas_holdem_v4",
        family="holdem", text_views=True,
    ),
    GameEntry(
        key="shortdeck", title="No-limit short-deck hold'em", env_module="shortdeck_holdem_v0",
        pettingzoo_id="poker_envs/shortdeck_holdem-v0", gymnasium_id="poker_envs/ShortDeckHoldem-v0",
        rules=shortdeck_holdem, encoders=_HOLDEM_ENCODERS, players=(2, 10), reward_unit="bb",
        heads_up=(("num_players", 2),),
        vector_factory="poker_envs.vector.holdem_games:make_shortdeck",
        jax_factory="poker_envs.vector.jax.holdem:make_shortdeck",
        phh_variant="NS",
        family="holdem", text_views=True,
    ),
    GameEntry(
        key="potlimit", title="Pot-limit Texas hold'em", env_module="potlimit_holdem_v0",
        pettingzoo_id="poker_envs/potlimit_holdem-v0", gymnasium_id="poker_envs/PotLimitHoldem-v0",
        rules=potlimit_holdem, encoders=_HOLDEM_ENCODERS, players=(2, 10), reward_unit="bb",
        heads_up=(("num_players", 2),),
        vector_factory="poker_envs.vector.holdem_games:make_potlimit",
        jax_factory="poker_envs.vector.jax.holdem:make_potlimit",
        family="holdem", text_views=True,
    ),
    GameEntry(
        key="omaha", title="Pot-limit Omaha", env_module="omaha_v0",
        pettingzoo_id="poker_envs/omaha-v0", gymnasium_id="poker_envs/Omaha-v0",
        rules=omaha, encoders=("default",), players=(2, 10), reward_unit="bb",
        heads_up=(("num_players", 2),),
        vector_factory="poker_envs.vector.holdem_games:make_omaha",
        jax_factory="poker_envs.vector.jax.holdem:make_omaha",
        phh_variant="PO",
        family="holdem", text_views=True,
    ),
    GameEntry(
        key="push_fold", title="Push-or-fold hold'em", env_module="push_fold_v0",
        pettingzoo_id="poker_envs/push_fold-v0", gymnasium_id="poker_envs/PushFold-v0",
        rules=push_fold, encoders=("default", "push_fold", "poker_cnn", "flat107", "flat56"), players=(2, 6),
        reward_unit="bb",
        vector_factory="poker_envs.vector.push_fold:make_push_fold",
        jax_factory="poker_envs.vector.jax.push_fold:make_push_fold",
        text_views=True, solvers=("lbr",),
    ),
    GameEntry(
        key="leduc", title="Leduc hold'em", env_module="leduc_holdem_v0",
        pettingzoo_id="poker_envs/leduc_holdem-v0", gymnasium_id="poker_envs/LeducHoldem-v0",
        rules=leduc, encoders=("default", "infostate", "rank_chips"), players=(2, 2), solvers=("cfr", "rnad", "jax_ppo", "lbr"),
        classic_module="leduc_holdem_v4",
        vector_factory="poker_envs.vector.leduc:make_leduc",
        jax_factory="poker_envs.vector.jax.leduc:make_leduc",
    ),
    GameEntry(
        key="kuhn", title="Kuhn poker", env_module="kuhn_poker_v0",
        pettingzoo_id="poker_envs/kuhn_poker-v0", gymnasium_id="poker_envs/KuhnPoker-v0",
        rules=kuhn, encoders=("default", "infostate"), players=(2, 2), solvers=("cfr", "rnad", "jax_ppo"),
        vector_factory="poker_envs.vector.kuhn:make_kuhn",
        jax_factory="poker_envs.vector.jax.kuhn:make_kuhn",
    ),
    GameEntry(
        key="threshold", title="The threshold game", env_module="threshold_v0",
        pettingzoo_id="poker_envs/threshold-v0", gymnasium_id="poker_envs/Threshold-v0",
        rules=threshold, encoders=("default", "threshold"), players=(2, 10), parallel=True, has_calls=False,
        heads_up=(("num_players", 2),),
    ),
)


def keys(solver: str | None = None, *, family: str | None = None, text_views: bool | None = None,
         vector: bool | None = None) -> list[str]:
    """The games' short names in catalog order, filtered: ``solver``, those that command line accepts; ``family``,
    those of that rules family; ``text_views``, those the text views speak (or not); ``vector``, those with a
    batched engine (or not)."""
    if solver is not None and solver not in SOLVERS:
        raise ValueError(f"solver {solver!r} is unknown; known solvers: {', '.join(SOLVERS)}")
    if family is not None and family not in FAMILIES:
        raise ValueError(f"family {family!r} is unknown; known families: {', '.join(FAMILIES)}")
    return [
        g.key for g in GAMES
        if (solver is None or solver in g.solvers) and (family is None or g.family == family)
        and (text_views is None or g.text_views == text_views) and (vector is None or bool(g.vector_factory) == vector)
    ]


def game(key: str, argument: str = "game", solver: str | None = None) -> GameEntry:
    """The entry of short name ``key``; a ValueError names ``argument`` and the known names.

    With ``solver`` only the games that solver CLI accepts are known.
    """
    known = keys(solver)
    if key not in known:
        raise ValueError(f"{argument} {key!r} is unknown; known games: {', '.join(known)}")
    return next(g for g in GAMES if g.key == key)


def by_env_module(module: str, argument: str = "env") -> GameEntry:
    """The entry of an environment module (``"leduc_holdem_v0"`` or ``"poker_envs.leduc_holdem_v0"``)."""
    for g in GAMES:
        if module in (g.env_module, g.module_path):
            return g
    raise ValueError(f"{argument} {module!r} is not a catalogued environment module; known: {', '.join(g.env_module for g in GAMES)}")
