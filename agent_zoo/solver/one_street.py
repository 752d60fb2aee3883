"""A CFR iteration for subgames of one street on one board (river spots), in a few dozen numpy operations.

A river spot's arrays are small (a few dozen nodes by a few hundred holdings), so the general passes of
``passes.py``, which move one group of decisions at a time, spend most of their time in Python rather than in
arithmetic. Here each quantity of an update is one array operation over the whole tree, using paths that are
fixed when the tree is compiled:

- a player's reach at a node is its range weight times the product of its own action probabilities on the path
  from the root, read as one gather of the policy (with a row of ones for padding) and one product;
- the values that the updating player's actions lead to are sums over the terminals below them of the terminal
  value times the product of the player's own probabilities between the action and the terminal (the same
  gather and product over (action, terminal) pairs, then one segment sum);
- a decision's value is the policy-weighted segment sum of its actions' values, and the instant regrets follow;
- folds and showdowns are products with dense (other's holdings x player's holdings) matrices: which holdings
  share no card, and which wins (at a few hundred holdings a matrix product beats the sorted sums' gathers).

Segment sums are products with small 0/1 matrices too: numpy's ``add.reduceat`` costs more than them here.

The numbers are those of the general passes (the same update, in another order of floating-point products;
``tests/test_solver_one_street.py`` binds the two). Best responses go up the player's decisions level by level,
one maximum per level (``best_response_root``); the profile's value and the per-node answers (``strategy``,
``expected_values``) keep the general passes, which run once per solve.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agent_zoo.solver.layout import Layout, StreetLayout
from agent_zoo.solver.passes import Tables
from agent_zoo.solver.showdown import shares_a_card
from agent_zoo.solver.tree import Kind


@dataclass(frozen=True)
class PlayerKernel:
    """One player's tables on a one-street tree with L action slots, Z terminals and P (slot, terminal below) pairs,
    in the solver's float type."""

    weights: np.ndarray  # (H,) the player's range weights
    same_decision: np.ndarray  # (L, L) 1 where two slots belong to the same decision
    uniform: np.ndarray  # (L, 1) 1 / (actions of the slot's decision): the policy where no regret is positive
    to_terminal: np.ndarray  # (Z, depth) the player's slots on the path from the root to each terminal (L: none)
    to_slot: np.ndarray  # (L, depth) its slots on the path from the root through each slot (the slot included)
    pair_path: np.ndarray  # (P, depth) per pair: its slots strictly after the slot, down to the terminal
    pair_terminal: np.ndarray  # (P,) the pair's terminal
    pair_sum: np.ndarray  # (L, P) 1 where the pair belongs to the slot
    terminal_weights: np.ndarray  # (Z, H_other) the other's range weights times the chips the player wins at each
    #                               fold, or the better hand wins at each showdown
    compatible: np.ndarray  # (H_other, H) 1 where the two holdings share no card
    signs: np.ndarray  # (H_other, H) 1 / 0 / -1: this holding beats / ties / loses to the other's; 0 if they share a card
    # Best responses, decisions bottom-up: a slot's value is the terminals and the decisions of the player's that
    # follow it with no decision of the player's between, each decision worth its best slot.
    levels: tuple[Level, ...]  # the player's decisions by how many of its decisions lie above, deepest first
    root: tuple[np.ndarray, np.ndarray]  # (Z,), (D,): what the root leads to before any decision of the player's


@dataclass(frozen=True)
class Level:
    """Decisions of one player with as many of its decisions above them; their slots in runs of ``n`` actions."""

    runs: tuple[tuple[int, np.ndarray, np.ndarray], ...]  # (n, decisions (G,), slots (G * n,) decision by decision)
    terminals: tuple[np.ndarray, ...]  # per run: (G * n, Z) 1 where a terminal follows the slot directly
    decisions: tuple[np.ndarray, ...]  # per run: (G * n, D) 1 where a decision follows the slot directly


@dataclass(frozen=True)
class Kernel:
    """A one-street, one-board layout's tables for both players; terminals are its folds, then its showdowns."""

    players: tuple[PlayerKernel, PlayerKernel]
    num_folds: int


def applies(layout: Layout, tables: Tables) -> bool:
    """True for layouts this module solves: one street, one board (a river spot), showdowns as sign matrices."""
    show = tables.showdown[0]
    return len(layout.streets) == 1 and len(layout.streets[0].boards) == 1 and (show is None or show.signs is not None)


def kernel(layout: Layout, tables: Tables, dtype: np.dtype) -> Kernel:
    """The tables of ``layout`` (see :func:`applies`) in ``dtype``."""
    if not applies(layout, tables):
        raise ValueError("one_street.kernel: the layout must have one street and one board, and sign-matrix showdowns")
    st = layout.streets[0]
    n = st.num_nodes
    parent = np.full(n, -1, dtype=np.int64)
    edge = [np.full(n, -1, dtype=np.int64), np.full(n, -1, dtype=np.int64)]  # the slot of the edge into a node
    for g in st.groups:
        kids = np.arange(g.first, g.first + g.children.size)
        parent[kids] = np.repeat(g.nodes, g.children.shape[1])
        edge[g.player][kids] = np.arange(g.start, g.stop)
    kinds = [layout.tree.nodes[int(i)].kind for i in st.node_ids]
    terminals = np.concatenate([st.fold_nodes, st.showdown_nodes]).astype(np.int64)
    if sorted(terminals.tolist()) != [i for i, k in enumerate(kinds) if k not in (Kind.DECISION, Kind.CHANCE)] or any(
            k == Kind.CHANCE for k in kinds):
        raise ValueError("one_street.kernel: every leaf of a one-street tree must be a fold or a showdown")

    def path(node: int, stop: int, player: int) -> list[int]:
        """``player``'s slots on the edges from ``stop`` (exclusive; -1: the root) down to ``node``, root first."""
        out = []
        while node != stop and node >= 0:
            if edge[player][node] >= 0:
                out.append(int(edge[player][node]))
            node = int(parent[node])
        return out[::-1]

    below: list[list[int]] = [[] for _ in range(n)]  # terminals (positions in ``terminals``) under each node
    for z, node in enumerate(terminals):
        m = int(node)
        while m >= 0:
            below[m].append(z)
            m = int(parent[m])
    compatible = (~shares_a_card(layout.holdings[0], layout.holdings[1])).astype(dtype)  # (H_1, H_0)
    show = tables.showdown[0]
    signs0 = np.zeros(compatible.shape, dtype) if show is None or show.signs is None else show.signs[0].astype(dtype)
    dense = ((compatible, signs0), (np.ascontiguousarray(compatible.T), np.ascontiguousarray(-signs0.T)))
    players = []
    for p in (0, 1):
        slots = st.slots[p]
        num = int(slots[-1])
        child = np.empty(num, dtype=np.int64)
        child[edge[p][edge[p] >= 0]] = np.flatnonzero(edge[p] >= 0)
        pairs = [(s, z, path(int(terminals[z]), int(child[s]), p)) for s in range(num) for z in below[child[s]]]
        depth = max([1] + [len(path(int(t), -1, p)) for t in terminals])
        pad = lambda rows: np.asarray([r + [num] * (depth - len(r)) for r in rows], dtype=np.int64).reshape(-1, depth)  # noqa: E731
        decision = np.repeat(np.arange(len(slots) - 1), np.diff(slots))
        pair_slot = np.asarray([s for s, _, _ in pairs], dtype=np.int64)
        valid = layout.valid[p][0][0].astype(dtype)
        levels, root = _levels(st, p, edge[p], parent, terminals, dtype)
        players.append(PlayerKernel(
            weights=np.asarray(layout.weights[p], dtype=dtype),
            same_decision=(decision[:, None] == decision[None, :]).astype(dtype),
            uniform=(1.0 / np.repeat(np.diff(slots), np.diff(slots)))[:, None].astype(dtype),
            to_terminal=pad([path(int(t), -1, p) for t in terminals]),
            to_slot=pad([path(int(child[s]), -1, p) for s in range(num)]),
            pair_path=pad([q for _, _, q in pairs]),
            pair_terminal=np.asarray([z for _, z, _ in pairs], dtype=np.int64),
            pair_sum=(np.arange(num)[:, None] == pair_slot[None, :]).astype(dtype),
            terminal_weights=(np.concatenate([st.fold_payoff[:, p], st.showdown_stake])[:, None]
                              * np.asarray(layout.weights[1 - p])[None, :]).astype(dtype),
            compatible=dense[p][0] * valid,
            signs=dense[p][1] * valid,
            levels=levels,
            root=root,
        ))
    return Kernel((players[0], players[1]), len(st.fold_nodes))


def _levels(st: StreetLayout, p: int, edge: np.ndarray, parent: np.ndarray, terminals: np.ndarray, dtype: np.dtype
            ) -> tuple[tuple[Level, ...], tuple[np.ndarray, np.ndarray]]:
    """Player ``p``'s decisions by depth among its own, each slot with what follows it directly."""
    rows = st.rows[p]
    slots = st.slots[p]
    num_slots, num_dec = int(slots[-1]), len(rows)

    def above(node: int) -> int:
        """The player's slot whose edge is the nearest above ``node`` (the node's own included); -1: none."""
        while node >= 0:
            if edge[node] >= 0:
                return int(edge[node])
            node = int(parent[node])
        return -1

    term = np.zeros((num_slots + 1, len(terminals)), dtype=dtype)  # the last row: the root
    dec = np.zeros((num_slots + 1, num_dec), dtype=dtype)
    for z, node in enumerate(terminals):
        term[above(int(node)), z] = 1.0
    depth = np.zeros(num_dec, dtype=np.int64)
    slot_decision = np.repeat(np.arange(num_dec), np.diff(slots))
    for d, node in enumerate(rows):
        dec[above(int(node)), d] = 1.0
    for d, node in enumerate(rows):  # decisions' rows follow depth order within each number of actions only
        s, count = above(int(node)), 0
        while s >= 0:
            count += 1
            s = above(int(st.slot_node[p][s]))
        depth[d] = count
    levels = []
    for level in sorted(set(depth.tolist()), reverse=True):
        runs, terms, decs = [], [], []
        members = np.flatnonzero(depth == level)
        for n in sorted(set(np.diff(slots)[members].tolist())):
            ds = members[np.diff(slots)[members] == n]
            ss = (slots[ds][:, None] + np.arange(n)[None, :]).ravel()
            assert (slot_decision[ss] == np.repeat(ds, n)).all()
            runs.append((int(n), ds, ss))
            terms.append(term[ss])
            decs.append(dec[ss])
        levels.append(Level(tuple(runs), tuple(terms), tuple(decs)))
    return tuple(levels), (term[-1], dec[-1])


def best_response_root(kn: Kernel, player: int, theirs: np.ndarray) -> np.ndarray:
    """(H_p,): ``player``'s counterfactual values at the root when it best-responds to ``theirs`` (L_q + 1, H_q:
    the other's policy with its row of ones)."""
    pk, pq = kn.players[player], kn.players[1 - player]
    values = terminal_values(kn, pk, pq, theirs)
    best = np.zeros((len(pk.root[1]), values.shape[1]), dtype=values.dtype)
    for level in pk.levels:
        for (n, ds, _), term, dec in zip(level.runs, level.terminals, level.decisions):
            after = term @ values + dec @ best  # (G * n, H)
            best[ds] = after.reshape(len(ds), n, -1).max(axis=1)
    return pk.root[0] @ values + pk.root[1] @ best


def terminal_values(kn: Kernel, pk: PlayerKernel, pq: PlayerKernel, theirs: np.ndarray) -> np.ndarray:
    """(Z, H_p): the values at the folds, then the showdowns, of the player of ``pk`` when the other (``pq``) plays
    ``theirs`` (L_q + 1, H_q: a policy with its row of ones)."""
    f = kn.num_folds
    reach = pk.terminal_weights * path_product(theirs, pq.to_terminal)  # (Z, H_q) scaled by each terminal's stake
    out = np.empty((len(reach), pk.compatible.shape[1]), dtype=reach.dtype)
    np.matmul(reach[:f], pk.compatible, out=out[:f])
    np.matmul(reach[f:], pk.signs, out=out[f:])
    return out


def path_product(policy: np.ndarray, paths: np.ndarray) -> np.ndarray:
    """(R, H): per row of ``paths`` (R, depth), the product of ``policy``'s rows (L + 1, H) it names."""
    out = policy[paths[:, 0]]
    for d in range(1, paths.shape[1]):
        out *= policy[paths[:, d]]
    return out


def normalized(weights: np.ndarray, pk: PlayerKernel) -> np.ndarray:
    """Non-negative ``weights`` (L, H) made into a policy over each decision's slots, uniform where they sum to 0;
    returned with a row of ones appended (L + 1, H), which the paths' padding reads."""
    total = pk.same_decision @ weights
    none = total == 0.0
    out = np.empty((len(weights) + 1, weights.shape[1]), dtype=weights.dtype)
    out[-1] = 1.0
    np.divide(weights + none * pk.uniform, total + none, out=out[:-1])
    return out


def current_policy(regrets: np.ndarray, pk: PlayerKernel) -> np.ndarray:
    """Regret matching over each decision's slots: (L, H) from regrets (L, H); uniform where none is positive."""
    return normalized(np.maximum(regrets, 0.0), pk)


def sweep(kn: Kernel, player: int, mine: np.ndarray, theirs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One update's quantities for ``player`` playing ``mine`` (L_p + 1, H_p) against ``theirs`` (L_q + 1, H_q),
    policies with their row of ones: its instant regrets (L_p, H_p) and its reach through each of its slots
    (L_p, H_p), for the average strategy."""
    pk, pq = kn.players[player], kn.players[1 - player]
    values = terminal_values(kn, pk, pq, theirs)
    below = path_product(mine, pk.pair_path)
    below *= values[pk.pair_terminal]
    after = pk.pair_sum @ below  # (L_p, H_p): the value of each slot's action
    instant = after - pk.same_decision @ (mine[:-1] * after)  # minus its decision's value
    own = path_product(mine, pk.to_slot)
    own *= pk.weights
    return instant, own
