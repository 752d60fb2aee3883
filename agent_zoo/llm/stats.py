"""What a language-model player's decisions cost and how often its replies failed: counters that add up.

One ``Decision`` per action taken (prompt, every reply, the parse of each, the action, latency, tokens) is
what the JSONL decision log holds, one JSON object a line. ``DecisionCounts`` sums them; a tournament adds the
counts of its blocks (per agent, in block order) and reports them with ``summary``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from poker_envs.text import FAILURE_KINDS


@dataclass
class Decision:
    """One decision of the agent: the conversation and its outcome."""

    prompt: str  # the first user message
    seed: int | None  # the seed sent to the server (drawn from the seat's Generator)
    replies: list[str] = field(default_factory=list)  # every reply, the first one and the reprompted ones
    reprompts: list[str] = field(default_factory=list)  # the error messages sent back
    failures: list[str] = field(default_factory=list)  # failure kind of every reply that gave no legal action
    action: int = -1  # the action id taken
    fallback: bool = False  # no reply gave a legal action: the fallback (check if free, else fold) was taken
    snapped: bool = False  # the accepted reply's amount was snapped to a legal size
    latency_s: float = 0.0  # seconds from the first request to the accepted reply (or the last one)
    retries: int = 0  # requests the server failed and that were sent again
    prompt_tokens: int | None = None  # summed over the decision's requests (None: the server sent no usage)
    completion_tokens: int | None = None
    usage_requests: int = 0  # requests whose reply had a usage block

    def record(self) -> dict[str, Any]:
        """The decision as a JSON-ready dict (the decision log's line, before the ids are added)."""
        return asdict(self)


COUNTERS = ("decisions", "requests", "parse_failures", "reprompts", "fallbacks", "snapped", "retries",
            "latency_s", "prompt_tokens", "completion_tokens", "requests_with_usage")


@dataclass
class DecisionCounts:
    """Summable counters over decisions, and the failures by kind."""

    decisions: int = 0  # actions taken
    requests: int = 0  # replies received (first replies and reprompted ones)
    parse_failures: int = 0  # replies that gave no legal action
    reprompts: int = 0  # error messages sent back to the model
    fallbacks: int = 0  # decisions where no reply gave a legal action
    snapped: int = 0  # accepted amounts snapped to a legal size
    retries: int = 0  # requests the server failed and that were sent again
    latency_s: float = 0.0  # summed seconds per decision
    prompt_tokens: int = 0  # over the requests whose reply had a usage block
    completion_tokens: int = 0
    requests_with_usage: int = 0
    failures: dict[str, int] = field(default_factory=dict)  # failures by kind (poker_envs.text FAILURE_KINDS; the
    # parser's, and "server_shape": a reply without the fields the API defines, for the transport to count)

    def add(self, d: Decision) -> None:
        self.decisions += 1
        self.requests += len(d.replies)
        self.parse_failures += len(d.failures)
        self.reprompts += len(d.reprompts)
        self.fallbacks += int(d.fallback)
        self.snapped += int(d.snapped)
        self.retries += d.retries
        self.latency_s += d.latency_s
        if d.prompt_tokens is not None:
            self.prompt_tokens += d.prompt_tokens
            self.completion_tokens += d.completion_tokens or 0
            self.requests_with_usage += d.usage_requests
        for kind in d.failures:
            self.failures[kind] = self.failures.get(kind, 0) + 1

    def counters(self) -> dict[str, float]:
        """Flat summable numbers (failures as ``failures.<kind>``, every kind of ``FAILURE_KINDS`` present, zero or
        not, so a tournament's JSON always shows each class), the form a tournament adds across blocks."""
        out: dict[str, float] = {k: getattr(self, k) for k in COUNTERS}
        kinds = {**dict.fromkeys(FAILURE_KINDS, 0), **self.failures}
        out.update({f"failures.{k}": v for k, v in sorted(kinds.items())})
        return out
