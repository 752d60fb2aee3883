"""The public betting state: what every player at a hold'em-family table can see, as one float32 vector.

Every hold'em-family environment (limit, no-limit, push/fold) puts it in the observation dict under
``"public"``, next to the encoder's ``"observation"`` and the ``"action_mask"``, so an agent can act
from what ``last()`` returns (no reading of the environment object). Agents read it by name with
``decode_public(vector, num_players)``; the index layout below is fixed and documented in
docs/encoders.md, but nobody should need it.

Amounts are in chips (push/fold: in big blinds, that game's chip unit); rewards stay in big blinds.
Seats are the environment's seats (``player_i`` is seat ``i``), absolute, not relative to the
observer: in a session with eliminations a busted seat keeps its index, with ``seated`` 0 and stack 0.

Layout for ``n`` seats (``n`` = the environment's ``num_players``):

=============  ===========================================================================
index          field
=============  ===========================================================================
0              ``pot``: every chip put in this hand (antes, blinds, all streets' bets)
1              ``to_call``: chips the observer must add to call (0 when nothing is owed)
2, 3           ``min_raise_to``, ``max_raise_to``: the legal raise-to range (street totals) of
               the seat to act, 0 when it cannot bet or raise (or nobody acts)
4              ``can_raise``: 1 if the seat to act can bet or raise
5              ``street``: 0 pre-flop, 1 flop, 2 turn, 3 river
6              ``button``: seat of the button (push/fold heads-up: the small blind)
7              ``actor``: seat to act, -1 when nobody acts (dealing, hand over)
8              ``observer``: the observing seat
9, 10, 11      ``small_blind``, ``big_blind``, ``ante`` of this hand
12             ``hand_number``: hands played before this one in the episode (0 in one-hand mode)
13             ``level``: blind level index of a tournament session (0 otherwise)
14 + k*n + s   per seat ``s``, block ``k``: 0 ``stacks`` (chips behind), 1 ``bets`` (this
               street), 2 ``contributed`` (this hand), 3 ``folded``, 4 ``all_in``, 5 ``seated``
               (0 once eliminated from a session)
=============  ===========================================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from gymnasium import spaces

from poker_envs.games.push_fold import BIG_BLIND_BB, SMALL_BLIND_BB, PushFoldState

SCALARS = (
    "pot", "to_call", "min_raise_to", "max_raise_to", "can_raise", "street", "button", "actor", "observer",
    "small_blind", "big_blind", "ante", "hand_number", "level",
)
SEAT_FIELDS = ("stacks", "bets", "contributed", "folded", "all_in", "seated")
NUM_SCALARS = len(SCALARS)
_INT_FIELDS = frozenset(("street", "button", "actor", "observer", "hand_number", "level"))
_BOOL_FIELDS = frozenset(("can_raise", "folded", "all_in", "seated"))


class PublicState(NamedTuple):
    """The public betting state by name (chips as floats, seats as ints, flags as bools; see module doc)."""

    pot: float
    to_call: float
    min_raise_to: float
    max_raise_to: float
    can_raise: bool
    street: int
    button: int
    actor: int
    observer: int
    small_blind: float
    big_blind: float
    ante: float
    hand_number: int
    level: int
    stacks: tuple[float, ...]
    bets: tuple[float, ...]
    contributed: tuple[float, ...]
    folded: tuple[bool, ...]
    all_in: tuple[bool, ...]
    seated: tuple[bool, ...]


class TablePosition(NamedTuple):
    """Where a hand sits in its episode: which environment seat each rules seat is, and the session position.

    One-hand episodes use ``TablePosition.identity(n)``; sessions map the seats still in play.
    """

    num_players: int  # environment seats (the vector's n)
    seats: tuple[int, ...]  # environment seat of each rules seat of the hand being played
    hand_number: int = 0  # hands played before this one in the episode
    level: int = 0  # blind level index (tournament sessions)

    @staticmethod
    def identity(num_players: int) -> TablePosition:
        return TablePosition(num_players, tuple(range(num_players)))


def public_size(num_players: int) -> int:
    """Length of the public vector for ``num_players`` seats."""
    return NUM_SCALARS + len(SEAT_FIELDS) * num_players


def public_space(num_players: int, max_chips: float, max_hands: int = 1, max_level: int = 0) -> spaces.Box:
    """The finite Box of the public vector: chips in ``[0, max_chips]``, blinds up to ``max_chips``, seats in
    ``[-1, n - 1]``, the session position up to ``max_hands - 1`` and ``max_level``."""
    n = num_players
    low = np.zeros(public_size(n), dtype=np.float32)
    high = np.ones(public_size(n), dtype=np.float32)
    index = {name: i for i, name in enumerate(SCALARS)}
    for name in ("pot", "to_call", "min_raise_to", "max_raise_to", "small_blind", "big_blind", "ante"):
        high[index[name]] = max_chips
    high[index["street"]] = 3
    high[index["button"]] = high[index["actor"]] = high[index["observer"]] = n - 1
    low[index["actor"]] = -1
    high[index["hand_number"]] = max(max_hands - 1, 0)
    high[index["level"]] = max_level
    high[NUM_SCALARS : NUM_SCALARS + 3 * n] = max_chips  # stacks, bets, contributed
    return spaces.Box(low, high, dtype=np.float32)


def _holdem_fields(state: Any, seat: int) -> tuple[list[float], list[float], list[float], list[bool], list[float], float]:
    """(stacks, bets, contributed, folded, [sb, bb, ante], to_call of ``seat``) of a hold'em state."""
    cfg = state.config
    to_call = 0.0 if state.folded[seat] else float(state.to_call(seat))
    return state.stacks, state.bets, state.contributed, state.folded, [cfg.small_blind, cfg.big_blind, cfg.ante], to_call


def _push_fold_fields(state: PushFoldState, seat: int) -> tuple[list[float], list[float], list[float], list[bool], list[float], float]:
    """The same fields of a push/fold state, in big blinds (seats in acting order, blinds the last two)."""
    cfg = state.config
    ante = float(cfg.ante_bb)
    contributed = state.contributions
    stacks = [s - c for s, c in zip(cfg.stacks, contributed)]
    bets = [c - ante for c in contributed]
    live = state.live()
    folded = [not x for x in live]
    to_call = 0.0 if folded[seat] else min(max(bets) - bets[seat], stacks[seat])
    return stacks, bets, contributed, folded, [SMALL_BLIND_BB, BIG_BLIND_BB, ante], float(to_call)


def encode_public(state: Any, seat: int, table: TablePosition | None = None) -> np.ndarray:
    """The public vector seen by rules seat ``seat`` of a hold'em or push/fold ``state``.

    ``table`` maps rules seats to environment seats and gives the session position (default: one hand,
    rules seat = environment seat). Seats of the environment not in the hand are zeros with ``seated`` 0.
    """
    if table is None:
        table = TablePosition.identity(state.num_players)
    n, seats = table.num_players, table.seats
    if isinstance(state, PushFoldState):
        stacks, bets, contributed, folded, blinds, to_call = _push_fold_fields(state, seat)
        m = state.num_players
        button = state.config.button
        street = 0
    else:
        stacks, bets, contributed, folded, blinds, to_call = _holdem_fields(state, seat)
        button, street = state.button, state.street
    actor = state.current_player()
    rr = None
    if actor >= 0:
        rr = state.legal_raise_range() if not isinstance(state, PushFoldState) else state.raise_range()
    low, high = (0, 0) if rr is None else rr
    all_in = [1.0 if s == 0 and not f else 0.0 for s, f in zip(stacks, folded)]
    values = [
        sum(contributed), to_call, low, high, 0.0 if rr is None else 1.0, street, seats[button],
        seats[actor] if actor >= 0 else -1, seats[seat], blinds[0], blinds[1], blinds[2],
        table.hand_number, table.level,
    ]
    if len(seats) == n and seats == _IDENTITY.get(n):  # every seat in play, in order: one list, one array
        values += stacks
        values += bets
        values += contributed
        values += folded
        values += all_in
        values += _ONES[n]
        return np.array(values, dtype=np.float32)
    out = np.zeros(public_size(n), dtype=np.float32)
    out[:NUM_SCALARS] = values
    block = out[NUM_SCALARS:].reshape(len(SEAT_FIELDS), n)
    idx = list(seats)
    for k, row in enumerate((stacks, bets, contributed, folded, all_in)):
        block[k, idx] = row
    block[5, idx] = 1.0
    return out


_IDENTITY = {n: tuple(range(n)) for n in range(1, 11)}
_ONES = {n: [1.0] * n for n in range(1, 11)}


def decode_public(vector: Sequence[float] | np.ndarray, num_players: int) -> PublicState:
    """The public vector of a ``num_players``-seat table as named fields (ValueError on a wrong length)."""
    v = np.asarray(vector, dtype=np.float64).ravel()
    if v.shape[0] != public_size(num_players):
        raise ValueError(
            f"a public vector for num_players={num_players} has {public_size(num_players)} entries, got {v.shape[0]}"
        )
    x = v.tolist()  # Python floats: converting them is several times cheaper than numpy scalars (agents decode per decision)
    values: dict[str, Any] = {}
    for i, name in enumerate(SCALARS):
        values[name] = bool(x[i]) if name in _BOOL_FIELDS else int(round(x[i])) if name in _INT_FIELDS else x[i]
    n = num_players
    for k, name in enumerate(SEAT_FIELDS):
        seat_values = x[NUM_SCALARS + k * n : NUM_SCALARS + (k + 1) * n]
        values[name] = tuple(map(bool, seat_values)) if name in _BOOL_FIELDS else tuple(seat_values)
    return PublicState(**values)
