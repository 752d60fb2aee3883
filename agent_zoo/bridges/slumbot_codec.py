"""Slumbot's action strings read onto the hold'em rules, and the rules' actions written back: pure functions.

Slumbot (slumbot.com) plays heads-up no-limit hold'em with blinds 50/100 and 20,000 chips (200 big blinds) each,
reset every hand. Its HTTP API describes a hand by one string, e.g. ``b200c/kk/kb300c/kk``:

* ``k`` check, ``c`` call, ``f`` fold, ``b<N>`` a bet or raise **to N chips counted on this street only** (the
  player's whole bet on the street, blinds included pre-flop): in ``b200c/kb400`` the flop bet to 400 adds 400
  chips to the 200 each player put in pre-flop. N is neither the chips added by the action nor the total of the
  hand;
* ``/`` closes a betting round; a string may end with it (``b200c/``: the flop is next) or not (``b200c``);
* once both players are all-in the streets left have no action: ``b20000c///`` (or just ``b20000c``).

Positions: Slumbot's position 1 is the small blind, the button, who acts first pre-flop; position 0 is the big
blind, who acts first after the flop (an API response's ``client_pos`` is the client's position). The rules seat
of a hand here is the Slumbot position: the button sits on seat ``BUTTON`` = 1.

``replay`` plays a string on a rules state (``HoldemState.apply_raw``: every action is checked by the rules, whose
no-limit minimum raise is Slumbot's), ``encode`` writes the string of a state's actions so far, ``incr`` the one
action the API's ``/api/act`` takes. A string the rules refuse is a ``SlumbotActionError`` naming the string, the
character and what was allowed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from poker_envs import catalog
from poker_envs.games.base import CHANCE, TERMINAL, play_chance
from poker_envs.games.holdem import BET, CALL, CHECK, FOLD, RAISE, HoldemGame, HoldemState

SMALL_BLIND = 50
BIG_BLIND = 100
STACK = 20_000  # chips each player starts every hand with (200 big blinds)
BUTTON = 1  # Slumbot's position 1 is the small blind and the button: rules seat = Slumbot position
NUM_STREETS = 4  # pre-flop, flop, turn, river
LETTERS = {FOLD: "f", CHECK: "k", CALL: "c"}  # bets and raises are "b<N>"


class SlumbotActionError(ValueError):
    """An action string (or one action) that cannot be read or that the rules refuse at its place."""


class Token(NamedTuple):
    """One action of a string: its street (0 pre-flop .. 3 river), letter, bet-to amount and where it starts."""

    street: int
    letter: str  # "k", "c", "f" or "b"
    to: int  # for "b": the player's bet on the street after it; 0 otherwise
    at: int  # index of its first character in the string


def slumbot_game() -> HoldemGame:
    """The rules of Slumbot's table: the catalog's no-limit hold'em, heads-up, blinds 50/100, 20,000 chips each."""
    game = catalog.game("nolimit").rules(num_players=2, small_blind=SMALL_BLIND, big_blind=BIG_BLIND,
                                         starting_stacks=STACK)
    assert isinstance(game, HoldemGame)
    return game


def tokens(text: str) -> tuple[list[Token], int]:
    """The actions of ``text`` and the number of streets it names (its ``/`` plus one); only the syntax is checked."""
    if not isinstance(text, str):
        raise SlumbotActionError(f"an action string must be a str, got {type(text).__name__}")
    out: list[Token] = []
    street, i = 0, 0
    while i < len(text):
        c = text[i]
        if c == "/":
            street += 1
            if street >= NUM_STREETS:
                raise SlumbotActionError(f"action {text!r}: character {i} is a fifth '/'; a hand has {NUM_STREETS} streets")
            i += 1
        elif c in "kcf":
            out.append(Token(street, c, 0, i))
            i += 1
        elif c == "b":
            j = i + 1
            while j < len(text) and text[j].isascii() and text[j].isdigit():
                j += 1
            if j == i + 1:
                raise SlumbotActionError(f"action {text!r}: the 'b' at character {i} has no amount (b<N>: a bet to N chips)")
            out.append(Token(street, "b", int(text[i + 1 : j]), i))
            i = j
        else:
            raise SlumbotActionError(f"action {text!r}: character {i} is {c!r}; an action string holds k, c, f, b<N> and /")
    return out, street + 1


def new_state(game: HoldemGame, hole: Sequence[Sequence[int | str]], board: Sequence[int | str] = ()) -> HoldemState:
    """A hand of ``game`` with ``hole[p]`` the cards of Slumbot position ``p`` and the board's known cards."""
    return game.new_initial_state(button=BUTTON, hole=hole, board=board)


def replay(state: HoldemState, text: str, rng: np.random.Generator | None = None) -> HoldemState:
    """Play ``text`` on ``state`` (a hand at its start, from ``new_state``) in place and return it.

    Cards are dealt from the state's fixed cards; past them from ``rng`` (a ValueError if none is given). Every
    ``/`` must close a betting round the rules close there; after both players are all-in the string may end or
    close every street up to the river (``b20000c///``), and nothing follows a fold or the river's last action.
    """
    if state.history != [[]] or state.current_player() not in (CHANCE, BUTTON):
        raise ValueError("replay starts from a hand at its beginning (new_state), before any action")
    moves, streets = tokens(text)
    for move in moves:
        _deal(state, rng)
        where = f"action {text!r}: {_describe(move)} at character {move.at}"
        if state.current_player() == TERMINAL:
            raise SlumbotActionError(f"{where} comes after the hand is over")
        if state.street != move.street:
            raise SlumbotActionError(f"{where} is on street {move.street}, but the betting is on street {state.street} "
                                     f"({'a / is missing' if state.street > move.street else 'that round is not closed'})")
        try:
            apply(state, move.letter, move.to)
        except ValueError as exc:
            raise SlumbotActionError(f"{where}: {exc}") from None
    _deal(state, rng)
    _check_slashes(state, text, streets)
    return state


def apply(state: HoldemState, letter: str, to: int = 0) -> None:
    """Play one Slumbot action on ``state`` (the player to act): ``k``, ``c``, ``f`` or ``b`` to ``to`` street chips."""
    if letter == "k":
        state.apply_raw(CHECK)
    elif letter == "c":
        state.apply_raw(CALL)
    elif letter == "f":
        state.apply_raw(FOLD)
    elif letter == "b":
        state.apply_raw(RAISE if state.max_bet() > 0 else BET, to)
    else:
        raise SlumbotActionError(f"action letter {letter!r} is not one of k, c, f, b")


def parse_incr(text: str) -> tuple[str, int]:
    """One action as ``/api/act``'s ``incr`` gives it (``k``, ``c``, ``f``, ``b<N>``): (letter, amount)."""
    moves, streets = tokens(text)
    if len(moves) != 1 or streets != 1:
        raise SlumbotActionError(f"incr {text!r} must be exactly one action: k, c, f or b<N>")
    return moves[0].letter, moves[0].to


def _describe(move: Token) -> str:
    return f"'b{move.to}'" if move.letter == "b" else repr(move.letter)


def _deal(state: HoldemState, rng: np.random.Generator | None) -> None:
    """Deal the cards due: the state's fixed cards, then cards from ``rng`` (a ValueError without one)."""
    if rng is not None:
        play_chance(state, rng)
        return
    while state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        if len(outcomes) != 1:
            raise ValueError("the hand needs a card that was not given (hole cards and board); pass rng to deal it")
        state.apply(outcomes[0][0])


def _check_slashes(state: HoldemState, text: str, streets: int) -> None:
    """Where the string's ``/`` stand must be where the rules closed betting rounds."""
    if state.current_player() == TERMINAL:
        last = max((k for k, street in enumerate(state.history) if street), default=0)  # the street of the last action
        all_in = not any(state.folded) and last < NUM_STREETS - 1
        if streets == last + 1 or (all_in and streets == NUM_STREETS):
            return
        ending = "the river ('///' after a pre-flop all-in call)" if all_in else "its last action"
        raise SlumbotActionError(f"action {text!r}: the hand is over after street {last}; the string ends there or, "
                                 f"with both players all-in, closes every street up to the river; it names {streets} "
                                 f"streets, so it must end after {ending}")
    if streets - 1 > state.street:
        raise SlumbotActionError(f"action {text!r}: a '/' closes street {state.street}, whose betting is not over")
    if streets - 1 < state.street - 1:
        raise SlumbotActionError(f"action {text!r}: the betting is on street {state.street}, the string names {streets}")


def incr(kind: int, to: int = 0) -> str:
    """The API's action for a rules action ``kind`` (FOLD, CHECK, CALL, BET, RAISE) and its street bet-to ``to``."""
    if kind in (BET, RAISE):
        return f"b{int(to)}"
    if kind not in LETTERS:
        raise ValueError(f"kind must be one of FOLD=0, CHECK=1, CALL=2, BET=3, RAISE=4, got {kind!r}")
    return LETTERS[kind]


def incr_of_action(state: HoldemState, action: int) -> str:
    """The API's action for the discrete ``action`` id of the player to act at ``state`` (ValueError if illegal)."""
    kind, to = state.action_to_chips(action)
    return incr(kind, to)


def encode(state: HoldemState) -> str:
    """The action string of ``state``'s hand so far, as Slumbot writes it (``b200c/kk/``, ``b20000c///``)."""
    return "/".join("".join(incr(r.kind, r.total) for r in street) for street in state.history)
