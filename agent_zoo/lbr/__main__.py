"""``python -m agent_zoo.lbr``: local best response against one agent of the zoo.

Prints LBR's mean winnings per hand (a lower bound on the agent's exploitability, up to its 95% CI)
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
from agent_zoo.lbr.core import LBRConfig, LocalBestResponse
from agent_zoo.registry import make_agent
from agent_zoo.tournament import build_env

GAMES = ("leduc", "nolimit", "push_fold")  # catalog keys of the heads-up games LBR plays


def build_parser() -> argparse.ArgumentParser:
    """The command line, in the zoo's dialect (``agent_zoo.cli``)."""
    p = cli.parser("lbr", __doc__)
    p.add_argument("--game", choices=GAMES, default="nolimit", help="heads-up game (catalog key)")
    p.add_argument("--agent", required=True, help="agent spec of agent_zoo.registry (random, heuristic, cfr:FILE, push_fold, sb3:FILE, ...)")
    p.add_argument("--hands", type=cli.positive_int, default=1000, help="hands to play, LBR's seat alternating (at least 2)")
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
    if args.hands < 2:
        p.error("--hands must be >= 2 (one hand per seat at least)")
    args.env_config = cli.env_config(p, args.env_config)
    cli.limit_threads(args.threads)  # before an agent (sb3:, cnn:, rnad:, cluster:) loads torch
    return args


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Build the env and agent, play, and return the JSON summary."""
    env = build_env(args.game, args.env_config)
    agent = make_agent(args.agent, env)
    lbr = LocalBestResponse(env, agent, LBRConfig(rollouts=args.rollouts))

    def progress(done: int) -> None:
        if not args.no_progress and (done % 50 == 0 or done == args.hands):
            print(f"\rlbr: {done}/{args.hands} hands", end="\n" if done == args.hands else "", file=sys.stderr)

    start = time.perf_counter()
    result = lbr.evaluate(args.hands, args.seed, progress)
    seconds = time.perf_counter() - start
    unit = "chips" if args.game == "leduc" else "big_blinds"
    out: dict[str, Any] = {
        "game": args.game, "agent": args.agent, "lbr": result.mean, "ci95": result.ci95, "hands": result.hands,
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
