"""The subgame solver's tree, its two backends, the solve loop and the command line.

Exactness against the rules core and the tabular CFR lives in ``test_solver_exact.py``; the command-file and range
formats in ``test_solver_formats.py``.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from agent_zoo.solver.__main__ import main
from agent_zoo.solver.cfr import RangeCFR
from agent_zoo.solver.commands import load_commands
from agent_zoo.solver.ranges import COMBOS, parse_range
from agent_zoo.solver.solve import solve, to_json
from agent_zoo.solver.spot import Conventions, Spot, StreetSizes
from agent_zoo.solver.tree import Act, Kind, build_tree
from poker_envs.core.cards import cards_from_str

SPOTS = Path(__file__).resolve().parents[1] / "agent_zoo" / "solver" / "spots"
RIVER = tuple(cards_from_str("Qs Jh 2h 8d 3c"))


def _spot(board: tuple[int, ...] = RIVER, conventions: Conventions = Conventions.RULES, **sizes: object) -> Spot:
    plan = StreetSizes(bet=("0.33", "0.75"), raise_=("0.6",), allin=True)
    streets = ("flop", "turn", "river")[len(board) - 3:]
    return Spot(board=board, pot=100, stack=200, ranges=(parse_range("AK,QT,99"), parse_range("KK,J9s,44")),
                sizes={(p, s): plan for p in (0, 1) for s in streets}, conventions=conventions, **sizes)  # type: ignore[arg-type]


def _menu(tree: object, history: str) -> list[str]:
    node = next(n for n in tree.nodes if n.history == history and n.kind == Kind.DECISION)  # type: ignore[attr-defined]
    return [str(a) for a in node.actions]


def test_river_menus_worked_by_hand() -> None:
    tree = build_tree(_spot())
    # Pot 100: bets of 33% and 75% are 33 and 75 chips; all-in is 200.
    assert _menu(tree, "") == ["check", "bet 33", "bet 75", "allin 200"]
    # Facing 33: the pot after calling is 166, so a 60% raise goes to 33 + 99.6 -> 133 (halves up: 99.6 -> 100).
    assert _menu(tree, "bet 33") == ["fold", "call", "raise 133", "allin 200"]
    # Facing 133: 133 + 0.6 * 366 is past the stack, so the only raise is all-in.
    assert _menu(tree, "bet 33 raise 133") == ["fold", "call", "allin 200"]
    assert _menu(tree, "bet 33 raise 133 allin 200") == ["fold", "call"]
    # After check-check the hand goes to showdown with nothing added.
    showdown = next(n for n in tree.nodes if n.history == "check check")
    assert showdown.kind == Kind.SHOWDOWN and showdown.committed == (0, 0)


def test_allin_threshold_counts_half_the_starting_pot() -> None:
    # 0.67 * 200 = 134 chips; a raise to 133 puts 50 + 133 = 183 in the pot, past it: all-in, as in TexasSolver.
    tree = build_tree(_spot(allin_threshold=Fraction(67, 100)))
    assert _menu(tree, "bet 33") == ["fold", "call", "allin 200"]
    assert _menu(tree, "") == ["check", "bet 33", "bet 75", "allin 200"]  # 50 + 75 = 125 stays below 134


def test_minimum_raise_only_under_the_rules() -> None:
    plan = StreetSizes(bet=("1",), raise_=("0.1",))
    menus = {}
    for conventions in Conventions:
        spot = Spot(board=RIVER, pot=100, stack=1000, ranges=(parse_range("AA"), parse_range("KK")),
                    sizes={(0, "river"): plan, (1, "river"): plan}, conventions=conventions)
        menus[conventions] = _menu(build_tree(spot), "bet 100")[-1]
    # Facing a pot-sized bet of 100, a 10% raise adds 10% of 300: to 130; the rules lift it to the minimum, 200.
    assert menus == {Conventions.RULES: "raise 200", Conventions.TEXASSOLVER: "raise 130"}


def test_turn_tree_deals_every_river_and_donk_bets_use_donk_sizes() -> None:
    plan = StreetSizes(bet=("0.5",), allin=False)
    donk = StreetSizes(bet=("0.5",), donk=("0.25",))
    spot = Spot(board=RIVER[:4], pot=100, stack=400, ranges=(parse_range("AK"), parse_range("KK")),
                sizes={(0, "turn"): plan, (1, "turn"): plan, (0, "river"): donk, (1, "river"): plan})
    tree = build_tree(spot)
    # OOP checks, IP bets 50 and OOP calls: on the river OOP leads with donk sizes (25% of 200 = 50).
    assert _menu(tree, "check bet 50 call |") == ["check", "bet 50"]
    # OOP bets the turn and IP calls: OOP's river bet is an ordinary bet (50% of 200 = 100).
    assert _menu(tree, "bet 50 call |") == ["check", "bet 100"]
    solver = RangeCFR(tree)
    assert [len(s.boards) for s in solver.layout.streets] == [1, 48]


def test_actions_never_exceed_the_stack_and_raises_respect_the_limit() -> None:
    spot = _spot(raise_limit=1)
    for node in build_tree(spot).nodes:
        assert max(node.committed) <= spot.stack
        raises = node.history.split("|")[-1].count("raise") + node.history.split("|")[-1].count("allin")
        if node.kind == Kind.DECISION and raises >= 2:
            assert all(a.kind in (Act.FOLD, Act.CALL) for a in node.actions), node.history


def test_bad_spots_are_refused_with_the_argument_named() -> None:
    with pytest.raises(ValueError, match="board"):
        _spot(board=RIVER[:2])
    with pytest.raises(ValueError, match="OOP range"):
        Spot(board=RIVER, pot=10, stack=10, ranges=(np.full(1326, 2.0), np.ones(1326)))
    with pytest.raises(ValueError, match="pot"):
        Spot(board=RIVER, pot=0, stack=10, ranges=(np.ones(1326), np.ones(1326)))
    with pytest.raises(ValueError, match="algorithm"):
        RangeCFR(build_tree(_spot()), algorithm="cfr-")
    with pytest.raises(ValueError, match="backend"):
        solve(_spot(), backend="torch")
    with pytest.raises(ValueError, match="no holding"):
        RangeCFR(build_tree(Spot(board=RIVER, pot=10, stack=10, ranges=(parse_range("QsQh"), parse_range("AA")))))


@pytest.mark.parametrize("algorithm", ["dcfr", "cfr+"])
def test_solve_reaches_the_target_and_the_profile_is_consistent(algorithm: str) -> None:
    spot = _spot()
    cfr, log = solve(spot, accuracy=0.05, max_iterations=2000, check_every=20, algorithm=algorithm)
    assert log.exploitability_pct <= 0.05 and log.iterations < 2000
    result = cfr.exploitability()
    # Best responses can only gain: each is at least the profile's value for that player.
    assert result.best_response[0] >= result.value - 1e-9 and result.best_response[1] >= -result.value - 1e-9
    # Curve falls overall (CFR's average converges; single checks may rise a little).
    assert log.curve[-1][1] < log.curve[0][1] / 5
    # Strategies are distributions over each node's actions.
    for i, node in enumerate(cfr.layout.tree.nodes):
        if node.kind == Kind.DECISION:
            np.testing.assert_allclose(cfr.strategy(i).sum(axis=0), 1.0)


def test_jax_backend_matches_numpy_in_float64() -> None:
    """The same passes on both backends: one iteration's regrets, and exact best responses of a random profile.
    (Longer runs are not compared: regret matching turns a regret of 1e-17 against 0 into a different action, so
    two correct float implementations part ways after a few iterations.)"""
    import jax

    from agent_zoo.solver.jax_cfr import JaxRangeCFR

    tree = build_tree(_spot(board=RIVER[:4]))
    jax.config.update("jax_enable_x64", True)
    try:
        numpy_cfr, jax_cfr = RangeCFR(tree), JaxRangeCFR(tree)
        numpy_cfr.iterate(1)
        jax_cfr.iterate(1)
        for p in (0, 1):
            for k in range(2):
                np.testing.assert_allclose(np.asarray(jax_cfr.regrets[p][k]), numpy_cfr.regrets[p][k], rtol=1e-9, atol=1e-9)
        rng = np.random.default_rng(3)
        profile = [[rng.random(a.shape) for a in numpy_cfr.average[p]] for p in (0, 1)]
        numpy_cfr.average = [[a.copy() for a in profile[p]] for p in (0, 1)]
        jax_cfr.average = [[jax.numpy.asarray(a) for a in profile[p]] for p in (0, 1)]
        a, b = numpy_cfr.exploitability(), jax_cfr.exploitability()
        # A run of iterations in one compiled call (solve prepares its check interval) is the same iterations.
        one_by_one, in_one_call = JaxRangeCFR(tree), JaxRangeCFR(tree)
        in_one_call.prepare(2)
        one_by_one.iterate(2)
        in_one_call.iterate(2)
        assert in_one_call.iteration == one_by_one.iteration == 2
        for p in (0, 1):
            for x, y in zip(in_one_call.regrets[p] + in_one_call.average[p], one_by_one.regrets[p] + one_by_one.average[p]):
                np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=1e-9, atol=1e-9)
    finally:
        jax.config.update("jax_enable_x64", False)
    np.testing.assert_allclose(a.best_response, b.best_response, rtol=1e-9)
    assert a.value == pytest.approx(b.value, rel=1e-9)


def test_command_line_solves_a_file_and_writes_json_and_grid(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # the file's dump_result path is relative
    summary = tmp_path / "summary.json"
    assert main([str(SPOTS / "small.txt"), "--no-progress", "--json", str(summary), "--grid", "root.png", "--threads", "2"]) == 0
    data = json.loads(summary.read_text())
    commands = load_commands(SPOTS / "small.txt")
    assert data["exploitability_pct"] <= commands.settings.accuracy
    assert (tmp_path / "root.png").stat().st_size > 1000
    dumped = json.loads((tmp_path / commands.dump[0]).read_text())
    root = dumped["nodes"][0]
    assert root["history"] == "" and root["player"] == "oop"
    for mix in root["boards"][""]["strategy"].values():
        assert sum(mix) == pytest.approx(1.0, abs=1e-5) and len(mix) == len(root["actions"])
    assert "exploitability" in capsys.readouterr().out


def test_expected_values_average_to_the_game_value() -> None:
    spot = _spot()
    cfr, log = solve(spot, accuracy=0.2, max_iterations=500)
    data = to_json(cfr, log)
    root = data["nodes"][0]
    # OOP's expected value over its range (weighted by the pairs each holding can face) is the game value.
    lay = cfr.layout
    facing = cfr.facing(0, lay.weights[1][None])[0]
    ev = np.array([root["boards"][""]["ev"][name] for name in _names(cfr)])
    assert float((lay.weights[0] * facing) @ ev / ((lay.weights[0] * facing).sum())) == pytest.approx(log.value_oop, abs=1e-3)


def _names(cfr: RangeCFR) -> list[str]:
    from agent_zoo.solver.solve import combo_names

    return combo_names(cfr.layout.holdings[0])


def test_a_spot_from_a_live_rules_state() -> None:
    from agent_zoo.solver.from_state import spot_from_state
    from poker_envs.games.holdem import BET, CALL, CHECK, RAISE, HoldemConfig, HoldemGame

    game = HoldemGame(HoldemConfig(num_players=2, starting_stacks=(200, 200), small_blind=1, big_blind=2,
                                   bet_sizing="chips"))
    state = game.new_initial_state(button=0, hole=[cards_from_str("As Ad"), cards_from_str("Kc Kd")], board=RIVER)
    while state.current_player() < 0:
        state.apply(state.chance_outcomes()[0][0])
    state.apply_raw(RAISE, 6)  # the button raises pre-flop, the big blind calls: the button is the aggressor
    state.apply_raw(CALL)
    while state.current_player() < 0:
        state.apply(state.chance_outcomes()[0][0])
    state.apply_raw(CHECK)
    state.apply_raw(BET, 8)
    plan = StreetSizes(bet=("0.5",), raise_=("1",), allin=True)
    spot, seats = spot_from_state(state, {0: parse_range("AA"), 1: parse_range("KK")},
                                  sizes={(p, "flop"): plan for p in (0, 1)})
    # The big blind (seat 1) is out of position; pot 12 before the flop's bets; 194 behind each at the flop.
    assert seats == (1, 0) and (spot.pot, spot.stack, spot.bets, spot.to_act) == (12, 194, (0, 8), 0)
    assert spot.last_street_aggressor == 1 and spot.raises == 0 and spot.board == RIVER[:3]
    # Facing 8 into 12: a pot-sized raise goes to 8 + 28 = 36, as the rules core sizes it.
    assert [str(a) for a in build_tree(spot).nodes[0].actions] == ["fold", "call", "raise 36", "allin 194"]
    assert spot.ranges[0] is not None and np.count_nonzero(spot.ranges[1]) == 6  # IP (seat 0) holds the AA range
    with pytest.raises(ValueError, match="heads-up"):
        spot_from_state(HoldemGame(HoldemConfig(num_players=3)).new_initial_state(), {0: None, 1: None}, sizes={})


def test_sorted_and_dense_showdowns_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    """The linear sorted-sums showdown (spots from the flop) and the sign-matrix product (river, turn) are the same
    function of the other player's reach, ties and blockers included."""
    from agent_zoo.solver.showdown import showdown_margin, showdown_tables

    spot = Spot(board=RIVER[:4], pot=100, stack=200, ranges=(parse_range("22+,A2s+,K9o+,QTs+"), parse_range("55+,AT+,KQ,76s")))
    lay = RangeCFR(build_tree(spot)).layout
    boards = np.concatenate([np.repeat(lay.streets[0].boards, 48, 0), np.array([[c] for c in range(52) if c not in spot.board])], 1)
    rng = np.random.default_rng(7)
    for hero in (0, 1):
        mine, other = lay.holdings[hero], lay.holdings[1 - hero]
        sorted_tables = showdown_tables(mine, other, boards, dense_limit=0)
        dense_tables = showdown_tables(mine, other, boards)
        assert sorted_tables.signs is None and dense_tables.signs is not None
        reach = rng.random((3, len(boards), len(other)))
        bits = (1 << COMBOS[other].astype(np.int64)).sum(1)
        board_bits = (1 << boards.astype(np.int64)).sum(1)
        reach *= (bits[None, :] & board_bits[:, None]) == 0  # no reach where a holding holds a board card
        np.testing.assert_allclose(showdown_margin(reach, sorted_tables), showdown_margin(reach, dense_tables), atol=1e-9)
    # The solver keeps one sign matrix and reads it flipped (minus its transposes) for the second player.
    from dataclasses import replace

    from agent_zoo.solver import showdown
    from agent_zoo.solver.passes import make_tables

    assert make_tables(lay).showdown[1].flip  # type: ignore[union-attr]
    flipped = replace(showdown_tables(lay.holdings[0], lay.holdings[1], boards), flip=True, converted={})
    reference = showdown_tables(lay.holdings[1], lay.holdings[0], boards, dense_limit=0)
    reach = rng.random((3, len(boards), len(lay.holdings[0])))
    reach *= ((1 << COMBOS[lay.holdings[0]].astype(np.int64)).sum(1)[None, :] & board_bits[:, None]) == 0
    for chunk_bytes in (showdown.CHUNK_BYTES, 1):  # converted once and kept; converted a board at a time
        monkeypatch.setattr(showdown, "CHUNK_BYTES", chunk_bytes)
        for part in (slice(None), slice(5, 40)):
            for dtype in (np.float64, np.float32):
                np.testing.assert_allclose(showdown_margin(reach[:, part].astype(dtype), flipped.boards(part)),
                                           showdown_margin(reach[:, part], reference.boards(part)), rtol=1e-5, atol=1e-4)


def test_the_last_street_in_runs_of_boards_gives_the_same_solve() -> None:
    """From the flop the river boards are solved a run at a time (memory), whole turns or parts of one; the numbers
    are those of one run up to the order of float sums (regret matching is not continuous where a regret is 0,
    so only one iteration and continuous functions of a profile are compared)."""
    plan = StreetSizes(bet=("0.5",), allin=True)
    spot = Spot(board=RIVER[:3], pot=20, stack=40, ranges=(parse_range("AQ,JT,99,54s"), parse_range("KK,QJs,A2s,87s")),
                sizes={(p, s): plan for p in (0, 1) for s in ("flop", "turn", "river")})
    tree = build_tree(spot)
    for isomorphism, turns, rivers in ((False, 49, 2352), (True, 36, 1429)):  # diamonds and clubs are alike here
        whole, runs = RangeCFR(tree, isomorphism=isomorphism), RangeCFR(tree, isomorphism=isomorphism)
        whole.chunk_elements = 1 << 30
        per_board = (whole.layout.streets[-1].num_nodes + 1) * max(len(h) for h in whole.layout.holdings)
        runs.chunk_elements = 30 * per_board  # at most 30 river boards a run: each turn's rivers in two parts
        assert whole.chunks() == [(slice(None), slice(None))]
        parts = runs.chunks()
        assert len(parts) == 2 * turns and all(p.stop - p.start == 1 for p, _ in parts)
        assert [b.start for _, b in parts[1:]] == [b.stop for _, b in parts[:-1]] and parts[-1][1].stop == rivers
        whole.iterate(1)
        runs.iterate(1)
        for p in (0, 1):
            for a, b in zip(whole.regrets[p] + whole.average[p], runs.regrets[p] + runs.average[p]):
                np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-9)
        whole.iterate(2)
        for p in (0, 1):  # the same profile: the same exact best responses and value
            runs.average[p] = [a.copy() for a in whole.average[p]]
        a, b = whole.exploitability(), runs.exploitability()
        np.testing.assert_allclose(a.best_response, b.best_response, rtol=1e-12)
        assert a.value == pytest.approx(b.value, rel=1e-12)


def test_threads_give_the_same_numbers() -> None:
    """Runs of river boards solved in two threads: bit for bit the numbers of one thread."""
    plan = StreetSizes(bet=("0.5",), allin=True)
    spot = Spot(board=RIVER[:3], pot=20, stack=40, ranges=(parse_range("AQ,JT,99,54s"), parse_range("KK,QJs,A2s,87s")),
                sizes={(p, s): plan for p in (0, 1) for s in ("flop", "turn", "river")})
    tree = build_tree(spot)
    one, two = RangeCFR(tree), RangeCFR(tree, threads=2)
    one.chunk_elements = two.chunk_elements = 20 * (one.layout.streets[-1].num_nodes + 1) * 4  # parts of turns
    for solver in (one, two):
        solver.iterate(3)
    for p in (0, 1):
        for a, b in zip(one.regrets[p] + one.average[p], two.regrets[p] + two.average[p]):
            assert np.array_equal(a, b)
    assert one.exploitability() == two.exploitability()
    with pytest.raises(ValueError, match="threads"):
        RangeCFR(tree, threads=0)
    with pytest.raises(ValueError, match="threads"):
        solve(spot, backend="jax", threads=2)


def test_float32_stays_float32_and_solves() -> None:
    """numpy in float32: no array is silently widened to float64, and the river spot still reaches 0.1%."""
    spot = load_commands(SPOTS / "river.txt").spot
    cfr, log = solve(spot, accuracy=0.1, max_iterations=1000, dtype="float32")
    assert log.exploitability_pct <= 0.1
    for arrays in (*cfr.regrets, *cfr.average):
        assert all(a.dtype == np.float32 for a in arrays)
    with pytest.raises(ValueError, match="dtype"):
        RangeCFR(build_tree(spot), dtype="float16")


def test_a_time_budget_stops_the_solve_at_the_next_check() -> None:
    spot = _spot()
    cfr, log = solve(spot, accuracy=0.0, max_iterations=10_000, check_every=7, seconds=0.0)
    assert log.iterations == 7 and log.exploitability_pct > 0  # one round, then the budget is spent
    with pytest.raises(ValueError, match="seconds"):
        solve(spot, seconds=-1.0)
