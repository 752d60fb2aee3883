"""Where everything of a table picture goes: pure geometry, no Pillow.

``table_layout`` places the seats clockwise round an oval table (seat 0 at the bottom), each with a panel
(name and stack, hole cards, a note and the result), a spot for its bet and one for the dealer button, the
board's places in the middle and the pot above them. It depends only on the numbers of seats, hole cards and
board cards, so every frame of one game has the same layout and size. ``drawn_layout`` says which of those
rectangles a given view fills: the drawing draws exactly these, and tests read them back from the pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from poker_envs.render.table import TableView

Rect = tuple[int, int, int, int]  # left, top, right, bottom (right and bottom excluded)
Point = tuple[int, int]

WIDTH, HEIGHT = 768, 512  # every frame; multiples of 16, as video encoders like them
BAR = 30  # height of the title bar (top) and the action bar (bottom)
PANEL_W, PANEL_H = 150, 88  # a seat's panel
ROW = 20  # a text row of the panel (name and stack at the top, note and result at the bottom)
HOLE_W, HOLE_H = 32, 44  # a hole card
HOLE_GAP = 3
BOARD_W, BOARD_H = 46, 64  # a board card
BOARD_GAP = 6
BOARD_MAX_WIDTH = 300  # more board cards than fit shrink to this width
BET_OUT = 24  # a bet's chip sits this many pixels beyond its panel, towards the table's centre
BUTTON_SIDE = 34  # the dealer button sits this many pixels beside the bet's chip
MAX_SEATS = 10


@dataclass(frozen=True)
class SeatSpots:
    """One seat's places: its panel, its hole cards' places (left to right), its bet's and the button's centres;
    ``label_above``: the bet's amount is written above its chip (seats in the lower half), else below."""

    panel: Rect
    cards: tuple[Rect, ...]
    bet: Point
    button: Point
    label_above: bool = False


@dataclass(frozen=True)
class TableLayout:
    """Every place of a table of ``len(seats)`` seats."""

    width: int
    height: int
    header: Rect
    footer: Rect
    felt: Rect  # the box of the table's oval
    seats: tuple[SeatSpots, ...]
    board: tuple[Rect, ...]  # one place per board card of a complete board
    pot: Point  # centre of the pot's line


@dataclass(frozen=True)
class DrawnLayout:
    """The rectangles a view fills: ``board`` one per card dealt, ``hole[s]`` one per card seat ``s`` shows,
    ``bets[s]`` the chip's box of seat ``s`` (None without a bet)."""

    layout: TableLayout
    board: tuple[Rect, ...]
    hole: tuple[tuple[Rect, ...], ...]
    bets: tuple[Rect | None, ...]
    panels: tuple[Rect, ...]


CHIP_R = 9  # a bet's chip radius


def _hole_places(panel: Rect, count: int) -> tuple[Rect, ...]:
    """``count`` hole cards centred in the panel's middle row, overlapping when they do not fit side by side."""
    left, top, right, _ = panel
    inner = right - left - 12
    step = HOLE_W + HOLE_GAP if count < 2 else min(HOLE_W + HOLE_GAP, (inner - HOLE_W) / (count - 1))
    width = HOLE_W + step * (count - 1)
    x0 = left + (right - left - width) / 2
    y0 = top + ROW + (PANEL_H - 2 * ROW - HOLE_H) // 2
    return tuple((round(x0 + k * step), y0, round(x0 + k * step) + HOLE_W, y0 + HOLE_H) for k in range(count))


@lru_cache(maxsize=64)
def table_layout(num_seats: int, hole_size: int, board_size: int) -> TableLayout:
    """The places of a table with ``num_seats`` seats (2..10), ``hole_size`` hole cards each and a board of
    ``board_size`` cards."""
    if not 1 <= num_seats <= MAX_SEATS:
        raise ValueError(f"num_seats must be in 1..{MAX_SEATS}, got {num_seats}")
    if hole_size < 0 or board_size < 0:
        raise ValueError(f"hole_size and board_size must be >= 0, got {hole_size} and {board_size}")
    cx, cy = WIDTH // 2, BAR + (HEIGHT - 2 * BAR) // 2
    rx, ry = cx - PANEL_W // 2 - 6, (HEIGHT - 2 * BAR) // 2 - PANEL_H // 2 - 4
    seats = []
    for i in range(num_seats):
        angle = math.pi / 2 + 2 * math.pi * i / num_seats  # clockwise on screen (y grows downwards)
        x, y = cx + rx * math.cos(angle), cy + ry * math.sin(angle)
        left, top = round(x - PANEL_W / 2), round(y - PANEL_H / 2)
        panel = (left, top, left + PANEL_W, top + PANEL_H)
        # Towards the centre: where that line leaves the panel, then the bet a little further on, and the button
        # beside it on the side of the table's middle (the bet's amount is written above or below its chip).
        ux, uy = cx - x, cy - y
        norm = math.hypot(ux, uy)
        ux, uy = ux / norm, uy / norm
        out = min(PANEL_W / 2 / abs(ux) if ux else math.inf, PANEL_H / 2 / abs(uy) if uy else math.inf)
        bx, by = x + ux * (out + BET_OUT), y + uy * (out + BET_OUT)
        bet = (round(bx), round(by))
        button = (round(bx + (BUTTON_SIDE if bx <= cx else -BUTTON_SIDE)), round(by))
        seats.append(SeatSpots(panel, _hole_places(panel, hole_size), bet, button, label_above=y > cy + 1))
    width = min(BOARD_W, (BOARD_MAX_WIDTH - BOARD_GAP * (board_size - 1)) // max(board_size, 1))
    height = round(width * BOARD_H / BOARD_W)
    span = board_size * width + BOARD_GAP * (board_size - 1)
    x0, y0 = cx - span // 2, cy - height // 2 + 8
    board = tuple((x0 + k * (width + BOARD_GAP), y0, x0 + k * (width + BOARD_GAP) + width, y0 + height)
                  for k in range(board_size))
    pot = (cx, y0 - 16) if board_size else (cx, cy)
    felt = (cx - round(rx * 0.84), cy - round(ry * 0.80), cx + round(rx * 0.84), cy + round(ry * 0.80))
    return TableLayout(WIDTH, HEIGHT, (0, 0, WIDTH, BAR), (0, HEIGHT - BAR, WIDTH, HEIGHT), felt, tuple(seats), board, pot)


def drawn_layout(view: TableView) -> DrawnLayout:
    """The rectangles ``view`` fills in its frame (see ``DrawnLayout``)."""
    layout = table_layout(len(view.seats), view.hole_size, view.board_size)
    bets = tuple(
        None if not seat.bet else (spot.bet[0] - CHIP_R, spot.bet[1] - CHIP_R, spot.bet[0] + CHIP_R + 1, spot.bet[1] + CHIP_R + 1)
        for seat, spot in zip(view.seats, layout.seats)
    )
    return DrawnLayout(
        layout=layout,
        board=layout.board[: len(view.board)],
        hole=tuple(spot.cards[: len(seat.cards)] for seat, spot in zip(view.seats, layout.seats)),
        bets=bets,
        panels=tuple(spot.panel for spot in layout.seats),
    )
