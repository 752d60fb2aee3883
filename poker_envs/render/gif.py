"""One hand of a catalog game as an animated GIF: a frame of the table after every action.

    python -m poker_envs.render.gif --game nolimit --players 6 --seed 0 --out docs/img/nolimit.gif
    python -m poker_envs.render.gif --gallery docs/img     # the documentation's GIF of every game

The seats are played by a seeded random player that reads only the action mask and mostly checks or calls
(weights: check/call 6, fold 1, the raises 2 together), so hands tend to reach a showdown. Frames come from
``render_mode="rgb_array"`` (Pillow, the ``render`` extra) and share one palette, which keeps the files small.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from poker_envs import catalog
from poker_envs.render.draw import pillow

CALL, FOLD = 1, 0  # action ids every game shares: 1 checks or calls (Kuhn: bet, push/fold: all-in), 0 folds
FRAME_MS, LAST_MS = 900, 3000  # how long each frame shows, and the last (the result)


@dataclass(frozen=True)
class GalleryHand:
    """A hand of the documentation's gallery: the game, its seats, the seed (chosen for a hand that shows the game)."""

    key: str
    players: int
    seed: int

    @property
    def file_name(self) -> str:
        return f"{self.key}_{self.players}p.gif"


GALLERY = (
    GalleryHand("nolimit", 6, 4),
    GalleryHand("limit", 2, 6),
    GalleryHand("shortdeck", 3, 3),
    GalleryHand("potlimit", 4, 35),
    GalleryHand("omaha", 4, 3),
    GalleryHand("push_fold", 3, 5),
    GalleryHand("leduc", 2, 41),
    GalleryHand("kuhn", 2, 3),
    GalleryHand("threshold", 5, 0),
)


def choose(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A legal action of ``mask``: check/call weighs 6, fold 1, the other legal ids 2 between them."""
    legal = np.flatnonzero(mask)
    if legal.size == 0:
        raise ValueError("the action mask has no legal action")
    raises = [a for a in legal if a not in (CALL, FOLD)]
    weights = np.array([6.0 if a == CALL else 1.0 if a == FOLD else 2.0 / len(raises) for a in legal])
    return int(rng.choice(legal, p=weights / weights.sum()))


def hand_frames(key: str, players: int, seed: int) -> list[np.ndarray]:
    """The frames of one hand of catalog game ``key`` with ``players`` seats: after the deal and after every action."""
    entry = catalog.game(key)
    low, high = entry.players
    if not low <= players <= high:
        raise ValueError(f"players: {entry.title} seats {low} to {high}, got {players}")
    kwargs: dict[str, Any] = {} if low == high else {"num_players": players}
    env = importlib.import_module(entry.module_path).env(render_mode="rgb_array", **kwargs)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    frames = [env.render()]
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        env.step(choose(observation["action_mask"], rng))
        frames.append(env.render())
    env.close()
    return frames


def save_gif(frames: Sequence[np.ndarray], path: Path, frame_ms: int = FRAME_MS, last_ms: int = LAST_MS) -> None:
    """``frames`` as a looping GIF at ``path``; one palette for all (no dithering: flat colours stay flat)."""
    if not frames:
        raise ValueError("frames: a GIF needs at least one frame")
    PIL = pillow()
    palette = PIL.Image.fromarray(np.concatenate(list(frames), axis=0)).quantize(colors=48, method=PIL.Image.Quantize.MEDIANCUT)
    images = [PIL.Image.fromarray(f).quantize(palette=palette, dither=PIL.Image.Dither.NONE) for f in frames]
    durations = [frame_ms] * (len(images) - 1) + [last_ms]
    path.parent.mkdir(parents=True, exist_ok=True)
    images[0].save(path, save_all=True, append_images=images[1:], duration=durations, loop=0)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m poker_envs.render.gif", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=catalog.keys(), help="the catalog game to play")
    parser.add_argument("--players", type=int, help="seats (default: the game's fewest)")
    parser.add_argument("--seed", type=int, default=0, help="seeds the deal and the players (default 0)")
    parser.add_argument("--out", type=Path, help="the GIF to write")
    parser.add_argument("--gallery", type=Path, metavar="DIR", help="write the documentation's GIF of every game into DIR")
    parser.add_argument("--frame-ms", type=int, default=FRAME_MS, help=f"milliseconds per frame (default {FRAME_MS})")
    parser.add_argument("--last-ms", type=int, default=LAST_MS, help=f"milliseconds of the last frame (default {LAST_MS})")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.frame_ms <= 0 or args.last_ms <= 0:
        parser.error(f"--frame-ms and --last-ms must be positive, got {args.frame_ms} and {args.last_ms}")
    if args.gallery is not None:
        if args.game or args.out:
            parser.error("--gallery writes every game: give it alone (without --game or --out)")
        hands = [(g.key, g.players, g.seed, args.gallery / g.file_name) for g in GALLERY]
    else:
        if not args.game or not args.out:
            parser.error("give --game and --out (or --gallery DIR)")
        players = args.players if args.players is not None else catalog.game(args.game).players[0]
        hands = [(args.game, players, args.seed, args.out)]
    for key, players, seed, out in hands:
        try:
            frames = hand_frames(key, players, seed)
        except ValueError as error:
            parser.error(str(error))
        save_gif(frames, out, args.frame_ms, args.last_ms)
        print(f"{out}: {len(frames)} frames, {out.stat().st_size / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
