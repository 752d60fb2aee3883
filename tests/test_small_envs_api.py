"""PettingZoo API, seeding, configuration errors, illegal actions and rendering of the four small games."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from poker_envs import kuhn_poker_v0, leduc_holdem_v0, push_fold_v0, threshold_v0
from poker_envs.aec import ForfeitIllegalWrapper

from conftest import play_random_hand

CASES = [
    (leduc_holdem_v0, {}),
    (leduc_holdem_v0, {"obs_encoder": "rank_chips"}),
    (kuhn_poker_v0, {}),
    (push_fold_v0, {}),
    (push_fold_v0, {"num_players": 3, "stack_bb": 8, "ante_bb": 0.125}),
    (push_fold_v0, {"num_players": 6, "stacks_bb": (3, 20, 7.5, 12, 1.5, 40), "rake": 0.05, "rake_cap_bb": 1}),
    (threshold_v0, {}),
    (threshold_v0, {"num_players": 10, "alpha": 3.5}),
]
IDS = [f"{m.__name__.split('.')[-1]}-{i}" for i, (m, _) in enumerate(CASES)]


@pytest.fixture(autouse=True)
def _quiet_unknown_option_warning():
    # api_test resets with options={"options": 1}; the envs warn about the unknown option, as they should.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*reset options.*")
        warnings.filterwarnings("ignore", message=".*Observation.*")
        yield


@pytest.mark.parametrize(("module", "kwargs"), CASES, ids=IDS)
def test_api_and_seed(module, kwargs) -> None:
    api_test(module.env(**kwargs), num_cycles=100)
    seed_test(lambda: module.env(**kwargs), num_cycles=50)


@pytest.mark.parametrize("n", [2, 3, 7])
def test_threshold_parallel_api_and_seed(n) -> None:
    parallel_api_test(threshold_v0.parallel_env(num_players=n, alpha=2.5), num_cycles=10)
    parallel_seed_test(lambda: threshold_v0.parallel_env(num_players=n, alpha=2.5))


def _play(e, seed: int, rng: np.random.Generator) -> dict[str, float]:
    e.reset(seed=seed)
    return play_random_hand(e, rng)


@pytest.mark.parametrize(("module", "kwargs"), CASES, ids=IDS)
def test_many_episodes_are_zero_sum_or_raked(module, kwargs) -> None:
    e = module.env(**kwargs)
    rng = np.random.default_rng(5)
    for episode in range(150):
        total = _play(e, episode, rng)
        s = sum(total.values())
        if module is push_fold_v0 and kwargs.get("rake"):
            assert -1.0 - 1e-9 <= s <= 1e-9
        else:
            assert s == pytest.approx(0.0)


@pytest.mark.parametrize(
    ("module", "kwargs", "name"),
    [
        (push_fold_v0, {"num_players": 1}, "num_players"),
        (push_fold_v0, {"stack_bb": -3}, "stack_bb"),
        (push_fold_v0, {"ante_bb": -1}, "ante_bb"),
        (push_fold_v0, {"rake": 2}, "rake"),
        (push_fold_v0, {"num_players": 3, "stacks_bb": [5, 5]}, "stacks_bb"),
        (threshold_v0, {"num_players": 12}, "num_players"),
        (threshold_v0, {"alpha": 0.5}, "alpha"),
        (leduc_holdem_v0, {"obs_encoder": "nope"}, "obs_encoder"),
        (kuhn_poker_v0, {"render_mode": "rgb"}, "render_mode"),
        (push_fold_v0, {"obs_encoder": "nope"}, "obs_encoder"),
    ],
)
def test_config_errors_name_the_argument(module, kwargs, name) -> None:
    with pytest.raises(ValueError, match=name):
        module.raw_env(**kwargs)


def test_threshold_parallel_config_errors() -> None:
    with pytest.raises(ValueError, match="alpha"):
        threshold_v0.parallel_env(alpha=1.0)
    p = threshold_v0.parallel_env(num_players=3)
    p.reset(seed=0)
    with pytest.raises(ValueError, match="missing"):
        p.step({"player_0": 1})
    with pytest.raises(ValueError, match="legal"):
        p.step({"player_0": 1, "player_1": 2, "player_2": 0})


def test_encoder_of_another_game_is_refused() -> None:
    from poker_envs.encoders.small_games import KuhnInfoStateEncoder

    with pytest.raises(ValueError, match="does not fit"):
        leduc_holdem_v0.raw_env(obs_encoder=KuhnInfoStateEncoder)


@pytest.mark.parametrize(("module", "bad"), [(leduc_holdem_v0, 0), (kuhn_poker_v0, 5), (push_fold_v0, 3), (threshold_v0, 2)])
def test_illegal_action_raises_naming_legal_ones(module, bad) -> None:
    e = module.raw_env()
    e.reset(seed=1)
    with pytest.raises(ValueError, match="legal"):
        e.step(bad)  # Leduc: fold is illegal when nothing is owed


def test_wrapped_illegal_action_forfeits_the_hand_with_penalty() -> None:
    e = leduc_holdem_v0.env()
    e.reset(seed=1)
    with pytest.warns(UserWarning, match="illegal move 0"):
        e.step(0)  # fold with nothing owed: illegal
    # Forfeited as a fold: player_0 loses its ante (1 chip) to player_1, and the penalty of 1 more.
    assert e.rewards == {"player_0": -2.0, "player_1": 1.0} and all(e.terminations.values())
    assert e.infos["player_0"]["illegal_action"] is True and "illegal_action" not in e.infos["player_1"]


@pytest.mark.parametrize(("module", "kwargs"), CASES, ids=IDS)
def test_ansi_render_is_text(module, kwargs) -> None:
    e = module.env(render_mode="ansi", **kwargs)
    e.reset(seed=3)
    text = e.render()
    assert isinstance(text, str) and len(text) > 10
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[-1]))
    assert isinstance(e.render(), str)


def test_human_render_prints(capsys) -> None:
    e = kuhn_poker_v0.env(render_mode="human")
    e.reset(seed=0, options={"deal": (2, 0)})
    e.step(1)
    assert "p0:K" in capsys.readouterr().out


def test_fixed_deal_options() -> None:
    e = leduc_holdem_v0.raw_env()
    e.reset(options={"deal": (5, 0, 4)})
    assert e.state.private == [5, 0]
    for a in (1, 1):
        e.step(a)
    assert e.state.public == 4
    e = threshold_v0.raw_env(num_players=3)
    e.reset(options={"deal": (1, 2, 3)})
    assert e.state.cards == [1, 2, 3]
    with pytest.raises(ValueError, match="deal"):
        e.reset(options={"deal": (1, 1, 3)})


def test_wrap_classic_keeps_pettingzoo_wrapper_behaviour() -> None:
    from pettingzoo.utils import wrappers

    e = leduc_holdem_v0.env()
    assert isinstance(e, wrappers.OrderEnforcingWrapper)
    assert isinstance(e.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(e.env.env, ForfeitIllegalWrapper)  # not PettingZoo's TerminateIllegalWrapper
    with pytest.raises(AttributeError, match="before reset"):
        _ = e.agent_selection
    e.reset(seed=0)
    raw = e.unwrapped
    assert e.agent_selection == raw.agent_selection == "player_0"
    assert e.terminations is raw.terminations and e.rewards is raw.rewards
    with pytest.raises(ValueError, match="action 7 is outside player_0's action space"):
        e.step(7)  # outside the action space: a clear error where PettingZoo's wrapper asserts
