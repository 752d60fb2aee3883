"""Plant known rule bugs one at a time and check that the test suite catches each (a small mutation test).

The suite's differential tests (the batched numpy and JAX engines against the rules core, the rules core
against pokerkit) are sized to meet the hard cases of the rules: min-raises that reopen the betting, side
pots, odd chips, pot-limit maxima, the limit cap. This command proves they still do after the suite is made
faster: each mutant below changes one line of the rules in a fresh export of a git revision, runs the tests
that should notice, and records whether they failed (caught) or passed (missed). Run it on two revisions to
compare what each suite catches:

    python benchmarks/planted_bugs.py --rev HEAD --out out/planted_bugs_head.json
    python benchmarks/planted_bugs.py --rev <older commit> --out out/planted_bugs_old.json

Each mutant stops at the first failing test (``pytest -x``), so a caught mutant costs seconds and a missed one
the whole of its test files. ``--control`` also runs the unmutated export, which must pass.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Mutant:
    name: str  # what the bug breaks, in poker terms
    path: str  # file changed, relative to the repository
    old: str  # text replaced (must occur exactly once)
    new: str  # the bug
    tests: tuple[str, ...]  # test files that must notice it


MUTANTS = (
    Mutant("read kernels (both engines): a short all-in reopens the betting for players who already acted",
           "poker_envs/vector/holdem_reads.py", "can = can & ~(acted & (owe < t.full_raise))",
           "can = can & ~(acted & (owe < 0))", ("tests/test_vector_holdem.py",)),
    Mutant("sizing (every engine): pot fractions rounded down instead of to the nearest chip, halves up",
           "poker_envs/core/sizing.py", "(rest * (numerator % q) + q // 2) // q",
           "(rest * (numerator % q)) // q", ("tests/test_sizing.py",)),
    Mutant("numpy engine: the minimum raise stays at the big blind after a larger raise",
           "poker_envs/vector/_holdem_kernels.py", "t.full_raise[full] = increment[full]",
           "t.full_raise[full] = t.full_raise[full]", ("tests/test_vector_holdem.py",)),
    Mutant("JAX engine: the minimum raise stays at the big blind after a larger raise",
           "poker_envs/vector/jax/_holdem_kernels.py", "full_raise = jnp.where(full, increment, full_raise)",
           "full_raise = jnp.where(full, full_raise, full_raise)", ("tests/test_vector_jax_holdem.py",)),
    Mutant("read kernels, seen by the JAX tests: the pot-limit maximum forgets the bet the raiser already has in",
           "poker_envs/vector/holdem_reads.py", "2 * t.max_bet - bet + t.contributed.sum(1)",
           "2 * t.max_bet + t.contributed.sum(1)", ("tests/test_vector_jax_holdem.py",)),
    Mutant("read kernels, seen by the JAX tests: the limit cap allows one bet too many",
           "poker_envs/vector/holdem_reads.py", "capped = t.num_raises >= rules.max_raises",
           "capped = t.num_raises > rules.max_raises", ("tests/test_vector_jax_holdem.py",)),
    Mutant("JAX engine: a call puts in the whole amount owed even when the stack is shorter",
           "poker_envs/vector/jax/_holdem_kernels.py", "jnp.minimum(s.max_bet - bet, stack)",
           "(s.max_bet - bet)", ("tests/test_vector_jax_holdem.py",)),
    Mutant("JAX showdown: the odd chip goes to the last winner clockwise instead of the first",
           "poker_envs/vector/jax/_showdown.py",
           "bonus = (rank <= odd[:, None]) if odd_chips == \"per_pot\"",
           "bonus = (rank > winners.sum(1, keepdims=True) - odd[:, None]) if odd_chips == \"per_pot\"",
           ("tests/test_vector_jax_holdem.py",)),
    Mutant("rules core: a short all-in reopens the betting for players who already acted",
           "poker_envs/games/holdem.py", "elif self._acted[seat] and owe < self._full_raise:",
           "elif self._acted[seat] and owe < 0:", ("tests/test_holdem_rules.py", "tests/test_holdem_rulebook.py")),
    Mutant("settlement: the odd chip goes to the last winner clockwise instead of the first",
           "poker_envs/core/settlement.py", "bonus = (rank <= odd[:, None]).astype(np.int64)",
           "bonus = (rank > winners.sum(1, keepdims=True) - odd[:, None]).astype(np.int64)",
           ("tests/test_settlement.py", "tests/test_holdem_rulebook.py")),
)


def export(rev: str, into: Path) -> None:
    """The tracked files of ``rev`` (``git archive``) unpacked into ``into``."""
    archive = into.with_suffix(".tar")
    subprocess.run(["git", "archive", "--format=tar", "-o", str(archive), rev], cwd=ROOT, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    archive.unlink()


def run_tests(tree: Path, tests: tuple[str, ...], workers: int) -> tuple[int, float, str]:
    """(pytest's exit code, seconds, the last lines of its output) for ``tests`` in ``tree``; the export's own
    packages come first on the path (``pythonpath = ["."]`` in pyproject.toml, PYTHONPATH for subprocesses)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    check = subprocess.run([sys.executable, "-c", "import poker_envs; print(poker_envs.__file__)"], cwd=tree, env=env,
                           capture_output=True, text=True, check=True)
    assert check.stdout.startswith(str(tree)), f"poker_envs resolves to {check.stdout.strip()}, not the export"
    start = time.perf_counter()
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-n", str(workers), *tests]
    run = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    lines = (run.stdout + run.stderr).strip().splitlines()
    tail = "\n".join([line for line in lines if line.startswith("FAILED")][:2] + lines[-3:])
    return run.returncode, time.perf_counter() - start, tail


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  python benchmarks/planted_bugs.py --rev HEAD --out out/planted_bugs.json\n"
               "  python benchmarks/planted_bugs.py --only 0 2 --workers 1")
    parser.add_argument("--rev", default="HEAD", help="git revision whose tests are tried (default HEAD)")
    parser.add_argument("--only", type=int, nargs="+", metavar="I", help="mutant indices to run (default: all)")
    parser.add_argument("--workers", type=int, default=2, help="pytest-xdist workers (default 2)")
    parser.add_argument("--control", action="store_true", help="also run the unmutated tests (must pass)")
    parser.add_argument("--out", type=Path, help="JSON file for the results")
    args = parser.parse_args(argv)
    chosen = args.only if args.only is not None else list(range(len(MUTANTS)))
    bad = [i for i in chosen if not 0 <= i < len(MUTANTS)]
    if bad:
        parser.error(f"--only: mutant indices are 0..{len(MUTANTS) - 1}, got {bad}")
    if args.workers < 1:
        parser.error(f"--workers must be at least 1, got {args.workers}")
    rev = subprocess.run(["git", "rev-parse", "--short", args.rev], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    results = []
    with tempfile.TemporaryDirectory(prefix="planted-") as tmp:
        if args.control:
            tree = Path(tmp) / "control"
            export(rev, tree)
            tests = tuple(sorted({t for i in chosen for t in MUTANTS[i].tests}))
            code, seconds, tail = run_tests(tree, tests, args.workers)
            print(f"control ({rev}): exit {code} in {seconds:.0f} s" + ("" if code == 0 else "\n" + tail), flush=True)
            results.append({"name": "control (no bug)", "exit": code, "seconds": round(seconds, 1)})
        for i in chosen:
            mutant = MUTANTS[i]
            tree = Path(tmp) / f"mutant{i}"
            export(rev, tree)
            target = tree / mutant.path
            text = target.read_text()
            if text.count(mutant.old) != 1:
                raise SystemExit(f"mutant {i}: {mutant.path} at {rev} holds its text {text.count(mutant.old)} times, not once")
            target.write_text(text.replace(mutant.old, mutant.new))
            code, seconds, tail = run_tests(tree, mutant.tests, args.workers)
            # 1: tests failed; 2 with a failure: stopped at the first one (-x under pytest-xdist); 0: all passed
            caught = code == 1 or (code == 2 and "FAILED" in tail)
            verdict = "caught" if caught else ("MISSED" if code == 0 else f"ERROR (exit {code})")
            print(f"[{i}] {verdict:8} in {seconds:5.0f} s  {mutant.name}", flush=True)
            if not caught:
                print("    " + tail.replace("\n", "\n    "), flush=True)
            results.append({**asdict(mutant), "index": i, "caught": caught, "exit": code, "seconds": round(seconds, 1)})
    print(f"{sum(r.get('caught', False) for r in results)} of {len(chosen)} planted bugs caught by the tests at {rev}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"rev": rev, "results": results}, indent=2, allow_nan=False) + "\n")


if __name__ == "__main__":
    main()
