"""The one settlement (poker_envs.core.settlement): hand-worked pots, odd chips, rake, dead money, and the
batched form against a plain per-hand reference on random tables."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from poker_envs.core.settlement import Pot, pots, settle, settle_batch


def test_side_pots_with_three_all_ins_and_uncalled_excess() -> None:
    # Seat 3 (100) all-in, called all-in by 30, 10 and 20 chips; seat 1 best, then 2, then 0, then 3.
    c, f = [30, 10, 20, 100], [False] * 4
    assert pots(c, f) == [Pot(40, (0, 1, 2, 3)), Pot(30, (0, 2, 3)), Pot(20, (0, 3)), Pot(70, (3,))]
    r = settle(c, f, [2, 4, 3, 1], button=0)
    assert r.collected == [20, 40, 30, 70]
    assert r.awards == [(40, (1,)), (30, (2,)), (20, (0,)), (70, (3,))]
    assert r.rake == 0


def test_everyone_folds_to_a_raise() -> None:
    # Blinds 1/2, seat 0 raises to 300, both blinds fold: the whole 303 is one single-seat pot.
    r = settle([300, 1, 2], [False, True, True], None, button=0)
    assert r.collected == [303, 0, 0] and r.awards == [(303, (0,))]


def test_per_pot_gives_nobody_two_odd_chips_from_one_pot() -> None:
    # Seat 3 folded after putting in 2; seats 0, 1, 2 tie for a pot of 17 = 5 * 3 + 2. Button seat 3.
    c, f, s = [5, 5, 5, 2], [False, False, False, True], [7, 7, 7, None]
    assert settle(c, f, s, button=3).collected == [6, 6, 5, 0]  # TDA: one odd chip each, from seat 0 on
    assert settle(c, f, s, button=3, odd_chips="pooled").collected == [7, 5, 5, 0]  # pokerkit: both to seat 0
    assert settle(c, f, s, button=0).collected == [5, 6, 6, 0]  # clockwise from the seat left of the button


def test_each_pot_split_on_its_own() -> None:
    # Seat 0 all-in for 5, seats 1 and 2 put in 10; seats 0 and 1 tie, seat 2 loses; button seat 2.
    # Main 15 (0,1): 7 + 7, odd chip to seat 0. Side 10 (1, 2): seat 1.
    r = settle([5, 10, 10], [False] * 3, [9, 9, 1], button=2)
    assert r.collected == [8, 17, 0] and r.awards == [(15, (0, 1)), (10, (1,))]
    # Seats 1 and 2 tie, seat 0 loses, main and side both split by seats 1 and 2; button seat 1, so
    # seat 2 is first left of it: main 15 -> 8 (seat 2) + 7, side 10 -> 5 + 5.
    assert settle([5, 10, 10], [False] * 3, [1, 9, 9], button=1).collected == [0, 12, 13]


def test_pooled_pools_pots_contested_by_the_same_remaining_hands() -> None:
    # Seats 0 and 1 tie, seat 2 loses; button seat 2, so seat 0 is first. One pot of 9: 5 + 4.
    c, f, s = [3, 3, 3], [False] * 3, [5, 5, 1]
    assert settle(c, f, s, button=2).collected == [5, 4, 0]
    # Main 9 (0, 1, 2) split 5 + 4, side 6 (1, 2) to seat 1 alone, seat 2's last chip is uncalled.
    c = [3, 6, 7]
    assert settle(c, f, s, button=2, odd_chips="pooled").collected == [5, 10, 1]


def test_heads_up_odd_chip_goes_to_the_big_blind() -> None:
    # Heads-up the button is the small blind, so the seat left of it (the big blind) gets the odd chip.
    assert settle([2, 2], [False, False], [4, 4], button=0, dead=1).collected == [2, 3]


def test_folded_money_above_every_live_seat() -> None:
    # Seats 0 and 1 folded after putting in 8; live seat 2 is all-in for 3. Layers: 3*3 live pot, then
    # 5*2 of folded money nobody live can match: it joins the top live pot (seat 2 takes 19).
    assert settle([8, 8, 3], [True, True, False], None, button=0).collected == [0, 0, 19]
    # A folded seat's own unmatched chips go back to it.
    assert settle([8, 4, 3], [True, True, False], None, button=0).collected == [4, 0, 11]


def test_dead_antes_pool_with_the_main_pot() -> None:
    # Dead antes 3 open to every live seat; seat 0 folded its 2, seats 1 and 2 put in 10, seat 1 wins.
    r = settle([2, 10, 10], [True, False, False], [None, 5, 4], button=0, dead=3)
    assert r.collected == [0, 25, 0] and r.awards == [(25, (1,))]


def test_exact_split_with_rake_and_cap() -> None:
    # 10 bb each, a chop: 20 bb contested, 5 % rake = 1 bb (cap 0.5: 0.5 bb). A fold: no rake.
    r = settle([10.0, 10.0], [False, False], [3, 3], button=0, exact=True, rake=0.05)
    assert r.collected == [9.5, 9.5] and r.rake == pytest.approx(1.0)
    r = settle([10.0, 10.0], [False, False], [3, 3], button=0, exact=True, rake=0.05, rake_cap=0.5)
    assert r.collected == [9.75, 9.75]
    assert settle([1.5, 1.0], [False, True], None, button=0, exact=True, rake=0.05).collected == [2.5, 0.0]
    # Main 15 and side 10 are both contested: 10 % of 25 = 2.5 raked, whichever odd-chip rule (the pooled
    # rule mucks seat 2 before splitting, which must not make the side pot uncontested for the rake).
    for rule in ("per_pot", "pooled"):
        r = settle([5.0, 10.0, 10.0], [False] * 3, [9, 5, 1], button=0, exact=True, rake=0.1, odd_chips=rule)
        assert r.collected == pytest.approx([13.5, 9.0, 0.0]) and r.rake == pytest.approx(2.5)
    # Seat 3's 1.5 nobody matched comes back; the main pot of 4 x 0.5 is split four ways.
    r = settle([0.5, 0.5, 0.5, 2.0], [False] * 4, [1, 1, 1, 1], button=0, exact=True)
    assert r.collected == [0.5, 0.5, 0.5, 2.0]


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"odd_chips": "left"}, "odd_chips"),
        ({"rake": 0.1}, "exact=True"),
        ({"exact": True, "rake": 1.5}, "rake"),
        ({"exact": True, "rake_cap": -1}, "rake_cap"),
    ],
)
def test_bad_options_are_refused(kwargs: dict, error: str) -> None:
    with pytest.raises((ValueError, TypeError), match=error):
        settle([2, 2], [False, False], [1, 1], 0, **kwargs)


def test_bad_batch_input_is_refused() -> None:
    c = np.array([[2, 2]])
    with pytest.raises(TypeError, match="contributed"):
        settle_batch(c.astype(float), np.zeros((1, 2), bool), np.zeros((1, 2), np.int64), np.array([0]))
    with pytest.raises(ValueError, match="button"):
        settle_batch(c, np.zeros((1, 2), bool), np.zeros((1, 2), np.int64), np.array([2]))
    with pytest.raises(ValueError, match="folded"):
        settle_batch(c, np.ones((1, 2), bool), np.zeros((1, 2), np.int64), np.array([0]))
    with pytest.raises(ValueError, match="strengths are needed"):
        settle([2, 2], [False, False], None, 0)
    with pytest.raises(TypeError, match="contributed"):  # not truncated to whole chips in silence
        settle([2.5, 2], [False, False], [1, 1], 0)


# A plain per-hand reference, written independently of the module, for the random tables below.
def _reference(c: list[int], f: list[bool], s: list[int], button: int, per_pot: bool) -> list[int]:
    n = len(c)
    live = [not x for x in f]
    top = max(c[i] for i in range(n) if live[i])
    won = [0] * n
    layers: list[list] = []  # [amount, eligible]
    prev = 0
    for level in sorted(set(c)):
        reach = [i for i in range(n) if c[i] >= level]
        amount = (level - prev) * len(reach)
        prev = level
        if len(reach) == 1:
            elig = tuple(reach)
        elif level > top:
            elig = tuple(i for i in range(n) if live[i] and c[i] >= top)
        else:
            elig = tuple(i for i in reach if live[i])
        if layers and layers[-1][1] == elig:
            layers[-1][0] += amount
        else:
            layers.append([amount, elig])
    if not per_pot:
        alive = set()
        for amount, elig in layers:
            best = max(s[i] for i in elig)
            alive |= {i for i in elig if s[i] == best}
        pooled: list[list] = []
        for amount, elig in layers:
            elig = tuple(i for i in elig if i in alive)
            if pooled and pooled[-1][1] == elig:
                pooled[-1][0] += amount
            else:
                pooled.append([amount, elig])
        layers = pooled
    for amount, elig in layers:
        best = max(s[i] for i in elig)
        winners = sorted((i for i in elig if s[i] == best), key=lambda i: (i - button - 1) % n)
        share, odd = divmod(amount, len(winners))
        for k, i in enumerate(winners):
            won[i] += share + ((1 if k < odd else 0) if per_pot else (odd if k == 0 else 0))
    return won


@st.composite
def _tables(draw: st.DrawFn) -> tuple:
    n = draw(st.integers(2, 7))
    rows = draw(st.integers(1, 6))
    c = draw(st.lists(st.lists(st.integers(0, 9), min_size=n, max_size=n), min_size=rows, max_size=rows))
    f = draw(st.lists(st.lists(st.booleans(), min_size=n, max_size=n), min_size=rows, max_size=rows))
    s = draw(st.lists(st.lists(st.integers(0, 3), min_size=n, max_size=n), min_size=rows, max_size=rows))
    b = draw(st.lists(st.integers(0, n - 1), min_size=rows, max_size=rows))
    for row in f:
        row[draw(st.integers(0, n - 1))] = False  # at least one live seat
    return np.array(c), np.array(f), np.array(s), np.array(b)


# Hard cases pinned whatever the draw: the odd chip of a tie that includes the button goes to the first winner left
# of it; a tie in a side pot; three all-ins of different sizes with a folded seat's chips in the main pot.
HARD_TABLES = [
    (np.array([[1, 1, 1]]), np.array([[False, False, False]]), np.array([[2, 0, 2]]), np.array([2])),
    (np.array([[5, 3, 3, 1]]), np.array([[False, False, False, True]]), np.array([[1, 1, 1, 0]]), np.array([0])),
    (np.array([[9, 5, 2, 4]]), np.array([[False, False, False, True]]), np.array([[0, 3, 3, 3]]), np.array([1])),
]


@settings(max_examples=300, deadline=None)
@given(_tables(), st.sampled_from(["per_pot", "pooled"]))
@example(HARD_TABLES[0], "per_pot")
@example(HARD_TABLES[0], "pooled")
@example(HARD_TABLES[1], "per_pot")
@example(HARD_TABLES[1], "pooled")
@example(HARD_TABLES[2], "per_pot")
def test_batch_matches_the_reference_and_conserves_chips(table: tuple, rule: str) -> None:
    c, f, s, b = table
    won = settle_batch(c, f, s, b, odd_chips=rule)
    assert won.dtype == np.int64 and (won.sum(axis=1) == c.sum(axis=1)).all()
    for k in range(len(c)):
        expected = _reference(c[k].tolist(), f[k].tolist(), s[k].tolist(), int(b[k]), rule == "per_pot")
        assert won[k].tolist() == expected
        one = settle(c[k].tolist(), f[k].tolist(), s[k].tolist(), int(b[k]), odd_chips=rule)  # incl. its shortcut
        assert one.collected == expected and sum(a for a, _ in one.awards) == c[k].sum()
    exact = settle_batch(c, f, s, b, exact=True)
    assert exact.dtype == np.float64 and np.allclose(exact.sum(axis=1), c.sum(axis=1))
    assert (np.abs(exact - won) < c.shape[1]).all()  # under one chip per pot, and there are at most n pots


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 9), st.data())
def test_single_pot_showdown_shortcut_matches_the_batch(n: int, data: st.DataObject) -> None:
    # Every live seat put in the most (no side pot): settle answers without numpy; settle_batch runs the layers.
    top = data.draw(st.integers(1, 50))
    folded = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    folded[data.draw(st.integers(0, n - 1))] = False
    folded[data.draw(st.integers(0, n - 1))] = False
    c = [data.draw(st.integers(0, top)) if f else top for f in folded]
    s = [data.draw(st.integers(0, 2)) for _ in range(n)]  # small range: ties and odd chips are common
    b, dead, rule = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, 5)), data.draw(st.sampled_from(["per_pot", "pooled"]))
    one = settle(c, folded, s, b, odd_chips=rule, dead=dead)
    batch = settle_batch(np.array([c]), np.array([folded]), np.array([s]), np.array([b]), odd_chips=rule, dead=np.array([dead]))
    assert one.collected == batch[0].tolist() and sum(one.collected) == sum(c) + dead
    live = [k for k in range(n) if not folded[k]]
    if len(live) > 1:
        best = max(s[k] for k in live)
        assert one.awards == [(sum(c) + dead, tuple(k for k in live if s[k] == best))]
