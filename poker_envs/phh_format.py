"""The Poker Hand History (PHH) format: ``Hand``, reading and writing ``.phh`` / ``.phhs`` files.

PHH (the open format of the University of Toronto Computer Poker Research Group, arXiv 2312.11753)
is TOML: one hand per ``.phh`` file, or many hands in a ``.phhs`` file where each hand is a table
(``[1]``, ``[2]``, ...). ``load`` turns either into ``Hand`` objects and ``dump`` writes them back.
This module knows the format only; ``poker_envs.phh_replay`` plays a ``Hand`` through the rules and
``poker_envs.phh`` offers both under one name (data flows format -> replay, never back).

Reading conventions (from the PHH specification): players ``p1 .. pN`` sit clockwise from the
small blind, ``pN`` holds the button (3 or more players); heads-up the forced bets are
reverse-assigned, so ``p1`` posts the big blind and ``p2`` is the button and small blind. Actions:
``d dh p3 4h3d`` deals hole cards (``????`` unknown), ``d db JcQh3s`` board cards, ``p2 f`` folds,
``p2 cc`` checks or calls, ``p2 cbr 300`` bets or raises TO 300 chips on the street, ``p2 sm 6s8h``
shows at showdown and ``p2 sm`` mucks; anything after ``#`` is a commentary.

Numbers keep the type TOML gave them (int, or float for amounts such as 1259450.25); ``poker_envs.phh_replay``
rescales amounts to whole chips itself. Every error names the file (and table) and the field.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from poker_envs.core.cards import card_from_str, card_to_str

Number = int | float

# Variant codes of the PHH specification and the fields each one requires (besides the common ones).
VARIANTS: dict[str, tuple[str, ...]] = {
    "FT": ("blinds_or_straddles", "small_bet", "big_bet"),
    "NT": ("blinds_or_straddles", "min_bet"),
    "NS": ("blinds_or_straddles", "min_bet"),
    "PO": ("blinds_or_straddles", "min_bet"),
    "FO/8": ("blinds_or_straddles", "small_bet", "big_bet"),
    "F7S": ("bring_in", "small_bet", "big_bet"),
    "F7S/8": ("bring_in", "small_bet", "big_bet"),
    "FR": ("bring_in", "small_bet", "big_bet"),
    "N2L1D": ("blinds_or_straddles", "min_bet"),
    "F2L3D": ("blinds_or_straddles", "small_bet", "big_bet"),
    "FB": ("blinds_or_straddles", "small_bet", "big_bet"),
}
_COMMON_REQUIRED = ("variant", "antes", "starting_stacks", "actions")
_PER_PLAYER = ("antes", "blinds_or_straddles", "starting_stacks", "finishing_stacks")
_SCALARS = ("bring_in", "small_bet", "big_bet", "min_bet")
# Field order when writing (the rest follow in the order they were read).
_WRITE_ORDER = (
    "variant", "ante_trimming_status", "antes", "blinds_or_straddles", "bring_in", "small_bet", "big_bet",
    "min_bet", "starting_stacks", "actions",
)


class PHHError(ValueError):
    """A PHH file or hand that cannot be read or replayed; the message names the file and the field/action."""


@dataclass(frozen=True)
class Hand:
    """One hand of a PHH file (the fields the rules need; everything else is kept in ``fields``)."""

    variant: str  # PHH variant code: "NT" no-limit hold'em, "FT" fixed-limit hold'em, ...
    antes: tuple[Number, ...]  # per player (p1 first); heads-up reverse-assigned, as the spec says
    starting_stacks: tuple[Number, ...]  # per player; ``inf`` allowed by the spec (not replayable)
    actions: tuple[str, ...]  # action strings in order ("d dh p1 AsKd", "p3 cbr 300", ...)
    blinds_or_straddles: tuple[Number, ...] | None = None  # per player (button games)
    min_bet: Number | None = None  # no-limit / pot-limit
    small_bet: Number | None = None  # fixed-limit: bet size of the first two streets
    big_bet: Number | None = None  # fixed-limit: bet size of the last two streets
    bring_in: Number | None = None  # stud games
    ante_trimming_status: bool = False  # True: antes are part of the side-pot layers; False: a dead pot
    players: tuple[str, ...] | None = None  # names, p1 first
    finishing_stacks: tuple[Number, ...] | None = None  # per player, as recorded
    fields: Mapping[str, Any] = field(default_factory=dict, hash=False)  # every other field (author, hand, _x, ...)
    source: str = field(default="", compare=False)  # where it was read from: "path" or "path[table]"

    @property
    def num_players(self) -> int:
        return len(self.starting_stacks)

    def player_names(self) -> list[str]:
        """``players`` if the file names them, else "p1" .. "pN"."""
        if self.players is not None:
            return list(self.players)
        return [f"p{i + 1}" for i in range(self.num_players)]


# Reading --------------------------------------------------------------------------------------------
def _where(source: str, name: str) -> str:
    return f"{source}: field {name!r}" if source else f"field {name!r}"


def _number(value: Any, source: str, name: str, *, minimum: float = 0.0, strict: bool = False) -> Number:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PHHError(f"{_where(source, name)} must be a number, got {value!r}")
    if math.isnan(value) or value < minimum or (strict and value == minimum):
        rel = ">" if strict else ">="
        raise PHHError(f"{_where(source, name)} must be a number {rel} {minimum:g}, got {value!r}")
    return value


def hand_from_dict(raw: Mapping[str, Any], source: str = "") -> Hand:
    """A ``Hand`` from the parsed TOML table of one hand; ``source`` names it in errors."""
    if not isinstance(raw, Mapping):
        raise PHHError(f"{source or 'hand'}: a hand must be a TOML table, got {type(raw).__name__}")
    variant = raw.get("variant")
    if variant not in VARIANTS:
        raise PHHError(f"{_where(source, 'variant')} must be one of {sorted(VARIANTS)}, got {variant!r}")
    for name in _COMMON_REQUIRED + VARIANTS[variant]:
        if name not in raw:
            raise PHHError(f"{source or 'hand'}: required field {name!r} is missing (variant {variant})")
    stacks = raw["starting_stacks"]
    if not isinstance(stacks, list) or len(stacks) < 2:
        raise PHHError(f"{_where(source, 'starting_stacks')} must be an array of at least 2 numbers, got {stacks!r}")
    n = len(stacks)
    values: dict[str, Any] = {"variant": variant}
    for name in _PER_PLAYER:
        if name not in raw:
            continue
        seq = raw[name]
        if not isinstance(seq, list) or len(seq) != n:
            raise PHHError(f"{_where(source, name)} must be an array of {n} numbers (one per player), got {seq!r}")
        strict = name == "starting_stacks"
        values[name] = tuple(_number(v, source, f"{name}[{i}]", strict=strict) for i, v in enumerate(seq))
    for name in _SCALARS:
        if name in raw:
            values[name] = _number(raw[name], source, name, strict=True)
    actions = raw["actions"]
    if not isinstance(actions, list) or any(not isinstance(a, str) for a in actions):
        raise PHHError(f"{_where(source, 'actions')} must be an array of strings")
    values["actions"] = tuple(actions)
    trim = raw.get("ante_trimming_status", False)
    if not isinstance(trim, bool):
        raise PHHError(f"{_where(source, 'ante_trimming_status')} must be true or false, got {trim!r}")
    values["ante_trimming_status"] = trim
    if "players" in raw:
        players = raw["players"]
        if not isinstance(players, list) or len(players) != n or any(not isinstance(p, str) for p in players):
            raise PHHError(f"{_where(source, 'players')} must be an array of {n} strings, got {players!r}")
        values["players"] = tuple(players)
    extra = {k: v for k, v in raw.items() if k not in values}
    return Hand(**values, fields=MappingProxyType(extra), source=source)


def loads(text: str, source: str = "", many: bool | None = None) -> list[Hand]:
    """Hands from PHH text: one hand (``many=False``), a ``.phhs`` collection of tables (``many=True``),
    or guessed (``None``: a collection if every top-level value is a table)."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise PHHError(f"{source or 'text'}: not valid TOML ({err})") from None
    if many is None:
        many = bool(doc) and all(isinstance(v, dict) for v in doc.values())
    if not many:
        return [hand_from_dict(doc, source)]
    hands = []
    for key, table in doc.items():
        hands.append(hand_from_dict(table, f"{source}[{key}]"))
    return hands


def load(path: str | os.PathLike[str]) -> list[Hand]:
    """The hands of a ``.phh`` file (a list of one) or a ``.phhs`` file (a list of many)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise PHHError(f"{path}: cannot read ({err.strerror})") from None
    suffix = path.suffix.lower()
    if suffix not in (".phh", ".phhs"):
        raise PHHError(f"{path}: path must end with .phh (one hand) or .phhs (many hands)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise PHHError(f"{path}: not UTF-8 text") from None
    return loads(text, str(path), many=suffix == ".phhs")


def load_hand(path: str | os.PathLike[str]) -> Hand:
    """The single hand of a ``.phh`` file."""
    hands = load(path)
    if len(hands) != 1:
        raise PHHError(f"{path}: holds {len(hands)} hands, load_hand wants exactly one")
    return hands[0]


def _natural_key(path: Path) -> list[Any]:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", str(path))]


def find_files(root: str | os.PathLike[str]) -> list[Path]:
    """Every ``.phh`` / ``.phhs`` file under ``root`` (or ``root`` itself), in natural order (2 before 10)."""
    root = Path(root)
    if root.is_file():
        return [root]
    if not root.is_dir():
        raise PHHError(f"{root}: no such file or folder")
    files = [p for p in root.rglob("*") if p.suffix.lower() in (".phh", ".phhs") and p.is_file()]
    return sorted(files, key=_natural_key)


def iter_hands(root: str | os.PathLike[str], variants: Iterable[str] | None = None) -> Iterator[Hand]:
    """Every hand under ``root`` (files in natural order), optionally only the given variant codes."""
    keep = None if variants is None else set(variants)
    for path in find_files(root):
        for hand in load(path):
            if keep is None or hand.variant in keep:
                yield hand


# Writing --------------------------------------------------------------------------------------------
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key, ensure_ascii=False)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # JSON string escapes are valid TOML basic strings
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_toml_key(str(k))} = {_toml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, Sequence):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if hasattr(value, "item"):  # numpy scalars
        return _toml_value(value.item())
    raise PHHError(f"cannot write a value of type {type(value).__name__} to PHH: {value!r}")


def hand_to_dict(hand: Hand) -> dict[str, Any]:
    """The fields of ``hand`` as one TOML table (None fields left out)."""
    out: dict[str, Any] = {}
    for name in _WRITE_ORDER:
        value = getattr(hand, name)
        if value is not None:
            out[name] = value
    for key, value in hand.fields.items():
        if value is not None:  # TOML has no null: an absent field reads back as absent
            out[key] = value
    if hand.players is not None:
        out["players"] = hand.players
    if hand.finishing_stacks is not None:
        out["finishing_stacks"] = hand.finishing_stacks
    return out


def dumps(hand: Hand) -> str:
    """One hand as PHH text."""
    return "".join(f"{_toml_key(k)} = {_toml_value(v)}\n" for k, v in hand_to_dict(hand).items())


def dumps_many(hands: Iterable[Hand], start: int = 1) -> str:
    """Hands as ``.phhs`` text: tables ``[start]``, ``[start + 1]``, ..."""
    return "\n".join(f"[{start + i}]\n{dumps(h)}" for i, h in enumerate(hands))


def dump(hands: Hand | Iterable[Hand], path: str | os.PathLike[str]) -> None:
    """Write one hand to a ``.phh`` file, or hands to a ``.phhs`` file (overwriting it)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if isinstance(hands, Hand):
        hands = [hands]
    hands = list(hands)
    if suffix == ".phh":
        if len(hands) != 1:
            raise PHHError(f"{path}: a .phh file holds one hand, got {len(hands)} (use a .phhs path)")
        text = dumps(hands[0])
    elif suffix == ".phhs":
        text = dumps_many(hands)
    else:
        raise PHHError(f"{path}: path must end with .phh (one hand) or .phhs (many hands)")
    path.write_text(text, encoding="utf-8")


def count_tables(path: str | os.PathLike[str]) -> int:
    """The largest hand number ``[k]`` of an existing ``.phhs`` file (0 if it has none or is absent)."""
    path = Path(path)
    if not path.exists():
        return 0
    numbers = [int(m.group(1)) for m in re.finditer(r"^\[(\d+)\]\s*$", path.read_text(encoding="utf-8"), re.M)]
    return max(numbers, default=0)


def append(hand: Hand, path: str | os.PathLike[str], number: int | None = None) -> int:
    """Append ``hand`` to a ``.phhs`` file as table ``[number]`` (default: one past the last); returns it."""
    path = Path(path)
    if path.suffix.lower() != ".phhs":
        raise PHHError(f"{path}: hands are appended to a .phhs file")
    if number is None:
        number = count_tables(path) + 1
    lead = "\n" if path.exists() and path.stat().st_size > 0 else ""
    with path.open("a", encoding="utf-8") as f:
        f.write(f"{lead}[{number}]\n{dumps(hand)}")
    return number


# Cards and actions ------------------------------------------------------------------------------------
def parse_cards(text: str) -> list[int | None]:
    """Card ids of a PHH card run such as "AsKd" or "????" (None for an unknown card)."""
    if len(text) % 2:
        raise ValueError(f"cards {text!r} do not split into two-character cards")
    pairs = (text[i : i + 2] for i in range(0, len(text), 2))
    return [None if pair == "??" else card_from_str(pair) for pair in pairs]


def format_cards(cards: Iterable[int | None]) -> str:
    """A PHH card run from card ids (None writes "??"): the inverse of ``parse_cards``."""
    return "".join("??" if c is None else card_to_str(c) for c in cards)


__all__ = [
    "Hand", "PHHError", "VARIANTS", "append", "count_tables", "dump", "dumps", "dumps_many", "find_files",
    "format_cards", "hand_from_dict", "hand_to_dict", "iter_hands", "load", "load_hand", "loads", "parse_cards",
]
