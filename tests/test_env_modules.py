"""The environment modules' contract: ``env`` / ``parallel_env`` made from ``raw_env`` by ``aec.classic_env`` and
``aec.turn_based_env``, and the hold'em variants' session arguments listed once in ``poker_envs.session``."""

from __future__ import annotations

import importlib
import inspect
import pickle
import typing
from types import ModuleType

import pytest
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from poker_envs import catalog
from poker_envs.aec import DealOptionAECEnv, ForfeitIllegalWrapper, PokerAECEnv
from poker_envs.parallel import TurnBasedParallelEnv
from poker_envs.session import SessionArguments, SessionConfig, session_config, with_session_arguments

MODULES = [importlib.import_module(g.module_path) for g in catalog.GAMES]
HOLDEM = [importlib.import_module(g.module_path) for g in catalog.GAMES if g.family == "holdem"]
SESSION = ("hands_per_episode", "rebuy", "blind_levels", "hands_per_level", "payouts", "eliminated")

# The arguments each hold'em variant takes by position, in order, as they were when every signature was written
# out by hand (what a positional call binds must not move).
POSITIONAL = {
    "limit_holdem_v0": ("num_players", "small_blind", "big_blind", "ante", "starting_stack", "allow_fold_when_check",
                        "reward_unit", "obs_encoder", "render_mode"),
    "nolimit_holdem_v0": ("num_players", "small_blind", "big_blind", "ante", "starting_stack", "bet_sizing",
                          "reward_unit", "obs_encoder", "render_mode"),
    "shortdeck_holdem_v0": ("num_players", "small_blind", "big_blind", "ante", "starting_stack", "bet_sizing",
                            "trips_beat_straight", "reward_unit", "obs_encoder", "render_mode"),
    "potlimit_holdem_v0": ("num_players", "small_blind", "big_blind", "ante", "starting_stack", "bet_sizing",
                           "reward_unit", "obs_encoder", "render_mode", "history"),
    "omaha_v0": ("num_players", "small_blind", "big_blind", "ante", "starting_stack", "hole_cards", "betting",
                 "bet_sizing", "reward_unit", "obs_encoder", "render_mode", "history"),
}


def short(module: ModuleType) -> str:
    return module.__name__.rsplit(".", 1)[-1]


@pytest.mark.parametrize("module", MODULES, ids=short)
def test_env_functions_are_the_modules_and_take_raw_envs_arguments(module: ModuleType) -> None:
    raw = inspect.signature(module.raw_env)
    assert callable(module.available_encoders)
    assert module.env.__module__ == module.__name__ and module.env.__name__ == "env"
    assert list(inspect.signature(module.env).parameters.values()) == list(raw.parameters.values())
    assert pickle.loads(pickle.dumps(module.env)) is module.env  # by reference, as a module function
    assert "illegal move forfeits the hand as a fold, -1 more" in module.env.__doc__
    env = module.env()
    assert isinstance(env, OrderEnforcingWrapper) and isinstance(env.unwrapped, module.raw_env)
    inner = env
    while not isinstance(inner, ForfeitIllegalWrapper):
        inner = inner.env
    assert inner.illegal_reward == -1.0
    if isinstance(module.parallel_env, type):  # the threshold game's own simultaneous-move Parallel env
        return
    assert module.parallel_env.__module__ == module.__name__ and module.parallel_env.__name__ == "parallel_env"
    assert list(inspect.signature(module.parallel_env).parameters.values()) == list(raw.parameters.values())
    parallel = module.parallel_env()
    assert isinstance(parallel, TurnBasedParallelEnv) and isinstance(parallel.aec, ForfeitIllegalWrapper | OrderEnforcingWrapper)


@pytest.mark.parametrize("module", HOLDEM, ids=short)
def test_holdem_signature_lists_every_argument(module: ModuleType) -> None:
    """Positional arguments in their old order, then the rest by keyword; the session arguments with
    ``session_config``'s defaults (what ``help``, IDEs through ``inspect`` and ``--env-config`` checks read)."""
    params = inspect.signature(module.raw_env).parameters
    positional = tuple(n for n, p in params.items() if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD)
    assert positional == POSITIONAL[short(module)]
    assert not any(p.kind in (inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL) for p in params.values())
    assert tuple(params)[-len(SESSION):] == SESSION
    defaults = {n: params[n].default for n in SESSION}
    assert defaults == {"hands_per_episode": 1, "rebuy": False, "blind_levels": None, "hands_per_level": None,
                        "payouts": None, "eliminated": "leave"}
    assert all(params[n].kind is inspect.Parameter.KEYWORD_ONLY for n in SESSION)
    assert "history" in params


@pytest.mark.parametrize("module", HOLDEM, ids=short)
def test_holdem_session_arguments_reach_the_env(module: ModuleType) -> None:
    levels = [(1, 2, 0), (2, 4, 1)]
    env = module.env(num_players=3, hands_per_episode=7, blind_levels=levels, hands_per_level=3, payouts=[0.7, 0.3],
                     eliminated="stay")
    expected = SessionConfig(hands_per_episode=7, blind_levels=((1, 2, 0), (2, 4, 1)), hands_per_level=3,
                             payouts=(0.7, 0.3), eliminated="stay")
    assert env.unwrapped.session_config == expected
    assert module.raw_env().session_config == SessionConfig()  # no session arguments: one hand per episode
    with pytest.raises(ValueError, match="eliminated must be 'leave' or 'stay'"):
        module.raw_env(hands_per_episode=2, eliminated="go")


@pytest.mark.parametrize("module", HOLDEM, ids=short)
def test_holdem_unknown_or_repeated_argument_is_a_type_error(module: ModuleType) -> None:
    with pytest.raises(TypeError, match=rf"{module.__name__}\.raw_env\.__init__\(\) got an unexpected keyword argument 'hands'"):
        module.raw_env(hands=3)
    with pytest.raises(TypeError, match="multiple values for argument 'num_players'"):
        module.raw_env(3, num_players=3)
    too_many = len(POSITIONAL[short(module)]) + 1  # the session arguments are never bound by position
    with pytest.raises(TypeError, match="too many positional arguments"):
        module.raw_env(*[None] * too_many)


def test_session_arguments_are_one_list() -> None:
    """The TypedDict IDEs read names the same arguments, with the same types, as ``session_config``."""
    assert tuple(inspect.signature(session_config).parameters) == SESSION
    hints = typing.get_type_hints(session_config)
    del hints["return"]
    assert typing.get_type_hints(SessionArguments) == hints


def test_with_session_arguments_needs_a_var_keyword() -> None:
    def init(self: object, a: int = 1) -> None:
        pass

    with pytest.raises(TypeError, match=r"must end in \*\*session"):
        with_session_arguments(init)


def test_tournament_sessions_reach_every_holdem_variant() -> None:
    """The tournament reads the session arguments from the signatures: pot-limit and Omaha (whose signatures
    once ended in a bare ``**session``) take a sit-and-go's blind levels and payouts like the others."""
    from agent_zoo import tournament

    for entry in (g for g in catalog.GAMES if g.family == "holdem"):
        assert set(SESSION) <= set(tournament.env_config_keys(entry.key)), entry.key
        config = tournament.session_config(entry.key, 3, {}, 1, False, True)
        assert {"payouts", "blind_levels", "hands_per_level", "hands_per_episode"} <= set(config), entry.key
        env = tournament.build_env(entry.key, config)
        assert env.unwrapped.session_config.blind_levels and isinstance(env.unwrapped, PokerAECEnv)


# Two different deals of each game with the reset option ``deal`` (the rules modules' card ids).
DEALS = {"kuhn_poker_v0": ([2, 0], [0, 2]), "leduc_holdem_v0": ([4, 1, 2], [1, 4, 2]), "threshold_v0": ([70, 5], [5, 70])}


@pytest.mark.parametrize("module", [m for m in MODULES if issubclass(m.raw_env, DealOptionAECEnv)], ids=short)
def test_deal_option_fixes_the_cards_and_unknown_options_are_named(module: ModuleType) -> None:
    """Kuhn, Leduc and the threshold game share one reading of reset option ``deal``: the same deal gives the same
    observations whatever the seed, another deal others; an unknown option is warned about with the env's name."""
    deal, other = DEALS[short(module)]

    def observations(seed: int, cards: list[int]) -> list[list[float]]:
        env = module.raw_env()
        env.reset(seed=seed, options={"deal": cards})
        return [env.observe(agent)["observation"].tolist() for agent in env.possible_agents]

    assert observations(0, deal) == observations(1, deal) == observations(2, deal)
    assert observations(0, deal) != observations(0, other)
    with pytest.warns(UserWarning, match=rf"{short(module)}: reset options \['dael'\] are not used; known options: \['deal'\]"):
        module.raw_env().reset(seed=0, options={"dael": deal})
