"""Batched hold'em sessions: many hands per episode at every table, as the AEC environment plays them.

``VectorHoldemSession`` is the batched form of a hold'em environment built with session arguments
(``hands_per_episode``, ``rebuy``, ``blind_levels`` / ``hands_per_level``, ``payouts``; see
``poker_envs.session``): stacks carried from hand to hand, the blind level of each hand, seats
eliminated when they bust, prizes by finishing place and ICM when the hands run out. It plays the same
sessions as the AEC environment, seat for seat, for the same buttons, decks and actions (tests:
``tests/test_vector_sessions.py``).

How a shrinking table is played on arrays of fixed width: the tables keep every environment seat; an
eliminated seat is a folded seat with no chips, so it never acts, never wins and is skipped where the
blinds, the first seat to act and the button move (``_holdem_kernels.post_forced_bets``). The AEC environment deals
each hand to a smaller rules table of the seats in play, from the rules seat left of the button; a hand's
dealing order is laid out for the full table (``seat_deck``) so that every seat in play holds the cards the
AEC environment gives it and the board is the same. Between hands the bookkeeping runs over arrays on the
tables whose hand ended (no loop over tables), except ICM, which is computed table by table where a
session ends with two or more seats left (``poker_envs.session.icm``, once per session).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from poker_envs.games.holdem import HoldemConfig, HoldemGame
from poker_envs.session import SessionConfig, icm
from poker_envs.vector import _holdem_kernels as k
from poker_envs.vector._holdem_encode import encode_default
from poker_envs.vector._holdem_public import encode_public_batch
from poker_envs.vector.base import VectorStep, spread, step_rows
from poker_envs.vector import holdem
from poker_envs.vector.holdem import VectorHoldem, reset_hands
from poker_envs.encoders import flat56, flat107
from poker_envs.vector._holdem_encode import card_entries

SESSION_ENCODERS = ("default", "flat56", "flat107")  # batched encoders with their session form


def first_seated(seated: np.ndarray, start: np.ndarray) -> np.ndarray:
    """(R,) the first seat in play going round from ``start`` (-1 where none)."""
    return k.first_in_order(seated, start)


def seat_deck(raw: np.ndarray, button: np.ndarray, seated: np.ndarray, hole: int) -> np.ndarray:
    """The dealing orders ``raw`` (R, w) of hands played by the seats in play, laid out for the full table.

    The AEC environment deals a hand of ``m`` seats in play from the one left of the button: hole card ``i``
    of the ``j``-th of them is ``raw[j + i * m]``, the board follows at ``raw[m * hole:]``. The kernels read
    a full table's layout (hole card ``i`` of the seat at place ``q`` from the button at ``q + i * n``, the
    board at ``n * hole``); eliminated seats get the cards the hand leaves over (never shown).
    """
    r, n = seated.shape
    w = raw.shape[1]
    order = k.rotations(n)[(button.astype(np.int64) + 1) % n]  # (R, n) seats in dealing order
    inplay = np.take_along_axis(seated, order, 1)
    m = inplay.sum(1, keepdims=True)
    j = np.cumsum(inplay, 1) - inplay  # place among the seats in play
    e = np.cumsum(~inplay, 1) - ~inplay  # place among the seats out
    board = w - n * hole
    i = np.arange(hole)[None, None, :]
    src = np.where(inplay[:, :, None], j[:, :, None] + i * m[:, :, None], (m * hole + board)[:, :, None] + e[:, :, None] * hole + i)
    out = np.empty_like(raw)
    out[:, : n * hole] = np.take_along_axis(raw, src.transpose(0, 2, 1).reshape(r, n * hole), 1)
    out[:, n * hole :] = np.take_along_axis(raw, m * hole + np.arange(board)[None, :], 1)
    return out


def deal_shape(config: HoldemConfig) -> int:
    """Hole cards per seat of ``config``."""
    return int(getattr(config, "hole_cards", 2))


class VectorHoldemSession(VectorHoldem):
    """``num_envs`` hold'em tables, each playing sessions of hands (see the module doc).

    Outputs are ``VectorStep`` s with ``public`` (always), ``hand_over`` and ``eliminated``; ``terminated``
    marks a table whose session ended in this call (the next session starts there at once). Rewards are
    paid as the AEC environment pays them: each hand's chips (in ``reward_unit``) as it ends, or with
    ``payouts`` prize shares only (an eliminated seat's place as it goes out, the rest at the session's end).
    """

    def __init__(
        self, num_envs: int, config: HoldemConfig, session: SessionConfig, *, seed: int | None = None,
        reward_unit: str = "big_blinds", obs_encoder: str = "default",
    ) -> None:
        if not isinstance(session, SessionConfig) or not session.is_session:
            raise ValueError("session must be a SessionConfig of more than one hand or with payouts (else use VectorHoldem)")
        if obs_encoder not in SESSION_ENCODERS:
            raise ValueError(
                f"obs_encoder {obs_encoder!r} has no batched session form; with sessions choose one of {list(SESSION_ENCODERS)}"
            )
        n = config.num_players
        session.check_seats(n)
        if session.blind_levels:
            sb, bb, ante = session.blind_levels[0]
            config = replace(config, small_blind=sb, big_blind=bb, ante=ante)
        self.start_config = config  # the table at the start of a session
        self.session_config = session
        total = sum(config.starting_stacks)
        # As the AEC env: the spaces and action ids are those of a template table (every seat holding all
        # the chips, the first level's blinds).
        super().__init__(num_envs, replace(config, starting_stacks=(total,) * n), seed=seed, reward_unit=reward_unit,
                         obs_encoder=obs_encoder, public=True)
        self.reward_scale = 1.0 / config.big_blind if reward_unit == "big_blinds" else 1.0
        self._hole = deal_shape(config)
        self._start_stacks = np.array(config.starting_stacks, dtype=np.int64)
        levels = session.blind_levels or ((config.small_blind, config.big_blind, config.ante),)
        self._levels = np.array(levels, dtype=np.int64)  # (L, 3)
        pay = np.zeros(n + 1)
        pay[1 : len(session.payouts) + 1] = session.payouts
        self._pay_cum = np.cumsum(pay)  # prize of places [a, b) = _pay_cum[b] - _pay_cum[a]
        b = self.num_envs
        self.stacks = np.zeros((b, n), dtype=np.int64)  # chips of every seat between hands
        self.results = np.zeros((b, n), dtype=np.int64)  # chips won (+) or lost (-) in the session's finished hands
        self.seated = np.ones((b, n), dtype=bool)  # seats still in play
        self.place = np.zeros((b, n), dtype=np.int64)  # eliminated seats: finishing place, 1 = first (ties share)
        self.hand_number = np.zeros(b, dtype=np.int64)  # hands finished in the session
        self.level = np.zeros(b, dtype=np.int64)  # blind level of the current hand
        self.blinds = np.zeros((b, 3), dtype=np.int64)  # (small blind, big blind, ante) of the current hand
        self.hand_start = np.zeros((b, n), dtype=np.int64)  # stacks at the start of the current hand
        self.first_button = np.zeros(b, dtype=np.int64)  # button of the session's first hand
        self.hand_decks = np.zeros((b, self._dealer.size), dtype=np.int64)  # current hands' dealing orders (AEC order)
        self.final_places = np.zeros((b, n), dtype=np.int64)  # places of each table's last finished session
        self._given = np.zeros((b, 0, 0), dtype=np.int64)  # reset's "decks": (num_envs, hands, k)
        self._given_hands = np.zeros(b, dtype=np.int64)  # hands of the current session with a given deck

    @property
    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(low, high) of every observation entry: the AEC env's Box in this session (``flat56`` widened with rebuys)."""
        encoder = holdem.available_encoders()[self.obs_encoder](HoldemGame(self.config))
        if self.session_config.rebuy:
            hands, stacks = self.session_config.hands_per_episode, self.start_config.starting_stacks
            encoder.widen_for_session(hands * max(stacks), hands * sum(stacks))
        return encoder.observation_space.low, encoder.observation_space.high

    # The contract ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> VectorStep:
        """Start a session at every table: the first hand's button as ``VectorHoldem.reset`` draws it (a seed;
        else one seat on from each table's last session), or ``options["buttons"]``; ``options["decks"]``
        (num_envs, hands, k) fixes the dealing order of each table's first hands (the AEC env's ``"decks"``
        option, one list per table); later hands are dealt at random."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self._seed = seed
        options = dict(options or {})
        b, n = self.num_envs, self.num_players
        given = options.pop("decks", None)
        last = None if seed is not None or not self._started else self.first_button
        self._started = True
        buttons, _ = reset_hands(self._rng, self._dealer, b, n, self._seed, last, options)
        if given is not None:
            arr = np.asarray(given)
            if arr.ndim != 3 or arr.shape[0] != b:
                raise ValueError(f"decks must have shape ({b}, hands, k) (the dealing order of each table's first hands), "
                                 f"got {arr.shape}")
            self._given = self._dealer.check(arr.reshape(-1, arr.shape[2]), b * arr.shape[1]).reshape(arr.shape)
            self._given_hands = np.full(b, arr.shape[1], dtype=np.int64)
        else:
            self._given_hands[:] = 0
        everything = np.arange(b)
        self._new_sessions(everything, buttons)
        self._start_hands_at(self.tables, everything, everything)
        z = np.zeros(b, dtype=bool)
        return self._observe(np.zeros((b, n)), z, None, None, z, np.zeros((b, n), dtype=bool))

    def step(self, actions: np.ndarray, active: np.ndarray | None = None) -> VectorStep:
        """One action per table for its seat to act (``active`` as in ``VectorHoldem.step``)."""
        acts, rows = step_rows(actions, self._mask, self.tables.player, active, self.num_envs)
        if rows is None:
            rewards, terminated, hand_over, out = self._advance_rows(self.tables, np.arange(self.num_envs), acts, self._targets)
            return self._observe(rewards, terminated, None, None, hand_over, out)
        part = self.tables.take(rows)
        rewards, terminated, hand_over, out = spread(
            rows, self.num_envs, *self._advance_rows(part, rows, acts[rows], self._targets[rows]))
        self.tables.put(rows, part)
        return self._observe(rewards, terminated, rows, part, hand_over, out)

    def finishing_places(self, rows: np.ndarray | None = None) -> np.ndarray:
        """(R, n) place of every seat of the tables ``rows`` as their session stands (1 = first): the seats in
        play by stack (equal stacks tie), then the eliminated ones, last out best (``runner.finishing_places``)."""
        rows = np.arange(self.num_envs) if rows is None else np.asarray(rows)
        stacks, seated = self.stacks[rows], self.seated[rows]
        above = (seated[:, None, :] & (stacks[:, None, :] > stacks[:, :, None])).sum(2)
        return np.where(seated, 1 + above, self.place[rows])

    # Helpers -----------------------------------------------------------------------------------
    def _new_sessions(self, rows: np.ndarray, buttons: np.ndarray) -> None:
        """Fresh sessions at ``rows`` with their first hand's ``buttons``."""
        self.stacks[rows] = self._start_stacks
        self.results[rows] = 0
        self.seated[rows] = True
        self.place[rows] = 0
        self.hand_number[rows] = 0
        self.first_button[rows] = buttons
        self.tables.button[rows] = buttons

    def _start_hands_at(self, t: k.Tables, rows: np.ndarray, tix: np.ndarray) -> None:
        """Deal the next hand of the sessions at global tables ``rows``, which are rows ``tix`` of ``t`` (whose
        ``button`` already holds the hand's button)."""
        cfg = self.session_config
        if cfg.blind_levels:
            self.level[rows] = np.minimum(self.hand_number[rows] // cfg.hands_per_level, len(cfg.blind_levels) - 1)
        self.blinds[rows] = self._levels[self.level[rows]]
        self.hand_start[rows] = self.stacks[rows]
        raw = self._dealer.deal(self._rng, len(rows))
        fixed = np.flatnonzero(self.hand_number[rows] < self._given_hands[rows])
        if fixed.size:
            g = rows[fixed]
            raw[fixed] = self._dealer.deal(self._rng, len(g), self._given[g, self.hand_number[g]])
        self.hand_decks[rows] = raw
        button = t.button[tix].astype(np.int64)
        seated = self.seated[rows]
        start = k.post_forced_bets(self._rules, button, self.stacks[rows], seated, self.blinds[rows])
        k.decide_by_forced_bets(start, self._rules, seated)
        start.deck[:] = seat_deck(raw, button, seated, self._hole)
        t.put(tix, start)

    def _advance_rows(
        self, t: k.Tables, rows: np.ndarray, acts: np.ndarray, targets: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Play ``acts`` at the tables ``t`` (global tables ``rows``); end hands and sessions, deal the next.
        (rewards, terminated, hand_over, eliminated) of ``t``'s rows."""
        rules, n = self._rules, self.num_players
        k.apply_actions(t, rules, acts, targets)
        street = t.street.copy()
        over = k.advance(t, rules)
        passing = np.flatnonzero(t.passing & (t.player >= 0))
        if passing.size:  # a decided hand passes the seats in play only, in seat order
            p = t.player[passing].astype(np.int64)
            later = self.seated[rows[passing]] & (np.arange(n)[None, :] >= p[:, None])
            nxt = np.where(later.any(1), later.argmax(1), -1)
            t.player[passing] = nxt
            over = np.union1d(over, passing[nxt < 0])
        moved = np.flatnonzero((t.street != street) & (t.player >= 0) & ~t.passing)
        if moved.size:  # a new street's minimum raise is the hand's big blind (limit: two from the turn)
            bb = self.blinds[rows[moved], 1]
            t.full_raise[moved] = np.where(rules.limit & (t.street[moved] >= 2), 2 * bb, bb)
        b = len(acts)
        rewards = np.zeros((b, n))
        terminated = np.zeros(b, dtype=bool)
        hand_over = np.zeros(b, dtype=bool)
        out = np.zeros((b, n), dtype=bool)
        if over.size == 0:
            return rewards, terminated, hand_over, out
        hand_over[over] = True
        g = rows[over]
        chips = k.settle(t, rules, over)
        cfg = self.session_config
        prizes = bool(cfg.payouts)
        seated = self.seated[g]
        if not prizes:
            rewards[over] = np.where(seated, chips * self.reward_scale, 0.0)
        before = self.hand_start[g]
        self.results[g] += np.where(seated, chips, 0)
        stacks = self._start_stacks[None, :].repeat(len(g), 0) if cfg.rebuy else self.stacks[g] + np.where(seated, chips, 0)
        self.stacks[g] = stacks
        self.hand_number[g] += 1
        gone = seated & (stacks < 1)
        everyone = (gone == seated).all(1)
        if everyone.any():  # nobody could go on: the biggest stacks before the hand stay (not in hold'em)
            keep = np.where(gone, before, -1).max(1)
            gone[everyone] &= before[everyone] < keep[everyone, None]
        left = seated & ~gone
        if gone.any():
            # Places of the seats out: below every seat left; the one that started the hand with more chips
            # higher; equal stacks share their places (and prizes).
            higher = (gone[:, None, :] & (before[:, None, :] > before[:, :, None])).sum(2)
            same = (gone[:, None, :] & (before[:, None, :] == before[:, :, None])).sum(2)
            first = left.sum(1, keepdims=True) + higher  # 0-based place of the group
            self.place[g] = np.where(gone, first + 1, self.place[g])
            if prizes:
                end = np.minimum(first + same, n)
                share = (self._pay_cum[end] - self._pay_cum[np.minimum(first, n)]) / np.maximum(same, 1)
                rewards[over] += np.where(gone, share, 0.0)
            out[over] = gone
            self.seated[g] = left
        ended = (self.hand_number[g] >= cfg.hands_per_episode) | (left.sum(1) <= 1)
        if prizes and ended.any():
            for i in np.flatnonzero(ended).tolist():  # once per session: ICM table by table
                seats = np.flatnonzero(left[i])
                pay = cfg.payouts[: len(seats)]
                if len(seats) == 1:
                    rewards[over[i], seats[0]] += pay[0] if pay else 0.0
                elif pay:
                    rewards[over[i], seats] += icm(self.stacks[g[i], seats].astype(np.float64), pay)
        terminated[over[ended]] = True
        more = ~ended
        t.button[over[more]] = first_seated(left[more], t.button[over[more]].astype(np.int64) + 1)
        if ended.any():
            done = g[ended]
            self.final_places[done] = self.finishing_places(done)
            nxt = (self.first_button[done] + 1) % n
            self._given_hands[done] = 0  # only the first sessions after a reset take the given decks
            self._new_sessions(done, nxt)
            t.button[over[ended]] = nxt
        self._start_hands_at(t, g, over)
        return rewards, terminated, hand_over, out

    def _observe(  # type: ignore[override]
        self, rewards: np.ndarray, terminated: np.ndarray, rows: np.ndarray | None, t: k.Tables | None,
        hand_over: np.ndarray | None = None, out: np.ndarray | None = None,
    ) -> VectorStep:
        step = super()._observe(rewards, terminated, rows, t)
        return replace(step, hand_over=hand_over, eliminated=out)

    def _encode(
        self, t: k.Tables, rows: np.ndarray | None, can: np.ndarray, low: np.ndarray, high: np.ndarray, owe: np.ndarray
    ) -> np.ndarray:
        g = np.arange(self.num_envs) if rows is None else rows
        if self.obs_encoder == "default":
            return encode_default(t, self._rules, can, low, high, owe)
        sb = self.blinds[g, 0].astype(np.float64)
        if self.obs_encoder == "flat56":
            return encode_flat56_session(t, self._rules, sb, self.hand_start[g], self.results[g])
        return encode_flat107_session(t, self._rules, sb)

    def _encode_public(
        self, t: k.Tables, rows: np.ndarray | None, can: np.ndarray, low: np.ndarray, high: np.ndarray, owe: np.ndarray
    ) -> np.ndarray:
        g = np.arange(self.num_envs) if rows is None else rows
        return encode_public_batch(t, can, low, high, owe, self.blinds[g], self.hand_number[g], self.level[g], self.seated[g])


def encode_flat56_session(t: k.Tables, rules: k.Rules, sb: np.ndarray, hand_start: np.ndarray, results: np.ndarray) -> np.ndarray:
    """(B, 56) ``flat56`` in a session: amounts in the hand's small blinds ``sb`` (B,), feature 0 counted from the
    session's start (the hand's change plus ``results``, the chips won before it), as ``Flat56Encoder.encode_in_session``."""
    b = len(t.player)
    rows = np.arange(b)
    p = t.player.astype(np.int64)
    obs = np.zeros((b, flat56.SIZE), dtype=np.float32)
    bets = t.bets
    others = bets.copy()
    others[rows, p] = np.iinfo(np.int32).min
    obs[:, flat56.STACK] = (t.stacks[rows, p] - hand_start[rows, p]) / sb
    obs[:, flat56.STACK] += (results[rows, p] / sb).astype(np.float32)
    obs[:, flat56.POT] = (t.contributed.sum(1) - bets.sum(1)) / sb
    obs[:, flat56.OWN_BET] = bets[rows, p] / sb
    obs[:, flat56.OPP_BET] = others.max(1) / sb
    obs.reshape(-1)[(rows * flat56.SIZE)[:, None] + card_entries(t, rules, flat56.CARDS, flat56.CARDS)] = 1.0
    return obs


def encode_flat107_session(t: k.Tables, rules: k.Rules, sb: np.ndarray) -> np.ndarray:
    """(B, 107) ``flat107`` in a session: the current bet in the hand's small blinds ``sb`` (B,)."""
    b = len(t.player)
    rows = np.arange(b)
    obs = np.zeros((b, flat107.SIZE), dtype=np.float32)
    obs[:, flat107.BET] = t.bets.max(1) / sb
    obs[:, flat107.ACTIVE] = rules.n - t.folded.sum(1)
    obs[:, flat107.ACTIVE_AT_START] = t.active_at_start
    obs.reshape(-1)[(rows * flat107.SIZE)[:, None] + card_entries(t, rules, flat107.HOLE, flat107.BOARD)] = 1.0
    return obs
