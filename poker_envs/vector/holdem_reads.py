"""The hold'em kernels that only read tables, written once for the numpy and the JAX engine.

Each function takes arrays of one backend (a numpy ``Tables`` or the JAX engine's tables pytree, whose fields
have the same names) and computes with that backend's namespace (``x.__array_namespace__()``: ``numpy`` or
``jax.numpy``, traced under ``jit`` and ``vmap`` alike). Nothing here writes into an array, so one body serves
both; the kernels that change tables (betting, dealing, settling) stay twins, bound by the differential tests.
Gathering one seat per row is the one operation written per backend (``seat_values``): numpy's fancy index is
faster than its ``take_along_axis``. The rules these kernels follow are ``poker_envs.games.holdem``'s.
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


def first_in_order(flags: Array, start: Array) -> Array:
    """(R,) the first seat with ``flags`` going round from ``start`` (any integer: taken modulo the seats);
    -1 where none."""
    xp = namespace(flags)
    n = flags.shape[1]
    order = (start[:, None] % n + xp.arange(n)) % n
    hit = seats_in_order(flags, order)
    j = xp.argmax(hit, axis=1)
    return xp.where(seat_values(hit, j), seat_values(order, j), -1)


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
    head = xp.stack([((owe > 0) | rules.allow_fold_when_check) & ~t.passing, xp.ones(b, dtype=bool)], axis=1)
    if rules.limit:
        legal = can[:, None]
        targets = low[:, None]
    elif rules.chips:
        ids = xp.arange(2, rules.num_actions, dtype=low.dtype)
        legal = can[:, None] & (ids >= low[:, None] + 1) & (ids <= high[:, None] + 1)
        targets = xp.broadcast_to(ids - 1, (b, ids.shape[0]))
    else:
        pot_after_call = t.contributed.sum(1) + owe
        # one column per fraction, its ratio as Python ints: a division by a constant compiles to a multiply
        share = xp.stack([pot_share(pot_after_call, int(p), int(q)) for p, q in zip(rules.numerators, rules.denominators)],
                         axis=1)
        to = xp.maximum(low[:, None], t.max_bet[:, None] + share)
        legal = can[:, None] & (to < high[:, None])
        legal = xp.concatenate([legal[:, :1], legal[:, 1:] & (to[:, 1:] != to[:, :-1])], axis=1)  # no repeats
        legal = xp.concatenate([legal, can[:, None]], axis=1)  # the largest raise
        targets = xp.concatenate([to, high[:, None]], axis=1)
    return xp.concatenate([head, legal], axis=1).astype(xp.int8), targets
