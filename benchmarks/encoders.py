"""Speed of the hold'em encoders, side by side with the no-limit environment's step.

Prints, for 2 and 6 players: the time to encode one state with each encoder (states taken from
random hands), the Poker-CNN batched path in state-action tensors per second (every legal action of
a state under ``bet_sizing="chips"``, one ``encode_actions`` call per state), and in the same run
the environment's time per ``step()`` and per ``last()`` + ``step()`` (a user's loop, which encodes
one observation per step) with each encoder. Single-threaded numpy; CPU time of this process
(``time.process_time``), best of 3 passes, so that other work on a shared machine disturbs less.

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
        t0 = time.process_time()
        for item in items:
            fn(*item)
        best = min(best, time.process_time() - t0)
    return best / len(items) * 1e6


def env_step_us(num_players: int, hands: int, seed: int, obs_encoder: str) -> tuple[float, float]:
    """(us per ``step()`` alone, us per ``last()`` + ``step()`` of a user's loop) with ``obs_encoder``."""
    from poker_envs import nolimit_holdem_v0

    env = nolimit_holdem_v0.raw_env(num_players=num_players, bet_sizing="chips", obs_encoder=obs_encoder)
    rng = np.random.default_rng(seed)
    best_step, best_loop = float("inf"), float("inf")
    for _ in range(3):
        steps, step_time, t0 = 0, 0.0, time.process_time()
        for hand in range(hands):
            env.reset(seed=seed + hand)
            for _agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    action = None
                else:
                    legal = np.flatnonzero(obs["action_mask"])
                    action = int(legal[rng.integers(len(legal))])
                t1 = time.process_time()
                env.step(action)
                step_time += time.process_time() - t1
                steps += 1
        best_step = min(best_step, step_time / steps * 1e6)
        best_loop = min(best_loop, (time.process_time() - t0) / steps * 1e6)
    return best_step, best_loop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="random hands per table size")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"numpy {np.__version__}, single-threaded; CPU times (process_time), best of 3 passes\n")
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
        per_sec = tensors / (us * len(batch) / 1e6)  # us per state x states = seconds for all the tensors
        print(f"  poker_cnn encode_actions: {tensors / len(batch):.1f} legal actions per state on average, "
              f"{per_sec:,.0f} state-action tensors/s")
        few = [(s, p, a[:6]) for s, p, a in batch]
        k = sum(len(a) for _, _, a in few)
        us = per_call_us(enc.encode_actions, few)
        print(f"  poker_cnn encode_actions, at most 6 candidates: {k / (us * len(few) / 1e6):,.0f} tensors/s")
        print("  nolimit_holdem_v0.raw_env (bet_sizing='chips'), random legal actions, per agent_iter step:")
        for name in ("default", *HOLDEM_ENCODERS):
            step, loop = env_step_us(n, max(30, args.hands // 3), args.seed, name)
            print(f"    obs_encoder={name!r:<12} step() {step:6.2f} us, last()+step() {loop:6.2f} us")
        print()


if __name__ == "__main__":
    main()
