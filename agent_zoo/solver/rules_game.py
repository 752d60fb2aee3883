"""A spot's subgame played by the hold'em rules core, as a ``poker_envs.games.base.Game``.

The range-vs-range solver (``agent_zoo.solver.cfr``) never plays a hand: it computes chips, card removal and chance
weights from its own tables. This module plays the *same* subgame through the rules, so that the tabular CFR and
its exact best response (``agent_zoo.cfr``), which compile any ``Game`` into a tree, can check the solver's numbers
against chips the rules deal out:

* the root is a chance node that deals both holdings at once: every pair (OOP holding ``h``, IP holding ``o``) of
  positive weight that shares no card with the other or the board, with probability ``w_oop(h) w_ip(o) / Z``;
* then a :class:`~poker_envs.games.holdem.HoldemState` plays the hand. The menu of actions at each decision is the
  public tree's (:func:`agent_zoo.solver.tree.build_tree`, same order: action id ``a`` is ``node.actions[a]``), but
  the chips, the end of each street, the dealing of the next card (uniform over the cards neither the board nor
  either hand holds: the rules' own chance node) and the settlement at folds and showdowns are the rules' and
  ``poker_envs.core.settlement``'s;
* an information set is the player's holding and the public history: the rules' ``information_state_string``
  (own cards, board, every action with its amount).

The rules core starts every hand pre-flop, so the hand is driven to the spot: seat 1 has the button (heads-up it
posts the small blind and acts last after the flop), so seat 0 is the out-of-position player 0 of the spot. Both
blinds are the spot's ``big_blind`` (the rules then size the minimum bet and raise as the spot's tree does), an ante
of ``pot // 2 - big_blind`` brings each seat's chips in to ``pot // 2``, an odd pot's last chip is a dead chip
(``HoldemConfig.dead_chips``), and both players check every betting round before the spot's street. The
``starting_stacks`` are ``pot // 2 + stack``, so each has the spot's ``stack`` behind when the subgame starts.

Returns are chips won since the subgame started with the starting pot counted as half each player's (zero-sum, as
the solver counts them): what ``settle`` pays each seat, less its own chips in the pot and half the dead chip. They
are settled in real numbers (``exact=True``): a split pot of an odd number of chips gives each half, where the
rules' whole-chip settlement gives the odd chip to one seat. With an even pot both settlements pay the same.

Only ``Conventions.RULES`` spots can be played: TexasSolver's conventions size below the rules' minimum raise and
deal the next card as if one hand only were out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from agent_zoo.cfr.tree import GameTree
from agent_zoo.solver.cfr import RangeCFR
from agent_zoo.solver.layout import Layout, orbits
from agent_zoo.solver.ranges import COMBO_INDEX, COMBOS, NUM_COMBOS
from agent_zoo.solver.spot import Conventions, Spot
from agent_zoo.solver.tree import Act, Kind, PublicTree, build_tree
from poker_envs.core.cards import cards_to_str
from poker_envs.core.settlement import settle
from poker_envs.games.base import CHANCE, TERMINAL, ActionKind, Game, GameState
from poker_envs.games.holdem import BET, CALL, CHECK, FOLD, RAISE, HoldemConfig, HoldemGame, HoldemState

BUTTON = 1  # seat 1 has the button: in position after the flop, so seats are the spot's players
_KINDS = {Act.FOLD: ActionKind.FOLD, Act.CHECK: ActionKind.CHECK, Act.CALL: ActionKind.CALL,
          Act.BET: ActionKind.BET, Act.RAISE: ActionKind.RAISE, Act.ALLIN: ActionKind.ALL_IN}


def _holdings(spot: Spot, player: int) -> np.ndarray:
    """Indices into COMBOS of ``player``'s holdings with positive weight that miss the board (as the solver's)."""
    idx = np.flatnonzero(spot.ranges[player] > 0.0)
    return idx[~np.isin(COMBOS[idx], np.asarray(spot.board)).any(axis=1)]


class RulesSubgame(Game):
    """The subgame of ``spot`` (public tree ``tree``, built from the spot if not given) played by the rules."""

    def __init__(self, spot: Spot, tree: PublicTree | None = None) -> None:
        if spot.conventions is not Conventions.RULES:
            raise ValueError(f"the rules play Conventions.RULES spots only, got {spot.conventions}")
        half, dead = divmod(spot.pot, 2)
        if half < spot.big_blind:
            raise ValueError(
                f"pot {spot.pot} is below two big blinds ({spot.big_blind} each): the rules' pre-flop cannot put "
                "less than a big blind in per player"
            )
        self.spot = spot
        self.tree = tree if tree is not None else build_tree(spot)
        if self.tree.spot is not spot:
            raise ValueError("tree: built for another spot")
        self.dead = dead
        self.rules = HoldemGame(HoldemConfig(
            num_players=2, small_blind=spot.big_blind, big_blind=spot.big_blind, ante=half - spot.big_blind,
            starting_stacks=(half + spot.stack, half + spot.stack), dead_chips=dead,
        ))
        self.holdings = (_holdings(spot, 0), _holdings(spot, 1))
        cards = [COMBOS[h] for h in self.holdings]
        clash = (cards[0][:, None, :, None] == cards[1][None, :, None, :]).any(axis=(2, 3))  # (H_0, H_1)
        weight = spot.ranges[0][self.holdings[0]][:, None] * spot.ranges[1][self.holdings[1]][None, :]
        weight = np.where(clash, 0.0, weight)
        if weight.sum() <= 0.0:
            raise ValueError("the two ranges have no pair of holdings that share no card")
        first, second = np.nonzero(weight)
        outcomes = self.holdings[0][first] * NUM_COMBOS + self.holdings[1][second]
        order = np.argsort(outcomes)
        probs = weight[first, second] / weight.sum()
        self.deals: list[tuple[int, float]] = [(int(outcomes[i]), float(probs[i])) for i in order]
        self.deal_ids = frozenset(o for o, _ in self.deals)
        self.name = "rules_subgame"
        self.num_players = 2
        self.num_distinct_actions = max(len(n.actions) for n in self.tree.nodes)
        self.max_game_length = 1 + max(n.depth for n in self.tree.nodes) * self.tree.num_streets

    def new_initial_state(self, **options: Any) -> RulesSubgameState:
        """The root: the chance node that deals both holdings. Takes no options."""
        if options:
            raise ValueError(f"RulesSubgame takes no options, got {sorted(options)}")
        return RulesSubgameState(self, None, 0, (0, 0))

    def start(self, oop: int, ip: int) -> HoldemState:
        """A rules hand with holdings ``oop`` and ``ip`` (indices into COMBOS) at the spot's first decision:
        the blinds, antes and board dealt, every earlier betting round checked through."""
        state = self.rules.new_initial_state(
            button=BUTTON, hole=[COMBOS[oop].tolist(), COMBOS[ip].tolist()], board=list(self.spot.board)
        )
        street = len(self.spot.board) - 2  # the rules number the flop 1
        while not (state.street == street and state.current_player() >= 0):
            player = state.current_player()
            if player == CHANCE:
                (card, _), = state.chance_outcomes()  # the fixed deck: one outcome
                state.apply(card)
            elif player == TERMINAL:
                raise RuntimeError("the rules ended the hand before the spot's street")
            else:
                state.apply_raw(CHECK)
        if state.board != list(self.spot.board) or state.current_player() != 0:
            raise RuntimeError(f"the rules reached {state!r}, not the spot's first decision")
        return state


class RulesSubgameState(GameState):
    """A node: the rules hand (None at the root), the public-tree node it stands at, and the chips each seat had
    in when the subgame started."""

    num_players = 2

    def __init__(self, game: RulesSubgame, rules: HoldemState | None, node: int, start: tuple[int, int]) -> None:
        self.game = game
        self.rules = rules
        self.node = node
        self.start = start

    # The contract --------------------------------------------------------------------------------------------
    def current_player(self) -> int:
        return CHANCE if self.rules is None else self.rules.current_player()

    def legal_actions(self) -> list[int]:
        if self.rules is None:
            return [o for o, _ in self.game.deals]
        if self.rules.current_player() < 0:
            return self.rules.legal_actions()
        return list(range(len(self.game.tree.nodes[self.node].actions)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.rules is None:
            return list(self.game.deals)
        return self.rules.chance_outcomes()

    def apply(self, action: int) -> None:
        game, tree = self.game, self.game.tree
        if self.rules is None:
            if action not in game.deal_ids:
                raise ValueError(f"deal {action!r} is not a pair of holdings of the two ranges")
            self.rules = game.start(*divmod(int(action), NUM_COMBOS))
            self.start = (self.rules.contributed[0], self.rules.contributed[1])
            self.node = 0
            self._check()
            return
        public = tree.nodes[self.node]
        if self.rules.current_player() == CHANCE:
            if public.kind != Kind.CHANCE:
                raise RuntimeError(f"the rules deal a card where the public tree has a {public.kind.name} node "
                                   f"({public.history!r})")
            self.rules.apply(action)
            self.node = public.children[0]
        else:
            if not 0 <= action < len(public.actions):
                raise ValueError(f"action {action!r} is illegal here; legal actions: {self.legal_actions()}")
            move = public.actions[action]
            if move.kind in (Act.FOLD, Act.CHECK, Act.CALL):
                self.rules.apply_raw({Act.FOLD: FOLD, Act.CHECK: CHECK, Act.CALL: CALL}[move.kind])
            else:
                self.rules.apply_raw(RAISE if self.rules.max_bet() > 0 else BET, move.to)
            self.node = public.children[action]
        self._check()

    def _check(self) -> None:
        """The rules and the public tree agree on what comes next and on the chips each seat has in."""
        public = self.game.tree.nodes[self.node]
        player = self.rules.current_player()  # type: ignore[union-attr]
        expected = {Kind.DECISION: public.player, Kind.CHANCE: CHANCE, Kind.FOLD: TERMINAL, Kind.SHOWDOWN: TERMINAL}
        committed = tuple(c - s for c, s in zip(self.rules.contributed, self.start))  # type: ignore[union-attr]
        if player != expected[public.kind] or committed != public.committed:
            raise RuntimeError(
                f"the rules ({self.rules!r}, chips in since the start {committed}) disagree with the public tree at "
                f"{public.history!r} ({public.kind.name}, player {public.player}, committed {public.committed})"
            )

    def clone(self) -> RulesSubgameState:
        return RulesSubgameState(self.game, None if self.rules is None else self.rules.clone(), self.node, self.start)

    def returns(self) -> np.ndarray:
        """Zero-sum chips won since the subgame started (the starting pot half each player's); zeros before the end."""
        rules = self.rules
        if rules is None or rules.current_player() != TERMINAL:
            return np.zeros(2)
        strengths = rules.strengths if sum(rules.folded) == 0 else None
        dead = self.game.dead
        paid = settle(rules.contributed, rules.folded, strengths, rules.button, exact=True, dead=dead).collected
        return np.array([paid[s] - rules.contributed[s] - dead / 2 for s in (0, 1)], dtype=np.float64)

    def information_state_string(self, player: int) -> str:
        if self.rules is None:
            return f"p{player} deal"
        return self.rules.information_state_string(player)

    def action_to_string(self, action: int) -> str:
        if self.rules is None:
            oop, ip = divmod(int(action), NUM_COMBOS)
            return f"{cards_to_str(COMBOS[oop].tolist())} v {cards_to_str(COMBOS[ip].tolist())}"
        if self.rules.current_player() == CHANCE:
            return self.rules.action_to_string(action)
        return str(self.game.tree.nodes[self.node].actions[action])

    def action_kind(self, action: int) -> ActionKind:
        self._check_legal(action)
        return _KINDS[self.game.tree.nodes[self.node].actions[action].kind]

    def amount_to_call(self) -> float:
        self._acting_player()
        return self.rules.amount_to_call()  # type: ignore[union-attr]

    def raise_range(self) -> tuple[float, float] | None:
        self._acting_player()
        return self.rules.raise_range()  # type: ignore[union-attr]

    def betting_round(self) -> int:
        """The street since the subgame started: 0 on the spot's street, as the public tree numbers them."""
        return 0 if self.rules is None else self.game.tree.nodes[self.node].street

    def __repr__(self) -> str:
        return f"RulesSubgameState(node={self.node}, rules={self.rules!r})"


def _infoset_places(tree: GameTree, layout: Layout) -> list[tuple[int, int, int, int, int, int]]:
    """Per infoset of ``tree``: (player, street, first action slot of its decision, board, holding, number of
    actions), where the solver's arrays (L, B, H) keep its strategy."""
    # each board dealt, as a set: its representative among the layout's boards and the card map taking it there
    boards = []
    for k in range(len(layout.streets)):
        full, rep, maps = orbits(layout, k)
        boards.append({frozenset(int(c) for c in row): (int(r), m) for row, r, m in zip(full, rep, maps)})
    first_slot = [[{int(local): int(st.slots[p][r]) for r, local in enumerate(st.rows[p])} for st in layout.streets]
                  for p in (0, 1)]
    out = []
    for info, state in enumerate(tree.infoset_states):
        if not isinstance(state, RulesSubgameState) or state.rules is None:
            raise ValueError("tree: expected a GameTree compiled from a RulesSubgame")
        player = int(tree.infoset_player[info])
        street, local = layout.locate[state.node]
        board, card_map = boards[street][frozenset(state.rules.board)]
        hole = card_map[list(state.rules.hole[player])]
        combo = int(COMBO_INDEX[hole[0], hole[1]])
        holding = int(np.searchsorted(layout.holdings[player], combo))
        if holding == len(layout.holdings[player]) or layout.holdings[player][holding] != combo:
            raise ValueError(f"holding {cards_to_str(hole)} is not among the solver's holdings")
        actions = len(layout.tree.nodes[state.node].actions)
        out.append((player, street, first_slot[player][street][local], board, holding, actions))
    return out


def tabular_policy(tree: GameTree, layout: Layout, strategies: Sequence[Sequence[np.ndarray]]) -> np.ndarray:
    """The solver's strategies (per player, per street: (L, B, H), as ``RangeCFR.average_strategy``) as a
    policy (I, A) over the infosets of ``tree``, a ``GameTree`` compiled from a :class:`RulesSubgame` of the
    layout's spot: each infoset reads the row of its public node, board and holding."""
    policy = np.zeros((tree.num_infosets, tree.num_actions))
    for info, (player, street, slot, board, holding, actions) in enumerate(_infoset_places(tree, layout)):
        policy[info, :actions] = strategies[player][street][slot : slot + actions, board, holding]
    return policy


def layout_strategies(tree: GameTree, layout: Layout, policy: np.ndarray) -> list[list[np.ndarray]]:
    """The inverse of :func:`tabular_policy`: a policy (I, A) over ``tree``'s infosets as the solver's arrays (per
    player, per street: (L, B, H)); uniform over the legal actions where no infoset of ``tree`` lies (holdings
    that hold a dealt card). ``layout`` must be compiled without suit isomorphism: a policy over every board need
    not be the same on boards the suits map onto each other."""
    if len(layout.symmetries) > 1:
        raise ValueError("layout: compiled with suit isomorphism; use compile_tree(tree, isomorphism=False) to hold "
                         "a policy over every board")
    out = []
    for p in (0, 1):
        per_street = []
        for st in layout.streets:
            uniform = 1.0 / np.diff(st.slots[p]).repeat(np.diff(st.slots[p]))  # (L,): 1 / actions of the slot's node
            shape = uniform.shape + (len(st.boards), len(layout.holdings[p]))
            per_street.append(np.array(np.broadcast_to(uniform[:, None, None], shape)))
        out.append(per_street)
    for info, (player, street, slot, board, holding, actions) in enumerate(_infoset_places(tree, layout)):
        out[player][street][slot : slot + actions, board, holding] = policy[info, :actions]
    return out


def solver_policy(tree: GameTree, solver: RangeCFR) -> np.ndarray:
    """``solver``'s average strategy as a policy (I, A) over ``tree``'s infosets (see :func:`tabular_policy`)."""
    return tabular_policy(tree, solver.layout, [solver.average_strategy(p) for p in (0, 1)])
