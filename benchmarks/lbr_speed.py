"""LBR hands per second against the heuristic and a Poker-CNN agent (heads-up no-limit, 50 big blinds).

    python benchmarks/lbr_speed.py --hands 20 --cnn-hands 4
    python benchmarks/lbr_speed.py --compare 200 --skip-cnn --hands 0
    python benchmarks/lbr_speed.py --compare 1024 --rounds 3 --skip-cnn --hands 0

``--compare N``: the rules-state LBR (``--engine aec``) and the batched one (``--engine vector``) play the same
N hands from the same seed against the heuristic (abstract and chips sizing), one after the other in this run:
hands/s of each, the ratio, and whether the per-hand winnings are equal. ``--rounds R`` repeats it R times, the
engines taking turns to go first, and prints the median, lowest and highest ratio.

The CNN agent is an *untrained* network (trained generations are not committed): its speed is that of
any generation, its LBR value means nothing. Each agent decision asks the agent about every holding
(up to 1,326 observations, one batched query); each LBR decision asks once more per raise size. The CNN
agent is timed with its candidate subset and its full candidate set, each with the current scorer
(``network.score_candidates``) and the subset also with the previous one (every (holding, candidate)
tensor assembled, one plain forward pass: ``benchmarks/cnn_speed.py``'s baseline), and with LBR's
pre-flop memo on (the default) and off. ``--skip-cnn`` leaves the CNN out.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from agent_zoo.lbr import LBRConfig, LocalBestResponse
from agent_zoo.lbr.core import hand_rng
from agent_zoo.lbr.vector import VectorLBR
from agent_zoo.registry import make_agent
from poker_envs import nolimit_holdem_v0

CNN_TABLE = {"bet_sizing": "chips", "obs_encoder": "poker_cnn"}


def timed(env: Any, agent: Any, hands: int, seed: int, memo: bool = True) -> float:
    config = LBRConfig() if memo else LBRConfig(preflop_memo=0)
    start = time.perf_counter()
    LocalBestResponse(env, agent, config).evaluate(hands, seed)
    return time.perf_counter() - start


def compare(hands: int, seed: int, rounds: int = 1) -> None:
    """Rules-state vs batched LBR on the same hands (fresh pre-flop memo each): speed and equality. With several
    ``rounds`` the two engines take turns going first (a machine whose speed drifts favours neither), and the
    median, lowest and highest ratios follow. The ratio of the process's CPU seconds is printed beside the wall-clock
    one: on a shared machine the wall clock also counts time the machine gave to others."""
    for sizing in ("abstract", "chips"):
        env = nolimit_holdem_v0.env(starting_stack=100, bet_sizing=sizing)
        agent = make_agent("heuristic", env)
        ratios, cpu_ratios = [], []
        for r in range(rounds):
            runs: dict[str, tuple[float, float, np.ndarray]] = {}
            for engine in (("aec", "vector") if r % 2 == 0 else ("vector", "aec")):
                start, cpu = time.perf_counter(), time.process_time()
                if engine == "aec":
                    aec = LocalBestResponse(env, agent)
                    wins = np.array([aec.play_hand(i % 2, hand_rng(seed, i)) for i in range(hands)])
                else:
                    vec = VectorLBR(env, agent)
                    wins = np.concatenate([vec.play_block(np.arange(a, min(hands, a + vec.block)), seed)
                                           for a in range(0, hands, vec.block)])
                runs[engine] = (time.perf_counter() - start, time.process_time() - cpu, wins)
            (t_old, c_old, old), (t_new, c_new, new) = runs["aec"], runs["vector"]
            ratios.append(t_old / t_new)
            cpu_ratios.append(c_old / c_new)
            same = bool(np.array_equal(old, new))
            print(f"heuristic ({sizing} sizing), {hands} hands, seed {seed}{f', round {r + 1}' if rounds > 1 else ''}: "
                  f"aec {hands / t_old:7.2f} hands/s, vector {hands / t_new:7.2f} hands/s, ratio {t_old / t_new:5.1f}x "
                  f"(CPU seconds {c_old / c_new:5.1f}x); "
                  f"per-hand winnings equal: {same}; mean {old.mean():+.4f} (aec) {new.mean():+.4f} (vector) big blinds/hand",
                  flush=True)
        if rounds > 1:
            print(f"heuristic ({sizing} sizing): ratio median {np.median(ratios):.1f}x, lowest {min(ratios):.1f}x, "
                  f"highest {max(ratios):.1f}x over {rounds} rounds (CPU seconds: median {np.median(cpu_ratios):.1f}x, "
                  f"lowest {min(cpu_ratios):.1f}x)", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=20, help="hands per heuristic case")
    p.add_argument("--cnn-hands", type=int, default=4, help="hands per CNN case")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals")
    p.add_argument("--skip-cnn", action="store_true", help="time the heuristic only")
    p.add_argument("--compare", type=int, default=0, help="hands of the aec-vs-vector comparison (0: none)")
    p.add_argument("--rounds", type=int, default=1, help="rounds of the comparison, the engines taking turns to go first")
    args = p.parse_args()
    if args.rounds < 1:
        p.error(f"--rounds must be >= 1, got {args.rounds}")
    import torch

    torch.set_num_threads(1)
    if args.compare:
        compare(args.compare, args.seed, args.rounds)
    if not args.hands:
        return
    for label, config, memo in (("heuristic (abstract sizing)", {"bet_sizing": "abstract"}, True),
                                ("heuristic (chips sizing)", {"bet_sizing": "chips"}, True),
                                ("heuristic (chips sizing), no memo", {"bet_sizing": "chips"}, False)):
        env = nolimit_holdem_v0.env(starting_stack=100, **config)
        seconds = timed(env, make_agent("heuristic", env), args.hands, args.seed, memo)
        print(f"{label:<52}: {args.hands / seconds:7.3f} hands/s ({args.hands} hands, {seconds:.1f} s)")
    if args.skip_cnn:
        return
    from cnn_speed import scorer  # benchmarks/cnn_speed.py (this folder is on the path when run as a script)

    from agent_zoo.cnn.agent import CNNAgent
    from agent_zoo.cnn.network import PokerCNN

    env = nolimit_holdem_v0.env(starting_stack=100, **CNN_TABLE)
    torch.manual_seed(args.seed)
    net = PokerCNN().eval()
    for candidates, how, memo in (("subset", "assembled", False), ("subset", "split", False), ("subset", "split", True),
                                  ("full", "split", True)):
        with scorer(how):
            seconds = timed(env, CNNAgent(net, env, candidates), args.cnn_hands, args.seed, memo)
        label = f"cnn, untrained, {candidates} candidates, {how}{'' if memo else ', no memo'}"
        print(f"{label:<52}: {args.cnn_hands / seconds:7.3f} hands/s ({args.cnn_hands} hands, {seconds:.1f} s)")


if __name__ == "__main__":
    main()
