"""OpenEnv's own client (``openenv-core``) against the text environment's server (wrappers.text_server) on
127.0.0.1: a typed client written as OpenEnv's guide writes one (an ``EnvClient`` subclass over its ``Action``,
``Observation`` and ``State`` models) and its ``GenericEnvClient`` each play a whole hand over the session
socket (reset, steps until done, state); the prompts and rewards are those of the in-process environment."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from openenv.core.client_types import StepResult  # the [server] extra: a hard import, never a skip
from openenv.core.env_client import EnvClient
from openenv.core.env_server.types import Action, Observation, State
from openenv.core.generic_client import GenericEnvClient
from pydantic import Field

from tests.test_text_server import REPLIES, call, make_env, play_local, serve
from wrappers.text_server import make_app


class PokerAction(Action):
    """The model's reply."""

    message: str = Field(description="the reply text")


class PokerObservation(Observation):
    """The server's observation (``wrappers.text_server.PokerObservation``) as OpenEnv's client types it."""

    prompt: str
    state: dict[str, Any]
    episode_id: str
    step_count: int
    reprompt: bool
    failure: str | None = None


class PokerEnv(EnvClient[PokerAction, PokerObservation, State]):
    """A client of the server, written as OpenEnv's template writes one for a custom environment."""

    def _step_payload(self, action: PokerAction) -> dict[str, Any]:
        return {"message": action.message}

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[PokerObservation]:
        observation = PokerObservation(**payload["observation"], done=payload["done"], reward=payload["reward"],
                                       metadata=payload.get("metadata", {}))
        return StepResult(observation=observation, reward=payload["reward"], done=payload["done"])

    def _parse_state(self, payload: dict[str, Any]) -> State:
        return State(**payload)


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    server, thread, base = serve(make_app(make_env, max_sessions=4, seed=0))
    yield base
    server.should_exit = True
    thread.join(10)


def sessions_closed(base: str) -> bool:
    """Wait (at most 5 s) until the server holds no session: a client's session ends with its socket."""
    for _ in range(500):
        if call(base, "GET", "/metadata")[1]["active_sessions"] == 0:
            return True
        threading.Event().wait(0.01)
    return False


def test_a_typed_envclient_plays_a_hand(url: str) -> None:
    with PokerEnv(base_url=url, message_timeout_s=30).sync() as env:
        result = env.reset(seed=7)
        assert isinstance(result.observation, PokerObservation) and result.done is False and result.reward is None
        assert result.observation.metadata["seed"] == 7
        prompts, rewards = [result.observation.prompt], []
        while not result.done:
            result = env.step(PokerAction(message=REPLIES[len(rewards) % len(REPLIES)]))
            prompts.append(result.observation.prompt)
            rewards.append(result.reward)
        assert (prompts, rewards) == play_local(7)
        state = env.state()
        assert isinstance(state, State) and state.step_count == len(rewards)
        assert state.episode_id == result.observation.episode_id and state.done is True and state.seed == 7
        with pytest.raises(RuntimeError, match="EPISODE_DONE"):  # the server's error, raised by OpenEnv's client
            env.step(PokerAction(message="call"))
    assert sessions_closed(url)


def test_the_generic_client_plays_a_hand(url: str) -> None:
    with GenericEnvClient(base_url=url, message_timeout_s=30).sync() as env:
        result = env.reset(seed=11)
        prompts, rewards = [result.observation["prompt"]], []
        while not result.done:
            result = env.step({"message": REPLIES[len(rewards) % len(REPLIES)]})
            prompts.append(result.observation["prompt"])
            rewards.append(result.reward)
        assert (prompts, rewards) == play_local(11)
        assert env.state()["step_count"] == len(rewards)
    assert sessions_closed(url)
