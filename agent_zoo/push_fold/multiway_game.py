"""The multi-way push/fold game and what a solution of it is: its configuration, betting sequences, deal
samples, counterfactual values, best-response gains and the result type.

Everything here is shared by the solver (``multiway``), the class-level tables (``class_game``), the
out-of-sample NashConv (``out_of_sample``) and the charts (``chart``), which all import this module and
never each other the other way round.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from agent_zoo.push_fold.hands import NUM_CLASSES, hand_classes
from agent_zoo.push_fold.solver import range_percent
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
class Profile:
    """One betting sequence of the game (a terminal node up to the cards): who did what and who put in what."""

    actions: tuple[int, ...]  # per seat: 0 fold, 1 all-in, -1 did not act (the big blind after all folds)
    prefixes: tuple[int, ...]  # per seat: the earlier seats' actions as bits (information set index)
    live: np.ndarray  # seats that may win the pot
    contributions: tuple[float, ...]  # big blinds each seat put in (blinds, antes, all-ins)


def betting_profiles(config: PushFoldConfig) -> list[Profile]:
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
        out.append(Profile(acts, prefixes, np.array(state.live()), tuple(state.contributions)))
    return out


def terminal_payoffs(config: PushFoldConfig, profiles: list[Profile], sample: DealSample) -> list[np.ndarray]:
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


def action_factors(profiles: list[Profile], strategy: list[np.ndarray], classes: np.ndarray) -> list[list[np.ndarray | None]]:
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


def sample_values(profiles: list[Profile], strategy: list[np.ndarray], sample: DealSample,
                  payoffs: list[np.ndarray]) -> list[np.ndarray]:  # fmt: skip
    """Counterfactual values ``v[s][prefix, action, class]`` summed over the deals (not divided by D)."""
    n = sample.classes.shape[1]
    values = [np.zeros((1 << s, 2, NUM_CLASSES)) for s in range(n)]
    weights: dict[tuple[int, int, int], np.ndarray] = {}  # per decision and action, summed over profiles
    for prof, pay, factors in zip(profiles, payoffs, action_factors(profiles, strategy, sample.classes)):
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


def acting_prefixes(profiles: list[Profile], s: int) -> np.ndarray:
    """Prefixes at which seat s acts (by the rules, the big blind does not act after all folds)."""
    acts = np.zeros(1 << s, dtype=bool)
    for prof in profiles:
        if prof.actions[s] >= 0:
            acts[prof.prefixes[s]] = True
    return acts


def best_response_gains(profiles: list[Profile], strategy: list[np.ndarray], values: list[np.ndarray]) -> list[float]:
    """Each seat's gain from switching to a best response, given the counterfactual values (same units)."""
    gains = []
    for s in range(len(strategy)):
        acting = acting_prefixes(profiles, s)
        v, sig = values[s][acting], strategy[s][acting]
        current = sig * v[:, 1] + (1 - sig) * v[:, 0]
        gains.append(max(0.0, float((np.maximum(v[:, 0], v[:, 1]) - current).sum())))
    return gains


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
