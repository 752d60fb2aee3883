"""The public betting tree of a heads-up subgame (:class:`~agent_zoo.solver.spot.Spot`).

The tree holds what both players see: who acts, the actions, the chips each has put in. It does not branch on
the cards to come: a chance node stands for "deal the next card", and the betting after it has the same shape
whatever the card is (sizes depend on the pot only), so the solver keeps one copy of each later street's tree and
an array axis over the dealt cards (``agent_zoo.solver.layout``).

Sizing follows the spot's conventions (see :class:`~agent_zoo.solver.spot.Conventions`): under ``RULES`` a bet
of fraction f is ``pot_share(pot, f)`` (halves up, as every engine of the package sizes it) lifted to the big
blind, a raise goes to ``fraction_raise_to`` lifted to the minimum raise; under ``TEXASSOLVER`` the same sizes
are rounded to a chip and not lifted. Under both, as in TexasSolver's command files, a size that reaches the
player's stack is the all-in, and so is one after which the player's chips in the pot, counting half the
starting pot, would exceed ``allin_threshold`` times the effective stack. The out-of-position player's first
bet on the turn or river after calling the in-position player's bet or raise (a *donk* bet) uses the street's
donk sizes (none: only all-in, where allowed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from fractions import Fraction

from agent_zoo.solver.spot import STREETS, Conventions, Spot, StreetSizes
from poker_envs.core.sizing import pot_share


class Kind(IntEnum):
    """What a node of the public tree is."""

    DECISION = 0  # a player acts
    FOLD = 1  # a player folded: the other takes the pot
    SHOWDOWN = 2  # both hands are shown on the river (or after an all-in and the run-out)
    CHANCE = 3  # the next card is dealt; its only child is on the next street


class Act(IntEnum):
    """The kind of an action; a bet, raise or all-in carries the chips it bets to on its street."""

    FOLD = 0
    CHECK = 1
    CALL = 2
    BET = 3
    RAISE = 4
    ALLIN = 5


@dataclass(frozen=True)
class Action:
    kind: Act
    to: int = 0  # the street's bet level after the action (chips this street), for BET, RAISE, ALLIN

    def __str__(self) -> str:
        return self.kind.name.lower() if self.kind in (Act.FOLD, Act.CHECK, Act.CALL) else f"{self.kind.name.lower()} {self.to}"


@dataclass
class Node:
    """One node; ``committed`` are the chips each player has put in since the subgame started."""

    kind: Kind
    street: int  # 0 = the spot's first street, 1 = the next, ...
    depth: int  # actions since this street began
    committed: tuple[int, int]
    player: int = -1  # who acts (DECISION) or who folded (FOLD)
    actions: list[Action] = field(default_factory=list)
    children: list[int] = field(default_factory=list)  # node ids, one per action (one for CHANCE)
    parent: int = -1
    history: str = ""  # the actions from the root, e.g. "check bet 33 | check"


@dataclass(frozen=True)
class PublicTree:
    """The nodes in depth-first order (node 0 is the root) and the spot they were built for."""

    spot: Spot
    nodes: tuple[Node, ...]

    @property
    def num_streets(self) -> int:
        return 1 + max(n.street for n in self.nodes)

    def decisions(self, player: int) -> list[int]:
        return [i for i, n in enumerate(self.nodes) if n.kind == Kind.DECISION and n.player == player]


@dataclass(frozen=True)
class _Street:
    """Betting state within one street."""

    base: int  # chips each player had in when the street began
    bets: tuple[int, int]  # chips put in this street
    increment: int  # the last bet or raise's size (minimum raise under the rules)
    raises: int  # raises after the opening bet
    aggressor: int  # who bet or raised last on this street (-1: nobody)


def build_tree(spot: Spot) -> PublicTree:
    """The public tree of ``spot``; raises ValueError if it has no decision (e.g. no chips behind)."""
    builder = _Builder(spot)
    b0, b1 = spot.bets
    first = _Street(0, (b0, b1), abs(b0 - b1), spot.raises, -1 if b0 == b1 else int(b1 > b0))
    builder.decision(0, 0, spot.to_act, first, spot.last_street_aggressor, -1, "")
    return PublicTree(spot, tuple(builder.nodes))


class _Builder:
    def __init__(self, spot: Spot) -> None:
        self.spot = spot
        self.first = STREETS.index(spot.street)
        self.last = len(STREETS) - 1 - self.first  # index of the river
        self.nodes: list[Node] = []

    def add(self, node: Node) -> int:
        self.nodes.append(node)
        return len(self.nodes) - 1

    def street_start(self, street: int, spot_base: int, last_aggressor: int, parent: int, history: str) -> int:
        state = _Street(spot_base, (0, 0), 0, 0, -1)
        return self.decision(street, 0, 0, state, last_aggressor, parent, history)

    def decision(self, street: int, depth: int, player: int, st: _Street, last_aggressor: int, parent: int,
                 history: str) -> int:
        committed = (st.base + st.bets[0], st.base + st.bets[1])
        me = self.add(Node(Kind.DECISION, street, depth, committed, player, parent=parent, history=history))
        for action in self.actions(street, player, st, last_aggressor):
            label = f"{history} {action}".strip()
            child = self.after(street, depth, player, st, last_aggressor, action, me, label)
            self.nodes[me].actions.append(action)
            self.nodes[me].children.append(child)
        return me

    def actions(self, street: int, player: int, st: _Street, last_aggressor: int) -> list[Action]:
        spot = self.spot
        other = 1 - player
        behind = spot.stack - st.base  # chips each had for this street
        to_call = st.bets[other] - st.bets[player]
        plan = spot.street_sizes(player, STREETS[self.first + street])
        out: list[Action] = []
        if to_call == 0:
            out.append(Action(Act.CHECK))
            if behind > 0:
                lead = player == 0 and STREETS[self.first + street] != "flop" and last_aggressor == 1  # a donk bet
                out += self.sized(plan.donk if lead else plan.bet, plan, st, player, behind, raising=False)
            return out
        out += [Action(Act.FOLD), Action(Act.CALL)]
        if st.bets[other] < behind and st.bets[player] + to_call < behind and st.raises < spot.raise_limit:
            out += self.sized(plan.raise_, plan, st, player, behind, raising=True)
        return out

    def sized(self, fractions: tuple[Fraction, ...], plan: StreetSizes, st: _Street, player: int, behind: int,
              raising: bool) -> list[Action]:
        spot = self.spot
        max_bet = max(st.bets)
        pot = spot.pot + 2 * st.base + st.bets[0] + st.bets[1]
        to_call = max_bet - st.bets[player]
        levels: set[int] = set()
        lowest = max_bet + max(st.increment, spot.big_blind)  # the rules' minimum bet or raise (not TexasSolver's)
        for f in fractions:
            level = max_bet + pot_share(pot + to_call, f.numerator, f.denominator)  # a chip, halves up, in both
            if spot.conventions is Conventions.RULES:
                level = max(lowest, level)
            threshold = spot.allin_threshold
            if level >= behind or (threshold is not None and Fraction(spot.pot, 2) + st.base + level > threshold * spot.stack):
                level = behind
            levels.add(level)
        if plan.allin:
            levels.add(behind)
        kind = Act.RAISE if raising else Act.BET
        return [Action(Act.ALLIN if lv == behind else kind, lv) for lv in sorted(levels)]

    def after(self, street: int, depth: int, player: int, st: _Street, last_aggressor: int, action: Action,
              parent: int, history: str) -> int:
        other = 1 - player
        committed = (st.base + st.bets[0], st.base + st.bets[1])
        if action.kind == Act.FOLD:
            return self.add(Node(Kind.FOLD, street, depth + 1, committed, player, parent=parent, history=history))
        if action.kind == Act.CHECK and player == 0:
            return self.decision(street, depth + 1, other, st, last_aggressor, parent, history)
        if action.kind in (Act.CHECK, Act.CALL):
            level = max(st.bets)
            return self.street_end(street, depth + 1, st.base + level, st.aggressor, parent, history)
        bets = list(st.bets)
        increment = action.to - max(st.bets)
        bets[player] = action.to
        raises = st.raises + (1 if max(st.bets) > 0 else 0)
        nxt = _Street(st.base, (bets[0], bets[1]), max(increment, st.increment), raises, player)
        return self.decision(street, depth + 1, other, nxt, last_aggressor, parent, history)

    def street_end(self, street: int, depth: int, level: int, aggressor: int, parent: int, history: str) -> int:
        """Both players have ``level`` chips in: a showdown on the river, else the next card."""
        committed = (level, level)
        if street == self.last:
            return self.add(Node(Kind.SHOWDOWN, street, depth, committed, parent=parent, history=history))
        me = self.add(Node(Kind.CHANCE, street, depth, committed, parent=parent, history=history))
        label = f"{history} |"
        if level >= self.spot.stack:  # all-in: the cards come without betting
            child = self.street_end(street + 1, 0, level, -1, me, label)
        else:
            child = self.street_start(street + 1, level, aggressor, me, label)
        self.nodes[me].children.append(child)
        return me
