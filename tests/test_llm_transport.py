"""The language-model agent's two transports (``LLMConfig.transport``: the ``openai`` client, the standard
library's ``http.client``) against the stub on 127.0.0.1 (tests/llm_stub.py).

Known truths: the failure rule is a hand-written table (which outcomes are retried, what each line says); both
transports must give the same replies, counts, error lines and, for the same seeds, the same tournament.
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np
import pytest

from agent_zoo.llm import LLMConfig, LLMServerError, make_llm_agent
from agent_zoo.llm.client import ChatClient, error_detail, judge, parse_completion
from agent_zoo.llm.config import TRANSPORTS
from agent_zoo.tournament import TournamentConfig, build_env, run_tournament
from tests.llm_stub import Reply, StubServer

HI = [{"role": "user", "content": "hi"}]


@pytest.fixture
def stub():
    with StubServer() as server:
        yield server


def test_the_failure_rule_by_hand():
    cfg = LLMConfig("m", "http://127.0.0.1:9/v1", api_key_env="MY_KEY", timeout=2.5)
    where = "llm m@http://127.0.0.1:9/v1: "
    error = json.dumps({"error": {"message": "no  such\nmodel", "type": "invalid_request_error"}}).encode()
    cases = [
        ("timeout", b"", 1, True, where + "no reply within timeout=2.5 s (1 tries)"),
        ("unreachable", b"", 4, True, where + "cannot connect to the server at http://127.0.0.1:9/v1 (4 tries): is it running?"),
        (404, error, 1, False, where + "404 from the server: model 'm' or the URL http://127.0.0.1:9/v1 not found (no such model)"),
        (401, b"", 1, False, where + "401: the server refused the API key; set it in the environment variable MY_KEY (no message)"),
        (403, b"forbidden", 1, False, where + "403: the server refused the API key; set it in the environment variable MY_KEY (forbidden)"),
        (500, b"<html>\n oops </html>", 3, True, where + "HTTP 500 from the server after 3 tries (<html> oops </html>)"),
        (503, error, 2, True, where + "HTTP 503 from the server after 2 tries (no such model)"),
        (429, b'{"message": "slow down"}', 2, True, where + "HTTP 429 from the server after 2 tries (slow down)"),
        (400, error, 1, False, where + "HTTP 400 from the server (no such model)"),
        (301, b"", 1, False, where + "HTTP 301 from the server (no message)"),
        (422, b"[1, 2]", 1, False, where + "HTTP 422 from the server ([1, 2])"),
    ]
    for outcome, body, tries, retry, line in cases:
        assert judge(cfg, outcome, body, tries) == (retry, line), outcome
    assert error_detail(b"x" * 500) == "x" * 197 + "..."


def test_a_completion_is_read_leniently_but_not_from_garbage():
    cfg = LLMConfig("m", "http://127.0.0.1:9/v1")
    full = {"choices": [{"message": {"role": "assistant", "content": "call"}}],
            "usage": {"prompt_tokens": 12, "completion_tokens": 1}}
    assert parse_completion(cfg, json.dumps(full).encode()) == ("call", 12, 1)
    assert parse_completion(cfg, b'{"choices": []}') == ("", None, None)
    assert parse_completion(cfg, b'{"choices": [{"message": {"content": null}}], "usage": null}') == ("", None, None)
    assert parse_completion(cfg, b'{"choices": [{"message": {"content": "fold"}}], "usage": {"prompt_tokens": 3}}') == (
        "fold", 3, None)
    for garbage in (b"<html>gateway</html>", b"[1]", b""):
        with pytest.raises(LLMServerError, match="not a chat completion"):
            parse_completion(cfg, garbage)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_both_transports_read_the_same_replies(stub, transport, monkeypatch):
    client = ChatClient(LLMConfig("m", stub.url, transport=transport, retries=0))
    stub.push(Reply("call"), Reply("raise to 10", usage=False), Reply(""), Reply(body="<html>gateway</html>"))
    first = client.chat(HI, 3)
    assert (first.text, first.retries, first.prompt_tokens, first.completion_tokens) == ("call", 0, 1, 1)
    second = client.chat(HI, None)
    assert (second.text, second.prompt_tokens, second.completion_tokens) == ("raise to 10", None, None)
    assert client.chat(HI, None).text == ""
    with pytest.raises(LLMServerError, match=r"the server's reply is not a chat completion \(<html>gateway</html>\)"):
        client.chat(HI, None)
    assert [r.get("seed") for r in stub.requests] == [3, None, None, None]
    assert stub.requests[0] == {"model": "m", "messages": HI, "temperature": 0.0, "max_tokens": 64, "seed": 3}
    # the key goes as a bearer token when its variable is set
    monkeypatch.setenv("POKER_ENVS_TEST_KEY", "secret")
    with StubServer(api_key="secret") as keyed:
        assert ChatClient(LLMConfig("m", keyed.url, transport=transport, api_key_env="POKER_ENVS_TEST_KEY")).chat(
            HI, None).text


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_keep_alive_and_a_server_that_drops_idle_connections(transport):
    """One connection for a thread's requests; a server closing it while idle (unannounced) costs no retry and
    no duplicate request, even with retries=0 (the stale-connection case is not a server failure)."""
    with StubServer() as server:
        client = ChatClient(LLMConfig("m", server.url, transport=transport, retries=0))
        assert all(client.chat(HI, None).text for _ in range(5))
        assert server.connections == 1 and len(server.requests) == 5
    with StubServer(idle_timeout=0.05) as server:
        client = ChatClient(LLMConfig("m", server.url, transport=transport, retries=0))
        replies = []
        for _ in range(5):
            replies.append(client.chat(HI, None))
            time.sleep(0.2)  # the server closes the idle connection meanwhile
        assert all(r.text and r.retries == 0 for r in replies)
        assert server.connections == 5 and len(server.requests) == 5


def test_the_transport_option_is_checked():
    with pytest.raises(ValueError, match=r"""llm option transport must be "openai" or "http", got 'grpc'"""):
        LLMConfig("m", "http://127.0.0.1:9/v1", transport="grpc")


def test_transport_http_needs_no_openai_package(stub, monkeypatch):
    monkeypatch.setitem(sys.modules, "openai", None)  # import openai now raises ImportError
    env = build_env("nolimit", {"history": True})
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)
    agent = make_llm_agent(f"m@{stub.url},transport=http", env)
    assert obs["action_mask"][agent.act(obs, np.random.default_rng(0))]
    with pytest.raises(ValueError, match=r"needs the openai package: pip install 'poker-envs\[llm\]'.*transport=http"):
        make_llm_agent(f"m@{stub.url}", env)
    with pytest.raises(ValueError, match="transport=openai needs the openai package"):
        ChatClient(LLMConfig("m", stub.url))


def test_both_transports_play_the_same_tournament(stub):
    """Same seeds, same stub: the same results, counters and requests (in some order: the threads race)."""
    results, bodies = [], []
    for transport in TRANSPORTS:
        stub.requests.clear()
        agents = [f"llm:stub-a@{stub.url},transport={transport}", "heuristic", "random"]
        result = run_tournament(TournamentConfig(game="nolimit", agents=agents, hands=12, players=3, seed=5, block_deals=2, tables=4,
                                progress=False))
        results.append(result)
        bodies.append(sorted(json.dumps(b, sort_keys=True) for b in stub.requests))
    a, b = results
    assert np.array_equal(a.agent_mean, b.agent_mean) and np.array_equal(a.mean, b.mean)
    (ca,), (cb,) = a.counters.values(), b.counters.values()
    assert ca["decisions"] > 0 and {k: v for k, v in ca.items() if k != "latency_s"} == {
        k: v for k, v in cb.items() if k != "latency_s"}
    assert bodies[0] == bodies[1] and len(bodies[0]) == ca["requests"]
