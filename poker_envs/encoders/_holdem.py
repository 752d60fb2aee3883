"""What the hold'em encoders read from a game, shared by ``poker_cnn``, ``flat107`` and ``flat56``.

The encoders read the public fields of ``poker_envs.games.holdem.HoldemState`` (see
``docs/encoders.md``): ``hole``, ``board``, ``street``, ``bets``, ``contributed``, ``stacks``,
``starting_stacks``, ``folded``, ``history``, ``num_active_at_street_start``, ``button`` and
``config.small_blind``. Amounts are given to networks in small blinds, the unit of both source
documents. Only the observing player's own hole cards are ever read. A push/fold state is read
through ``PushFoldView``, which gives it those fields (one pre-flop street).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from poker_envs.games.base import Game
from poker_envs.games.holdem import BET, CALL, FOLD, RAISE, HoldemGame
from poker_envs.games.push_fold import ALL_IN, SMALL_BLIND_BB, PushFoldGame, PushFoldState


def holdem_reason(game: Game, what: str) -> str | None:
    """None if ``game`` is a hold'em game the encoders read (hold'em or push/fold); else why not."""
    if isinstance(game, HoldemGame) and game.config.small_blind == 0:
        return "it counts chips in small blinds, and this game's small_blind is 0"
    if isinstance(game, HoldemGame) and (game.config.hole_cards != 2 or game.config.board_cards != (3, 1, 1)):
        return (
            f"{what} holds two hole cards and a 3-1-1 board; game {game.name!r} deals {game.config.hole_cards} hole "
            f"cards and a board of {'-'.join(map(str, game.config.board_cards))}. Use the 'default' encoder, which "
            "reads any number of hole cards, or pass your own Encoder object."
        )
    if isinstance(game, HoldemGame | PushFoldGame):
        return None
    return (
        f"{what} is defined for Texas hold'em (cards of the 52-card deck, two hole cards, a board of up to five "
        f"cards, chip bets by street; short deck too); game {getattr(game, 'name', type(game).__name__)!r} is not hold'em. "
        "Use the environment's 'default' encoder or pass your own Encoder object."
    )


class TableLimits(NamedTuple):
    """What observation-space bounds need: chips per small blind, starting stacks, seats."""

    small_blind: float
    starting_stacks: tuple[float, ...]
    num_players: int


def table_limits(game: Any) -> TableLimits:
    """The bounds' inputs of a hold'em or push/fold game (push/fold counts in big blinds)."""
    if isinstance(game, PushFoldGame):
        return TableLimits(SMALL_BLIND_BB, tuple(game.config.stacks), game.num_players)
    cfg = game.config
    return TableLimits(float(cfg.small_blind), tuple(cfg.starting_stacks), game.num_players)


# Push/fold seen as one pre-flop street of hold'em -------------------------------------------------
class Record(NamedTuple):
    """An ActionRecord of the hold'em engine (player, kind, added, total street bet, all_in)."""

    player: int
    kind: int
    added: float
    total: float
    all_in: bool


@dataclass(frozen=True)
class _Unit:
    small_blind: float = SMALL_BLIND_BB  # push/fold counts in big blinds; a small blind is half of one


class PushFoldView:
    """A push/fold state with the fields of a pre-flop hold'em state (amounts in big blinds).

    Push/fold seats are in acting order (seat 0 first, the last two the blinds), so the button is
    seat 0 heads-up and seat n - 3 otherwise. A push is a raise to the whole stack (less the ante)
    when it is more than the largest bet so far, else a call; a fold is a fold.
    """

    config = _Unit()
    street = 0

    def __init__(self, state: Any) -> None:
        cfg = state.config
        n = state.num_players
        ante = float(cfg.ante_bb)
        self._state = state
        self.num_players = n
        self.button = cfg.button
        self.hole = state.hole
        self.board = state.board
        self.starting_stacks = list(cfg.stacks)
        self.contributed = list(state.contributions)
        self.stacks = [s - c for s, c in zip(self.starting_stacks, self.contributed)]
        self.bets = [c - ante for c in self.contributed]
        blinds = cfg.blinds()  # each seat acts once, so its bet before acting is its blind
        self.folded = [False] * n
        records: list[Record] = []
        top = max(blinds)
        for seat, action in enumerate(state.actions):
            if action == ALL_IN:
                total = self.starting_stacks[seat] - ante
                kind = RAISE if total > top else CALL
                records.append(Record(seat, kind, total - blinds[seat], total, True))
                top = max(top, total)
            else:
                self.folded[seat] = True
                records.append(Record(seat, FOLD, 0.0, blinds[seat], False))
        self.history = [records]
        self.num_active_at_street_start = n
        self._top = top

    def current_player(self) -> int:
        return self._state.current_player()

    def legal_actions(self) -> list[int]:
        return self._state.legal_actions()

    def to_call(self, seat: int) -> float:
        return min(self._top - self.bets[seat], self.stacks[seat])

    def action_to_chips(self, action: int) -> tuple[int, float]:
        """(kind, raise-to) of push/fold action 0 (fold) or 1 (all-in) for the player to act."""
        if action != ALL_IN:
            return FOLD, 0
        seat = self.current_player()
        total = self.starting_stacks[seat] - float(self._state.config.ante_bb)
        return (RAISE, total) if total > self._top else (CALL, 0)


def view(state: Any) -> Any:
    """The state as the encoders read it: hold'em states as they are, push/fold through a view."""
    if isinstance(state, PushFoldState):
        return PushFoldView(state)
    return state


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
    streets: left of the button (heads-up: the big blind). A view of a smaller table (sessions'
    ``SeatedHoldemView``) answers for itself.
    """
    own = getattr(state, "first_to_act", None)
    if own is not None:
        return own(street)
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
    first = first_to_act(state, street)
    if n == 2:  # both players are in the order whenever a street is played
        return 0.0 if player == first else 1.0
    folded_now = {rec.player for rec in street_records(state, street) if rec.kind == FOLD}
    order = [
        seat
        for seat in ((first + i) % n for i in range(n))
        if seat == player or not state.folded[seat] or seat in folded_now
    ]
    if len(order) < 2:
        return 0.0
    return order.index(player) / (len(order) - 1)


def action_added(state: Any, player: int, kind: int, raise_to: float) -> float:
    """Chips ``player`` would put in with the action (fold/check 0, call the amount called)."""
    if kind == CALL:
        return state.to_call(player)  # already capped by the stack
    if kind in (BET, RAISE):
        return raise_to - state.bets[player]
    return 0
