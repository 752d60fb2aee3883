"""The solver's passes over a compiled tree, written once for numpy and for JAX.

Every function takes the arrays of one backend and computes with its namespace (``numpy`` or ``jax.numpy``,
traced under ``jit`` alike); the tables they read (layout, card removal, showdown order) are numpy constants,
moved to the device once by the JAX solver. Writing rows into a node array is the one operation the two
namespaces spell differently (:func:`assign`). ``agent_zoo.solver.cfr`` runs these passes eagerly in numpy,
``agent_zoo.solver.jax_cfr`` jits a whole iteration of them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from agent_zoo.solver.layout import Block, Layout, StreetLayout
from agent_zoo.solver.showdown import (
    DENSE_LIMIT,
    Blockers,
    ShowdownTables,
    blockers,
    compatible_reach,
    showdown_margin,
    showdown_tables,
)

Array = Any  # a numpy or a JAX array


def assign(xp: Any, a: Array, rows: Any, value: Array) -> Array:
    """``a`` with ``a[rows] = value``: in place for numpy, a new array for JAX."""
    if xp is np:
        a[rows] = value
        return a
    return a.at[rows].set(value)


@dataclass(frozen=True)
class Tables:
    """What the passes read besides the layout: card removal and showdown order, per hero player."""

    blockers: tuple[Blockers, Blockers]
    showdown: tuple[ShowdownTables | None, ShowdownTables | None]


def make_tables(layout: Layout, dense_limit: int = DENSE_LIMIT) -> Tables:
    """The tables of ``layout``; showdowns as sign-matrix products up to ``dense_limit`` entries (see
    :func:`~agent_zoo.solver.showdown.showdown_tables`)."""
    river = layout.streets[-1]
    show: tuple[ShowdownTables | None, ShowdownTables | None] = (None, None)
    if len(river.showdown_nodes):
        first = showdown_tables(layout.holdings[0], layout.holdings[1], river.boards, dense_limit)
        if first.signs is not None:  # one sign matrix serves both players
            second = replace(first, flip=True, converted={})
        else:
            second = showdown_tables(layout.holdings[1], layout.holdings[0], river.boards, dense_limit)
        show = (first, second)
    return Tables((blockers(layout.holdings[0], layout.holdings[1]), blockers(layout.holdings[1], layout.holdings[0])),
                  show)  # type: ignore[arg-type]


def normalized(xp: Any, weights: Array, blocks: tuple[Block, ...]) -> Array:
    """Non-negative ``weights`` (L, B, H) over one player's action slots on a street made into a policy over each
    decision's actions (``blocks``: the rows by number of actions); uniform where they sum to 0 (regret matching,
    and the average strategy)."""
    out = xp.zeros_like(weights)
    for blk in blocks:
        w = weights[blk.start : blk.stop].reshape((-1, blk.n) + weights.shape[1:])
        total = w.sum(axis=1, keepdims=True)
        safe = xp.where(total > 0.0, total, 1.0)
        policy = xp.where(total > 0.0, w / safe, xp.asarray(1.0 / blk.n, dtype=weights.dtype))
        out = assign(xp, out, slice(blk.start, blk.stop), policy.reshape((-1,) + weights.shape[1:]))
    return out


def street_reach(xp: Any, layout: Layout, player: int, k: int, policy_k: Array, above: Array | None,
                 boards: slice = slice(None)) -> Array:
    """``player``'s reach (N + 1, b, H) on street ``k``, for the boards ``boards`` of that street (whole runs of
    the boards dealt from the same board of the street before), playing ``policy_k`` (L, b, H) over its action slots there; ``above``
    is the reach on street ``k - 1`` (all its boards), None on the first street."""
    st = layout.streets[k]
    valid = layout.valid[player][k][boards]
    dtype = policy_k.dtype
    r = xp.zeros((st.num_nodes + 1, len(valid), len(layout.holdings[player])), dtype=dtype)
    if above is None:
        r = assign(xp, r, 0, xp.asarray(layout.weights[player], dtype=dtype)[None, :])
    else:
        prev = layout.streets[k - 1]
        dealt = above[prev.chance_nodes][:, st.parent[boards]]
        r = assign(xp, r, prev.chance_children, dealt * xp.asarray(valid)[None])
    for g in st.groups:
        parent = r[g.nodes][:, None]  # (G, 1, b, H)
        if g.player == player:
            moved = parent * policy_k[g.start : g.stop].reshape(g.children.shape + parent.shape[2:])
        else:
            moved = xp.broadcast_to(parent, g.children.shape + parent.shape[2:])
        r = assign(xp, r, slice(g.first, g.first + g.children.size), moved.reshape((-1,) + parent.shape[2:]))
    return assign(xp, r, -1, 0.0)


def reach(xp: Any, layout: Layout, player: int, policy: list[Array]) -> list[Array]:
    """``player``'s reach (N + 1, B, H) at every node of every street when it plays ``policy`` (per street)."""
    out: list[Array] = []
    for k in range(len(layout.streets)):
        out.append(street_reach(xp, layout, player, k, policy[k], out[k - 1] if k else None))
    return out


def terminal_values(xp: Any, layout: Layout, tables: Tables, player: int, k: int, other: Array, v: Array,
                    boards: slice = slice(None)) -> Array:
    """``v`` with ``player``'s values written at the folds and showdowns of street ``k`` (its boards ``boards``)."""
    st: StreetLayout = layout.streets[k]
    valid = xp.asarray(layout.valid[player][k][boards])[None]
    if len(st.fold_nodes):
        facing = compatible_reach(other[st.fold_nodes], tables.blockers[player])
        v = assign(xp, v, st.fold_nodes, xp.asarray(st.fold_payoff[:, player], dtype=v.dtype)[:, None, None] * facing * valid)
    if len(st.showdown_nodes):
        show = tables.showdown[player]
        assert show is not None
        if boards != slice(None):
            show = show.boards(boards)
        margin = showdown_margin(other[st.showdown_nodes], show)
        v = assign(xp, v, st.showdown_nodes, xp.asarray(st.showdown_stake, dtype=v.dtype)[:, None, None] * margin * valid)
    return v


def chance_values(xp: Any, layout: Layout, player: int, k: int, below: Array, boards: slice = slice(None),
                  children: slice | None = None) -> Array:
    """(C, b, H): the values at street ``k``'s chance nodes for its boards ``boards``, from ``below``, the values on
    street ``k + 1`` for the boards dealt from them: each card that can come counts once, a card whose board has
    a suit-isomorphic representative through the representative's values of the mapped holdings. ``children``:
    the boards of street ``k + 1`` that ``below`` holds when they are only part of one board's children (a run
    of a long street); the values are then that part's share, to be added up over the parts."""
    st = layout.streets[k]
    start, stop, _ = boards.indices(len(st.boards))
    first, last = int(st.child_start[start]), int(st.child_start[stop])
    if children is not None:
        first, last, _ = children.indices(len(layout.streets[k + 1].boards))
    child = below[st.chance_children] * xp.asarray(layout.valid[player][k + 1][first:last])[None]
    c, h = len(st.chance_nodes), child.shape[-1]
    whole = (first, last) == (int(st.child_start[start]), int(st.child_start[stop]))
    if whole and st.deal_perm is None:  # every card's board is its own: a run of K children per board
        return layout.chance_weight[k] * child.reshape(c, stop - start, st.cards_dealt, h).sum(axis=2)
    dealt = st.deal_child[start:stop]  # (b, K)
    perm = np.broadcast_to(np.arange(h), dealt.shape + (h,)) if st.deal_perm is None else st.deal_perm[player][start:stop]
    if whole:
        flat = (dealt[:, :, None] - first) * h + perm  # (b, K, H)
        gathered = xp.take(child.reshape(c, -1), xp.asarray(flat.reshape(-1)), axis=1)
        return layout.chance_weight[k] * gathered.reshape(c, stop - start, st.cards_dealt, h).sum(axis=2)
    if stop - start != 1:
        raise ValueError("children: a part of the children of one board at a time")
    cards = np.flatnonzero((dealt[0] >= first) & (dealt[0] < last))  # the cards whose boards are in the part
    flat = (dealt[0, cards, None] - first) * h + perm[0, cards]
    gathered = xp.take(child.reshape(c, -1), xp.asarray(flat.reshape(-1)), axis=1)
    return layout.chance_weight[k] * gathered.reshape(c, 1, len(cards), h).sum(axis=2)


def street_values(xp: Any, layout: Layout, tables: Tables, player: int, k: int, other_k: Array,
                  policy_k: Array | None, chance: Array | None, boards: slice = slice(None)) -> tuple[Array, Array]:
    """``player``'s counterfactual values (N + 1, b, H) on street ``k`` for its boards ``boards``, playing
    ``policy_k`` (None: a best response) against the other's reach ``other_k`` there, with ``chance`` the values
    at the street's chance nodes (:func:`chance_values`); and the instant regrets (L, b, H) of its action slots."""
    st = layout.streets[k]
    h = len(layout.holdings[player])
    nb = other_k.shape[1]
    dtype = other_k.dtype
    v = terminal_values(xp, layout, tables, player, k, other_k, xp.zeros((st.num_nodes + 1, nb, h), dtype=dtype), boards)
    if chance is not None:
        v = assign(xp, v, st.chance_nodes, chance)
    instant = xp.zeros((len(st.slot_node[player]), nb, h), dtype=dtype)
    for g in reversed(st.groups):
        below = v[g.first : g.first + g.children.size].reshape(g.children.shape + v.shape[1:])  # (G, n, b, H)
        if g.player != player:
            v = assign(xp, v, g.nodes, below.sum(axis=1))
        elif policy_k is None:
            v = assign(xp, v, g.nodes, below.max(axis=1))
        else:
            here = (policy_k[g.start : g.stop].reshape(below.shape) * below).sum(axis=1)
            v = assign(xp, v, g.nodes, here)
            instant = assign(xp, instant, slice(g.start, g.stop), (below - here[:, None]).reshape((-1, nb, h)))
    return v, instant


def values(xp: Any, layout: Layout, tables: Tables, player: int, other_reach: list[Array],
           policy: list[Array] | None) -> tuple[list[Array], list[Array]]:
    """``player``'s counterfactual values (N + 1, B, H) at every node, playing ``policy`` (None: a best response),
    and the instant regrets (L, B, H) of its action slots on each street (zeros under a best response)."""
    n = len(layout.streets)
    out: list[Array] = [None] * n
    regrets: list[Array] = [None] * n
    for k in range(n - 1, -1, -1):
        chance = chance_values(xp, layout, player, k, out[k + 1]) if len(layout.streets[k].chance_nodes) else None
        out[k], regrets[k] = street_values(xp, layout, tables, player, k, other_reach[k],
                                           None if policy is None else policy[k], chance)
    return out, regrets


def per_hand(xp: Any, layout: Layout, tables: Tables, player: int, root: Array) -> Array:
    """``player``'s expected chips per hand from its counterfactual values at the root, ``root`` (H,): weighted by
    its range and divided by the weight of all (OOP, IP) holding pairs that share no card."""
    facing = compatible_reach(xp.asarray(layout.weights[1])[None], tables.blockers[0])[0]
    pairs = xp.asarray(layout.weights[0]) @ facing
    return xp.asarray(layout.weights[player]) @ root / pairs
