"""The hold'em kernels that only read tables, written once for the numpy and the JAX engine.

Each function takes arrays of one backend (a numpy ``Tables`` or the JAX engine's tables pytree, whose fields
have the same names) and computes with that backend's namespace (``x.__array_namespace__()``: ``numpy`` or
``jax.numpy``, traced under ``jit`` and ``vmap`` alike). Nothing here writes into an array, so one body serves
both; the kernels that change tables (betting, dealing, settling) stay twins, bound by the differential tests.
Where numpy and XLA want other forms of the same read for speed, the helper branches on the array type and the
rule stays above it: gathering seats per row (numpy's fancy index is faster than its ``take_along_axis``), the
seats in clockwise order (a cached table in numpy), and the fractions' shares (XLA divides by constants). The rules these kernels follow are ``poker_envs.games.holdem``'s.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from poker_envs.core.sizing import pot_share

Array = Any  # a numpy or a JAX array


def namespace(x: Array) -> Any:
    """The array namespace of ``x`` (``numpy`` or ``jax.numpy``)."""
    return x.__array_namespace__()


def seat_values(a: Array, seat: Array) -> Array:
    """``a[b, seat[b]]`` for every row b of a (B, n) array."""
    if isinstance(a, np.ndarray):
        return a[np.arange(len(seat)), seat]
    return namespace(a).take_along_axis(a, seat[:, None], axis=1)[:, 0]


def seats_in_order(a: Array, order: Array) -> Array:
    """``a[b, order[b, i]]``: row b of a (B, n) array read in the seat order of row b of ``order`` (B, k)."""
    if isinstance(a, np.ndarray):
        return a[np.arange(len(order))[:, None], order]
    return namespace(a).take_along_axis(a, order, axis=1)


def needs_to_act(stacks: Array, bets: Array, folded: Array, acted: Array, max_bet: Array) -> Array:
    """(R, n) bool: the seat still has a decision on this street (``HoldemState._needs_to_act``)."""
    live = ~folded & (stacks > 0)
    others = (live.sum(1, keepdims=True) - live) > 0  # somebody else could still bet
    return live & ((bets < max_bet[:, None]) | (~acted & others))


def able_to_bet(stacks: Array, folded: Array) -> Array:
    """(R,) players still in the hand who are not all-in."""
    return (~folded & (stacks > 0)).sum(1)


_ROTATIONS: dict[int, np.ndarray] = {}


def rotations(n: int) -> np.ndarray:
    """(n, n) int64: row s lists the seats clockwise from seat s (made once per table size)."""
    if n not in _ROTATIONS:
        _ROTATIONS[n] = (np.arange(n)[:, None] + np.arange(n)) % n
    return _ROTATIONS[n]


def clockwise_from(start: Array, n: int) -> Array:
    """(R, n) the seats clockwise from ``start`` (any integer: taken modulo ``n``); numpy reads ``rotations``."""
    if isinstance(start, np.ndarray):
        return rotations(n)[start % n]
    return (start[:, None] % n + namespace(start).arange(n)) % n


def first_in_order(flags: Array, start: Array) -> Array:
    """(R,) the first seat with ``flags`` going round from ``start`` (any integer: taken modulo the seats);
    -1 where none."""
    order = clockwise_from(start, flags.shape[1])
    hit = seats_in_order(flags, order)
    if isinstance(hit, np.ndarray):  # one row index for both reads
        rows, j = np.arange(len(hit)), hit.argmax(1)
        return np.where(hit[rows, j], order[rows, j], -1)
    j = hit.argmax(1)
    return namespace(flags).where(seat_values(hit, j), seat_values(order, j), -1)


def raise_range(t: Any, rules: Any) -> tuple[Array, Array, Array, Array]:
    """(can raise, min raise-to, max raise-to, chips owed) of each table's seat to act; no raise on a pass turn
    (a hand decided by the forced bets)."""
    xp = namespace(t.player)
    p = t.player
    stack, bet = seat_values(t.stacks, p), seat_values(t.bets, p)
    owe = t.max_bet - bet
    can = stack > owe
    acted = seat_values(t.acted, p)
    if rules.limit:
        capped = t.num_raises >= rules.max_raises
        if not rules.headsup_cap:  # no cap heads-up, unless it was reached with three or more able to bet
            capped = capped & (t.capped | (able_to_bet(t.stacks, t.folded) > 2))
        can = can & ~capped & ~(acted & (2 * owe < t.full_raise))  # less than half a bet since his action
    else:
        can = can & ~(acted & (owe < t.full_raise))  # only short all-ins since his action: not reopened
    reach = ~t.folded & ((t.bets + t.stacks) > t.max_bet[:, None])
    can = can & ((reach.sum(1) - seat_values(reach, p)) > 0) & ~t.passing  # somebody else could call a raise
    all_in = bet + stack
    if rules.limit:  # one bet over the last counted level: after a short all-in, the completion
        low = xp.minimum(t.level + t.full_raise, all_in)
        high = low
    else:
        low = xp.minimum(t.max_bet + t.full_raise, all_in)
        high = all_in
        if rules.pot_limit:  # the call plus the pot after the call
            high = xp.minimum(all_in, xp.maximum(low, 2 * t.max_bet - bet + t.contributed.sum(1)))
    return can, low, high, owe


def action_mask(t: Any, rules: Any, can: Array, low: Array, high: Array, owe: Array) -> tuple[Array, Array]:
    """(mask (B, num_actions) int8, raise-to of every raise id (B, num_actions - 2)), from ``raise_range``. A pass
    turn allows only id 1; a pot fraction is masked where it reaches the largest raise or repeats a smaller one's
    amount (``core.sizing`` sizes it)."""
    xp = namespace(can)
    b = can.shape[0]
    head = [(((owe > 0) | rules.allow_fold_when_check) & ~t.passing)[:, None], xp.ones((b, 1), dtype=bool)]
    if rules.limit:
        legal = [can[:, None]]
        targets = low[:, None]
    elif rules.chips:
        ids = xp.arange(2, rules.num_actions, dtype=low.dtype)
        legal = [can[:, None] & (ids >= low[:, None] + 1) & (ids <= high[:, None] + 1)]
        targets = xp.broadcast_to(ids - 1, (b, ids.shape[0]))
    else:
        to = xp.maximum(low[:, None], t.max_bet[:, None] + fraction_shares(t.contributed.sum(1) + owe, rules))
        fits = can[:, None] & (to < high[:, None])
        # a fraction whose amount repeats a smaller one's is masked; the largest raise comes last
        legal = [fits[:, :1], fits[:, 1:] & (to[:, 1:] != to[:, :-1]), can[:, None]]
        targets = xp.concatenate([to, high[:, None]], axis=1)
    return xp.concatenate(head + legal, axis=1).astype(xp.int8), targets


def fraction_shares(pot_after_call: Array, rules: Any) -> Array:
    """(B, m) each raise fraction's share of the pot after the call (``core.sizing.pot_share``). numpy takes the
    fractions as arrays at once; JAX one column per fraction with its ratio as Python ints, so that XLA divides
    by constants (a multiply) instead of by an array."""
    if isinstance(pot_after_call, np.ndarray):
        return pot_share(pot_after_call[:, None], rules.numerators, rules.denominators)
    xp = namespace(pot_after_call)
    return xp.stack([pot_share(pot_after_call, int(p), int(q)) for p, q in zip(rules.numerators, rules.denominators)], axis=1)
