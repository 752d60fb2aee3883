"""Speed of the hold'em encoders, side by side with the no-limit environment's step.

Prints, for 2 and 6 players: the time to encode one state with each encoder (states taken from
random hands), the Poker-CNN batched path in state-action tensors per second (every legal action of
a state under ``bet_sizing="chips"``, one ``encode_actions`` call per state), and the environment's
time per ``step`` (random legal actions, default encoder) in the same run. Single-threaded numpy.

    .venv/bin/python benchmarks/encoders.py [--hands 300] [--seed 0]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from poker_envs.encoders.catalog import HOLDEM_ENCODERS  # noqa: E402
from poker_envs.encoders.poker_cnn import PokerCNNEncoder  # noqa: E402
from poker_envs.games.base import play_chance  # noqa: E402
from poker_envs.games.holdem import HoldemConfig, HoldemGame  # noqa: E402


def sample_states(game: HoldemGame, hands: int, rng: np.random.Generator) -> list:
    """(state, player to act) at every decision of ``hands`` random hands."""
    out = []
    for hand in range(hands):
        state = game.new_initial_state(button=hand % game.num_players)
        play_chance(state, rng)
        while not state.is_terminal():
            out.append((state.clone(), state.current_player()))
            legal = state.legal_actions()
            state.apply(int(legal[rng.integers(len(legal))]))
            play_chance(state, rng)
    return out


def per_call_us(fn, items, repeat: int = 3) -> float:
    """Best of ``repeat`` passes over ``items``, microseconds per item."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for item in items:
            fn(*item)
        best = min(best, time.perf_counter() - t0)
    return best / len(items) * 1e6


def env_step_us(num_players: int, hands: int, seed: int) -> tuple[str, float, float]:
    """(what was timed, us per step() alone, us per last()+step() of a user loop)."""
    try:
        from poker_envs import nolimit_holdem_v0
    except ImportError:
        return "engine apply (no env module yet)", float("nan"), float("nan")
    env = nolimit_holdem_v0.raw_env(num_players=num_players)
    rng = np.random.default_rng(seed)
    steps, step_time, t0 = 0, 0.0, time.perf_counter()
    for hand in range(hands):
        env.reset(seed=seed + hand)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(len(legal))])
            t1 = time.perf_counter()
            env.step(action)
            step_time += time.perf_counter() - t1
            steps += 1
    total = time.perf_counter() - t0
    return "nolimit_holdem_v0.raw_env", step_time / steps * 1e6, total / steps * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="random hands per table size")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"numpy {np.__version__}, single-threaded; times are best of 3 passes\n")
    for n in (2, 6):
        rng = np.random.default_rng(args.seed)
        game = HoldemGame(HoldemConfig(num_players=n, bet_sizing="chips"))
        items = sample_states(game, args.hands, rng)
        print(f"== {n} players, {len(items)} decision states from {args.hands} random no-limit hands (200-chip stacks)")
        for name, cls in HOLDEM_ENCODERS.items():
            enc = cls(game)
            print(f"  encode {name:<10} {per_call_us(enc.encode, items):8.2f} us/state")
        enc8 = PokerCNNEncoder(game, dtype=np.uint8)
        print(f"  encode poker_cnn uint8 {per_call_us(enc8.encode, items):5.2f} us/state")
        enc = PokerCNNEncoder(game)
        batch = [(s, p, s.legal_actions()) for s, p in items]
        tensors = sum(len(a) for _, _, a in batch)
        us = per_call_us(enc.encode_actions, batch)
        per_sec = len(batch) / (us * len(batch) / 1e6) * (tensors / len(batch))
        print(f"  poker_cnn encode_actions: {tensors / len(batch):.1f} legal actions per state on average, "
              f"{per_sec:,.0f} state-action tensors/s")
        few = [(s, p, a[:6]) for s, p, a in batch]
        k = sum(len(a) for _, _, a in few)
        us = per_call_us(enc.encode_actions, few)
        print(f"  poker_cnn encode_actions, at most 6 candidates: {k / (us * len(few) / 1e6):,.0f} tensors/s")
        what, step, loop = env_step_us(n, max(50, args.hands // 3), args.seed)
        print(f"  env step ({what}): {step:.2f} us per step(), {loop:.2f} us per last()+step()\n")


if __name__ == "__main__":
    main()
