"""A heads-up postflop subgame: board, pot, stacks, both players' ranges and the bet sizes each may use.

Players are numbered as they act after the flop: 0 = out of position (OOP, acts first on every street), 1 = in
position (IP). Chips are whole numbers. The pot and the commitments are those of the subgame: ``pot`` is already
in the middle when it starts, and each player has ``stack`` chips behind (the effective stack).

A range is a weight in [0, 1] per two-card holding, in the order of :data:`agent_zoo.solver.ranges.COMBOS`
(1,326 holdings). Bet sizes are exact fractions of the pot (``poker_envs.core.sizing.pot_fraction``):

* a *bet* of fraction f (nobody has bet on this street) puts in ``f * pot``, the pot counting every chip already
  in the middle;
* a *raise* of fraction f raises to the bet faced plus ``f`` times the pot once the raiser has called, as the
  environments size a pot-fraction raise (``poker_envs.core.sizing.fraction_raise_to``);
* a *donk* bet is the out-of-position player's opening bet on the turn or river after the in-position player
  made the last bet or raise of the street before; a street's donk sizes replace its bet sizes for that lead
  (as in TexasSolver: with no donk sizes that lead is all-in or nothing).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from types import MappingProxyType

import numpy as np

from agent_zoo.solver.ranges import NUM_COMBOS
from poker_envs.core.cards import cards_arg
from poker_envs.core.sizing import pot_fraction

STREETS = ("flop", "turn", "river")  # the street named by the board's length: 3, 4, 5 cards
PLAYERS = ("oop", "ip")  # player 0 acts first after the flop, player 1 is on the button


class Conventions(Enum):
    """Which game the tree and the chance nodes describe.

    ``RULES`` is the game the environments play: a bet or raise is at least the minimum (one big blind, or the
    last raise's size), sizes are rounded to a chip halves up, and a card to come is dealt uniformly from the cards
    neither the board nor the two hands hold. ``TEXASSOLVER`` follows TexasSolver (github.com/bupticybee/TexasSolver)
    so that both solve the same game: no minimum raise, each size rounded to whole chips before the call is added,
    and every dealt card weighted by 1/(52 - board - 2), as if only one hand were dealt.
    """

    RULES = "rules"
    TEXASSOLVER = "texassolver"


@dataclass(frozen=True, kw_only=True)
class StreetSizes:
    """The sizes one player may use on one street (each a fraction of the pot)."""

    bet: tuple[Fraction, ...] = ()  # opening bets
    raise_: tuple[Fraction, ...] = ()  # raises, as fractions of the pot once the raiser has called
    donk: tuple[Fraction, ...] = ()  # OOP's lead into the last street's aggressor (turn, river); none: no sized lead
    allin: bool = False  # whether all-in is always among the bets and raises

    def __post_init__(self) -> None:
        for name in ("bet", "raise_", "donk"):
            values = tuple(pot_fraction(v, f"{name.rstrip('_')} size") for v in getattr(self, name))
            object.__setattr__(self, name, tuple(sorted(set(values))))


NO_SIZES = StreetSizes()


def _range_arg(weights: object, name: str) -> np.ndarray:
    out = np.asarray(weights, dtype=np.float64)
    if out.shape != (NUM_COMBOS,):
        raise ValueError(f"{name}: expected {NUM_COMBOS} weights (one per two-card holding), got shape {out.shape}")
    if not np.all(np.isfinite(out)) or out.min() < 0.0 or out.max() > 1.0:
        raise ValueError(f"{name}: weights must lie in [0, 1]")
    out.setflags(write=False)
    return out


@dataclass(frozen=True, kw_only=True, eq=False)
class Spot:
    """Everything that defines a heads-up subgame; build its tree with :func:`agent_zoo.solver.tree.build_tree`."""

    board: tuple[int, ...]  # 3, 4 or 5 cards already dealt (card ids, see poker_envs.core.cards)
    pot: int  # chips in the middle when the subgame starts
    stack: int  # chips each player has behind (effective stack)
    ranges: tuple[np.ndarray, np.ndarray]  # (OOP, IP) weights over the 1,326 holdings
    # Sizes per (player, street): player 0 / 1, street "flop" / "turn" / "river"; missing = check, call, fold only.
    sizes: Mapping[tuple[int, str], StreetSizes] = field(default_factory=dict)
    # A bet or raise after which the player's chips in the pot, counting half the starting pot, would exceed this
    # times ``stack`` becomes all-in (TexasSolver's set_allin_threshold).
    allin_threshold: Fraction | None = None  # None: no size is turned into all-in
    raise_limit: int = 3  # raises allowed after the opening bet on one street (then fold / call only)
    big_blind: int = 2  # the smallest bet, and the smallest raise increment, in RULES conventions
    conventions: Conventions = Conventions.RULES
    # Mid-street starts (re-solving at a decision): chips each player has already bet on the first street (not in
    # ``pot``; ``stack`` counts them as still behind), who acts first, and the raises already made on the street.
    bets: tuple[int, int] = (0, 0)
    to_act: int = 0
    raises: int = 0
    last_street_aggressor: int = -1  # who bet or raised last on the street before (1: OOP's first bet is a donk)

    def __post_init__(self) -> None:
        board = tuple(cards_arg(list(self.board), "board"))
        if len(board) not in (3, 4, 5):
            raise ValueError(f"board: expected 3, 4 or 5 cards (flop, turn or river), got {len(board)}")
        object.__setattr__(self, "board", board)
        for name in ("pot", "stack", "big_blind", "raise_limit"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | np.integer):
                raise ValueError(f"{name}: expected a whole number of chips, got {value!r}")
        if self.pot < 1 or self.stack < 0 or self.big_blind < 1 or self.raise_limit < 0:
            raise ValueError(
                f"pot >= 1, stack >= 0, big_blind >= 1 and raise_limit >= 0 are required, got pot={self.pot}, "
                f"stack={self.stack}, big_blind={self.big_blind}, raise_limit={self.raise_limit}"
            )
        if len(self.ranges) != 2:
            raise ValueError(f"ranges: expected (oop, ip), got {len(self.ranges)} ranges")
        ranges = (_range_arg(self.ranges[0], "OOP range"), _range_arg(self.ranges[1], "IP range"))
        object.__setattr__(self, "ranges", ranges)
        sizes: dict[tuple[int, str], StreetSizes] = {}
        for key, value in self.sizes.items():
            if not (isinstance(key, tuple) and len(key) == 2 and key[0] in (0, 1) and key[1] in STREETS):
                raise ValueError(f"sizes: keys are (player 0 or 1, one of {STREETS}), got {key!r}")
            if not isinstance(value, StreetSizes):
                raise ValueError(f"sizes[{key!r}]: expected StreetSizes, got {type(value).__name__}")
            sizes[key] = value
        object.__setattr__(self, "sizes", MappingProxyType(sizes))
        if self.allin_threshold is not None:
            object.__setattr__(self, "allin_threshold", pot_fraction(self.allin_threshold, "allin_threshold"))
        b0, b1 = (int(b) for b in self.bets)
        if self.to_act not in (0, 1) or self.last_street_aggressor not in (-1, 0, 1):
            raise ValueError(f"to_act must be 0 or 1 and last_street_aggressor -1, 0 or 1, got {self.to_act}, "
                             f"{self.last_street_aggressor}")
        if min(b0, b1) < 0 or max(b0, b1) > self.stack:
            raise ValueError(f"bets: expected chips between 0 and the stack {self.stack}, got {self.bets}")
        facing = (b1, b0)[self.to_act] - (b0, b1)[self.to_act]
        if facing < 0 or (b0 == b1 and b0 > 0) or (b0 == b1 == 0 and self.raises) or (b0 != b1 and self.to_act == 0 and b0 > b1):
            raise ValueError(f"bets {self.bets} with player {self.to_act} to act and {self.raises} raises is not a "
                             f"state of a betting round (the player to act owes chips or the round has just begun)")
        object.__setattr__(self, "bets", (b0, b1))
        if not isinstance(self.conventions, Conventions):
            raise ValueError(f"conventions: expected a Conventions member, got {self.conventions!r}")

    @property
    def street(self) -> str:
        """The street the subgame starts on."""
        return STREETS[len(self.board) - 3]

    def street_sizes(self, player: int, street: str) -> StreetSizes:
        return self.sizes.get((player, street), NO_SIZES)
