"""The picture's views of the small games (Kuhn, Leduc, push/fold, the threshold game), read from the rules'
public fields."""

from __future__ import annotations

from collections.abc import Sequence

from poker_envs.core.evaluator import describe
from poker_envs.games.base import TERMINAL, ActionKind
from poker_envs.games.kuhn import BET as KUHN_BET
from poker_envs.games.kuhn import CARD_NAMES as KUHN_CARDS
from poker_envs.games.kuhn import KuhnState
from poker_envs.games.leduc import ANTE as LEDUC_ANTE
from poker_envs.games.leduc import LeducState, card_name, card_rank
from poker_envs.games.push_fold import FOLD as PF_FOLD
from poker_envs.games.push_fold import PushFoldState
from poker_envs.games.threshold import BET as THRESHOLD_BET
from poker_envs.games.threshold import ThresholdState
from poker_envs.render.table import CardView, SeatView, TableView, amount, card_view, signed, status_line

KUHN_ANTE = 1  # Kuhn poker: each player antes one chip, and a bet or call adds one (games.kuhn)
KUHN_WORDS = ("pass", "bet")  # Kuhn's action ids 0, 1
LEDUC_WORDS = ("fold", "call", "raise")  # Leduc's action ids 0, 1, 2
PUSH_FOLD_WORDS = {ActionKind.FOLD: "fold", ActionKind.CALL: "call all-in", ActionKind.RAISE: "all-in"}


def _winners(returns: Sequence[float], names: Sequence[str], nobody: str, unit: str = "", hands: Sequence[str] = ()) -> str:
    """"player_1 +2" for every seat that won (with its hand, where ``hands`` has one); ``nobody`` when none did."""
    won = [f"{names[s]} {signed(r)}{unit}" + (f" ({hands[s]})" if hands and hands[s] else "")
           for s, r in enumerate(returns) if r > 0]
    return ", ".join(won) if won else nobody


def kuhn_view(state: KuhnState, names: Sequence[str]) -> TableView:
    """Kuhn poker: the two cards, what each put in (ante and bet), every action."""
    player = state.current_player()
    over = player == TERMINAL
    history = state.history
    chips = [KUHN_ANTE + sum(1 for i, a in enumerate(history) if a == KUHN_BET and i % 2 == s) for s in range(2)]
    returns = state.returns()
    seats = tuple(
        SeatView(
            name=names[s],
            cards=(CardView(KUHN_CARDS[state.cards[s]]),) if s < len(state.cards) else (),
            bet="" if over else str(chips[s]),
            note=" ".join(KUHN_WORDS[a] for a in history[s::2]),
            result=signed(returns[s]) if over else "",
            to_act=s == player,
            won=over and returns[s] > 0,
        )
        for s in range(2)
    )
    last = f"{names[(len(history) - 1) % 2]} {KUHN_WORDS[history[-1]]}" if history else ""
    return TableView(
        title="Kuhn poker · 2 players · ante 1",
        status=status_line("", player, names),
        seats=seats,
        pot=f"Pot {sum(chips)}",
        last_action=last,
        result=_winners(returns, names, "") if over else "",
    )


def leduc_view(state: LeducState, names: Sequence[str]) -> TableView:
    """Leduc hold'em: private cards, the public card once dealt, contributions, the round's actions."""
    player = state.current_player()
    over = player == TERMINAL
    returns = state.returns()
    public = state.public
    hands = ["", ""]
    if over and state.folder < 0:  # a showdown: both private cards and the public card are dealt
        for s, card in enumerate(state.private):
            rank = card_name(card)[0]
            hands[s] = f"pair of {rank}s" if card_rank(card) == card_rank(public) else f"{rank} high"
    seats = []
    for s in range(2):
        card = state.private[s] if s < len(state.private) else -1
        moves = state.history[state.round]
        mine = [LEDUC_WORDS[a] for i, a in enumerate(moves) if i % 2 == s]  # player 0 opens both rounds
        note = hands[s] or ("folded" if state.folder == s else (mine[-1] if mine else ""))
        seats.append(SeatView(
            name=names[s],
            cards=(CardView(*card_name(card)),) if card >= 0 else (),
            bet="" if over else str(state.contributions[s]),
            note=note,
            result=signed(returns[s]) if over else "",
            folded=state.folder == s,
            to_act=s == player,
            won=over and returns[s] > 0,
        ))
    moves = [(i % 2, a) for i, a in enumerate(state.history[1])] or [(i % 2, a) for i, a in enumerate(state.history[0])]
    last = f"{names[moves[-1][0]]} {LEDUC_WORDS[moves[-1][1]]}" if moves else ""
    return TableView(
        title=f"Leduc hold'em · 2 players · ante {LEDUC_ANTE}",
        status=status_line(f"Round {state.round + 1}", player, names),
        seats=tuple(seats),
        board=(CardView(*card_name(public)),) if public >= 0 else (),
        board_size=1,
        pot=f"Pot {state.pot()}",
        last_action=last,
        result=_winners(returns, names, "Split pot", hands=hands) if over else "",
    )


def push_fold_view(state: PushFoldState, names: Sequence[str]) -> TableView:
    """Push-or-fold: positions, stacks and what each put in (big blinds), all-ins and folds, the board run out."""
    cfg = state.config
    n = state.num_players
    player = state.current_player()
    over = player == TERMINAL
    returns = state.returns()
    records = state.action_records()
    showdown = len(state.board) == 5
    live = state.live()
    hands = [describe(v) if live[s] else "" for s, v in enumerate(state.strengths())] if showdown else []
    seats = []
    for s in range(n):
        acted = s < len(state.actions)
        if hands and hands[s]:
            note = hands[s].split(",")[0]
        elif acted:
            note = PUSH_FOLD_WORDS[ActionKind(records[s][1])]
        else:
            note = cfg.positions[s]
        left = cfg.stacks[s] + returns[s] if over else cfg.stacks[s] - state.contributions[s]
        seats.append(SeatView(
            name=f"{names[s]} {cfg.positions[s]}",
            cards=tuple(card_view(c) for c in state.hole[s]),
            stack=amount(left),
            bet="" if over else amount(state.contributions[s]),
            note=note,
            result=signed(returns[s]) if over else "",
            folded=acted and state.actions[s] == PF_FOLD,
            to_act=s == player,
            button=s == cfg.button,
            won=over and returns[s] > 0,
        ))
    last = ""
    if records:
        seat, kind = records[-1][0], ActionKind(records[-1][1])
        last = f"{names[seat]} {PUSH_FOLD_WORDS[kind]}"
    ante = f" ante {amount(cfg.ante_bb)}" if cfg.ante_bb else ""
    return TableView(
        title=f"Push-or-fold hold'em · {n} players · blinds 0.5/1 bb{ante}",
        status=status_line("Preflop", player, names),
        seats=tuple(seats),
        board=tuple(card_view(c) for c in state.board),
        board_size=5,
        hole_size=2,
        pot=f"Pot {amount(sum(state.contributions))} bb",
        last_action=last,
        result=_winners(returns, names, "Split pot", " bb", hands) if over else "",
    )


def threshold_view(state: ThresholdState, names: Sequence[str]) -> TableView:
    """The threshold game: each seat's card (0..100) and declaration (what a bettor risks, or a fold)."""
    cfg = state.config
    n = state.num_players
    player = state.current_player()
    over = player == TERMINAL
    returns = state.returns()
    seats = []
    for s in range(n):
        declared = s < len(state.actions)
        bets = declared and state.actions[s] == THRESHOLD_BET
        seats.append(SeatView(
            name=names[s],
            cards=(CardView(str(state.cards[s])),) if s < len(state.cards) else (),
            bet=amount(cfg.alpha) if bets and not over else "",
            note=("bet" if bets else "fold") if declared else "",
            result=signed(returns[s]) if over else "",
            folded=declared and not bets,
            to_act=s == player,
            won=over and returns[s] > 0,
        ))
    last = ""
    if state.actions:
        k = len(state.actions) - 1
        last = f"{names[k]} {'bet' if state.actions[k] == THRESHOLD_BET else 'fold'}"
    return TableView(
        title=f"Threshold game · {n} players · alpha {amount(cfg.alpha)}",
        status=status_line("", player, names),
        seats=tuple(seats),
        last_action=last,
        result=_winners(returns, names, "Nobody bets: no chips change hands") if over else "",
    )
