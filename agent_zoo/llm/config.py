"""The language-model agent's configuration and its spec syntax.

Spec (``agent_zoo.registry``): ``llm:MODEL@BASE_URL[,KEY=VALUE...]`` or ``llm:FILE`` (``.toml`` / ``.json``).

* ``MODEL`` is the model name the server knows (``gpt-4o-mini``, ``qwen2.5:7b`` for Ollama, the path vLLM
  serves); ``BASE_URL`` the OpenAI-compatible endpoint up to ``/v1`` (``http://127.0.0.1:11434/v1``).
* ``KEY=VALUE`` pairs after the URL set ``LLMConfig`` fields (values read as JSON when they parse, else as
  text): ``llm:qwen2.5:7b@http://127.0.0.1:11434/v1,temperature=0.7,max_reprompts=1``. Commas therefore
  cannot appear in the URL or a value; a system prompt or a template goes in a file.
* ``FILE``: a TOML or JSON table of ``LLMConfig`` fields (``model`` and ``base_url`` required).
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from poker_envs.text.views import SUMMARIES

TRANSPORTS = ("openai", "http")  # the client's ways to the server (agent_zoo.llm.client)
OUTPUTS = ("text", "json_schema", "json_object")  # reply forms: free text, or the legal actions' JSON schema
# (agent_zoo.llm.structured) in OpenAI's response_format envelope or in llama-cpp-python's

SYSTEM_PROMPT = (
    "You are playing poker. Each message describes the table and lists your legal actions. "
    "Answer with exactly one legal action, as it is written in the list, and nothing else."
)


@dataclass(frozen=True)
class LLMConfig:
    """How an ``LLMAgent`` talks to its server and reads the game."""

    model: str  # the model name the server knows
    base_url: str  # OpenAI-compatible endpoint, up to /v1 (http://127.0.0.1:11434/v1 for Ollama)
    api_key_env: str = "OPENAI_API_KEY"  # environment variable holding the key; unset: none sent (local servers)
    temperature: float = 0.0  # sampling temperature sent with every request
    seed: bool = True  # send a seed drawn from the seat's Generator with every request (reproducible servers)
    max_tokens: int = 64  # most tokens of one reply
    system_prompt: str = SYSTEM_PROMPT  # the system message of every conversation
    timeout: float = 60.0  # seconds one whole request (connect, send, every byte of the reply) may take
    retries: int = 3  # retries of a request the server failed (HTTP 5xx / 429, timeout, no connection)
    backoff: float = 0.5  # seconds before the first retry, doubled before each next one
    max_retry_after: float = 60.0  # longest Retry-After (429 / 503) honoured; a longer one fails the request
    max_reply_bytes: int = 4_194_304  # largest reply body read (4 MiB); a larger one fails the request
    max_reprompts: int = 2  # replies that do not parse to a legal action are answered with the error this often
    concurrency: int = 16  # requests in flight at once (one per table deciding)
    amounts: str = "chips"  # how the text view writes amounts (poker_envs.text: "chips" or "bb")
    list_actions: bool = True  # the prompt lists the legal actions
    snap: bool = True  # an amount between two legal sizes snaps to the nearest one (counted) instead of failing
    template: str | None = None  # a prompt template for the text view (None: its default)
    transport: str = "openai"  # how requests travel: "openai" (the official client) or "http" (the standard library)
    output: str = "text"  # "text" (the reply parser) or "json_schema" / "json_object": the legal actions as a schema
    summary: str = "results"  # earlier hands in the prompt: "results" (net results), "hands" (each in full), "hud" (tracker)
    summary_hands: int = 2  # with summary="hud": the last hands shown in full beside the statistics

    def __post_init__(self) -> None:
        checks = (
            ("model", isinstance(self.model, str) and bool(self.model.strip()), "a non-empty model name"),
            ("base_url", isinstance(self.base_url, str) and self.base_url.startswith(("http://", "https://")),
             "an http:// or https:// URL such as http://127.0.0.1:11434/v1"),
            ("temperature", _number(self.temperature) and self.temperature >= 0, "a number >= 0"),
            ("max_tokens", _integer(self.max_tokens) and self.max_tokens >= 1, "an integer >= 1"),
            ("timeout", _number(self.timeout) and self.timeout > 0, "a number > 0"),
            ("retries", _integer(self.retries) and self.retries >= 0, "an integer >= 0"),
            ("backoff", _number(self.backoff) and self.backoff >= 0, "a number >= 0"),
            ("max_retry_after", _number(self.max_retry_after) and self.max_retry_after >= 0, "a number >= 0"),
            ("max_reply_bytes", _integer(self.max_reply_bytes) and self.max_reply_bytes >= 1, "an integer >= 1"),
            ("max_reprompts", _integer(self.max_reprompts) and self.max_reprompts >= 0, "an integer >= 0"),
            ("concurrency", _integer(self.concurrency) and self.concurrency >= 1, "an integer >= 1"),
            ("seed", isinstance(self.seed, bool), "true or false"),
            ("list_actions", isinstance(self.list_actions, bool), "true or false"),
            ("snap", isinstance(self.snap, bool), "true or false"),
            ("api_key_env", isinstance(self.api_key_env, str) and bool(self.api_key_env), "an environment variable name"),
            ("system_prompt", isinstance(self.system_prompt, str), "a string"),
            ("amounts", isinstance(self.amounts, str), "a string"),
            ("template", self.template is None or isinstance(self.template, str), "a string"),
            ("transport", self.transport in TRANSPORTS, " or ".join(f'"{t}"' for t in TRANSPORTS)),
            ("output", self.output in OUTPUTS, " or ".join(f'"{t}"' for t in OUTPUTS)),
            ("summary", self.summary in SUMMARIES, " or ".join(f'"{t}"' for t in SUMMARIES)),
            ("summary_hands", _integer(self.summary_hands) and self.summary_hands >= 0, "an integer >= 0"),
        )
        for name, ok, wanted in checks:
            if not ok:
                raise ValueError(f"llm option {name} must be {wanted}, got {getattr(self, name)!r}")
        if self.output != "text" and self.amounts != "chips":
            raise ValueError(f"llm option output={self.output} writes amounts in chips: it needs amounts=chips, "
                             f"got amounts={self.amounts!r}")


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


FIELDS = tuple(f.name for f in fields(LLMConfig))


def config_from_mapping(values: dict[str, Any], where: str) -> LLMConfig:
    """An ``LLMConfig`` from a dict of its fields; unknown or missing fields name ``where`` and what is allowed."""
    unknown = sorted(set(values) - set(FIELDS))
    if unknown:
        raise ValueError(f"{where}: unknown llm option(s) {unknown}; known: {', '.join(FIELDS)}")
    missing = [k for k in ("model", "base_url") if k not in values]
    if missing:
        raise ValueError(f"{where}: {' and '.join(missing)} missing (the model name and the server URL)")
    return LLMConfig(**values)


def parse_llm_arg(arg: str) -> LLMConfig:
    """The ``LLMConfig`` of an ``llm:`` spec's argument (module doc); a clear ``ValueError`` for bad input."""
    path = Path(arg).expanduser()
    if "@" not in arg and path.suffix in (".toml", ".json"):
        if not path.is_file():
            raise ValueError(f"agent llm:{arg}: no such config file {str(path)!r}")
        text = path.read_text()
        try:
            values = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
        except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"agent llm:{arg}: cannot read {path.name}: {exc}") from None
        if not isinstance(values, dict):
            raise ValueError(f"agent llm:{arg}: {path.name} must hold a table of llm options")
        return config_from_mapping(values, f"agent llm:{arg}")
    model, at, rest = arg.partition("@")
    if not at or not rest:
        raise ValueError(f"agent llm:{arg}: no server URL; write llm:<model>@<base_url> "
                         f"(e.g. llm:{model or 'MODEL'}@http://127.0.0.1:11434/v1) or llm:<config.toml>")
    url, *pairs = rest.split(",")
    values: dict[str, Any] = {"model": model, "base_url": url}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key:
            raise ValueError(f"agent llm:{arg}: expected KEY=VALUE after the URL, got {pair!r}")
        if key in ("model", "base_url") or key in values:
            raise ValueError(f"agent llm:{arg}: {key} given twice")
        try:
            values[key] = json.loads(value)
        except json.JSONDecodeError:
            values[key] = value
    return config_from_mapping(values, f"agent llm:{arg}")


__all__ = ["FIELDS", "OUTPUTS", "SYSTEM_PROMPT", "TRANSPORTS", "LLMConfig", "config_from_mapping", "parse_llm_arg"]
