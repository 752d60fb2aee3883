"""Hold'em hands as frames: one JSON-ready dict per moment of a hand, every number computed by the rules.

The viewer's page only draws frames; what a frame holds comes from a ``HoldemState`` that
``poker_envs.games.holdem`` walks move by move (``walk``), so pots, stacks and bets are the rules' own.
A frame has:

* ``street`` ("preflop" .. "river"), ``board`` (cards such as "Ah"), ``pot`` (every chip put in, in the
  hand's chips), ``to_act`` (the seat to act next, or None) and ``actor`` (the seat whose action the
  frame shows, None for deals and the end);
* ``text``: what happened ("Flop: Jc 3d 5c", "Tom Dwan raises to 232,600");
* ``seats``: per seat ``name``, ``cards`` (card strings; None for a card the viewer does not know or must
  not show), ``stack`` (chips behind), ``bet`` (this street), ``folded``, ``all_in``, ``button``, and at
  the end ``won`` (chips won or lost) and, at a showdown, ``hand`` (its name, e.g. "two pair, kings and
  sevens");
* ``over``: True on the last frame of a finished hand;
* ``reply`` (decision logs only): the language model's decision behind that action.

Amounts: the rules count whole chips; ``scale`` engine chips make one chip of the hand (PHH files with
fractional amounts), and frames carry the hand's chips.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from poker_envs.core.cards import card_to_str
from poker_envs.core.evaluator import describe
from poker_envs.games.base import CHANCE, TERMINAL
from poker_envs.games.holdem import (
    BET,
    CALL,
    CHECK,
    FOLD,
    RAISE,
    STREET_NAMES,
    ActionRecord,
    HoldemGame,
    HoldemState,
)

Frame = dict[str, Any]
VERBS = ("f", "cc", "cbr")  # the moves ``walk`` takes (PHH's verbs): fold, check or call, bet or raise to an amount


@dataclass(frozen=True)
class Move:
    """One player action to replay: ``verb`` "f" folds, "cc" checks or calls, "cbr" bets or raises to ``to``
    engine chips (the street total); the rules say which of check/call and bet/raise it is."""

    seat: int  # rules seat
    verb: str
    to: int = 0
    reply: Mapping[str, Any] | None = None  # a decision log's record of this decision, shown with its frame
    pot: int | None = None  # the pot (engine chips) the log saw before this action; checked against the rules
    where: str = ""  # names the move in errors (a file and its line)


def amount(chips: int, scale: int = 1) -> int | float:
    """Engine chips in the hand's chips (an int when whole)."""
    return chips // scale if chips % scale == 0 else chips / scale


def chips_text(value: float) -> str:
    """An amount as people read it: 1,067,100 or 12.5."""
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.6f}".rstrip("0").rstrip(".")


def cards_text(cards: Sequence[int]) -> str:
    return " ".join(card_to_str(c) for c in cards)


def table_frame(state: HoldemState, names: Sequence[str], visible: Sequence[bool], text: str, actor: int | None = None,
                scale: int = 1) -> Frame:
    """The frame of ``state``: seat ``s``'s cards are shown where ``visible[s]``."""
    player = state.current_player()
    seats = []
    for s in range(state.num_players):
        cards = [card_to_str(c) for c in state.hole[s]] if visible[s] else [None] * len(state.hole[s])
        seats.append({"name": names[s], "cards": cards, "stack": amount(state.stacks[s], scale),
                      "bet": amount(state.bets[s], scale), "folded": bool(state.folded[s]),
                      "all_in": bool(state.stacks[s] == 0 and not state.folded[s]), "button": s == state.button})
    return {"street": STREET_NAMES[state.street], "board": [card_to_str(c) for c in state.board],
            "pot": amount(state.pot(), scale), "seats": seats, "to_act": player if player >= 0 else None,
            "actor": actor, "text": text}


def last_action(state: HoldemState) -> tuple[int, ActionRecord]:
    """The street and record of the last action the rules recorded (a street the action ended is not the last)."""
    street = max(k for k, records in enumerate(state.history) if records)
    return street, state.history[street][-1]


def action_text(state: HoldemState, names: Sequence[str], scale: int = 1) -> str:
    """The last action the rules recorded, in words ("Bill raises to 300 (all-in)")."""
    _, rec = last_action(state)
    who = names[rec.player]
    if rec.kind == FOLD:
        words = "folds"
    elif rec.kind == CHECK:
        words = "checks"
    elif rec.kind == CALL:
        words = f"calls {chips_text(amount(rec.added, scale))}"
    else:
        words = f"{'bets' if rec.kind == BET else 'raises to'} {chips_text(amount(rec.total, scale))}"
    return f"{who} {words}" + (" (all-in)" if rec.all_in and rec.kind != FOLD else "")


def end_frame(state: HoldemState, names: Sequence[str], visible: Sequence[bool], results: Sequence[float],
              scale: int = 1) -> Frame:
    """The last frame of a finished hand: each seat's result, and at a showdown the names of the hands shown."""
    showdown = state.strengths is not None
    frame = table_frame(state, names, visible, "Showdown" if showdown else "Hand over", scale=scale)
    for s, seat in enumerate(frame["seats"]):
        seat["won"] = results[s]
        if state.winnings is not None:  # the pots paid out: the bets are gone to the winners
            seat["stack"] = amount(state.stacks[s] + state.winnings[s], scale)
            seat["bet"] = 0
        if showdown and not state.folded[s] and visible[s]:
            seat["hand"] = describe(state.strengths[s])
    frame["over"] = True
    changes = [f"{names[s]} {'+' if r > 0 else '-'}{chips_text(abs(r))}" for s, r in enumerate(results) if r]
    frame["text"] += ": " + (", ".join(changes) if changes else "nobody wins or loses")
    return frame


def walk(game: HoldemGame, button: int, hole: Sequence[Sequence[int]], board: Sequence[int], moves: Sequence[Move],
         names: Sequence[str], known: Sequence[bool], scale: int = 1,
         results: Sequence[float] | None = None) -> list[Frame]:
    """Play ``moves`` through ``game`` from a deal of ``hole`` (every seat's cards) and ``board`` (the cards known;
    the walk stops where an unknown card is due) and return a frame after the deal, after each street's cards and
    after each move, and, if the hand ends, its result (``results`` in the hand's chips per seat; default: the
    rules' settlement, and no result where it would come from cards not ``known``). ``known[s]``: seat ``s``'s cards
    may be shown. An illegal move is a ValueError naming it."""
    state = game.new_initial_state(button=button, hole=hole, board=board)
    frames: list[Frame] = []
    pending = list(moves)
    size, n = game.config.hole_cards, game.num_players
    dealt = False
    while True:
        player = state.current_player()
        if player == CHANCE:
            if dealt and len(state.board) >= len(board):
                break  # the next card is not known (a decision log ends before it)
            state.apply(state.chance_outcomes()[0][0])  # the fixed deal's next card
            if not dealt and all(len(h) == size for h in state.hole):
                dealt = True
                frames.append(table_frame(state, names, known, "Cards dealt, blinds posted", scale=scale))
            elif dealt and len(state.board) in game.board_after[1:]:  # a street's cards are out
                street = game.board_after.index(len(state.board))  # (an all-in run-out has moved the rules on)
                new = state.board[game.board_after[street - 1]:]
                frame = table_frame(state, names, known, f"{STREET_NAMES[street].capitalize()}: {cards_text(new)}",
                                    scale=scale)
                frame["street"] = STREET_NAMES[street]
                frames.append(frame)
            continue
        if player == TERMINAL:
            if results is None:
                if state.strengths is not None and not all(known[s] for s in range(n) if not state.folded[s]):
                    break  # a showdown of cards the caller does not know: no result to show
                results = [amount(r, scale) for r in state.chip_returns()]
            frames.append(end_frame(state, names, known, results, scale))
            break
        if not pending:
            break
        move = pending.pop(0)
        _apply(state, move, names)
        frame = table_frame(state, names, known, action_text(state, names, scale), actor=move.seat, scale=scale)
        frame["street"] = STREET_NAMES[last_action(state)[0]]  # the street it was taken on
        if move.reply is not None:
            frame["reply"] = dict(move.reply)
        frames.append(frame)
    if pending:
        raise ValueError(f"{pending[0].where or 'move'}: {len(pending)} action(s) left after the hand was over")
    return frames


def _apply(state: HoldemState, move: Move, names: Sequence[str]) -> None:
    """Apply ``move`` with the rules, checking it is the mover's turn and the pot it saw."""
    where = move.where or f"{names[move.seat]}'s action"
    player = state.current_player()
    if move.seat != player:
        raise ValueError(f"{where}: {names[move.seat]} acts, but it is {names[player]}'s turn")
    if move.pot is not None and move.pot != state.pot():
        raise ValueError(f"{where}: the pot was {move.pot} chips when it was taken, the rules say {state.pot()}")
    owe = state.max_bet() > state.bets[player]
    if move.verb == "f":
        kind, to = FOLD, 0
    elif move.verb == "cc":
        kind, to = (CALL if owe else CHECK), 0
    elif move.verb == "cbr":
        kind, to = (RAISE if state.max_bet() > 0 else BET), move.to
    else:
        raise ValueError(f"{where}: verb {move.verb!r} is not one of {VERBS}")
    try:
        state.apply_raw(kind, to)
    except ValueError as err:
        raise ValueError(f"{where}: not allowed by the rules: {err}") from None


def moves_of(state: HoldemState) -> list[Move]:
    """The player actions of a hand the rules played (its records, street by street), as moves."""
    out = []
    for street in state.history:
        for rec in street:
            verb = "f" if rec.kind == FOLD else "cc" if rec.kind in (CHECK, CALL) else "cbr"
            out.append(Move(rec.player, verb, rec.total if verb == "cbr" else 0))
    return out
