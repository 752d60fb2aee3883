"""``python -m agent_zoo.lbr``: local best response against one agent of the zoo.

``--engine vector`` plays the same hands on the batched engine (heads-up hold'em; equal per-hand winnings,
many times faster); ``--players N`` (hold'em, 2 to 6) puts one LBR seat at a table where the agent plays
the N - 1 others (multi-way LBR, ``agent_zoo.lbr.core``). Prints LBR's mean winnings per hand (a lower bound on the agent's exploitability, up to its 95% CI)
in the game's reward unit: chips for Leduc, big blinds for hold'em and push/fold; hold'em also in
mbb per hand (thousandths of a big blind). ``--json``: one JSON line instead of the text
(``--json PATH``: written there).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from agent_zoo import cli
from agent_zoo.lbr.core import LBRConfig
from agent_zoo.lbr.vector import ENGINES, make_lbr
from agent_zoo.registry import make_agent, needed_env_options
from agent_zoo.tournament import build_env
from poker_envs import catalog

GAMES = tuple(catalog.keys(solver="lbr"))  # catalog keys of the games LBR plays (Leduc, push/fold: heads-up)
EXAMPLES = (  # the end of --help
    "--game nolimit --agent heuristic --hands 200 --seed 1",
    "--game nolimit --agent random --players 3 --hands 60 --rollouts 50",
    "--game push_fold --agent push_fold --hands 500 --env-config stack_bb=10 --json",
)


def build_parser() -> argparse.ArgumentParser:
    """The command line, in the zoo's dialect (``agent_zoo.cli``)."""
    p = cli.parser("lbr", __doc__, epilog=cli.examples("lbr", *EXAMPLES))
    p.add_argument("--game", choices=GAMES, default="nolimit", help="game (catalog key)")
    p.add_argument("--players", type=cli.positive_int, default=2, help="seats: 2 (heads-up), or 3 to 6 for multi-way LBR (nolimit)")
    p.add_argument("--engine", choices=ENGINES, default="aec", help="rules states one hand at a time, or the batched engine (heads-up nolimit)")
    p.add_argument("--agent", required=True, help="agent spec of agent_zoo.registry (random, heuristic, cfr:FILE, push_fold, sb3:FILE, ...)")
    p.add_argument("--hands", type=cli.positive_int, default=1000, help="hands to play, LBR's seat rotating (at least one per seat)")
    cli.add_seed(p, 0, "the deals, the agent's draws and LBR's rollouts")
    cli.add_env_config(p)
    p.add_argument("--rollouts", type=cli.positive_int, default=LBRConfig.rollouts, help="boards sampled for LBR's equity pre-flop and on the flop")
    cli.add_threads(p)
    cli.add_json(p, "the summary (lbr, ci95, hands, ...)")
    cli.add_progress(p)
    return p


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = build_parser()
    args = p.parse_args(argv)
    if args.hands < args.players:
        p.error(f"--hands must be >= --players ({args.players}: one hand per seat at least), got {args.hands}")
    args.env_config = cli.env_config(p, args.env_config)
    cli.limit_threads(args.threads)  # before an agent (sb3:, cnn:, rnad:, cluster:) loads torch
    return args


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Build the env and agent, play, and return the JSON summary."""
    if args.engine == "vector" and args.players != 2:
        raise ValueError(f"engine 'vector': batched LBR plays heads-up only; --players {args.players} needs --engine aec")
    if args.players != 2 and args.game != "nolimit":
        raise ValueError(f"--players {args.players}: multi-way LBR plays nolimit; {args.game} is heads-up only here")
    needs = needed_env_options([args.agent], args.env_config)  # e.g. resolve: history=True, chip sizes
    env = build_env(args.game, {**args.env_config, **needs}, args.players)
    agent = make_agent(args.agent, env)
    config = LBRConfig(rollouts=args.rollouts)
    lbr = make_lbr(env, agent, config, args.engine)

    def progress(done: int) -> None:
        if not args.no_progress and (done % 50 == 0 or done == args.hands or args.engine == "vector"):
            print(f"\rlbr: {done}/{args.hands} hands", end="\n" if done == args.hands else "", file=sys.stderr)

    start = time.perf_counter()
    result = lbr.evaluate(args.hands, args.seed, progress)
    seconds = time.perf_counter() - start
    unit = "chips" if args.game == "leduc" else "big_blinds"
    out: dict[str, Any] = {
        "game": args.game, "agent": args.agent, "players": args.players, "engine": args.engine, "lbr": result.mean, "ci95": result.ci95, "hands": result.hands,
        "unit": unit, "per_seat": list(result.per_seat), "seed": args.seed, "seconds": seconds,
        "hands_per_second": result.hands / seconds,
    }
    if args.game == "nolimit":
        out["mbb_per_hand"] = 1000 * result.mean
        out["mbb_ci95"] = 1000 * result.ci95
    return out


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    try:
        out = run(args)
    except (TypeError, ValueError) as exc:
        build_parser().exit(2, f"python -m agent_zoo.lbr: error: {exc}\n")
    if cli.emit_json(out, args.json):
        return
    extra = f" ({out['mbb_per_hand']:.0f} +- {out['mbb_ci95']:.0f} mbb/hand)" if "mbb_per_hand" in out else ""
    print(f"LBR vs {out['agent']} on {out['game']}: {out['lbr']:+.4f} +- {out['ci95']:.4f} {out['unit']}/hand{extra} "
          f"over {out['hands']} hands ({out['hands_per_second']:.1f} hands/s)")


if __name__ == "__main__":
    main()
