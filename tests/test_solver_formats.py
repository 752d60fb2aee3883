"""Range notation, TexasSolver command files and the 13x13 grid of agent_zoo.solver (hand-worked examples)."""

from __future__ import annotations

import itertools
import struct
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from agent_zoo.solver.commands import KNOWN_COMMANDS, load_commands, parse_commands
from agent_zoo.solver.config import SolveSettings
from agent_zoo.solver.ranges import (
    CLASS_LABELS,
    COMBO_INDEX,
    COMBOS,
    class_grid_index,
    combo_index,
    format_range,
    grid_average,
    hand_class,
    parse_range,
)
from agent_zoo.solver.spot import Conventions, StreetSizes
from poker_envs.core.cards import card_from_str

SPOTS = Path(__file__).resolve().parents[1] / "agent_zoo" / "solver" / "spots"

# The ranges of TexasSolver's console sample (github.com/bupticybee/TexasSolver,
# resources/text/commandline_sample_input.txt), used by river.txt, turn.txt and flop.txt.
SAMPLE_IP = (
    "AA,KK,QQ,JJ,TT,99:0.75,88:0.75,77:0.5,66:0.25,55:0.25,AK,AQs,AQo:0.75,AJs,AJo:0.5,ATs:0.75,A6s:0.25,A5s:0.75,"
    "A4s:0.75,A3s:0.5,A2s:0.5,KQs,KQo:0.5,KJs,KTs:0.75,K5s:0.25,K4s:0.25,QJs:0.75,QTs:0.75,Q9s:0.5,JTs:0.75,"
    "J9s:0.75,J8s:0.75,T9s:0.75,T8s:0.75,T7s:0.75,98s:0.75,97s:0.75,96s:0.5,87s:0.75,86s:0.5,85s:0.5,76s:0.75,"
    "75s:0.5,65s:0.75,64s:0.5,54s:0.75,53s:0.5,43s:0.5"
)
SAMPLE_OOP = (
    "QQ:0.5,JJ:0.75,TT,99,88,77,66,55,44,33,22,AKo:0.25,AQs,AQo:0.75,AJs,AJo:0.75,ATs,ATo:0.75,A9s,A8s,A7s,A6s,"
    "A5s,A4s,A3s,A2s,KQ,KJ,KTs,KTo:0.5,K9s,K8s,K7s,K6s,K5s,K4s:0.5,K3s:0.5,K2s:0.5,QJ,QTs,Q9s,Q8s,Q7s,JTs,"
    "JTo:0.5,J9s,J8s,T9s,T8s,T7s,98s,97s,96s,87s,86s,76s,75s,65s,64s,54s,53s,43s"
)
# Holdings with weight > 0, counted by hand (pair 6, suited 4, offsuit 12, both 16; no card removal):
# IP: 10 pairs = 60; AK 16 + AQs/AQo/AJs/AJo/ATs 36 + A6s..A2s 20 = 72; KQs 4 + KQo 12 + KJs, KTs, K5s, K4s 16 = 32;
#     QJs..Q9s, JTs..J8s, T9s..T7s, 98s..96s, 87s..85s: 15 suited = 60; 76s 75s 65s 64s 54s 53s 43s: 7 suited = 28.
SAMPLE_IP_COMBOS = 60 + 72 + 32 + 60 + 28  # 252
# OOP: 11 pairs = 66; AKo 12, AQs 4, AQo 12, AJs 4, AJo 12, ATs 4, ATo 12, A9s..A2s 32 = 92;
#      KQ 16, KJ 16, KTs 4, KTo 12, K9s..K2s 32 = 80; QJ 16, QTs..Q7s 16 = 32; JTs 4, JTo 12, J9s J8s 8 = 24;
#      T9s T8s T7s 98s 97s 96s 87s 86s 76s 75s 65s 64s 54s 53s 43s: 15 suited = 60.
SAMPLE_OOP_COMBOS = 66 + 92 + 80 + 32 + 24 + 60  # 354


def c(text: str) -> int:
    return card_from_str(text)


def idx(text: str) -> int:
    return combo_index(c(text[:2]), c(text[2:]))


# -------------------------------------------------------------------------------------------------------- holdings


def test_combos_are_in_combinations_order_with_a_symmetric_index() -> None:
    assert COMBOS.shape == (1326, 2)
    assert [tuple(map(int, p)) for p in COMBOS] == list(itertools.combinations(range(52), 2))
    assert combo_index(0, 1) == 0 and combo_index(51, 50) == 1325
    assert combo_index(c("As"), c("Kd")) == combo_index(c("Kd"), c("As")) == COMBO_INDEX[c("Kd"), c("As")]
    assert COMBO_INDEX[7, 7] == -1
    with pytest.raises(ValueError, match="two different cards"):
        combo_index(5, 5)


# ------------------------------------------------------------------------------------------------------ parse_range


@pytest.mark.parametrize(
    ("text", "count"),
    [("AA", 6), ("AKs", 4), ("AKo", 12), ("AK", 16), ("KA", 16), ("22+", 78), ("AhKd", 1), ("KdAh", 1),
     ("A2s+", 48), ("KTo+", 36), ("A5s-A2s", 16), ("A2s-A5s", 16), ("99-66", 24), ("66-99", 24), ("A2+", 192),
     ("QQ+,AKs", 22), ("", 0), (" AA , KK ", 12), ("aks", 4)],
)
def test_item_sizes(text: str, count: int) -> None:
    w = parse_range(text)
    assert w.shape == (1326,) and w.dtype == np.float64
    assert int((w > 0).sum()) == count
    assert set(np.unique(w)) <= {0.0, 1.0}


def test_which_holdings_are_named() -> None:
    suited = parse_range("AKs")
    assert {int(i) for i in np.flatnonzero(suited)} == {idx(f"A{s}K{s}") for s in "cdhs"}
    assert parse_range("AhKd")[idx("AhKd")] == 1.0
    pairs = parse_range("99-77")
    assert {hand_class(int(i)) for i in np.flatnonzero(pairs)} == {"99", "88", "77"}
    assert {hand_class(int(i)) for i in np.flatnonzero(parse_range("KTo+"))} == {"KTo", "KJo", "KQo"}


def test_weights_and_the_later_item_wins() -> None:
    w = parse_range("AA:0.5,AKs:.25,KK:1,QQ:0")
    assert w[idx("AsAh")] == 0.5 and w[idx("AsKs")] == 0.25 and w[idx("KsKh")] == 1.0 and w.sum() == 3 + 1 + 6
    again = parse_range("22+,AA:0.5")  # every pair, aces at half: the later item wins
    assert again[idx("AsAh")] == 0.5 and again[idx("2s2h")] == 1.0
    assert parse_range("AA:0.5,22+")[idx("AsAh")] == 1.0
    assert parse_range("AKo,AcKd:0")[idx("AcKd")] == 0.0 and parse_range("AKo,AcKd:0").sum() == 11


def test_no_card_removal() -> None:
    # the parser does not know the board: a holding with the board's Qs keeps its weight
    assert parse_range("QQ")[idx("QsQh")] == 1.0


@pytest.mark.parametrize(
    ("text", "match"),
    [("AKx", "'AKx'"), ("AK:1.5", "outside"), ("A", "'A'"), ("AA,,KK", "empty"), ("AA,", "empty"),
     (":0.5", "no hand"), ("AA:x", "not a decimal"), ("AA:0.5:1", "more than one"), ("AAs", "pair"),
     ("2As+", "higher rank first"), ("A5s-K2s", "'-' range"), ("A5s-A2o", "'-' range"), ("AsAs", "two different"),
     ("AA:-1", "not a decimal"), ("AA:nan", "not a decimal"), ("AhKx", "'AhKx'")],
)
def test_bad_items_name_the_item_and_what_is_allowed(text: str, match: str) -> None:
    with pytest.raises(ValueError, match=match) as info:
        parse_range(text)
    assert "allowed:" in str(info.value)


# ----------------------------------------------------------------------------------------------------- format_range


@pytest.mark.parametrize(
    ("text", "formatted"),
    [("AA,KK,QQ", "QQ+"), ("99,88,77,66", "99-66"), ("AKs,AKo", "AK"), ("AKs,AQs,AJs", "AJs+"),
     ("A5s,A4s,A3s,A2s", "A5s-A2s"), ("22+,AA:0.5", "AA:0.5,KK-22"), ("AKo,AcKd:0", "AKo,AcKd:0"),
     ("AhKd", "AhKd"), ("", "")],
)
def test_format_writes_the_short_forms(text: str, formatted: str) -> None:
    assert format_range(parse_range(text)) == formatted


@pytest.mark.parametrize("text", [SAMPLE_IP, SAMPLE_OOP])
def test_format_round_trips_the_samples_and_is_shorter(text: str) -> None:
    w = parse_range(text)
    out = format_range(w)
    assert np.array_equal(parse_range(out), w)
    assert len(out) < len(text)


def test_format_round_trips_random_ranges() -> None:
    rng = np.random.default_rng(7)
    palette = np.array([0.0, 0.0, 1.0, 0.5, 0.25, 0.75, 0.005, 1 / 3])
    for trial in range(40):
        if trial % 4 == 0:
            w = rng.random(1326)  # every weight different
        else:  # classes of one weight with a few holdings changed
            w = np.zeros(1326)
            for r, k in itertools.combinations_with_replacement(range(13), 2):
                for kind in ("", "s", "o") if r != k else ("",):
                    text = "23456789TJQKA"[k] + "23456789TJQKA"[r] + kind
                    w[parse_range(text) > 0] = rng.choice(palette)
            changed = rng.choice(1326, size=int(rng.integers(0, 60)), replace=False)
            w[changed] = rng.choice(palette, size=changed.size)
        assert np.array_equal(parse_range(format_range(w)), w), trial
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        format_range(np.full(1326, 1.5))


# ------------------------------------------------------------------------------------------------------------- grid


def test_grid_cells_and_labels() -> None:
    assert class_grid_index(idx("AsAh")) == (0, 0) and hand_class(idx("AsAh")) == "AA"
    assert class_grid_index(idx("2c2d")) == (12, 12) and hand_class(idx("2c2d")) == "22"
    assert class_grid_index(idx("AsKs")) == (0, 1) and hand_class(idx("AsKs")) == "AKs"  # suited: above
    assert class_grid_index(idx("AsKd")) == (1, 0) and hand_class(idx("KdAs")) == "AKo"  # offsuit: below
    assert class_grid_index(idx("7h2h")) == (7, 12) and hand_class(idx("7h2h")) == "72s"
    assert class_grid_index(idx("7h2c")) == (12, 7) and hand_class(idx("7h2c")) == "72o"
    assert CLASS_LABELS[0, 12] == "A2s" and CLASS_LABELS[12, 0] == "A2o" and CLASS_LABELS[4, 4] == "TT"
    cells = [class_grid_index(i) for i in range(1326)]
    counts = {cell: cells.count(cell) for cell in set(cells)}
    assert len(counts) == 169 and counts[0, 0] == 6 and counts[0, 1] == 4 and counts[1, 0] == 12


def test_grid_average_weights_each_holding() -> None:
    weights = parse_range("AsKs:0.5,AhKh,AsKd,QQ:0")
    values = np.zeros((2, 1326))
    values[0, idx("AsKs")], values[0, idx("AhKh")] = 1.0, 0.4
    values[1, idx("AsKd")] = 3.0
    grid = grid_average(values, weights)
    assert grid.shape == (2, 13, 13)
    assert grid[0, 0, 1] == pytest.approx((0.5 * 1.0 + 1.0 * 0.4) / 1.5)  # AKs: two holdings of weights 0.5 and 1
    assert grid[1, 1, 0] == pytest.approx(3.0)  # AKo: one holding
    assert np.isnan(grid[0, 2, 2]) and np.isnan(grid[0, 0, 0])  # QQ at weight 0, AA not in the range
    assert np.count_nonzero(~np.isnan(grid[0])) == 2


def test_plot_range_grid_writes_a_png(tmp_path: Path) -> None:
    from agent_zoo.solver.grid import FIGSIZE, plot_range_grid

    rng = np.random.default_rng(3)
    strategy = rng.dirichlet(np.ones(3), size=1326).T
    out = plot_range_grid(tmp_path / "grid.png", ["check", "bet 50", "allin"], strategy, parse_range(SAMPLE_IP),
                          "IP, flop")
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
    width, height = struct.unpack(">II", data[16:24])
    # Saved trimmed to its artists (agent_zoo.figures.save_figure): about the figure's size at 100 dpi.
    assert abs(width - FIGSIZE[0] * 100) < 0.2 * FIGSIZE[0] * 100 and abs(height - FIGSIZE[1] * 100) < 0.2 * FIGSIZE[1] * 100
    with pytest.raises(ValueError, match="strategy"):
        plot_range_grid(tmp_path / "bad.png", ["check"], strategy, parse_range("AA"), "bad")


# --------------------------------------------------------------------------------------------------- command files


def _count(weights: np.ndarray) -> int:
    return int((weights > 0).sum())


def test_river_file() -> None:
    spot_file = load_commands(SPOTS / "river.txt")
    spot = spot_file.spot
    assert spot.board == tuple(c(x) for x in ("Qs", "Jh", "2h", "8d", "3c")) and spot.street == "river"
    assert (spot.pot, spot.stack) == (100, 200)
    assert spot.allin_threshold == Fraction(67, 100)
    assert (_count(spot.ranges[0]), _count(spot.ranges[1])) == (SAMPLE_OOP_COMBOS, SAMPLE_IP_COMBOS)
    assert spot.ranges[1][idx("9s9h")] == 0.75 and spot.ranges[0][idx("AsKd")] == 0.25  # 99:0.75 IP, AKo:0.25 OOP
    expected = StreetSizes(bet=(Fraction(33, 100), Fraction(3, 4)), raise_=(Fraction(3, 5),), allin=True)
    assert dict(spot.sizes) == {(0, "river"): expected, (1, "river"): expected}
    assert spot_file.settings == SolveSettings(accuracy=0.1, max_iterations=1000, print_interval=10, threads=1,
                                               use_isomorphism=True, dump_rounds=1)
    assert spot_file.dump == ("river_result.json",) and spot_file.dump_rounds == (1,)


def test_turn_file() -> None:
    spot_file = load_commands(SPOTS / "turn.txt")
    spot = spot_file.spot
    assert spot.board == tuple(c(x) for x in ("Qs", "Jh", "2h", "8d")) and spot.street == "turn"
    assert (spot.pot, spot.stack) == (50, 200)
    assert (_count(spot.ranges[0]), _count(spot.ranges[1])) == (SAMPLE_OOP_COMBOS, SAMPLE_IP_COMBOS)
    expected = StreetSizes(bet=(Fraction(1, 2),), raise_=(Fraction(3, 5),), allin=True)
    assert dict(spot.sizes) == {(p, s): expected for p in (0, 1) for s in ("turn", "river")}
    assert spot_file.settings.accuracy == 0.3 and spot_file.settings.threads == 1


def test_flop_file() -> None:
    spot_file = load_commands(SPOTS / "flop.txt")
    spot = spot_file.spot
    assert spot.board == (c("Qs"), c("Jh"), c("2h")) and (spot.pot, spot.stack) == (50, 200)
    assert (_count(spot.ranges[0]), _count(spot.ranges[1])) == (SAMPLE_OOP_COMBOS, SAMPLE_IP_COMBOS)
    half, sixty = (Fraction(1, 2),), (Fraction(3, 5),)
    for player in (0, 1):
        for street in ("flop", "turn"):
            assert spot.street_sizes(player, street) == StreetSizes(bet=half, raise_=sixty, allin=True)
    assert spot.street_sizes(0, "river") == StreetSizes(bet=half, donk=half, raise_=(Fraction(3, 5), Fraction(1)),
                                                        allin=True)
    assert spot.street_sizes(1, "river") == StreetSizes(bet=half, raise_=(Fraction(3, 5), Fraction(1)), allin=True)
    assert spot_file.settings.accuracy == 0.45 and spot_file.settings.dump_rounds == 2


def test_small_file() -> None:
    spot = load_commands(SPOTS / "small.txt").spot
    assert spot.street == "river" and (spot.pot, spot.stack) == (100, 100)
    # IP KK,T9s:0.75,AhQd = 6 + 4 + 1; OOP AKs,QTs,54s:0.5 = 4 + 4 + 4 (QsTs holds the board's Qs: still counted)
    assert (_count(spot.ranges[0]), _count(spot.ranges[1])) == (12, 11)
    assert spot.ranges[1][idx("Th9h")] == 0.75 and spot.ranges[0][idx("5c4c")] == 0.5
    expected = StreetSizes(bet=(Fraction(1, 2),), raise_=(Fraction(1),), allin=True)
    assert dict(spot.sizes) == {(0, "river"): expected, (1, "river"): expected}


MINIMAL = "set_pot 10\nset_effective_stack 95\nset_board Qs,Jh,2h,8d,3c\nset_range_ip AA\nset_range_oop KK:0.004,QQ\n"


def test_defaults_follow_the_conventions() -> None:
    rules = parse_commands(MINIMAL)
    assert rules.spot.raise_limit == 3 and rules.spot.allin_threshold is None  # no threshold unless the file sets one
    assert rules.spot.conventions is Conventions.RULES
    assert rules.settings == SolveSettings() and rules.dump == ()
    assert _count(rules.spot.ranges[0]) == 12
    texas = parse_commands(MINIMAL, conventions=Conventions.TEXASSOLVER)
    # TexasSolver's raise limit 4 counts the bet: a bet and three raises; its all-in threshold 0.67
    assert texas.spot.raise_limit == 3 and texas.spot.allin_threshold == Fraction(67, 100)
    assert _count(texas.spot.ranges[0]) == 6  # KK:0.004 dropped as TexasSolver drops weights <= 0.005
    limited = parse_commands(
        MINIMAL + "set_raise_limit 2\nset_allin_threshold 0.8\n",
        conventions=Conventions.TEXASSOLVER,
    )
    assert limited.spot.raise_limit == 1 and limited.spot.allin_threshold == Fraction(4, 5)


def test_sizes_are_exact_fractions_and_replace_earlier_ones() -> None:
    text = MINIMAL + "set_bet_sizes oop, river, bet, 33.3, 50\nset_bet_sizes ip,river,bet,75\n"
    text += "set_bet_sizes ip,river,bet,33\n"
    sizes = parse_commands(text).spot.sizes
    assert sizes[0, "river"].bet == (Fraction(333, 1000), Fraction(1, 2))
    assert sizes[1, "river"].bet == (Fraction(33, 100),)
    gui = parse_commands(MINIMAL + "set_bet_sizes oop,river,raise,\n")  # TexasSolver's GUI writes an empty list so
    assert gui.spot.sizes[0, "river"].raise_ == ()


def test_whitespace_blank_lines_and_dumps() -> None:
    text = "\n  set_pot   10 \r\n" + MINIMAL.split("\n", 1)[1] + "\nbuild_tree\nstart_solve\nset_dump_rounds 2\n" \
        "dump_result a.json\nset_dump_rounds 1\ndump_result b.json\n"
    cf = parse_commands(text)
    assert cf.spot.pot == 10 and cf.dump == ("a.json", "b.json") and cf.dump_rounds == (2, 1)
    assert cf.settings.dump_rounds == 1


@pytest.mark.parametrize(
    ("extra", "match"),
    [("set_stack 10", r"line 6: unknown command 'set_stack'; known commands: set_pot, "),
     ("set_pot ten", r"line 6: set_pot: expected the pot in chips, a whole number >= 1, got 'ten'"),
     ("set_pot 10.5", "set_pot: expected the pot"),
     ("set_board Qs,Jh", r"line 6: set_board: expected 3, 4 or 5"),
     ("set_board Qs,Jh,Qs", "different"),
     ("set_board Qs,Jh,1h", "card '1h'"),
     ("set_range_ip AKx", r"line 6: set_range_ip: range item 'AKx'"),
     ("set_bet_sizes oop,river,shove,50", r"set_bet_sizes: expected player,street,kind"),
     ("set_bet_sizes mid,river,bet,50", "player oop/ip"),
     ("set_bet_sizes oop,river,bet,-50", "percent of the pot, a positive decimal number, got '-50'"),
     ("set_bet_sizes oop,river,bet,0", "positive decimal"),
     ("set_bet_sizes oop,river,allin,100", "allin takes no sizes"),
     ("set_bet_sizes ip,river,donk,50", "OOP's lead on the turn or river"),
     ("set_bet_sizes oop,flop,donk,50", "OOP's lead on the turn or river"),
     ("set_use_isomorphism yes", "expected 0 or 1"),
     ("set_max_iteration 0", "whole number >= 1"),
     ("set_accuracy", r"line 6: set_accuracy: expected an argument"),
     ("build_tree now", "takes no argument"),
     ("start_solve", "needs build_tree before it"),
     ("build_tree\nset_pot 20", r"line 7: set_pot: comes after build_tree \(line 6\)"),
     ("build_tree\nbuild_tree", "given twice"),
     ("build_tree\nstart_solve\nset_range_ip KK", r"line 8: set_range_ip: comes after start_solve \(line 7\)"),
     ("build_tree\nstart_solve\nset_accuracy 1", "comes after start_solve"),
     ("build_tree\nstart_solve\nstart_solve", "comes after start_solve"),
     ("dump_result out.json", "before start_solve"),
     ("# a heading", "no comments")],
)
def test_bad_commands_name_the_line_and_what_is_allowed(extra: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        parse_commands(MINIMAL + extra)


def test_missing_settings_are_named() -> None:
    with pytest.raises(ValueError, match=r"missing set_board \(the board\), set_range_ip"):
        parse_commands("set_pot 10\nset_effective_stack 95\nset_range_oop AA\n")
    with pytest.raises(ValueError, match=r"missing set_pot \(the pot\)$"):
        parse_commands(MINIMAL.replace("set_pot 10\n", ""))
    assert "dump_result" in KNOWN_COMMANDS and "set_raise_limit" in KNOWN_COMMANDS


def test_solve_settings_reject_bad_values() -> None:
    with pytest.raises(ValueError, match="algorithm"):
        SolveSettings(algorithm="mccfr")
    with pytest.raises(ValueError, match="backend"):
        SolveSettings(backend="torch")
    with pytest.raises(ValueError, match="accuracy"):
        SolveSettings(accuracy=0)
    with pytest.raises(ValueError, match="threads"):
        SolveSettings(threads=0)
    assert SolveSettings(algorithm="cfr+", backend="jax").algorithm == "cfr+"
