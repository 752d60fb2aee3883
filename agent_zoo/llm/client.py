"""One chat request to an OpenAI-compatible server, with retries and clear errors, over one of two transports.

``LLMConfig.transport`` picks how a request travels; everything else is one code path for both:

* ``"openai"`` (the default): the official ``openai`` client (``pip install 'poker-envs[llm]'``), through its
  ``post`` (the client's documented way to any endpoint) with the reply taken as bytes, which skips the
  typed-parameter transform of ``chat.completions.create`` and the reply's model classes (most of the client's
  CPU per request, what limits many tables deciding at once). Its own retries are off. It honours the
  client's environment (``HTTP(S)_PROXY``, certificates) and follows redirects.
* ``"http"``: the standard library's ``http.client``, no package needed; about a fifth of the client CPU per
  request. One keep-alive connection per thread (the agent's pool), ``Authorization: Bearer <key>`` when the
  key's environment variable is set, ``timeout`` on the connect and on every read. No proxies, no redirects (a
  3xx is an error). A server may close an idle keep-alive connection; when a *reused* connection fails before
  any byte of a reply arrives (reset, broken pipe, closed without a reply), the request is sent once more on a
  fresh connection at once and not counted as a server failure: this is the stale-connection case, which a
  fresh connection cannot hit. (If the server had read that request and then died, it is asked twice; a chat
  completion has no side effect.) Any other failure closes the connection and counts.

Both transports hand back (HTTP status, body) or raise ``Unreachable`` / ``TimedOut``; ``judge`` then holds the
one rule for failures: a request the server failed (HTTP 5xx or 429, a timeout, no connection) is retried
``retries`` times, waiting ``backoff`` seconds and doubling, and every retry is counted; then ``LLMServerError``
says what failed at which URL. Errors a retry cannot mend (unknown model: 404, refused key: 401/403, a bad
request: 400, any other status) raise at once. ``parse_completion`` reads a 2xx reply for both. The agent
does not turn a failed server into folds: the results would silently measure the server, not the model. A
tournament stops with the error and resumes from its checkpoint once the server is back.
"""

from __future__ import annotations

import http.client
import json
import os
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
    """A transport waited longer than ``timeout`` for the connection or the reply."""


@dataclass(frozen=True)
class ChatReply:
    """What one request gave."""

    text: str  # the assistant message ("" when the server sent none)
    latency_s: float  # seconds from the first try to the reply, retries and waits included
    retries: int  # requests the server failed before this reply
    prompt_tokens: int | None  # from the server's usage block (None without one)
    completion_tokens: int | None


Outcome = int | Literal["timeout", "unreachable"]  # an HTTP status, or why no status came back


def judge(config: LLMConfig, outcome: Outcome, body: bytes, tries: int) -> tuple[bool, str]:
    """(retry?, the one-line reason) for a request that got no 2xx reply after ``tries`` tries: the one rule
    both transports follow. Retried: a timeout, no connection, HTTP 5xx and 429; the rest raise at once."""
    where = f"llm {config.model}@{config.base_url}"
    if outcome == "timeout":
        return True, f"{where}: no reply within timeout={config.timeout} s ({tries} tries)"
    if outcome == "unreachable":
        return True, f"{where}: cannot connect to the server at {config.base_url} ({tries} tries): is it running?"
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
    not a JSON object. No choice or no content: ""; no usage block (or no count in it): None."""
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
    content = message.get("content") if isinstance(message, dict) else None
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
        self._openai = openai
        key = os.environ.get(config.api_key_env) or "no-key"  # local servers ignore it
        self._client = openai.OpenAI(base_url=config.base_url, api_key=key, timeout=config.timeout, max_retries=0)

    def send(self, body: dict[str, Any]) -> tuple[int, bytes]:
        oa = self._openai
        try:
            return 200, self._client.post("/chat/completions", body=body, cast_to=bytes)
        except oa.APITimeoutError:
            raise TimedOut from None
        except oa.APIConnectionError:
            raise Unreachable from None
        except oa.APIStatusError as exc:
            try:
                content = exc.response.content
            except Exception:  # the body could not be read (closed before it was): no detail
                content = b""
            return exc.status_code, content


_DROPPED = (ConnectionResetError, BrokenPipeError, http.client.RemoteDisconnected)  # a closed keep-alive connection


class HTTPTransport:
    """Requests through ``http.client``: one keep-alive connection per thread (module doc)."""

    def __init__(self, config: LLMConfig) -> None:
        url = urllib.parse.urlsplit(config.base_url)
        self._https = url.scheme == "https"
        self._host, self._port, self._timeout = url.hostname or "", url.port, config.timeout
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

    def send(self, body: dict[str, Any]) -> tuple[int, bytes]:
        data = json.dumps(body).encode()
        conn: http.client.HTTPConnection | None = getattr(self._local, "conn", None)
        reused = conn is not None
        if conn is None:
            conn = self._local.conn = self._connection()
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
            return response.status, response.read()
        except TimeoutError:
            self._drop(conn)
            raise TimedOut from None
        except (OSError, http.client.HTTPException):
            self._drop(conn)
            raise Unreachable from None

    def _drop(self, conn: http.client.HTTPConnection) -> None:
        """Close a connection left in an unknown state (a reply may still arrive on it); the next request opens one."""
        conn.close()
        self._local.conn = None


class ChatClient:
    """Sends chat requests for one ``LLMConfig``; thread-safe (one client shared by the agent's threads)."""

    def __init__(self, config: LLMConfig) -> None:
        self.config = config
        self._transport = OpenAITransport(config) if config.transport == "openai" else HTTPTransport(config)

    def chat(self, messages: list[dict[str, str]], seed: int | None) -> ChatReply:
        """The reply to ``messages``; ``LLMServerError`` when the server cannot give one."""
        cfg = self.config
        body: dict[str, Any] = {"model": cfg.model, "messages": messages, "temperature": cfg.temperature,
                                "max_tokens": cfg.max_tokens}
        if seed is not None:
            body["seed"] = seed
        start = time.perf_counter()
        for attempt in range(cfg.retries + 1):
            outcome: Outcome
            try:
                outcome, data = self._transport.send(body)
            except TimedOut:
                outcome, data = "timeout", b""
            except Unreachable:
                outcome, data = "unreachable", b""
            if isinstance(outcome, int) and 200 <= outcome < 300:
                text, prompt_tokens, completion_tokens = parse_completion(cfg, data)
                return ChatReply(text, time.perf_counter() - start, attempt, prompt_tokens, completion_tokens)
            retry, why = judge(cfg, outcome, data, attempt + 1)
            if not retry or attempt == cfg.retries:
                raise LLMServerError(why)
            time.sleep(cfg.backoff * 2**attempt)
        raise AssertionError("unreachable")
