"""Hold'em betting in JAX: the numpy kernels of ``_holdem_kernels`` as pure functions of a pytree state.

Each function here mirrors the numpy kernel of the same name, with masks where the numpy one selects rows
(``jnp.where`` over every table instead of writes to ``rows``), so one jitted ``step`` advances every table
the same way: apply the actions, find the next seat, close streets, settle finished hands, deal new ones.
The kernels that only read tables (raise range, action mask, who acts next) are not here: both engines
call the one copy in ``vector.holdem_reads``. The differential tests bind every function to the numpy engine,
and through it to the rules core. Values that the numpy engine computes once per button (the hand's start after the forced bets) are computed by
the numpy kernels themselves on the host and gathered here by button.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from poker_envs.vector.holdem import Rules, hand_starts
from poker_envs.vector.holdem_reads import (
    able_to_bet, action_mask, first_in_order, needs_to_act, raise_range, seat_values,
)
from poker_envs.vector.jax._showdown import evaluate_hands, settle_batch


class HoldemTables(NamedTuple):
    """The state of B tables (the numpy ``Tables`` fields, all int32 or bool) and the dealing key."""

    stacks: jax.Array  # (B, n) chips behind
    bets: jax.Array  # (B, n) street bets
    contributed: jax.Array  # (B, n) chips put in this hand (antes included)
    folded: jax.Array  # (B, n) bool
    acted: jax.Array  # (B, n) bool: acted since the last full raise of the street
    street: jax.Array  # (B,) 0 pre-flop .. 3 river
    player: jax.Array  # (B,) seat to act
    button: jax.Array  # (B,)
    max_bet: jax.Array  # (B,) largest street bet
    full_raise: jax.Array  # (B,) largest full raise of the street (the minimum raise)
    num_raises: jax.Array  # (B,) limit: counted bets and raises of the street
    level: jax.Array  # (B,) limit: the street bet after the last counted bet or raise
    capped: jax.Array  # (B,) bool limit: the cap was reached with three or more able to bet
    deck: jax.Array  # (B, Rules.deal_size) dealing order: hole cards one at a time round from button + 1, then the board
    length: jax.Array  # (B,) decisions taken in this hand
    active_at_start: jax.Array  # (B,) seats not folded when the street began
    passing: jax.Array  # (B,) bool the forced bets decided the hand: seats pass in turn, then it is paid
    hist_kind: jax.Array  # (B, 2, h) poker_cnn history: action kind + 1 of this street and the one before
    hist_added: jax.Array  # (B, 2, h) chips those actions put in
    folded_at_start: jax.Array  # (B, n or 0) bool folded when the street began (poker_cnn)
    key: jax.Array  # PRNG key of the next deals
    illegal: jax.Array  # (B,) bool the last step's action at that table was illegal (played as a fold)


FIELDS = tuple(f for f in HoldemTables._fields if f not in ("key", "illegal"))


def start_rows(rules: Rules) -> dict[str, jax.Array]:
    """``vector.holdem.hand_starts`` (one row per button) as int32 / bool JAX arrays, gathered by button."""
    start = hand_starts(rules)
    return {name: jnp.asarray(getattr(start, name).astype(bool if getattr(start, name).dtype == bool else np.int32))
            for name in FIELDS}


def deal(key: jax.Array, count: int, deck: np.ndarray, size: int) -> jax.Array:
    """(count, size) int32 dealing orders from ``deck``'s cards: a partial Fisher-Yates shuffle per row (the
    first ``size`` swaps of a full shuffle; no sort, which XLA runs slowly on CPU).

    Two forms give the same cards for the same key: up to ``SPARSE_DEAL`` cards (heads-up to four seats) only
    the swapped places are tracked, O(size**2) elementwise operations and no gather or scatter of whole decks
    (the fastest); larger deals swap within whole decks in a ``lax.scan`` (compiles in a fraction of the time).
    """
    m = len(deck)
    u = jax.random.uniform(key, (count * size,)).reshape(count, size)  # 1-d draws compile several times faster
    picks = jnp.arange(size) + jnp.minimum((u * (m - jnp.arange(size))).astype(jnp.int32), m - 1 - jnp.arange(size))
    dealt = _deal_sparse(picks) if size <= SPARSE_DEAL else _deal_swaps(picks, m)
    return jnp.asarray(deck, dtype=jnp.int32)[dealt]


SPARSE_DEAL = 13  # deals up to this size track only their swapped places (see ``deal``)


def _deal_sparse(picks: jax.Array) -> jax.Array:
    """Places dealt by the swaps ``picks`` (count, size) (swap i exchanges places i and picks[:, i]),
    tracking only the places already swapped and the card each one holds."""
    places: list[jax.Array] = []
    held: list[jax.Array] = []
    dealt = []
    for i in range(picks.shape[1]):
        pick = picks[:, i]
        card, moved = pick, jnp.full_like(pick, i)  # untouched places hold their own index
        for place, value in zip(places, held):
            card = jnp.where(pick == place, value, card)
            moved = jnp.where(place == i, value, moved)
        held = [jnp.where(place == pick, moved, value) for place, value in zip(places, held)]
        places.append(pick)
        held.append(moved)
        dealt.append(card)
    return jnp.stack(dealt, axis=1)


def _deal_swaps(picks: jax.Array, m: int) -> jax.Array:
    """``_deal_sparse``'s places by swapping within whole decks of ``m`` places, one swap per scan step."""
    count, size = picks.shape
    rows = jnp.arange(count)

    def swap(pos: jax.Array, i: jax.Array) -> tuple[jax.Array, None]:
        j = picks[:, i]
        picked = pos[rows, j]
        pos = pos.at[rows, j].set(pos[:, i])
        return pos.at[:, i].set(picked), None

    pos, _ = jax.lax.scan(swap, jnp.broadcast_to(jnp.arange(m, dtype=jnp.int32), (count, m)), jnp.arange(size))
    return pos[:, :size]


def play(s: HoldemTables, rules: Rules, actions: jax.Array) -> tuple[HoldemTables, jax.Array]:
    """Play each table's action id for its seat to act; an illegal id (out of range or masked) is played as a
    fold, or as the pass of a pass turn. (state after the actions, legal (B,) bool)."""
    can, low, high, owe = raise_range(s, rules)
    mask, targets = action_mask(s, rules, can, low, high, owe)
    actions = jnp.asarray(actions).astype(jnp.int32)
    num_actions = rules.num_actions
    legal = (actions >= 0) & (actions < num_actions) & (seat_values(mask, jnp.clip(actions, 0, num_actions - 1)) == 1)
    return apply_actions(s, rules, jnp.where(legal, actions, jnp.where(s.passing, 1, 0)), targets), legal


def apply_actions(s: HoldemTables, rules: Rules, actions: jax.Array, targets: jax.Array) -> HoldemTables:
    """Play one legal action per table for its seat to act (``targets`` from ``action_mask``)."""
    seat = jnp.arange(rules.n) == s.player[:, None]
    fold, call, raising = actions == 0, actions == 1, actions >= 2
    to = seat_values(targets, jnp.clip(actions - 2, 0, targets.shape[1] - 1))
    bet, stack = seat_values(s.bets, s.player), seat_values(s.stacks, s.player)
    added = jnp.where(call, jnp.minimum(s.max_bet - bet, stack), jnp.where(raising, to - bet, 0))
    hist_kind, hist_added = s.hist_kind, s.hist_added
    if rules.history:  # kind + 1: fold 1, check 2 / call 3, bet 4 / raise 5; pass turns are not recorded
        code = jnp.where(fold, 1, jnp.where(call, 2 + (s.max_bet > bet), 4 + (s.max_bet > 0)))
        rec = ~s.passing[:, None]
        hist_kind = hist_kind.at[:, 0].set(jnp.where(rec, jnp.concatenate([code[:, None], hist_kind[:, 0, :-1]], 1), hist_kind[:, 0]))
        hist_added = hist_added.at[:, 0].set(jnp.where(rec, jnp.concatenate([added[:, None], hist_added[:, 0, :-1]], 1), hist_added[:, 0]))
    folded = s.folded | (seat & fold[:, None])
    put = seat * added[:, None]
    stacks, bets, contributed = s.stacks - put, s.bets + put, s.contributed + put
    level, num_raises, capped, full_raise, acted = s.level, s.num_raises, s.capped, s.full_raise, s.acted
    if rules.limit:
        counted = raising & (2 * (to - s.level) >= s.full_raise)
        level = jnp.where(counted, to, level)
        num_raises = num_raises + counted
        capped = capped | (counted & (num_raises >= rules.max_raises) & (able_to_bet(stacks, folded) > 2))
    else:
        increment = to - s.max_bet
        full = raising & (increment >= s.full_raise)
        full_raise = jnp.where(full, increment, full_raise)
        acted = acted & ~full[:, None]
    return s._replace(
        stacks=stacks, bets=bets, contributed=contributed, folded=folded, acted=acted | seat, level=level,
        num_raises=num_raises, capped=capped, full_raise=full_raise, max_bet=jnp.where(raising, to, s.max_bet),
        length=s.length + 1, hist_kind=hist_kind, hist_added=hist_added,
    )


def end_rounds(s: HoldemTables, rules: Rules, rows: jax.Array) -> tuple[HoldemTables, jax.Array]:
    """Close the street where ``rows``: next street and its first actor, or the showdown; (state, the tables whose
    hand reached the showdown) (``vector._holdem_kernels.end_rounds``)."""
    done = jnp.zeros_like(rows)
    bb = rules.big_blind
    for _ in range(rules.last_street + 1):  # all-in tables run through the remaining streets here
        last = rows & (s.street == rules.last_street)
        done |= last
        rows &= ~last
        r2 = rows[:, None]
        street = jnp.where(rows, s.street + 1, s.street)
        full = jnp.where((street >= 2) & rules.limit, 2 * bb, bb)
        s = s._replace(
            street=street, bets=jnp.where(r2, 0, s.bets), acted=s.acted & ~r2, max_bet=jnp.where(rows, 0, s.max_bet),
            full_raise=jnp.where(rows, full, s.full_raise), num_raises=jnp.where(rows, 0, s.num_raises),
            level=jnp.where(rows, 0, s.level), capped=s.capped & ~rows,
            active_at_start=jnp.where(rows, rules.n - s.folded.sum(1), s.active_at_start),
        )
        if rules.history:  # the street's actions become the previous street's
            r3 = rows[:, None, None]
            s = s._replace(
                hist_kind=jnp.where(r3, jnp.stack([jnp.zeros_like(s.hist_kind[:, 0]), s.hist_kind[:, 0]], 1), s.hist_kind),
                hist_added=jnp.where(r3, jnp.stack([jnp.zeros_like(s.hist_added[:, 0]), s.hist_added[:, 0]], 1), s.hist_added),
                folded_at_start=jnp.where(r2, s.folded, s.folded_at_start),
            )
        nxt = first_in_order(needs_to_act(s.stacks, s.bets, s.folded, s.acted, s.max_bet), (s.button + 1) % rules.n)
        s = s._replace(player=jnp.where(rows, nxt, s.player))
        rows &= nxt < 0
    return s, done


def advance(s: HoldemTables, rules: Rules) -> tuple[HoldemTables, jax.Array]:
    """After ``apply_actions``: every table's next seat to act; (state, hand over)."""
    alone = (~s.folded).sum(1) == 1
    nxt = first_in_order(needs_to_act(s.stacks, s.bets, s.folded, s.acted, s.max_bet), (s.player + 1) % rules.n)
    seat = s.player + 1
    nxt = jnp.where(s.passing, seat, nxt)
    over = alone | (s.passing & (seat >= rules.n))
    nxt = jnp.where(over, -1, nxt)
    s, ended = end_rounds(s._replace(player=nxt), rules, (nxt < 0) & ~over)
    return s, over | ended


def hole_cards(deck: jax.Array, button: jax.Array, n: int, hole: int) -> jax.Array:
    """(B, n, hole) each seat's hole cards from the dealing order (one card at a time round the table)."""
    place = (jnp.arange(n) - button[:, None] - 1) % n
    return jnp.stack([jnp.take_along_axis(deck, place + i * n, 1) for i in range(hole)], axis=2)


def settle(deck: jax.Array, button: jax.Array, contributed: jax.Array, folded: jax.Array, rules: Rules) -> jax.Array:
    """(R, n) int32 chips won (+) or lost (-) by each seat of R finished hands (their tables' arrays), as
    ``vector._holdem_kernels.settle``; ``_showdown.settle_batch`` is the pot settlement it calls."""
    n, h = rules.n, rules.hole
    board = deck[:, n * h :]
    board = jnp.broadcast_to(board[:, None, :], (deck.shape[0], n, board.shape[1]))
    strengths = evaluate_hands(hole_cards(deck, button, n, h), board, rules.ranking, rules.hand_rule)
    return settle_batch(contributed, folded, strengths, button, odd_chips=rules.odd_chips) - contributed


def showdowns(s: HoldemTables, rules: Rules, over: jax.Array, key: jax.Array, deck: np.ndarray, capacity: int
              ) -> tuple[jax.Array, jax.Array]:
    """(chips won (B, n), zero where the hand goes on; the dealing orders with new deals where ``over``).

    The work is done on the rows of ``over`` only, gathered into ``capacity`` rows, when no more hands than
    that ended in this step (a hand needs a step, so most steps end few); else on every row."""
    b, size = s.deck.shape

    def gathered(_: None) -> tuple[jax.Array, jax.Array]:
        idx = jnp.nonzero(over, size=capacity, fill_value=b)[0]  # b: no row (dropped when written back)
        rows = jnp.minimum(idx, b - 1)
        won = settle(s.deck[rows], s.button[rows], s.contributed[rows], s.folded[rows], rules)
        fresh = deal(key, capacity, deck, size)
        return (jnp.zeros_like(s.contributed).at[idx].set(won, mode="drop"),
                s.deck.at[idx].set(fresh, mode="drop"))

    def every(_: None) -> tuple[jax.Array, jax.Array]:
        won = settle(s.deck, s.button, s.contributed, s.folded, rules)
        return jnp.where(over[:, None], won, 0), jnp.where(over[:, None], deal(key, b, deck, size), s.deck)

    if capacity >= b:
        return every(None)
    return jax.lax.cond(over.sum() <= capacity, gathered, every, None)


# Observations -------------------------------------------------------------------------------------------
def seen_cards(s: HoldemTables, rules: Rules) -> tuple[jax.Array, jax.Array]:
    """(B, 52) bool one-hots of the seat to act's hole cards and of the board cards seen."""
    n, h = rules.n, rules.hole
    place = (s.player - s.button - 1) % n
    hole = jnp.stack([seat_values(s.deck, place + i * n) for i in range(h)], axis=1)
    board_cards = s.deck[:, n * h :]
    seen = jnp.arange(board_cards.shape[1]) < jnp.asarray(rules.board_seen, dtype=jnp.int32)[s.street][:, None]
    cards = jnp.arange(52)
    own = (hole[:, :, None] == cards).any(1)
    board = ((board_cards[:, :, None] == cards) & seen[:, :, None]).any(1)
    return own, board


def _floats(*columns: jax.Array) -> jax.Array:
    """The columns (each (B,) or (B, k)) side by side as one float32 (B, K) block."""
    return jnp.concatenate([c.reshape(c.shape[0], -1).astype(jnp.float32) for c in columns], axis=1)


def encode_default(s: HoldemTables, rules: Rules, can: jax.Array, low: jax.Array, high: jax.Array, owe: jax.Array
                   ) -> jax.Array:
    """(B, 108 + 6n + 6) float32: ``encoders.holdem_default`` of each table's seat to act."""
    n = rules.n
    bb = jnp.float32(rules.big_blind)
    p = s.player
    own, board = seen_cards(s, rules)
    order = (p[:, None] + jnp.arange(n)) % n  # observer first, clockwise
    stacks = jnp.take_along_axis(s.stacks, order, 1)
    folded = jnp.take_along_axis(s.folded, order, 1)
    seats = jnp.stack([stacks / bb, jnp.take_along_axis(s.bets, order, 1) / bb,
                       jnp.take_along_axis(s.contributed, order, 1) / bb, folded, (stacks == 0) & ~folded], axis=2)
    stack = seat_values(s.stacks, p)
    return _floats(
        own, board, jnp.arange(4) == s.street[:, None], jnp.arange(n) == ((p - s.button) % n)[:, None], seats,
        s.contributed.sum(1) / bb, jnp.minimum(owe, stack) / bb, jnp.where(can, low / bb, 0.0),
        jnp.where(can, high / bb, 0.0), can, (n - s.folded.sum(1)) / jnp.float32(n),
    )


def encode_flat56(s: HoldemTables, rules: Rules) -> jax.Array:
    """(B, 56) float32: ``encoders.flat56`` of each table's seat to act."""
    p = s.player
    sb = jnp.float32(rules.small_blind)
    seat = jnp.arange(rules.n) == p[:, None]
    own, board = seen_cards(s, rules)
    return _floats(
        (seat_values(s.stacks, p) - jnp.asarray(rules.stacks)[p]) / sb, (s.contributed.sum(1) - s.bets.sum(1)) / sb,
        seat_values(s.bets, p) / sb, jnp.where(seat, jnp.iinfo(jnp.int32).min, s.bets).max(1) / sb, own | board,
    )


def encode_flat107(s: HoldemTables, rules: Rules) -> jax.Array:
    """(B, 107) float32: ``encoders.flat107`` of each table's seat to act."""
    own, board = seen_cards(s, rules)
    return _floats(s.bets.max(1) / jnp.float32(rules.small_blind), rules.n - s.folded.sum(1), s.active_at_start,
                   board, own)


def encode_public(s: HoldemTables, rules: Rules, can: jax.Array, low: jax.Array, high: jax.Array, owe: jax.Array,
                  blinds: jax.Array | None = None, hand_number: jax.Array | int = 0, level: jax.Array | int = 0,
                  seated: jax.Array | None = None) -> jax.Array:
    """(B, 14 + 6n) float32: ``_holdem_public.encode_public_batch`` (``encoders.public``) of each table's seat to act.

    ``can``, ``low``, ``high``, ``owe``: ``raise_range`` of the tables (``can`` False on pass turns);
    ``blinds``: (3,) or (B, 3) small blind, big blind and ante (None: the rules'); ``hand_number``, ``level``:
    scalars or (B,); ``seated``: (B, n) bool seats in play (None: all).
    """
    b = s.player.shape[0]
    p = s.player
    if blinds is None:
        blinds = jnp.asarray([rules.small_blind, rules.big_blind, rules.ante], jnp.float32)
    blinds = jnp.broadcast_to(jnp.asarray(blinds, jnp.float32), (b, 3))
    scalars = _floats(
        s.contributed.sum(1), jnp.minimum(owe, seat_values(s.stacks, p)), jnp.where(can, low, 0), jnp.where(can, high, 0),
        can, s.street, s.button, jnp.where(s.passing, -1, p), p, blinds,
        jnp.broadcast_to(jnp.asarray(hand_number), (b,)), jnp.broadcast_to(jnp.asarray(level), (b,)),
    )
    inplay = jnp.ones_like(s.folded) if seated is None else jnp.asarray(seated, bool)
    block = jnp.stack([s.stacks, s.bets, s.contributed, s.folded, (s.stacks == 0) & ~s.folded], 1).astype(jnp.float32)
    block = jnp.concatenate([block * inplay[:, None, :], inplay[:, None, :].astype(jnp.float32)], 1)
    return jnp.concatenate([scalars, block.reshape(b, -1)], axis=1)
