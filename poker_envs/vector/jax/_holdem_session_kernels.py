"""Hold'em sessions in JAX: the numpy session engine (``holdem_session.py``) as pure functions of a pytree.

A ``SessionTables`` holds the hand state (``_holdem_kernels.HoldemTables``) beside the session's arrays (stacks
carried between hands, seats in play, places, the blind level, ...). Each function mirrors the numpy code of
the same name with masks where the numpy code writes rows: ``post_forced_bets`` and ``decide_by_forced_bets``
(``_holdem_kernels``) for per-row stacks, blinds and seats in play, ``seat_deck``, and ``between_hands``, the
bookkeeping of the tables whose hand ended. ICM at a session's end is exact Malmuth-Harville, computed on the
device by a dynamic program over the subsets of the seats (``icm``), so the whole step stays one jitted
function. Tests: ``tests/test_vector_jax_sessions.py`` (against the numpy session engine).
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from poker_envs.vector.holdem import Rules
from poker_envs.vector.jax import _holdem_kernels as j
from poker_envs.vector.jax.base import select


class SessionTables(NamedTuple):
    """The hand state of B tables and their sessions' arrays (``VectorHoldemSession``'s attributes)."""

    hand: j.HoldemTables  # the current hand at every table (its ``key`` deals the next hands)
    stacks: jax.Array  # (B, n) int32 chips of every seat between hands
    results: jax.Array  # (B, n) int32 chips won (+) or lost (-) in the session's finished hands
    seated: jax.Array  # (B, n) bool seats still in play
    place: jax.Array  # (B, n) int32 eliminated seats: finishing place (1 = first; ties share)
    hand_number: jax.Array  # (B,) int32 hands finished in the session
    level: jax.Array  # (B,) int32 blind level of the current hand
    blinds: jax.Array  # (B, 3) int32 small blind, big blind, ante of the current hand
    hand_start: jax.Array  # (B, n) int32 stacks at the start of the current hand
    first_button: jax.Array  # (B,) int32 button of the session's first hand
    hand_decks: jax.Array  # (B, k) int32 the current hand's dealing order (the AEC env's order)
    final_places: jax.Array  # (B, n) int32 places of each table's last finished session
    given: jax.Array  # (B, H, k) int32 reset's "decks": the dealing orders of the first session's first hands
    given_hands: jax.Array  # (B,) int32 hands of the current session dealt from ``given``

    @property
    def player(self) -> jax.Array:
        """(B,) the seat to act at every table."""
        return self.hand.player

    @property
    def illegal(self) -> jax.Array:
        """(B,) bool the last step's action at that table was illegal (played as a fold or a pass)."""
        return self.hand.illegal

    @property
    def key(self) -> jax.Array:
        """The PRNG key of the next deals (the functional contract's ``state.key``)."""
        return self.hand.key

    @property
    def button(self) -> jax.Array:
        """(B,) the current hand's button."""
        return self.hand.button


def post_forced_bets(rules: Rules, button: jax.Array, stacks: jax.Array, seated: jax.Array, blinds: jax.Array,
                     deck: jax.Array, key: jax.Array) -> j.HoldemTables:
    """``_holdem_kernels.post_forced_bets``: the hand after antes and blinds for ``button`` (B,), per-row
    ``stacks`` (B, n), ``seated`` (B, n) and ``blinds`` (B, 3), with the dealing orders ``deck``."""
    b, n = stacks.shape
    rows = jnp.arange(b)
    sb, bb, ante = blinds[:, 0], blinds[:, 1], blinds[:, 2]
    st = jnp.where(seated, stacks, 0)
    paid = jnp.minimum(ante[:, None], st)
    st, contributed = st - paid, paid
    bets = jnp.zeros_like(st)
    m = seated.sum(1)
    sb_seat = jnp.where(m == 2, button, j.first_in_order(seated, (button + 1) % n))
    bb_seat = j.first_in_order(seated, (sb_seat + 1) % n)
    for seat, blind in ((sb_seat, sb), (bb_seat, bb)):
        put = (jnp.arange(n) == seat[:, None]) * jnp.minimum(blind, st[rows, seat])[:, None]
        st, bets, contributed = st - put, bets + put, contributed + put
    z = jnp.zeros(b, jnp.int32)
    folded = ~seated
    acted = jnp.zeros_like(seated)
    full = bb.astype(jnp.int32)
    player = j.first_in_order(j.needs_to_act(st, bets, folded, acted, full), (bb_seat + 1) % n)
    h = rules.history
    return j.HoldemTables(
        stacks=st, bets=bets, contributed=contributed, folded=folded, acted=acted, street=z, player=player,
        button=button, max_bet=full, full_raise=full, num_raises=z + 1, level=full, capped=jnp.zeros(b, bool),
        deck=deck, length=z, active_at_start=m.astype(jnp.int32), passing=jnp.zeros(b, bool),
        hist_kind=jnp.zeros((b, 2, h), jnp.int32), hist_added=jnp.zeros((b, 2, h), jnp.int32),
        folded_at_start=jnp.zeros((b, n if h else 0), bool), key=key, illegal=jnp.zeros(b, bool),
    )


def decide_by_forced_bets(s: j.HoldemTables, rules: Rules, seated: jax.Array) -> j.HoldemTables:
    """Where the forced bets decided the hand (nobody to act): the board run out, the seats in play pass once
    in turn from the lowest (``_holdem_kernels.decide_by_forced_bets``)."""
    decided = s.player < 0
    s, _ = j.end_rounds(s, rules, decided)
    first = j.first_in_order(seated, jnp.zeros_like(s.player))
    return s._replace(passing=decided, player=jnp.where(decided, first, s.player))


def seat_deck(raw: jax.Array, button: jax.Array, seated: jax.Array, hole: int) -> jax.Array:
    """``holdem_session.seat_deck``: the dealing orders ``raw`` (B, w) of the seats in play (the AEC env's
    order, from the seat in play left of the button) laid out for the full table."""
    b, n = seated.shape
    w = raw.shape[1]
    order = (button[:, None] + 1 + jnp.arange(n)) % n
    inplay = jnp.take_along_axis(seated, order, 1).astype(jnp.int32)
    m = inplay.sum(1, keepdims=True)
    place = jnp.cumsum(inplay, 1) - inplay
    out_place = jnp.cumsum(1 - inplay, 1) - (1 - inplay)
    board = w - n * hole
    i = jnp.arange(hole)[None, None, :]
    src = jnp.where(inplay[:, :, None] > 0, place[:, :, None] + i * m[:, :, None],
                    (m * hole + board)[:, :, None] + out_place[:, :, None] * hole + i)
    holes = jnp.take_along_axis(raw, src.transpose(0, 2, 1).reshape(b, n * hole), 1)
    return jnp.concatenate([holes, jnp.take_along_axis(raw, m * hole + jnp.arange(board)[None, :], 1)], 1)


def icm(stacks: jax.Array, seated: jax.Array, pay: np.ndarray) -> jax.Array:
    """(B, n) float32 expected prizes by ICM (Malmuth-Harville, as ``poker_envs.session.icm``) of the seats in
    play ``seated`` (B, n) with ``stacks`` (B, n); ``pay`` (n,) the prize of each place (zeros past the paid ones).

    Exact: a dynamic program over the 2**n subsets of seats still unplaced (at most 10 seats: 1,024 subsets).
    A subset's probability passes to each subset one seat smaller, in proportion to that seat's stack; the
    seat removed takes the place ``m - |subset|`` (``m``: seats in play)."""
    b, n = stacks.shape
    size = 1 << n
    masks = np.arange(size)
    bits = (masks[:, None] >> np.arange(n)) & 1  # (S, n)
    count = bits.sum(1)
    x = jnp.where(seated, stacks, 0).astype(jnp.float32)
    total = jnp.dot(x, jnp.asarray(bits.T, jnp.float32), precision=jax.lax.Precision.HIGHEST)  # (B, S) chips of each subset (no TF32)
    full = (seated.astype(jnp.int32) << jnp.arange(n)).sum(1)  # (B,) the subset of every seat in play
    m = seated.sum(1)
    prob = (jnp.arange(size)[None, :] == full[:, None]).astype(jnp.float32)
    value = jnp.zeros((b, n), jnp.float32)
    payj = jnp.asarray(np.concatenate([pay, np.zeros(1)]), jnp.float32)
    for c in range(n, 0, -1):  # subsets of c seats: their probabilities are final
        at = jnp.asarray(count == c)[None, :]
        p = jnp.where(at, prob / jnp.maximum(total, 1e-30), 0.0)
        prize = payj[jnp.clip(m - c, 0, n)]  # (B,) the place a seat removed from a c-subset takes
        for i in range(n):
            q = p * x[:, i : i + 1] * jnp.asarray(bits[:, i], jnp.float32)[None, :]  # (B, S): seat i places next
            value = value.at[:, i].add(q.sum(1) * prize)
            prob = prob + q[:, masks | (1 << i)] * jnp.asarray(bits[:, i] == 0, jnp.float32)[None, :]
    return value


def finishing_places(stacks: jax.Array, seated: jax.Array, place: jax.Array) -> jax.Array:
    """(B, n) ``VectorHoldemSession.finishing_places``: the seats in play by stack (ties share), then the out ones."""
    above = (seated[:, None, :] & (stacks[:, None, :] > stacks[:, :, None])).sum(2)
    return jnp.where(seated, 1 + above, place)


class Session(NamedTuple):
    """What the session functions need of a ``VectorHoldemSession``'s configuration (static numbers)."""

    start_stacks: np.ndarray  # (n,) chips of every seat at a session's start
    levels: np.ndarray  # (L, 3) small blind, big blind, ante of each level
    hands_per_level: int  # hands at each level (0: one level)
    hands_per_episode: int  # most hands of a session
    rebuy: bool  # every hand starts from the starting stacks
    payouts: tuple[float, ...]  # prize share of each place; () = rewards are chips
    hole: int  # hole cards per seat
    scale: float  # chips -> reward unit

    @property
    def pay(self) -> np.ndarray:
        """(n,) the prize of each place (zeros past the paid ones)."""
        n = len(self.start_stacks)
        return np.concatenate([np.asarray(self.payouts, np.float64), np.zeros(n)])[:n]


def start_hands(s: SessionTables, rules: Rules, cfg: Session, rows: jax.Array, raw: jax.Array) -> SessionTables:
    """Deal the next hand where ``rows`` (B,) (``VectorHoldemSession._start_hands_at``): its level and blinds,
    the dealing order ``raw`` (B, k) unless reset's ``given`` decks still deal it, the forced bets posted
    (``s.hand.button`` holds the hand's button)."""
    level = s.level
    if cfg.hands_per_level:
        level = jnp.minimum(s.hand_number // cfg.hands_per_level, len(cfg.levels) - 1)
    level = jnp.where(rows, level, s.level)
    blinds = jnp.where(rows[:, None], jnp.asarray(cfg.levels, jnp.int32)[level], s.blinds)
    h = s.given.shape[1]
    if h:
        fixed = s.hand_number < s.given_hands
        given = jnp.take_along_axis(s.given, jnp.clip(s.hand_number, 0, h - 1)[:, None, None], 1)[:, 0]
        raw = jnp.where(fixed[:, None], given, raw)
    raw = jnp.where(rows[:, None], raw, s.hand_decks)
    button = s.hand.button
    start = post_forced_bets(rules, button, s.stacks, s.seated, blinds, seat_deck(raw, button, s.seated, cfg.hole),
                             s.hand.key)
    start = decide_by_forced_bets(start, rules, s.seated)
    hand = select(rows, start, s.hand)  # the key and the illegal flags stay the table's
    return s._replace(hand=hand, level=level, blinds=blinds, hand_start=jnp.where(rows[:, None], s.stacks, s.hand_start),
                      hand_decks=raw)


def new_sessions(s: SessionTables, cfg: Session, rows: jax.Array, buttons: jax.Array) -> SessionTables:
    """Fresh sessions where ``rows`` with their first hand's ``buttons`` (``VectorHoldemSession._new_sessions``)."""
    r2 = rows[:, None]
    return s._replace(
        stacks=jnp.where(r2, jnp.asarray(cfg.start_stacks, jnp.int32), s.stacks), results=jnp.where(r2, 0, s.results),
        seated=s.seated | r2, place=jnp.where(r2, 0, s.place), hand_number=jnp.where(rows, 0, s.hand_number),
        first_button=jnp.where(rows, buttons, s.first_button), hand=s.hand._replace(button=jnp.where(rows, buttons, s.hand.button)),
    )


def between_hands(s: SessionTables, cfg: Session, over: jax.Array, chips: jax.Array
                  ) -> tuple[SessionTables, jax.Array, jax.Array, jax.Array]:
    """The bookkeeping of the tables whose hand ended (``over`` (B,); ``chips`` (B, n) won or lost): stacks,
    eliminations and places, prizes, the sessions' ends and the next button, as
    ``VectorHoldemSession._advance_rows``. (state, rewards (B, n) float32, eliminated (B, n), session ended (B,)).
    The next hands are not dealt here (``start_hands``)."""
    b, n = s.stacks.shape
    prizes = bool(cfg.payouts)
    o2 = over[:, None]
    seated = s.seated
    won = jnp.where(o2 & seated, chips, 0)
    rewards = jnp.zeros((b, n), jnp.float32) if prizes else won.astype(jnp.float32) * jnp.float32(cfg.scale)
    before = s.hand_start
    results = s.results + won
    after = jnp.broadcast_to(jnp.asarray(cfg.start_stacks, jnp.int32), (b, n)) if cfg.rebuy else s.stacks + won
    stacks = jnp.where(o2, after, s.stacks)
    hand_number = s.hand_number + over
    gone = o2 & seated & (stacks < 1)
    everyone = over & (gone == seated).all(1)  # nobody could go on: the biggest stacks before the hand stay
    keep = jnp.where(gone, before, -1).max(1)
    gone = jnp.where(everyone[:, None], gone & (before < keep[:, None]), gone)
    left = seated & ~gone
    higher = (gone[:, None, :] & (before[:, None, :] > before[:, :, None])).sum(2)
    same = (gone[:, None, :] & (before[:, None, :] == before[:, :, None])).sum(2)
    first = left.sum(1, keepdims=True) + higher  # 0-based place of the group
    place = jnp.where(gone, first + 1, s.place)
    if prizes:
        cum = jnp.asarray(np.cumsum(np.concatenate([[0.0], cfg.pay])), jnp.float32)
        end = jnp.minimum(first + same, n)
        share = (cum[end] - cum[jnp.minimum(first, n)]) / jnp.maximum(same, 1)
        rewards = rewards + jnp.where(gone, share, 0.0)
    ended = over & ((hand_number >= cfg.hands_per_episode) | (left.sum(1) <= 1))
    if prizes:
        pay = jnp.asarray(cfg.pay, jnp.float32)
        alone = ended & (left.sum(1) == 1)
        rewards = rewards + jnp.where(alone[:, None] & left, pay[0], 0.0)
        several = ended & (left.sum(1) > 1)
        rewards = rewards + jax.lax.cond(
            several.any(), lambda: jnp.where(several[:, None], icm(stacks, left, cfg.pay), 0.0),
            lambda: jnp.zeros((b, n), jnp.float32))
    s = s._replace(stacks=stacks, results=results, hand_number=hand_number, seated=left, place=place)
    final = finishing_places(stacks, left, place)
    s = s._replace(final_places=jnp.where(ended[:, None], final, s.final_places),
                   given_hands=jnp.where(ended, 0, s.given_hands))
    more = over & ~ended
    button = s.hand.button
    s = s._replace(hand=s.hand._replace(button=jnp.where(more, j.first_in_order(left, (button + 1) % n), button)))
    s = new_sessions(s, cfg, ended, (s.first_button + 1) % n)
    return s, rewards, gone, ended


def showdowns(s: j.HoldemTables, rules: Rules, over: jax.Array, key: jax.Array, deck: np.ndarray, capacity: int
              ) -> tuple[jax.Array, jax.Array]:
    """``_holdem_kernels.showdowns``: (chips won (B, n), zero where the hand goes on; fresh dealing orders (B, size),
    meaningful where ``over``), with one program for any number of finished hands: the rows of ``over`` are
    settled and dealt ``capacity`` at a time in a ``lax.while_loop`` (one chunk in most steps), so the hand
    evaluation compiles once (``_holdem_kernels.showdowns`` compiles a second, whole-table form)."""
    b, size = s.deck.shape
    chunks = -(-b // capacity)
    idx_all = jnp.nonzero(over, size=chunks * capacity, fill_value=b)[0]  # b: no row (dropped when written back)
    todo = (over.sum() + capacity - 1) // capacity

    def chunk(c: tuple[jax.Array, jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array, jax.Array]:
        i, won, decks = c
        idx = jax.lax.dynamic_slice(idx_all, (i * capacity,), (capacity,))
        rows = jnp.minimum(idx, b - 1)
        got = j.settle(s.deck[rows], s.button[rows], s.contributed[rows], s.folded[rows], rules)
        fresh = j.deal(jax.random.fold_in(key, i), capacity, deck, size)
        return i + 1, won.at[idx].set(got, mode="drop"), decks.at[idx].set(fresh, mode="drop")

    _, won, decks = jax.lax.while_loop(lambda c: c[0] < todo, chunk, (jnp.int32(0), jnp.zeros_like(s.contributed), s.deck))
    return won, decks
