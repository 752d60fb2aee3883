"""A tournament's checkpoint: one JSON line per finished block, so an interrupted tournament resumes.

The file's first line is a header naming everything the results depend on (game, agents, seed, hands, the
environment's configuration, the engine, the blocking of deals); each next line is one finished block's
result, appended and flushed to disk the moment the block finishes. A resumed tournament checks the header
(another tournament's checkpoint is refused, saying which setting differs), plays only the blocks not in the
file, and reduces all blocks in block order: the result is the same, bit for bit, as an uninterrupted run's.
A line cut short by the interruption is ignored (that block is played again).

A language-model agent is in the header by what decides its play (``agent_identity``: model, prompt,
sampling, parsing), not by its spec: its transport options (``TRANSPORT_OPTIONS``: where and how requests are
sent, how long they may take, how often they are retried) may change when a run is resumed, e.g. a longer
``timeout`` for a server that turned out slow, or the server's new address after a restart.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

FORMAT = "poker-envs tournament checkpoint 1"

# LLMConfig fields that only change how requests travel, never what is played (every other field is play).
TRANSPORT_OPTIONS = ("base_url", "api_key_env", "timeout", "retries", "backoff", "max_retry_after", "max_reply_bytes",
                     "concurrency", "transport")


def agent_identity(name: str, agent: Any) -> str | dict[str, Any]:
    """An agent as the header records it: its name, or for a language-model agent (an ``LLMConfig`` as its
    ``config``) every option of that config but the transport options, so those may change on resume."""
    config = getattr(agent, "config", None)
    if config is None:
        return name
    from agent_zoo.llm.config import LLMConfig

    if not isinstance(config, LLMConfig):
        return name
    return {"llm": {k: v for k, v in dataclasses.asdict(config).items() if k not in TRANSPORT_OPTIONS}}


def first_difference(old: Any, new: Any, where: str = "") -> tuple[str, Any, Any] | None:
    """The first setting (a dotted path, ``[i]`` for list items) where two JSON values differ, and its two values."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            found = first_difference(old.get(key), new.get(key), f"{where}.{key}" if where else key)
            if found is not None:
                return found
        return None
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            found = first_difference(a, b, f"{where}[{i}]")
            if found is not None:
                return found
        return None
    return None if old == new else (where, old, new)


class Checkpoint:
    """The finished blocks of one tournament in a JSON-lines file."""

    def __init__(self, path: str | Path, header: dict[str, Any], resume: bool) -> None:
        self.path = Path(path)
        self.header = {"format": FORMAT, **json.loads(json.dumps(header, default=str))}
        self.done: dict[int, dict[str, Any]] = {}  # block -> its result as written
        if self.path.exists() and self.path.stat().st_size:
            if not resume:
                raise ValueError(f"{self.path} holds another run's finished blocks: resume it (--resume) "
                                 "or remove the file")
            self._read()
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(self.header, allow_nan=False) + "\n")

    def _read(self) -> None:
        lines = self.path.read_text().split("\n")
        try:
            header = json.loads(lines[0])
        except json.JSONDecodeError:
            raise ValueError(f"{self.path} is not a tournament checkpoint (its first line is no JSON header)") from None
        if header.get("format") != FORMAT:
            raise ValueError(f"{self.path} is not a tournament checkpoint of this version ({header.get('format')!r})")
        differ = first_difference(header, self.header)
        if differ is not None:
            where, was, now = differ
            raise ValueError(f"{self.path} is the checkpoint of another tournament: {where} was {was!r}, now {now!r} "
                             f"(a language model's {', '.join(TRANSPORT_OPTIONS)} may change on resume)")
        kept = [lines[0]]
        for line in lines[1:]:
            try:
                block = json.loads(line)
            except json.JSONDecodeError:
                continue  # the last line, cut short by the interruption
            self.done[int(block["block"])] = block
            kept.append(line)
        self.path.write_text("\n".join(kept) + "\n")  # drop a cut line before appending after it

    def add(self, block: dict[str, Any]) -> None:
        """Append a finished block's result (a JSON-ready dict with a ``block`` key) and flush it to disk."""
        with open(self.path, "a") as f:
            f.write(json.dumps(block, allow_nan=False) + "\n")
            f.flush()
            os.fsync(f.fileno())
        self.done[int(block["block"])] = block
