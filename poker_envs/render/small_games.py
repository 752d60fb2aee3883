"""Text renderings (``render_mode="ansi"`` / ``"human"``) of the small games' states: every card shown."""

from __future__ import annotations

from poker_envs.core.cards import card_to_str
from poker_envs.games.base import TERMINAL
from poker_envs.games.kuhn import CARD_NAMES as KUHN_CARDS
from poker_envs.games.kuhn import KuhnState
from poker_envs.games.leduc import ACTION_LETTERS, LeducState, card_name
from poker_envs.games.push_fold import PushFoldState, hand_class, hand_class_name
from poker_envs.games.threshold import ThresholdState


def _status(state, returns_fmt: str = "{:+g}") -> str:
    if state.current_player() == TERMINAL:
        return "over; returns " + " ".join(returns_fmt.format(r) for r in state.returns())
    if state.current_player() < 0:
        return "dealing"
    return f"player {state.current_player()} to act"


def render_kuhn(state: KuhnState) -> str:
    cards = " ".join(f"p{i}:{KUHN_CARDS[c]}" for i, c in enumerate(state.cards))
    moves = " ".join("pass" if a == 0 else "bet" for a in state.history) or "-"
    return f"Kuhn | {cards or 'no cards'} | actions: {moves} | {_status(state)}"


def render_leduc(state: LeducState) -> str:
    cards = " ".join(f"p{i}:{card_name(c)}" for i, c in enumerate(state.private))
    public = card_name(state.public) if state.public >= 0 else "--"
    rounds = " / ".join("".join(ACTION_LETTERS[a] for a in h) or "-" for h in state.history)
    return (
        f"Leduc | {cards or 'no cards'} | public {public} | bets {rounds} | "
        f"pot {state.pot()} (p0 {state.contributions[0]}, p1 {state.contributions[1]}) | {_status(state)}"
    )


def render_push_fold(state: PushFoldState) -> str:
    lines = [f"Push/fold {state.num_players} players, ante {state.config.ante_bb:g} BB, pot {sum(state.contributions):g} BB"]
    for seat, pos in enumerate(state.config.positions):
        hole = state.hole[seat]
        cards = "".join(card_to_str(c) for c in hole) if len(hole) == 2 else "----"
        cls = f"({hand_class_name(hand_class(*hole))})" if len(hole) == 2 else ""
        act = "-" if seat >= len(state.actions) else ("fold" if state.actions[seat] == 0 else "all-in")
        lines.append(
            f"  seat {seat} {pos:>3} stack {state.config.stacks[seat]:g} in {state.contributions[seat]:g} {cards} {cls} {act}"
        )
    board = "".join(card_to_str(c) for c in state.board) or "-"
    lines.append(f"  board {board} | {_status(state)}")
    return "\n".join(lines)


def render_threshold(state: ThresholdState) -> str:
    parts = []
    for seat, card in enumerate(state.cards):
        act = "" if seat >= len(state.actions) else ("bet" if state.actions[seat] else "fold")
        parts.append(f"p{seat}:{card}{' ' + act if act else ''}")
    return f"Threshold n={state.num_players} alpha={state.config.alpha:g} | {', '.join(parts)} | {_status(state)}"
