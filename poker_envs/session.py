"""Sessions: many hands per episode with stacks carried over (cash games, tournaments), as pure logic.

The rules stay per hand (``poker_envs.games``); a session lives in the environment's configuration.
This module holds what a session adds, with no gymnasium or pettingzoo in it:

* ``SessionConfig`` checks the session arguments (errors name the argument);
* ``Session`` tracks the stacks of the environment's seats from hand to hand, the button, the blind
  level, eliminations and finishing places;
* ``icm`` (Malmuth-Harville) and ``place_payouts`` turn stacks or finishing places into prize shares.

Seats here are the environment's seats (``player_i`` is seat ``i``); a hand's rules seats are the seats
still in play in table order (``Session.seated``), so a table that shrinks is a smaller rules table.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict, TypeVar

import numpy as np

Level = tuple[float, float, float]  # (small blind, big blind, ante) in chips


def _positive_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


@dataclass(frozen=True, kw_only=True)
class SessionConfig:
    """How many hands an episode runs and what happens between them (see docs/holdem.md, "Sessions")."""

    hands_per_episode: int = 1  # most hands in an episode; 1 = the one-hand episodes of old
    rebuy: bool = False  # cash game: every seat starts every hand with its starting stack (wins banked)
    blind_levels: tuple[Level, ...] = ()  # tournament: (small blind, big blind, ante) per level; () = fixed blinds
    hands_per_level: int = 0  # hands played at each level (needed with blind_levels)
    payouts: tuple[float, ...] = ()  # prize share of 1st, 2nd, ... place; () = rewards are chips
    # An eliminated seat: "leave" terminates it at once (it steps None and leaves ``agents``); "stay" keeps it in
    # ``agents`` until the episode ends, never to act again, with zero rewards (what RL libraries that expect
    # a fixed set of agents per episode need; the AEC env only, not the batched engine).
    eliminated: str = "leave"

    def __post_init__(self) -> None:
        object.__setattr__(self, "hands_per_episode", _positive_int("hands_per_episode", self.hands_per_episode))
        if not isinstance(self.rebuy, bool):
            raise ValueError(f"rebuy must be True or False, got {self.rebuy!r}")
        levels = []
        for i, level in enumerate(self.blind_levels):
            if not isinstance(level, Sequence) or isinstance(level, str) or len(level) != 3:
                raise ValueError(f"blind_levels[{i}] must be (small_blind, big_blind, ante), got {level!r}")
            for name, x in zip(("small_blind", "big_blind", "ante"), level):
                if isinstance(x, bool) or not isinstance(x, int | np.integer) or x < 0:
                    raise ValueError(f"blind_levels[{i}] {name} must be a non-negative integer of chips, got {x!r}")
            sb, bb, ante = (int(x) for x in level)
            if bb < 1 or sb > bb:
                raise ValueError(f"blind_levels[{i}] must have 0 <= small_blind <= big_blind and big_blind >= 1, got {level!r}")
            if levels and (sb < levels[-1][0] or bb < levels[-1][1] or ante < levels[-1][2]):
                raise ValueError(f"blind_levels must never go down; level {i} {level!r} is below level {i - 1} {levels[-1]!r}")
            levels.append((sb, bb, ante))
        object.__setattr__(self, "blind_levels", tuple(levels))
        if levels:
            object.__setattr__(self, "hands_per_level", _positive_int("hands_per_level", self.hands_per_level))
        elif self.hands_per_level:
            raise ValueError(f"hands_per_level={self.hands_per_level!r} needs blind_levels")
        payouts = tuple(self.payouts)
        for i, p in enumerate(payouts):
            if isinstance(p, bool) or not isinstance(p, int | float | np.integer | np.floating) or not math.isfinite(p) or p < 0:
                raise ValueError(f"payouts[{i}] must be a non-negative number, got {p!r}")
        if any(b > a for a, b in itertools.pairwise(payouts)):
            raise ValueError(f"payouts must not increase with the place, got {payouts!r}")
        object.__setattr__(self, "payouts", tuple(float(p) for p in payouts))
        if self.eliminated not in ("leave", "stay"):
            raise ValueError(f"eliminated must be 'leave' or 'stay', got {self.eliminated!r}")
        if self.rebuy and (levels or payouts):
            raise ValueError("rebuy=True is a cash game: it cannot be combined with blind_levels or payouts")
        # Options that cannot take effect in one-hand episodes are refused, not ignored.
        if self.hands_per_episode == 1 and (self.rebuy or levels):
            name = "rebuy=True" if self.rebuy else "blind_levels"
            raise ValueError(f"{name} needs hands_per_episode > 1: every one-hand episode starts from the starting stacks "
                             f"and the first level")
        if self.eliminated != "leave" and not self.is_session:
            raise ValueError(f"eliminated={self.eliminated!r} needs a session (hands_per_episode > 1 or payouts): "
                             "nobody is eliminated in a one-hand episode")

    def check_seats(self, num_players: int) -> None:
        """ValueError if ``payouts`` pays more places than the table has seats."""
        if len(self.payouts) > num_players:
            raise ValueError(f"payouts lists {len(self.payouts)} places for a table of {num_players} players")

    @property
    def is_session(self) -> bool:
        """More than the one-hand episode of old (several hands, or prizes to pay)."""
        return self.hands_per_episode > 1 or bool(self.payouts)


def icm(stacks: Sequence[float], payouts: Sequence[float]) -> np.ndarray:
    """Expected prize of each stack by the Independent Chip Model (Malmuth-Harville).

    A stack finishes first with probability stack / total; given who finished in the places above, the
    next place goes in proportion to the stacks left. Exact (every finishing order up to the paid
    places), so meant for the handful of seats of a table. Zero stacks win nothing.
    """
    s = np.asarray(stacks, dtype=np.float64)
    if s.ndim != 1 or (s < 0).any() or s.sum() <= 0:
        raise ValueError(f"stacks must be non-negative with a positive total, got {list(stacks)}")
    pay = [float(p) for p in payouts][: len(s)]
    value = np.zeros(len(s))

    def walk(left: list[int], remaining: float, prob: float, place: int) -> None:
        if place == len(pay) or prob == 0.0:
            return
        for seat in left:
            if s[seat] == 0:
                continue
            p = prob * s[seat] / remaining
            value[seat] += p * pay[place]
            walk([x for x in left if x != seat], remaining - s[seat], p, place + 1)

    walk(list(range(len(s))), float(s.sum()), 1.0, 0)
    return value


def place_payouts(places: Sequence[Sequence[int]], payouts: Sequence[float], num_places: int) -> dict[int, float]:
    """Prize of each seat from finishing places: ``places[k]`` are the seats that finished tied for place
    ``k`` (0 = first), counting the places in order; tied seats share their places' prizes equally."""
    pay = list(payouts) + [0.0] * num_places
    out: dict[int, float] = {}
    place = 0
    for group in places:
        share = sum(pay[place : place + len(group)]) / len(group) if group else 0.0
        for seat in group:
            out[seat] = share
        place += len(group)
    return out


class Session:
    """The carried state of one episode: stacks by environment seat, button, hand count, eliminations."""

    def __init__(self, config: SessionConfig, starting_stacks: Sequence[float], need: float = 1.0) -> None:
        """``need``: the least stack that can play a hand; a seat left with less is eliminated (hold'em: one
        chip; push/fold: the big blind plus the ante, the rest of its stack leaves play)."""
        self.config = config
        self.starting_stacks = [float(x) for x in starting_stacks]
        self.num_players = len(self.starting_stacks)
        self.need = float(need)
        self.stacks = self.starting_stacks[:]
        self.results = [0.0] * self.num_players  # chips won (+) or lost (-) over the hands played so far
        self.hand_number = 0  # hands finished
        self.button = 0  # environment seat of the button of the next hand
        self.eliminated: list[list[int]] = []  # seats out, worst place first; a list holds seats tied for a place

    @property
    def seated(self) -> list[int]:
        """Environment seats still in play, in table order."""
        out = {s for group in self.eliminated for s in group}
        return [s for s in range(self.num_players) if s not in out]

    @property
    def level(self) -> int:
        """Index of the blind level of the next hand (the last level holds once the levels run out)."""
        cfg = self.config
        if not cfg.blind_levels:
            return 0
        return min(self.hand_number // cfg.hands_per_level, len(cfg.blind_levels) - 1)

    def blinds(self, default: Level) -> Level:
        """(small blind, big blind, ante) of the next hand; ``default`` without blind levels."""
        return self.config.blind_levels[self.level] if self.config.blind_levels else default

    def hand_stacks(self) -> list[float]:
        """Stacks the seated players start the next hand with (rules seat order)."""
        return [self.stacks[s] for s in self.seated]

    def end_hand(self, chips: Sequence[float], seats: Sequence[int]) -> list[int]:
        """Apply one hand's results (``chips`` of environment seats ``seats``, every seat in play once) and move
        the button; returns the seats eliminated."""
        seated = self.seated
        if sorted(seats) != seated or len(chips) != len(seats):
            raise ValueError(f"a hand's results must cover the seats in play {seated} once each, got {list(seats)}")
        before = {s: self.stacks[s] for s in seated}
        for s, c in zip(seats, chips):
            self.results[s] += float(c)
            self.stacks[s] = self.starting_stacks[s] if self.config.rebuy else self.stacks[s] + float(c)
        self.hand_number += 1
        out = [s for s in seated if self.stacks[s] < self.need - 1e-9]
        if out and len(out) == len(seated):  # nobody could go on: the biggest stacks before the hand stay
            keep = max(before[s] for s in out)
            out = [s for s in out if before[s] < keep]
        # Seats out in the same hand: the one that started it with more chips finishes higher; equal stacks tie.
        for stack in sorted({before[s] for s in out}):
            self.eliminated.append([s for s in out if before[s] == stack])
        left = self.seated
        if left:
            b = self.button
            self.button = next((s for s in [*range(b + 1, self.num_players), *range(b + 1)] if s in left), left[0])
        return out

    def is_over(self) -> bool:
        """N hands played, or one seat left holding the chips."""
        return self.hand_number >= self.config.hands_per_episode or len(self.seated) <= 1

    def payouts_of_eliminated(self, out: Sequence[int]) -> dict[int, float]:
        """Prize of eliminated seats ``out``: the places below every seat still in, ties shared."""
        places = [[s] for s in self.seated] + self.eliminated[::-1]
        return {s: v for s, v in place_payouts(places, self.config.payouts, self.num_players).items() if s in out}

    def final_payouts(self) -> dict[int, float]:
        """Prize of the seats still in at the end: first place to a lone survivor, else ICM on their stacks
        over the places they are playing for."""
        seated = self.seated
        pay = self.config.payouts[: len(seated)]
        if len(seated) == 1:
            return {seated[0]: pay[0] if pay else 0.0}
        values = icm([self.stacks[s] for s in seated], pay) if pay else np.zeros(len(seated))
        return dict(zip(seated, (float(v) for v in values)))


def acting_order(seated: Sequence[int], button: int) -> list[int]:
    """Seats of a push/fold hand in its rules order (first to act first, the blinds last) for ``button``:
    heads-up the button (small blind) then the big blind; else from the seat left of the big blind round to it."""
    m = len(seated)
    b = list(seated).index(button)
    if m == 2:
        return [seated[b], seated[(b + 1) % 2]]
    return [seated[(b + 3 + k) % m] for k in range(m)]


class SeatedHoldemView:
    """A hold'em hand of the seats still in play, seen as a table of all ``num_players`` environment seats.

    After eliminations the rules table is smaller than the environment's; encoders built for the full table
    read this view: rules seat ``i`` is environment seat ``seats[i]``, and an eliminated seat is a folded seat
    with no chips and no cards; who acts first on a street is the smaller table's answer.
    """

    def __init__(self, state: object, seats: Sequence[int], num_players: int) -> None:
        self._state = state
        self._seats = tuple(seats)
        self._rules = {e: i for i, e in enumerate(self._seats)}
        self.num_players = num_players
        self.config = state.config  # type: ignore[attr-defined]
        self.board = state.board  # type: ignore[attr-defined]
        self.street = state.street  # type: ignore[attr-defined]
        self.button = self._seats[state.button]  # type: ignore[attr-defined]
        self.num_active_at_street_start = state.num_active_at_street_start  # type: ignore[attr-defined]
        self.hole = self._spread(state.hole, [])  # type: ignore[attr-defined]
        self.stacks = self._spread(state.stacks, 0)  # type: ignore[attr-defined]
        self.bets = self._spread(state.bets, 0)  # type: ignore[attr-defined]
        self.contributed = self._spread(state.contributed, 0)  # type: ignore[attr-defined]
        self.starting_stacks = self._spread(state.starting_stacks, 0)  # type: ignore[attr-defined]
        self.folded = self._spread(state.folded, True)  # type: ignore[attr-defined]

    def _spread(self, values: Sequence, fill: object) -> list:
        out = [fill] * self.num_players
        for e, v in zip(self._seats, values):
            out[e] = v
        return out

    @property
    def history(self) -> list[list]:
        seats = self._seats
        return [[r._replace(player=seats[r.player]) for r in street] for street in self._state.history]  # type: ignore[attr-defined]

    def first_to_act(self, street: int) -> int:
        """The seat first to act on ``street`` at the table in play (``poker_envs.encoders.first_to_act``)."""
        from poker_envs.encoders import first_to_act  # the encoders need gymnasium; session logic does not

        return self._seats[first_to_act(self._state, street)]

    def current_player(self) -> int:
        p = self._state.current_player()  # type: ignore[attr-defined]
        return self._seats[p] if p >= 0 else p

    def to_call(self, seat: int) -> int:
        rules = self._rules.get(seat)
        return 0 if rules is None else self._state.to_call(rules)  # type: ignore[attr-defined]

    def max_bet(self) -> int:
        return self._state.max_bet()  # type: ignore[attr-defined]

    def legal_raise_range(self) -> tuple[int, int] | None:
        return self._state.legal_raise_range()  # type: ignore[attr-defined]

    def legal_actions(self) -> list[int]:
        return self._state.legal_actions()  # type: ignore[attr-defined]

    def action_to_chips(self, action: int) -> tuple[int, int]:
        return self._state.action_to_chips(action)  # type: ignore[attr-defined]


def session_config(
    hands_per_episode: int = 1,
    rebuy: bool = False,
    blind_levels: Sequence[Sequence[int]] | None = None,
    hands_per_level: int | None = None,
    payouts: Sequence[float] | None = None,
    eliminated: str = "leave",
) -> SessionConfig:
    """The environments' session arguments as a ``SessionConfig`` (None: not used)."""
    if blind_levels is not None and (isinstance(blind_levels, str) or not isinstance(blind_levels, Sequence)):
        raise ValueError(f"blind_levels must be a list of (small_blind, big_blind, ante), got {blind_levels!r}")
    if payouts is not None and (isinstance(payouts, str) or not isinstance(payouts, Sequence)):
        raise ValueError(f"payouts must be a list of prize shares by place, got {payouts!r}")
    return SessionConfig(
        hands_per_episode=hands_per_episode,
        rebuy=rebuy,
        blind_levels=tuple(tuple(level) if isinstance(level, Sequence) and not isinstance(level, str) else level
                           for level in blind_levels or ()),
        hands_per_level=hands_per_level or 0,
        payouts=tuple(payouts or ()),
        eliminated=eliminated,
    )


class SessionArguments(TypedDict, total=False):
    """The session keywords of ``session_config`` (names and types; the defaults are ``session_config``'s), for a
    signature that takes them as ``**session: Unpack[SessionArguments]`` (type checkers and IDEs list them)."""

    hands_per_episode: int
    rebuy: bool
    blind_levels: Sequence[Sequence[int]] | None
    hands_per_level: int | None
    payouts: Sequence[float] | None
    eliminated: str


AEC_SESSION_ARGS = tuple(inspect.signature(session_config).parameters)  # the AEC envs' session arguments
SESSION_ARGS = tuple(name for name in AEC_SESSION_ARGS if name != "eliminated")  # the batched engine's

Init = TypeVar("Init", bound=Callable[..., None])


def with_session_arguments(init: Init) -> Init:
    """An ``__init__`` ending in ``**session`` that takes the session arguments as keywords, listed in its signature.

    The signature (what ``inspect.signature``, ``help()`` and the tournament's ``--env-config`` check read) is
    ``init``'s with ``**session`` replaced by ``session_config``'s keywords and defaults, and calls are bound to it
    first: an unknown or repeated argument is a TypeError, as with a signature written out. The variants of an
    environment family thus declare their own arguments and share this one list of session arguments.
    """
    own = inspect.signature(init)
    if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in own.parameters.values()):
        raise TypeError(f"with_session_arguments: {init.__qualname__} must end in **session")
    keywords = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in inspect.signature(session_config).parameters.values()]
    signature = own.replace(parameters=[*(p for p in own.parameters.values() if p.kind is not p.VAR_KEYWORD), *keywords])

    @functools.wraps(init)
    def bound(*args: Any, **kwargs: Any) -> None:
        try:
            signature.bind(*args, **kwargs)
        except TypeError as error:  # an argument the signature does not have, or one given twice
            raise TypeError(f"{init.__module__}.{init.__qualname__}() {error}") from None
        init(*args, **kwargs)

    bound.__signature__ = signature  # type: ignore[attr-defined]
    return bound  # type: ignore[return-value]


def session_from(arguments: dict[str, Any], where: str, accepted: tuple[str, ...] = SESSION_ARGS) -> SessionConfig:
    """``session_config`` of the session arguments in ``arguments``; any name not in ``accepted`` is refused,
    naming ``where`` (the environment or factory) and the session arguments it accepts."""
    unknown = sorted(set(arguments) - set(accepted))
    if unknown:
        raise ValueError(f"{where} got unknown argument(s) {unknown}; besides its own it takes the session "
                         f"arguments {list(accepted)}")
    return session_config(**arguments)
