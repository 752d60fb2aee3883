"""What a picture of a table shows, as plain data: the bridge between a game's state and the drawing.

Each game has a view function ``(state, names) -> TableView`` (``holdem_view``, ``small_views``) that reads
the rules' public fields and words them; ``draw`` turns any ``TableView`` into pixels without knowing the
game. Nothing here imports Pillow.

The picture is a spectator's view: every dealt card is face up, folded hands are drawn dimmed (an agent's
observation never comes from it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from poker_envs.core.cards import RANKS, SUITS
from poker_envs.games.base import CHANCE, TERMINAL

PIP_SUITS = tuple(SUITS)  # "c", "d", "h", "s": suits drawn as pips; any other suit text is printed as letters


@dataclass(frozen=True)
class CardView:
    """One face-up card: ``rank`` as printed ("A", "10", "57"), ``suit`` one of "c", "d", "h", "s" (a pip),
    other text (printed small, Leduc's "a"/"b") or "" (no suit: Kuhn, the threshold game)."""

    rank: str
    suit: str = ""


@dataclass(frozen=True)
class SeatView:
    """One seat: ``stack`` and ``bet`` are printed amounts ("" draws nothing); ``note`` is the short line under
    the cards (last action, "all-in", the hand shown); ``result`` the signed result once the hand is over."""

    name: str
    cards: tuple[CardView, ...] = ()
    stack: str = ""
    bet: str = ""
    note: str = ""
    result: str = ""
    folded: bool = False
    to_act: bool = False
    button: bool = False
    won: bool = False


@dataclass(frozen=True)
class TableView:
    """A whole table. ``board_size`` and ``hole_size`` are the rules' numbers of board cards once all are
    dealt and of hole cards per seat: the layout keeps a place for each, so frames of one game share it."""

    title: str
    status: str
    seats: tuple[SeatView, ...]
    board: tuple[CardView, ...] = ()
    board_size: int = 0
    hole_size: int = 1
    pot: str = ""
    last_action: str = ""
    result: str = ""

    def __post_init__(self) -> None:
        if len(self.board) > self.board_size:
            raise ValueError(f"board: {len(self.board)} cards shown but the board holds {self.board_size}")
        for seat in self.seats:
            if len(seat.cards) > self.hole_size:
                raise ValueError(f"seat {seat.name}: {len(seat.cards)} cards shown but a seat holds {self.hole_size}")


ViewFn = Callable[[Any, Sequence[str]], TableView]  # (a game's state, agent name of each rules seat) -> view


def card_view(card: int) -> CardView:
    """A ``core.cards`` id as a face ("T" printed "10")."""
    rank = RANKS[card >> 2]
    return CardView("10" if rank == "T" else rank, SUITS[card & 3])


def amount(x: float) -> str:
    """An amount as printed: whole numbers without decimals, others with up to two ("9.5")."""
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:,.2f}".rstrip("0")


def signed(x: float) -> str:
    """A result as printed: "+12", "-6", "0"."""
    return "0" if x == 0 else ("+" if x > 0 else "-") + amount(abs(x))


def status_line(stage: str, player: int, names: Sequence[str]) -> str:
    """The header's right side: "Flop · player_2 to act", "Dealing", "Hand over" (``stage`` may be "")."""
    if player == TERMINAL:
        return "Hand over"
    if player == CHANCE:
        return "Dealing"
    return f"{stage + ' · ' if stage else ''}{names[player]} to act"


def seated(view: TableView, places: Sequence[int], everyone: Sequence[str]) -> TableView:
    """``view`` of the seats in a hand, drawn at a table of ``len(everyone)`` seats: its seat ``k`` at place
    ``places[k]``, the places nobody holds in this hand showing their agent as out (a session's eliminated seats),
    so every agent keeps its place from hand to hand."""
    if len(places) != len(view.seats) or len(set(places)) != len(places) or not all(0 <= p < len(everyone) for p in places):
        raise ValueError(f"places must give a distinct place in 0..{len(everyone) - 1} to each of the {len(view.seats)} "
                         f"seats, got {list(places)}")
    if list(places) == list(range(len(everyone))):
        return view
    table = [SeatView(name, note="out", folded=True) for name in everyone]
    for place, seat in zip(places, view.seats):
        table[place] = seat
    return replace(view, seats=tuple(table))
