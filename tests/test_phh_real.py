"""Real hand histories (``../shared/data/phh``): they load, hold'em hands replay to their recorded
finishing stacks, and players' logs follow the files' own action strings.

The data sits beside the repository (never copied into it); without it these tests fail (CI has it).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agent_zoo.clustering.logs import encode_hands, encode_log, extract_logs
from poker_envs import phh
from poker_envs.encoders.flat107 import BOARD, HOLE, Flat107Encoder

DATA = Path(__file__).parents[2] / "shared" / "data" / "phh"


@pytest.fixture(autouse=True)
def _data_is_there() -> None:
    assert (DATA / "pluribus").is_dir(), f"real hand histories not found at {DATA} (../shared beside the checkout)"


# The Pluribus hands whose recorded finishing stacks hold half chips (a split pot of an odd amount).
HALF_CHIP_HANDS = ["102/0", "32/23", "41b/204", "60/88", "75b/76", "88/128", "91/43", "91/53"]


def pluribus_sample(count: int, seed: int) -> list[phh.Hand]:
    sessions = sorted(p for p in (DATA / "pluribus").iterdir() if p.is_dir())
    files = [f for s in sessions for f in sorted(s.glob("*.phh"))]
    assert len(files) == 10_000
    picks = np.random.default_rng(seed).choice(len(files), size=count, replace=False)
    return [phh.load_hand(files[i]) for i in sorted(picks)]


def test_pluribus_sample_replays_to_the_recorded_finishing_stacks() -> None:
    hands = pluribus_sample(300, seed=2019)
    exact = 0
    for hand in hands:
        r = phh.replay(hand)
        assert r.exact and r.mismatch(tolerance=0.5) == [], (hand.source, r.finishing_stacks, hand.finishing_stacks)
        assert sum(r.results) == 0
        exact += r.mismatch(tolerance=0) == []
    assert exact >= 295  # only split pots of odd amounts may differ, by half a chip


def test_half_chip_splits_differ_by_half_a_chip_only() -> None:
    for name in HALF_CHIP_HANDS:
        hand = phh.load_hand(DATA / "pluribus" / f"{name}.phh")
        r = phh.replay(hand)
        diffs = sorted(abs(a - b) for a, b in zip(r.finishing_stacks, hand.finishing_stacks))
        assert diffs[-2:] == [0.5, 0.5] and sum(diffs[:-2]) == 0, (name, r.finishing_stacks, hand.finishing_stacks)


def test_wsop_holdem_hands_replay_exactly() -> None:
    counts = {"NT": 0, "FT": 0}
    for path in phh.find_files(DATA / "wsop"):
        hand = phh.load_hand(path)
        if hand.variant in counts:
            r = phh.replay(hand)
            assert r.exact and r.mismatch(tolerance=0) == [], (path, r.finishing_stacks, hand.finishing_stacks)
            counts[hand.variant] += 1
    assert counts == {"NT": 11, "FT": 7}


def test_potlimit_omaha_hands_replay_exactly() -> None:
    """The seven WSOP pot-limit Omaha hands (a big-blind ante outside the stacks counts in the pot-limit cap)
    replay to their recorded stacks; the Antonius-Blom pot (no stacks recorded) to pokerkit's documented
    1,937,923.75 and 0 (its docstring of PotLimitOmahaHoldem)."""
    wsop = [phh.load_hand(p) for p in phh.find_files(DATA / "wsop")]
    omaha = [h for h in wsop if h.variant == "PO"]
    assert len(omaha) == 7
    for hand in omaha:
        r = phh.replay(hand)
        assert r.exact and r.mismatch(tolerance=0) == [], (hand.source, r.finishing_stacks, hand.finishing_stacks)
    r = phh.replay(phh.load_hand(DATA / "antonius-blom-2009.phh"))
    assert r.exact and r.finishing_stacks == (1_937_923.75, 0.0)
    assert r.state.game.config.hole_cards == 4 and r.state.strengths[0] > r.state.strengths[1]


def test_every_other_file_loads_and_other_variants_are_refused_by_name() -> None:
    files = [p for p in phh.find_files(DATA) if "pluribus" not in p.parts]
    assert len(files) == 83 + 5
    for path in files:
        hand = phh.load_hand(path)
        assert hand.source == str(path)
        if hand.variant == "NS":  # short deck replays, but this hand (Triton 2019) has a button blind
            with pytest.raises(phh.PHHError, match="straddles .* are not supported"):
                phh.replay(hand)
        elif hand.variant not in ("NT", "FT", "PO"):
            with pytest.raises(phh.PHHError, match=f"variant '{hand.variant}' cannot be replayed"):
                phh.replay(hand)


def test_dwan_ivey_2009() -> None:
    # Dwan's 7-high straight beat Ivey's wheel all-in on the turn; Antonius had folded his ante and big blind.
    r = phh.replay(phh.load_hand(DATA / "dwan-ivey-2009.phh"))
    assert r.results == (-553_500, -2_500, 556_000) and r.exact
    assert r.cards_known == (True, False, True)


def test_pluribus_logs_follow_the_action_strings() -> None:
    hands = pluribus_sample(60, seed=7)
    logs = extract_logs(hands)
    verbs = {"f": 0, "cc": 1, "cbr": 2}
    expected: dict[str, list[tuple[int, frozenset[int], int]]] = {}
    for hand in hands:
        hole: dict[int, list[int]] = {}
        board = 0
        for text in hand.actions:
            words = text.split()
            if words[:2] == ["d", "dh"]:
                hole[int(words[2][1:]) - 1] = phh.parse_cards(words[3])
            elif words[:2] == ["d", "db"]:
                board += len(words[2]) // 2
            elif words[1] in verbs:
                seat = int(words[0][1:]) - 1
                expected.setdefault(hand.players[seat], []).append((verbs[words[1]], frozenset(hole[seat]), board))
    assert {k: len(v) for k, v in logs.items()} == {k: len(v) for k, v in expected.items()}
    encoder = Flat107Encoder(logs["Pluribus"][0].state.game)
    for name, log in logs.items():
        X, y = encode_log(log, encoder)
        assert y.tolist() == [e[0] for e in expected[name]]
        assert [frozenset(np.flatnonzero(row[HOLE:]).tolist()) for row in X] == [e[1] for e in expected[name]]
        assert X[:, BOARD:HOLE].sum(axis=1).tolist() == [e[2] for e in expected[name]]
        assert all(len(e.state.hole[s]) == 0 for e in log for s in range(6) if s != e.seat)  # others' cards hidden
    fast = encode_hands(hands, encoder)
    for name, log in logs.items():
        X, y = encode_log(log, encoder)
        assert np.array_equal(fast[name].X, X) and np.array_equal(fast[name].y, y)
