"""Replay every Pluribus hand of ``../shared/data/phh`` and time loading, replaying and log encoding,
side by side with pokerkit (the PHH reference implementation) on the same hands.

Prints how many of the 10,000 hands replay to their recorded finishing stacks (exactly, within half
a chip, not at all, errors), the seconds for: loading (TOML), replaying, replay + ``flat107``
encoding of every player's decisions (``agent_zoo.clustering.logs.encode_hands``), keeping states
(``extract_logs``) on a part of them, and pokerkit's ``HandHistory`` replay on ``--pokerkit-hands``
of them (whose final stacks are compared with ours). CPU time of this process
(``time.process_time``): other work on a shared machine disturbs it less than wall time; the
wall time of the whole run is printed last.

    .venv/bin/python benchmarks/phh_replay.py [--data ../shared/data/phh] [--pokerkit-hands 1000]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from tqdm import tqdm

from agent_zoo.clustering.logs import encode_hands, extract_logs
from poker_envs import phh


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data" / "phh")
    parser.add_argument("--pokerkit-hands", type=int, default=1000, help="hands replayed by pokerkit (0: none)")
    parser.add_argument("--states-hands", type=int, default=2000, help="hands for extract_logs (keeps states)")
    args = parser.parse_args()
    wall = time.perf_counter()
    root = args.data / "pluribus"
    if not root.is_dir():
        raise SystemExit(f"no Pluribus hands at {root} (give --data)")

    t0 = time.process_time()
    files = phh.find_files(root)
    hands = [h for f in tqdm(files, desc="loading", unit="file") for h in phh.load(f)]
    t_load = time.process_time() - t0

    t0 = time.process_time()
    exact = half = off = errors = 0
    results = []
    for hand in tqdm(hands, desc="replaying", unit="hand"):
        try:
            r = phh.replay(hand)
        except phh.PHHError as err:
            errors += 1
            print(f"ERROR {err}")
            results.append(None)  # keeps results aligned with files (one hand per file) for the pokerkit part
            continue
        results.append(r)
        if not r.mismatch(0):
            exact += 1
        elif not r.mismatch(0.5):
            half += 1
        else:
            off += 1
            print(f"MISMATCH {hand.source}: ours {r.finishing_stacks}, file {hand.finishing_stacks}")
    t_replay = time.process_time() - t0

    t0 = time.process_time()
    encoded = encode_hands(hands, "flat107", progress=True)
    t_encode = time.process_time() - t0
    rows = sum(len(e.y) for e in encoded.values())

    part = hands[: args.states_hands]
    t0 = time.process_time()
    logs = extract_logs(part)
    t_states = time.process_time() - t0
    kept = sum(len(v) for v in logs.values())
    del logs

    print(f"\nPluribus hands: {len(hands)} (files: {len(files)})")
    print(f"  replayed to the recorded finishing stacks: exactly {exact}, within half a chip {half}, "
          f"off {off}, errors {errors}")
    print(f"  matched (within 0.5 chip): {exact + half} / {len(hands)}")
    print("\nCPU seconds (this process)")
    print(f"  load (tomllib)                 {t_load:7.2f} s   {t_load / len(hands) * 1e3:6.3f} ms/hand")
    print(f"  replay                         {t_replay:7.2f} s   {t_replay / len(hands) * 1e3:6.3f} ms/hand")
    print(f"  replay + flat107 (encode_hands){t_encode:7.2f} s   {rows} decisions of {len(encoded)} players")
    print(f"  extract_logs (states kept)     {t_states:7.2f} s   {kept} decisions of {len(part)} hands")
    print(f"  load + encode_hands, all hands {t_load + t_encode:7.2f} s")
    print("  decisions per player: " + ", ".join(f"{k} {len(v.y)}" for k, v in sorted(encoded.items())))

    if args.pokerkit_hands:
        import warnings
        from importlib.metadata import version

        import pokerkit

        subset = [(f, r) for f, r in zip(files, results) if r is not None][: args.pokerkit_hands]
        texts = [f.read_bytes() for f, _ in subset]
        t0 = time.process_time()
        finals = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for text in tqdm(texts, desc="pokerkit", unit="hand"):
                *_, final = iter(pokerkit.HandHistory.loads(text.decode()))
                finals.append(final)
        t_pk = time.process_time() - t0
        t0 = time.process_time()
        for f, _ in subset:
            phh.replay(phh.load_hand(f))
        t_ours = time.process_time() - t0
        agree = sum(
            [float(s) for s in final.stacks] == [float(s) for s in r.finishing_stacks]
            for final, (_, r) in zip(finals, subset)
        )
        print(f"\nSame {len(subset)} hands, load + replay, CPU seconds: poker_envs.phh {t_ours:.2f} s "
              f"({t_ours / len(subset) * 1e3:.2f} ms/hand), pokerkit {version('pokerkit')} "
              f"{t_pk:.2f} s ({t_pk / len(subset) * 1e3:.2f} ms/hand)")
        print(f"  final stacks equal to pokerkit's: {agree} / {len(subset)} (split pots: both give an odd chip "
              "to one player where the files write half chips)")

    print(f"\nwall time of the run: {time.perf_counter() - wall:.1f} s")


if __name__ == "__main__":
    main()
