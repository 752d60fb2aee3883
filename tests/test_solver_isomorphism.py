"""Suit isomorphism in the subgame solver: which boards are merged, and that merging changes no number.

A permutation of the suits that leaves the board and both ranges unchanged maps the game onto itself, so a board
it maps onto another is solved once. The checks: the counts of classes worked by hand, the card maps take every
board onto its representative, and a strategy profile of the merged solver, read on every board, has exactly the
best responses and value of the unmerged game (the best response is the exact one on both sides).
"""

from __future__ import annotations

import numpy as np
import pytest

from agent_zoo.solver.cfr import RangeCFR
from agent_zoo.solver.layout import CARD_MAPS, compile_tree, expand, orbits, symmetries
from agent_zoo.solver.ranges import parse_range
from agent_zoo.solver.solve import solve, to_json
from agent_zoo.solver.spot import Spot, StreetSizes
from agent_zoo.solver.tree import build_tree
from poker_envs.core.cards import cards_from_str

PLAN = StreetSizes(bet=("0.5",), allin=True)
SYMMETRIC = (parse_range("AQ,JT,99,54s"), parse_range("KK,QJs,A2s,87s"))


def _spot(board: str, ranges: tuple[np.ndarray, np.ndarray] = SYMMETRIC, pot: int = 20, stack: int = 40) -> Spot:
    cards = tuple(cards_from_str(board))
    streets = ("flop", "turn", "river")[len(cards) - 3:]
    return Spot(board=cards, pot=pot, stack=stack, ranges=ranges, sizes={(p, s): PLAN for p in (0, 1) for s in streets})


@pytest.mark.parametrize(
    "board, ranges, counts",
    [
        # Two suits absent (diamonds, clubs): 12 spades + 11 hearts + 13 for both others = 36 turns; after a spade
        # or heart turn diamonds and clubs are still alike (48 - 13 = 35 rivers), after a diamond they are not:
        # 23 x 35 + 13 x 48 = 1,429.
        ("Qs Jh 2h", SYMMETRIC, [1, 36, 1429]),
        # Monotone: the three other suits are alike: 10 hearts + 13 ranks of the rest = 23 turns.
        ("Ah 7h 2h", SYMMETRIC, [1, 23, None]),
        # Rainbow with three suits: only clubs is absent, nothing to merge.
        ("Qs Jh 8d 2h", SYMMETRIC, [1, 48]),
        # One holding named by its suits breaks the symmetry between diamonds and clubs.
        ("Qs Jh 2h", (SYMMETRIC[0] + parse_range("AdKd"), SYMMETRIC[1]), [1, 49, 2352]),
    ],
)
def test_classes_counted_by_hand(board: str, ranges: tuple[np.ndarray, np.ndarray], counts: list[int | None]) -> None:
    layout = compile_tree(build_tree(_spot(board, ranges)))
    for street, count in zip(layout.streets, counts):
        if count is not None:
            assert len(street.boards) == count
    plain = compile_tree(build_tree(_spot(board, ranges)), isomorphism=False)
    assert [len(s.boards) for s in plain.streets] == ([1, 49, 2352] if len(plain.streets) == 3 else [1, 48])


def test_symmetries_fix_board_and_ranges() -> None:
    spot = _spot("Ah 7h 2h")
    found = symmetries(spot)
    assert len(found) == 6  # every permutation of spades, diamonds and clubs; hearts stays
    assert found[0] == 0 and np.array_equal(CARD_MAPS[0], np.arange(52))
    for g in found:
        assert sorted(CARD_MAPS[g][list(spot.board)]) == sorted(spot.board)


def test_card_maps_take_every_board_onto_its_representative() -> None:
    layout = compile_tree(build_tree(_spot("Qs Jh 2h")))
    plain = compile_tree(build_tree(_spot("Qs Jh 2h")), isomorphism=False)
    for k in (1, 2):
        full, rep, maps = orbits(layout, k)
        assert np.array_equal(full, plain.streets[k].boards)  # every board, in the unmerged order
        for row, r, card_map in zip(full, rep, maps):
            assert sorted(card_map[row]) == sorted(layout.streets[k].boards[r])


@pytest.mark.parametrize("board", ["Qs Jh 2h", "Qs Jh 2h 8h"])
def test_merged_profile_has_the_unmerged_games_exact_values(board: str) -> None:
    """The merged solver's average strategies after a few iterations (far from equilibrium, so best responses
    differ from the profile), read on every board, evaluated by the unmerged solver: the same best responses and
    value to rounding."""
    tree = build_tree(_spot(board))
    merged, plain = RangeCFR(tree), RangeCFR(tree, isomorphism=False)
    assert len(merged.layout.streets[-1].boards) < len(plain.layout.streets[-1].boards)
    merged.iterate(4)
    for p in (0, 1):
        plain.average[p] = [expand(merged.layout, k, p, s) for k, s in enumerate(merged.average_strategy(p))]
    a, b = merged.exploitability(), plain.exploitability()
    assert a.nash_conv > 0.1  # not yet an equilibrium: the best responses have something to find
    np.testing.assert_allclose(a.best_response, b.best_response, rtol=1e-12, atol=1e-12)
    assert a.value == pytest.approx(b.value, rel=1e-12, abs=1e-12)


def test_merged_and_unmerged_solves_reach_the_same_value() -> None:
    spot = _spot("Qs Jh 2h 8h", pot=20, stack=30)
    merged, log_m = solve(spot, accuracy=0.05, max_iterations=2000)
    plain, log_p = solve(spot, accuracy=0.05, max_iterations=2000, isomorphism=False)
    assert log_m.exploitability_pct <= 0.05 and log_p.exploitability_pct <= 0.05
    # a profile's value is within its NashConv (2 x pct / 100 x pot chips) of the game value
    bound = 2 * (log_m.exploitability_pct + log_p.exploitability_pct) / 100 * spot.pot
    assert abs(log_m.value_oop - log_p.value_oop) <= bound


def test_isomorphism_must_be_a_bool() -> None:
    with pytest.raises(ValueError, match="isomorphism"):
        compile_tree(build_tree(_spot("Qs Jh 2h 8h")), isomorphism="yes")  # type: ignore[arg-type]


def test_json_lists_every_turn_card_and_mirrors_the_merged_ones() -> None:
    """The dump covers all 49 turn cards; a club turn reads the diamond turn's strategy with the suits swapped."""
    spot = _spot("Qs Jh 2h")
    cfr, log = solve(spot, accuracy=50.0, max_iterations=3)
    data = to_json(cfr, log, streets=2)
    turn_nodes = [n for n in data["nodes"] if any(key for key in n["boards"])]
    assert turn_nodes
    swap = str.maketrans("dc", "cd")
    for node in turn_nodes:
        assert len(node["boards"]) == 49
        for card in ("7c", "Ac"):
            mine, twin = node["boards"][card], node["boards"][card.translate(swap)]
            assert len(mine["strategy"]) == len(twin["strategy"]) > 0
            for name, mix in mine["strategy"].items():
                swapped = name.translate(swap)
                twin_name = swapped if swapped in twin["strategy"] else swapped[2:] + swapped[:2]
                assert mix == twin["strategy"][twin_name]
