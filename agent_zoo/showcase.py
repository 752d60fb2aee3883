"""The zoo showcase (the README's first command): a short tournament of the zoo's agents on every game of the catalog.
Hold'em also gets a 6-max table (fewer agents than seats: the line-up is filled) and a 6-max sit-and-go.

    python -m agent_zoo.showcase [--hands 2000] [--seed 0] [--workers 2] [--out out/showcase] [--games kuhn omaha ...]

Everything it needs is made on the spot, for the chosen games only: Kuhn and Leduc are solved with CFR+ in about
a second and the policies saved under ``--out`` (with a 3-iteration CFR+ policy beside each, to show the ranking),
R-NaD trains briefly on Leduc (reused on a second run), push/fold and the threshold game are solved
exactly when their agents are built; the hold'em variants without a line-up of their own (short-deck, pot-limit,
Omaha) play random, heuristic and fold. Agents whose optional parts are missing (a CNN checkpoint, torch) are listed
as skipped with the reason, never silently dropped. Each match's hand count is printed with how it follows from
``--hands``. It ends with the result tables and the PNG paths.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from agent_zoo import cli
from agent_zoo.registry import make_agent
from agent_zoo.tournament import TournamentConfig, TournamentResult, build_env, run_tournament, short_label
from poker_envs import catalog


WEAK_CFR_ITERATIONS = 3  # a barely trained CFR+ policy, to show the ranking separate strong from weak
GENERIC = ("random", "heuristic", "fold")  # the line-up of a game without its own (heuristic: hold'em family)
GENERIC_HANDS_FACTOR = 0.5  # ... and its share of --hands (the games without a line-up of their own are hold'em's)
MIN_DEALS = 2  # fewest deals of a match: one deal gives no 95% interval
EXAMPLES = (  # the end of --help
    "--games kuhn leduc --hands 400 --rnad-steps 0",
    "--games omaha shortdeck potlimit --hands 1000 --out out/showcase_holdem",
    "--hands 2000 --seed 0 --workers 2 --out out/showcase",
)


@dataclass(frozen=True)
class Lineup:
    """The agents tried on one game and how many hands each match gets (relative to ``--hands``)."""

    game: str
    candidates: tuple[str, ...]
    hands_factor: float = 1.0
    env_config: tuple[tuple[str, object], ...] = ()
    players: int = 2  # seats at the table (fewer agents than seats: the line-up is filled, see agent_zoo.lineups)
    sit_and_go: bool = False  # play sit-and-go sessions (places and prizes) instead of single hands
    label: str = ""  # name of the result files and table (default: the game)

    @property
    def name(self) -> str:
        return self.label or self.game


def solve_cfr_policy(game: str, out: Path, iterations: int) -> tuple[Path, float]:
    """CFR+ on ``game`` (kuhn / leduc), average policy saved as ``out/<game>_cfr+<iterations>.npz``; returns (path, exploitability)."""
    from agent_zoo.cfr.__main__ import game_and_encoder
    from agent_zoo.cfr.policy_io import save_policy
    from agent_zoo.cfr.solvers import make_solver
    from agent_zoo.cfr.tree import GameTree

    rules, encoder = game_and_encoder(game)
    tree = GameTree.build(rules)
    solver = make_solver(tree, "cfr+")
    solver.iterate(iterations)
    expl = float(solver.exploitability().exploitability)
    path = out / f"{game}_cfr+{iterations}.npz"
    save_policy(path, tree, solver.average_policy(), encoder, meta={"algo": "cfr+", "iterations": iterations, "exploitability": expl})
    return path, expl


def train_rnad(out: Path, steps: int, seed: int) -> Path:
    """A short plain R-NaD run on Leduc (at short budgets it improves sooner than the two-stage variants,
    whose averaged policy lags); a finished run in ``out`` is reused."""
    from agent_zoo.rnad.experiment import train_one

    variant = "rnad"
    res = train_one(variant, steps, seed, out / "rnad", eval_every=max(1, steps // 4), progress=False)
    print(f"trained R-NaD ({variant}, {steps} steps) on Leduc: exploitability {res['exploitability']:.3f} chips/game (NashConv/2)")
    return out / "rnad" / f"{variant}_seed{seed}.npz"


def lineups(game: str, policies: dict[str, Path]) -> list[Lineup]:
    """The showcase's tournaments of catalog game ``game``: its own line-ups where it has them, else ``GENERIC``.
    ``policies``: the solved CFR+ policies (``<game>``, ``<game>_weak``) and the R-NaD one (``rnad``)."""
    if game in catalog.keys(solver="cfr"):  # Kuhn, Leduc: the exact policies against a weak one and random
        rnad = (f"rnad:{policies['rnad']}",) if game == "leduc" and "rnad" in policies else ()
        return [Lineup(game, ("random", f"cfr:{policies[f'{game}_weak']}", f"cfr:{policies[game]}", *rnad))]
    own = {
        "push_fold": [Lineup("push_fold", ("random", "push_fold", "push_fold:20"), env_config=(("stack_bb", 10.0),))],
        "threshold": [Lineup("threshold", ("random", "threshold", "threshold:75"), env_config=(("alpha", 2.0),))],
        "limit": [Lineup("limit", ("random", "heuristic", "rule:A", "rule:B", "rule:C"), hands_factor=0.5,
                         env_config=(("obs_encoder", "flat107"),))],
        "nolimit": [
            Lineup("nolimit", ("random", "heuristic"), hands_factor=0.5),
            Lineup("nolimit", ("random", "heuristic", "fold"), hands_factor=0.3, players=6, label="nolimit_6max"),
            Lineup("nolimit", ("random", "heuristic", "fold"), hands_factor=0.03, players=6, sit_and_go=True,
                   label="nolimit_sng"),
        ],
    }
    return own.get(game, [Lineup(game, GENERIC, hands_factor=GENERIC_HANDS_FACTOR)])


def match_hands(hands: int, factor: float, seats: int) -> tuple[int, str]:
    """(hands per match of a line-up, how that number follows from ``--hands``): ``hands`` times the line-up's
    ``factor``, rounded down to a multiple of the ``seats`` (each deal is played once per seat rotation), at least
    ``MIN_DEALS`` deals; the explanation is empty when the number is ``--hands`` itself, unscaled."""
    scaled = round(hands * factor, 6)
    whole = int(scaled) // seats * seats
    count = max(MIN_DEALS * seats, whole)
    if count == scaled == hands:
        return count, ""
    how = f"--hands {hands}" + (f" x {factor:g}" if factor != 1 else "")
    if count > whole:
        how += f", raised to {MIN_DEALS} deals of {seats} seats: one deal gives no interval"
    elif count != scaled:
        how += f", rounded down to a multiple of {seats} seats"
    return count, how


def available(game: str, candidates: Sequence[str], env_config: dict) -> tuple[list[str], list[str]]:
    """(agents that build for this game, 'agent: reason' for those that do not)."""
    env = build_env(game, env_config)
    ok, skipped = [], []
    for spec in candidates:
        try:
            make_agent(spec, env)
            ok.append(spec)
        except (ValueError, TypeError, ImportError, OSError) as exc:
            skipped.append(f"{spec}: {exc}")
    return ok, skipped


def push_fold_chart(out: Path, stack_bb: float = 10.0, ante_bb: float = 0.0) -> tuple[str, Path]:
    """Nash push/fold chart for one stack as text and PNG (from the push/fold solver)."""
    from agent_zoo.push_fold.chart import chart_text, save_chart_png
    from agent_zoo.push_fold.solver import solve_push_fold

    result = solve_push_fold(stack_bb=stack_bb, ante_bb=ante_bb)
    path = out / f"push_fold_{stack_bb:g}bb.png"
    save_chart_png(result, path)
    return chart_text(result), path


def build_parser() -> argparse.ArgumentParser:
    """The command line (the zoo's dialect, see ``agent_zoo.cli``)."""
    parser = cli.parser("showcase", __doc__.split("\n\n")[0], epilog=cli.examples("showcase", *EXAMPLES))
    parser.add_argument("--hands", type=int, default=2000,
                        help=f"hands per match on the small games, an even number >= {2 * MIN_DEALS} (hold'em gets a share, "
                             "rounded down to a multiple of its seats; every match is printed with its count)")
    cli.add_seed(parser, what="the deals and the R-NaD training")
    cli.add_workers(parser, default=2, what=" for the tournaments")
    cli.add_threads(parser)
    parser.add_argument("--cfr-iterations", type=cli.positive_int, default=1000, help="CFR+ iterations for Kuhn and Leduc")
    parser.add_argument("--rnad-steps", type=cli.non_negative_int, default=1000,
                        help="R-NaD learner steps on Leduc (0: leave it out)")
    cli.add_out(parser, "out/showcase", "policies, CSV, JSON and PNG files")
    parser.add_argument("--games", nargs="+", choices=catalog.keys(), metavar="GAME",
                        help=f"only these games of the catalog (default: all): {', '.join(catalog.keys())}")
    cli.add_progress(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> dict[str, TournamentResult]:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.hands < 2 * MIN_DEALS or args.hands % 2:
        parser.error(f"argument --hands: must be an even number >= {2 * MIN_DEALS} (a heads-up match plays every deal "
                     f"once per seat, and an interval needs {MIN_DEALS} deals), got {args.hands}")
    cli.check_out(parser, args.out)
    games = [key for key in catalog.keys() if not args.games or key in args.games]  # catalog order
    out = cli.out_dir(args.out)
    start = time.perf_counter()

    policies = {}
    for game in (g for g in catalog.keys(solver="cfr") if g in games):
        for iterations, key in ((args.cfr_iterations, game), (WEAK_CFR_ITERATIONS, f"{game}_weak")):
            policies[key], expl = solve_cfr_policy(game, out, iterations)
            print(f"solved {game} with CFR+ ({iterations} iterations): exploitability {expl:.2e} chips/game (NashConv/2) -> {policies[key]}")

    notes: list[str] = []
    if args.rnad_steps > 0 and "leduc" in games:
        try:
            cli.set_threads(args.threads)
            policies["rnad"] = train_rnad(out, args.rnad_steps, args.seed)
        except ImportError as exc:
            notes.append(f"leduc: R-NaD skipped (needs torch: {exc})")

    results: dict[str, TournamentResult] = {}
    failed = False
    pngs: list[Path] = []
    for lineup in (lineup for game in games for lineup in lineups(game, policies)):
        config = dict(lineup.env_config)
        try:
            agents, skipped = available(lineup.game, lineup.candidates, config)
        except (ImportError, ValueError) as exc:
            notes.append(f"{lineup.game}: game skipped ({exc})")
            failed = True
            continue
        notes += [f"{lineup.game}: skipped {s}" for s in skipped]
        if len(agents) < 2:
            notes.append(f"{lineup.name}: fewer than two agents available, no tournament")
            failed = True
            continue
        seats = lineup.players
        hands, how = match_hands(args.hands, lineup.hands_factor, seats)
        what = "sit-and-gos" if lineup.sit_and_go else "hands per match"
        print(f"\n== {lineup.name} ({seats} seats): {', '.join(short_label(a) for a in agents)}; {hands} {what}"
              + (f" ({how})" if how else ""))
        try:
            result = run_tournament(TournamentConfig(
                game=lineup.game, agents=agents, hands=hands, seed=args.seed, workers=args.workers, env_config=config,
                progress=not args.no_progress, players=seats, sit_and_go=lineup.sit_and_go,
            ))
        except Exception as exc:  # one broken game must not hide the others' results; reported and exit 1
            notes.append(f"{lineup.name}: tournament FAILED: {type(exc).__name__}: {exc}")
            failed = True
            continue
        results[lineup.name] = result
        png = out / f"tournament_{lineup.name}.png"
        result.write_png(str(png))
        result.write_csv(str(out / f"tournament_{lineup.name}.csv"))
        (out / f"tournament_{lineup.name}.json").write_text(json.dumps(result.to_dict(), indent=1, allow_nan=False))
        pngs.append(png)

    chart = None
    if "push_fold" in games:
        try:
            chart, chart_png = push_fold_chart(out)
            pngs.append(chart_png)
        except (ImportError, OSError) as exc:  # the solver or its packaged equity table is missing: a broken install
            notes.append(f"push/fold chart FAILED: {type(exc).__name__}: {exc}")
            failed = True

    print("\n" + "=" * 100)
    for game, result in results.items():
        print("\n" + result.table())
    if chart:
        print("\nHeads-up Nash push/fold at 10 big blinds, no ante:\n" + chart)
    if notes:
        print("\nNotes:\n  " + "\n  ".join(notes))
    print("\nPNG files:\n  " + "\n  ".join(str(p) for p in pngs))
    print(f"\nshowcase finished in {time.perf_counter() - start:.0f} s")
    if failed:
        raise SystemExit(1)
    return results


if __name__ == "__main__":
    main()
