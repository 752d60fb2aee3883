"""The python blocks of README.md and docs/ (recursively), read once for every test that runs them.

A block may carry one marker on the line right above it (blank lines between are allowed):

- ``<!-- recipe: NAME -->``: a test runs it by name (``recipe(NAME)``) and checks what it did
  (tests/test_recipes.py, tests/test_rllib.py); tests/test_docs.py does not run it a second time.
- ``<!-- fragment: WHY -->``: it is not meant to run alone (an outline of an interface, a client of a server
  that is not running); tests/test_docs.py only compiles it.

Every other block runs as written in tests/test_docs.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(r"<!--\s*(recipe|fragment):\s*(.*?)\s*-->")
OPEN = re.compile(r"^(\s*)```python\s*$")


@dataclass(frozen=True)
class Block:
    page: str  # relative to the repository, e.g. "docs/zoo.md"
    line: int  # 1-based line of the opening fence
    code: str
    recipe: str | None = None
    fragment: str | None = None

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


def pages() -> list[Path]:
    """README.md, then every Markdown file under docs/ in path order."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def page_blocks(path: Path) -> list[Block]:
    """The python blocks of one page, in order. A marker that no python block follows is an error."""
    page = path.relative_to(ROOT).as_posix()
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    pending: tuple[int, str, str] | None = None  # (line, kind, value) of a marker waiting for its block
    i = 0
    while i < len(lines):
        line = lines[i]
        opening = OPEN.match(line)
        if opening:
            indent = len(opening.group(1))
            end = i + 1
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            if end == len(lines):
                raise ValueError(f"{page}:{i + 1}: a python block that is never closed")
            code = "\n".join(row[indent:] for row in lines[i + 1 : end]) + "\n"
            kind, value = (pending[1], pending[2]) if pending else (None, None)
            found.append(Block(page, i + 1, code, recipe=value if kind == "recipe" else None,
                               fragment=value if kind == "fragment" else None))  # fmt: skip
            pending = None
            i = end + 1
            continue
        marker = MARKER.fullmatch(line.strip())
        if marker:
            if not marker.group(2):
                raise ValueError(f"{page}:{i + 1}: a {marker.group(1)} marker with no name or reason")
            pending = (i + 1, marker.group(1), marker.group(2))
        elif line.strip() and pending:
            raise ValueError(f"{page}:{pending[0]}: a {pending[1]} marker with no python block right below it")
        i += 1
    if pending:
        raise ValueError(f"{page}:{pending[0]}: a {pending[1]} marker with no python block right below it")
    return found


def all_blocks() -> list[Block]:
    return [block for path in pages() for block in page_blocks(path)]


def recipe(name: str) -> str:
    """The code of the block marked ``<!-- recipe: name -->`` (exactly one, on any page)."""
    matches = [b for b in all_blocks() if b.recipe == name]
    assert len(matches) == 1, f"{len(matches)} blocks are marked recipe {name!r} (expected one)"
    return matches[0].code
