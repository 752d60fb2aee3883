"""Push/fold with three or more players: CFR+ on the class-level game (2-3 players), CFR on fresh deals.

The next step the push-or-fold blog post proposes ("3 players and more"). Seats act once each in order
(fold or all-in), the big blind only if somebody pushed. An information set is (seat, the earlier seats'
actions, own hand class). The betting sequences (who acts, what each seat puts in) are walked through the
rules' ``PushFoldState`` and terminal results come from the rules module's ``settle`` (pots, rake).
Full-width CFR runs over every betting sequence, with one of three sources of values:

* ``method="tables"`` (2-3 players, ``class_game.py``): the game over the seats' hand classes, with the
  exact class distribution, exact heads-up showdowns and a three-way all-in table averaged over many
  deals. It does not overfit a deal sample (with two players it is exactly the heads-up game);
* ``method="sampled"`` (any table size, the default beyond three players): every iteration draws its own
  ``deals`` fresh deals, so the values are unbiased estimates of the real game's and the average
  strategy converges to the real game's (plain regret matching: CFR+'s floor would keep the noise);
* ``method="deals"`` (any table size): ``deals`` complete deals drawn once; the expected payoffs over the
  sample replace the exact ones. CFR+ fits that sample, so its in-sample NashConv is optimistic.

With three or more players this is a CFR approximation of *an* equilibrium: such games have many Nash
equilibria and CFR is not guaranteed to converge to one. NashConv (the sum of every seat's best-response
gain, BB per hand) is reported in sample (on the solved game) and out of sample on fresh deals
(``out_of_sample.py``: best responses chosen on one half of the deals and scored on the other).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from agent_zoo.push_fold.chart import save_multiway_png
from agent_zoo.push_fold.class_game import ClassLevelGame
from agent_zoo.push_fold.hands import NUM_CLASSES
from agent_zoo.push_fold.multiway_game import (
    METHODS,
    Evaluator,
    MultiwayConfig,
    MultiwayResult,
    best_response_gains,
    betting_profiles,
    sample_deals,
    sample_values,
    terminal_payoffs,
)
from agent_zoo.push_fold.out_of_sample import out_of_sample_nash_conv
from agent_zoo.regret import binary_instant_regrets, regret_matching, update_regrets


class MultiwayPushFoldSolver:
    """Full-width CFR+ over every action profile, on class-level tables (2-3 players) or sampled deals."""

    def __init__(self, config: MultiwayConfig, evaluate_batch: Evaluator | None = None,
                 table_cache: str | Path | None = None, progress: bool = False, three_way: np.ndarray | None = None) -> None:  # fmt: skip
        """``table_cache``: a folder where three-way tables are stored and read back (method "tables");
        ``three_way``: outcome counts to use instead of building the table (``class_game.three_way_counts``)."""
        if evaluate_batch is None:
            from poker_envs.core.evaluator import evaluate_batch
        self.config = config
        self.evaluate_batch = evaluate_batch
        self.n = config.num_players
        self.game = config.game_config()
        self.profiles = betting_profiles(self.game)
        self.method = config.resolved_method
        self.table_cache = table_cache
        started = time.perf_counter()
        if self.method == "tables":
            self.tables = ClassLevelGame(self.game, self.profiles, config.table_deals, config.seed, evaluate_batch,
                                         cache_dir=table_cache, progress=progress, three_way=three_way)  # fmt: skip
        else:
            self.sample = sample_deals(self.n, config.deals, np.random.default_rng(config.seed), evaluate_batch)
            self.payoffs = terminal_payoffs(self.game, self.profiles, self.sample)
        self.setup_seconds = time.perf_counter() - started

    def values(self, strategy: list[np.ndarray]) -> list[np.ndarray]:
        """Counterfactual values on the solved game, in BB per hand."""
        if self.method == "tables":
            return self.tables.values(strategy)
        if self.method == "sampled":
            raise ValueError("method 'sampled' solves no fixed game: measure it on fresh deals (out_of_sample_nash_conv)")
        d = len(self.sample.classes)
        return [v / d for v in sample_values(self.profiles, strategy, self.sample, self.payoffs)]

    def _fresh_values(self, strategy: list[np.ndarray], t: int) -> list[np.ndarray]:
        """Counterfactual values on ``deals`` fresh deals from the stream (seed, t): an unbiased estimate
        of the real game's values, so the iterations average the deal noise away instead of fitting it."""
        cfg = self.config
        sample = sample_deals(self.n, cfg.deals, np.random.default_rng([cfg.seed, t]), self.evaluate_batch)
        payoffs = terminal_payoffs(self.game, self.profiles, sample)
        return [v / cfg.deals for v in sample_values(self.profiles, strategy, sample, payoffs)]

    def nash_conv(self, strategy: list[np.ndarray]) -> tuple[float, list[float]]:
        """Sum of the seats' best-response gains (BB per hand) on the solved game (in sample)."""
        gains = best_response_gains(self.profiles, strategy, self.values(strategy))
        return float(sum(gains)), gains

    def solve(self, progress: bool = False) -> MultiwayResult:
        cfg = self.config
        started = time.perf_counter()
        regrets = [np.zeros((1 << s, 2, NUM_CLASSES)) for s in range(self.n)]
        strategy = [np.full((1 << s, NUM_CLASSES), 0.5) for s in range(self.n)]
        avg = [np.zeros((1 << s, NUM_CLASSES)) for s in range(self.n)]
        weight = 0.0
        curve: list[tuple[int, float]] = []
        steps = range(1, cfg.iterations + 1)
        if progress:
            from tqdm import tqdm

            steps = tqdm(steps, desc=f"multi-way CFR+ ({self.n} players, {self.method})", unit="it")
        sampled = self.method == "sampled"
        for t in steps:
            values = self._fresh_values(strategy, t) if sampled else self.values(strategy)
            for s in range(self.n):
                v = values[s]
                gain = v[:, 1] - v[:, 0]
                instant = binary_instant_regrets(strategy[s], gain, axis=1)
                # CFR+ floors regrets at zero, which keeps the noise of sampled values (heads-up, 300
                # iterations of 20k fresh deals: exact NashConv 0.018 against 0.0016 without the floor)
                update_regrets(regrets[s], instant, plus=not sampled)
                strategy[s] = regret_matching(regrets[s], axis=1)[:, 1]
                avg[s] += t * strategy[s]
            weight += t
            if not sampled and (t % cfg.check_every == 0 or t == cfg.iterations):
                curve.append((t, self.nash_conv([a / weight for a in avg])[0]))
        final = [a / weight for a in avg]
        conv, gains = (None, None) if sampled else self.nash_conv(final)
        solve_seconds = time.perf_counter() - started
        oos = None
        if cfg.eval_deals:
            oos = out_of_sample_nash_conv(self.game, self.profiles, final, cfg.eval_deals, cfg.seed + 1_000_003,
                                          self.evaluate_batch)  # fmt: skip
            if self.method == "tables" and self.n == 3:
                # The class-level game again with a three-way table from independent deals: exact joint
                # and heads-up parts, fresh three-way noise (the tables' own approximations stay).
                fresh = ClassLevelGame(self.game, self.profiles, cfg.table_deals, cfg.seed + 1_000_003, self.evaluate_batch,
                                       cache_dir=self.table_cache, progress=progress)  # fmt: skip
                oos["fresh_tables"] = float(sum(best_response_gains(self.profiles, final, fresh.values(final))))
        return MultiwayResult(cfg, self.method, final, conv, gains, curve, self.setup_seconds, solve_seconds, oos)


def describe(result: MultiwayResult) -> str:
    """Ranges per seat and earlier actions, and the convergence figures, as text."""
    cfg = result.config
    game = {"tables": f"class-level tables ({cfg.table_deals:,} deals in the three-way table)",
            "sampled": f"{cfg.deals:,} fresh deals per iteration",
            "deals": f"{cfg.deals:,} sampled deals"}[result.method]  # fmt: skip
    lines = [
        f"{cfg.num_players}-player push/fold, stack {cfg.stack_bb:g} BB, ante {cfg.ante_bb:g} BB: CFR+ on {game} "
        "(an approximation of one equilibrium, not a unique Nash equilibrium)"
    ]
    lines += [f"  {k}: {v:5.1f}% of hands" for k, v in result.ranges().items()]
    if result.nash_conv is not None:
        lines.append("  in-sample NashConv (on the solved game) by iteration: "
                     + ", ".join(f"{t}: {c:.2e}" for t, c in result.curve))  # fmt: skip
        lines.append(f"  in-sample NashConv {result.nash_conv:.2e} BB/hand (per seat "
                     f"{', '.join(f'{g:.1e}' for g in result.seat_gains or [])})")  # fmt: skip
    oos = result.out_of_sample
    if oos:
        lines.append(
            f"  out-of-sample NashConv {oos['nash_conv']:.4f} +- {oos['nash_conv_stderr']:.4f} BB/hand on "
            f"{cfg.eval_deals:,} fresh deals (best responses chosen on one half, scored on the other); "
            f"plug-in (upward biased) {oos['plugin']:.4f}"
            + (f"; on class-level tables with a fresh three-way table {oos['fresh_tables']:.2e}" if "fresh_tables" in oos else "")
        )
    lines.append(f"  setup {result.setup_seconds:.1f} s, CFR+ {result.solve_seconds:.1f} s"
                 + (f", evaluation {oos['seconds']:.1f} s" if oos else ""))  # fmt: skip
    return "\n".join(lines)


def chart_path(out: str | Path, config: MultiwayConfig) -> Path:
    """Where ``--out DIR`` puts the per-seat charts of one setting."""
    from agent_zoo import cli

    return cli.out_dir(out) / f"push_fold_{config.num_players}p_{config.stack_bb:g}bb_ante{config.ante_bb:g}.png"


def build_parser() -> argparse.ArgumentParser:
    from agent_zoo import cli

    parser = cli.parser("push_fold.multiway", "Multi-way push/fold by CFR+ on class-level tables (2-3 players) or sampled deals.")
    parser.add_argument("--players", type=int, default=3, help="players at the table (the button pushes first)")
    parser.add_argument("--stack", type=float, default=10.0, help="effective stack in BB, blind and ante included")
    parser.add_argument("--ante", type=float, default=0.0, help="ante per player in BB")
    parser.add_argument("--rake", type=float, default=0.0, help="fraction of a called pot raked, in [0, 1)")
    parser.add_argument("--rake-cap", type=float, default=None, help="largest rake per hand in BB (default: no cap)")
    parser.add_argument("--method", default="auto", choices=METHODS,
                        help="tables: class-level game (2-3 players); sampled: fresh deals every iteration; deals: one fixed sample; auto: tables up to 3 players, sampled beyond")
    parser.add_argument("--deals", type=int, default=100_000, help="method deals: the fixed sample; method sampled: fresh deals per iteration")
    parser.add_argument("--table-deals", type=int, default=40_000_000,
                        help="deals in the three-way all-in table (method tables; about 90 s per 40M on one core)")
    parser.add_argument("--eval-deals", type=int, default=1_000_000, help="fresh deals for the out-of-sample NashConv (0: skip)")
    parser.add_argument("--iterations", type=int, default=1000, help="CFR+ iterations")
    parser.add_argument("--check-every", type=int, default=100, help="iterations between in-sample NashConv checks")
    parser.add_argument("--table-cache", default=None,
                        help="folder to store and reuse three-way tables in (method tables; default: build every run)")
    cli.add_seed(parser, what="the sampled deals (training deals or the three-way table)")
    cli.add_out(parser, None, "the PNG of every seat's ranges (default: not saved)")
    cli.add_json(parser, "the solution's figures (ranges, in- and out-of-sample NashConv, seconds)")
    cli.add_progress(parser)
    return parser


def main(argv: list[str] | None = None) -> None:
    from agent_zoo import cli

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        cfg = MultiwayConfig(args.players, args.stack, args.ante, args.rake, args.rake_cap, args.deals,
                             args.iterations, args.check_every, args.seed, args.method, args.table_deals,
                             args.eval_deals)  # fmt: skip
    except (TypeError, ValueError) as err:
        parser.error(str(err))
    progress = not args.no_progress and args.json != cli.STDOUT
    result = MultiwayPushFoldSolver(cfg, table_cache=args.table_cache, progress=progress).solve(progress=progress)
    if args.out is not None:
        save_multiway_png(result, chart_path(args.out, cfg))
    if not cli.emit_json(result.as_dict(), args.json):
        print(describe(result))


if __name__ == "__main__":
    main()
