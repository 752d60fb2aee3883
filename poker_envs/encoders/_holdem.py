"""What the hold'em encoders read from a game, shared by ``poker_cnn``, ``flat107`` and ``flat56``.

The encoders read the public fields of ``poker_envs.games.holdem.HoldemState`` (see
``docs/encoders.md``): ``hole``, ``board``, ``street``, ``bets``, ``contributed``, ``stacks``,
``starting_stacks``, ``folded``, ``history``, ``num_active_at_street_start``, ``button`` and
``config.small_blind``. Amounts are given to networks in small blinds, the unit of both source
documents. Only the observing player's own hole cards are ever read.
"""

from __future__ import annotations

from typing import Any

from poker_envs.games.base import Game

#: ActionRecord kinds of the hold'em engine (FOLD=0, CHECK=1, CALL=2, BET=3, RAISE=4).
FOLD, CHECK, CALL, BET, RAISE = 0, 1, 2, 3, 4


def holdem_reason(game: Game, what: str) -> str | None:
    """None if ``game`` is a hold'em game the encoders read; otherwise a sentence saying why not."""
    try:
        from poker_envs.games.holdem import HoldemGame
    except ImportError:  # pragma: no cover - the engine is part of the package
        HoldemGame = None  # type: ignore[assignment,misc]
    if HoldemGame is not None and isinstance(game, HoldemGame):
        return None
    return (
        f"{what} is defined for Texas hold'em (52-card deck, two hole cards, a board of up to five cards, "
        f"chip bets by street); game {getattr(game, 'name', type(game).__name__)!r} is not hold'em. "
        "Use the environment's 'default' encoder or pass your own Encoder object."
    )


def unit(state: Any) -> float:
    """Chips per small blind (the amount unit of the encoders)."""
    return float(state.config.small_blind)


def check_player(state: Any, player: int) -> None:
    """Refuse a seat that is not at the table."""
    if not 0 <= player < len(state.stacks):
        raise ValueError(f"player {player} is not a seat of this game (0..{len(state.stacks) - 1})")


def street_records(state: Any, street: int) -> list[Any]:
    """The ActionRecords of ``street`` (empty for a street not reached or before the first)."""
    history = state.history
    if 0 <= street < len(history):
        return history[street]
    return []


def first_to_act(state: Any, street: int) -> int:
    """Seat that acts first on ``street`` by the rules (ignoring folds and all-ins).

    Pre-flop: left of the big blind (heads-up: the button, who posts the small blind); later
    streets: left of the button (heads-up: the big blind).
    """
    n = len(state.stacks)
    if street == 0:
        big_blind_seat = (state.button + 1) % n if n == 2 else (state.button + 2) % n
        return (big_blind_seat + 1) % n
    return (state.button + 1) % n


def position_fraction(state: Any, player: int) -> float:
    """Where ``player`` sits in the acting order of the current street, 0 (first) .. 1 (last).

    The order runs round the table from ``first_to_act`` over the players that had not folded when
    the street began (all-in players included, as in ``num_active_at_street_start``), plus the
    observer. Heads-up this is 0 for the first to act and 1 for the second.
    """
    n = len(state.stacks)
    street = state.street
    folded_now = {rec.player for rec in street_records(state, street) if rec.kind == FOLD}
    first = first_to_act(state, street)
    order = [
        seat
        for seat in ((first + i) % n for i in range(n))
        if seat == player or not state.folded[seat] or seat in folded_now
    ]
    if len(order) < 2:
        return 0.0
    return order.index(player) / (len(order) - 1)


def action_added(state: Any, player: int, kind: int, raise_to: int) -> int:
    """Chips ``player`` would put in with the action (fold/check 0, call the amount called)."""
    if kind == CALL:
        return min(state.to_call(player), state.stacks[player])
    if kind in (BET, RAISE):
        return raise_to - state.bets[player]
    return 0
