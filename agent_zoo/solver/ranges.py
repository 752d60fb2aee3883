"""Two-card holdings, range notation and the 13x13 hand-class grid.

Every range in the solver is a ``(1326,)`` float array of weights in [0, 1], one per two-card holding, in the order of
:data:`COMBOS` (``itertools.combinations(range(52), 2)``: card ids as in :mod:`poker_envs.core.cards`, lower id
first). :func:`parse_range` reads the notation that TexasSolver (github.com/bupticybee/TexasSolver) accepts in its
command files and that players write, :func:`format_range` writes the shortest such text back, and
:func:`grid_average` folds per-holding numbers into the usual 13x13 grid of hand classes.

The notation: comma-separated items, each optionally followed by ``:weight`` (a decimal in [0, 1], default 1):

* ``AA`` a pair (6 holdings), ``AKs`` suited (4), ``AKo`` offsuit (12), ``AK`` both (16);
* ``AhKd`` one holding;
* ``22+`` every pair from deuces up, ``A2s+`` / ``KTo+`` / ``A2+`` the kicker rising to one below the top card
  (``A2s+`` = A2s..AKs), ``99-66`` and ``A5s-A2s`` (``A5-A2``) the classes between two ends, either end first.

A holding named twice takes the weight of the item written last, so ``22+,AA:0.5`` reads "every pair, aces at half".
(TexasSolver rejects a range that names a holding twice, so every range it accepts reads the same here.) The parser
does no card removal: holdings that hold a board card keep their weight, and whoever uses the range masks them.
TexasSolver drops holdings of weight 0.005 or less; the parser keeps every weight as written.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable

import numpy as np

from poker_envs.core.cards import NUM_CARDS, RANKS, SUITS
from poker_envs.games.push_fold import hand_class as rules_hand_class
from poker_envs.games.push_fold import hand_class_name

NUM_COMBOS = NUM_CARDS * (NUM_CARDS - 1) // 2  # 1,326 two-card holdings
NUM_RANKS = len(RANKS)

# (1326, 2): the two card ids of every holding, lower id first, in itertools.combinations order.
COMBOS: np.ndarray = np.array(list(itertools.combinations(range(NUM_CARDS), 2)), dtype=np.int64)
COMBOS.setflags(write=False)

# (52, 52): COMBO_INDEX[a, b] = COMBO_INDEX[b, a] = the index in COMBOS of the holding {a, b}; -1 where a == b.
COMBO_INDEX: np.ndarray = np.full((NUM_CARDS, NUM_CARDS), -1, dtype=np.int64)
COMBO_INDEX[COMBOS[:, 0], COMBOS[:, 1]] = np.arange(NUM_COMBOS)
COMBO_INDEX[COMBOS[:, 1], COMBOS[:, 0]] = np.arange(NUM_COMBOS)
COMBO_INDEX.setflags(write=False)


def combo_index(c0: int, c1: int) -> int:
    """The index in :data:`COMBOS` of the holding of cards ``c0`` and ``c1`` (either order)."""
    for card in (c0, c1):
        if not 0 <= int(card) < NUM_CARDS:
            raise ValueError(f"card id {card} is outside 0..51")
    if int(c0) == int(c1):
        raise ValueError(f"a holding needs two different cards, got {c0} twice")
    return int(COMBO_INDEX[int(c0), int(c1)])


# ----------------------------------------------------------------------------------------------------------------
# The 13x13 grid of the rules module (``poker_envs.games.push_fold.hand_class``): row/column 0 = aces ... 12 =
# deuces; pairs on the diagonal, suited classes above it, offsuit classes below it, as postflop solvers draw it.

# (1326, 2): the (row, column) grid cell of every holding.
COMBO_CELL: np.ndarray = np.array(
    [divmod(rules_hand_class(int(a), int(b)), NUM_RANKS) for a, b in COMBOS], dtype=np.int64
)
COMBO_CELL.setflags(write=False)

# (13, 13): the class label of every cell ("AA", "AKs", "AKo", ...).
CLASS_LABELS: np.ndarray = np.array([hand_class_name(i) for i in range(NUM_RANKS * NUM_RANKS)], dtype=object).reshape(
    NUM_RANKS, NUM_RANKS
)
CLASS_LABELS.setflags(write=False)

# (1326, 169): one-hot map of each holding onto its cell (row * 13 + column), for grid sums.
_CELL_MATRIX = np.zeros((NUM_COMBOS, NUM_RANKS * NUM_RANKS))
_CELL_MATRIX[np.arange(NUM_COMBOS), COMBO_CELL[:, 0] * NUM_RANKS + COMBO_CELL[:, 1]] = 1.0
_CELL_MATRIX.setflags(write=False)


def class_grid_index(combo: int) -> tuple[int, int]:
    """The (row, column) of holding ``combo`` (an index into :data:`COMBOS`) in the 13x13 grid."""
    if not 0 <= int(combo) < NUM_COMBOS:
        raise ValueError(f"holding index {combo} is outside 0..{NUM_COMBOS - 1}")
    row, col = COMBO_CELL[int(combo)]
    return int(row), int(col)


def hand_class(combo: int) -> str:
    """The class label of holding ``combo`` (an index into :data:`COMBOS`): "AA", "AKs" or "AKo"."""
    return str(CLASS_LABELS[class_grid_index(combo)])


def grid_average(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Average per-holding ``values`` (shape ``(..., 1326)``) over each grid cell, weighted by ``weights`` (1326,).

    Returns shape ``(..., 13, 13)``; a cell whose holdings all have weight 0 is nan. With ``values`` a strategy
    (actions x holdings) and ``weights`` the reach of each holding, each cell is the class's mix of actions.
    """
    vals = np.asarray(values, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (NUM_COMBOS,) or vals.shape[-1:] != (NUM_COMBOS,):
        raise ValueError(
            f"expected values (..., {NUM_COMBOS}) and weights ({NUM_COMBOS},), got {vals.shape}, {w.shape}"
        )
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError("weights must be finite and non-negative")
    total = w @ _CELL_MATRIX
    weighted = (vals * w) @ _CELL_MATRIX
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(total > 0, weighted / np.where(total > 0, total, 1.0), np.nan)
    return out.reshape(vals.shape[:-1] + (NUM_RANKS, NUM_RANKS))


# ----------------------------------------------------------------------------------------------------------------
# Hand classes as holding indices.


def _class_combos(high: int, low: int, kind: str) -> np.ndarray:
    """Holding indices of a class: ``kind`` "" (both), "s" or "o"; a pair when ``high == low`` (kind "")."""
    out = []
    for s0 in range(4):
        for s1 in range(4):
            a, b = high * 4 + s0, low * 4 + s1
            if a == b or (high == low and s0 > s1):
                continue
            if high != low and ((kind == "s" and s0 != s1) or (kind == "o" and s0 == s1)):
                continue
            out.append(COMBO_INDEX[a, b])
    return np.array(sorted(out), dtype=np.int64)


_PAIRS = {r: _class_combos(r, r, "") for r in range(NUM_RANKS)}
_SUITED = {(h, k): _class_combos(h, k, "s") for h in range(NUM_RANKS) for k in range(h)}
_OFFSUIT = {(h, k): _class_combos(h, k, "o") for h in range(NUM_RANKS) for k in range(h)}

_ALLOWED = (
    "allowed: pairs (AA), classes (AKs suited, AKo offsuit, AK both), holdings (AhKd), ranges (22+, A2s+, KTo+, "
    "99-66, A5s-A2s), each optionally with ':weight' for a weight in [0, 1]"
)
_R = f"[{RANKS}{RANKS.lower()}]"
_S = f"[{SUITS}{SUITS.upper()}]"
_COMBO_RE = re.compile(f"({_R})({_S})({_R})({_S})")
_CLASS_RE = re.compile(f"({_R})({_R})([soSO]?)")
_PLUS_RE = re.compile(f"({_R})({_R})([soSO]?)\\+")
_DASH_RE = re.compile(f"({_R})({_R})([soSO]?)-({_R})({_R})([soSO]?)")
_WEIGHT_RE = re.compile(r"(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def _rank(ch: str) -> int:
    return RANKS.index(ch.upper())


def _bad(item: str, why: str) -> ValueError:
    return ValueError(f"range item {item!r}: {why}; {_ALLOWED}")


def _class_indices(item: str, high: int, low: int, kind: str) -> list[np.ndarray]:
    if high == low:
        if kind:
            raise _bad(item, "a pair is neither suited nor offsuit")
        return [_PAIRS[high]]
    high, low = max(high, low), min(high, low)
    out = []
    if kind in ("", "s"):
        out.append(_SUITED[high, low])
    if kind in ("", "o"):
        out.append(_OFFSUIT[high, low])
    return out


def _item_indices(item: str, hand: str) -> np.ndarray:
    """Holding indices named by one item's hand part (no weight)."""
    parts: list[np.ndarray] = []
    if m := _COMBO_RE.fullmatch(hand):
        a = _rank(m[1]) * 4 + SUITS.index(m[2].lower())
        b = _rank(m[3]) * 4 + SUITS.index(m[4].lower())
        if a == b:
            raise _bad(item, "a holding needs two different cards")
        return np.array([COMBO_INDEX[a, b]])
    if m := _CLASS_RE.fullmatch(hand):
        parts = _class_indices(item, _rank(m[1]), _rank(m[2]), m[3].lower())
    elif m := _PLUS_RE.fullmatch(hand):
        top, kicker, kind = _rank(m[1]), _rank(m[2]), m[3].lower()
        if top == kicker:
            if kind:
                raise _bad(item, "a pair is neither suited nor offsuit")
            parts = [_PAIRS[r] for r in range(top, NUM_RANKS)]
        elif top < kicker:
            raise _bad(item, "write the higher rank first before '+' (A2s+ = A2s up to AKs)")
        else:
            for k in range(kicker, top):
                parts += _class_indices(item, top, k, kind)
    elif m := _DASH_RE.fullmatch(hand):
        h1, k1, kind1, h2, k2, kind2 = _rank(m[1]), _rank(m[2]), m[3].lower(), _rank(m[4]), _rank(m[5]), m[6].lower()
        if h1 == k1 and h2 == k2 and not kind1 and not kind2:
            parts = [_PAIRS[r] for r in range(min(h1, h2), max(h1, h2) + 1)]
        elif h1 == h2 and k1 < h1 and k2 < h2 and kind1 == kind2:
            for k in range(min(k1, k2), max(k1, k2) + 1):
                parts += _class_indices(item, h1, k, kind1)
        else:
            raise _bad(item, "a '-' range joins two pairs (99-66) or two classes with the same top rank and suffix "
                       "(A5s-A2s), higher rank first in each")
    else:
        raise _bad(item, "not a hand, class or range")
    return np.concatenate(parts)


def _weight(item: str, text: str) -> float:
    if not _WEIGHT_RE.fullmatch(text):
        raise _bad(item, f"weight {text!r} is not a decimal number")
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise _bad(item, f"weight {text} is outside [0, 1]")
    return value


def parse_range(text: str) -> np.ndarray:
    """Weights (1326,) float64 of a range written as above; whitespace is ignored, an empty text is the empty range.

    A holding named twice takes its last weight. Raises ValueError naming the bad item and the allowed forms.
    """
    weights = np.zeros(NUM_COMBOS)
    compact = "".join(str(text).split())
    if not compact:
        return weights
    for item in compact.split(","):
        if not item:
            raise _bad(item, "empty item (two commas in a row, or a comma at an end)")
        hand, *rest = item.split(":")
        if len(rest) > 1:
            raise _bad(item, "more than one ':'")
        if not hand:
            raise _bad(item, "no hand before ':'")
        weight = _weight(item, rest[0]) if rest else 1.0
        weights[_item_indices(item, hand)] = weight
    return weights


# ----------------------------------------------------------------------------------------------------------------
# Writing ranges.


def _weight_text(w: float) -> str:
    if w == 1.0:
        return ""
    positional = np.format_float_positional(w, unique=True, trim="-")
    return ":" + min(positional, repr(float(w)), key=len)


def _runs(ranks: list[int]) -> list[list[int]]:
    """Ascending ``ranks`` split into runs of consecutive ranks."""
    runs: list[list[int]] = []
    for r in sorted(ranks):
        if runs and runs[-1][-1] == r - 1:
            runs[-1].append(r)
        else:
            runs.append([r])
    return runs


def _run_tokens(name: Callable[[int], str], run: list[int], top: int, suffix: str, w: str) -> list[str]:
    """Tokens for one run of classes ``name(rank)`` (rank = the pair's rank or the kicker), shortest form."""
    if len(run) == 1:
        return [name(run[0]) + suffix + w]
    if run[-1] == top:
        return [name(run[0]) + suffix + "+" + w]
    listed = [name(r) + suffix + w for r in reversed(run)]
    dashed = [name(run[-1]) + suffix + "-" + name(run[0]) + suffix + w]
    return dashed if len(dashed[0]) < len(",".join(listed)) else listed


def _class_base(values: np.ndarray) -> float:
    """The weight a class is written with: its most common weight (0 on ties with 0, else the larger weight)."""
    counts = Counter(values.tolist())
    return max(counts, key=lambda v: (counts[v], v == 0.0, v))


def _kicker_tokens(high: int, groups: dict[tuple[str, float], list[int]]) -> list[str]:
    out = []
    for (kind, w), kickers in sorted(groups.items(), key=lambda kv: (-max(kv[1]), kv[0][0], kv[0][1])):
        for run in reversed(_runs(kickers)):
            out += _run_tokens(lambda k: RANKS[high] + RANKS[k], run, high - 1, kind, _weight_text(w))
    return out


def format_range(weights: np.ndarray) -> str:
    """The shortest usual text for ``weights`` (1326,): classes and runs of classes with one weight, then single
    holdings where a class is mixed; ``parse_range(format_range(w))`` equals ``w`` exactly."""
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (NUM_COMBOS,):
        raise ValueError(f"expected {NUM_COMBOS} weights, got shape {w.shape}")
    if not np.all(np.isfinite(w)) or w.min() < 0.0 or w.max() > 1.0:
        raise ValueError("weights must lie in [0, 1]")
    tokens: list[str] = []
    exceptions: list[int] = []

    def base_of(idx: np.ndarray) -> float:
        base = _class_base(w[idx])
        exceptions.extend(int(i) for i in idx if w[i] != base)
        return base

    pair_groups: dict[float, list[int]] = {}
    for r in range(NUM_RANKS):
        base = base_of(_PAIRS[r])
        if base > 0:
            pair_groups.setdefault(base, []).append(r)
    for wt, ranks in sorted(pair_groups.items(), key=lambda kv: -max(kv[1])):
        for run in reversed(_runs(ranks)):
            tokens += _run_tokens(lambda r: RANKS[r] * 2, run, NUM_RANKS - 1, "", _weight_text(wt))
    for high in range(NUM_RANKS - 1, 0, -1):
        bases = {(kind, k): base_of(table[high, k]) for kind, table in (("s", _SUITED), ("o", _OFFSUIT))
                 for k in range(high)}
        separate: dict[tuple[str, float], list[int]] = {}
        merged: dict[tuple[str, float], list[int]] = {}
        for k in range(high):
            bs, bo = bases["s", k], bases["o", k]
            if bs == bo and bs > 0:
                merged.setdefault(("", bs), []).append(k)
            for kind, b in (("s", bs), ("o", bo)):
                if b > 0:
                    separate.setdefault((kind, b), []).append(k)
                    if bs != bo:
                        merged.setdefault((kind, b), []).append(k)
        options = [_kicker_tokens(high, merged), _kicker_tokens(high, separate)]
        tokens += min(options, key=lambda t: len(",".join(t)))
    for i in sorted(exceptions, key=lambda i: (-int(COMBOS[i, 1]), -int(COMBOS[i, 0]))):
        c0, c1 = COMBOS[i]
        tokens.append(RANKS[c1 >> 2] + SUITS[c1 & 3] + RANKS[c0 >> 2] + SUITS[c0 & 3] + _weight_text(float(w[i])))
    return ",".join(tokens)
