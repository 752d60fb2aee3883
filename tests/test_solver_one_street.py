"""The river spots' whole-tree iteration (``agent_zoo.solver.one_street``) against the general passes: the same
regrets, average strategies and best responses, on trees with folds, raises, all-ins and donk-free menus."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agent_zoo.solver import one_street
from agent_zoo.solver.cfr import RangeCFR
from agent_zoo.solver.commands import load_commands
from agent_zoo.solver.passes import make_tables
from agent_zoo.solver.ranges import parse_range
from agent_zoo.solver.spot import Conventions, Spot, StreetSizes
from agent_zoo.solver.tree import build_tree
from poker_envs.core.cards import cards_from_str

SPOTS = Path(__file__).resolve().parents[1] / "agent_zoo" / "solver" / "spots"
RIVER = tuple(cards_from_str("Qs Jh 2h 8d 3c"))


def _spots() -> list[Spot]:
    """River spots of several shapes: the benchmark's, a narrow one, one with a single size and no all-in, a deep
    one with several raises, and one where both ranges hold the same combos (blockers on every pair)."""
    wide = StreetSizes(bet=("0.33", "0.75"), raise_=("0.6",), allin=True)
    single = StreetSizes(bet=("0.5",))
    deep = StreetSizes(bet=("0.5", "1"), raise_=("0.5", "1"), allin=True)
    make = lambda r0, r1, plan, stack=200, conv=Conventions.RULES: Spot(  # noqa: E731
        board=RIVER, pot=100, stack=stack, ranges=(parse_range(r0), parse_range(r1)),
        sizes={(p, "river"): plan for p in (0, 1)}, conventions=conv)
    return [
        load_commands(SPOTS / "river.txt", conventions=Conventions.TEXASSOLVER).spot,
        make("AK,QT,99", "KK,J9s,44", wide),
        make("22+,A2s+", "55+,AT+,KQ", single, conv=Conventions.TEXASSOLVER),
        make("QQ+,AKs,T9s,54s", "JJ+,AQ,76s:0.5", deep, stack=1000),
        make("TT+,AQ+", "TT+,AQ+", wide),
    ]


def _pair(spot: Spot, dtype: str = "float64") -> tuple[RangeCFR, RangeCFR]:
    fast = RangeCFR(build_tree(spot), "dcfr", dtype=dtype)
    general = RangeCFR(build_tree(spot), "dcfr", dtype=dtype)
    general.one_street = None
    assert fast.one_street is not None
    return fast, general


@pytest.mark.parametrize("index", range(5))
@pytest.mark.parametrize("algorithm", ["dcfr", "cfr+"])
def test_the_whole_tree_iteration_equals_the_general_passes(index: int, algorithm: str) -> None:
    spot = _spots()[index]
    fast = RangeCFR(build_tree(spot), algorithm)
    general = RangeCFR(build_tree(spot), algorithm)
    general.one_street = None
    for step in (1, 6, 23):
        fast.iterate(step)
        general.iterate(step)
        for p in (0, 1):
            scale = max(1.0, float(np.abs(general.regrets[p][0]).max()))
            np.testing.assert_allclose(fast.regrets[p][0], general.regrets[p][0], rtol=1e-9, atol=1e-10 * scale)
            np.testing.assert_allclose(fast.average[p][0], general.average[p][0], rtol=1e-9, atol=1e-12)
        # best responses against the average strategies: the level-by-level maximum equals the general pass's
        np.testing.assert_allclose(fast.best_responses(), general.best_responses(), rtol=1e-10, atol=1e-10)


def test_float32_stays_close_to_float64() -> None:
    spot = _spots()[0]
    fast32, _ = _pair(spot, "float32")
    fast64, _ = _pair(spot, "float64")
    fast32.iterate(40)
    fast64.iterate(40)
    assert fast32.regrets[0][0].dtype == np.float32
    np.testing.assert_allclose(fast32.best_responses(), fast64.best_responses(), rtol=1e-4, atol=1e-3)


def test_only_river_spots_use_it() -> None:
    turn = Spot(board=RIVER[:4], pot=100, stack=200, ranges=(parse_range("AK,QT"), parse_range("KK,J9s")),
                sizes={(p, s): StreetSizes(bet=("0.5",)) for p in (0, 1) for s in ("turn", "river")})
    cfr = RangeCFR(build_tree(turn))
    assert cfr.one_street is None
    with pytest.raises(ValueError, match="one street and one board"):
        one_street.kernel(cfr.layout, cfr.tables, np.dtype("float64"))
    river = RangeCFR(build_tree(_spots()[1]))
    sorted_tables = make_tables(river.layout, dense_limit=0)  # showdowns by sorted sums: the general passes
    assert not one_street.applies(river.layout, sorted_tables)


def test_paths_are_read_as_worked_by_hand() -> None:
    """The single-size tree (bet 50%, no raise): OOP checks or bets; IP checks, bets, folds or calls; OOP then folds
    or calls. OOP's slots: check/bet at the root, fold/call facing IP's bet. Its value after 'check' sums the
    showdown after check-check and what follows IP's bet (OOP's own later choice weighted by its policy)."""
    spot = _spots()[2]
    cfr = RangeCFR(build_tree(spot))
    kn = cfr.one_street
    assert kn is not None
    oop, ip = kn.players
    assert len(oop.same_decision) == 4 and len(ip.same_decision) == 4  # two decisions of two actions each
    np.testing.assert_array_equal(oop.uniform.ravel(), [0.5] * 4)
    # every terminal lies under exactly one of the root's two slots: the root's pairs cover the terminals once
    root_slots = np.flatnonzero(oop.same_decision[0])
    covered = np.concatenate([oop.pair_terminal[oop.pair_sum[s] > 0] for s in root_slots])
    assert sorted(covered.tolist()) == list(range(kn.num_folds + len(cfr.layout.streets[0].showdown_nodes)))
    # terminals: 2 folds (IP folds to OOP's bet, OOP folds to IP's bet) and 3 showdowns
    assert kn.num_folds == 2 and oop.terminal_weights.shape[0] == 5
