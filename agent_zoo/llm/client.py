"""One chat request to an OpenAI-compatible server, with retries and clear errors, over one of two transports.

``LLMConfig.transport`` picks how a request travels; everything else is one code path for both:

* ``"openai"`` (the default): the official ``openai`` client (``pip install 'poker-envs[llm]'``), through its
  ``post`` (the client's documented way to any endpoint) with the reply taken as bytes, which skips the
  typed-parameter transform of ``chat.completions.create`` and the reply's model classes (most of the client's
  CPU per request, what limits many tables deciding at once). Its own retries are off. It honours the
  client's environment (``HTTP(S)_PROXY``, certificates) and follows redirects.
* ``"http"``: the standard library's ``http.client``, no package needed; about a fifth of the client CPU per
  request. One keep-alive connection per thread (the agent's pool), ``Authorization: Bearer <key>`` when the
  key's environment variable is set, ``timeout`` bounding the whole request (connect, send, status line,
  headers, body: each read waits only for what is left of it). No proxies, no redirects (a 3xx is an error).
  A server may close an idle keep-alive connection; when a *reused* connection fails before any byte of a
  reply arrives (reset, broken pipe, closed without a reply), the request is sent once more on a
  fresh connection at once and not counted as a server failure: this is the stale-connection case, which a
  fresh connection cannot hit. (If the server had read that request and then died, it is asked twice; a chat
  completion has no side effect.) Any other failure closes the connection and counts.

Both transports hand back (HTTP status, body, Retry-After) or raise ``Unreachable`` / ``TimedOut`` / ``Cut`` /
``TooLarge``; ``judge`` then holds the one rule for failures: a request the server failed (HTTP 5xx or 429, a
timeout, no connection, a reply cut off mid-body) is retried ``retries`` times, waiting ``backoff`` seconds and
doubling (or the server's ``Retry-After`` on a 429 / 503 when longer, up to ``max_retry_after``), and every
retry is counted; then ``LLMServerError`` says what failed at which URL. Errors a retry cannot mend (unknown
model: 404, refused key: 401/403, a bad request: 400, any other status, a body over ``max_reply_bytes``, a
``Retry-After`` over ``max_retry_after``) raise at once. Both transports bound the whole request by
``timeout`` (the ``openai`` transport's per-read timeout covers the status line and headers; its body is read
in chunks against the deadline) and read at most ``max_reply_bytes`` of a body. ``parse_completion`` reads a
2xx reply for both; a JSON object without ``choices[0].message`` is a ``server_shape`` failure. The agent
does not turn a failed server into folds: the results would silently measure the server, not the model. A
tournament stops with the error and resumes from its checkpoint once the server is back.
"""

from __future__ import annotations

import email.utils
import functools
import http.client
import io
import json
import math
import os
import socket
import threading
import time
import urllib.parse
from dataclasses import dataclass
from typing import Any, Literal

from agent_zoo.llm.config import LLMConfig


class LLMServerError(RuntimeError):
    """The server could not give a reply (after the retries, where retrying could help); one line saying why."""


class Unreachable(Exception):
    """A transport found no server: connection refused or reset, no such host."""


class TimedOut(Exception):
    """A transport waited longer than ``timeout`` for the connection or the whole reply."""


class Cut(Exception):
    """The server closed the connection in the middle of a reply's body (its headers had arrived)."""


class TooLarge(Exception):
    """A reply's body is longer than ``max_reply_bytes``; ``args[0]``: its declared length, or None."""


@dataclass(frozen=True)
class ChatReply:
    """What one request gave."""

    text: str  # the assistant message ("" when the server sent none)
    latency_s: float  # seconds from the first try to the reply, retries and waits included
    retries: int  # requests the server failed before this reply
    prompt_tokens: int | None  # from the server's usage block (None without one)
    completion_tokens: int | None


Outcome = int | Literal["timeout", "unreachable", "cut"]  # an HTTP status, or why no whole reply came back
Response = tuple[int, bytes, float | None]  # (HTTP status, body, the server's Retry-After in seconds or None)


def retry_after_seconds(value: str | None) -> float | None:
    """Seconds a ``Retry-After`` header asks to wait (a number of seconds or an HTTP date); None if absent or
    unreadable (then the backoff applies)."""
    if value is None:
        return None
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            return None
        seconds = when.timestamp() - time.time()
    return max(seconds, 0.0) if math.isfinite(seconds) else None


def judge(config: LLMConfig, outcome: Outcome, body: bytes, tries: int) -> tuple[bool, str]:
    """(retry?, the one-line reason) for a request that got no 2xx reply after ``tries`` tries: the one rule
    both transports follow. Retried: a timeout, no connection, HTTP 5xx and 429; the rest raise at once."""
    where = f"llm {config.model}@{config.base_url}"
    if outcome == "timeout":
        return True, f"{where}: no reply within timeout={config.timeout} s ({tries} tries)"
    if outcome == "unreachable":
        return True, f"{where}: cannot connect to the server at {config.base_url} ({tries} tries): is it running?"
    if outcome == "cut":
        return True, f"{where}: the server closed the connection in the middle of its reply ({tries} tries)"
    detail = error_detail(body)
    if outcome == 404:
        return False, (f"{where}: 404 from the server: model {config.model!r} or the URL {config.base_url} not found"
                       f" ({detail})")
    if outcome in (401, 403):
        return False, (f"{where}: {outcome}: the server refused the API key; set it in the environment variable "
                       f"{config.api_key_env} ({detail})")
    if outcome == 429 or outcome >= 500:
        return True, f"{where}: HTTP {outcome} from the server after {tries} tries ({detail})"
    return False, f"{where}: HTTP {outcome} from the server ({detail})"


def error_detail(body: bytes, limit: int = 200) -> str:
    """What an error reply says, on one line: OpenAI's ``{"error": {"message": ...}}``, else the text itself."""
    text = body.decode("utf-8", "replace")
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict):
        error = data.get("error", data)
        message = error.get("message") if isinstance(error, dict) else error
        if isinstance(message, str) and message:
            text = message
    text = " ".join(text.split()) or "no message"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def parse_completion(config: LLMConfig, body: bytes) -> tuple[str, int | None, int | None]:
    """(text, prompt tokens, completion tokens) of a 2xx chat completion; ``LLMServerError`` when the body is
    not a JSON object, or is one without a first choice holding a message object (``server_shape``: read as
    an empty reply it would turn a broken server into folds). No content: ""; no usage block (or no count in
    it): None."""
    try:
        data = json.loads(body)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise LLMServerError(f"llm {config.model}@{config.base_url}: the server's reply is not a chat completion "
                             f"({error_detail(body, 80)})")
    choices = data.get("choices")
    choice = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
    message = choice.get("message")
    if not isinstance(message, dict):
        raise LLMServerError(f"llm {config.model}@{config.base_url}: server_shape: the server's reply is not a chat "
                             f"completion, it has no choices[0].message ({error_detail(body, 80)})")
    content = message.get("content")
    usage = data.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    return (content if isinstance(content, str) else "", _count(usage.get("prompt_tokens")),
            _count(usage.get("completion_tokens")))


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class OpenAITransport:
    """Requests through the official ``openai`` client (one client shared by the threads)."""

    def __init__(self, config: LLMConfig) -> None:
        try:
            import openai
        except ImportError as exc:
            raise ValueError("agent llm: transport=openai needs the openai package: pip install 'poker-envs[llm]' "
                             "(or transport=http, the standard library's client)") from exc
        try:  # the openai client's HTTP library: httpx2 in its recent releases, httpx before
            import httpx2 as http_library
        except ImportError:
            import httpx as http_library

        self._openai, self._httpx = openai, http_library
        self._timeout, self._cap = config.timeout, config.max_reply_bytes
        key = os.environ.get(config.api_key_env) or "no-key"  # local servers ignore it
        self._client = openai.OpenAI(base_url=config.base_url, api_key=key, timeout=config.timeout, max_retries=0)

    def send(self, body: dict[str, Any]) -> Response:
        oa = self._openai
        deadline = time.monotonic() + self._timeout
        try:
            # the raw response, its body not read yet: read below in chunks against the deadline and the cap
            response = self._client.post("/chat/completions", body=body, cast_to=self._httpx.Response, stream=True)
        except oa.APITimeoutError:
            raise TimedOut from None
        except oa.APIConnectionError:
            raise Unreachable from None
        except oa.APIStatusError as exc:
            try:
                content = exc.response.content[: self._cap + 1]
            except Exception:  # the body could not be read (closed before it was): no detail
                content = b""
            if len(content) > self._cap:
                raise TooLarge(_length(exc.response.headers.get("content-length"))) from None
            return exc.status_code, content, retry_after_seconds(exc.response.headers.get("retry-after"))
        try:
            declared = _length(response.headers.get("content-length"))
            if declared is not None and declared > self._cap:
                raise TooLarge(declared)
            chunks, size = [], 0
            for chunk in response.iter_bytes():
                size += len(chunk)
                if size > self._cap:
                    raise TooLarge(declared)
                if time.monotonic() > deadline:
                    raise TimedOut
                chunks.append(chunk)
            return response.status_code, b"".join(chunks), None
        except self._httpx.TimeoutException:
            raise TimedOut from None
        except self._httpx.TransportError:  # the connection broke after the headers: a cut reply
            raise Cut from None
        finally:
            response.close()


_DROPPED = (ConnectionResetError, BrokenPipeError, http.client.RemoteDisconnected)  # a closed keep-alive connection


def _length(value: str | None) -> int | None:
    """A Content-Length header's value (None when absent or not a number)."""
    return int(value) if value is not None and value.strip().isdigit() else None


class _DeadlineSocketReader(io.RawIOBase):
    """A socket's bytes, each read waiting only for what is left until ``deadline`` (a whole-request bound: a
    server sending a byte a second cannot stretch a request past it, as a per-read timeout lets it)."""

    def __init__(self, sock: socket.socket, deadline: float, keep: io.IOBase) -> None:
        super().__init__()
        self._sock, self._deadline = sock, deadline
        self._keep = keep  # the socket's own file: while it is open, closing the connection leaves the socket open

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        self._keep.close()
        super().close()

    def readinto(self, buffer: Any) -> int:
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request's deadline passed")
        self._sock.settimeout(left)
        return self._sock.recv_into(buffer)


class _DeadlineResponse(http.client.HTTPResponse):
    """An ``HTTPResponse`` whose status line, headers and body are read against one deadline."""

    def __init__(self, sock: socket.socket, *args: Any, deadline: float, **kwargs: Any) -> None:
        super().__init__(sock, *args, **kwargs)
        # read through the deadline; the socket file the base class opened is kept (closed with this one) as
        # http.client keeps it: a reply read to the close outlives the connection's own close of the socket
        self.fp = io.BufferedReader(_DeadlineSocketReader(sock, deadline, self.fp))


class HTTPTransport:
    """Requests through ``http.client``: one keep-alive connection per thread (module doc)."""

    def __init__(self, config: LLMConfig) -> None:
        url = urllib.parse.urlsplit(config.base_url)
        self._https = url.scheme == "https"
        self._host, self._port, self._timeout = url.hostname or "", url.port, config.timeout
        self._cap = config.max_reply_bytes
        self._path = url.path.rstrip("/") + "/chat/completions" + (f"?{url.query}" if url.query else "")
        self._headers = {"Content-Type": "application/json", "Accept": "application/json"}
        key = os.environ.get(config.api_key_env)
        if key:
            self._headers["Authorization"] = f"Bearer {key}"
        self._local = threading.local()

    def _connection(self) -> http.client.HTTPConnection:
        if self._https:
            return http.client.HTTPSConnection(self._host, self._port, timeout=self._timeout)
        return http.client.HTTPConnection(self._host, self._port, timeout=self._timeout)

    def send(self, body: dict[str, Any]) -> Response:
        data = json.dumps(body).encode()
        deadline = time.monotonic() + self._timeout
        conn: http.client.HTTPConnection | None = getattr(self._local, "conn", None)
        reused = conn is not None
        if conn is None:
            conn = self._local.conn = self._connection()
        conn.response_class = functools.partial(_DeadlineResponse, deadline=deadline)  # type: ignore[assignment]
        if conn.sock is not None:
            conn.sock.settimeout(self._timeout)  # the last reply's reads left it at what was left of theirs
        try:
            try:
                conn.request("POST", self._path, data, self._headers)
                response = conn.getresponse()
            except _DROPPED:
                if not reused:
                    raise
                conn.close()  # the stale-connection case: once more on a fresh connection, not counted
                conn.request("POST", self._path, data, self._headers)
                response = conn.getresponse()
        except TimeoutError:
            self._drop(conn)
            raise TimedOut from None
        except (OSError, http.client.HTTPException):
            self._drop(conn)
            raise Unreachable from None
        try:  # the headers arrived: a failure from here on is a cut reply, not a missing server
            declared = response.length  # None: chunked or read to the end
            if declared is not None and declared > self._cap:
                raise TooLarge(declared)
            if declared is not None:
                content = response.read()
            else:
                parts, size = [], 0
                while size <= self._cap and (part := response.read(self._cap + 1 - size)):
                    parts.append(part)
                    size += len(part)
                if size > self._cap:
                    raise TooLarge(None)
                content = b"".join(parts)
        except TooLarge:
            self._drop(conn)
            raise
        except TimeoutError:
            self._drop(conn)
            raise TimedOut from None
        except (OSError, http.client.HTTPException):
            self._drop(conn)
            raise Cut from None
        return response.status, content, retry_after_seconds(response.getheader("Retry-After"))

    def _drop(self, conn: http.client.HTTPConnection) -> None:
        """Close a connection left in an unknown state (a reply may still arrive on it); the next request opens one."""
        conn.close()
        self._local.conn = None


class ChatClient:
    """Sends chat requests for one ``LLMConfig``; thread-safe (one client shared by the agent's threads)."""

    def __init__(self, config: LLMConfig) -> None:
        self.config = config
        self._transport = OpenAITransport(config) if config.transport == "openai" else HTTPTransport(config)

    def chat(self, messages: list[dict[str, str]], seed: int | None,
             response_format: dict[str, Any] | None = None) -> ChatReply:
        """The reply to ``messages``; ``LLMServerError`` when the server cannot give one. ``response_format``
        (structured output, ``agent_zoo.llm.structured``) is sent as is when given."""
        cfg = self.config
        body: dict[str, Any] = {"model": cfg.model, "messages": messages, "temperature": cfg.temperature,
                                "max_tokens": cfg.max_tokens}
        if seed is not None:
            body["seed"] = seed
        if response_format is not None:
            body["response_format"] = response_format
        start = time.perf_counter()
        where = f"llm {cfg.model}@{cfg.base_url}"
        for attempt in range(cfg.retries + 1):
            outcome: Outcome
            wait_asked: float | None = None
            try:
                outcome, data, wait_asked = self._transport.send(body)
            except TimedOut:
                outcome, data = "timeout", b""
            except Unreachable:
                outcome, data = "unreachable", b""
            except Cut:
                outcome, data = "cut", b""
            except TooLarge as exc:
                size = "" if exc.args[0] is None else f" (it declares {exc.args[0]} bytes)"
                raise LLMServerError(f"{where}: the server's reply is larger than max_reply_bytes="
                                     f"{cfg.max_reply_bytes} bytes{size}; not read") from None
            if isinstance(outcome, int) and 200 <= outcome < 300:
                text, prompt_tokens, completion_tokens = parse_completion(cfg, data)
                return ChatReply(text, time.perf_counter() - start, attempt, prompt_tokens, completion_tokens)
            retry, why = judge(cfg, outcome, data, attempt + 1)
            if not retry or attempt == cfg.retries:
                raise LLMServerError(why)
            wait = cfg.backoff * 2**attempt
            if outcome in (429, 503) and wait_asked is not None:
                if wait_asked > cfg.max_retry_after:
                    raise LLMServerError(f"{why}; the server asks to wait {wait_asked:g} s (Retry-After), more "
                                         f"than max_retry_after={cfg.max_retry_after:g} s")
                wait = max(wait, wait_asked)
            time.sleep(wait)
        raise AssertionError("unreachable")
