"""The text environment's server: decisions per second over HTTP (one client, then many at once) vs the same
environment in process.

    python benchmarks/text_server.py [--episodes 200] [--clients 8] [--players 6]

Three cells play the same seeded episodes of no-limit hold'em (heuristic opponents, scripted replies
``call`` / ``check``): in process (``TextPokerEnv.reset`` / ``step``), over HTTP with one client (one kept-alive
connection and session: ``POST /reset`` per episode, ``/step``), and over HTTP with ``--clients`` threads, each with its
own connection and sessions. The server runs in this process's thread (uvicorn on 127.0.0.1, a free port).
Each cell reports learner decisions per wall second; the ratios are of this run only.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))  # this checkout's packages, not an installed copy

import uvicorn  # noqa: E402

from wrappers.text_env import TextPokerEnv  # noqa: E402
from wrappers.text_server import make_app  # noqa: E402

REPLIES = ("call", "check")


def local(make_env, seeds: list[int]) -> int:
    env, decisions = make_env(), 0
    for seed in seeds:
        env.reset(seed=seed)
        done, k = False, 0
        while not done:
            _, _, terminated, truncated, _ = env.step(REPLIES[k % 2])
            done, k, decisions = terminated or truncated, k + 1, decisions + 1
    return decisions


def over_http(port: int, seeds: list[int], tag: str) -> int:
    connection, decisions = http.client.HTTPConnection("127.0.0.1", port, timeout=60), 0

    def post(path: str, body: dict) -> dict:
        connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        response = connection.getresponse()
        answer = json.loads(response.read())
        if response.status != 200:
            raise RuntimeError(f"{path}: {response.status} {answer}")
        return answer

    token = None  # the session's owner token, from the reset that created it
    for seed in seeds:  # one session per client, a new episode in it per seed (as a trainer's worker would)
        result, k = post("/reset", {"seed": seed, "episode_id": tag, "session_token": token}), 0
        token = result["metadata"]["session_token"]
        while not result["done"]:
            result = post("/step", {"action": {"message": REPLIES[k % 2]}, "episode_id": tag, "session_token": token})
            k, decisions = k + 1, decisions + 1
    post("/close", {"episode_id": tag, "session_token": token})
    connection.close()
    return decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--players", type=int, default=6)
    args = parser.parse_args()

    def make_env() -> TextPokerEnv:
        return TextPokerEnv("nolimit", opponents="heuristic", num_players=args.players)

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(make_app(make_env, max_sessions=4 * args.clients, seed=0), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    port = sock.getsockname()[1]
    seeds = list(range(args.episodes))
    rows = []
    start = time.perf_counter()
    n = local(make_env, seeds)
    rows.append(("in process", n, time.perf_counter() - start))
    start = time.perf_counter()
    n = over_http(port, seeds, "one")
    rows.append(("HTTP, 1 client", n, time.perf_counter() - start))
    chunks = [seeds[c :: args.clients] for c in range(args.clients)]
    start = time.perf_counter()
    with ThreadPoolExecutor(args.clients) as pool:
        n = sum(pool.map(lambda c: over_http(port, chunks[c], f"c{c}"), range(args.clients)))
    rows.append((f"HTTP, {args.clients} clients", n, time.perf_counter() - start))
    server.should_exit = True
    thread.join(10)
    base = rows[0][1] / rows[0][2]
    print(f"{args.episodes} episodes of {args.players}-seat no-limit, heuristic opponents")
    for name, decisions, seconds in rows:
        rate = decisions / seconds
        print(f"{name:<18} {decisions:>6} decisions  {seconds:7.2f} s  {rate:9.1f} decisions/s  x{rate / base:.2f} of in process")


if __name__ == "__main__":
    main()
