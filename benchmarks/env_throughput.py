"""Environment throughput: uniform random legal actions through ``agent_iter`` / ``last`` / ``step``,
the way a user's loop drives a PettingZoo AEC environment, for this package's environments and, when
``pettingzoo[classic]`` imports, PettingZoo's own poker environments side by side in the same run.

    python benchmarks/env_throughput.py [--seconds 3] [--rounds 3] [--only nolimit] [--profile LABEL]

Prints steps/s (player decisions) and hands/s per entry and, for entries with a named peer, the ratio
of our steps/s to the peer's. Entries take turns in ``--rounds`` short rounds and keep their best.
``--profile LABEL`` runs one entry under cProfile and prints the top functions instead. Figures are noisy on a shared machine: compare entries of the same run only.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Entry:
    label: str  # name printed in the table
    factory: Callable[[], Any]  # builds a fresh (wrapped) AEC environment
    peer: str | None = None  # label of the entry whose steps/s we divide by (ratio column)


def _ours(module: str, **kwargs: Any) -> Callable[[], Any]:
    def make() -> Any:
        import importlib

        return importlib.import_module(f"poker_envs.{module}").env(**kwargs)

    return make


def _pettingzoo(module: str, **kwargs: Any) -> Callable[[], Any]:
    def make() -> Any:
        import importlib

        return importlib.import_module(f"pettingzoo.classic.{module}").env(**kwargs)

    return make


# ====================================================================================================
# ENTRIES: one line per environment measured. Append new environments here (label, factory, peer).
# Peers (PettingZoo's classic environments) are dropped automatically when pettingzoo[classic] is absent.
# ====================================================================================================
PZ_NL2, PZ_NL6 = "pettingzoo texas_holdem_no_limit_v6 2p", "pettingzoo texas_holdem_no_limit_v6 6p"
PZ_LIM2, PZ_LIM6 = "pettingzoo texas_holdem_v4 2p", "pettingzoo texas_holdem_v4 6p"
PZ_LEDUC = "pettingzoo leduc_holdem_v4"
ENTRIES: list[Entry] = [
    Entry(PZ_NL2, _pettingzoo("texas_holdem_no_limit_v6", num_players=2)),
    Entry(PZ_NL6, _pettingzoo("texas_holdem_no_limit_v6", num_players=6)),
    Entry(PZ_LIM2, _pettingzoo("texas_holdem_v4", num_players=2)),
    Entry(PZ_LIM6, _pettingzoo("texas_holdem_v4", num_players=6)),
    Entry("nolimit_holdem_v0 2p abstract", _ours("nolimit_holdem_v0", num_players=2), peer=PZ_NL2),
    Entry("nolimit_holdem_v0 6p abstract", _ours("nolimit_holdem_v0", num_players=6), peer=PZ_NL6),
    Entry("nolimit_holdem_v0 2p chips", _ours("nolimit_holdem_v0", num_players=2, bet_sizing="chips"), peer=PZ_NL2),
    Entry("nolimit_holdem_v0 6p chips", _ours("nolimit_holdem_v0", num_players=6, bet_sizing="chips"), peer=PZ_NL6),
    Entry("limit_holdem_v0 2p", _ours("limit_holdem_v0", num_players=2), peer=PZ_LIM2),
    Entry("limit_holdem_v0 6p", _ours("limit_holdem_v0", num_players=6), peer=PZ_LIM6),
    Entry(PZ_LEDUC, _pettingzoo("leduc_holdem_v4")),
    Entry("leduc_holdem_v0", _ours("leduc_holdem_v0"), peer=PZ_LEDUC),
    Entry("leduc_holdem_v0 rank_chips", _ours("leduc_holdem_v0", obs_encoder="rank_chips"), peer=PZ_LEDUC),
    Entry("kuhn_poker_v0", _ours("kuhn_poker_v0"), peer=PZ_LEDUC),
    Entry("push_fold_v0 2p 10bb", _ours("push_fold_v0", num_players=2, stack_bb=10)),
    Entry("push_fold_v0 6p 10bb ante", _ours("push_fold_v0", num_players=6, stack_bb=10, ante_bb=0.125)),
    Entry("threshold_v0 2p (AEC)", _ours("threshold_v0", num_players=2)),
    Entry("threshold_v0 10p (AEC)", _ours("threshold_v0", num_players=10, alpha=3.0)),
]
# ====================================================================================================


def run_entry(factory: Callable[[], Any], seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """Play hands for about ``seconds``; return (decisions, hands, elapsed seconds)."""
    env = factory()
    rng = np.random.default_rng(seed)
    random = rng.random
    steps = hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    env.reset(seed=seed)  # seeded once, as a user's loop does; later hands continue the same stream
    while True:
        if hands:
            env.reset()
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(random() * len(legal))]))
            steps += 1
        hands += 1
        if hands % 20 == 0 and time.perf_counter() > deadline:
            break
    return steps, hands, time.perf_counter() - start


def available(entries: list[Entry]) -> list[Entry]:
    """Entries whose environment can be built here (PettingZoo's classic ones need pettingzoo[classic])."""
    out = []
    for e in entries:
        try:
            e.factory()
        except ImportError as exc:
            print(f"skipped {e.label}: {exc}")
            continue
        out.append(e)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per entry")
    parser.add_argument("--rounds", type=int, default=3, help="rounds taken in turn by the entries (best kept)")
    parser.add_argument("--only", default="", help="run only entries whose label contains this text (peers kept)")
    parser.add_argument("--profile", default="", help="profile the entry with this label (or the first containing it)")
    args = parser.parse_args()
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.profile:
        exact = [e for e in ENTRIES if e.label == args.profile]
        entry = exact[0] if exact else next((e for e in ENTRIES if args.profile in e.label), None)
        if entry is None:
            parser.error(f"--profile {args.profile!r} matches no entry; labels: {[e.label for e in ENTRIES]}")
        profiler = cProfile.Profile()
        profiler.enable()
        steps, hands, elapsed = run_entry(entry.factory, args.seconds)
        profiler.disable()
        print(f"{entry.label}: {steps} steps, {hands} hands in {elapsed:.2f}s (under the profiler)")
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return
    entries = [e for e in ENTRIES if args.only in e.label]
    wanted = {e.peer for e in entries if e.peer}
    entries = [e for e in ENTRIES if e in entries or e.label in wanted]
    entries = available(entries)
    # Entries take turns in short rounds and each keeps its best round, so that load changes on a shared
    # machine hit ours and the peers alike.
    best: dict[str, tuple[float, float, float]] = {}
    for _ in range(args.rounds):
        for e in entries:
            steps, hands, elapsed = run_entry(e.factory, args.seconds / args.rounds)
            rate = (steps / elapsed, hands / elapsed, steps / hands)
            if e.label not in best or rate[0] > best[e.label][0]:
                best[e.label] = rate
    print(f"{'environment':<42} {'steps/s':>10} {'hands/s':>10} {'steps/hand':>10}  ratio vs peer (best of {args.rounds} rounds)")
    for e in entries:
        steps_s, hands_s, per_hand = best[e.label]
        ratio = f"{steps_s / best[e.peer][0]:.2f}x {e.peer}" if e.peer in best else ""
        print(f"{e.label:<42} {steps_s:>10,.0f} {hands_s:>10,.0f} {per_hand:>10.2f}  {ratio}")


if __name__ == "__main__":
    main()
