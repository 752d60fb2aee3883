"""The text environment's server (wrappers.text_server), started here on 127.0.0.1 (a free port, in a thread):
OpenEnv's reset / step / state over HTTP and its session socket, concurrent sessions against the in-process env,
the documented errors, sessions owned by their creator's token, hostile clients (binary frames, dropped sockets,
bodies that are not UTF-8, a 1 MB reply), the command line."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import uvicorn  # the [server] extra, installed by make test: a hard import, never a skip
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from wrappers.text_env import TextPokerEnv
from wrappers.text_server import MAX_FRAME_BYTES, make_app

ROOT = Path(__file__).resolve().parents[1]
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # 127.0.0.1 only, never a proxy
REPLIES = ["call", "check", "hmm", "call", "fold"]


def make_env() -> TextPokerEnv:
    return TextPokerEnv("nolimit", opponents="heuristic", num_players=3, max_reprompts=1)


def serve(app: Any) -> tuple[uvicorn.Server, threading.Thread, str]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(500):
        if server.started:
            break
        threading.Event().wait(0.01)
    assert server.started
    return server, thread, f"http://127.0.0.1:{sock.getsockname()[1]}"


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    server, thread, base = serve(make_app(make_env, max_sessions=16, seed=0))
    yield base
    server.should_exit = True
    thread.join(10)


def call(base: str, method: str, path: str, body: Any = None, raw: bytes | None = None) -> tuple[int, dict]:
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    request = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with OPENER.open(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def play_http(base: str, seed: int, episode_id: str) -> tuple[list[str], list[float], str]:
    """A whole episode over HTTP: its prompts, rewards and the session's token."""
    status, result = call(base, "POST", "/reset", {"seed": seed, "episode_id": episode_id})
    assert status == 200 and result["done"] is False and result["reward"] is None
    assert result["observation"]["episode_id"] == episode_id and result["metadata"]["seed"] == seed
    token = result["metadata"]["session_token"]
    prompts, rewards = [result["observation"]["prompt"]], []
    for k in range(1000):
        body = {"action": {"message": REPLIES[k % len(REPLIES)]}, "episode_id": episode_id, "session_token": token}
        status, result = call(base, "POST", "/step", body)
        assert status == 200, result
        prompts.append(result["observation"]["prompt"])
        rewards.append(result["reward"])
        if result["done"]:
            return prompts, rewards, token
    raise AssertionError("the episode did not end")


def play_local(seed: int) -> tuple[list[str], list[float]]:
    env = make_env()
    prompt, _ = env.reset(seed=seed)
    prompts, rewards = [prompt], []
    for k in range(1000):
        prompt, reward, terminated, truncated, _ = env.step(REPLIES[k % len(REPLIES)])
        prompts.append(prompt)
        rewards.append(reward)
        if terminated or truncated:
            return prompts, rewards
    raise AssertionError("the episode did not end")


def test_health_metadata_schema(url: str) -> None:
    assert call(url, "GET", "/health") == (200, {"status": "healthy"})
    status, meta = call(url, "GET", "/metadata")
    assert status == 200 and meta["max_sessions"] == 16
    status, schema = call(url, "GET", "/schema")
    assert status == 200 and schema["action"]["properties"]["message"]["type"] == "string"
    assert "prompt" in schema["observation"]["properties"]


def test_reset_step_state_match_the_local_env(url: str) -> None:
    prompts, rewards, token = play_http(url, seed=7, episode_id="match")
    assert (prompts, rewards) == play_local(7)
    status, state = call(url, "GET", f"/state?episode_id=match&session_token={token}")
    assert status == 200 and state["episode_id"] == "match" and state["done"] is True
    assert state["step_count"] == len(rewards) and state["seed"] == 7
    closed = call(url, "POST", "/close", {"episode_id": "match", "session_token": token})
    assert closed == (200, {"episode_id": "match", "closed": True})


def test_reset_without_seed_reports_a_replayable_seed(url: str) -> None:
    status, first = call(url, "POST", "/reset", {})
    assert status == 200
    episode_id, seed, token = first["observation"]["episode_id"], first["metadata"]["seed"], first["metadata"]["session_token"]
    status, again = call(url, "POST", "/reset", {"seed": seed, "episode_id": episode_id, "session_token": token})
    assert status == 200 and again["observation"] == {**first["observation"]}
    assert again["metadata"]["session_token"] == token  # the session's token stays
    call(url, "POST", "/close", {"episode_id": episode_id, "session_token": token})


def test_concurrent_sessions_are_independent(url: str) -> None:
    seeds = [21, 22, 23, 21]
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda k: play_http(url, seeds[k], f"c{k}"), range(4)))
    for k, seed in enumerate(seeds):
        assert results[k][:2] == play_local(seed)
        call(url, "POST", "/close", {"episode_id": f"c{k}", "session_token": results[k][2]})
    assert results[0][:2] == results[3][:2] and results[0][:2] != results[1][:2]
    assert len({r[2] for r in results}) == 4  # a token per session


@pytest.fixture(scope="module")
def errors_session(url: str) -> str:
    """The session "errors" the bad requests name (its token is never sent)."""
    status, result = call(url, "POST", "/reset", {"seed": 1, "episode_id": "errors"})
    assert status == 200
    return result["metadata"]["session_token"]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "code"),
    [
        ("POST", "/step", {"action": {"message": "call"}, "episode_id": "nobody"}, 404, "UNKNOWN_EPISODE"),
        ("POST", "/step", {"action": {"message": 3}, "episode_id": "errors"}, 422, "VALIDATION_ERROR"),
        ("POST", "/step", {"action": "call", "episode_id": "errors"}, 422, "VALIDATION_ERROR"),
        ("POST", "/step", {"action": {"message": "call", "amount": 3}, "episode_id": "errors"}, 422, "VALIDATION_ERROR"),
        ("POST", "/step", {"action": {"message": "call"}}, 422, "VALIDATION_ERROR"),
        ("POST", "/reset", {"seed": -1}, 422, "VALIDATION_ERROR"),
        ("POST", "/reset", {"seed": 1, "options": {}}, 422, "VALIDATION_ERROR"),
        ("GET", "/state", None, 422, "VALIDATION_ERROR"),
        ("GET", "/state?episode_id=nobody", None, 404, "UNKNOWN_EPISODE"),
        ("POST", "/close", {"episode_id": "nobody"}, 404, "UNKNOWN_EPISODE"),
        ("POST", "/step", {"action": {"message": "call"}, "episode_id": "errors"}, 403, "NOT_OWNER"),
        ("POST", "/step", {"action": {"message": "call"}, "episode_id": "errors", "session_token": "guess"}, 403, "NOT_OWNER"),
        ("POST", "/reset", {"episode_id": "errors"}, 403, "NOT_OWNER"),
        ("GET", "/state?episode_id=errors", None, 403, "NOT_OWNER"),
        ("POST", "/close", {"episode_id": "errors", "session_token": ""}, 403, "NOT_OWNER"),
        ("GET", "/nowhere", None, 404, "NOT_FOUND"),
        ("PUT", "/step", {}, 405, "METHOD_NOT_ALLOWED"),
    ],
)
def test_bad_requests(url: str, errors_session: str, method: str, path: str, body: Any, status: int, code: str) -> None:
    got, result = call(url, method, path, body)
    assert (got, result["code"]) == (status, code)
    assert isinstance(result["detail"], str) and "\n" not in result["detail"] and result["detail"]


def test_invalid_json_and_step_after_the_end(url: str) -> None:
    status, result = call(url, "POST", "/step", raw=b"{not json")
    assert (status, result["code"]) == (400, "INVALID_JSON")
    *_, token = play_http(url, seed=3, episode_id="ended")
    status, result = call(url, "POST", "/step", {"action": {"message": "call"}, "episode_id": "ended", "session_token": token})
    assert (status, result["code"]) == (409, "EPISODE_DONE")
    call(url, "POST", "/close", {"episode_id": "ended", "session_token": token})


@pytest.mark.parametrize("raw", [b'{"seed": 1, "episode_id": "\xff\xfe"}', b"\xff\xfe{}", '{"episode_id": "é"}'.encode("latin-1")])
def test_a_body_that_is_not_utf8_is_an_invalid_json_400(url: str, raw: bytes) -> None:
    status, result = call(url, "POST", "/reset", raw=raw)
    assert (status, result["code"]) == (400, "INVALID_JSON")
    assert "UTF-8" in result["detail"] and "\n" not in result["detail"]


def test_capacity() -> None:
    server, thread, base = serve(make_app(make_env, max_sessions=2, seed=0))
    try:
        status, a = call(base, "POST", "/reset", {"episode_id": "a"})
        assert status == 200
        assert call(base, "POST", "/reset", {"episode_id": "b"})[0] == 200
        token = a["metadata"]["session_token"]
        assert call(base, "POST", "/reset", {"episode_id": "a", "seed": 4, "session_token": token})[0] == 200  # an open session resets
        status, result = call(base, "POST", "/reset", {"episode_id": "c"})
        assert (status, result["code"]) == (503, "CAPACITY_REACHED")
        call(base, "POST", "/close", {"episode_id": "a", "session_token": token})
        assert call(base, "POST", "/reset", {"episode_id": "c"})[0] == 200
    finally:
        server.should_exit = True
        thread.join(10)


def test_a_failing_environment_answers_500() -> None:
    def broken() -> TextPokerEnv:
        env = make_env()

        def step(reply: str) -> Any:
            raise ZeroDivisionError("the table broke")

        env.step = step  # type: ignore[method-assign]
        return env

    server, thread, base = serve(make_app(broken, max_sessions=2, seed=0))
    try:
        status, reset = call(base, "POST", "/reset", {"episode_id": "a"})
        assert status == 200
        body = {"action": {"message": "call"}, "episode_id": "a", "session_token": reset["metadata"]["session_token"]}
        status, result = call(base, "POST", "/step", body)
        assert (status, result) == (500, {"detail": "ZeroDivisionError: the table broke", "code": "EXECUTION_ERROR"})
    finally:
        server.should_exit = True
        thread.join(10)


def test_websocket_session(url: str) -> None:
    """OpenEnv's session socket: the messages its EnvClient sends, the answers it parses."""
    with connect(url.replace("http://", "ws://") + "/ws") as ws:
        ws.send(json.dumps({"type": "step", "data": {"message": "call"}}))
        error = json.loads(ws.recv())
        assert error["type"] == "error" and error["data"]["code"] == "EPISODE_DONE"
        ws.send(json.dumps({"type": "reset", "data": {"seed": 7}}))
        answer = json.loads(ws.recv())
        assert answer["type"] == "observation" and answer["data"]["done"] is False
        prompts, rewards = [answer["data"]["observation"]["prompt"]], []
        k = 0
        while not answer["data"]["done"]:
            ws.send(json.dumps({"type": "step", "data": {"message": REPLIES[k % len(REPLIES)]}}))
            answer = json.loads(ws.recv())
            assert answer["type"] == "observation", answer
            prompts.append(answer["data"]["observation"]["prompt"])
            rewards.append(answer["data"]["reward"])
            k += 1
        assert (prompts, rewards) == play_local(7)
        ws.send(json.dumps({"type": "state"}))
        state = json.loads(ws.recv())
        assert state["type"] == "state" and state["data"]["step_count"] == len(rewards)
        ws.send(json.dumps({"type": "step", "data": {"reply": "call"}}))
        assert json.loads(ws.recv())["data"]["code"] == "VALIDATION_ERROR"
        ws.send(json.dumps({"type": "reset", "data": [7]}))
        assert json.loads(ws.recv())["data"]["code"] == "VALIDATION_ERROR"
        ws.send("{not json")
        assert json.loads(ws.recv())["data"]["code"] == "INVALID_JSON"
        ws.send(json.dumps({"type": "dance"}))
        assert json.loads(ws.recv())["data"]["code"] == "UNKNOWN_TYPE"
        ws.send(json.dumps({"type": "close"}))


def ws_url(base: str) -> str:
    return base.replace("http://", "ws://") + "/ws"


def ask(ws: Any, kind: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
    ws.send(json.dumps({"type": kind, "data": data or {}}))
    return json.loads(ws.recv(timeout=30))


def test_a_session_is_its_creators(url: str) -> None:
    """An HTTP session: a socket naming it without its token is refused and ends nothing; with the token the
    socket takes it over and leaves it open when it closes. A socket's own session is out of HTTP's reach."""
    status, reset = call(url, "POST", "/reset", {"seed": 5, "episode_id": "mine"})
    token = reset["metadata"]["session_token"]
    assert status == 200 and len(token) >= 16
    with connect(ws_url(url)) as ws:
        answer = ask(ws, "reset", {"episode_id": "mine"})
        assert answer["type"] == "error" and answer["data"]["code"] == "NOT_OWNER"
        assert ask(ws, "reset", {"episode_id": "mine", "session_token": "x" * 22})["data"]["code"] == "NOT_OWNER"
        assert ask(ws, "step", {"message": "call"})["data"]["code"] == "EPISODE_DONE"  # no session was taken
    status, state = call(url, "GET", f"/state?episode_id=mine&session_token={token}")
    assert status == 200 and state["step_count"] == 0  # untouched, still open
    with connect(ws_url(url)) as ws:
        answer = ask(ws, "reset", {"episode_id": "mine", "session_token": token, "seed": 5})
        assert answer["type"] == "observation" and answer["data"]["observation"]["episode_id"] == "mine"
        assert ask(ws, "step", {"message": "call"})["type"] == "observation"
        assert ask(ws, "reset", {"episode_id": "yours"})["data"]["code"] == "VALIDATION_ERROR"  # one episode per socket
        ws.send(json.dumps({"type": "close"}))
    status, state = call(url, "GET", f"/state?episode_id=mine&session_token={token}")
    assert status == 200 and state["step_count"] == 1  # the socket's step, and the session outlived the socket
    with connect(ws_url(url)) as ws:  # a plain socket session: HTTP needs its token too
        answer = ask(ws, "reset", {"seed": 2})
        own, own_token = answer["data"]["observation"]["episode_id"], answer["data"]["metadata"]["session_token"]
        status, result = call(url, "POST", "/close", {"episode_id": own})
        assert (status, result["code"]) == (403, "NOT_OWNER")
        status, result = call(url, "POST", "/step", {"action": {"message": "call"}, "episode_id": own, "session_token": token})
        assert (status, result["code"]) == (403, "NOT_OWNER")
        assert ask(ws, "step", {"message": "call"})["type"] == "observation"
    for _ in range(500):  # the socket's own session closes with it
        if call(url, "GET", f"/state?episode_id={own}&session_token={own_token}")[0] == 404:
            break
        threading.Event().wait(0.01)
    assert call(url, "GET", f"/state?episode_id={own}&session_token={own_token}")[0] == 404
    assert call(url, "POST", "/close", {"episode_id": "mine", "session_token": token})[0] == 200


def test_binary_frames_and_dropped_sockets_are_answered_without_a_traceback(caplog: pytest.LogCaptureFixture) -> None:
    server, thread, base = serve(make_app(make_env, max_sessions=4, seed=0))
    logger = logging.getLogger("uvicorn")  # configured by the server's start: its records do not reach the root logger
    logger.addHandler(caplog.handler)
    try:
        with connect(ws_url(base)) as ws:
            ws.send(b"\x00\x01 not text")
            answer = json.loads(ws.recv(timeout=30))
            assert answer["type"] == "error" and answer["data"]["code"] == "BINARY_FRAME"
            ws.send(json.dumps({"type": "reset", "data": {"seed": 1}}).encode())  # JSON, but in a binary frame
            assert json.loads(ws.recv(timeout=30))["data"]["code"] == "BINARY_FRAME"
            assert ask(ws, "reset", {"seed": 1})["type"] == "observation"  # the socket still serves
        for k in range(6):  # sockets cut (no close frame) while a reset or step is answered, or idle
            with connect(ws_url(base), close_timeout=1) as ws:
                if k % 3 < 2:
                    ask(ws, "reset", {"seed": k})
                if k % 3 == 1:
                    ws.send(json.dumps({"type": "step", "data": {"message": "call"}}))
                ws.socket.shutdown(socket.SHUT_RDWR)
        for _ in range(500):  # every cut socket's session is closed
            if call(base, "GET", "/metadata")[1]["active_sessions"] == 0:
                break
            threading.Event().wait(0.01)
        assert call(base, "GET", "/metadata")[1]["active_sessions"] == 0
        assert call(base, "GET", "/health") == (200, {"status": "healthy"})
    finally:
        server.should_exit = True
        thread.join(10)
        logger.removeHandler(caplog.handler)
    noisy = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR or "Traceback" in r.getMessage()]
    assert not noisy, [r.getMessage() for r in noisy]


def test_health_answers_while_a_step_with_a_1mb_reply_is_in_flight() -> None:
    """The step's env call waits until /health has answered: a server that ran steps on its event loop (or
    held a global lock) would never answer /health, and the step would time out."""
    entered, answered = threading.Event(), threading.Event()

    def slow() -> TextPokerEnv:
        env = make_env()
        step = env.step

        def wait_then_step(reply: str) -> Any:
            entered.set()
            answered.wait(20)
            return step(reply)

        env.step = wait_then_step  # type: ignore[method-assign]
        return env

    server, thread, base = serve(make_app(slow, max_sessions=2, seed=0))
    try:
        status, reset = call(base, "POST", "/reset", {"episode_id": "big", "seed": 3})
        body = {"action": {"message": "x" * 1_000_000}, "episode_id": "big", "session_token": reset["metadata"]["session_token"]}
        with ThreadPoolExecutor(1) as pool:
            step = pool.submit(call, base, "POST", "/step", body)
            assert entered.wait(20), "the step never reached the environment"
            assert call(base, "GET", "/health") == (200, {"status": "healthy"})
            answered.set()
            status, result = step.result(30)
        assert answered.is_set() and status == 200
        assert result["observation"]["reprompt"] is True and result["observation"]["failure"] == "unparsable"
        assert "100000" in result["observation"]["prompt"]  # the parser's cap, named to the model
    finally:
        answered.set()
        server.should_exit = True
        thread.join(10)


def child_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = child_env()
    return subprocess.run([sys.executable, "-m", "wrappers.text_server", *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--game", "kuhn"], "game 'kuhn'"),
        (["--players", "six"], "--players"),
        (["--players", "1"], "--players must be at least 2"),
        (["--opponents", "nobody"], "nobody"),
        (["--port", "70000"], "--port"),
        (["--max-reprompts", "-1"], "max_reprompts"),
    ],
)
def test_cli_one_line_errors(args: list[str], needle: str) -> None:
    result = cli(*args)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and needle in result.stderr and "Traceback" not in result.stderr


def test_cli_help_and_serve() -> None:
    result = cli("--help")
    assert result.returncode == 0 and "--opponents" in result.stdout and "--port" in result.stdout
    env = child_env()
    process = subprocess.Popen([sys.executable, "-m", "wrappers.text_server", "--game", "limit", "--players", "2", "--opponents", "random", "--port", "0", "--seed", "1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    try:
        line = process.stdout.readline()
        assert "http://127.0.0.1:" in line, process.stderr.read() if process.poll() is not None else line
        base = line.split()[-1]
        assert call(base, "GET", "/health") == (200, {"status": "healthy"})
        status, result = call(base, "POST", "/reset", {"seed": 2})
        assert status == 200 and result["observation"]["prompt"]
        # a WebSocket message over MAX_FRAME_BYTES closes that socket with 1009; a 1 MB step is answered
        ws_url = base.replace("http://", "ws://") + "/ws"
        with connect(ws_url, max_size=None) as ws:
            ws.send(json.dumps({"type": "reset", "data": {"seed": 2}}))
            assert json.loads(ws.recv())["type"] == "observation"
            ws.send(json.dumps({"type": "step", "data": {"message": "call " + "x" * 1_000_000}}))
            assert json.loads(ws.recv())["type"] == "observation"
            ws.send("x" * (MAX_FRAME_BYTES + 1))
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=30)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        with connect(ws_url) as ws:  # the server goes on
            ws.send(json.dumps({"type": "reset", "data": {"seed": 2}}))
            assert json.loads(ws.recv())["type"] == "observation"
    finally:
        process.terminate()
        _, stderr = process.communicate(timeout=30)
    assert "Traceback" not in stderr, stderr
