"""The picture's view of a hold'em-family hand (every betting structure, deck, Omaha): read from the rules' public
fields, worded as the text table words them (``render.holdem``)."""

from __future__ import annotations

from collections.abc import Sequence

from poker_envs.core.evaluator import describe
from poker_envs.games.base import TERMINAL
from poker_envs.games.holdem import STREET_NAMES, HoldemState
from poker_envs.render.holdem import holdem_title, record_text
from poker_envs.render.table import SeatView, TableView, amount, card_view, signed, status_line


def holdem_view(state: HoldemState, names: Sequence[str]) -> TableView:
    """The table of ``state``; ``names[s]`` is the agent at rules seat ``s``."""
    cfg = state.config
    n = state.num_players
    player = state.current_player()
    over = player == TERMINAL and state.winnings is not None
    results = state.chip_returns()
    street_records = state.history[-1] if state.history else []
    seats = []
    for s in range(n):
        shown = over and state.strengths is not None and state.strengths[s] is not None
        if shown:
            note = describe(state.strengths[s]).split(",")[0]
        elif state.folded[s]:
            note = "folded"
        elif state.stacks[s] == 0:
            note = "all-in"
        else:
            mine = [r for r in street_records if r.player == s]
            note = record_text(mine[-1], "").strip() if mine and not over else ""
        seats.append(SeatView(
            name=names[s],
            cards=tuple(card_view(c) for c in state.hole[s]),
            stack=amount(state.stacks[s] + state.winnings[s] if over else state.stacks[s]),
            bet=amount(state.bets[s]) if state.bets[s] and not over else "",
            note=note,
            result=signed(results[s]) if over else "",
            folded=state.folded[s],
            to_act=s == player,
            button=s == state.button,
            won=over and results[s] > 0,
        ))
    records = [r for street in state.history for r in street]
    last = record_text(records[-1], names[records[-1].player]) if records else ""
    result = ""
    if over:
        parts = []
        for chips, winners in state.awards:
            who = " and ".join(names[w] for w in winners)
            text = f"{who} {'win' if len(winners) > 1 else 'wins'} {amount(chips)}"
            if state.strengths is not None and state.strengths[winners[0]] is not None:
                text += f" ({describe(state.strengths[winners[0]])})"
            parts.append(text)
        result = "; ".join(parts)
    ante = f" ante {cfg.ante}" if cfg.ante else ""
    return TableView(
        title=f"{holdem_title(state)} · {n} players · blinds {cfg.small_blind}/{cfg.big_blind}{ante}",
        status=status_line(STREET_NAMES[state.street].capitalize(), player, names),
        seats=tuple(seats),
        board=tuple(card_view(c) for c in state.board),
        board_size=state.game.board_after[-1],
        hole_size=cfg.hole_cards,
        pot=f"Pot {amount(state.pot())}",  # every chip put in, the bets in front of the seats included
        last_action=last,
        result=result,
    )
