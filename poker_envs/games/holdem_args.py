"""The hold'em family's environment arguments as a rules configuration, and the buttons a seed puts.

The environments (``nolimit_holdem_v0`` ... ``omaha_v0``) and the batched engines take the same keyword
arguments; ``table_config`` maps them onto ``HoldemConfig``, which checks every one of them (errors name the
argument), so the checks are written once, in the rules. Nothing here imports gymnasium or pettingzoo.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from poker_envs.games.holdem import HoldemConfig


def table_config(
    betting: str,
    num_players: int,
    small_blind: int,
    big_blind: int,
    ante: int,
    starting_stack: int | Sequence[int],
    bet_sizing: str | Sequence[float] = "abstract",
    allow_fold_when_check: bool = False,
    ranking: str = "standard",
    hole_cards: int = 2,
    hand_rule: str = "best_five",
) -> HoldemConfig:
    """The rules configuration of an environment's arguments (``starting_stack``: one stack for every seat or a
    list of one per seat; ``bet_sizing``: a name or pot fractions, a list is taken as a tuple)."""
    if isinstance(bet_sizing, list):
        bet_sizing = tuple(bet_sizing)
    if isinstance(starting_stack, str) or not isinstance(starting_stack, int | np.integer | Sequence):
        raise ValueError(f"starting_stack must be a positive integer or a list of one per seat, got {starting_stack!r}")
    return HoldemConfig(
        num_players=num_players,
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        starting_stacks=starting_stack if isinstance(starting_stack, int | np.integer) else tuple(starting_stack),
        betting=betting,
        allow_fold_when_check=allow_fold_when_check,
        bet_sizing=bet_sizing,
        ranking=ranking,  # the deck is the ranking's own (36 cards for the short-deck rankings)
        hole_cards=hole_cards,
        hand_rule=hand_rule,
    )


def short_deck_ranking(trips_beat_straight: bool) -> str:
    """The hand ranking of short deck's ``trips_beat_straight`` argument (checked to be a bool)."""
    if not isinstance(trips_beat_straight, bool):
        raise ValueError(f"trips_beat_straight must be True or False, got {trips_beat_straight!r}")
    return "short_deck_trips" if trips_beat_straight else "short_deck"


def seeded_buttons(seed: int | None, num_players: int, size: int) -> np.ndarray:
    """The buttons of ``size`` tables after ``reset(seed=seed)``: drawn from a child of the seed's sequence, so
    they are uniform over the seats yet fixed by the seed, and the cards the seed deals do not depend on them.
    The first is ``seeded_button(seed, num_players)`` (numpy draws bounded integers one by one)."""
    child = np.random.SeedSequence(seed).spawn(1)[0]
    return np.random.default_rng(child).integers(num_players, size=size)


def seeded_button(seed: int, num_players: int) -> int:
    """The button of the AEC env's ``reset(seed=seed)``: one table of ``seeded_buttons``."""
    return int(seeded_buttons(seed, num_players, 1)[0])
