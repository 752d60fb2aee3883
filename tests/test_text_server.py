"""The text environment's server (wrappers.text_server), started here on 127.0.0.1 (a free port, in a thread):
OpenEnv's reset / step / state over HTTP and its session socket, concurrent sessions against the in-process env,
the documented errors, the command line."""

from __future__ import annotations

import json
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
from websockets.sync.client import connect

from wrappers.text_env import TextPokerEnv
from wrappers.text_server import make_app

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


def play_http(base: str, seed: int, episode_id: str) -> tuple[list[str], list[float]]:
    status, result = call(base, "POST", "/reset", {"seed": seed, "episode_id": episode_id})
    assert status == 200 and result["done"] is False and result["reward"] is None
    assert result["observation"]["episode_id"] == episode_id and result["metadata"]["seed"] == seed
    prompts, rewards = [result["observation"]["prompt"]], []
    for k in range(1000):
        status, result = call(base, "POST", "/step", {"action": {"message": REPLIES[k % len(REPLIES)]}, "episode_id": episode_id})
        assert status == 200, result
        prompts.append(result["observation"]["prompt"])
        rewards.append(result["reward"])
        if result["done"]:
            return prompts, rewards
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
    prompts, rewards = play_http(url, seed=7, episode_id="match")
    assert (prompts, rewards) == play_local(7)
    status, state = call(url, "GET", "/state?episode_id=match")
    assert status == 200 and state["episode_id"] == "match" and state["done"] is True
    assert state["step_count"] == len(rewards) and state["seed"] == 7
    assert call(url, "POST", "/close", {"episode_id": "match"}) == (200, {"episode_id": "match", "closed": True})


def test_reset_without_seed_reports_a_replayable_seed(url: str) -> None:
    status, first = call(url, "POST", "/reset", {})
    assert status == 200
    episode_id, seed = first["observation"]["episode_id"], first["metadata"]["seed"]
    status, again = call(url, "POST", "/reset", {"seed": seed, "episode_id": episode_id})
    assert again["observation"] == {**first["observation"]}
    call(url, "POST", "/close", {"episode_id": episode_id})


def test_concurrent_sessions_are_independent(url: str) -> None:
    seeds = [21, 22, 23, 21]
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda k: play_http(url, seeds[k], f"c{k}"), range(4)))
    for k, seed in enumerate(seeds):
        assert results[k] == play_local(seed)
        call(url, "POST", "/close", {"episode_id": f"c{k}"})
    assert results[0] == results[3] and results[0] != results[1]


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
    ],
)
def test_bad_requests(url: str, method: str, path: str, body: Any, status: int, code: str) -> None:
    call(url, "POST", "/reset", {"seed": 1, "episode_id": "errors"})
    got, result = call(url, method, path, body)
    assert (got, result["code"]) == (status, code)
    assert isinstance(result["detail"], str) and "\n" not in result["detail"] and result["detail"]


def test_invalid_json_and_step_after_the_end(url: str) -> None:
    status, result = call(url, "POST", "/step", raw=b"{not json")
    assert (status, result["code"]) == (400, "INVALID_JSON")
    play_http(url, seed=3, episode_id="ended")
    status, result = call(url, "POST", "/step", {"action": {"message": "call"}, "episode_id": "ended"})
    assert (status, result["code"]) == (409, "EPISODE_DONE")
    call(url, "POST", "/close", {"episode_id": "ended"})


def test_capacity() -> None:
    server, thread, base = serve(make_app(make_env, max_sessions=2, seed=0))
    try:
        assert call(base, "POST", "/reset", {"episode_id": "a"})[0] == 200
        assert call(base, "POST", "/reset", {"episode_id": "b"})[0] == 200
        assert call(base, "POST", "/reset", {"episode_id": "a", "seed": 4})[0] == 200  # an open session resets
        status, result = call(base, "POST", "/reset", {"episode_id": "c"})
        assert (status, result["code"]) == (503, "CAPACITY_REACHED")
        call(base, "POST", "/close", {"episode_id": "a"})
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
        assert call(base, "POST", "/reset", {"episode_id": "a"})[0] == 200
        status, result = call(base, "POST", "/step", {"action": {"message": "call"}, "episode_id": "a"})
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
    finally:
        process.terminate()
        process.wait(30)
