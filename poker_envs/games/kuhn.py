"""Kuhn poker rules (as OpenSpiel's ``kuhn_poker``): 3 cards, ante 1, one bet of 1, two players.

Actions: 0 = pass (check or fold), 1 = bet (bet or call). Chance deals player 0's card, then
player 1's, each uniformly from the cards still in the deck (0 = jack, 1 = queen, 2 = king).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from poker_envs.games.base import CHANCE, TERMINAL, Game, GameState

PASS, BET = 0, 1
CARD_NAMES = "JQK"


class KuhnGame(Game):
    name = "kuhn_poker"
    num_players = 2
    num_distinct_actions = 2
    max_game_length = 3

    def new_initial_state(self) -> KuhnState:
        return KuhnState()


@dataclass
class KuhnState(GameState):
    cards: list[int] = field(default_factory=list)
    history: list[int] = field(default_factory=list)
    num_players: int = 2

    def current_player(self) -> int:
        if len(self.cards) < 2:
            return CHANCE
        if self._finished():
            return TERMINAL
        return len(self.history) % 2

    def _finished(self) -> bool:
        h = self.history
        return h == [PASS, PASS] or h[-2:] == [BET, BET] or h[-2:] == [BET, PASS]

    def legal_actions(self) -> list[int]:
        player = self.current_player()
        if player == CHANCE:
            return [c for c in range(3) if c not in self.cards]
        if player == TERMINAL:
            return []
        return [PASS, BET]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = [c for c in range(3) if c not in self.cards]
        return [(c, 1.0 / len(left)) for c in left]

    def apply(self, action: int) -> None:
        legal = self.legal_actions()
        if action not in legal:
            raise ValueError(f"action {action} is illegal in Kuhn poker here; legal actions: {legal}")
        if self.current_player() == CHANCE:
            self.cards.append(action)
        else:
            self.history.append(action)

    def clone(self) -> KuhnState:
        return KuhnState(self.cards[:], self.history[:])

    def returns(self) -> np.ndarray:
        if not self.is_terminal():
            return np.zeros(2)
        h = self.history
        if h[-2:] == [BET, PASS]:  # the player who passed folded to a bet
            folder = (len(h) - 1) % 2
            return np.array([-1.0, 1.0]) if folder == 0 else np.array([1.0, -1.0])
        stake = 2.0 if BET in h else 1.0
        return np.array([stake, -stake]) if self.cards[0] > self.cards[1] else np.array([-stake, stake])

    def information_state_string(self, player: int) -> str:
        card = CARD_NAMES[self.cards[player]] if player < len(self.cards) else "?"
        return card + "".join("pb"[a] for a in self.history)

    def action_to_string(self, action: int) -> str:
        return "pass" if action == PASS else "bet"
