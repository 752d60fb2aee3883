"""Main pot, side pots and the split of each pot among its winners (integer chips, nothing lost).

A pot is a layer of contributions: every distinct contribution level of the hand cuts one layer,
holding ``(level - previous level)`` chips from every player who put in at least ``level``. The
players still in the hand among those contributors may win it. A layer only one live player
reaches is that player's uncalled bet (or money nobody else could match) and goes back to him.
At showdown, hands that win no pot are mucked first, and pots then contested by the same remaining
hands are pooled before splitting (as pokerkit does; it only changes where odd chips go). Odd chips
of a split pot all go to the first winner clockwise from the button (seat ``button + 1`` first), as
the TDA rule "odd chip(s) go to the first seat left of the button" says.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Pot(NamedTuple):
    amount: int
    eligible: tuple[int, ...]  # seats still in the hand that may win this pot


def build_pots(contributed: Sequence[int], folded: Sequence[bool]) -> list[Pot]:
    """Main pot first, then side pots; adjacent layers with the same eligible seats are merged."""
    levels = sorted({c for c in contributed if c > 0})
    pots: list[Pot] = []
    previous = 0
    n = len(contributed)
    for level in levels:
        amount = 0
        eligible = []
        for seat in range(n):
            c = contributed[seat]
            if c >= level:  # levels are the contributions themselves, so nobody stops inside a layer
                amount += level - previous
                if not folded[seat]:
                    eligible.append(seat)
        previous = level
        elig = tuple(eligible)
        if pots and pots[-1].eligible == elig:
            pots[-1] = Pot(pots[-1].amount + amount, elig)
        else:
            pots.append(Pot(amount, elig))
    return pots


def award_pots(
    pots: Sequence[Pot], strengths: Sequence[int] | None, button: int, num_players: int
) -> tuple[list[int], list[tuple[int, tuple[int, ...]]]]:
    """Chips each seat collects and, per pot, ``(amount, winners)``.

    ``strengths[seat]`` is the hand value (bigger is better) of each live seat; ``None`` when no
    showdown is needed because every pot has a single eligible seat.
    """
    won = [0] * num_players
    awards: list[tuple[int, tuple[int, ...]]] = []
    if strengths is not None:
        # Hands that win no pot are mucked; pots then contested by the same remaining hands are one pot.
        alive = set()
        for pot in pots:
            best = max(strengths[s] for s in pot.eligible)
            alive.update(s for s in pot.eligible if strengths[s] == best)
        merged: list[Pot] = []
        for pot in pots:
            elig = tuple(s for s in pot.eligible if s in alive)
            if merged and merged[-1].eligible == elig:
                merged[-1] = Pot(merged[-1].amount + pot.amount, elig)
            else:
                merged.append(Pot(pot.amount, elig))
        pots = merged
    for pot in pots:
        eligible = pot.eligible
        if len(eligible) == 1 or strengths is None:
            winners: tuple[int, ...] = eligible[:1]
        else:
            best = max(strengths[s] for s in eligible)
            winners = tuple(s for s in eligible if strengths[s] == best)
        share, odd = divmod(pot.amount, len(winners))
        for s in winners:
            won[s] += share
        if odd:
            first = min(winners, key=lambda s: (s - button - 1) % num_players)
            won[first] += odd
        awards.append((pot.amount, winners))
    return won, awards
