"""A scripted OpenAI-compatible chat server on 127.0.0.1 for the language-model agent's tests and benchmark.

``StubServer`` serves ``POST /v1/chat/completions`` (and ``GET /v1/models``) from a stdlib ``http.server`` in a
thread on a free port. Each request takes the next scripted ``Reply`` if one is queued (``push``), else the
reply of the *policy*: by default ``seeded_policy``, which picks one of the legal actions the prompt lists with a
hash of (model, seed, prompt), so a tournament against the stub gives the same results every run. Scripted
replies cover what a real server does wrong: malformed text, slow answers (``delay``), HTTP errors in OpenAI's
error shape (``status=500``), missing ``usage``, extra headers (``Retry-After``), a body dripped a byte at a
time (``drip``) or cut off halfway (``cut``), no Content-Length (``length=False``: the body ends at the
close). ``models`` restricts the model names (others: 404 as OpenAI answers an unknown model), ``api_key`` requires a bearer key (else 401), ``idle_timeout`` closes a connection
idle that long without saying so (as servers' keep-alive timers do). ``closed_url()`` is a URL nothing listens
on (connection refused).
"""

from __future__ import annotations

import hashlib
import json
import re
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Messages = list[dict[str, Any]]
Policy = Callable[[str, int | None, Messages], str]  # (model, seed, messages) -> reply text


@dataclass(frozen=True)
class Reply:
    """One scripted answer."""

    text: str = ""  # the assistant message's content
    status: int = 200  # HTTP status; >= 400 answers OpenAI's error shape with ``text`` as the message
    delay: float = 0.0  # seconds to wait before answering
    usage: bool = True  # include a ``usage`` block (token counts: words of the prompt and of the reply)
    body: str | None = None  # sent as is (status 200) instead of a chat completion: a malformed server reply
    headers: tuple[tuple[str, str], ...] = ()  # extra response headers (("Retry-After", "2"),)
    drip: float = 0.0  # > 0: the body goes one byte per ``drip`` seconds after the headers (a reply that never ends)
    cut: bool = False  # send the headers (full Content-Length) and half the body, then close the connection
    length: bool = True  # send Content-Length; False: none, the body ends where the server closes the connection


# The legal actions as a prompt lists them: lines "- <action>" (or "* <action>") after a line that names the
# legal actions; the policy answers one of them.
_LIST_HEADER = re.compile(r"legal actions?|you (?:may|can)|actions?:", re.IGNORECASE)
_ITEM = re.compile(r"^\s*(?:[-*]|\d+[.)])\s+(.+?)\s*$")


def listed_actions(prompt: str) -> list[str]:
    """The action lines of the last block of list items in ``prompt`` that follows a line naming the actions."""
    lines = prompt.splitlines()
    best: list[str] = []
    i = 0
    while i < len(lines):
        if _LIST_HEADER.search(lines[i]):
            items = []
            j = i + 1
            while j < len(lines) and (m := _ITEM.match(lines[j])):
                items.append(m.group(1))
                j += 1
            if items:
                best = items
            i = j
        else:
            i += 1
    return best


def choose_action(item: str) -> str:
    """The reply for a listed action line: the words before a parenthesis or a colon ('raise to 40 (min 4)' ->
    'raise to 40'); a range 'raise to 4-100' becomes its low end."""
    text = re.split(r"[(:;—]", item, maxsplit=1)[0].strip()
    return re.sub(r"(\d+)\s*(?:-|–|to|\.\.)\s*\d+\s*$", r"\1", text)


def seeded_policy(model: str, seed: int | None, messages: Messages) -> str:
    """One of the legal actions listed in the last user message, chosen by a hash of (model, seed, prompt)."""
    prompt = next((m["content"] for m in reversed(messages) if m.get("role") == "user"), "")
    digest = hashlib.sha256(f"{model}\n{seed}\n{prompt}".encode()).digest()
    actions = listed_actions(prompt)
    if not actions:
        return "fold"
    return choose_action(actions[int.from_bytes(digest[:8], "big") % len(actions)])


class StubServer:
    """The server; use as a context manager or call ``close()``."""

    def __init__(self, replies: Iterable[Reply] = (), policy: Policy = seeded_policy, delay: float = 0.0,
                 models: Sequence[str] | None = None, api_key: str | None = None, idle_timeout: float | None = None,
                 ) -> None:
        self.policy = policy  # answers when no scripted reply is queued
        self.delay = delay  # seconds every policy answer waits
        self.models = None if models is None else set(models)  # None: any model name
        self.api_key = api_key  # None: no key checked
        self.fail_after: int | None = None  # answer HTTP 503 to every chat request after this many (None: never)
        self.answered = 0  # chat requests answered with a reply
        self.connections = 0  # connections accepted (a keep-alive client opens one per thread)
        self.requests: list[dict[str, Any]] = []  # every request body received, in arrival order
        self._queue: deque[Reply] = deque(replies)
        self._lock = threading.Lock()
        # seconds a connection may wait for its next request before it is closed, unannounced (None: forever)
        handler = type("Handler", (_Handler,), {"stub": self, "timeout": idle_timeout})
        ThreadingHTTPServer.request_queue_size = 256  # many concurrent clients (the default backlog is 5)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        """The base URL clients take (``http://127.0.0.1:<port>/v1``)."""
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def push(self, *replies: Reply) -> None:
        """Queue scripted replies, answered first in first out before the policy answers again."""
        with self._lock:
            self._queue.extend(replies)

    def next_reply(self, model: str, seed: int | None, messages: Messages) -> Reply:
        with self._lock:
            if self.fail_after is not None and self.answered >= self.fail_after:
                return Reply("The server is overloaded.", status=503)
            self.answered += 1
            if self._queue:
                return self._queue.popleft()
        return Reply(self.policy(model, seed, messages), delay=self.delay)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> StubServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def closed_url() -> str:
    """A base URL on 127.0.0.1 where nothing listens (a port just bound and released): connection refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def _error(status: int, message: str, code: str | None) -> dict[str, Any]:
    kind = "invalid_request_error" if status < 500 else "server_error"
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: clients reuse connections
    disable_nagle_algorithm = True  # no 40 ms delayed-ACK stall between a reply's writes
    stub: StubServer

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def setup(self) -> None:
        super().setup()
        with self.stub._lock:
            self.stub.connections += 1

    def _send(self, status: int, body: dict[str, Any], reply: Reply | None = None) -> None:
        self._send_raw(status, json.dumps(body).encode(), reply)

    def _send_raw(self, status: int, data: bytes, reply: Reply | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        if reply is None or reply.length:
            self.send_header("Content-Length", str(len(data)))
        for name, value in reply.headers if reply else ():
            self.send_header(name, value)
        if reply and (reply.drip or reply.cut or not reply.length):
            self.end_headers()  # the headers now, the body below
            try:
                if reply.cut or not reply.drip:
                    self.wfile.write(data[: len(data) // 2] if reply.cut else data)
                    self.wfile.flush()
                else:
                    for i in range(len(data)):
                        self.wfile.write(data[i : i + 1])
                        self.wfile.flush()
                        time.sleep(reply.drip)
            except OSError:  # the client gave up
                pass
            self.close_connection = True
            return
        self._headers_buffer.append(b"\r\n" + data)  # headers and body in one write
        self.flush_headers()

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith("/v1/models"):
            names = sorted(self.stub.models or {"stub"})
            self._send(200, {"object": "list", "data": [{"id": m, "object": "model", "owned_by": "stub"} for m in names]})
        else:
            self._send(404, _error(404, f"no route {self.path}", None))

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", 0))
        body = json.loads(self.rfile.read(length) or b"{}")
        stub = self.stub
        with stub._lock:
            stub.requests.append(body)
        if not self.path.rstrip("/").endswith("/v1/chat/completions"):
            return self._send(404, _error(404, f"no route {self.path}", None))
        if stub.api_key is not None and self.headers.get("Authorization") != f"Bearer {stub.api_key}":
            return self._send(401, _error(401, "Incorrect API key provided.", "invalid_api_key"))
        model = str(body.get("model", ""))
        if stub.models is not None and model not in stub.models:
            return self._send(404, _error(404, f"The model `{model}` does not exist or you do not have access to it.",
                                          "model_not_found"))
        messages = body.get("messages", [])
        reply = stub.next_reply(model, body.get("seed"), messages)
        if reply.delay:
            time.sleep(reply.delay)
        if reply.status >= 400:
            return self._send(reply.status, _error(reply.status, reply.text or "The server had an error.", None), reply)
        if reply.body is not None:
            return self._send_raw(200, reply.body.encode(), reply)
        out: dict[str, Any] = {
            "id": f"chatcmpl-stub{len(stub.requests)}",
            "object": "chat.completion",
            "created": 0,
            "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": reply.text}, "finish_reason": "stop"}],
        }
        if reply.usage:
            prompt_words = sum(len(str(m.get("content", "")).split()) for m in messages)
            words = len(reply.text.split())
            out["usage"] = {"prompt_tokens": prompt_words, "completion_tokens": words, "total_tokens": prompt_words + words}
        self._send(200, out, reply)


if __name__ == "__main__":  # a stub in its own process (benchmarks): prints its URL, serves until killed
    import argparse
    import sys

    parser = argparse.ArgumentParser(description="scripted OpenAI-compatible chat server on 127.0.0.1")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds every reply waits")
    args = parser.parse_args()
    server = StubServer(delay=args.delay)
    print(server.url, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.close()
        sys.exit(0)
