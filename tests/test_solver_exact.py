"""The range-vs-range solver (``agent_zoo.solver``) bound to the rules core and the tabular CFR.

``agent_zoo.solver.rules_game.RulesSubgame`` plays a spot's subgame with the hold'em rules core (chips, streets,
the next card's chance node, settlement), so ``agent_zoo.cfr`` compiles it into an ordinary game tree. On small
spots (river spots with ties on the board, holdings that block each other, an odd pot, minimum-raise lifting, and
turn spots with a donk bet and an all-in run-out):

* the game value: the exact value of the rules' game, by the sequence-form linear program (Koller, Megiddo and von
  Stengel, "Efficient computation of equilibria for extensive two-person games", Games and Economic Behavior
  1996), is what the range solver's average strategy earns after a few thousand DCFR iterations (to 1e-6 chips),
  what the tabular DCFR earns, and what each side's best response earns against the program's equilibrium in the
  range solver's own passes (to 1e-8): CFR's exploitability shrinks about as 1/T, so no CFR run in this file's
  time reaches 1e-9, and the linear program stands in for the converged tabular solve;
* the exact best response: for any strategy (the solver's unconverged average, a random profile), the tabular
  best response on the rules' tree and the range solver's agree to 1e-9 chips, which binds the solver's values,
  card removal and chance weights to the rules for every strategy, not only at equilibrium;
* the chips at every fold and showdown of the solver's layout are the rules' settlement, on random spots and paths;
* a plain-loop reference (every (hero, other) pair, the tree walked by hand, hands ranked by the scalar evaluator)
  gives the solver's counterfactual values on a tiny river spot.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

import numpy as np
import pytest
from scipy.optimize import linprog
from scipy.sparse import coo_matrix, csr_matrix, hstack

from agent_zoo.cfr import GameTree, best_response_values, expected_values, make_solver
from agent_zoo.cfr.tree import PlayerTree
from agent_zoo.solver import passes
from agent_zoo.solver.cfr import RangeCFR
from agent_zoo.solver.layout import compile_tree
from agent_zoo.solver.ranges import COMBO_INDEX, COMBOS, NUM_COMBOS
from agent_zoo.solver.rules_game import (
    RulesSubgame, RulesSubgameState, layout_strategies, solver_policy, tabular_policy,
)
from agent_zoo.solver.spot import Conventions, Spot, StreetSizes
from agent_zoo.solver.tree import Kind, PublicTree, build_tree
from poker_envs.core.cards import NUM_CARDS, cards_from_str
from poker_envs.core.evaluator import evaluate, evaluate_cross
from poker_envs.games.base import CHANCE, TERMINAL

F = Fraction


# Spots ------------------------------------------------------------------------------------------------------------
def _weights(rng: np.random.Generator, holdings: list[int]) -> np.ndarray:
    """A range: random weights in [0.2, 1] on ``holdings`` (indices into COMBOS), 0 elsewhere."""
    out = np.zeros(NUM_COMBOS)
    out[holdings] = rng.uniform(0.2, 1.0, len(holdings))
    return out


def _random_ranges(rng: np.random.Generator, board: tuple[int, ...], counts: tuple[int, int],
                   pool: list[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Random ranges of ``counts`` holdings each, drawn from the holdings of ``pool``'s cards (default: every
    card off the board); a small pool makes holdings share cards, within a range and across the two."""
    cards = [c for c in (range(NUM_CARDS) if pool is None else pool) if c not in board]
    candidates = [int(COMBO_INDEX[a, b]) for a, b in itertools.combinations(cards, 2)]
    return tuple(_weights(rng, [int(h) for h in rng.choice(candidates, n, replace=False)]) for n in counts)  # type: ignore[return-value]


def _named(*holdings: str) -> list[int]:
    return [int(COMBO_INDEX[tuple(cards_from_str(h))]) for h in holdings]


def _both(**sizes: StreetSizes) -> dict[tuple[int, str], StreetSizes]:
    """The same sizes for both players on the named streets."""
    return {(p, street): s for p in (0, 1) for street, s in sizes.items()}


def _river_random() -> Spot:
    rng = np.random.default_rng(11)
    board = tuple(int(c) for c in rng.choice(NUM_CARDS, 5, replace=False))
    sizes = StreetSizes(bet=(F(1, 2),), raise_=(F(1),), allin=True)
    return Spot(board=board, pot=10, stack=20, ranges=_random_ranges(rng, board, (6, 6)), sizes=_both(river=sizes))


def _river_ties() -> Spot:
    """A straight on the board: most holdings play it and split; a ten or a jack makes a higher straight."""
    rng = np.random.default_rng(12)
    oop = _named("Th2d", "2h3d", "AhKd", "TdJh", "QsQh", "4c4d")
    ip = _named("2s3s", "AsKs", "Tc2c", "JdTs", "AhQc", "4h4s", "Qd3c")
    sizes = StreetSizes(bet=(F(1, 3), F(1)), raise_=(F(1, 2),), allin=True)
    board = tuple(cards_from_str("5c6d7h8s9c"))
    return Spot(board=board, pot=12, stack=30, ranges=(_weights(rng, oop), _weights(rng, ip)), sizes=_both(river=sizes))


def _river_blockers_odd_pot() -> Spot:
    """Holdings made of six cards only, so most pairs block each other; an odd pot (a dead chip to the rules);
    all-in past two thirds of the stack and one raise a street."""
    rng = np.random.default_rng(13)
    board = tuple(cards_from_str("2c7d9hJsKc"))
    pool = cards_from_str("AhAdKhQsQdJh")
    sizes = StreetSizes(bet=(F(1, 2), F(1)), raise_=(F(3, 4),))
    return Spot(board=board, pot=11, stack=18, ranges=_random_ranges(rng, board, (7, 8), pool),
                sizes=_both(river=sizes), allin_threshold=F(2, 3), raise_limit=1)


def _river_min_raise() -> Spot:
    """Sizes below the big blind and the minimum raise, lifted to them as the rules require; two raises a street."""
    rng = np.random.default_rng(14)
    board = tuple(cards_from_str("3d4d8sTdQh"))
    sizes = StreetSizes(bet=(F(1, 10),), raise_=(F(1, 10),))
    return Spot(board=board, pot=8, stack=12, ranges=_random_ranges(rng, board, (4, 5)), sizes=_both(river=sizes),
                big_blind=2, raise_limit=2)


def _turn_donk() -> Spot:
    """A turn spot: one bet size a street (the river bet is the all-in), and OOP's river lead into IP's turn bet
    sized as a donk bet."""
    rng = np.random.default_rng(15)
    board = tuple(cards_from_str("2hTc9dAs"))
    half = StreetSizes(bet=(F(1, 2),))
    sizes = _both(turn=half, river=half)
    sizes[(0, "river")] = StreetSizes(bet=(F(1, 2),), donk=(F(1, 4),))
    return Spot(board=board, pot=10, stack=15, ranges=_random_ranges(rng, board, (3, 4)), sizes=sizes)


def _turn_allin_runout() -> Spot:
    """A turn spot whose only bet is all-in: after a call the river comes without betting."""
    rng = np.random.default_rng(16)
    board = tuple(cards_from_str("5s5h8cKd"))
    return Spot(board=board, pot=10, stack=5, ranges=_random_ranges(rng, board, (3, 3)),
                sizes=_both(turn=StreetSizes(bet=(F(1, 2),))))


SPOTS = {
    "river_random": _river_random,
    "river_ties": _river_ties,
    "river_blockers_odd_pot": _river_blockers_odd_pot,
    "river_min_raise": _river_min_raise,
    "turn_donk": _turn_donk,
    "turn_allin_runout": _turn_allin_runout,
}


@functools.cache
def _setup(name: str) -> tuple[Spot, PublicTree, GameTree]:
    """The spot, its public tree and the tabular tree of its rules game (built once per test session)."""
    spot = SPOTS[name]()
    tree = build_tree(spot)
    return spot, tree, GameTree.build(RulesSubgame(spot, tree))


# Exact values: the sequence-form linear program ---------------------------------------------------------------------
def _sequence_constraints(pt: PlayerTree, num_actions: int) -> csr_matrix:
    """E with E x = e_0: the empty sequence has weight 1, each infoset's legal sequences add up to its parent's."""
    rows, cols, vals = [0], [0], [1.0]
    for i in range(pt.num_infosets):
        rows.append(1 + i)
        cols.append(int(pt.parent_seq[i]))
        vals.append(-1.0)
        for a in np.flatnonzero(pt.legal[i]):
            rows.append(1 + i)
            cols.append(1 + i * num_actions + int(a))
            vals.append(1.0)
    return coo_matrix((vals, (rows, cols)), shape=(1 + pt.num_infosets, pt.num_sequences)).tocsr()


def _maximin(tree: GameTree, player: int) -> tuple[float, np.ndarray]:
    """``player``'s game value and a maximin realization plan: max u_0 over (x, u) with E x = e_0, x >= 0 and
    F^T u <= A^T x (the other player's sequence constraints F, ``player``'s payoff matrix A)."""
    me, other = tree.players[player], tree.players[1 - player]
    payoff = coo_matrix((tree.terminal_cu[:, player], (me.terminal_seq, other.terminal_seq)),
                        shape=(me.num_sequences, other.num_sequences)).tocsr()
    e, f = _sequence_constraints(me, tree.num_actions), _sequence_constraints(other, tree.num_actions)
    nx, nu = me.num_sequences, f.shape[0]
    cost = np.zeros(nx + nu)
    cost[nx] = -1.0
    b_eq = np.zeros(e.shape[0])
    b_eq[0] = 1.0
    legal = np.concatenate([[True], me.legal.ravel()])
    bounds = [(0.0, None if ok else 0.0) for ok in legal] + [(None, None)] * nu
    result = linprog(cost, A_ub=hstack([-payoff.T, f.T]).tocsr(), b_ub=np.zeros(other.num_sequences),
                     A_eq=hstack([e, csr_matrix((e.shape[0], nu))]).tocsr(), b_eq=b_eq, bounds=bounds, method="highs")
    assert result.status == 0, result.message
    return -float(result.fun), result.x[:nx]


def _plan_policy(pt: PlayerTree, plan: np.ndarray, num_actions: int) -> np.ndarray:
    """The behaviour policy of a realization plan (uniform where the infoset is never reached)."""
    rows = np.maximum(plan[1:].reshape(pt.num_infosets, num_actions), 0.0) * pt.legal
    total = rows.sum(axis=1, keepdims=True)
    return np.where(total > 1e-12, rows / np.where(total > 1e-12, total, 1.0), pt.uniform)


def _range_best_responses(solver: RangeCFR, strategies: list[list[np.ndarray]]) -> np.ndarray:
    """Each player's best-response value (chips) in the range solver's passes against the other's ``strategies``."""
    lay, tab = solver.layout, solver.tables
    return np.array([
        float(passes.per_hand(np, lay, tab, p, solver.values(p, solver.reach(1 - p, strategies[1 - p]), None)[0][0, 0]))
        for p in (0, 1)
    ])


def _random_strategies(rng: np.random.Generator, solver: RangeCFR) -> list[list[np.ndarray]]:
    """A random profile in the solver's arrays: per player, street: (L, B, H), Dirichlet(1) over each decision's
    actions."""
    out = []
    for p in (0, 1):
        per_street = []
        for st in solver.layout.streets:
            draw = rng.gamma(1.0, size=(len(st.slot_node[p]), len(st.boards), len(solver.layout.holdings[p]))) + 1e-3
            total = np.add.reduceat(draw, st.slots[p][:-1], axis=0) if len(draw) else draw
            per_street.append(draw / np.repeat(total, np.diff(st.slots[p]), axis=0))
        out.append(per_street)
    return out


# The rules game ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", SPOTS)
def test_the_rules_game_walks_the_public_tree(name: str) -> None:
    """Every decision of the public tree is reached by the rules (``RulesSubgameState`` checks at every step that
    the rules and the tree agree on who acts and on the chips in); the root deals every pair of the solver's
    holdings that share no card, with probabilities adding up to 1, and every OOP holding with such a pair acts
    at the root (a holding that every holding of the other range blocks is never dealt)."""
    spot, tree, game_tree = _setup(name)
    layout = compile_tree(tree)
    decisions = set(tree.decisions(0)) | set(tree.decisions(1))
    assert {s.node for s in game_tree.infoset_states if isinstance(s, RulesSubgameState)} == decisions
    deals = RulesSubgame(spot, tree).new_initial_state().chance_outcomes()
    assert sum(p for _, p in deals) == pytest.approx(1.0, abs=1e-12)
    pairs = {(int(h), int(o)) for h in layout.holdings[0] for o in layout.holdings[1]
             if not set(COMBOS[h].tolist()) & set(COMBOS[o].tolist())}
    assert {divmod(o, NUM_COMBOS) for o, _ in deals} == pairs
    root = [s for s in game_tree.infoset_states if isinstance(s, RulesSubgameState) and s.node == 0]
    acting = {int(COMBO_INDEX[s.rules.hole[0][0], s.rules.hole[0][1]]) for s in root if s.rules is not None}
    assert acting == {h for h, _ in pairs}


# Game value -------------------------------------------------------------------------------------------------------
CFR_ITERATIONS = 1000


@pytest.mark.parametrize("name", SPOTS)
def test_game_value_of_the_rules_game_is_the_range_solvers(name: str) -> None:
    """The exact value of the rules' game (the linear program's, both players' programs agreeing to 1e-8) is the
    range solver's game value: the program's equilibrium, read into the range solver's arrays, leaves each player's
    best response in the solver's own passes exactly the value (to 1e-8 chips), which certifies it as the value of
    the game the solver sees. The tabular best response says the same on the rules' tree. CFR runs of both solvers
    bracket it: each average profile's value is within its NashConv of the value, and each player's best response
    bounds it from its side."""
    _, tree, game_tree = _setup(name)
    value, plan_0 = _maximin(game_tree, 0)
    value_1, plan_1 = _maximin(game_tree, 1)
    assert value + value_1 == pytest.approx(0.0, abs=1e-8)
    equilibrium = game_tree.join([_plan_policy(game_tree.players[p], plan, game_tree.num_actions)
                                  for p, plan in ((0, plan_0), (1, plan_1))])
    np.testing.assert_allclose(best_response_values(game_tree, equilibrium), [value, -value], rtol=0, atol=1e-8)
    solver = RangeCFR(tree, "dcfr")
    strategies = layout_strategies(game_tree, solver.layout, equilibrium)
    np.testing.assert_allclose(_range_best_responses(solver, strategies), [value, -value], rtol=0, atol=1e-8)

    solver.iterate(CFR_ITERATIONS)
    result = solver.exploitability()
    tabular = make_solver(game_tree, "dcfr")
    tabular.iterate(CFR_ITERATIONS)
    mine = tabular.exploitability()
    for br, own, nash_conv in ((result.best_response, result.value, result.nash_conv),
                               (mine.br_values, mine.policy_values[0], mine.nash_conv)):
        assert nash_conv < 1e-3 * tree.spot.pot, (name, nash_conv)
        assert -br[1] - 1e-9 <= value <= br[0] + 1e-9
        assert abs(own - value) <= nash_conv + 1e-9


# Exact best response ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("algorithm", ["dcfr", "cfr+"])
@pytest.mark.parametrize("name", SPOTS)
def test_exact_best_response_of_an_unconverged_strategy(name: str, algorithm: str) -> None:
    """After 25 iterations (far from an equilibrium) the range solver's average strategy, played in the rules'
    game, has the tabular best-response values and value that ``RangeCFR.exploitability`` reports, to 1e-9."""
    _, tree, game_tree = _setup(name)
    solver = RangeCFR(tree, algorithm)
    solver.iterate(25)
    result = solver.exploitability()
    policy = game_tree.check_policy(solver_policy(game_tree, solver), tolerance=1e-12)
    assert result.nash_conv > 1e-4  # not converged: the check is of the best response, not of the equilibrium
    np.testing.assert_allclose(best_response_values(game_tree, policy), result.best_response, rtol=0, atol=1e-9)
    assert expected_values(game_tree, policy)[0] == pytest.approx(result.value, abs=1e-9)


@pytest.mark.parametrize("name", SPOTS)
def test_exact_best_response_of_a_random_profile(name: str) -> None:
    """Any profile: a random one in the solver's arrays, played in the rules' game, has the same best-response
    values in the tabular tree as in the range solver's passes (1e-9); the profile survives the round trip
    through the tabular policy."""
    _, tree, game_tree = _setup(name)
    solver = RangeCFR(tree, "dcfr")
    strategies = _random_strategies(np.random.default_rng(sum(map(ord, name))), solver)
    policy = game_tree.check_policy(tabular_policy(game_tree, solver.layout, strategies), tolerance=1e-12)
    np.testing.assert_allclose(best_response_values(game_tree, policy), _range_best_responses(solver, strategies),
                               rtol=0, atol=1e-9)
    back = layout_strategies(game_tree, solver.layout, policy)
    np.testing.assert_array_equal(tabular_policy(game_tree, solver.layout, back), policy)


# Payoffs ----------------------------------------------------------------------------------------------------------
def _random_spot(rng: np.random.Generator) -> Spot:
    """A river or turn spot with two holdings a side, random chips, sizes, threshold and raise limit."""
    board = tuple(int(c) for c in rng.choice(NUM_CARDS, int(rng.choice([4, 5])), replace=False))
    big_blind = int(rng.choice([1, 2]))
    fractions = [F(1, 4), F(1, 3), F(1, 2), F(2, 3), F(1), F(3, 2), F(2)]

    def pick() -> tuple[Fraction, ...]:
        return tuple(fractions[i] for i in rng.choice(len(fractions), int(rng.integers(0, 3)), replace=False))

    def sizes() -> StreetSizes:
        return StreetSizes(bet=pick(), raise_=pick(), donk=pick(), allin=bool(rng.integers(2)))

    return Spot(
        board=board, pot=int(rng.integers(2 * big_blind, 40)), stack=int(rng.integers(1, 60)),
        ranges=_random_ranges(rng, board, (2, 2)),
        sizes={(p, street): sizes() for p in (0, 1) for street in ("turn", "river")},
        allin_threshold=F(1) if rng.integers(2) else F(2, 3), raise_limit=int(rng.integers(0, 4)), big_blind=big_blind,
    )


def test_fold_and_showdown_chips_are_the_rules_settlement() -> None:
    """On random spots and random paths through the rules (cards dealt by the rules' chance nodes, each weighted
    as the solver weights a dealt card), the chips at the fold or showdown reached, as the solver's layout has them
    (``fold_payoff``, or ``showdown_stake`` times the sign of the showdown by the solver's evaluator), are the
    rules' settlement: exactly, in real numbers (``returns``), and in whole chips (``chip_returns``, less half the
    dead chip of an odd pot) up to the odd chip of a split odd pot."""
    rng = np.random.default_rng(2024)
    met = {"fold": 0, "showdown": 0, "split": 0, "odd pot split": 0, "run-out": 0, "turn": 0, "all-in": 0}
    for _ in range(300):
        spot = _random_spot(rng)
        try:
            tree = build_tree(spot)
            game = RulesSubgame(spot, tree)
        except ValueError:
            continue  # no decision (no chips behind), or every pair of holdings shares a card
        layout = compile_tree(tree)
        state = game.new_initial_state()
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply(outcomes[int(rng.choice(len(outcomes), p=np.asarray(probs)))])
        assert state.rules is not None
        holes = [sorted(h) for h in state.rules.hole]
        while state.current_player() != TERMINAL:
            if state.current_player() == CHANCE:
                street = tree.nodes[state.node].street
                cards, weights = zip(*state.chance_outcomes())
                unseen = set(range(NUM_CARDS)) - set(state.rules.board) - set(holes[0] + holes[1])
                assert sorted(cards) == sorted(unseen)
                np.testing.assert_array_equal(weights, layout.chance_weight[street])
                if tree.nodes[tree.nodes[state.node].children[0]].kind != Kind.DECISION:
                    met["run-out"] += 1
                state.apply(int(rng.choice(cards)))
            else:
                state.apply(int(rng.integers(len(state.legal_actions()))))
        public = tree.nodes[state.node]
        street, local = layout.locate[state.node]
        st = layout.streets[street]
        if public.kind == Kind.FOLD:
            expected = st.fold_payoff[int(np.flatnonzero(st.fold_nodes == local)[0])]
            met["fold"] += 1
        else:
            assert public.kind == Kind.SHOWDOWN
            stake = st.showdown_stake[int(np.flatnonzero(st.showdown_nodes == local)[0])]
            values = evaluate_cross(np.array(holes), np.array([state.rules.board]))[:, 0]
            sign = float(np.sign(int(values[0]) - int(values[1])))
            expected = np.array([stake * sign, -stake * sign])
            met["showdown"] += 1
            met["split"] += sign == 0
            met["odd pot split"] += sign == 0 and spot.pot % 2 == 1
        met["turn"] += len(spot.board) == 4
        met["all-in"] += public.committed[0] == spot.stack or public.committed[1] == spot.stack
        np.testing.assert_array_equal(state.returns(), expected)
        whole = np.array(state.rules.chip_returns(), dtype=np.float64) - (spot.pot % 2) / 2
        odd_split = public.kind == Kind.SHOWDOWN and expected[0] == 0 and spot.pot % 2 == 1
        np.testing.assert_array_equal(np.abs(whole - expected), 0.5 if odd_split else 0.0)
    assert min(met.values()) >= 3, met


# A plain-loop reference -------------------------------------------------------------------------------------------
def _tiny_river() -> Spot:
    """Three holdings a side: one holding in both ranges, two more pairs that block each other, two that split."""
    rng = np.random.default_rng(17)
    board = tuple(cards_from_str("Kd9s6c3h2h"))
    oop = _named("AhQs", "Ks8h", "JdTd")
    ip = _named("AcQc", "KsJd", "Ks8h")
    sizes = StreetSizes(bet=(F(1, 2),), raise_=(F(1),), allin=True)
    return Spot(board=board, pot=10, stack=25, ranges=(_weights(rng, oop), _weights(rng, ip)), sizes=_both(river=sizes))


def _reference_values(spot: Spot, tree: PublicTree, hero: int, policy: dict[tuple[int, int], list[float]],
                      best: bool) -> dict[int, dict[int, float]]:
    """Counterfactual values of ``hero`` at every node per holding (index into COMBOS), by loops: the other
    player's reach of each holding along the path, times the chips at each fold and showdown below, summed over
    the other's holdings that share no card with the hero's or the board. ``policy[(node, combo)]`` is the acting
    player's action probabilities; ``best``: the hero takes its best action instead."""
    other = 1 - hero
    board = list(spot.board)
    holdings = [[h for h in range(NUM_COMBOS) if spot.ranges[p][h] > 0 and not set(COMBOS[h]) & set(board)]
                for p in (0, 1)]
    strength = {h: evaluate(list(COMBOS[h]) + board) for p in (0, 1) for h in holdings[p]}

    def walk(node: int, reach: dict[int, float]) -> dict[int, float]:
        public = tree.nodes[node]
        out: dict[int, float] = {}
        if public.kind in (Kind.FOLD, Kind.SHOWDOWN):
            for h in holdings[hero]:
                total = 0.0
                for o in holdings[other]:
                    if set(COMBOS[h]) & set(COMBOS[o]):
                        continue
                    if public.kind == Kind.FOLD:
                        chips = spot.pot / 2 + public.committed[public.player]
                        won = -chips if public.player == hero else chips
                    else:
                        chips = spot.pot / 2 + public.committed[0]
                        won = chips * ((strength[h] > strength[o]) - (strength[h] < strength[o]))
                    total += spot.ranges[other][o] * reach[o] * won
                out[h] = total
        elif public.player == hero:
            below = [walk(child, reach) for child in public.children]
            for h in holdings[hero]:
                if best:
                    out[h] = max(b[h] for b in below)
                else:
                    out[h] = sum(policy[(node, h)][a] * b[h] for a, b in enumerate(below))
        else:
            for a, child in enumerate(public.children):
                below = walk(child, {o: reach[o] * policy[(node, o)][a] for o in holdings[other]})
                for h in holdings[hero]:
                    out[h] = out.get(h, 0.0) + below[h]
        values[node] = out
        return out

    values: dict[int, dict[int, float]] = {}
    walk(0, {o: 1.0 for o in holdings[other]})
    return values


@pytest.mark.parametrize("hero", [0, 1])
def test_counterfactual_values_match_a_plain_loop_reference(hero: int) -> None:
    """``RangeCFR.values`` (the solver's card removal and O(holdings) showdowns) at every node, for a random
    profile and for a best response, are the loops' values."""
    spot = _tiny_river()
    tree = build_tree(spot)
    solver = RangeCFR(tree, "dcfr")
    layout = solver.layout
    assert len(layout.streets) == 1
    strategies = _random_strategies(np.random.default_rng(5 + hero), solver)
    policy: dict[tuple[int, int], list[float]] = {}
    st = layout.streets[0]
    for p in (0, 1):
        for row, local in enumerate(st.rows[p]):
            node = int(st.node_ids[local])
            for i, h in enumerate(layout.holdings[p]):
                policy[(node, int(h))] = strategies[p][0][st.slots[p][row] : st.slots[p][row + 1], 0, i].tolist()
    other_reach = solver.reach(1 - hero, strategies[1 - hero])
    for best in (False, True):
        got = solver.values(hero, other_reach, None if best else strategies[hero])[0]
        reference = _reference_values(spot, tree, hero, policy, best)
        for node, per_holding in reference.items():
            local = layout.locate[node][1]
            for i, h in enumerate(layout.holdings[hero]):
                expected = per_holding[int(h)]
                assert got[local, 0, i] == pytest.approx(expected, abs=1e-12, rel=1e-12), (node, int(h), best)


# Refusals ---------------------------------------------------------------------------------------------------------
def test_the_rules_game_refuses_what_the_rules_cannot_play() -> None:
    """TexasSolver's conventions (sizes below the minimum raise, a card dealt as if one hand were out) and a pot
    below two big blinds (the rules' pre-flop puts at least a big blind in per player) are refused by name."""
    spot = _river_random()
    ranges = spot.ranges
    with pytest.raises(ValueError, match="RULES"):
        RulesSubgame(Spot(board=spot.board, pot=10, stack=20, ranges=ranges, conventions=Conventions.TEXASSOLVER))
    with pytest.raises(ValueError, match="two big blinds"):
        RulesSubgame(Spot(board=spot.board, pot=3, stack=20, ranges=ranges, big_blind=2))
