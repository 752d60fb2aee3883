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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from agent_zoo.push_fold.hands import NUM_CLASSES, hand_classes
from agent_zoo.regret import binary_instant_regrets, regret_matching, update_regrets
from poker_envs.games.push_fold import PushFoldConfig, PushFoldState, settle
from poker_envs.vector.sampling import distinct_cards

Evaluator = Callable[[np.ndarray], np.ndarray]
METHODS = ("auto", "tables", "sampled", "deals")


@dataclass(frozen=True)
class MultiwayConfig:
    """One multi-way setting, the game CFR+ solves and the out-of-sample check."""

    num_players: int = 3  # seats, 2..6 (the last two are the blinds)
    stack_bb: float = 10.0  # every seat's stack, blind and ante included
    ante_bb: float = 0.0  # ante per seat
    rake: float = 0.0  # fraction of called pots raked
    rake_cap_bb: float | None = None  # largest rake per hand, None = no cap
    deals: int = 100_000  # method "deals": the fixed sample defining the game; "sampled": fresh deals per iteration
    iterations: int = 1000  # CFR+ iterations
    check_every: int = 100  # iterations between NashConv measurements (on the solved game)
    seed: int = 0  # seed of the sampled deals (training deals or the three-way table's deals)
    method: str = "auto"  # "tables" (2-3 players), "sampled" (fresh deals each iteration), "deals" (fixed sample), "auto"
    table_deals: int = 40_000_000  # method "tables": deals averaged into the three-way all-in table
    eval_deals: int = 1_000_000  # fresh deals for the out-of-sample NashConv (0 = skip it)

    def __post_init__(self) -> None:
        self.game_config()
        if self.deals < 1000:
            raise ValueError(f"deals must be at least 1000, got {self.deals}")
        if self.iterations < 1 or self.check_every < 1:
            raise ValueError("iterations and check_every must be positive")
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(map(repr, METHODS))}, got {self.method!r}")
        if self.method == "tables" and self.num_players > 3:
            raise ValueError(f"method 'tables' supports 2 or 3 players, got {self.num_players}")
        if self.table_deals < 0 or self.eval_deals < 0 or (0 < self.eval_deals < 2000):
            raise ValueError("table_deals must be >= 0 and eval_deals 0 or at least 2000")

    @property
    def resolved_method(self) -> str:
        """The method used: "auto" means class-level tables up to three players, fresh deals beyond."""
        if self.method != "auto":
            return self.method
        return "tables" if self.num_players <= 3 else "sampled"

    def game_config(self) -> PushFoldConfig:
        return PushFoldConfig(self.num_players, self.stack_bb, self.ante_bb, self.rake, self.rake_cap_bb)


@dataclass(frozen=True)
class DealSample:
    """Sampled deals: each seat's hand class and seven-card strength (larger is better)."""

    classes: np.ndarray = field(repr=False)  # (D, n)
    strengths: np.ndarray = field(repr=False)  # (D, n)


def sample_deals(num_players: int, deals: int, rng: np.random.Generator, evaluate_batch: Evaluator) -> DealSample:
    """Draw ``deals`` deals without card clashes and evaluate every hand against its board."""
    n = num_players
    cards = distinct_cards(rng, deals, 2 * n + 5)
    hole = cards[:, : 2 * n].reshape(deals, n, 2)
    board = cards[:, 2 * n :]
    seven = np.concatenate([hole, np.broadcast_to(board[:, None, :], (deals, n, 5))], axis=2).reshape(-1, 7)
    strengths = np.asarray(evaluate_batch(seven)).astype(np.int64).reshape(deals, n)
    return DealSample(hand_classes(hole[..., 0], hole[..., 1]), strengths)


@dataclass(frozen=True)
class _Profile:
    actions: tuple[int, ...]  # per seat: 0 fold, 1 all-in, -1 did not act (the big blind after all folds)
    prefixes: tuple[int, ...]  # per seat: the earlier seats' actions as bits (information set index)
    live: np.ndarray  # seats that may win the pot
    contributions: tuple[float, ...]  # big blinds each seat put in (blinds, antes, all-ins)


def _profiles(config: PushFoldConfig) -> list[_Profile]:
    """Every betting sequence, walked through the rules' ``PushFoldState`` (who acts, what they put in)."""
    n = config.num_players
    dealt = PushFoldState(config)
    for card in range(2 * n):  # any distinct hole cards: the betting does not depend on them
        dealt.apply(card)
    out = []
    stack = [dealt]
    while stack:
        state = stack.pop()
        if state.current_player() >= 0:
            stack.extend(state.child(a) for a in reversed(state.legal_actions()))
            continue
        acts = tuple(state.actions) + (-1,) * (n - len(state.actions))
        prefixes = tuple(sum(a << k for k, a in enumerate(acts[:s])) for s in range(n))
        out.append(_Profile(acts, prefixes, np.array(state.live()), tuple(state.contributions)))
    return out


def terminal_payoffs(config: PushFoldConfig, profiles: list[_Profile], sample: DealSample) -> list[np.ndarray]:
    """Per profile, every seat's result on every deal, from the rules' ``settle``."""
    n = config.num_players
    out = []
    for prof in profiles:
        seats = np.flatnonzero(prof.live)
        if len(seats) == 1:  # everybody else folded: the same result on every deal
            pay = settle(config, prof.contributions, list(prof.live), None)
            out.append(np.broadcast_to(np.asarray(pay, dtype=float), (len(sample.strengths), n)))
            continue
        live_strengths = sample.strengths[:, seats]
        best = live_strengths == live_strengths.max(axis=1, keepdims=True)
        winners = np.zeros(len(best), dtype=np.intp)  # the winning live seats as bits over ``seats``
        for k in range(len(seats)):
            winners |= best[:, k].astype(np.intp) << k
        table = np.zeros((1 << len(seats), n))
        for mask in range(1, 1 << len(seats)):
            strengths = [0] * n
            for k, s in enumerate(seats):
                strengths[s] = (mask >> k) & 1
            table[mask] = settle(config, prof.contributions, list(prof.live), strengths)
        out.append(table[winners])  # (D, n)
    return out


def _factors(profiles: list[_Profile], strategy: list[np.ndarray], classes: np.ndarray) -> list[list[np.ndarray | None]]:
    """Per profile and seat, the probability (per deal) that the seat took the profile's action."""
    out = []
    seen: dict[tuple[int, int, int], np.ndarray] = {}  # profiles share decisions: gather each once
    for prof in profiles:
        row: list[np.ndarray | None] = []
        for s, a in enumerate(prof.actions):
            if a == -1:
                row.append(None)
                continue
            key = (s, prof.prefixes[s], a)
            if key not in seen:
                p = strategy[s][prof.prefixes[s], classes[:, s]]
                seen[key] = p if a == 1 else 1.0 - p
            row.append(seen[key])
        out.append(row)
    return out


def others_reach(factors: list[np.ndarray | None]) -> list[np.ndarray | float]:
    """Per seat, the product of the other seats' factors (1.0 if none), by prefix and suffix products
    (no division, so pure strategies' zeros are fine)."""
    n = len(factors)
    prefix: list[np.ndarray | float] = [1.0]
    for f in factors[:-1]:
        prefix.append(prefix[-1] if f is None else prefix[-1] * f)
    out: list[np.ndarray | float] = [1.0] * n
    suffix: np.ndarray | float = 1.0
    for s in range(n - 1, -1, -1):
        out[s] = prefix[s] * suffix
        if factors[s] is not None:
            suffix = suffix * factors[s]
    return out


def sample_values(profiles: list[_Profile], strategy: list[np.ndarray], sample: DealSample,
                  payoffs: list[np.ndarray]) -> list[np.ndarray]:  # fmt: skip
    """Counterfactual values ``v[s][prefix, action, class]`` summed over the deals (not divided by D)."""
    n = sample.classes.shape[1]
    values = [np.zeros((1 << s, 2, NUM_CLASSES)) for s in range(n)]
    weights: dict[tuple[int, int, int], np.ndarray] = {}  # per decision and action, summed over profiles
    for prof, pay, factors in zip(profiles, payoffs, _factors(profiles, strategy, sample.classes)):
        reach = others_reach(factors)
        for s, a in enumerate(prof.actions):
            if a == -1:
                continue
            key = (s, prof.prefixes[s], a)
            others = pay[:, s] * reach[s]
            weights[key] = weights[key] + others if key in weights else others
    for (s, prefix, a), w in weights.items():
        values[s][prefix, a] = np.bincount(sample.classes[:, s], weights=w, minlength=NUM_CLASSES)
    return values


def acting_prefixes(profiles: list[_Profile], s: int) -> np.ndarray:
    """Prefixes at which seat s acts (by the rules, the big blind does not act after all folds)."""
    acts = np.zeros(1 << s, dtype=bool)
    for prof in profiles:
        if prof.actions[s] >= 0:
            acts[prof.prefixes[s]] = True
    return acts


def best_response_gains(profiles: list[_Profile], strategy: list[np.ndarray], values: list[np.ndarray]) -> list[float]:
    """Each seat's gain from switching to a best response, given the counterfactual values (same units)."""
    gains = []
    for s in range(len(strategy)):
        acting = acting_prefixes(profiles, s)
        v, sig = values[s][acting], strategy[s][acting]
        current = sig * v[:, 1] + (1 - sig) * v[:, 0]
        gains.append(max(0.0, float((np.maximum(v[:, 0], v[:, 1]) - current).sum())))
    return gains


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
        self.profiles = _profiles(self.game)
        self.method = config.resolved_method
        self.table_cache = table_cache
        started = time.perf_counter()
        if self.method == "tables":
            from agent_zoo.push_fold.class_game import ClassLevelGame

            self.tables = ClassLevelGame(self.game, self.profiles, config.table_deals, config.seed, evaluate_batch,
                                         cache_dir=table_cache, progress=progress, three_way=three_way)  # fmt: skip
        else:
            self.sample = sample_deals(self.n, config.deals, np.random.default_rng(config.seed), evaluate_batch)
            self.payoffs = terminal_payoffs(self.game, self.profiles, self.sample)
        self.setup_seconds = time.perf_counter() - started

    def _values(self, strategy: list[np.ndarray]) -> list[np.ndarray]:
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
        gains = best_response_gains(self.profiles, strategy, self._values(strategy))
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
            values = self._fresh_values(strategy, t) if sampled else self._values(strategy)
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
            from agent_zoo.push_fold.out_of_sample import out_of_sample_nash_conv

            oos = out_of_sample_nash_conv(self.game, self.profiles, final, cfg.eval_deals, cfg.seed + 1_000_003,
                                          self.evaluate_batch)  # fmt: skip
            if self.method == "tables" and self.n == 3:
                # The class-level game again with a three-way table from independent deals: exact joint
                # and heads-up parts, fresh three-way noise (the tables' own approximations stay).
                from agent_zoo.push_fold.class_game import ClassLevelGame

                fresh = ClassLevelGame(self.game, self.profiles, cfg.table_deals, cfg.seed + 1_000_003, self.evaluate_batch,
                                       cache_dir=self.table_cache, progress=progress)  # fmt: skip
                oos["fresh_tables"] = float(sum(best_response_gains(self.profiles, final, fresh.values(final))))
        return MultiwayResult(cfg, self.method, final, conv, gains, curve, self.setup_seconds, solve_seconds, oos)


def decisions(num_players: int) -> list[tuple[int, int]]:
    """(seat, prefix) of every decision, seat by seat (the big blind does not act after all folds)."""
    return [(s, p) for s in range(num_players) for p in range(1 << s) if not (s == num_players - 1 and p == 0)]


@dataclass(frozen=True)
class MultiwayResult:
    """Average CFR+ strategy, its convergence on the solved game and its out-of-sample NashConv."""

    config: MultiwayConfig
    method: str  # "tables" or "deals": the game CFR+ solved
    strategy: list[np.ndarray] = field(repr=False)  # strategy[s][prefix, class]: push/call probability
    nash_conv: float | None  # in sample: on the solved game (tables or training deals), exact there, BB per hand; None for "sampled"
    seat_gains: list[float] | None  # each seat's best-response gain on the solved game (None for "sampled")
    curve: list[tuple[int, float]]  # (iteration, in-sample NashConv)
    setup_seconds: float  # building the tables or sampling and evaluating the training deals
    solve_seconds: float  # CFR+ iterations (with the in-sample checks)
    out_of_sample: dict[str, float] | None = None  # out_of_sample_nash_conv's figures, None if skipped

    @property
    def seconds(self) -> float:
        return self.setup_seconds + self.solve_seconds

    def push_range_pct(self, seat: int, prefix: int = 0) -> float:
        """Percent of hands seat ``seat`` goes all-in with after the earlier actions coded by ``prefix``."""
        from agent_zoo.push_fold.solver import range_percent

        return range_percent(self.strategy[seat][prefix])

    def ranges(self) -> dict[str, float]:
        """Every decision's range size in percent, keyed like "SB after BTN all-in" ("first in" if none)."""
        names = self.config.game_config().positions
        out = {}
        for s, prefix in decisions(self.config.num_players):
            before = ", ".join(f"{names[t]} {'all-in' if (prefix >> t) & 1 else 'fold'}" for t in range(s))
            out[f"{names[s]} after {before or 'nothing (first in)'}"] = self.push_range_pct(s, prefix)
        return out

    def as_dict(self) -> dict[str, object]:
        """The CLI's JSON object (BB per hand)."""
        cfg = self.config
        oos = self.out_of_sample or {}
        return {
            "players": cfg.num_players, "stack_bb": cfg.stack_bb, "ante_bb": cfg.ante_bb, "rake": cfg.rake,
            "rake_cap_bb": cfg.rake_cap_bb, "method": self.method, "seed": cfg.seed, "iterations": cfg.iterations,
            "deals": cfg.deals if self.method in ("deals", "sampled") else None,
            "table_deals": cfg.table_deals if self.method == "tables" and cfg.num_players == 3 else None,
            "nash_conv_in_sample": self.nash_conv,
            "nash_conv_out_of_sample": oos.get("nash_conv"),
            "nash_conv_out_of_sample_stderr": oos.get("nash_conv_stderr"),
            "nash_conv_out_of_sample_plugin": oos.get("plugin"),
            "nash_conv_fresh_tables": oos.get("fresh_tables"),
            "eval_deals": cfg.eval_deals,
            "ranges_pct": self.ranges(),
            "setup_seconds": self.setup_seconds, "solve_seconds": self.solve_seconds,
            "eval_seconds": oos.get("seconds"),
        }  # fmt: skip


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
        from agent_zoo.push_fold.chart import save_multiway_png

        save_multiway_png(result, chart_path(args.out, cfg))
    if not cli.emit_json(result.as_dict(), args.json):
        print(describe(result))


if __name__ == "__main__":
    main()
