"""Rendering speed: milliseconds per frame of ``render_mode="rgb_array"`` (the table's picture) beside
``render_mode="ansi"`` (its text), the peer, in the same run, for every catalog game.

    python benchmarks/render_speed.py [--hands 30] [--only nolimit]

Two copies of each environment play the same seeded hands with the same random legal actions; at the reset
and after every action each renders, timed through the public ``env.render()``. Prints the median and 90th
percentile milliseconds per frame of both modes and the median's ratio (picture / text). The first hand warms
the picture's caches (fonts, glyphs, card faces, panels) and is not timed. Figures are noisy on a shared
machine: compare the columns of one run.
"""

from __future__ import annotations

import argparse
import importlib
import time
from typing import Any

import numpy as np

from poker_envs import catalog

GAMES = [("nolimit", 2), ("nolimit", 6), ("nolimit", 10), ("limit", 2), ("shortdeck", 3), ("potlimit", 4), ("omaha", 6),
         ("push_fold", 3), ("leduc", 2), ("kuhn", 2), ("threshold", 5)]


def _env(key: str, players: int, mode: str) -> Any:
    entry = catalog.game(key)
    seats = {} if entry.players[0] == entry.players[1] else {"num_players": players}
    return importlib.import_module(entry.module_path).env(render_mode=mode, **seats)


def measure(key: str, players: int, hands: int) -> tuple[list[float], list[float]]:
    """Seconds per render of the picture and of the text, over ``hands`` timed hands (after one warm-up hand)."""
    picture, text = _env(key, players, "rgb_array"), _env(key, players, "ansi")
    times: dict[str, list[float]] = {"rgb_array": [], "ansi": []}

    def render_both(timed: bool) -> None:
        for env in (picture, text):
            start = time.perf_counter()
            env.render()
            if timed:
                times[env.render_mode].append(time.perf_counter() - start)

    for hand in range(hands + 1):
        rng = np.random.default_rng(hand)
        for env in (picture, text):
            env.reset(seed=hand)
        render_both(hand > 0)
        for agent in picture.agent_iter():
            obs, _, termination, truncation, _ = picture.last()
            action = None if termination or truncation else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            assert text.agent_selection == agent
            picture.step(action)
            text.step(action)
            if action is not None:
                render_both(hand > 0)
    return times["rgb_array"], times["ansi"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=30, help="timed hands per game (default 30)")
    parser.add_argument("--only", choices=catalog.keys(), help="one game")
    args = parser.parse_args()
    print(f"{'game':<14}{'frames':>7}{'picture ms':>12}{'p90':>7}{'text ms':>10}{'p90':>7}{'picture/text':>14}")
    for key, players in GAMES:
        if args.only and key != args.only:
            continue
        picture, text = measure(key, players, args.hands)
        med_p, med_t = 1000 * float(np.median(picture)), 1000 * float(np.median(text))
        print(f"{f'{key} {players}p':<14}{len(picture):>7}{med_p:>12.3f}{1000 * np.percentile(picture, 90):>7.2f}"
              f"{med_t:>10.3f}{1000 * np.percentile(text, 90):>7.3f}{med_p / med_t:>13.1f}x")


if __name__ == "__main__":
    main()
