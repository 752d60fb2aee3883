"""Census of all 133,784,560 seven-card hands with the batched evaluator, checked against the known counts.

Usage: ``python benchmarks/evaluator_census.py [--check]`` (``--check`` also runs the batched path's range and
repeated-card checks). Hands come in 1,326 chunks (one per pair of lowest cards) from
``poker_envs.core.combinations.combination_chunks``. Prints the count of each category, the number of distinct values (4,824 is the known number of
seven-card equivalence classes) and the time; exits with status 1 if a count differs.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from math import comb

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
from tqdm import tqdm  # noqa: E402

from poker_envs.core.combinations import combination_chunks  # noqa: E402
from poker_envs.core.evaluator import CATEGORY_NAMES, evaluate_batch  # noqa: E402

KNOWN_COUNTS = (23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184, 224_848, 41_584)
KNOWN_DISTINCT = 4_824
TOTAL = comb(52, 7)


def census(check: bool) -> tuple[np.ndarray, int]:
    """(count per category, number of distinct values) over every seven-card hand."""
    counts = np.zeros(9, dtype=np.int64)
    seen = np.zeros(9 << 20, dtype=bool)
    with tqdm(total=TOTAL, unit="hand", unit_scale=True, desc="7-card census") as bar:
        for hands in combination_chunks(52, 7):
            values = evaluate_batch(hands, check=check)
            counts += np.bincount(values >> 20, minlength=9)
            seen[values] = True
            bar.update(len(hands))
    return counts, int(seen.sum())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="run the input checks of evaluate_batch too")
    args = parser.parse_args()
    wall, cpu = time.perf_counter(), time.process_time()
    counts, distinct = census(args.check)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    ok = tuple(counts.tolist()) == KNOWN_COUNTS and distinct == KNOWN_DISTINCT
    print(f"{'category':<16}{'counted':>14}{'known':>14}")
    for name, got, known in zip(CATEGORY_NAMES, counts.tolist(), KNOWN_COUNTS):
        print(f"{name:<16}{got:>14,}{known:>14,}{'' if got == known else '  MISMATCH'}")
    print(f"{'total':<16}{int(counts.sum()):>14,}{TOTAL:>14,}")
    print(f"distinct values {distinct:,} (known {KNOWN_DISTINCT:,})")
    print(f"time: {wall:.1f} s wall, {cpu:.1f} s CPU; {TOTAL / cpu / 1e6:.1f} M hands/s per CPU-second "
          f"(check={args.check}, one thread)")
    print("census OK" if ok else "census MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
