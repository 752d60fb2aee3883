"""One chat request to an OpenAI-compatible server, with retries and clear errors.

Built on the official ``openai`` client (``pip install 'poker-envs[llm]'``): the request goes through its
``post`` (the client's documented way to any endpoint; the reply parsed as a ``ChatCompletion``), which skips
the typed-parameter transform of ``chat.completions.create`` (about 2 of its 5 ms of CPU per request, what
limits many tables deciding at once). Its own retries are turned off:
a request the server fails (HTTP 5xx or 429, a timeout, no connection) is retried ``retries`` times, waiting
``backoff`` seconds and doubling, and every retry is counted; then ``LLMServerError`` says what failed at which
URL. Errors a retry cannot mend (unknown model: 404, refused key: 401/403, a bad request: 400) raise at once.
The agent does not turn a failed server into folds: the results would silently measure the server, not the
model. A tournament stops with the error and resumes from its checkpoint once the server is back.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from typing import Any

from agent_zoo.llm.config import LLMConfig


class LLMServerError(RuntimeError):
    """The server could not give a reply (after the retries, where retrying could help); one line saying why."""


@dataclass(frozen=True)
class ChatReply:
    """What one request gave."""

    text: str  # the assistant message ("" when the server sent none)
    latency_s: float  # seconds from the first try to the reply, retries and waits included
    retries: int  # requests the server failed before this reply
    prompt_tokens: int | None  # from the server's usage block (None without one)
    completion_tokens: int | None


def _openai() -> Any:
    try:
        import openai
    except ImportError as exc:
        raise ValueError("agent llm: needs the openai package: pip install 'poker-envs[llm]'") from exc
    return openai


class ChatClient:
    """Sends chat requests for one ``LLMConfig``; thread-safe (one client shared by the agent's threads)."""

    def __init__(self, config: LLMConfig) -> None:
        self.config = config
        self._openai = _openai()
        from openai.types.chat import ChatCompletion

        self._completion = ChatCompletion  # the reply's type (parsed by the client)
        self._client: Any = None
        self._lock = threading.Lock()

    def _get(self) -> Any:
        with self._lock:
            if self._client is None:
                key = os.environ.get(self.config.api_key_env) or "no-key"  # local servers ignore it
                self._client = self._openai.OpenAI(base_url=self.config.base_url, api_key=key,
                                                   timeout=self.config.timeout, max_retries=0)
            return self._client

    def chat(self, messages: list[dict[str, str]], seed: int | None) -> ChatReply:
        """The reply to ``messages``; ``LLMServerError`` when the server cannot give one."""
        cfg, oa = self.config, self._openai
        body: dict[str, Any] = {"model": cfg.model, "messages": messages, "temperature": cfg.temperature,
                                "max_tokens": cfg.max_tokens}
        if seed is not None:
            body["seed"] = seed
        start = time.perf_counter()
        for attempt in range(cfg.retries + 1):
            try:
                response = self._get().post("/chat/completions", body=body, cast_to=self._completion)
            except (oa.APIConnectionError, oa.InternalServerError, oa.RateLimitError) as exc:
                if attempt == cfg.retries:
                    raise LLMServerError(self._why(exc, attempt + 1)) from None
                time.sleep(cfg.backoff * 2**attempt)
                continue
            except oa.APIStatusError as exc:
                raise LLMServerError(self._why(exc, attempt + 1)) from None
            choice = response.choices[0] if response.choices else None
            text = (choice.message.content if choice is not None else None) or ""
            usage = getattr(response, "usage", None)
            return ChatReply(text, time.perf_counter() - start, attempt,
                             getattr(usage, "prompt_tokens", None), getattr(usage, "completion_tokens", None))
        raise AssertionError("unreachable")

    def _why(self, exc: Exception, tries: int) -> str:
        """One line: what the server at which URL answered, and what to do."""
        cfg, oa = self.config, self._openai
        where = f"llm {cfg.model}@{cfg.base_url}"
        detail = getattr(exc, "message", None) or str(exc)
        detail = " ".join(str(detail).split())
        if isinstance(exc, oa.APITimeoutError):
            return f"{where}: no reply within timeout={cfg.timeout} s ({tries} tries)"
        if isinstance(exc, oa.APIConnectionError):
            return f"{where}: cannot connect to the server at {cfg.base_url} ({tries} tries): is it running?"
        status = getattr(exc, "status_code", None)
        if isinstance(exc, oa.NotFoundError):
            return f"{where}: 404 from the server: model {cfg.model!r} or the URL {cfg.base_url} not found ({detail})"
        if isinstance(exc, oa.AuthenticationError | oa.PermissionDeniedError):
            return f"{where}: {status}: the server refused the API key; set it in the environment variable {cfg.api_key_env} ({detail})"
        if isinstance(exc, oa.InternalServerError | oa.RateLimitError):
            return f"{where}: HTTP {status} from the server after {tries} tries ({detail})"
        return f"{where}: HTTP {status} from the server ({detail})"
