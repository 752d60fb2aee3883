"""What a CNN generation does pre-flop with each of the 1,326 holdings (the range LBR tracks).

    python docs/results/lbr/cnn_ranges.py runs/cnn/small_s0/gen_1.pt [--candidates subset]

At 50 big blinds (100 chips, blinds 1/2, ``bet_sizing="chips"``: action id r + 1 raises to r chips,
101 is all-in), prints the share of holdings taking each action at three pre-flop nodes: first to act
(button), big blind after a limp, big blind facing a raise to 6 chips; one batched range query each.
"""

from __future__ import annotations

import argparse

import numpy as np

NODES = (("first to act (button)", ()), ("big blind after a limp", (1,)), ("big blind facing a raise to 6", (7,)))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("generations", nargs="+", help="gen_K.pt files")
    p.add_argument("--candidates", choices=("full", "subset"), default="subset")
    args = p.parse_args()
    import torch

    from agent_zoo.cnn.agent import load_cnn_agent
    from agent_zoo.lbr import LocalBestResponse
    from poker_envs import nolimit_holdem_v0
    from poker_envs.games.base import CHANCE, play_chance

    torch.set_num_threads(1)
    env = nolimit_holdem_v0.env(bet_sizing="chips", obs_encoder="poker_cnn", starting_stack=100)
    for path in args.generations:
        lbr = LocalBestResponse(env, load_cnn_agent(path, env, candidates=args.candidates))
        root = lbr.new_hand()
        while root.current_player() == CHANCE:
            play_chance(root, np.random.default_rng(0))  # the cards dealt do not matter: every holding is asked
        for label, line in NODES:
            state = root.clone()
            for a in line:
                state.apply(a)
            seat = state.current_player()
            chosen = lbr.range_probabilities(state, seat, np.arange(len(lbr.family.holdings))).argmax(axis=1)
            ids, counts = np.unique(chosen, return_counts=True)
            shares = ", ".join(f"{int(i)}: {c / len(chosen):.1%}" for i, c in zip(ids, counts))
            print(f"{path} | {label} | action id: share of holdings | {shares}")


if __name__ == "__main__":
    main()
