"""The import graph of ``poker_envs``, ``agent_zoo`` and ``wrappers``: no cycles, no private names across packages,
and the rules and core import without gymnasium or pettingzoo.

What is read: every module of the three packages is parsed (``ast``, nothing is imported) and every import
statement in it counts, at module level, inside functions and under ``if TYPE_CHECKING:`` alike: an import
deferred into a function hides a cycle without removing it, and a type-only import still points the data the
wrong way. An edge goes to the module named (``from a.b import c`` to ``a.b.c`` when that is a module, else to
``a.b``); the parent packages Python imports on the way are not edges.

Cycles: the graph must have none (no strongly connected component of two or more modules).

Private names: a name is private when it starts with one underscore (dunders such as ``__version__`` are
not): an imported name (``from m import _x``), an attribute read on a module (``m._x`` where ``m`` is bound
to a module of the project), or a module path component (``a.b._c``). A private name belongs to the package
that holds it: ``_x`` of module ``a.b.m`` and the module ``a.b._c`` belong to package ``a.b`` (a package's
own ``__init__`` belongs to that package). A module may use the private names of its own package (its
siblings': that is what a leading underscore on a module such as ``vector/_holdem_kernels.py`` is for) and
nothing else: not its parent's (``poker_envs.vector`` reading a private module of ``poker_envs``), not a
subpackage's (``poker_envs.session`` reading ``poker_envs.encoders._holdem``), not another top-level
package's. ``examples/`` are checked the same way (each script is its own package: they use only public
names); ``benchmarks/`` are not (they time private kernels on purpose).
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("poker_envs", "agent_zoo", "wrappers")
SCRIPTS = ("examples",)

# Private imports across packages still in the tree, each with why it is left, and removed from here when it
# goes (the test fails on an entry that no longer occurs, so this list only shrinks).
KNOWN: dict[tuple[str, str], str] = {}


@dataclass(frozen=True)
class Import:
    """One import edge or private-name use: ``importer`` uses ``target`` (a module) or ``target.name``."""

    importer: str
    target: str
    name: str | None
    line: int


def is_private(part: str) -> bool:
    return part.startswith("_") and not part.startswith("__")


def module_names(roots: Iterable[Path], tops: Iterable[str]) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` under each top-level folder."""
    out: dict[str, Path] = {}
    for root in roots:
        for top in tops:
            for path in sorted((root / top).rglob("*.py")):
                parts = list(path.relative_to(root).with_suffix("").parts)
                if parts[-1] == "__init__":
                    parts.pop()
                out[".".join(parts)] = path
    return out


class Graph:
    """The project's modules and their imports, from the source alone."""

    def __init__(self, modules: dict[str, Path]) -> None:
        self.modules = modules
        self.imports: list[Import] = []
        for name, path in modules.items():
            self.imports += self._scan(name, ast.parse(path.read_text(encoding="utf-8"), str(path)))

    def is_package(self, module: str) -> bool:
        return self.modules[module].name == "__init__.py"

    def package_of(self, module: str) -> str:
        """The package a module belongs to: itself for a package, else its parent."""
        return module if self.is_package(module) else module.rpartition(".")[0]

    def resolve(self, dotted: str) -> str | None:
        """The longest prefix of ``dotted`` that is a module of the project, None for outside modules."""
        parts = dotted.split(".")
        for k in range(len(parts), 0, -1):
            candidate = ".".join(parts[:k])
            if candidate in self.modules:
                return candidate
        return None

    def _scan(self, module: str, tree: ast.Module) -> list[Import]:
        out: list[Import] = []
        aliases: dict[str, str] = {}  # local name -> project module it is bound to
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = self.resolve(alias.name)
                    if target is None:
                        continue
                    out.append(Import(module, target, None, node.lineno))
                    if alias.asname:
                        aliases[alias.asname] = target
                    elif (head := alias.name.partition(".")[0]) in self.modules:
                        aliases[head] = head  # ``import a.b.c`` binds ``a``: ``a.b.c._x`` is read from it
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    package = self.package_of(module).split(".")
                    base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    if full in self.modules:
                        out.append(Import(module, full, None, node.lineno))
                        aliases[alias.asname or alias.name] = full
                    elif (target := self.resolve(base)) is not None:
                        out.append(Import(module, target, alias.name, node.lineno))
        for node in ast.walk(tree):  # attribute reads on modules: m._x, a.b.c._x
            if isinstance(node, ast.Attribute) and is_private(node.attr):
                dotted = _dotted(node.value)
                if dotted is None:
                    continue
                head, _, rest = dotted.partition(".")
                if head not in aliases:
                    continue
                target = self.resolve(".".join(filter(None, (aliases[head], rest))))
                if target is not None and target == ".".join(filter(None, (aliases[head], rest))):
                    out.append(Import(module, target, node.attr, node.lineno))
        return out

    def edges(self) -> dict[str, set[str]]:
        graph: dict[str, set[str]] = {m: set() for m in self.modules}
        for imp in self.imports:
            if imp.target != imp.importer:
                graph[imp.importer].add(imp.target)
        return graph

    def cycles(self) -> list[list[str]]:
        """Strongly connected components of two or more modules (Tarjan, iterative)."""
        graph = self.edges()
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        stack: list[str] = []
        on_stack: set[str] = set()
        found: list[list[str]] = []
        for start in graph:
            if start in index:
                continue
            work = [(start, iter(sorted(graph[start])))]
            index[start] = low[start] = len(index)
            stack.append(start)
            on_stack.add(start)
            while work:
                node, children = work[-1]
                child = next(children, None)
                if child is not None:
                    if child not in index:
                        index[child] = low[child] = len(index)
                        stack.append(child)
                        on_stack.add(child)
                        work.append((child, iter(sorted(graph[child]))))
                    elif child in on_stack:
                        low[node] = min(low[node], index[child])
                    continue
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
        return found

    def private_uses(self) -> list[tuple[Import, str]]:
        """Private names used outside the package they belong to, with that package."""
        out = []
        for imp in self.imports:
            parts = imp.target.split(".")
            home = None
            for k, part in enumerate(parts):
                if is_private(part):  # a private module: it belongs to the package holding it
                    home = ".".join(parts[:k])
                    break
            if home is None and imp.name is not None and is_private(imp.name):
                home = self.package_of(imp.target)
            if home is not None and self.package_of(imp.importer) != home:
                out.append((imp, home))
        return out


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return None if head is None else f"{head}.{node.attr}"
    return None


def project_graph() -> Graph:
    return Graph(module_names([ROOT], PACKAGES + SCRIPTS))


def describe_cycle(graph: Graph, component: list[str]) -> str:
    members = set(component)
    lines = [f"{imp.importer} -> {imp.target} (line {imp.line})" for imp in graph.imports
             if imp.importer in members and imp.target in members and imp.importer != imp.target]  # fmt: skip
    return "cycle among " + ", ".join(component) + ":\n    " + "\n    ".join(sorted(set(lines)))


def test_no_import_cycles() -> None:
    graph = project_graph()
    assert len(graph.modules) > 100  # the three packages were found
    cycles = graph.cycles()
    assert not cycles, "\n".join(describe_cycle(graph, c) for c in cycles)


def test_no_private_names_across_packages() -> None:
    uses = project_graph().private_uses()
    found = {(imp.importer, imp.target) for imp, _ in uses}
    bad = [f"{imp.importer} (line {imp.line}) uses {imp.target}{'.' + imp.name if imp.name else ''}, private to {home}"
           for imp, home in uses if (imp.importer, imp.target) not in KNOWN]  # fmt: skip
    assert not bad, "\n".join(bad)
    gone = sorted(set(KNOWN) - found)
    assert not gone, f"no longer used, remove from KNOWN: {gone}"


def _fake_project(tmp_path: Path, files: dict[str, str]) -> Graph:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return Graph(module_names([tmp_path], ("pkg",)))


def test_the_checks_see_what_they_forbid(tmp_path: Path) -> None:
    """A cycle through a function-local import, a type-only import, and each kind of private use are found;
    private helpers shared by siblings are not."""
    graph = _fake_project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from pkg.b import f\n",
        "pkg/b.py": "def f():\n    from pkg import a\n",
        "pkg/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.d import X\n",
        "pkg/d.py": "from . import c\nX = 1\n",
        "pkg/e.py": "import pkg.sub.m as m\nimport pkg.sub.m\nfrom pkg.sub import _h\nfrom pkg.sub.m import _x\n"
                    "y = m._z + pkg.sub.m._w + m.Cls._not_a_module_attribute\n",
        "pkg/f.py": "from pkg.a import _private_sibling\nfrom pkg import _sibling_module\n",
        "pkg/_sibling_module.py": "",
        "pkg/sub/__init__.py": "",
        "pkg/sub/_h.py": "",
        "pkg/sub/m.py": "from pkg._sibling_module import q\n",
    })  # fmt: skip
    assert sorted(graph.cycles()) == [["pkg.a", "pkg.b"], ["pkg.c", "pkg.d"]]
    uses = sorted((imp.importer, imp.target, imp.name, home) for imp, home in graph.private_uses())
    assert uses == [
        ("pkg.e", "pkg.sub._h", None, "pkg.sub"),
        ("pkg.e", "pkg.sub.m", "_w", "pkg.sub"),
        ("pkg.e", "pkg.sub.m", "_x", "pkg.sub"),
        ("pkg.e", "pkg.sub.m", "_z", "pkg.sub"),
        ("pkg.sub.m", "pkg._sibling_module", "q", "pkg"),
    ]


BLOCKED = """
import importlib, importlib.abc, pkgutil, sys

class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in ("gymnasium", "pettingzoo"):
            raise ModuleNotFoundError(f"No module named {name!r} (blocked)", name=name)
        return None

sys.meta_path.insert(0, Block())
try:
    import gymnasium  # noqa: F401
except ModuleNotFoundError:
    pass
else:
    raise SystemExit("the blocker let gymnasium through")
import poker_envs.games.holdem
import poker_envs.games.leduc
from poker_envs.games.leduc import LeducGame
import poker_envs.core
names = ["poker_envs.core." + m.name for m in pkgutil.iter_modules(poker_envs.core.__path__)]
for name in names:
    importlib.import_module(name)
state = LeducGame().new_initial_state()
while state.is_chance():
    state.apply(state.chance_outcomes()[0][0])
state.apply(state.legal_actions()[0])
import poker_envs
loaded = sorted(m for m in sys.modules if m.partition(".")[0] in ("gymnasium", "pettingzoo"))
assert not loaded, loaded
assert poker_envs.REGISTERED is False
print("CORE", len(names), "REGISTERED", poker_envs.REGISTERED)
"""


def test_rules_and_core_import_without_gymnasium_or_pettingzoo() -> None:
    """The rules (``games.leduc``, ``games.holdem``) and every ``core`` module import, and a Leduc hand starts,
    in a process where gymnasium and pettingzoo cannot be imported; neither is loaded afterwards."""
    run = subprocess.run([sys.executable, "-c", BLOCKED], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    core, registered = run.stdout.split()[1], run.stdout.split()[3]
    assert int(core) >= 6 and registered == "False", run.stdout


def test_import_poker_envs_registers_when_gymnasium_is_there() -> None:
    """With gymnasium and pettingzoo importable, ``import poker_envs`` alone registers every environment."""
    code = (
        "import poker_envs, gymnasium, pettingzoo\n"
        "from poker_envs.registration import AEC_ENVS, GYMNASIUM_ENVS\n"
        "assert poker_envs.REGISTERED\n"
        "assert all(i in gymnasium.registry for i in GYMNASIUM_ENVS)\n"
        "assert all(i in pettingzoo.aec_registry for i in AEC_ENVS)\n"
        "print(len(GYMNASIUM_ENVS), len(AEC_ENVS))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert min(map(int, run.stdout.split())) >= 6, run.stdout
