"""The re-solving agent's configuration: the bet-size plan of its solves, its knobs, and its registry spec.

See :mod:`agent_zoo.solver.agent` for what the agent does with them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from agent_zoo.solver.preflop import PreflopChart
from agent_zoo.solver.preflop_game import PreflopPlan
from agent_zoo.solver.spot import NO_SIZES, StreetSizes
from agent_zoo.solver.tree import Act

BOARD_AFTER = (0, 3, 4, 5)  # board cards seen in each betting round of hold'em
ALLIN_THRESHOLD = Fraction(2, 3)  # a bet or raise committing more than this share of the stack is all-in
AGGRESSIVE_ACTS = (Act.BET, Act.RAISE, Act.ALLIN)
PREFLOP_POLICIES = ("chart", "solved")


@dataclass(frozen=True)
class Plan:
    """The sizes of a solve that starts on one street: on that street, and on the streets after it in the tree."""

    first: StreetSizes
    later: StreetSizes
    raise_limit: int


_ALLIN_ONLY = StreetSizes(allin=True)
PLANS: Mapping[int, Plan] = MappingProxyType({
    1: Plan(StreetSizes(bet=(Fraction(1, 2),), allin=True), _ALLIN_ONLY, 2),  # flop, solved on sampled turn cards
    2: Plan(StreetSizes(bet=(Fraction(3, 4),), allin=True), _ALLIN_ONLY, 3),  # turn
    3: Plan(StreetSizes(bet=(Fraction(1, 3), Fraction(3, 4)), raise_=(Fraction(1),), allin=True), NO_SIZES, 3),  # river
})


@dataclass(frozen=True, kw_only=True)
class ResolveConfig:
    """How the agent solves and tracks ranges (module doc)."""

    seconds: float | None = 1.0  # wall-clock budget per decision; None: no clock, every solve runs max_iterations
    max_iterations: int = 1000  # iterations per solve at most (exactly this many when seconds is None)
    river_iterations: int | None = None  # the same for a solve that starts on the river (None: max_iterations)
    flop_samples: int = 1  # turn cards a flop decision is solved on
    catch_up_share: float = 0.35  # share of the budget a catch-up solve (the opponent's decision) may use
    epsilon: float = 0.02  # uniform share mixed into every strategy used in a range update
    prune: float = 1e-3  # holdings under this share of the range's largest weight are left out of a solve
    max_holdings: int = 200  # about this many holdings per player in a solve (thin_range samples larger ranges)
    seed: int = 0  # seeds the agent's own draws in tracking ranges (with the hand's history)
    measure: bool = True  # compute the exploitability of each decision's solve (counters); costs about 2 iterations
    # Solve from the public history only (the agent's own cards ignored until it reads its strategy): its own range is
    # solved whole (max_holdings thins the opponent's only), so one solve gives the strategy of every holding it may
    # hold, as local best response asks; several times the work of an iteration of the default.
    public: bool = False
    cache_size: int = 1024  # hand prefixes (ranges, solves) remembered
    chart: PreflopChart = field(default_factory=PreflopChart)
    # Pre-flop policy of both players: "solved" (the average strategy of the abstract pre-flop game of
    # agent_zoo.solver.preflop_game, CFR+ for preflop_iterations; the chart takes over when the hand leaves that
    # game's tree) or "chart" (the equity chart above; the default until 2026-11-29).
    preflop: str = "solved"
    preflop_plan: PreflopPlan = field(default_factory=PreflopPlan)
    preflop_iterations: int = 2000

    def __post_init__(self) -> None:
        if self.seconds is not None and (isinstance(self.seconds, bool) or not self.seconds > 0):
            raise ValueError(f"seconds must be a positive budget per decision or None (fixed iterations), got {self.seconds!r}")
        if self.preflop not in PREFLOP_POLICIES:
            raise ValueError(f"preflop must be one of {', '.join(PREFLOP_POLICIES)}, got {self.preflop!r}")
        for name in ("max_iterations", "river_iterations", "flop_samples", "max_holdings", "cache_size", "preflop_iterations"):
            value = getattr(self, name)
            if name == "river_iterations" and value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
        for name, low, high in (("catch_up_share", 0.0, 1.0), ("epsilon", 0.0, 1.0), ("prune", 0.0, 1.0)):
            value = getattr(self, name)
            if not low < value < high:
                raise ValueError(f"{name} must lie strictly between {low} and {high}, got {value!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {self.seed!r}")
        if not isinstance(self.public, bool):
            raise ValueError(f"public must be True or False, got {self.public!r}")


_SPEC_KEYS = {"iterations": "max_iterations", "river": "river_iterations", "seed": "seed", "holdings": "max_holdings",
              "samples": "flop_samples"}


def parse_resolve_arg(arg: str | None) -> ResolveConfig:
    """The spec's argument: ``SECONDS`` (budget per decision, default 1), ``iterations=N`` (no clock: exactly N
    iterations per solve, reproducible), or both comma-separated (a budget with N as the cap); also ``river=M``
    (``river_iterations``: M instead of N for a solve on the river, whose iterations cost a small share of the
    flop's and turn's), ``seed=S``, ``holdings=H`` (``max_holdings``), ``samples=K`` (``flop_samples``) and
    ``public=1`` (``public``: solves from the public history, one for every holding) and ``preflop=chart``
    (``preflop``: the equity chart instead of the solved abstract pre-flop game)."""
    if arg is None:
        return ResolveConfig()
    seconds: float | None = ResolveConfig.seconds
    values: dict[str, Any] = {}
    timed = False
    for item in arg.split(","):
        key, sep, value = item.strip().partition("=")
        try:
            if not sep:
                seconds, timed = float(key), True
            elif key == "public" and value in ("0", "1"):
                values["public"] = value == "1"
            elif key == "preflop" and value in PREFLOP_POLICIES:
                values["preflop"] = value
            elif key in _SPEC_KEYS:
                values[_SPEC_KEYS[key]] = int(value)
            else:
                raise ValueError
        except ValueError:
            raise ValueError(f"agent resolve:{arg}: expected SECONDS, iterations=N, river=M, seed=S, holdings=H, samples=K, "
                             f"public=0|1 or preflop=chart|solved (comma-separated), got {item!r}") from None
    if ("max_iterations" in values or "river_iterations" in values) and not timed:
        seconds = None
    try:
        return ResolveConfig(seconds=seconds, **values)
    except ValueError as exc:
        raise ValueError(f"agent resolve:{arg}: {exc}") from None

