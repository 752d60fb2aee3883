"""The language-model agent's two transports (``LLMConfig.transport``: the ``openai`` client, the standard
library's ``http.client``) against the stub on 127.0.0.1 (tests/llm_stub.py).

Known truths: the failure rule is a hand-written table (which outcomes are retried, what each line says); both
transports must give the same replies, counts, error lines and, for the same seeds, the same tournament.
"""

from __future__ import annotations

import email.utils
import json
import sys
import time

import numpy as np
import pytest

from agent_zoo.llm import LLMConfig, LLMServerError, make_llm_agent
from agent_zoo.llm.client import (
    ChatClient,
    error_detail,
    judge,
    parse_completion,
    retry_after_seconds,
)
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
        ("cut", b"", 2, True, where + "the server closed the connection in the middle of its reply (2 tries)"),
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
    assert parse_completion(cfg, b'{"choices": [{"message": {"content": null}}], "usage": null}') == ("", None, None)
    assert parse_completion(cfg, b'{"choices": [{"message": {}}]}') == ("", None, None)
    assert parse_completion(cfg, b'{"choices": [{"message": {"content": "fold"}}], "usage": {"prompt_tokens": 3}}') == (
        "fold", 3, None)
    for garbage in (b"<html>gateway</html>", b"[1]", b""):
        with pytest.raises(LLMServerError, match="not a chat completion"):
            parse_completion(cfg, garbage)
    # a JSON object without choices[0].message is the server's fault, not an empty reply (which would fold)
    for shape in (b'{"hello": "world"}', b'{"choices": []}', b'{"choices": {}}', b'{"choices": ["call"]}',
                  b'{"choices": [{"text": "call"}]}', b'{"choices": [{"message": "call"}]}'):
        with pytest.raises(LLMServerError, match=r"server_shape: .* no choices\[0\]\.message"):
            parse_completion(cfg, shape)


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


def test_retry_after_is_read_as_seconds_or_a_date():
    assert retry_after_seconds(None) is None and retry_after_seconds("soon") is None
    assert retry_after_seconds("120") == 120.0 and retry_after_seconds(" 1.5 ") == 1.5
    assert retry_after_seconds("-3") == 0.0 and retry_after_seconds("nan") is None
    ahead = retry_after_seconds(email.utils.formatdate(time.time() + 30, usegmt=True))
    assert ahead is not None and 27 < ahead <= 30
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # a date past: at once


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_reply_that_never_ends_is_bounded_by_the_timeout(stub, transport):
    """A server sending one byte every 0.2 s would take a minute for this reply; each read gets a byte in time,
    so only a whole-request deadline stops it."""
    client = ChatClient(LLMConfig("m", stub.url, transport=transport, retries=0, timeout=1.0))
    stub.push(Reply("call " * 60, drip=0.2))
    start = time.perf_counter()
    with pytest.raises(LLMServerError, match=r"no reply within timeout=1.0 s \(1 tries\)"):
        client.chat(HI, None)
    assert time.perf_counter() - start < 2.5
    assert client.chat(HI, None).text  # the next request is served (a fresh connection)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_retry_after_is_honoured_up_to_its_cap(stub, transport):
    client = ChatClient(LLMConfig("m", stub.url, transport=transport, retries=2, backoff=0.0, max_retry_after=5))
    stub.push(Reply("slow down", status=429, headers=(("Retry-After", "1"),)), Reply("call"))
    reply = client.chat(HI, None)
    assert (reply.text, reply.retries) == ("call", 1) and 0.95 <= reply.latency_s < 3
    stub.push(Reply("overloaded", status=503, headers=(("Retry-After", "3600"),)))
    start = time.perf_counter()
    with pytest.raises(LLMServerError, match=r"HTTP 503 from the server after 1 tries \(overloaded\); the server asks to "
                                             r"wait 3600 s \(Retry-After\), more than max_retry_after=5 s$"):
        client.chat(HI, None)
    assert time.perf_counter() - start < 1
    # without the header the backoff applies: 0 s here
    stub.push(Reply("slow down", status=429), Reply("fold"))
    reply = client.chat(HI, None)
    assert (reply.text, reply.retries) == ("fold", 1) and reply.latency_s < 0.9


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_reply_body_over_the_cap_fails_the_request(stub, transport):
    client = ChatClient(LLMConfig("m", stub.url, transport=transport, retries=3, max_reply_bytes=1000))
    stub.push(Reply("x" * 700))  # about 900 bytes with the envelope: under the cap
    assert client.chat(HI, None).text == "x" * 700
    stub.push(Reply("x" * 5000), Reply(body="y" * 5000), Reply("oops " * 1000, status=500))
    for _ in range(3):
        with pytest.raises(LLMServerError,
                           match=r"reply is larger than max_reply_bytes=1000 bytes \(it declares \d{4,} bytes\); not read$"):
            client.chat(HI, None)
    assert stub.answered == 4  # not retried: the same request gives the same reply
    assert client.chat(HI, None).text
    # no Content-Length: the body is read up to the cap, never past it
    stub.push(Reply("x" * 700, length=False), Reply("x" * 5000, length=False))
    assert client.chat(HI, None).text == "x" * 700
    with pytest.raises(LLMServerError, match=r"reply is larger than max_reply_bytes=1000 bytes; not read$"):
        client.chat(HI, None)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_reply_without_choices_stops_the_run(stub, transport):
    client = ChatClient(LLMConfig("m", stub.url, transport=transport, retries=3))
    stub.push(Reply(body='{"hello": "world"}'))
    with pytest.raises(LLMServerError, match=r'server_shape: .*no choices\[0\]\.message \(\{"hello": "world"\}\)$'):
        client.chat(HI, None)
    env = build_env("nolimit", {"history": True})
    env.reset(seed=3)
    agent = make_llm_agent(f"m@{stub.url},transport={transport}", env)
    stub.push(Reply(body='{"hello": "world"}'))
    with pytest.raises(LLMServerError, match="server_shape"):
        agent.act(env.observe(env.agent_selection), np.random.default_rng(0))


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_reply_cut_mid_body_is_reported_as_cut(stub, transport):
    client = ChatClient(LLMConfig("m", stub.url, transport=transport, retries=1, backoff=0.0))
    stub.push(Reply("call", cut=True), Reply("raise to 10"))
    reply = client.chat(HI, None)  # a server failure: retried and counted
    assert (reply.text, reply.retries) == ("raise to 10", 1)
    stub.push(Reply("call", cut=True), Reply("call", cut=True))
    with pytest.raises(LLMServerError, match=r"closed the connection in the middle of its reply \(2 tries\)$"):
        client.chat(HI, None)
