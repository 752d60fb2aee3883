"""A ``TableView`` drawn into an RGB frame (``render_mode="rgb_array"``).

Pillow (the optional ``render`` extra, ``pip install "poker-envs[render]"``) draws the pieces: the empty table,
card faces, seat panels, chips and every letter of Pillow's built-in font (``ImageFont.load_default``), so
nothing is downloaded; suits are drawn as shapes, as that font has none. Each piece is drawn once and cached as
arrays; a frame is a copy of the empty table with the pieces laid on it in numpy (text is set letter by letter
from cached glyphs), which keeps a frame to about a millisecond. Pillow is imported when the first frame is
drawn, so the text modes never need it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from poker_envs.render.layout import CHIP_R, PANEL_H, PANEL_W, ROW, DrawnLayout, TableLayout, drawn_layout
from poker_envs.render.table import PIP_SUITS, CardView, SeatView, TableView

PILLOW_HINT = 'render_mode="rgb_array" draws with Pillow, which is not installed: pip install "poker-envs[render]"'

RGB = tuple[int, int, int]
BACKGROUND: RGB = (24, 28, 33)
BAR_COLOUR: RGB = (36, 41, 49)
FELT: RGB = (31, 99, 62)
FELT_LINE: RGB = (52, 128, 84)  # the board's empty places
RAIL: RGB = (88, 58, 36)
PANEL: RGB = (44, 49, 58)
FOLDED_PANEL: RGB = (36, 40, 47)
PANEL_EDGE: RGB = (74, 80, 92)
TO_ACT: RGB = (242, 201, 76)
WINNER: RGB = (88, 204, 128)
TEXT: RGB = (236, 239, 243)
MUTED: RGB = (140, 148, 160)
GAIN: RGB = (110, 222, 140)
LOSS: RGB = (242, 116, 104)
CARD: RGB = (250, 250, 247)
CARD_EDGE: RGB = (176, 176, 176)
CHIP: RGB = (208, 56, 56)
SUIT_COLOURS: dict[str, RGB] = {"s": (24, 24, 24), "h": (206, 38, 44), "d": (28, 98, 200), "c": (28, 128, 58)}
LETTER_SUIT_COLOURS: dict[str, RGB] = {"a": (24, 24, 24), "b": (206, 38, 44)}  # Leduc's two suits
DIM = 0.55  # a folded hand is blended this much towards its panel
PAD = 2  # blank columns each side of a cached glyph (some letters reach left of their origin)


def pillow() -> Any:
    """``PIL`` with ``Image``, ``ImageDraw`` and ``ImageFont`` loaded; an ImportError naming the extra if absent."""
    try:
        import PIL
        from PIL import Image, ImageDraw, ImageFont  # noqa: F401
    except ImportError as exc:
        raise ImportError(PILLOW_HINT) from exc
    return PIL


# Pieces: drawn once, cached as arrays ---------------------------------------------------------------------
def _put(frame: np.ndarray, patch: np.ndarray, x: int, y: int) -> None:
    """Copy the opaque ``patch`` with its top-left corner at (x, y), clipped to the frame."""
    h, w = patch.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, frame.shape[1]), min(y + h, frame.shape[0])
    if x0 < x1 and y0 < y1:
        frame[y0:y1, x0:x1] = patch[y0 - y : y1 - y, x0 - x : x1 - x]


def _blend_in(frame: np.ndarray, rgba: np.ndarray, x: int, y: int) -> None:
    """Blend the small RGBA float32 piece ``rgba`` (alpha in [0, 1]) in at (x, y), clipped to the frame."""
    h, w = rgba.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, frame.shape[1]), min(y + h, frame.shape[0])
    if x0 < x1 and y0 < y1:
        region = frame[y0:y1, x0:x1]
        piece = rgba[y0 - y : y1 - y, x0 - x : x1 - x]
        a = piece[..., 3:]
        region[:] = region * (1 - a) + piece[..., :3] * a + 0.5


@lru_cache(maxsize=16)
def _font(size: int) -> Any:
    return pillow().ImageFont.load_default(size)


@lru_cache(maxsize=2048)
def _glyph(char: str, size: int) -> tuple[np.ndarray, int]:
    """One letter's coverage (height ascent + descent, width its advance + 2 * PAD) as float32, and its advance."""
    PIL = pillow()
    font = _font(size)
    ascent, descent = font.getmetrics()
    advance = round(font.getlength(char))
    mask = PIL.Image.new("L", (advance + 2 * PAD, ascent + descent))
    PIL.ImageDraw.Draw(mask).text((PAD, 0), char, font=font, fill=255)
    return np.asarray(mask, dtype=np.float32) / 255, advance


def _width(text: str, size: int) -> int:
    return sum(_glyph(c, size)[1] for c in text)


@lru_cache(maxsize=8192)
def _label(text: str, size: int, colour: RGB, backdrop: RGB) -> np.ndarray:
    """``text`` set from cached glyphs in ``colour`` on ``backdrop``: an opaque (h, w + 2 * PAD, 3) uint8 patch
    whose column PAD is the text's origin (the backdrop is the colour the text sits on, so it is copied, not blended)."""
    height = sum(_font(size).getmetrics())
    mask = np.zeros((height, _width(text, size) + 2 * PAD), dtype=np.float32)
    x = 0
    for char in text:
        glyph, advance = _glyph(char, size)
        window = mask[:, x : x + glyph.shape[1]]
        np.maximum(window, glyph, out=window)
        x += advance
    back = np.asarray(backdrop, dtype=np.float32)
    return (back + (np.asarray(colour, dtype=np.float32) - back) * mask[..., None] + 0.5).astype(np.uint8)


def _fitted(text: str, size: int, width: int) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels."""
    if _width(text, size) <= width:
        return text
    while text and _width(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


def _text(frame: np.ndarray, text: str, x: int, y: int, size: int, colour: RGB, backdrop: RGB, align: str = "left",
          width: int = 0) -> None:
    """Write ``text`` on ``backdrop`` with its top at ``y``; ``align`` "left", "centre" or "right" of ``x``; cut
    to ``width`` pixels."""
    if not text:
        return
    if width:
        text = _fitted(text, size, width)
    patch = _label(text, size, colour, backdrop)
    w = patch.shape[1] - 2 * PAD
    _put(frame, patch, x - PAD - (w // 2 if align == "centre" else w if align == "right" else 0), y)


def _middle(top: int, height: int, size: int) -> int:
    """The top of a row of text of ``size`` centred in a band ``height`` high."""
    ascent, descent = _font(size).getmetrics()
    return top + (height - ascent - descent) // 2 + 1


@lru_cache(maxsize=64)
def _pip(suit: str, size: int) -> Any:
    """A suit's shape as an "L" mask ``size`` pixels square, drawn four times larger and scaled down (smooth)."""
    PIL = pillow()
    big = 4 * size
    u = big / 4
    mask = PIL.Image.new("L", (big, big))
    d = PIL.ImageDraw.Draw(mask)

    def circle(x: float, y: float, r: float) -> None:
        d.ellipse((x - r, y - r, x + r, y + r), fill=255)

    if suit == "d":
        d.polygon([(2 * u, 0), (3.45 * u, 2 * u), (2 * u, 4 * u), (0.55 * u, 2 * u)], fill=255)
    elif suit == "h":
        circle(1.05 * u, 1.2 * u, 1.05 * u)
        circle(2.95 * u, 1.2 * u, 1.05 * u)
        d.polygon([(0.08 * u, 1.6 * u), (3.92 * u, 1.6 * u), (2 * u, 3.95 * u)], fill=255)
    elif suit == "s":
        circle(1.1 * u, 2.35 * u, 0.98 * u)
        circle(2.9 * u, 2.35 * u, 0.98 * u)
        d.polygon([(0.16 * u, 2.0 * u), (3.84 * u, 2.0 * u), (2 * u, 0.02 * u)], fill=255)
        d.polygon([(2 * u, 2.3 * u), (2.65 * u, 4 * u), (1.35 * u, 4 * u)], fill=255)
    elif suit == "c":
        circle(2 * u, 1.05 * u, 0.95 * u)
        circle(1.0 * u, 2.45 * u, 0.95 * u)
        circle(3.0 * u, 2.45 * u, 0.95 * u)
        d.polygon([(2 * u, 1.8 * u), (2.6 * u, 4 * u), (1.4 * u, 4 * u)], fill=255)
    else:
        raise ValueError(f"suit must be one of {PIP_SUITS} to draw a pip, got {suit!r}")
    return mask.resize((size, size), PIL.Image.Resampling.LANCZOS)


def _pil_text(img: Any, text: str, xy: tuple[int, int], size: int, colour: RGB, centre: bool = False) -> None:
    """Text drawn by Pillow into a piece being made (top at ``xy[1]``; centred on ``xy[0]`` if ``centre``)."""
    font = _font(size)
    x = xy[0] - round(font.getlength(text)) // 2 if centre else xy[0]
    pillow().ImageDraw.Draw(img).text((x, xy[1]), text, font=font, fill=(*colour, 255))


@lru_cache(maxsize=512)
def _card(card: CardView, width: int, height: int, dimmed: bool) -> Any:
    """A face-up card (RGBA, corners transparent): rank and suit in the top-left corner (what stays visible when
    cards overlap), a larger pip in the bottom-right on cards wide enough; a card without a pip suit shows its
    rank large and centred."""
    PIL = pillow()
    img = PIL.Image.new("RGBA", (width, height), (0, 0, 0, 0))
    PIL.ImageDraw.Draw(img).rounded_rectangle((0, 0, width - 1, height - 1), radius=max(3, width // 9), fill=CARD,
                                              outline=CARD_EDGE)
    colour = SUIT_COLOURS.get(card.suit, LETTER_SUIT_COLOURS.get(card.suit, SUIT_COLOURS["s"]))
    rank_size = max(11, round(height * 0.33))
    if card.suit in PIP_SUITS:
        _pil_text(img, card.rank, (3, 1), rank_size, colour)
        pip, top = max(8, round(width * 0.3)), 2 + rank_size
        img.paste((*colour, 255), (3, top, 3 + pip, top + pip), _pip(card.suit, pip))
        if width >= 30:
            big = round(width * 0.42)
            img.paste((*colour, 255), (width - big - 4, height - big - 4, width - 4, height - 4), _pip(card.suit, big))
    else:  # no suit (Kuhn, the threshold game) or a lettered one (Leduc)
        size = max(11, round(height * (0.42 if len(card.rank) < 3 else 0.32)))
        _pil_text(img, card.rank, (width // 2, _middle(0, height, size)), size, colour, centre=True)
        if card.suit:
            _pil_text(img, card.suit, (3, 1), max(10, rank_size - 3), colour)
    if dimmed:
        alpha = img.getchannel("A")
        img = PIL.Image.blend(img, PIL.Image.new("RGBA", img.size, (*FOLDED_PANEL, 255)), DIM)
        img.putalpha(alpha)
    return img


@lru_cache(maxsize=512)
def _cards(cards: tuple[CardView, ...], places: tuple[tuple[int, int, int, int], ...], dimmed: bool,
           backdrop: RGB) -> np.ndarray:
    """A row of cards at ``places`` (relative to the first's top-left corner, later ones on top) on ``backdrop``:
    one opaque patch."""
    PIL = pillow()
    right, bottom = max(p[2] for p in places), max(p[3] for p in places)
    img = PIL.Image.new("RGBA", (right, bottom), (*backdrop, 255))
    for card, (x0, y0, x1, y1) in zip(cards, places):
        img.alpha_composite(_card(card, x1 - x0, y1 - y0, dimmed), (x0, y0))
    return np.asarray(img.convert("RGB"))


def _lay_cards(frame: np.ndarray, cards: tuple[CardView, ...], places: tuple[tuple[int, int, int, int], ...],
               dimmed: bool, backdrop: RGB) -> None:
    if cards:
        x, y = places[0][:2]
        relative = tuple((x0 - x, y0 - y, x1 - x, y1 - y) for x0, y0, x1, y1 in places)
        _put(frame, _cards(cards, relative, dimmed, backdrop), x, y)


@lru_cache(maxsize=4)
def _disc(fill: RGB, edge: RGB, diameter: int, letter: str = "") -> np.ndarray:
    """A chip or the dealer button: a smooth disc (drawn four times larger and scaled down), RGBA float32."""
    PIL = pillow()
    big = PIL.Image.new("RGBA", (4 * diameter, 4 * diameter), (0, 0, 0, 0))
    d = PIL.ImageDraw.Draw(big)
    d.ellipse((0, 0, 4 * diameter - 1, 4 * diameter - 1), fill=(*fill, 255), outline=(*edge, 255), width=6)
    if not letter:
        d.ellipse((12, 12, 4 * diameter - 13, 4 * diameter - 13), outline=(*edge, 255), width=3)
    img = big.resize((diameter, diameter), PIL.Image.Resampling.LANCZOS)
    if letter:
        _pil_text(img, letter, (diameter // 2, _middle(0, diameter, 12)), 12, (30, 30, 30), centre=True)
    rgba = np.asarray(img, dtype=np.float32)
    rgba[..., 3] /= 255
    return rgba


@lru_cache(maxsize=256)
def _panel(layout: TableLayout, seat: int, edge: RGB, fill: RGB, width: int) -> np.ndarray:
    """Seat ``seat``'s empty panel with what lies round its rounded corners: an opaque patch."""
    PIL = pillow()
    left, top, right, bottom = layout.seats[seat].panel
    img = PIL.Image.fromarray(_background(layout)[top:bottom, left:right]).convert("RGBA")
    shape = PIL.Image.new("RGBA", img.size, (0, 0, 0, 0))
    PIL.ImageDraw.Draw(shape).rounded_rectangle((0, 0, PANEL_W - 1, PANEL_H - 1), radius=9, fill=fill, outline=edge,
                                                width=width)
    img.alpha_composite(shape)
    return np.asarray(img.convert("RGB"))


@lru_cache(maxsize=64)
def _background(layout: TableLayout) -> np.ndarray:
    """The empty table: bars, rail and felt, the board's empty places."""
    PIL = pillow()
    img = PIL.Image.new("RGB", (layout.width, layout.height), BACKGROUND)
    d = PIL.ImageDraw.Draw(img)
    for left, top, right, bottom in (layout.header, layout.footer):
        d.rectangle((left, top, right - 1, bottom - 1), fill=BAR_COLOUR)
    left, top, right, bottom = layout.felt
    d.ellipse((left - 10, top - 10, right + 10, bottom + 10), fill=RAIL)
    d.ellipse(layout.felt, fill=FELT)
    for x0, y0, x1, y1 in layout.board:
        d.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=5, outline=FELT_LINE, width=2)
    frame = np.asarray(img)
    frame.flags.writeable = False
    return frame


# The frame ----------------------------------------------------------------------------------------------------
def _seat(frame: np.ndarray, seat: SeatView, drawn: DrawnLayout, s: int) -> None:
    spot = drawn.layout.seats[s]
    left, top, right, bottom = spot.panel
    fill = FOLDED_PANEL if seat.folded else PANEL
    edge, width = (TO_ACT, 3) if seat.to_act else (WINNER, 3) if seat.won else (PANEL_EDGE, 1)
    _put(frame, _panel(drawn.layout, s, edge, fill, width), left, top)
    colour = MUTED if seat.folded else TEXT
    stack = _fitted(seat.stack, 14, 70)
    stack_width = _width(stack, 14) + 6 if stack else 0
    row = _middle(top + 1, ROW, 14)
    _text(frame, seat.name, left + 8, row, 14, colour, fill, width=PANEL_W - 16 - stack_width)
    _text(frame, stack, right - 8, row, 14, colour, fill, "right")
    _lay_cards(frame, seat.cards, drawn.hole[s], seat.folded, fill)
    result = _fitted(seat.result, 13, 60)
    result_width = _width(result, 13) + 6 if result else 0
    row = bottom - ROW - 1
    _text(frame, seat.note, left + 8, _middle(row, ROW, 12), 12, colour, fill, width=PANEL_W - 16 - result_width)
    if result:
        tone = GAIN if result.startswith("+") else LOSS if result.startswith("-") else MUTED
        _text(frame, result, right - 8, _middle(row, ROW, 13), 13, tone, fill, "right")
    chip = drawn.bets[s]
    if chip is not None:
        _blend_in(frame, _disc(CHIP, (245, 245, 245), chip[2] - chip[0]), chip[0], chip[1])
        label_y = chip[1] - 1 - sum(_font(13).getmetrics()) if spot.label_above else chip[3] + 1
        _text(frame, seat.bet, (chip[0] + chip[2]) // 2, label_y, 13, TEXT, FELT, "centre", width=90)
    if seat.button:
        button = _disc((245, 245, 240), (60, 60, 60), 2 * CHIP_R + 3, "D")
        x, y = spot.button
        _blend_in(frame, button, x - button.shape[1] // 2, y - button.shape[0] // 2)


def draw_table(view: TableView) -> np.ndarray:
    """The frame of ``view``: a new ``(HEIGHT, WIDTH, 3)`` uint8 RGB array (``layout.WIDTH`` x ``layout.HEIGHT``)."""
    pillow()  # every frame says so without Pillow, even when the pieces it needs are cached
    drawn = drawn_layout(view)
    layout = drawn.layout
    frame = _background(layout).copy()
    bar = _middle(0, layout.header[3], 14)
    _text(frame, view.title, 12, bar, 14, TEXT, BAR_COLOUR, width=layout.width * 2 // 3 - 24)
    _text(frame, view.status, layout.width - 12, bar, 14, TO_ACT, BAR_COLOUR, "right", width=layout.width // 3 - 12)
    _text(frame, view.pot, layout.pot[0], layout.pot[1] - 8, 15, TEXT, FELT, "centre", width=300)
    _lay_cards(frame, view.board, drawn.board, False, FELT)
    for s, seat in enumerate(view.seats):
        _seat(frame, seat, drawn, s)
    footer = layout.footer
    line = view.result or (f"Last action: {view.last_action}" if view.last_action else "")
    _text(frame, line, 12, _middle(footer[1], footer[3] - footer[1], 14), 14, WINNER if view.result else TEXT,
          BAR_COLOUR, width=layout.width - 24)
    return frame
