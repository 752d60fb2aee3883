"""The public tree compiled to arrays: per street, the boards dealt so far, the holdings each player can hold on
them, and index tables that let one numpy operation move every node of a depth at once.

Street ``k`` of a subgame that starts with ``n`` board cards has ``B_k`` boards: every way to deal ``k`` more
cards in order (1 on the first street; 48 river cards after a turn board; 49 x 48 from a flop), or, with suit
isomorphism, one representative of each class of boards that a permutation of the suits maps onto each other
while it leaves the spot's board and both ranges unchanged (from Qs Jh 2h with ranges that treat diamonds and
clubs alike, 36 turn cards of 49 and 1,429 run-outs of 2,352). Each board of street ``k`` lists its children on
street ``k + 1`` as a run, and for each card it deals the child (or the child's representative) and how the
holdings map onto it: the value of holding ``h`` on a board equals that of holding ``g(h)`` on ``g(board)`` for
such a permutation ``g``, so a chance node's value sums its children's values read through that map, and the
solution is exactly the one of the whole game. Each player's holdings are the combos its range gives weight to
that miss the spot's board; on a later board a holding that holds a dealt card is masked out.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from agent_zoo.solver.ranges import COMBO_INDEX, COMBOS
from agent_zoo.solver.spot import Conventions, Spot
from agent_zoo.solver.tree import Kind, Node, PublicTree
from poker_envs.core.cards import NUM_CARDS


@dataclass(frozen=True)
class Group:
    """Decision nodes of one player at one depth of one street with the same number of actions ``n``: their
    action slots are the run ``start:stop`` of the player's slot arrays, node after node."""

    player: int
    nodes: np.ndarray  # (G,) street-local node indices
    start: int  # first slot of the first node
    stop: int  # start + G * n
    children: np.ndarray  # (G, n) street-local child indices: first, first + 1, ... (row-major)
    first: int  # the first child: the children are the rows first:first + G * n


@dataclass(frozen=True)
class Block:
    """Consecutive rows of one player's decisions on a street that all have ``n`` actions: slots ``start:stop``."""

    n: int
    start: int
    stop: int


@dataclass(frozen=True)
class StreetLayout:
    """One street's nodes. Arrays over nodes have ``num_nodes + 1`` rows: the last is an empty node whose reach
    and value stay 0. A player's regrets and strategies on the street are arrays over action slots (L_p, B, H),
    one slot per action of each of its decisions, with no padding: decisions ordered by number of actions, then
    depth, so that every group and every block is a contiguous run of slots."""

    boards: np.ndarray  # (B, cards) the boards of this street
    node_ids: np.ndarray  # (N,) public-tree ids of the street's nodes
    groups: tuple[Group, ...]  # decision groups in increasing depth
    rows: tuple[np.ndarray, np.ndarray]  # per player: (D_p,) street-local nodes of its decisions, in row order
    slots: tuple[np.ndarray, np.ndarray]  # per player: (D_p + 1,) row r's actions are slots slots[r]:slots[r + 1]
    slot_node: tuple[np.ndarray, np.ndarray]  # per player: (L_p,) the street-local node of each slot
    blocks: tuple[tuple[Block, ...], tuple[Block, ...]]  # per player: its rows by number of actions
    fold_nodes: np.ndarray  # (F,) street-local
    fold_payoff: np.ndarray  # (F, 2) chips each player wins at the fold (zero-sum)
    showdown_nodes: np.ndarray  # (S,) street-local
    showdown_stake: np.ndarray  # (S,) chips the better hand wins (the loser loses as much)
    chance_nodes: np.ndarray  # (C,) street-local
    chance_children: np.ndarray  # (C,) local indices of their children on the next street
    cards_dealt: int  # K: cards that can come next on each board (the cards not on it; 0 on the last street)
    parent: np.ndarray  # (B,) the board of the street before that each board extends (zeros on the first street)
    child_start: np.ndarray  # (B + 1,) boards child_start[b]:child_start[b + 1] of the next street extend board b
    deal_child: np.ndarray  # (B, K) per card that can come on board b, in card order: its board on the next street, or that board's representative
    deal_map: np.ndarray  # (B, K) the suit permutation (a row of CARD_MAPS) that takes the dealt board to deal_child's
    deal_perm: tuple[np.ndarray, np.ndarray] | None  # per player (B, K, H_p): the holding that holding h becomes under deal_map; None where every dealt board is its own representative

    @property
    def num_nodes(self) -> int:
        return len(self.node_ids)


@dataclass(frozen=True)
class Layout:
    tree: PublicTree
    holdings: tuple[np.ndarray, np.ndarray]  # per player: (H_p,) indices into COMBOS
    weights: tuple[np.ndarray, np.ndarray]  # per player: (H_p,) its range's weights on them
    valid: tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]  # valid[p][k]: (B_k, H_p) holding misses board
    streets: tuple[StreetLayout, ...]
    chance_weight: tuple[float, ...]  # per street: each dealt card's probability given both hands
    locate: dict[int, tuple[int, int]]  # public-tree id -> (street, street-local index)
    symmetries: np.ndarray  # rows of CARD_MAPS that leave the spot unchanged (the identity alone: no isomorphism)


# The 24 permutations of the suits as maps of card ids (card = rank * 4 + suit); row 0 is the identity.
_SUIT_PERMUTATIONS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)
CARD_MAPS: np.ndarray = (np.arange(NUM_CARDS) >> 2) * 4 + _SUIT_PERMUTATIONS[:, np.arange(NUM_CARDS) & 3]
CARD_MAPS.setflags(write=False)


def symmetries(spot: Spot) -> np.ndarray:
    """The rows of ``CARD_MAPS`` that map the spot's board onto itself (as a set) and leave both ranges' weights
    unchanged: boards one of them maps onto each other are solved once."""
    board = np.sort(np.asarray(spot.board, dtype=np.int64))
    keep = []
    for g, card_map in enumerate(CARD_MAPS):
        if not np.array_equal(np.sort(card_map[board]), board):
            continue
        combo = COMBO_INDEX[card_map[COMBOS[:, 0]], card_map[COMBOS[:, 1]]]
        if all(np.array_equal(spot.ranges[p][combo], spot.ranges[p]) for p in (0, 1)):
            keep.append(g)
    return np.asarray(keep, dtype=np.int64)


def _deal(boards: np.ndarray, groups: list[np.ndarray]) -> tuple[np.ndarray, list[np.ndarray], np.ndarray, np.ndarray, np.ndarray]:
    """The next street's boards from ``boards`` (B, n), each with its group of symmetries (rows of CARD_MAPS):
    per board the cards that can come, each mapped to the least card of its class (the representative); returns
    the child boards, their groups (the permutations that fix the dealt card), child_start, deal_child and
    deal_map."""
    children, child_groups, deal_child, deal_map, starts = [], [], [], [], [0]
    for board, group in zip(boards, groups):
        rest = np.setdiff1d(np.arange(NUM_CARDS), board)
        images = CARD_MAPS[group][:, rest]  # (G, K): where each permutation sends each card that can come
        pick = images.argmin(axis=0)
        canon = images[pick, np.arange(len(rest))]
        kept = np.unique(canon)
        deal_child.append(starts[-1] + np.searchsorted(kept, canon))
        deal_map.append(group[pick])
        for card in kept:
            children.append(np.append(board, card))
            child_groups.append(group[CARD_MAPS[group, card] == card])
        starts.append(starts[-1] + len(kept))
    return np.asarray(children), child_groups, np.asarray(starts), np.asarray(deal_child), np.asarray(deal_map)


def compile_tree(tree: PublicTree, isomorphism: bool = True) -> Layout:
    """The arrays of ``tree``; ``isomorphism``: solve boards that a permutation of the suits maps onto each other
    once (exact whenever it applies: the spot's board and both ranges must be unchanged by the permutation)."""
    if not isinstance(isomorphism, bool):
        raise ValueError(f"isomorphism: expected True or False, got {isomorphism!r}")
    spot = tree.spot
    board = np.asarray(spot.board, dtype=np.int64)
    holdings, weights = [], []
    for p in (0, 1):
        idx = np.flatnonzero(spot.ranges[p] > 0.0)
        idx = idx[~np.isin(COMBOS[idx], board).any(axis=1)]
        if len(idx) == 0:
            raise ValueError(f"the {'OOP' if p == 0 else 'IP'} range has no holding that misses the board")
        holdings.append(idx)
        weights.append(spot.ranges[p][idx].copy())
    group = symmetries(spot) if isomorphism else np.zeros(1, dtype=np.int64)
    boards, groups, deals = [board[None, :]], [group], []
    for _ in range(1, tree.num_streets):
        children, groups, start, child, card_map = _deal(boards[-1], groups)
        boards.append(children)
        deals.append((start, child, card_map))
    position = [np.full(len(COMBOS), -1, dtype=np.int64) for _ in (0, 1)]
    for p in (0, 1):
        position[p][holdings[p]] = np.arange(len(holdings[p]))
    # moved[p][g, h]: the holding that holding h becomes under CARD_MAPS[g] (only symmetries are ever read)
    moved = [position[p][COMBO_INDEX[CARD_MAPS[:, COMBOS[holdings[p], 0]], CARD_MAPS[:, COMBOS[holdings[p], 1]]]]
             for p in (0, 1)]
    bits = (np.int64(1) << COMBOS[:, 0].astype(np.int64)) | (np.int64(1) << COMBOS[:, 1].astype(np.int64))
    board_bits = [np.bitwise_or.reduce(np.int64(1) << b.astype(np.int64), axis=1) for b in boards]
    valid = tuple(tuple((bits[holdings[p]][None, :] & bb[:, None]) == 0 for bb in board_bits) for p in (0, 1))
    seen = 2 if spot.conventions is Conventions.TEXASSOLVER else 4  # hole cards removed from the deck
    chance_weight = tuple(1.0 / (NUM_CARDS - b.shape[1] - seen) for b in boards)
    locate: dict[int, tuple[int, int]] = {}
    per_street: list[list[int]] = [[] for _ in boards]
    for i, node in enumerate(tree.nodes):
        per_street[node.street].append(i)
    per_street = [_node_order(tree, ids) for ids in per_street]
    for ids in per_street:
        for local, i in enumerate(ids):
            locate[i] = (tree.nodes[i].street, local)
    streets = []
    for k, ids in enumerate(per_street):
        parent = np.zeros(len(boards[k]), dtype=np.int64)
        if k:
            start = deals[k - 1][0]
            parent = np.repeat(np.arange(len(start) - 1), np.diff(start))
        if k + 1 < len(boards):
            start, child, card_map = deals[k]
            trivial = bool((card_map == 0).all())
            perm = None if trivial else (moved[0][card_map].astype(np.int32), moved[1][card_map].astype(np.int32))
            deal = (start, child, card_map, perm)
        else:
            none = np.zeros((len(boards[k]), 0), dtype=np.int64)
            deal = (np.zeros(len(boards[k]) + 1, dtype=np.int64), none, none, None)
        streets.append(_street(tree, k, np.asarray(ids), boards[k], locate, parent, deal))
    return Layout(tree, (holdings[0], holdings[1]), (weights[0], weights[1]), valid, tuple(streets), chance_weight,  # type: ignore[arg-type]
                  locate, group)


def orbits(layout: Layout, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every board of street ``k`` (all the cards that can come, in card order, as without isomorphism): (B', n + k)
    boards, (B',) the index of each one's representative among ``layout.streets[k].boards``, and (B', 52) the card
    map that takes it there (a holding ``h`` on the board plays as ``map(h)`` on the representative)."""
    full = layout.streets[0].boards
    rep = np.zeros(1, dtype=np.int64)
    maps = CARD_MAPS[:1]
    for j in range(k):
        st = layout.streets[j]
        parts = []
        for board, r, card_map in zip(full, rep, maps):
            rest = np.setdiff1d(np.arange(NUM_CARDS), board)
            slot = np.searchsorted(np.setdiff1d(np.arange(NUM_CARDS), st.boards[r]), card_map[rest])
            then = CARD_MAPS[st.deal_map[r, slot]]  # (K, 52)
            parts.append((np.concatenate([np.repeat(board[None], len(rest), 0), rest[:, None]], axis=1),
                          st.deal_child[r, slot], np.take_along_axis(then, np.broadcast_to(card_map, then.shape), 1)))
        full = np.concatenate([f for f, _, _ in parts])
        rep = np.concatenate([c for _, c, _ in parts])
        maps = np.concatenate([m for _, _, m in parts])
    return full, rep, maps


def _group_key(node: Node, i: int) -> tuple[int, int, int, int]:
    """Decisions in group order: by number of actions, depth and player; within a group by tree id."""
    return (len(node.actions), node.depth, node.player, i)


def _node_order(tree: PublicTree, ids: list[int]) -> list[int]:
    """A street's nodes in the order its arrays keep them: the street's first nodes (one per chance node of the
    street before), then, group by group in increasing depth, each decision's children in action order; so the
    children of a group are one contiguous run of rows, (G, n) in row-major order, read and written as a slice."""
    street = set(ids)
    order = [i for i in ids if tree.nodes[i].parent not in street]
    decisions = sorted((_group_key(tree.nodes[i], i) for i in ids if tree.nodes[i].kind == Kind.DECISION),
                       key=lambda key: (key[1], key[0], key[2], key[3]))
    for *_, i in decisions:
        order.extend(tree.nodes[i].children)
    assert sorted(order) == sorted(ids)
    return order


def _street(tree: PublicTree, k: int, ids: np.ndarray, boards: np.ndarray, locate: dict[int, tuple[int, int]],
            parent: np.ndarray, deal: tuple) -> StreetLayout:
    nodes = [tree.nodes[i] for i in ids]
    rows: list[list[int]] = [[], []]
    groups, blocks, slots = [], [[], []], [[0], [0]]
    order = sorted(_group_key(n, int(ids[i])) + (i,) for i, n in enumerate(nodes) if n.kind == Kind.DECISION)
    for (n, depth, p), members in itertools.groupby(order, key=lambda key: key[:3]):
        members = [m[4] for m in members]
        start = slots[p][-1]
        rows[p].extend(members)
        slots[p].extend(start + n * np.arange(1, len(members) + 1))
        children = np.asarray([[locate[c][1] for c in nodes[m].children] for m in members], dtype=np.int64)
        first = int(children[0, 0])
        assert np.array_equal(children.ravel(), np.arange(first, first + children.size))  # see _node_order
        groups.append(Group(p, np.asarray(members, dtype=np.int64), int(start), int(slots[p][-1]), children, first))
        if blocks[p] and blocks[p][-1].n == n:
            blocks[p][-1] = Block(n, blocks[p][-1].start, int(slots[p][-1]))
        else:
            blocks[p].append(Block(n, int(start), int(slots[p][-1])))
    groups.sort(key=lambda g: nodes[g.nodes[0]].depth)
    slot_node = tuple(np.repeat(np.asarray(rows[p], dtype=np.int64), np.diff(slots[p])) for p in (0, 1))
    spot = tree.spot
    folds = [i for i, n in enumerate(nodes) if n.kind == Kind.FOLD]
    fold_payoff = np.zeros((len(folds), 2))
    for f, local in enumerate(folds):
        node = nodes[local]
        loser = node.player
        won = spot.pot / 2 + node.committed[loser]  # the folder's half of the pot and its chips
        fold_payoff[f, loser], fold_payoff[f, 1 - loser] = -won, won
    shows = [i for i, n in enumerate(nodes) if n.kind == Kind.SHOWDOWN]
    chances = [i for i, n in enumerate(nodes) if n.kind == Kind.CHANCE]
    return StreetLayout(
        boards=boards,
        node_ids=ids,
        groups=tuple(groups),
        rows=(np.asarray(rows[0], dtype=np.int64), np.asarray(rows[1], dtype=np.int64)),
        slots=(np.asarray(slots[0], dtype=np.int64), np.asarray(slots[1], dtype=np.int64)),
        slot_node=slot_node,  # type: ignore[arg-type]
        blocks=(tuple(blocks[0]), tuple(blocks[1])),
        fold_nodes=np.asarray(folds, dtype=np.int64),
        fold_payoff=fold_payoff,
        showdown_nodes=np.asarray(shows, dtype=np.int64),
        showdown_stake=np.asarray([spot.pot / 2 + nodes[i].committed[0] for i in shows]),
        chance_nodes=np.asarray(chances, dtype=np.int64),
        chance_children=np.asarray([locate[nodes[i].children[0]][1] for i in chances], dtype=np.int64),
        cards_dealt=deal[1].shape[1],
        parent=parent,
        child_start=deal[0],
        deal_child=deal[1],
        deal_map=deal[2],
        deal_perm=deal[3],
    )


def expand(layout: Layout, k: int, player: int, array: np.ndarray) -> np.ndarray:
    """``array`` (..., B_k, H) over street ``k``'s boards and ``player``'s holdings, read on every board of the street
    (the boards of :func:`orbits`): the representative's entry for the mapped holding."""
    _, rep, maps = orbits(layout, k)
    holdings = layout.holdings[player]
    position = np.full(len(COMBOS), -1, dtype=np.int64)
    position[holdings] = np.arange(len(holdings))
    moved = position[COMBO_INDEX[maps[:, COMBOS[holdings, 0]], maps[:, COMBOS[holdings, 1]]]]  # (B', H)
    return array[..., rep[:, None], moved]
