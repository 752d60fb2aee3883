"""Text table of a hold'em hand (``render_mode="ansi"`` / ``"human"``): seats, stacks, bets, board,
pots, whose turn, the actions so far and, once the hand is over, the hands shown and who won what.
Every seat's cards are shown (the render is for people watching, not for agents)."""

from __future__ import annotations

from poker_envs.core.cards import cards_to_str
from poker_envs.core.evaluator import describe
from poker_envs.games.base import CHANCE, TERMINAL
from poker_envs.games.holdem import BET, FOLD, KIND_NAMES, RAISE, STREET_NAMES, ActionRecord, HoldemState


def record_text(r: ActionRecord, who: str) -> str:
    """One action record in words after ``who`` ("s0 raise to 12 (all-in)"); the pictures use it too."""
    if r.kind == FOLD:
        return f"{who} fold"
    text = f"{who} {KIND_NAMES[r.kind]}"
    if r.kind in (BET, RAISE):
        text += f" to {r.total}"
    elif r.added:
        text += f" {r.added}"
    return text + (" (all-in)" if r.all_in else "")


_BETTING_TITLES = {"nolimit": "No-limit", "potlimit": "Pot-limit", "limit": "Limit"}


def holdem_title(state: HoldemState) -> str:
    """The variant's name from the configuration ("No-limit hold'em", "Pot-limit Omaha", ...)."""
    cfg = state.config
    title = _BETTING_TITLES[cfg.betting]
    game = state.game
    if game.ranking.name != "standard" or len(game.deck) != 52:  # a variant: say which ranking and deck
        title += f" {game.ranking.name.replace('_', ' ')} ({len(game.deck)} cards)"
    if cfg.hand_rule == "omaha":
        title += " Omaha" if cfg.hole_cards == 4 else f" {cfg.hole_cards}-card Omaha"
    else:
        title += " hold'em" if cfg.hole_cards == 2 else f" {cfg.hole_cards}-card hold'em"
    return title


def render_holdem(state: HoldemState) -> str:
    """The table as text (see the module doc); the title names the variant from the configuration."""
    cfg = state.config
    n = state.num_players
    player = state.current_player()
    title = holdem_title(state)
    ante = f" ante {cfg.ante}" if cfg.ante else ""
    lines = [
        f"{title}, {n} players, blinds {cfg.small_blind}/{cfg.big_blind}{ante} | {STREET_NAMES[state.street]}"
        + (" | hand over" if player == TERMINAL else " | dealing" if player == CHANCE else f" | seat {player} to act")
    ]
    over = player == TERMINAL and state.winnings is not None
    results = state.chip_returns()
    for s in range(n):
        stack = state.stacks[s] + state.winnings[s] if over else state.stacks[s]  # paid out once over
        tags = []
        if s == state.button:
            tags.append("BTN")
        if state.folded[s]:
            tags.append("folded")
        elif state.stacks[s] == 0:
            tags.append("all-in")
        if over:
            tags.append(f"{results[s]:+d}")
        cards = cards_to_str(state.hole[s]) or "----"
        arrow = "  <- to act" if s == player else ""
        line = f"  seat {s}: stack {stack:>6}  bet {state.bets[s]:>5}  in pot {state.contributed[s]:>5}  {cards}"
        if tags:
            line += "  [" + ", ".join(tags) + "]"
        lines.append(line + arrow)
    lines.append(f"  board: {cards_to_str(state.board) or '-'}")
    pots = state.pots()
    if pots:
        parts = []
        for k, p in enumerate(pots):
            if len(p.eligible) == 1:  # nobody else can match these chips: an uncalled bet (returned at the end)
                parts.append(f"uncalled {p.amount} (seat {p.eligible[0]})")
            else:
                parts.append(f"{'main' if k == 0 else f'side {k}'} {p.amount} (seats {','.join(map(str, p.eligible))})")
        lines.append("  pots: " + "; ".join(parts))
    for street, records in enumerate(state.history):
        if records:
            lines.append(f"  {STREET_NAMES[street]}: " + ", ".join(record_text(r, f"s{r.player}") for r in records))
    if over:
        if state.strengths is not None:
            for s in range(n):
                if state.strengths[s] is not None:
                    lines.append(f"  shows seat {s}: {cards_to_str(state.hole[s])} {describe(state.strengths[s])}")
        for amount, winners in state.awards:
            who = " and ".join(f"seat {w}" for w in winners)
            lines.append(f"  {who} {'win' if len(winners) > 1 else 'wins'} {amount}")
        lines.append("  result: " + "  ".join(f"seat {s} {r:+d}" for s, r in enumerate(results)))
    return "\n".join(lines)
