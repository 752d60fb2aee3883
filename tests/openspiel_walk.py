"""A lockstep walk of one of our game trees beside OpenSpiel's, shared by the Kuhn and Leduc tests."""

from __future__ import annotations

from typing import Any

import pytest

from poker_envs.games.base import CHANCE, TERMINAL, GameState


def walk_both(ours: GameState, theirs: Any, pairs: dict, back: dict, terminals: list) -> None:
    """Walk both trees checking players, chance outcomes, legal actions and returns; record infoset key pairs."""
    if theirs.is_terminal():
        assert ours.current_player() == TERMINAL
        assert list(ours.returns()) == list(theirs.returns())
        terminals[0] += 1
        return
    if theirs.is_chance_node():
        assert ours.current_player() == CHANCE
        mine, their = ours.chance_outcomes(), theirs.chance_outcomes()
        assert [c for c, _ in mine] == [c for c, _ in their]
        assert [q for _, q in mine] == pytest.approx([q for _, q in their])
    else:
        p = theirs.current_player()
        assert ours.current_player() == p
        key, their_key = ours.information_state_string(p), theirs.information_state_string(p)
        assert pairs.setdefault(key, their_key) == their_key
        assert back.setdefault(their_key, key) == key
    assert ours.legal_actions() == list(theirs.legal_actions())
    for a in theirs.legal_actions():
        walk_both(ours.child(a), theirs.child(a), pairs, back, terminals)
