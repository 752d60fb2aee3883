"""A tournament's checkpoint: one JSON line per finished block, so an interrupted tournament resumes.

The file's first line is a header naming everything the results depend on (game, agents, seed, hands, the
environment's configuration, the engine, the blocking of deals); each next line is one finished block's
result, appended and flushed to disk the moment the block finishes. A resumed tournament checks the header
(another tournament's checkpoint is refused, saying which setting differs), plays only the blocks not in the
file, and reduces all blocks in block order: the result is the same, bit for bit, as an uninterrupted run's.
A line cut short by the interruption is ignored (that block is played again).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

FORMAT = "poker-envs tournament checkpoint 1"


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
        differ = [k for k in sorted(set(header) | set(self.header)) if header.get(k) != self.header.get(k)]
        if differ:
            k = differ[0]
            raise ValueError(f"{self.path} is the checkpoint of another tournament: {k} was {header.get(k)!r}, "
                             f"now {self.header.get(k)!r}")
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
