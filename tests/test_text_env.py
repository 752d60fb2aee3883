"""The Gymnasium text environment (wrappers.text_env): check_env, scripted episodes, zero-sum rewards in big
blinds, reprompt / fallback accounting, seeds."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import poker_envs  # noqa: F401  (registers the Gymnasium ids)
from poker_envs import catalog
from poker_envs.encoders.public import decode_public
from poker_envs.registration import TEXT_GYMNASIUM_ID
from wrappers.text_env import TEXT_GAMES, TextPokerEnv


def play(env: TextPokerEnv, replies: list[str], seed: int, cycle: bool = True) -> tuple[list[str], list[float], dict]:
    """Reset with ``seed`` and answer with ``replies`` (cycled) until the episode ends."""
    prompt, info = env.reset(seed=seed)
    prompts, rewards = [prompt], []
    for k in range(10_000):
        prompt, reward, terminated, truncated, info = env.step(replies[k % len(replies)] if cycle else replies[min(k, len(replies) - 1)])
        prompts.append(prompt)
        rewards.append(reward)
        if terminated or truncated:
            return prompts, rewards, info
    raise AssertionError("the episode did not end")


@pytest.mark.parametrize(
    ("game", "opponents", "config"),
    [
        ("nolimit", "heuristic", {}),
        ("limit", "heuristic", {"num_players": 3}),
        ("shortdeck", "random", {}),
        ("push_fold", "random", {}),
        ("nolimit", "random", {"num_players": 3, "hands_per_episode": 4, "seat": "rotate"}),
    ],
)
def test_check_env(game: str, opponents: str, config: dict) -> None:
    env = TextPokerEnv(game, opponents=opponents, **config)
    check_env(env, skip_render_check=True)
    prompt, info = env.reset(seed=0)
    assert isinstance(prompt, str) and prompt in env.observation_space
    assert isinstance(info["state"], dict)


def test_registered_id() -> None:
    env = gymnasium.make(TEXT_GYMNASIUM_ID, game="limit", opponents="random")
    prompt, info = env.reset(seed=1)
    assert isinstance(prompt, str) and "state" in info
    env.close()


@pytest.mark.parametrize("replies", [["call", "check"], ["fold"], ["raise", "call"], ["I have no idea", "call"]])
@pytest.mark.parametrize("opponents", ["heuristic", "random"])
def test_heads_up_rewards_are_zero_sum(replies: list[str], opponents: str) -> None:
    """One hand heads-up: the learner's rewards add up to its hand result, minus the opponent's."""
    env = TextPokerEnv("nolimit", opponents=opponents, max_reprompts=1)
    for seed in range(6):
        _, rewards, info = play(env, replies, seed)
        hand = info["hand_rewards"]
        assert sum(rewards) == pytest.approx(hand["player_0"])
        assert sum(rewards) == pytest.approx(-hand["player_1"])


@pytest.mark.parametrize("game", TEXT_GAMES)
def test_every_game_the_catalog_gives_text_views_plays_by_text(game: str) -> None:
    """The text env serves every game the catalog marks ``text_views`` (the hold'em family with Omaha and
    pot-limit, push/fold): each heads-up hand is played to its end by the replies and is zero-sum."""
    assert set(TEXT_GAMES) == set(catalog.keys(text_views=True)) >= set(catalog.keys(family="holdem"))
    env = TextPokerEnv(game, opponents="random", max_reprompts=1)
    for seed in range(4):
        prompts, rewards, info = play(env, ["raise max", "call", "check"], seed)
        assert prompts[0].startswith("You are playing")
        hand = info["hand_rewards"]
        assert sum(rewards) == pytest.approx(hand["player_0"]) == pytest.approx(-hand["player_1"])


def test_folding_the_small_blind_costs_half_a_big_blind() -> None:
    """Hand-worked: heads-up no-limit (blinds 1/2), the small blind folds at once: -0.5 big blinds."""
    env = TextPokerEnv("nolimit", opponents="heuristic", seat="random")
    found = 0
    for seed in range(20):
        _, info = env.reset(seed=seed)
        pub = decode_public(info["public"], 2)
        seat = info["seat"]
        if pub.street != 0 or pub.bets[seat] != pub.small_blind or pub.to_call <= 0:
            continue  # not the small blind's first decision
        _, reward, terminated, _, info = env.step("fold")
        assert terminated and info["failure"] is None and info["reprompts"] == 0
        assert reward == pytest.approx(-pub.small_blind / pub.big_blind) == pytest.approx(-0.5)
        found += 1
    assert found >= 3


def test_reprompt_then_fallback_with_penalty() -> None:
    env = TextPokerEnv("nolimit", opponents="heuristic", max_reprompts=2, invalid_penalty=0.25)
    prompt0, info0 = env.reset(seed=3)
    state0 = info0["state"]
    rewards = []
    for k in (1, 2):  # two reprompts: the same decision, the parser's message in the prompt
        prompt, reward, terminated, truncated, info = env.step("let me think about the pot odds")
        rewards.append(reward)
        assert (reward, terminated, truncated) == (-0.25, False, False)
        assert info["reprompt"] and info["failure"] is not None and info["message"]
        assert info["reprompts"] == k and info["invalid_replies"] == k and info["fallbacks"] == 0
        assert info["state"] == state0 and np.array_equal(info["action_mask"], info0["action_mask"])
        assert prompt != prompt0
    mask, to_call = info0["action_mask"], decode_public(info0["public"], 2).to_call
    _, reward, terminated, _, info = env.step("still thinking")  # the third failure plays the fallback
    assert info["fallbacks"] == 1 and info["invalid_replies"] == 3 and info["fallback"]
    assert mask[info["action"]]
    assert info["action"] == (1 if to_call == 0 else 0)  # check when free, else fold
    rewards.append(reward)
    while not terminated:
        _, reward, terminated, _, info = env.step("call")
        rewards.append(reward)
    assert sum(rewards) == pytest.approx(info["hand_rewards"]["player_0"] - 0.25 * info["invalid_replies"])


def test_play_fallback_checks_when_free_else_folds_until_the_hand_ends() -> None:
    """A client that gives up plays the fallback at each of its decisions: the same action ``step`` plays after too
    many failed replies, no penalty, counted as a fallback; the hand ends and the rewards are the hand's."""
    for seed in range(4):
        env = TextPokerEnv("nolimit", opponents="heuristic")
        _, info = env.reset(seed=seed)
        rewards, terminated, n = [], False, 0
        while not terminated:
            to_call = decode_public(info["public"], 2).to_call
            _, reward, terminated, _, info = env.play_fallback()
            n += 1
            rewards.append(reward)
            assert info["fallback"] and info["fallbacks"] == n and info["invalid_replies"] == 0
            assert info["action"] == (1 if to_call == 0 else 0)  # check when free, else fold
        assert sum(rewards) == pytest.approx(info["hand_rewards"]["player_0"])
        with pytest.raises(RuntimeError, match="reset"):
            env.play_fallback()


def test_same_seed_same_episode() -> None:
    for opponents in ("heuristic", "random"):
        env_a = TextPokerEnv("nolimit", opponents=opponents, num_players=3, hands_per_episode=3, seat="rotate")
        env_b = TextPokerEnv("nolimit", opponents=opponents, num_players=3, hands_per_episode=3, seat="rotate")
        a = play(env_a, ["call", "check"], seed=11)
        b = play(env_b, ["call", "check"], seed=11)
        assert a[0] == b[0] and a[1] == b[1]
        assert play(env_a, ["call", "check"], seed=12)[0] != a[0]


@pytest.mark.parametrize("game", ["nolimit", "limit"])
def test_session_rewards_add_up_to_the_stack_change(game: str) -> None:
    """A session of 4 hands at 3 seats (stacks 200 chips = 100 big blinds): the learner's rewards add up to its
    chips at the end less its chips at the start, in big blinds (the last hand's start, plus its result)."""
    env = TextPokerEnv(game, opponents="heuristic", num_players=3, hands_per_episode=4)
    for seed in range(6):
        _, rewards, info = play(env, ["call", "check", "raise to 20"], seed)
        state = info["state"]
        last_hand_start = state["seats"][state["seat"]]["start_stack"] / state["big_blind"]
        start = 200 / state["big_blind"]
        assert sum(rewards) == pytest.approx(last_hand_start + info["hand_rewards"]["player_0"] - start)


def test_opponents_as_callables() -> None:
    """Opponents given as callables (obs, rng) -> action rather than zoo specs: one that always checks or calls."""
    env = TextPokerEnv("nolimit", opponents=lambda obs, rng: 1)
    _, rewards, info = play(env, ["call", "check"], seed=4)
    assert info["state"]["board"] and len(info["state"]["board"]) == 5  # nobody folded: the river was dealt
    assert sum(rewards) == pytest.approx(-info["hand_rewards"]["player_1"])


def test_session_plays_to_the_end() -> None:
    env = TextPokerEnv("limit", opponents="heuristic", num_players=3, hands_per_episode=3)
    _, rewards, info = play(env, ["call", "check"], seed=5)
    assert info["decisions"] >= 1 and all(np.isfinite(rewards))
    assert sum(info["hand_rewards"].values()) == pytest.approx(0.0)  # the last hand is zero-sum


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="game 'kuhn'"):
        TextPokerEnv("kuhn")
    with pytest.raises(ValueError, match="game 'poker'"):
        TextPokerEnv("poker")
    with pytest.raises(ValueError, match="reward_unit"):
        TextPokerEnv("nolimit", reward_unit="chips")
    with pytest.raises(ValueError, match="max_reprompts"):
        TextPokerEnv("nolimit", max_reprompts=-1)
    with pytest.raises(ValueError, match="invalid_penalty"):
        TextPokerEnv("nolimit", invalid_penalty=-1.0)
    env = TextPokerEnv("nolimit", opponents="random")
    with pytest.raises(RuntimeError, match="reset"):
        env.step("call")
    env.reset(seed=0)
    with pytest.raises(TypeError, match="reply text"):
        env.step(1)  # type: ignore[arg-type]


def test_text_spaces_hold_any_characters() -> None:
    env = TextPokerEnv("limit", opponents="random")
    assert "A♠ K♥ — raise" in env.observation_space and "" not in env.observation_space
    assert "" in env.action_space and "x" * (env.action_space.max_length + 1) not in env.action_space
    assert 3 not in env.action_space and env.action_space.sample() in env.action_space
