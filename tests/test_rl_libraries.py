"""Sessions with eliminations under TorchRL's ``PettingZooWrapper`` and Tianshou's ``PettingZooEnv`` (the
``[rl]`` extra): ``eliminated="stay"`` keeps busted seats in the episode, so these libraries play whole
sessions (several hands per episode) with no illegal action; ``api_test`` passes with it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from pettingzoo.test import api_test
from tianshou.env import PettingZooEnv
from torchrl.envs.libs.pettingzoo import PettingZooWrapper

from poker_envs import nolimit_holdem_v0

SESSION = {"num_players": 3, "starting_stack": 20, "hands_per_episode": 20, "eliminated": "stay"}  # short stacks
STEPS = 1_000


class Counter:
    """Hands of every finished session and illegal moves, counted on the raw env ``env`` wraps."""

    def __init__(self, env: Any) -> None:
        raw = env.unwrapped
        self.hands_per_episode: list[int] = []
        self.illegal = 0
        end_hand, forfeit = raw._end_hand, raw.forfeit

        def counted_end_hand() -> None:
            end_hand()
            if all(raw.terminations[a] for a in raw.agents):
                self.hands_per_episode.append(raw.hands_done)

        def counted_forfeit(penalty: float) -> None:
            self.illegal += 1
            forfeit(penalty)

        raw._end_hand, raw.forfeit = counted_end_hand, counted_forfeit


def test_api_test_passes_with_eliminated_stay() -> None:
    api_test(nolimit_holdem_v0.env(**SESSION), num_cycles=2_000)


def test_eliminated_seats_stay_in_agents_never_act_and_get_zero_reward() -> None:
    env = nolimit_holdem_v0.env(**SESSION)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    busted: set[str] = set()
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        assert agent not in busted or term  # a busted seat is only selected to step None at the end
        if not term:
            assert obs["action_mask"].any()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if env.agents and not all(env.terminations[a] for a in env.agents):
            assert set(env.agents) == set(env.possible_agents)  # nobody leaves before the end
            assert all(env.rewards[a] == 0.0 for a in busted)  # busted at an earlier step: zero from then on
            busted |= {a for a, s in zip(env.possible_agents, env.unwrapped.session.stacks) if s == 0}
    assert busted and env.unwrapped.hands_done > 1
    with pytest.raises(ValueError, match="eliminated"):
        nolimit_holdem_v0.env(**{**SESSION, "eliminated": "vanish"})


def test_torchrl_pettingzoo_wrapper_plays_whole_sessions() -> None:
    torch.manual_seed(0)
    aec = nolimit_holdem_v0.env(**SESSION)
    counter = Counter(aec)
    env = PettingZooWrapper(env=aec, use_mask=True, seed=0)
    rollout = env.rollout(STEPS, break_when_any_done=False)  # masked random actions
    assert rollout.batch_size == torch.Size([STEPS])
    for agent in aec.possible_agents:  # the acting agent's action is always in its mask
        acting = rollout[agent, "mask"].squeeze(-1)
        mask = rollout[agent, "action_mask"].squeeze(1)[acting]
        action = rollout[agent, "action"].reshape(STEPS, -1)[:, 0][acting]
        assert mask[torch.arange(len(action)), action].all()
    assert counter.illegal == 0
    assert len(counter.hands_per_episode) >= 5
    assert np.mean(counter.hands_per_episode) >= 4


def test_tianshou_pettingzoo_env_plays_whole_sessions() -> None:
    aec = nolimit_holdem_v0.env(**SESSION)
    counter = Counter(aec)
    env = PettingZooEnv(aec)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    for _ in range(STEPS):
        action = int(rng.choice(np.flatnonzero(obs["mask"])))  # a masked random policy, as Tianshou's
        obs, _, term, trunc, _ = env.step(action)
        if term or trunc:
            obs, _ = env.reset()
    assert counter.illegal == 0
    assert len(counter.hands_per_episode) >= 5
    assert np.mean(counter.hands_per_episode) >= 4
