"""Moving policies between a compiled ``GameTree`` and OpenSpiel (for cross-checks and benchmarks only).

Information sets are matched by replaying the same action ids in both games from their roots
(chance outcomes included), so neither side's information-state strings need to agree. Legal
actions and chance probabilities are checked on the way: a mismatch means the two rules differ.
OpenSpiel is imported lazily; nothing else in ``agent_zoo.cfr`` needs it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agent_zoo.cfr.tree import GameTree
from poker_envs.games.base import CHANCE, TERMINAL, Game


def infoset_mapping(tree: GameTree, game: Game, os_game: Any) -> dict[str, int]:
    """OpenSpiel information-state string -> our global infoset id, by a joint walk of both trees."""
    index = tree.infoset_index()
    mapping: dict[str, int] = {}
    stack = [(game.new_initial_state(), os_game.new_initial_state())]
    while stack:
        ours, theirs = stack.pop()
        player = ours.current_player()
        if player == TERMINAL:
            if not theirs.is_terminal():
                raise AssertionError(f"our game ended but OpenSpiel's did not at {theirs.history()}")
            if not np.allclose(ours.returns(), theirs.returns(), atol=1e-12):
                raise AssertionError(f"returns differ at {theirs.history()}: {ours.returns()} vs {theirs.returns()}")
            continue
        if player == CHANCE:
            mine = dict(ours.chance_outcomes())
            other = dict(theirs.chance_outcomes())
            if set(mine) != set(other) or any(abs(mine[a] - other[a]) > 1e-12 for a in mine):
                raise AssertionError(f"chance outcomes differ at {theirs.history()}: {mine} vs {other}")
            actions = sorted(mine)
        else:
            if theirs.current_player() != player:
                raise AssertionError(f"player to act differs at {theirs.history()}")
            actions = list(ours.legal_actions())
            if actions != list(theirs.legal_actions()):
                raise AssertionError(f"legal actions differ at {theirs.history()}: {actions} vs {theirs.legal_actions()}")
            key = theirs.information_state_string()
            info = index[ours.information_state_string(player)]
            if mapping.setdefault(key, info) != info:
                raise AssertionError(f"OpenSpiel infoset {key!r} maps to two of our infosets")
        for a in actions:
            stack.append((ours.child(a), theirs.child(a)))
    return mapping


def to_openspiel_policy(tree: GameTree, policy: np.ndarray, game: Game, os_game: Any) -> Any:
    """Our (I, A) policy as an OpenSpiel ``TabularPolicy`` of ``os_game``."""
    from open_spiel.python import policy as os_policy

    policy = tree.check_policy(policy)
    table = os_policy.TabularPolicy(os_game)
    for key, info in infoset_mapping(tree, game, os_game).items():
        table.policy_for_key(key)[:] = policy[info]
    return table


def from_openspiel_policy(tree: GameTree, os_policy: Any, game: Game, os_game: Any) -> np.ndarray:
    """An OpenSpiel policy (anything with ``action_probabilities(state)``) as our (I, A) array."""
    out = np.zeros(tree.legal_mask.shape)
    seen = np.zeros(tree.num_infosets, dtype=bool)
    mapping = infoset_mapping(tree, game, os_game)
    stack = [os_game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if not state.is_chance_node():
            info = mapping[state.information_state_string()]
            if not seen[info]:
                seen[info] = True
                for a, p in os_policy.action_probabilities(state).items():
                    out[info, a] = p
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        stack.extend(state.child(a) for a in actions)
    return out
