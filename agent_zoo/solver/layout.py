"""The public tree compiled to arrays: per street, the boards dealt so far, the holdings each player can hold on
them, and index tables that let one numpy operation move every node of a depth at once.

Street ``k`` of a subgame that starts with ``n`` board cards has ``B_k`` boards: every way to deal ``k`` more
cards in order (1 on the first street; 48 river cards after a turn board; 49 x 48 from a flop). Board ``b`` of
street ``k + 1`` extends board ``b // K_k`` of street ``k`` by its ``b % K_k``-th remaining card, so a chance
node's values are a reshape and a sum away from its child's. Each player's holdings are the combos its range
gives weight to that miss the spot's board; on a later board a holding that holds a dealt card is masked out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agent_zoo.solver.ranges import COMBOS
from agent_zoo.solver.spot import Conventions
from agent_zoo.solver.tree import Kind, PublicTree
from poker_envs.core.cards import NUM_CARDS


@dataclass(frozen=True)
class Group:
    """Decision nodes of one player at one depth of one street."""

    player: int
    nodes: np.ndarray  # (G,) street-local node indices
    rows: np.ndarray  # (G,) their rows in the player's per-street regret arrays
    children: np.ndarray  # (G, A) street-local child indices; padding points at the street's empty node


@dataclass(frozen=True)
class StreetLayout:
    """One street's nodes. Arrays over nodes have ``num_nodes + 1`` rows: the last is an empty node whose reach
    and value stay 0, where padded action slots point."""

    boards: np.ndarray  # (B, cards) the boards of this street
    node_ids: np.ndarray  # (N,) public-tree ids of the street's nodes
    groups: tuple[Group, ...]  # decision groups in increasing depth
    rows: tuple[np.ndarray, np.ndarray]  # per player: (D_p,) street-local nodes of its decisions, in row order
    legal: tuple[np.ndarray, np.ndarray]  # per player: (D_p, A) which action slots exist
    width: int  # A: the most actions of a decision on this street
    fold_nodes: np.ndarray  # (F,) street-local
    fold_payoff: np.ndarray  # (F, 2) chips each player wins at the fold (zero-sum)
    showdown_nodes: np.ndarray  # (S,) street-local
    showdown_stake: np.ndarray  # (S,) chips the better hand wins (the loser loses as much)
    chance_nodes: np.ndarray  # (C,) street-local
    chance_children: np.ndarray  # (C,) local indices of their children on the next street
    cards_dealt: int  # K: cards the next street's boards add per board of this one (0 on the last street)

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


def compile_tree(tree: PublicTree) -> Layout:
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
    boards = [board[None, :]]
    for _ in range(1, tree.num_streets):
        prev = boards[-1]
        rest = np.array([[c for c in range(NUM_CARDS) if c not in row] for row in prev])  # (B, K) in card order
        boards.append(np.concatenate([np.repeat(prev, rest.shape[1], axis=0), rest.reshape(-1, 1)], axis=1))
    bits = (np.int64(1) << COMBOS[:, 0].astype(np.int64)) | (np.int64(1) << COMBOS[:, 1].astype(np.int64))
    board_bits = [np.bitwise_or.reduce(np.int64(1) << b.astype(np.int64), axis=1) for b in boards]
    valid = tuple(tuple((bits[holdings[p]][None, :] & bb[:, None]) == 0 for bb in board_bits) for p in (0, 1))
    seen = 2 if spot.conventions is Conventions.TEXASSOLVER else 4  # hole cards removed from the deck
    chance_weight = tuple(1.0 / (NUM_CARDS - b.shape[1] - seen) for b in boards)
    locate: dict[int, tuple[int, int]] = {}
    per_street: list[list[int]] = [[] for _ in boards]
    for i, node in enumerate(tree.nodes):
        locate[i] = (node.street, len(per_street[node.street]))
        per_street[node.street].append(i)
    streets = tuple(
        _street(tree, k, np.asarray(ids), boards[k], locate, NUM_CARDS - boards[k].shape[1] if k + 1 < len(boards) else 0)
        for k, ids in enumerate(per_street)
    )
    return Layout(tree, (holdings[0], holdings[1]), (weights[0], weights[1]), valid, streets, chance_weight, locate)  # type: ignore[arg-type]


def _street(tree: PublicTree, k: int, ids: np.ndarray, boards: np.ndarray, locate: dict[int, tuple[int, int]],
            dealt: int) -> StreetLayout:
    nodes = [tree.nodes[i] for i in ids]
    empty = len(ids)
    width = max((len(n.actions) for n in nodes if n.kind == Kind.DECISION), default=1)
    rows: list[list[int]] = [[], []]
    row_of: dict[int, int] = {}
    for local, node in enumerate(nodes):
        if node.kind == Kind.DECISION:
            row_of[local] = len(rows[node.player])
            rows[node.player].append(local)
    legal = []
    for p in (0, 1):
        mask = np.zeros((len(rows[p]), width), dtype=bool)
        for r, local in enumerate(rows[p]):
            mask[r, : len(nodes[local].actions)] = True
        legal.append(mask)
    groups = []
    for depth in sorted({n.depth for n in nodes if n.kind == Kind.DECISION}):
        for p in (0, 1):
            members = [i for i, n in enumerate(nodes) if n.kind == Kind.DECISION and n.depth == depth and n.player == p]
            if not members:
                continue
            children = np.full((len(members), width), empty, dtype=np.int64)
            for g, local in enumerate(members):
                for a, child in enumerate(nodes[local].children):
                    children[g, a] = locate[child][1]
            groups.append(Group(p, np.asarray(members), np.asarray([row_of[m] for m in members]), children))
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
        legal=(legal[0], legal[1]),
        width=width,
        fold_nodes=np.asarray(folds, dtype=np.int64),
        fold_payoff=fold_payoff,
        showdown_nodes=np.asarray(shows, dtype=np.int64),
        showdown_stake=np.asarray([spot.pot / 2 + nodes[i].committed[0] for i in shows]),
        chance_nodes=np.asarray(chances, dtype=np.int64),
        chance_children=np.asarray([locate[nodes[i].children[0]][1] for i in chances], dtype=np.int64),
        cards_dealt=dealt,
    )
