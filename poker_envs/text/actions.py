"""The legal actions of the seat to act with their sizes, from the observation dict and the table's configuration.

The amounts come from the rules' own sizing (``core.sizing.fraction_raise_to`` for pot fractions, the raise-to
range in ``observation["public"]`` for the rest), never a second copy of the rules; ``tests/test_text_views.py``
binds them to ``HoldemState.action_to_chips`` on random hands.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from poker_envs.encoders.public import PublicState
from poker_envs.core.sizing import fraction_raise_to, pot_fraction


@dataclass(frozen=True)
class Sizing:
    """What the views need of a table's configuration to size its actions."""

    game: str  # the game's name ("nolimit_holdem", "push_fold_2p")
    betting: str  # "nolimit" | "potlimit" | "limit" | "push_fold"
    bet_sizing: str | tuple[Fraction, ...]  # "abstract" | "chips" | pot fractions; "limit" / "push_fold" for those
    fractions: tuple[Fraction, ...]  # pot fractions of the raise ids 2.. (empty unless abstract or fractions)
    dead_chips: int = 0  # chips in the pot nobody's stack paid (HoldemConfig.dead_chips)
    board_after: tuple[int, ...] = (0, 3, 4, 5)  # board cards seen in each betting round (push/fold: (0,))

    @staticmethod
    def of_game(game: Any) -> Sizing:
        """From a hold'em or push/fold ``Game`` (its configuration only)."""
        cfg = game.config
        if not hasattr(cfg, "betting"):  # push/fold
            return Sizing(game.name, "push_fold", "push_fold", (), 0, (0,))
        sizing = "limit" if cfg.betting == "limit" else cfg.bet_sizing
        fractions = tuple(cfg.fractions) if cfg.betting != "limit" else ()
        return Sizing(game.name, cfg.betting, sizing, fractions, cfg.dead_chips, tuple(cfg.board_after))


@dataclass(frozen=True)
class LegalAction:
    """One legal action: its id, what it does and the seat's street total after it (in chips)."""

    action: int  # the action id
    kind: str  # "fold" | "check" | "call" | "bet" | "raise" | "all-in"
    to: float  # the seat's street bet after the action (bet-to / raise-to); for fold and check the bet now
    added: float  # chips the action puts in
    fraction: float | None = None  # the pot fraction of an abstract size


def sized_word(public: PublicState) -> str:
    """The word of a sized action (an all-in's too): "raise" when the street has a bet (blinds count), else "bet"."""
    return "raise" if max(public.bets) > 0 else "bet"


def legal_actions(sizing: Sizing, public: PublicState, mask: np.ndarray) -> list[LegalAction]:
    """Every legal action (``mask``) of the observer, sized, in id order."""
    me = public.observer
    bet, stack = public.bets[me], public.stacks[me]
    all_in_to = bet + stack
    max_bet = bet + public.to_call  # the bet faced (exact when a raise is possible: the call leaves chips behind)
    verb = sized_word(public)
    out: list[LegalAction] = []
    legal = np.flatnonzero(np.asarray(mask)).tolist()
    m = len(sizing.fractions)
    for a in legal:
        if a == 0:
            out.append(LegalAction(0, "fold", bet, 0.0))
            continue
        if a == 1:
            if sizing.betting == "push_fold":  # push/fold: id 1 is all-in (a push, or a call of a push)
                kind = "all-in" if public.can_raise else "call"
                out.append(LegalAction(1, kind, all_in_to, stack))
            elif public.to_call > 0:
                out.append(LegalAction(1, "call", bet + public.to_call, public.to_call))
            else:
                out.append(LegalAction(1, "check", bet, 0.0))
            continue
        low, high = public.min_raise_to, public.max_raise_to
        fraction = None
        if sizing.betting == "limit":
            to = low
        elif sizing.bet_sizing == "chips":
            to = float(a - 1)
        elif a == 2 + m:
            to = high
        else:
            fraction = sizing.fractions[a - 2]
            pot_after_call = int(public.pot) + sizing.dead_chips + int(public.to_call)
            to = float(fraction_raise_to(int(max_bet), pot_after_call, fraction, int(low)))
        kind = "all-in" if to >= all_in_to else verb
        out.append(LegalAction(int(a), kind, float(to), float(to - bet), None if fraction is None else float(fraction)))
    return out


def pot_fraction_to(sizing: Sizing, public: PublicState, fraction: Fraction | float) -> float:
    """The raise-to of a pot-fraction size named in a reply ("half pot"), by the rules' own fraction rule (a float
    counts as the decimal it prints, as in ``bet_sizing``)."""
    me = public.observer
    max_bet = public.bets[me] + public.to_call
    if sizing.betting == "push_fold":
        return max_bet + float(fraction) * (public.pot + public.to_call)
    pot_after_call = int(public.pot) + sizing.dead_chips + int(public.to_call)
    exact = pot_fraction(fraction, "pot fraction")
    return float(fraction_raise_to(int(max_bet), pot_after_call, exact, int(public.min_raise_to)))
