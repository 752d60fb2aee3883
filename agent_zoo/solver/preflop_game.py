"""A solved pre-flop for heads-up no-limit hold'em: CFR+ on an abstract pre-flop game over the 169 hand classes.

The game: both players start with ``stack`` chips and post the blinds; the button (small blind) acts first. The
betting follows a small size plan (:class:`PreflopPlan`: an open to a few big blinds, re-raises to a multiple of
the bet faced, all-in, an optional limp) and ends in a fold or when a call closes the street. What happens after
a call is not played out: the pot is split by the two hands' all-in equity over every board (the packaged
class-versus-class table of ``agent_zoo.push_fold.equity``, card removal between classes through its pair
counts). That is exact when the call is all-in and an approximation otherwise (every hand is credited with its
whole equity, as if the rest of the hand were checked down; position and the betting of later streets are left
out). The re-solving agent plays postflop by solving subgames, so this game only has to rank the pre-flop lines.

Solving: CFR+ (regret matching+, alternating updates, averages weighted by the iteration), every class of a
player updated as one array operation; exact best responses give NashConv in chips. With the blinds' payoffs and
only fold / all-in for the button and fold / call for the big blind the game is the push/fold game, and the
solution equals ``agent_zoo.push_fold``'s (a test binds them).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from agent_zoo.regret import regret_matching, update_regrets
from agent_zoo.solver.tree import Act


@dataclass(frozen=True, kw_only=True)
class PreflopPlan:
    """The sizes of the abstract pre-flop game (chips come from the table's blinds)."""

    open_to: tuple[float, ...] = (2.5,)  # the button's first raise: to this many big blinds
    limp: bool = True  # the button may complete the small blind (the big blind then checks or raises)
    raise_multiples: tuple[float, ...] = (3.0,)  # any later raise: to this many times the bet faced
    max_raises: int = 3  # raises short of all-in at most (the open counts); after them all-in only
    allin: bool = True  # all-in is always an action (while both have chips behind)
    allin_share: float = 2 / 3  # a raise that would commit more than this share of the stack is all-in instead

    def __post_init__(self) -> None:
        for name in ("open_to", "raise_multiples"):
            values = getattr(self, name)
            if not isinstance(values, tuple) or not all(isinstance(v, (int, float)) and v > 1 for v in values):
                raise ValueError(f"{name} must be a tuple of numbers above 1, got {values!r}")
        if isinstance(self.max_raises, bool) or not isinstance(self.max_raises, int) or self.max_raises < 0:
            raise ValueError(f"max_raises must be a whole number >= 0, got {self.max_raises!r}")
        if not 0 < self.allin_share <= 1:
            raise ValueError(f"allin_share must lie in (0, 1], got {self.allin_share!r}")
        if not (self.open_to or self.allin or self.limp):
            raise ValueError("the plan leaves the button no way to play on: give it open_to sizes, allin or limp")


class Move(NamedTuple):
    """An action of the abstract game: its kind (the postflop tree's ``Act``), the street chips the actor has in
    after it and, for a raise short of all-in, its rule: to ``times`` big blinds (``of_blind``, the open) or
    ``times`` the bet faced."""

    kind: Act
    to: int
    times: float = 0.0
    of_blind: bool = False

    def real_to(self, max_bet: int, big_blind: int, all_in_to: int) -> int:
        """The same move at a real table: the raise-to its rule gives there (all-in: ``all_in_to``)."""
        if self.kind == Act.ALLIN:
            return all_in_to
        if self.kind != Act.RAISE:
            raise ValueError(f"only raises have a raise-to, not {self.kind.name.lower()}")
        return round(self.times * (big_blind if self.of_blind else max_bet))


@dataclass(frozen=True)
class Node:
    """A node: ``player`` to act (0 the big blind, 1 the button; -1 at a terminal), the chips each has in, the
    moves and their children (decisions), or the terminal's kind ("fold" with the folder as ``folder``, or
    "showdown")."""

    player: int
    committed: tuple[int, int]
    moves: tuple[Move, ...] = ()
    children: tuple[int, ...] = ()
    terminal: str = ""
    folder: int = -1


def raise_targets(plan: PreflopPlan, committed: tuple[int, int], actor: int, raises: int, stack: int, big_blind: int,
                  opening: bool) -> list[Move]:
    """The raises open to ``actor``: the plan's sizes (whole chips, at least a minimum raise), all-in for any size
    past ``allin_share`` of the stack, and all-in itself; none when the other player is all-in."""
    max_bet, other = max(committed), committed[1 - actor]
    if other >= stack or committed[actor] >= stack:
        return []
    min_to = max_bet + max(max_bet - min(committed), big_blind)
    rules: list[Move] = []
    if raises < plan.max_raises:
        rules = [Move(Act.RAISE, 0, x, opening) for x in (plan.open_to if opening else plan.raise_multiples)]
    moves: list[Move] = []
    for rule in rules:
        to = max(rule.real_to(max_bet, big_blind, stack), min_to)
        move = Move(Act.ALLIN, stack) if to > plan.allin_share * stack or to >= stack else rule._replace(to=to)
        if all(m.to != move.to for m in moves) and (move.kind == Act.RAISE or plan.allin):
            moves.append(move)
    if plan.allin and all(m.to != stack for m in moves):
        moves.append(Move(Act.ALLIN, stack))
    return [m for m in moves if m.to > max_bet]


def build_preflop_tree(stack: int, small_blind: int, big_blind: int, plan: PreflopPlan) -> tuple[Node, ...]:
    """The abstract game's nodes, root first (the button to act after the blinds)."""
    if not 0 < small_blind <= big_blind < stack:
        raise ValueError(f"need 0 < small_blind <= big_blind < stack, got {small_blind}, {big_blind}, {stack}")
    nodes: list[Node | None] = []

    def add(player: int, committed: tuple[int, int], raises: int, opening: bool) -> int:
        index = len(nodes)
        nodes.append(None)
        to_call = max(committed) - committed[player]
        moves: list[Move] = []
        kids: list[int] = []
        if to_call > 0:
            moves.append(Move(Act.FOLD, committed[player]))
            kids.append(_leaf(nodes, committed, folder=player))
        max_bet = max(committed)
        if to_call == 0:
            moves.append(Move(Act.CHECK, max_bet))
            kids.append(_leaf(nodes, committed))  # a check closes the street (the big blind's option after a limp)
        elif opening and plan.limp:
            moves.append(Move(Act.CALL, max_bet))
            kids.append(add(1 - player, (max_bet, max_bet), raises, False))
        elif not opening:
            moves.append(Move(Act.CALL, max_bet))
            kids.append(_leaf(nodes, (max_bet, max_bet)))
        for move in raise_targets(plan, committed, player, raises, stack, big_blind, opening):
            after = list(committed)
            after[player] = move.to
            moves.append(move)
            kids.append(add(1 - player, (after[0], after[1]), raises + 1, False))
        nodes[index] = Node(player, committed, tuple(moves), tuple(kids))
        return index

    add(1, (big_blind, small_blind), 0, True)
    return tuple(n for n in nodes if n is not None)


def _leaf(nodes: list[Node | None], committed: tuple[int, int], folder: int = -1) -> int:
    nodes.append(Node(-1, committed, terminal="fold" if folder >= 0 else "showdown", folder=folder))
    return len(nodes) - 1


@lru_cache(maxsize=1)
def _class_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(W, W * E, combos per class): ``W[c, d]`` the number of holdings of class d compatible with one of class c;
    ``E`` the all-in equity of c against d."""
    from agent_zoo.push_fold.equity import load_equity
    from agent_zoo.push_fold.hands import class_combo_counts

    table = load_equity()
    counts = class_combo_counts().astype(np.float64)
    w = table.pair_counts / counts[:, None]
    we = w * table.equity
    for a in (w, we, counts):
        a.setflags(write=False)
    return w, we, counts


class PreflopCFR:
    """CFR+ on the abstract pre-flop game (module doc): strategies per node as (moves, 169) arrays."""

    def __init__(self, stack: int, small_blind: int, big_blind: int, plan: PreflopPlan | None = None) -> None:
        self.plan = plan or PreflopPlan()
        self.nodes = build_preflop_tree(stack, small_blind, big_blind, self.plan)
        self.w, self.we, self.counts = _class_tables()
        self.regrets = {i: np.zeros((len(n.moves), 169)) for i, n in enumerate(self.nodes) if n.moves}
        self.sums = {i: np.zeros_like(r) for i, r in self.regrets.items()}
        self.iterations = 0

    def current(self, node: int) -> np.ndarray:
        return regret_matching(self.regrets[node], axis=0)

    def strategy(self, node: int) -> np.ndarray:
        """(moves, 169): the average strategy at a decision node (uniform where a class never reached it)."""
        return regret_matching(self.sums[node], axis=0)

    def iterate(self, iterations: int = 1) -> None:
        for _ in range(iterations):
            self.iterations += 1
            for player in (1, 0):
                self._walk(0, player, np.ones(169), np.ones(169), learn=True)

    def _terminal(self, node: Node, player: int, other: np.ndarray) -> np.ndarray:
        mine = node.committed[player]
        if node.terminal == "fold":
            gain = -mine if node.folder == player else node.committed[1 - player]
            return gain * (self.w @ other)
        pot = node.committed[0] + node.committed[1]
        return pot * (self.we @ other) - mine * (self.w @ other)

    def _walk(self, index: int, player: int, own: np.ndarray, other: np.ndarray, learn: bool,
              policy: dict[int, np.ndarray] | None = None, best: bool = False) -> np.ndarray:
        """Counterfactual values of ``player``'s classes at ``index`` (per holding of the class), the other's
        reach ``other`` (per holding), ``own`` the player's reach (for the averages). ``learn``: update regrets
        and averages with the current strategies; otherwise play ``policy`` (and best-respond if ``best``)."""
        node = self.nodes[index]
        if node.terminal:
            return self._terminal(node, player, other)
        sigma = self.current(index) if learn else policy[index]  # type: ignore[index]
        if node.player != player:
            return sum(self._walk(k, player, own, other * sigma[a], learn, policy, best) for a, k in enumerate(node.children))
        values = np.stack([self._walk(k, player, own * sigma[a], other, learn, policy, best)
                           for a, k in enumerate(node.children)])
        if best:
            return values.max(axis=0)
        value = (sigma * values).sum(axis=0)
        if learn:
            update_regrets(self.regrets[index], values - value, plus=True)
            self.sums[index] += self.iterations * own * sigma
        return value

    def average_policy(self) -> dict[int, np.ndarray]:
        return {i: self.strategy(i) for i in self.regrets}

    def values(self, policy: dict[int, np.ndarray]) -> tuple[float, float]:
        """Each player's expected chips (relative to the start of the hand) when both play ``policy``."""
        return self._root_value(policy, 0, False), self._root_value(policy, 1, False)

    def nash_conv(self, policy: dict[int, np.ndarray] | None = None) -> float:
        """Sum of both players' best-response gains against ``policy`` (the average strategy by default), chips."""
        policy = policy or self.average_policy()
        return sum(self._root_value(policy, p, True) - self._root_value(policy, p, False) for p in (0, 1))

    def _root_value(self, policy: dict[int, np.ndarray], player: int, best: bool) -> float:
        per_holding = self._walk(0, player, np.ones(169), np.ones(169), False, policy, best)
        return float(self.counts @ per_holding / (self.counts @ self.w).sum())  # over all ordered pairs of holdings


@lru_cache(maxsize=1)
def combo_classes() -> np.ndarray:
    """(1326,): the class (0..168, chart order) of each holding in ``agent_zoo.solver.ranges.COMBOS`` order."""
    from agent_zoo.push_fold.hands import hand_class
    from agent_zoo.solver.ranges import COMBOS

    classes = np.array([hand_class(int(a), int(b)) for a, b in COMBOS], dtype=np.int64)
    classes.setflags(write=False)
    return classes


@dataclass(frozen=True)
class SolvedPreflop:
    """The abstract game's average strategy, per node as (moves, 1326) probabilities over the holdings."""

    nodes: tuple[Node, ...]
    probs: dict[int, np.ndarray]
    nash_conv: float  # chips, both players' best-response gains in the abstract game
    iterations: int


@lru_cache(maxsize=16)
def solved_preflop(stack: int, small_blind: int, big_blind: int, plan: PreflopPlan, iterations: int) -> SolvedPreflop:
    """The abstract game of that table solved by ``iterations`` of CFR+ (cached per table: a few seconds each)."""
    cfr = PreflopCFR(stack, small_blind, big_blind, plan)
    cfr.iterate(iterations)
    policy = cfr.average_policy()
    classes = combo_classes()
    probs = {}
    for node, strategy in policy.items():
        expanded = strategy[:, classes]
        expanded.setflags(write=False)
        probs[node] = expanded
    return SolvedPreflop(cfr.nodes, probs, cfr.nash_conv(policy), iterations)
