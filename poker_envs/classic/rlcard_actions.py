"""RLCard's fixed-limit action ids (PettingZoo's ``texas_holdem_v4`` and ``leduc_holdem_v4``) over this project's rules.

RLCard numbers the actions 0 call, 1 raise, 2 fold, 3 check; the rules number them 0 fold, 1 check/call,
2 bet/raise. The map reads what each legal rules action is at the node (``GameState.action_kind``, the rules'
own action meaning), so "call" is the rules' call where chips are owed and "check" the same id where none
are; nothing here decides what is legal.
"""

from __future__ import annotations

import numpy as np

from poker_envs.games.base import ActionKind, GameState

CALL, RAISE, FOLD, CHECK = 0, 1, 2, 3
ACTION_NAMES = ("call", "raise", "fold", "check")
_BY_KIND = {
    ActionKind.FOLD: FOLD,
    ActionKind.CHECK: CHECK,
    ActionKind.CALL: CALL,
    ActionKind.BET: RAISE,
    ActionKind.RAISE: RAISE,
    ActionKind.ALL_IN: RAISE,
}


class RLCardLimitActions:
    """``aec.ActionMap`` of RLCard's limit ids: 0 call, 1 raise (a bet where nothing is owed), 2 fold, 3 check."""

    num_actions = len(ACTION_NAMES)
    pass_action = CHECK  # a hand decided without decisions: each player checks once

    def legal(self, state: GameState) -> dict[int, int]:
        """RLCard id -> rules id of every legal action of the player to act."""
        return {_BY_KIND[state.action_kind(a)]: a for a in state.legal_actions()}

    def mask(self, state: GameState) -> np.ndarray:
        mask = np.zeros(self.num_actions, dtype=np.int8)
        mask[list(self.legal(state))] = 1
        return mask

    def rules_action(self, state: GameState, action: int) -> int:
        legal = self.legal(state)
        if action not in legal:
            name = ACTION_NAMES[action] if 0 <= action < self.num_actions else "unknown"
            allowed = ", ".join(f"{a} ({ACTION_NAMES[a]})" for a in sorted(legal))
            raise ValueError(f"action {action} ({name}) is illegal here; legal actions: {allowed}")
        return legal[action]


RLCARD_LIMIT_ACTIONS = RLCardLimitActions()
