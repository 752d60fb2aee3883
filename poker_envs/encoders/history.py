"""The hand so far, as one fixed-shape float32 vector: the opt-in ``"history"`` key of hold'em-family observations.

``history=True`` on a hold'em-family environment (no-limit, limit, short deck, pot-limit, Omaha, push/fold,
their sessions) adds ``observation["history"]``: the public action log of the hand (every action of every
seat with its amounts), the observer's own cards, the board, what each seat started the hand with and
posted, and in a session the net results of the last hands. With ``observation["public"]`` it is all a
text view of the table needs (``poker_envs.text``), whatever the encoder. Agents read it by name with
``decode_history(vector, layout)``; ``HistoryLayout.for_env(env)`` gives the layout of an environment.

Amounts are in chips (push/fold: big blinds), as in ``"public"``; seats are environment seats. Layout
for ``n`` seats, ``h`` hole cards, ``b`` board cards, ``R`` action rows, ``K`` recent hands:

=====================  ====================================================================================
index                  field
=====================  ====================================================================================
0                      ``num_actions``: actions taken in this hand so far (posting blinds and antes is not
                       an action); when it exceeds ``R``, only the last ``R`` are kept
1                      ``num_recent``: earlier hands of the session recorded below (0 .. ``K``)
2 .. 2+h               own hole cards (card ids, ``poker_envs.core.cards``), -1 where none
2+h .. 2+h+b           the board, -1 where not dealt
then 3 per seat s      ``start_stack`` (chips at the start of the hand, before posting), ``ante``,
(``s*3 + k``)          ``blind`` (chips posted); zeros for seats not dealt in
then ``R`` rows of 6   ``street``, ``seat``, ``kind`` (``games.base.ActionKind``: 0 fold, 1 check, 2 call,
                       3 bet, 4 raise), ``added`` (chips this action put in), ``total`` (the seat's street
                       bet after it: the bet-to / raise-to amount), ``all_in`` (0/1); oldest first, unused
                       rows all -1
then ``K`` rows of n   net chips of each seat in the earlier hands of the session, the latest hand first
                       (zeros for a seat that was not dealt in); unused rows zeros
=====================  ====================================================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from gymnasium import spaces

from poker_envs.encoders.public import TablePosition

ACTION_FIELDS = ("street", "seat", "kind", "added", "total", "all_in")
MAX_ACTION_ROWS = 128  # actions kept per hand at most (a hand longer than this keeps its last ones)
RECENT_HANDS = 8  # earlier hands of a session whose results are kept
HEADER = 2  # num_actions, num_recent


@dataclass(frozen=True)
class HistoryLayout:
    """Where each field of a history vector sits (module doc); built from the environment's configuration."""

    num_players: int  # environment seats
    hole_cards: int  # own cards shown
    board_cards: int  # board cards at most
    action_rows: int  # actions kept (R)
    recent_hands: int  # earlier hands kept (K); 0 for one-hand episodes

    @staticmethod
    def for_env(env: Any) -> HistoryLayout:
        """The layout of a hold'em-family environment (raw or wrapped), from its configuration only."""
        raw = getattr(env, "unwrapped", env)
        layout = getattr(raw, "history_layout", None)
        if layout is None:
            raise ValueError(f"{type(raw).__name__} was built without history=True: its observations have no 'history'")
        return layout

    @property
    def cards_at(self) -> int:
        return HEADER

    @property
    def board_at(self) -> int:
        return HEADER + self.hole_cards

    @property
    def seats_at(self) -> int:
        return self.board_at + self.board_cards

    @property
    def actions_at(self) -> int:
        return self.seats_at + 3 * self.num_players

    @property
    def recent_at(self) -> int:
        return self.actions_at + len(ACTION_FIELDS) * self.action_rows

    @property
    def size(self) -> int:
        return self.recent_at + self.recent_hands * self.num_players

    def space(self, max_chips: float, max_actions: int) -> spaces.Box:
        """The Box of the vector: chips in ``[-max_chips, max_chips]`` (net results) or ``[0, max_chips]``."""
        low = np.full(self.size, -1.0, dtype=np.float32)
        high = np.full(self.size, float(max_chips), dtype=np.float32)
        low[0], high[0] = 0, max_actions
        low[1], high[1] = 0, self.recent_hands
        high[self.cards_at : self.seats_at] = 51
        low[self.seats_at : self.actions_at] = 0
        rows = slice(self.actions_at, self.recent_at)
        r = low[rows].reshape(self.action_rows, len(ACTION_FIELDS)), high[rows].reshape(self.action_rows, len(ACTION_FIELDS))
        r[1][:, 0] = 3
        r[1][:, 1] = self.num_players - 1
        r[1][:, 2] = 4
        r[1][:, 5] = 1
        low[self.recent_at :] = -max_chips
        return spaces.Box(low, high, dtype=np.float32)


class ActionEntry(NamedTuple):
    """One action of the hand (amounts in chips; push/fold: big blinds)."""

    street: int  # 0 pre-flop .. 3 river
    seat: int  # environment seat
    kind: int  # games.base.ActionKind: 0 fold, 1 check, 2 call, 3 bet, 4 raise
    added: float  # chips this action put in
    total: float  # the seat's street bet after it (bet-to / raise-to)
    all_in: bool


class HandHistory(NamedTuple):
    """A history vector by name (see module doc)."""

    num_actions: int  # actions of the hand so far; ``len(actions)`` is less when the earliest were dropped
    hole: tuple[int, ...]  # own cards
    board: tuple[int, ...]  # board cards dealt
    start_stacks: tuple[float, ...]  # per seat, chips at the start of the hand
    antes: tuple[float, ...]  # per seat, ante posted
    blinds: tuple[float, ...]  # per seat, blind posted
    actions: tuple[ActionEntry, ...]  # the kept actions, oldest first
    recent: tuple[tuple[float, ...], ...]  # per earlier hand (latest first), each seat's net chips


def _records(state: Any) -> list[tuple[int, int, int, float, float, bool]]:
    """(street, rules seat, kind, added, total, all_in) of every action of ``state``'s hand (the rules' record)."""
    if hasattr(state, "action_records"):  # push/fold: one pre-flop round
        return [(0, *r) for r in state.action_records()]
    return [(street, r.player, r.kind, r.added, r.total, r.all_in) for street, records in enumerate(state.history) for r in records]


def _posted(state: Any, records: Sequence[tuple]) -> tuple[list[float], list[float], list[float]]:
    """(start stacks, antes, blinds) per rules seat."""
    m = state.num_players
    if hasattr(state, "action_records"):  # push/fold: stacks count the blind and ante
        cfg = state.config
        return [float(x) for x in cfg.stacks], [float(cfg.ante_bb)] * m, [float(b) for b in cfg.blinds()]
    starts = [float(x) for x in state.starting_stacks]
    added = [0.0] * m
    for r in records:
        added[r[1]] += r[3]
    antes = [float(min(state.config.ante, s)) for s in starts]
    blinds = [c - a - x for c, a, x in zip(state.contributed, antes, added)]
    return starts, antes, blinds


def encode_history(
    state: Any, seat: int, layout: HistoryLayout, table: TablePosition | None = None, recent: Sequence[Sequence[float]] = ()
) -> np.ndarray:
    """The history vector seen by rules seat ``seat`` of a hold'em or push/fold ``state``; ``table`` maps rules seats
    to environment seats (default: the same), ``recent`` the session's earlier results (latest first, env seats)."""
    seats = table.seats if table is not None else tuple(range(state.num_players))
    out = np.full(layout.size, -1.0, dtype=np.float32)
    records = _records(state)
    out[0] = len(records)
    out[1] = min(len(recent), layout.recent_hands)
    hole = list(state.hole[seat])[: layout.hole_cards]
    out[layout.cards_at : layout.cards_at + len(hole)] = hole
    board = list(state.board)[: layout.board_cards]
    out[layout.board_at : layout.board_at + len(board)] = board
    per_seat = out[layout.seats_at : layout.actions_at].reshape(layout.num_players, 3)
    per_seat[:] = 0.0
    starts, antes, blinds = _posted(state, records)
    for rules_seat, env_seat in enumerate(seats):
        per_seat[env_seat] = (starts[rules_seat], antes[rules_seat], blinds[rules_seat])
    kept = records[-layout.action_rows :] if layout.action_rows else []
    rows = out[layout.actions_at : layout.recent_at].reshape(layout.action_rows, len(ACTION_FIELDS))
    for i, (street, player, kind, added, total, all_in) in enumerate(kept):
        rows[i] = (street, seats[player], kind, added, total, 1.0 if all_in else 0.0)
    tail = out[layout.recent_at :].reshape(layout.recent_hands, layout.num_players)
    tail[:] = 0.0
    for i, result in enumerate(list(recent)[: layout.recent_hands]):
        tail[i] = result
    return out


def with_hole_cards(vector: np.ndarray, holes: np.ndarray, layout: HistoryLayout) -> np.ndarray:
    """(N, size): one encoded history ``vector`` once per row of ``holes`` (N, cards), the observer's cards replaced
    by the row's: what ``encode_history`` gives for the same state with those cards dealt to the observer (no other
    field shows them). For asking an agent about every holding it may hold at once (local best response)."""
    holes = np.asarray(holes)
    if holes.ndim != 2 or holes.shape[1] != layout.hole_cards:
        raise ValueError(f"holes must be (N, {layout.hole_cards}) card ids, got shape {holes.shape}")
    out = np.repeat(np.asarray(vector, dtype=np.float32)[None], len(holes), axis=0)
    out[:, layout.cards_at : layout.cards_at + layout.hole_cards] = holes
    return out


def decode_history(vector: Sequence[float] | np.ndarray, layout: HistoryLayout) -> HandHistory:
    """The history vector as named fields (ValueError on a wrong length)."""
    v = np.asarray(vector, dtype=np.float64).ravel()
    if v.shape[0] != layout.size:
        raise ValueError(f"a history vector of this layout has {layout.size} entries, got {v.shape[0]}")
    x = v.tolist()
    num_actions, num_recent = int(round(x[0])), int(round(x[1]))
    hole = tuple(int(round(c)) for c in x[layout.cards_at : layout.board_at] if c >= 0)
    board = tuple(int(round(c)) for c in x[layout.board_at : layout.seats_at] if c >= 0)
    per_seat = [x[layout.seats_at + 3 * s : layout.seats_at + 3 * s + 3] for s in range(layout.num_players)]
    actions = []
    for i in range(min(num_actions, layout.action_rows)):
        row = x[layout.actions_at + 6 * i : layout.actions_at + 6 * i + 6]
        actions.append(ActionEntry(int(round(row[0])), int(round(row[1])), int(round(row[2])), row[3], row[4], row[5] > 0.5))
    n = layout.num_players
    recent = tuple(tuple(x[layout.recent_at + n * i : layout.recent_at + n * (i + 1)]) for i in range(num_recent))
    return HandHistory(
        num_actions, hole, board, tuple(p[0] for p in per_seat), tuple(p[1] for p in per_seat), tuple(p[2] for p in per_seat),
        tuple(actions), recent,
    )


def history_option(
    history: object, num_players: int, hole_cards: int, board_cards: int, max_actions: int, max_chips: float, session: bool
) -> tuple[HistoryLayout, spaces.Box] | None:
    """The layout and Box for an environment's ``history`` argument (None when off); ValueError unless a bool."""
    if not isinstance(history, bool | np.bool_):
        raise ValueError(f"history must be True or False, got {history!r}")
    if not history:
        return None
    layout = HistoryLayout(num_players, hole_cards, board_cards, min(max_actions, MAX_ACTION_ROWS), RECENT_HANDS if session else 0)
    return layout, layout.space(max_chips, max_actions)
