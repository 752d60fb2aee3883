"""Tests that cannot quietly vanish: what ``make test`` installs is imported, never skipped when missing."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The import names of what `make test` installs (the Makefile's extras: zoo, jax, test, bench, ray, rllib, rl, docs, llm,
# server, render).
INSTALLED = ("torch", "stable_baselines3", "sb3_contrib", "supersuit", "matplotlib", "tqdm", "jax", "optax", "pytest",
             "hypothesis", "pokerkit", "pyspiel", "open_spiel", "scipy", "eval7", "phevaluator", "ray", "torchrl",
             "tianshou", "mkdocs", "mkdocstrings", "mkdocstrings_handlers", "yaml", "pandas", "openai", "fastapi", "uvicorn",
             "websockets", "selenium", "PIL", "openenv", "mcp", "verifiers")
SKIP = re.compile(r"importorskip\(\s*[\"']([\w.]+)[\"']|skipif\([^)]*find_spec\(\s*[\"']([\w.]+)[\"']")


def test_make_test_installs_every_extra_the_skips_name() -> None:
    makefile = (ROOT / "Makefile").read_text()
    extras = re.search(r'-e "\.\[([\w,]+)\]"\n\ttouch \$@ \$\(VENV\)/\.demo-installed', makefile)
    assert extras and set(extras.group(1).split(",")) == {"zoo", "jax", "test", "bench", "ray", "rllib", "rl", "docs", "llm", "server",
                                                            "render", "verifiers"}


def test_no_test_skips_what_make_test_installs() -> None:
    """A missing package that ``make test`` installs must fail the run (an import error), not skip a file."""
    import subprocess

    tracked = subprocess.run(["git", "ls-files", "tests"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    offenders = []
    for path in sorted(ROOT / name for name in tracked if name.endswith(".py")):
        if path.name in ("test_suite_integrity.py", "test_bare_install.py"):  # the bare install runs without extras
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for match in SKIP.finditer(line):
                name = (match.group(1) or match.group(2)).split(".")[0]
                if name in INSTALLED:
                    offenders.append(f"{path.name}:{number}: {line.strip()}")
    assert offenders == []


def test_the_scan_sees_a_skip() -> None:
    assert SKIP.search('ss = pytest.importorskip("supersuit")').group(1) == "supersuit"
    assert SKIP.search('@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="")').group(2) == "ray"


def test_make_demo_installs_only_what_the_demo_needs() -> None:
    """`make demo` has its own stamp and installs torch and the [zoo] extra, saying so; `make test` the rest."""
    makefile = (ROOT / "Makefile").read_text()
    demo = re.search(r"\$\(VENV\)/\.demo-installed:.*?\n((?:\t.*\n)+)", makefile).group(1)
    assert '-e ".[zoo]"' in demo and "@echo" in demo and "ray" not in demo and "docs" not in demo
    assert re.search(r"^demo: setup-demo$", makefile, re.M) and re.search(r"^test: setup$", makefile, re.M)
